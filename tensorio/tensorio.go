// Package tensorio is fp8lab's one way to turn files and bytes into tensors.
// It decides the format by content, never by file name: safetensors when an
// 8-byte header length is followed by '{', a shard index
// (model.safetensors.index.json) when the content is a JSON object, .npz
// when it is a zip archive, NumPy's .npy when the data starts with its magic
// "\x93NUMPY", CSV text otherwise. Every
// reader is bounded (Limits): a file larger than MaxBytes, a tensor of more
// than MaxElements values, a directory or a device is an error before
// anything big is allocated.
//
// Open lists the tensors of a file (name, dtype, shape, byte range) without
// reading them, and reads one tensor at a time on demand, streaming through
// an io.ReaderAt: files, byte slices and browser Blobs alike, with no mmap.
// Read reads every tensor at once, for the callers that want one.
//
// The command line, the WebAssembly JS API and the desktop app read tensors
// through this package and hand them to the scenes of viz, which never open
// files.
package tensorio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fp8lab/fp8lab/internal/infile"
	"github.com/fp8lab/fp8lab/scaling"
)

// Default limits, used where a Limits field is zero.
const (
	// DefaultMaxBytes is the largest input read by default: 1 GiB.
	DefaultMaxBytes int64 = 1 << 30
	// DefaultMaxElements is the most values one tensor may hold by default:
	// 2^28 (1 GiB of float32).
	DefaultMaxElements = 1 << 28
)

// Errors of the package beyond scaling's ErrParse (malformed content) and
// ErrShape (a bad or ragged shape); test them with errors.Is.
var (
	// ErrTooLarge reports an input or a tensor over its limit.
	ErrTooLarge = errors.New("tensorio: too large")
	// ErrNotFile reports a path that is not a regular file: a directory,
	// a device, a pipe or a socket (internal/infile's rule, which every
	// file fp8lab reads follows).
	ErrNotFile = infile.ErrNotFile
)

// Limits bound what a reader accepts. The zero value means the defaults.
type Limits struct {
	// MaxBytes is the largest input in bytes; 0 means DefaultMaxBytes.
	MaxBytes int64
	// MaxElements is the most values one tensor may hold; 0 means
	// DefaultMaxElements. It is capped at scaling.MaxElements.
	MaxElements int
}

// maxBytes returns the effective byte limit.
func (l Limits) maxBytes() int64 {
	if l.MaxBytes <= 0 {
		return DefaultMaxBytes
	}
	return l.MaxBytes
}

// maxElements returns the effective element limit.
func (l Limits) maxElements() int {
	n := l.MaxElements
	if n <= 0 {
		n = DefaultMaxElements
	}
	return min(n, scaling.MaxElements)
}

// Named is one tensor of a file with its name: the file's name for the
// single-tensor formats (.npy, CSV).
type Named struct {
	Name   string
	Tensor *scaling.Tensor
}

// Kind is a tensor file format.
type Kind string

// The formats Sniff recognizes.
const (
	NPY         Kind = "npy"               // NumPy .npy
	NPZ         Kind = "npz"               // NumPy .npz (a zip of .npy)
	Safetensors Kind = "safetensors"       // Hugging Face safetensors
	Index       Kind = "safetensors-index" // model.safetensors.index.json
	CSV         Kind = "csv"               // comma-separated text
)

// npyMagic starts every .npy file.
const npyMagic = "\x93NUMPY"

// Sniff returns the format of a file from its first bytes (at least 9 for
// safetensors to be recognized, 6 for .npy, 4 for .npz).
func Sniff(head []byte) Kind {
	switch {
	case bytes.HasPrefix(head, []byte(npyMagic)):
		return NPY
	case bytes.HasPrefix(head, []byte(zipMagic)):
		return NPZ
	case len(head) >= 9 && head[8] == '{':
		return Safetensors
	case bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n\ufeff"), []byte("{")):
		return Index
	}
	return CSV
}

// Read reads every tensor of a file of size bytes through r; name (a path
// or a file name, possibly empty) prefixes errors and names the tensors of
// the single-tensor formats. The format is sniffed from the content.
// Tensors of dtypes the package does not decode are skipped; see Open to
// list them, and to read large files one tensor at a time.
func Read(r io.ReaderAt, size int64, name string, lim Limits) ([]Named, error) {
	a, err := Open(r, size, name, lim)
	if err != nil {
		return nil, err
	}
	ts, err := ReadArchive(a)
	if err != nil {
		return nil, err
	}
	if a.Kind == NPY || a.Kind == CSV {
		ts[0].Name = name
	}
	return ts, nil
}

// ReadBytes reads every tensor of a file held in memory.
func ReadBytes(data []byte, name string, lim Limits) ([]Named, error) {
	return Read(bytes.NewReader(data), int64(len(data)), name, lim)
}

// ReadFile reads every tensor of the file at path. A directory, a device, a
// named pipe or anything else that is not a regular file is an error
// wrapping ErrNotFile (given at once: a pipe is not waited on), and a file
// over the byte limit is refused before it is read.
func ReadFile(path string, lim Limits) ([]Named, error) {
	f, size, err := infile.Open(path, infile.Tensor)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, size, path, lim)
}

// One returns the only tensor of a Read, ReadBytes or ReadFile result, as
// in tensorio.One(tensorio.ReadFile(path, lim)); a file holding several
// tensors is an error.
func One(ts []Named, err error) (*scaling.Tensor, error) {
	if err != nil {
		return nil, err
	}
	if len(ts) != 1 {
		return nil, fmt.Errorf("%w: the file holds %d tensors, not one", scaling.ErrShape, len(ts))
	}
	return ts[0].Tensor, nil
}

// claimed is the binary format a file's name claims by its extension
// (".safetensors", ".npz", ".npy"), or "" for any other name. The content
// decides the format; the claim only words the error when the content is
// no format at all.
func claimed(name string) Kind {
	lower := strings.ToLower(name)
	for _, c := range []struct {
		ext  string
		kind Kind
	}{{".safetensors", Safetensors}, {".npz", NPZ}, {".npy", NPY}} {
		if strings.HasSuffix(lower, c.ext) {
			return c.kind
		}
	}
	return ""
}

// claimedName names the formats claimed returns, with their article.
var claimedName = map[Kind]string{Safetensors: "a safetensors", NPZ: "an .npz", NPY: "an .npy"}

// notKind says why the first bytes of a file of size bytes (head, up to
// 16) are not a file of kind k.
func notKind(k Kind, head []byte, size int64) string {
	if size == 0 {
		return "the file is empty"
	}
	first := fmt.Sprintf("% x", head[:min(len(head), 8)])
	switch k {
	case Safetensors:
		if size < 8 {
			return fmt.Sprintf("%d bytes (%s), shorter than the 8-byte header length that starts a safetensors file", size, first)
		}
		if size < 9 {
			return "8 bytes: a header length and no header after it"
		}
		return fmt.Sprintf("the header after the 8-byte length does not start with '{' (byte 8 is %#02x)", head[8])
	case NPZ:
		return fmt.Sprintf("it does not start with the zip signature 50 4b 03 04 (its first bytes: %s)", first)
	}
	return fmt.Sprintf("it does not start with the .npy magic 93 4e 55 4d 50 59 (its first bytes: %s)", first)
}
