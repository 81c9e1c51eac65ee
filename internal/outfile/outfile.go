// Package outfile is how fp8lab's commands write their output files: "-"
// means standard output, and a file is replaced atomically (a temporary
// file in the same folder, then a rename) so that no reader ever sees half
// of it and a failure leaves the old file in place.
//
// The rules, the same for every command:
//   - A symbolic link is followed, however many links deep: the file it
//     points to is replaced and the link stays a link. A dangling link
//     creates its target.
//   - Only regular files are replaced. A device (/dev/zero, /dev/null), a
//     named pipe, a socket or a directory is refused with an error, so that
//     running as root never replaces a device node.
//   - A new file gets mode 0644 less the umask; an existing file keeps its
//     permission bits. (Its owner and hard links are not preserved: the
//     rename makes a new file.)
package outfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Stdout is the output name that means standard output.
const Stdout = "-"

// maxLinks bounds how many symbolic links are followed, as the kernel's
// ELOOP does.
const maxLinks = 40

// Check reports whether name can be written by Write: "-", a regular file,
// a missing file in an existing folder, or a link to one of those. Commands
// call it before doing expensive work, so that a bad -o fails at once.
func Check(name string) error {
	if name == Stdout {
		return nil
	}
	_, _, err := target(name)
	return err
}

// Write writes data to standard output when name is "-" and to the file
// name otherwise, by the rules of the package.
func Write(name string, stdout io.Writer, data []byte) error {
	if name == Stdout {
		_, err := stdout.Write(data)
		return err
	}
	return WriteFile(name, data)
}

// WriteFile replaces the file name (following symbolic links) with data
// through a temporary file in the same folder and a rename. Anything but a
// regular file or a missing one is refused.
func WriteFile(name string, data []byte) error {
	path, old, err := target(name)
	if err != nil {
		return err
	}
	dir, base := split(path)
	tmp, f, err := create(dir, base)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	werr := func() error {
		if old != nil {
			if err := f.Chmod(old.Mode().Perm()); err != nil {
				return err
			}
		}
		if _, err := f.Write(data); err != nil {
			return err
		}
		return f.Close()
	}()
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", name, werr)
	}
	return nil
}

// target resolves name's symbolic links and returns the path to replace
// with the file there now (nil when there is none). It refuses an empty
// name, a file that is not regular, too many links and a missing folder.
func target(name string) (string, fs.FileInfo, error) {
	if name == "" {
		return "", nil, errors.New("no output file name")
	}
	path := name
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			dir, _ := split(path)
			if st, err := os.Stat(dir); err != nil {
				return "", nil, fmt.Errorf("cannot write %s: %w", name, err)
			} else if !st.IsDir() {
				return "", nil, fmt.Errorf("cannot write %s: %s is not a folder", name, dir)
			}
			return path, nil, nil
		}
		if err != nil {
			return "", nil, fmt.Errorf("cannot write %s: %w", name, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			link, err := os.Readlink(path)
			if err != nil {
				return "", nil, fmt.Errorf("cannot write %s: %w", name, err)
			}
			if !filepath.IsAbs(link) {
				dir, _ := split(path)
				link = join(dir, link)
			}
			path = link
			continue
		}
		if !fi.Mode().IsRegular() {
			return "", nil, fmt.Errorf("refusing to replace %s: it is %s, not a regular file (use -o - for standard output)", name, kind(fi.Mode()))
		}
		return path, fi, nil
	}
	return "", nil, fmt.Errorf("cannot write %s: more than %d symbolic links", name, maxLinks)
}

// create makes a new temporary file beside the target, with mode 0644 less
// the umask (os.CreateTemp would give 0600).
func create(dir, base string) (string, *os.File, error) {
	for range 10 {
		var b [6]byte
		_, _ = rand.Read(b[:])
		tmp := join(dir, "."+base+".tmp-"+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmp, f, err
	}
	return "", nil, errors.New("cannot create a temporary file")
}

// split cuts a path at its last separator without cleaning it (cleaning
// would resolve ".." lexically, which is wrong after a symbolic link). A
// name without a folder is in ".".
func split(path string) (dir, base string) {
	i := strings.LastIndexFunc(path, func(r rune) bool { return os.IsPathSeparator(uint8(r)) && r < 0x80 })
	switch {
	case i < 0:
		return ".", path
	case i == 0:
		return path[:1], path[1:]
	}
	return path[:i], path[i+1:]
}

// join appends name to dir with one separator, without cleaning.
func join(dir, name string) string {
	if dir != "" && os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(os.PathSeparator) + name
}

// kind names a file type for the error message.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
