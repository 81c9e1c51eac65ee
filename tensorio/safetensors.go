package tensorio

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"unicode/utf8"

	"github.com/fp8lab/fp8lab/scaling"
)

// The safetensors format: an 8-byte little-endian header length N, N bytes
// of UTF-8 JSON mapping each tensor name to {"dtype", "shape",
// "data_offsets": [begin, end]} (offsets relative to the byte after the
// header) plus an optional "__metadata__" map of strings, then the raw
// little-endian data.

// MaxSafetensorsHeader is the largest header accepted: 100 MB, the
// reference implementation's MAX_HEADER_SIZE.
const MaxSafetensorsHeader = 100_000_000

// openSafetensors reads the header of a safetensors file and lists its
// tensors.
func (a *Archive) openSafetensors(r io.ReaderAt, size int64) error {
	var pre [8]byte
	if _, err := r.ReadAt(pre[:], 0); err != nil {
		return fmt.Errorf("%w: safetensors header length: %v", scaling.ErrParse, err)
	}
	n := binary.LittleEndian.Uint64(pre[:])
	if n > MaxSafetensorsHeader {
		return fmt.Errorf("%w: safetensors header of %d bytes is over the %d-byte limit", ErrTooLarge, n, MaxSafetensorsHeader)
	}
	if int64(n) > size-8 {
		return fmt.Errorf("%w: truncated: the safetensors header of %d bytes is longer than the %d bytes that follow it", scaling.ErrParse, n, max(size-8, 0))
	}
	header := make([]byte, n)
	if _, err := r.ReadAt(header, 8); err != nil {
		return fmt.Errorf("%w: safetensors header: %v", scaling.ErrParse, err)
	}
	start := 8 + int64(n)
	tensors, meta, err := ParseSafetensorsHeader(header, size-start)
	if err != nil {
		return err
	}
	for i := range tensors {
		tensors[i].File = a.Name
		tensors[i].Offset += start
	}
	a.Tensors, a.Metadata = tensors, meta
	a.stream = func(i int) (io.Reader, error) {
		in := a.Tensors[i]
		return io.NewSectionReader(r, in.Offset, in.Bytes), nil
	}
	return nil
}

// stEntry is one tensor of a safetensors header as written.
type stEntry struct {
	DType       *string `json:"dtype"`
	Shape       []int64 `json:"shape"`
	DataOffsets []int64 `json:"data_offsets"`
}

// ParseSafetensorsHeader parses the JSON header of a safetensors file whose
// data section (everything after the header) is dataLen bytes long, and
// returns its tensors in file order, with offsets relative to the data
// section, and its "__metadata__". It rejects, naming the tensor: a header
// that is not a JSON object or not UTF-8, a name given twice, a missing
// dtype, shape or data_offsets, an unknown dtype, a negative dimension, a
// byte range that does not match dtype and shape, offsets beyond the data
// (a truncated file) or overlapping another tensor. Errors wrap
// scaling.ErrParse (ErrTooLarge for sizes beyond int64).
func ParseSafetensorsHeader(header []byte, dataLen int64) ([]Info, map[string]string, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: safetensors header: %s", scaling.ErrParse, fmt.Sprintf(format, args...))
	}
	if !utf8.Valid(header) {
		return nil, nil, bad("not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(header))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, bad("not a JSON object")
	}
	var out []Info
	var meta map[string]string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, bad("not JSON: %v", err)
		}
		name, _ := tok.(string)
		if seen[name] {
			return nil, nil, bad("tensor %q appears twice", name)
		}
		seen[name] = true
		if name == "__metadata__" {
			if err := dec.Decode(&meta); err != nil {
				return nil, nil, bad("__metadata__ is not a map of strings: %v", err)
			}
			continue
		}
		var e stEntry
		if err := dec.Decode(&e); err != nil {
			return nil, nil, bad("tensor %q: not JSON: %v", name, err)
		}
		in, err := e.info(name, dataLen)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: safetensors tensor %q: %w", scaling.ErrParse, name, err)
		}
		out = append(out, in)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, bad("not JSON: %v", err)
	}
	if rest := bytes.TrimLeft(header[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, nil, bad("text after the JSON object")
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	for i := 1; i < len(out); i++ {
		if p, q := out[i-1], out[i]; q.Offset < p.Offset+p.Bytes {
			return nil, nil, fmt.Errorf("%w: safetensors tensors %q [%d, %d) and %q [%d, %d) overlap",
				scaling.ErrParse, p.Name, p.Offset, p.Offset+p.Bytes, q.Name, q.Offset, q.Offset+q.Bytes)
		}
	}
	return out, meta, nil
}

// info checks an entry against the data section's length.
func (e stEntry) info(name string, dataLen int64) (Info, error) {
	if e.DType == nil || e.Shape == nil || e.DataOffsets == nil {
		return Info{}, errors.New("dtype, shape and data_offsets are all required")
	}
	dt := *e.DType
	bits, ok := dtypeBits[dt]
	if !ok {
		return Info{}, fmt.Errorf("unknown dtype %q", dt)
	}
	n := int64(1)
	for _, d := range e.Shape {
		if d < 0 {
			return Info{}, fmt.Errorf("negative dimension in shape %v", e.Shape)
		}
		if d != 0 && n > math.MaxInt64/d {
			return Info{}, fmt.Errorf("shape %v: %w", e.Shape, ErrTooLarge)
		}
		n *= d
	}
	want := dtypeBytes(n, bits)
	if want < 0 {
		return Info{}, fmt.Errorf("shape %v: %w", e.Shape, ErrTooLarge)
	}
	if len(e.DataOffsets) != 2 {
		return Info{}, fmt.Errorf("data_offsets %v is not [begin, end]", e.DataOffsets)
	}
	b, end := e.DataOffsets[0], e.DataOffsets[1]
	if b < 0 || end < b {
		return Info{}, fmt.Errorf("data_offsets [%d, %d] are not an interval", b, end)
	}
	if end-b != want {
		return Info{}, fmt.Errorf("%s %v needs %d bytes, data_offsets [%d, %d] hold %d", dt, e.Shape, want, b, end, end-b)
	}
	if end > dataLen {
		return Info{}, fmt.Errorf("truncated: data_offsets [%d, %d] go beyond the %d bytes of data", b, end, dataLen)
	}
	_, dec := codecs[dt]
	return Info{Name: name, DType: dt, Shape: e.Shape, Offset: b, Bytes: end - b, Decoded: dec}, nil
}
