// Package infile is how fp8lab opens the files it reads: the commands, the
// playground server and the libraries that take a path all go through it,
// so that one rule holds for every input.
//
//   - Only regular files are read. A directory, a named pipe, a socket or a
//     device is refused at once, with what it is named in the error: the
//     path is looked at (stat) before it is opened, and opened with
//     O_NONBLOCK where the system has it, so that neither a pipe nor a
//     file swapped for one in between can block the program.
//   - Each kind of input has a size limit (Kind.Max), checked before
//     anything is read; ReadFile also stops at the limit when a file grows
//     while it is read.
//   - A file named by another file (a shard named by a shard index) is
//     opened with OpenIn: symbolic links are followed only while they stay
//     within the folder of the file that names it.
//   - Errors name the file and what is wrong with it, never its content.
//     (Readers keep to this too: a file the user did not name, such as a
//     shard, is never quoted in a message.)
package infile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
)

// Errors of the package; test them with errors.Is. The messages name the
// file and say what is wrong in words, without the sentinel's text.
var (
	// ErrNotFile reports a path that is not a regular file.
	ErrNotFile = errors.New("not a regular file")
	// ErrTooLarge reports a file over its kind's size limit.
	ErrTooLarge = errors.New("file too large")
	// ErrOutside reports a file named by an index that leaves the index's
	// folder (through a symbolic link, "..", or an absolute path).
	ErrOutside = errors.New("outside the folder")
)

// Kind is a kind of input: what it is called in messages and the largest
// size read.
type Kind struct {
	// Name says what the file is, as errors show it: "PATH: 2000000
	// bytes, over the limit of 1048576 bytes (recipe file)".
	Name string
	// Max is the largest size in bytes; 0 means no limit here (the reader
	// bounds what it takes, as tensorio's Limits do for tensor files).
	Max int64
}

// The kinds of input fp8lab reads, each with its limit.
var (
	// Tensor is a tensor file: tensorio.Limits bound it (--max-bytes).
	Tensor = Kind{Name: "tensor file"}
	// ShardIndex is model.safetensors.index.json (real ones are well
	// under 1 MB).
	ShardIndex = Kind{Name: "shard index", Max: 64 << 20}
	// Recipe is a training recipe as JSON (a few hundred bytes).
	Recipe = Kind{Name: "recipe file", Max: 1 << 20}
	// ModelConfig is a training model configuration as JSON (a few
	// hundred bytes).
	ModelConfig = Kind{Name: "model configuration file", Max: 1 << 20}
	// Corpus is a text to train on: held in memory whole.
	Corpus = Kind{Name: "corpus", Max: 256 << 20}
	// Record is a comparison record (train/records), gzipped or not; its
	// decoded size has its own limit there.
	Record = Kind{Name: "record file", Max: 64 << 20}
	// Image is a picture to dither (its pixel count has its own limit).
	Image = Kind{Name: "image", Max: 256 << 20}
	// SourceFile is a file of the Go distribution read as a corpus.
	SourceFile = Kind{Name: "source file", Max: 64 << 20}
	// BuiltFile is a file of the playground's build (a WebAssembly
	// module, about 10 MB), served from memory.
	BuiltFile = Kind{Name: "built file", Max: 256 << 20}
	// ServedFile is a file that serve --dir sends from disk as it reads
	// it: its size costs no memory.
	ServedFile = Kind{Name: "served file"}
)

// Open opens the regular file name for reading and returns it with its
// size, by the rules of the package: anything but a regular file is an
// error wrapping ErrNotFile, a file over k.Max one wrapping ErrTooLarge.
// Symbolic links in name are followed (the user named it).
func Open(name string, k Kind) (*os.File, int64, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, 0, err
	}
	if err := check(name, st, k); err != nil {
		return nil, 0, err
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	return opened(f, name, k)
}

// OpenIn opens the file that a file in dir names as name (an index's
// shard), by the rules of Open and one more: name must stay within dir.
// An absolute name, a ".." that climbs out, or a symbolic link (anywhere
// on the way) that leads out of dir is an error wrapping ErrOutside;
// links that stay inside are followed. Errors name the file as dir/name.
func OpenIn(dir, name string, k Kind) (*os.File, int64, error) {
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return nil, 0, outside(filepath.Join(dir, filepath.FromSlash(name)), dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, 0, err
	}
	defer root.Close() // a file opened through a Root outlives it
	return OpenInRoot(root, name, k)
}

// OpenInRoot is OpenIn for a folder already opened as root (a server's
// folder, opened once).
func OpenInRoot(root *os.Root, name string, k Kind) (*os.File, int64, error) {
	if root == nil {
		return nil, 0, errors.New("infile: no folder to open " + name + " in")
	}
	dir := root.Name()
	rel := filepath.FromSlash(name)
	shown := filepath.Join(dir, rel)
	if !filepath.IsLocal(rel) {
		return nil, 0, outside(shown, dir)
	}
	st, err := root.Stat(rel)
	if err != nil {
		if _, serr := os.Stat(shown); serr != nil {
			return nil, 0, serr // missing, or unreadable: the error names the path
		}
		return nil, 0, outside(shown, dir) // there, but not within dir
	}
	if err := check(shown, st, k); err != nil {
		return nil, 0, err
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	return opened(f, shown, k)
}

// ReadFile reads the whole regular file name by the rules of Open.
func ReadFile(name string, k Kind) ([]byte, error) {
	f, size, err := Open(name, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, name, size, k)
}

// readAll reads f to its end, at most k.Max bytes.
func readAll(f *os.File, name string, size int64, k Kind) ([]byte, error) {
	limit := k.Max
	if limit <= 0 {
		limit = math.MaxInt64 - 1
	}
	b := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := b.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if int64(b.Len()) > limit {
		return nil, tooLarge(name, int64(b.Len()), k, true) // it grew while read
	}
	return b.Bytes(), nil
}

// opened checks the file that was opened (it may have been swapped since
// the stat) and its size.
func opened(f *os.File, name string, k Kind) (*os.File, int64, error) {
	st, err := f.Stat()
	if err == nil {
		err = check(name, st, k)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// check applies the rule to what stat said of the file.
func check(name string, st fs.FileInfo, k Kind) error {
	if !st.Mode().IsRegular() {
		return &notFile{name: name, what: What(st.Mode())}
	}
	if k.Max > 0 && st.Size() > k.Max {
		return tooLarge(name, st.Size(), k, false)
	}
	return nil
}

// What names the type of a file that is not regular, as errors say it:
// "a directory", "a named pipe", "a socket", "a device".
func What(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	}
	return "a special file"
}

// notFile is the error for a path that is not a regular file.
type notFile struct{ name, what string }

func (e *notFile) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.name, e.what)
}

// Is makes errors.Is(err, ErrNotFile) hold.
func (e *notFile) Is(target error) bool { return target == ErrNotFile }

// limitError is the error of a file over its limit or outside its folder.
type limitError struct {
	msg    string
	target error
}

func (e *limitError) Error() string        { return e.msg }
func (e *limitError) Is(target error) bool { return target == e.target }

func tooLarge(name string, size int64, k Kind, grew bool) error {
	n := fmt.Sprintf("%d bytes", size)
	if grew {
		n = fmt.Sprintf("more than %d bytes", k.Max)
	}
	return &limitError{fmt.Sprintf("%s: %s, over the limit of %d bytes (%s)", name, n, k.Max, k.Name), ErrTooLarge}
}

func outside(shown, dir string) error {
	return &limitError{fmt.Sprintf("%s leaves the folder %s (through a symbolic link, .. or an absolute path)", shown, dir), ErrOutside}
}
