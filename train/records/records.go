// Package records holds the comparison records that `fp8lab train
// --compare -o` writes and docs/training's generator keeps: every run of
// every recipe and seed, and the command, machine and date that made them.
// The generator writes them here, gzipped (Path), so that one copy serves
// both the pages it renders and the playground, which embeds the reference
// configuration's runs (Reference): go:embed cannot reach docs/.
package records

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/fp8lab/fp8lab/internal/infile"
	"github.com/fp8lab/fp8lab/internal/strictjson"
	"github.com/fp8lab/fp8lab/train/compare"
)

// Record is an `fp8lab train --compare -o` file: the runs and the table
// computed from them.
type Record struct {
	compare.Set
	// Summary is the table against the default baseline; nil when too few
	// runs finished.
	Summary *compare.Summary `json:"summary"`
	// Date (UTC), Machine, Seconds (wall time of the whole comparison),
	// CPUSeconds (the process's CPU time over all threads, which other
	// processes' load does not inflate) and Load (the load averages before
	// and after, where the system tells them) say where and when the runs
	// were made; they are not reproducible. Records written before
	// CPUSeconds and Load existed have zero and "".
	Date       string  `json:"date"`
	Machine    string  `json:"machine"`
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	Load       string  `json:"load,omitempty"`
}

// Dir is where the generator keeps the records, relative to the
// repository root.
const Dir = "train/records"

// Path is the file of one configuration's records of one kind (runs: the
// recipe comparison; spike: the activation-spike experiment), relative to
// the repository root.
func Path(config, kind string) string {
	return filepath.Join(filepath.FromSlash(Dir), config+"-"+kind+".json.gz")
}

// gzipMagic starts every gzip stream.
var gzipMagic = []byte{0x1f, 0x8b}

// MaxDecodedBytes bounds a record as JSON, after decompression: the largest
// shipped one (13 recipes × 3 seeds × 400 steps) is 5.9 MB. It is checked
// while inflating, so a small gzip file cannot make Read hold gigabytes.
const MaxDecodedBytes = 32 << 20

// Read decodes a record, gzipped or plain JSON, and checks that its runs
// are where Set.Run looks for them. A gzipped record is verified (its CRC
// and length, one gzip member and nothing after it) and decoded strictly
// (internal/strictjson: one value, not null, no key twice, no unknown
// key); more than MaxDecodedBytes of JSON is an error.
func Read(r io.Reader) (*Record, error) {
	data, err := decompress(bufio.NewReader(r))
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("records: empty input, no record in it")
	}
	var rec Record
	if err := strictjson.Decode(data, &rec); err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	if want := len(rec.Recipes) * len(rec.Seeds); len(rec.Runs) != want {
		return nil, fmt.Errorf("records: %d runs for %d recipes × %d seeds", len(rec.Runs), len(rec.Recipes), len(rec.Seeds))
	}
	return &rec, nil
}

// decompress returns the JSON of a record file, inflating a gzipped one to
// its verified end, at most MaxDecodedBytes.
func decompress(br *bufio.Reader) ([]byte, error) {
	var in io.Reader = br
	zipped := false
	if head, _ := br.Peek(2); bytes.Equal(head, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		zr.Multistream(false)
		in, zipped = zr, true
	}
	data, err := readAtMost(in, MaxDecodedBytes+1)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) && zipped:
		return nil, errors.New("gzip: the stream is cut short (no trailer)")
	case err != nil:
		return nil, err // gzip.ErrChecksum for a flipped bit
	case len(data) > MaxDecodedBytes:
		return nil, fmt.Errorf("more than %d bytes of JSON (the limit of a record)", MaxDecodedBytes)
	}
	if zipped {
		if _, err := br.ReadByte(); err != io.EOF {
			return nil, errors.New("data after the gzip stream")
		}
	}
	return data, nil
}

// readAtMost reads r to its end, or to max bytes, in chunks of 1 MiB
// joined once: it allocates about twice what it reads, whatever the size
// (io.ReadAll's doubling took 2.3 times, and 4.6 times under the race
// detector).
func readAtMost(r io.Reader, max int) ([]byte, error) {
	const chunk = 1 << 20
	var chunks [][]byte
	var c []byte // the chunk being filled
	for n := 0; n < max; {
		if len(c) == cap(c) {
			c = make([]byte, 0, min(chunk, max-n))
			chunks = append(chunks, nil)
		}
		k, err := r.Read(c[len(c):cap(c)])
		c, n = c[:len(c)+k], n+k
		chunks[len(chunks)-1] = c
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return bytes.Join(chunks, nil), nil
}

// ReadFile reads a record file, gzipped or plain JSON, by fp8lab's open
// rule (internal/infile: a regular file of at most infile.Record.Max bytes).
func ReadFile(path string) (*Record, error) {
	f, _, err := infile.Open(path, infile.Record)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// Compress returns a record file's bytes (gzipped or plain JSON) gzipped
// at the best compression, after checking that they hold a record. The
// output has no name or time in its header, so the same record gives the
// same bytes.
func Compress(b []byte) ([]byte, error) {
	if _, err := Read(bytes.NewReader(b)); err != nil {
		return nil, err
	}
	if bytes.HasPrefix(b, gzipMagic) {
		return b, nil
	}
	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
