//go:build unix

package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/tensorio"
)

// evilName is a tensor or recipe name that retitles and clears a terminal
// printed raw (issue 26 item 6).
const evilName = "\x1b]0;pwned\a\x1b[2J\x00w"

// fileHostileCases are issue 26's inputs (one rule for every file the
// product opens) that hung, blew up, attacked the reader or were accepted
// wrongly. Each named pipe case must end within a second.
func fileHostileCases() []hostileCase {
	fifo := func(name string) func(*testing.T, string) {
		return func(t *testing.T, dir string) { require.NoError(t, syscall.Mkfifo(filepath.Join(dir, name), 0o644)) }
	}
	recipe := "--recipe"
	return []hostileCase{
		// Item 1 and 2: many tiny tensors (the 6,000, up to the
		// tensor limit) are scanned within the budget, the JSON report
		// too (built whole, the 63 MB of JSON of 20,000 tensors ran out of
		// memory); more than the limit is refused before anything is
		// read; an .npz member that inflates 1000:1 is refused.
		{name: "scan --json 20,000 tiny tensors", setup: tinyTensors("tiny.safetensors", scan.DefaultMaxTensors),
			args: []string{"scan", "--json", "tiny.safetensors"}, check: stdoutContains(fmt.Sprintf(`"name": "t%d"`, scan.DefaultMaxTensors-1))},
		{name: "scan 100,000 tiny tensors", setup: tinyTensors("many.safetensors", 100_000),
			args: []string{"scan", "many.safetensors"}, code: 1, stderr: "100000 tensors to scan, more than the limit of 20000 (--filter picks fewer, --max-tensors raises the limit)"},
		{name: "scan an npz that inflates 1000:1", setup: zerosNPZ("bomb.npz", 64<<20),
			args: []string{"scan", "bomb.npz"}, code: 1, stderr: `npz member "w.npy" inflates`},
		// Item 4: unbounded knobs and endless inputs.
		{name: "train --workers 10000000", args: []string{"train", "--compare", "fp32", "--workers", "10000000"}, code: 2, stderr: "--workers 10000000: want 1.."},
		{name: "train --corpus /dev/zero", args: []string{"train", recipe, "fp32", "--corpus", "/dev/zero"}, code: 1, stderr: "/dev/zero is a device, not a regular file"},
		{name: "train --corpus /dev/urandom", args: []string{"train", recipe, "fp32", "--corpus", "/dev/urandom"}, code: 1, stderr: "is a device"},
		{name: "train --corpus of 1 TB", setup: sparseFile("huge.txt", 1<<40),
			args: []string{"train", recipe, "fp32", "--corpus", "huge.txt"}, code: 1, stderr: "huge.txt: 1099511627776 bytes, over the limit of 268435456 bytes (corpus)"},
		// Item 5: named pipes are refused at once.
		{name: "serve --dir FIFO", setup: fifo("site"), args: []string{"serve", "--addr", "127.0.0.1:0", "--dir", "site"}, code: 1, stderr: "site is a named pipe, not a folder", within: time.Second},
		{name: "scan FIFO", setup: fifo("f.safetensors"), args: []string{"scan", "f.safetensors"}, code: 1, stderr: "f.safetensors is a named pipe, not a regular file", within: time.Second},
		{name: "quantize FIFO", setup: fifo("f.csv"), args: []string{"quantize", "f.csv"}, code: 1, stderr: "f.csv is a named pipe", within: time.Second},
		{name: "scan an index naming a FIFO", setup: both(fifo("s.safetensors"), writeFile("model.safetensors.index.json", []byte(`{"weight_map": {"a": "s.safetensors"}}`))),
			args: []string{"scan", "model.safetensors.index.json"}, code: 1, stderr: "s.safetensors is a named pipe", within: time.Second},
		{name: "train --corpus FIFO", setup: fifo("c.txt"), args: []string{"train", recipe, "fp32", "--corpus", "c.txt"}, code: 1, stderr: "c.txt is a named pipe", within: time.Second},
		{name: "train --recipe-file FIFO", setup: fifo("r.json"), args: []string{"train", "--recipe-file", "r.json"}, code: 1, stderr: "r.json is a named pipe", within: time.Second},
		{name: "dither -i FIFO", setup: fifo("in.png"), args: []string{"dither", "-i", "in.png", "-o", "x.png"}, code: 1, stderr: "in.png is a named pipe", within: time.Second},
		// Item 6: names from files cannot act on the terminal or a
		// spreadsheet, and the HTML report holds no control byte.
		{name: "scan text escapes a tensor name", setup: namedTensor("evil.safetensors", evilName),
			args: []string{"scan", "evil.safetensors"}, check: noControlBytes(`\x1b]0;pwned\x07\x1b[2J\x00w`)},
		{name: "scan --csv neutralises a formula", setup: namedTensor("f.safetensors", "=HYPERLINK(\"http://x\")"),
			args: []string{"scan", "--csv", "f.safetensors"}, check: noControlBytes(`f.safetensors,"'=HYPERLINK(""http://x"")",F32`)},
		{name: "scan --html escapes control bytes", setup: namedTensor("evil.safetensors", evilName),
			args: []string{"scan", "--html", "r.html", "evil.safetensors"}, check: htmlWithoutControlBytes("r.html")},
		{name: "train prints a recipe's name escaped", setup: writeFile("r.json", mustJSON(map[string]string{"name": evilName})),
			args: []string{"train", "--recipe-file", "r.json", "--steps", "1", "--corpus-bytes", "262144"}, check: noControlBytes(`recipe \x1b]0;pwned\x07\x1b[2J\x00w,`)},
		// Item 7: a shard linked out of the index's folder is refused
		// without quoting the file it points at.
		{name: "scan an index whose shard links out of its folder", setup: shardLinkedOut,
			args: []string{"scan", "model/model.safetensors.index.json"}, code: 1, stderr: "pw.safetensors leaves the folder", stderrLacks: "daemon"},
		// Item 10: smaller ones.
		{name: "train --recipe-file over 1 MiB", setup: writeFile("big.json", append([]byte(`{"name": "`+strings.Repeat("x", 1<<20)), `"}`...)),
			args: []string{"train", "--recipe-file", "big.json"}, code: 1, stderr: "big.json: 1048588 bytes, over the limit of 1048576 bytes (recipe file)"},
		{name: "train --corpus-bytes 1", args: []string{"train", recipe, "fp32", "--corpus-bytes", "1"}, code: 2, stderr: "--corpus-bytes 1: want 65536..268435456"},
		{name: "scan --min-sqnr NaN", setup: writeCSV("t.csv"), args: []string{"scan", "--min-sqnr", "NaN", "t.csv"}, code: 2, stderr: "--min-sqnr NaN: want a positive number of dB"},
		{name: "scan --max-bytes -1", setup: writeCSV("t.csv"), args: []string{"scan", "--max-bytes", "-1", "t.csv"}, code: 2, stderr: "--max-bytes -1: want a positive number of bytes"},
		{name: "train -o X --checkpoint X", args: []string{"train", recipe, "fp32", "-o", "x", "--checkpoint", "./x"}, code: 2, stderr: "--checkpoint ./x and -o x name the same file"},
		{name: "train --recipe-file holding null", setup: writeFile("null.json", []byte("null\n")),
			args: []string{"train", "--recipe-file", "null.json"}, code: 1, stderr: "null.json: train: recipe JSON: the value is null"},
		{name: "train --recipe-file with a key twice", setup: writeFile("twice.json", []byte(`{"name": "a", "name": "b"}`)),
			args: []string{"train", "--recipe-file", "twice.json"}, code: 1, stderr: `key "name" appears twice`},
	}
}

func both(fs ...func(*testing.T, string)) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		for _, f := range fs {
			f(t, dir)
		}
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// tinyTensors writes a safetensors file of n F32 tensors of two values.
func tinyTensors(name string, n int) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		raws := make([]tensorio.Raw, n)
		data := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, math.Float32bits(1.5)), math.Float32bits(-0.25))
		for k := range raws {
			raws[k] = tensorio.Raw{Name: fmt.Sprintf("t%d", k), DType: "F32", Shape: []int64{2}, Data: data}
		}
		writeSafetensors(t, filepath.Join(dir, name), raws)
	}
}

// namedTensor writes a safetensors file of one small tensor of that name.
func namedTensor(file, tensor string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		data := make([]byte, 4*64)
		for i := range 64 {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i)-31.5))
		}
		writeSafetensors(t, filepath.Join(dir, file), []tensorio.Raw{{Name: tensor, DType: "F32", Shape: []int64{2, 32}, Data: data}})
	}
}

func writeSafetensors(t *testing.T, path string, raws []tensorio.Raw) {
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, raws, nil))
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
}

// zerosNPZ writes an .npz whose one deflated member holds size bytes of
// float32 zeros: about 1000 times smaller compressed.
func zerosNPZ(name string, size int) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "w.npy", Method: zip.Deflate})
		require.NoError(t, err)
		_, err = w.Write(npyHeader(fmt.Sprintf("(%d,)", size/4)))
		require.NoError(t, err)
		zeros := make([]byte, 1<<20)
		for range size >> 20 {
			_, err = w.Write(zeros)
			require.NoError(t, err)
		}
		require.NoError(t, zw.Close())
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644))
	}
}

// shardLinkedOut writes model/ with an index whose shard links to a file
// beside the folder, as pw.safetensors -> /etc/passwd would.
func shardLinkedOut(t *testing.T, dir string) {
	require.NoError(t, os.Mkdir(filepath.Join(dir, "model"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "passwd"), []byte("daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"), 0o644))
	require.NoError(t, os.Symlink("../passwd", filepath.Join(dir, "model", "pw.safetensors")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "model", "model.safetensors.index.json"), []byte(`{"weight_map": {"w": "pw.safetensors"}}`), 0o644))
}

// noControlBytes checks that stdout holds want and no control byte but
// newline.
func noControlBytes(want string) func(*testing.T, string, []byte) {
	return func(t *testing.T, _ string, stdout []byte) {
		assert.Contains(t, string(stdout), want)
		for i, c := range stdout {
			if (c < 0x20 && c != '\n') || c == 0x7f {
				t.Fatalf("control byte %#x at %d of stdout: %q", c, i, stdout[max(0, i-30):min(len(stdout), i+30)])
			}
		}
	}
}

// htmlWithoutControlBytes checks the written page.
func htmlWithoutControlBytes(name string) func(*testing.T, string, []byte) {
	return func(t *testing.T, dir string, _ []byte) {
		page, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		noControlBytes(`\x1b]0;pwned\x07\x1b[2J\x00w`)(t, dir, page)
		assert.Contains(t, string(page), `data-tensor="&#x1b;]0;pwned&#x7;&#x1b;[2J&#x0;w"`)
	}
}
