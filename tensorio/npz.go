package tensorio

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/fp8lab/fp8lab/scaling"
)

// MaxInflateRatio bounds how much larger than its compressed bytes an .npz
// member may inflate, beyond the first MiB: a small file must not be able
// to demand a tensor of gigabytes (a "zip bomb"). Float weights compress
// little (about 1.1:1); 100:1 is the ratio Apache POI's ZipSecureFile
// allows.
const MaxInflateRatio = 100

// zipMagic starts a zip archive (numpy.savez and savez_compressed write
// one .npy member per array, stored or deflated).
const zipMagic = "PK\x03\x04"

// openNPZ lists the .npy members of an .npz archive from their headers.
// Each member is read on demand, as a stream (decompressed as it is read
// for a deflated member), so memory is one tensor whatever the archive.
func (a *Archive) openNPZ(r io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return fmt.Errorf("%w: npz: %v", scaling.ErrParse, err)
	}
	seen := map[string]bool{}
	var members []*zip.File
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".npy") {
			continue
		}
		name := strings.TrimSuffix(f.Name, ".npy")
		if seen[name] {
			return fmt.Errorf("%w: npz member %q appears twice", scaling.ErrParse, f.Name)
		}
		seen[name] = true
		if f.Method != zip.Store && f.Method != zip.Deflate {
			return fmt.Errorf("%w: npz member %q: compression method %d (only stored and deflated members are read)", scaling.ErrParse, f.Name, f.Method)
		}
		if err := a.checkInflate(f); err != nil {
			return err
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("%w: npz member %q: %v", scaling.ErrParse, f.Name, err)
		}
		h, off, err := npyPrelude(rc, int64(f.UncompressedSize64))
		rc.Close()
		if err != nil {
			return fmt.Errorf("npz member %q: %w", f.Name, err)
		}
		// A member of a dtype the package does not decode (integers,
		// booleans, strings) or in Fortran order beyond 2-D is listed and
		// skipped, as such a safetensors tensor is, not an error for the
		// whole archive.
		_, known := codecs[h.dtype()]
		in := Info{Name: name, File: a.Name, DType: h.dtype(), Shape: toInt64(h.shape), Offset: off, Decoded: known && (!h.fortran || len(h.shape) < 2)}
		in.Bytes = in.Len() * int64(h.size)
		if in.Offset+in.Bytes > int64(f.UncompressedSize64) {
			return fmt.Errorf("%w: npz member %q: truncated: %v needs %d bytes of data, the member holds %d", scaling.ErrParse, f.Name, in.Shape, in.Bytes, int64(f.UncompressedSize64)-in.Offset)
		}
		if known && !in.Decoded {
			in.DType += " (Fortran order)"
		}
		a.Tensors = append(a.Tensors, in)
		members = append(members, f)
	}
	if len(a.Tensors) == 0 {
		return fmt.Errorf("%w: npz archive holds no .npy member", scaling.ErrParse)
	}
	a.stream = func(i int) (io.Reader, error) {
		rc, err := members[i].Open()
		if err != nil {
			return nil, err
		}
		br := bufio.NewReaderSize(rc, readChunk)
		if _, err := br.Discard(int(a.Tensors[i].Offset)); err != nil {
			return nil, err
		}
		return br, nil
	}
	return nil
}

// checkInflate refuses a member that would inflate beyond the input limit
// or beyond MaxInflateRatio times its compressed size, and counts what it
// inflates to against the input limit. archive/zip holds a member to the
// sizes its header claims while inflating it (more data is an error), so
// checking the claims bounds what is decoded.
func (a *Archive) checkInflate(f *zip.File) error {
	size := f.UncompressedSize64
	if f.Method == zip.Deflate && size > 1<<20 && size/MaxInflateRatio > f.CompressedSize64 {
		return fmt.Errorf("%w: npz member %q inflates %d bytes to %d, more than %d times", ErrTooLarge, f.Name, f.CompressedSize64, size, MaxInflateRatio)
	}
	if a.inflated += size; size > uint64(a.lim.maxBytes()) || a.inflated > uint64(a.lim.maxBytes()) {
		return fmt.Errorf("%w: npz members inflate to more than the input limit of %d bytes", ErrTooLarge, a.lim.maxBytes())
	}
	return nil
}
