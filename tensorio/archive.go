package tensorio

import (
	"errors"
	"fmt"
	"io"

	"github.com/fp8lab/fp8lab/scaling"
)

// ChunkValues is the most values Archive.Stream hands over at a time.
const ChunkValues = 1 << 18

// Info describes one tensor of an archive without its values.
type Info struct {
	// Name is the tensor's name: its key in a safetensors header, its member
	// name less ".npy" in an .npz, the file's name for .npy and CSV.
	Name string `json:"name"`
	// File is the name of the file holding it (a shard of a sharded set).
	File string `json:"file"`
	// DType is the safetensors dtype name ("BF16", "F8_E4M3", …); .npy and
	// CSV data are "F32" or "F64".
	DType string `json:"dtype"`
	// Shape is the tensor's shape; empty for a scalar.
	Shape []int64 `json:"shape"`
	// Offset and Bytes are the byte range of the data in File (for a
	// compressed .npz member, in the member's uncompressed stream).
	Offset int64 `json:"offset"`
	Bytes  int64 `json:"bytes"`
	// Decoded reports whether this package decodes the dtype; tensors of
	// other dtypes (integers, booleans, complex) are listed and skipped.
	Decoded bool `json:"decoded"`
}

// Len is the number of values of the tensor.
func (in Info) Len() int64 {
	n := int64(1)
	for _, d := range in.Shape {
		n *= d
	}
	return n
}

// Matrix is the 2-D view every reader gives a tensor: the last dimension is
// the columns, all others are folded into rows; a 1-D tensor or a scalar is
// one row.
func (in Info) Matrix() (rows, cols int64) {
	if len(in.Shape) == 0 {
		return 1, 1
	}
	cols = in.Shape[len(in.Shape)-1]
	if cols == 0 {
		return 0, 0
	}
	return in.Len() / cols, cols
}

// Archive is an opened tensor file: the list of its tensors, each read on
// demand, one at a time. The file's bytes stay where they are (an
// io.ReaderAt: a file, a browser Blob, a byte slice); only the header and
// the tensor being read are held in memory.
type Archive struct {
	Name string
	Kind Kind
	// Metadata is the safetensors "__metadata__" map, if any.
	Metadata map[string]string
	Tensors  []Info
	lim      Limits
	inflated uint64 // bytes the members of an .npz inflate to
	// stream opens the raw data of tensor i (Decoded tensors only) for the
	// safetensors and npz readers; load reads a tensor whole for .npy and CSV.
	stream func(i int) (io.Reader, error)
	load   func(i int) (*scaling.Tensor, error)
}

// Open lists the tensors of a file of size bytes read through r: a
// safetensors file, an .npz, an .npy or CSV text, told apart by content.
// name prefixes errors and names the tensors of single-tensor formats. A
// shard index (model.safetensors.index.json) names other files: open it
// with OpenIndex or OpenFile.
func Open(r io.ReaderAt, size int64, name string, lim Limits) (*Archive, error) {
	a, err := open(r, size, name, lim)
	if err != nil && name != "" {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return a, err
}

func open(r io.ReaderAt, size int64, name string, lim Limits) (*Archive, error) {
	if size < 0 {
		return nil, fmt.Errorf("%w: negative size %d", scaling.ErrParse, size)
	}
	if max := lim.maxBytes(); size > max {
		return nil, fmt.Errorf("%w: %d bytes is more than the input limit of %d bytes", ErrTooLarge, size, max)
	}
	head := make([]byte, 16)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	err = nil
	a := &Archive{Name: name, Kind: Sniff(head[:n]), lim: lim}
	switch a.Kind {
	case Safetensors:
		err = a.openSafetensors(r, size)
	case NPZ:
		err = a.openNPZ(r, size)
	case Index:
		return nil, fmt.Errorf("%w: a shard index names other files; open it with OpenFile or OpenIndex", scaling.ErrParse)
	case NPY:
		h, _, herr := npyPrelude(io.NewSectionReader(r, 0, size), size)
		if herr != nil {
			return nil, herr
		}
		if h.decode == nil {
			return nil, fmt.Errorf("%w: npy dtype %q is not float16, bfloat16, float32, float64 or uint8", scaling.ErrParse, h.descr)
		}
		a.Tensors = []Info{{Name: name, File: name, DType: h.dtype(), Shape: toInt64(h.shape), Decoded: true}}
		a.load = func(int) (*scaling.Tensor, error) { return readNPY(r, size, lim) }
	default:
		t, cerr := readCSV(io.NewSectionReader(r, 0, size), lim)
		if cerr != nil {
			if claim := claimed(name); claim != "" {
				// The content is no format this package knows, and no CSV
				// either: say what the name promised and what is wrong.
				return nil, fmt.Errorf("%w: not %s file, as its name says: %s", scaling.ErrParse, claimedName[claim], notKind(claim, head[:n], size))
			}
			return nil, cerr
		}
		a.Tensors = []Info{{Name: name, File: name, DType: "F32", Shape: []int64{int64(t.Rows), int64(t.Cols)}, Decoded: true}}
		a.load = func(int) (*scaling.Tensor, error) { return t.Clone(), nil }
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

func toInt64(s []int) []int64 {
	out := make([]int64, len(s))
	for i, v := range s {
		out[i] = int64(v)
	}
	return out
}

// Tensor reads tensor i as a float32 matrix (see Info.Matrix); float64
// values are rounded to float32. A tensor of a dtype the package does not
// decode, an empty tensor, or one over Limits.MaxElements is an error
// naming the tensor.
func (a *Archive) Tensor(i int) (*scaling.Tensor, error) {
	return a.TensorInto(i, nil)
}

// TensorInto is Tensor decoding straight into buf's storage when its
// capacity holds the tensor (the returned tensor's Data then aliases buf),
// so that a caller reading tensor after tensor reuses one buffer; with a
// smaller buf it allocates, as Tensor does. Pass the last tensor's Data
// as the next buf. (.npy and CSV tensors are read whole and not copied
// into buf.)
func (a *Archive) TensorInto(i int, buf []float32) (*scaling.Tensor, error) {
	t, err := a.tensor(i, buf)
	if err != nil {
		return nil, a.wrap(i, err)
	}
	return t, nil
}

func (a *Archive) tensor(i int, buf []float32) (*scaling.Tensor, error) {
	if err := a.has(i); err != nil {
		return nil, err
	}
	in := a.Tensors[i]
	if a.load != nil {
		return a.load(i)
	}
	rows, cols := in.Matrix()
	if err := a.check(in); err != nil {
		return nil, err
	}
	// Room for whole groups of a packed dtype, which may end past the
	// last value.
	g := int64(codecs[in.DType].groupVals)
	need := int(((rows*cols + g - 1) / g) * g)
	if cap(buf) < need {
		buf = make([]float32, need)
	}
	t := &scaling.Tensor{Rows: int(rows), Cols: int(cols), Data: buf[:need]}
	if err := a.decode(i, t.Data); err != nil {
		return nil, err
	}
	t.Data = t.Data[:rows*cols]
	return t, nil
}

// has reports an index that names no tensor of a (nil, or not opened by
// Open, included).
func (a *Archive) has(i int) error {
	switch {
	case a == nil:
		return fmt.Errorf("%w: no tensor %d of a nil Archive", scaling.ErrShape, i)
	case i < 0 || i >= len(a.Tensors) || (a.stream == nil && a.load == nil):
		return fmt.Errorf("%w: no tensor %d of %d", scaling.ErrShape, i, len(a.Tensors))
	}
	return nil
}

// check refuses tensors that cannot be read as a matrix within the limits.
func (a *Archive) check(in Info) error {
	if !in.Decoded {
		return fmt.Errorf("%w: dtype %s is not decoded", scaling.ErrParse, in.DType)
	}
	rows, cols := in.Matrix()
	if rows <= 0 || cols <= 0 {
		return fmt.Errorf("%w: shape %v is empty", scaling.ErrShape, in.Shape)
	}
	if max := int64(a.lim.maxElements()); rows > max/cols {
		return fmt.Errorf("%w: shape %v has more than %d elements", ErrTooLarge, in.Shape, max)
	}
	return nil
}

// Stream hands the values of tensor i to fn in row-major order, at most
// ChunkValues at a time, reading the file as it goes (the slice is reused:
// fn must copy what it keeps). .npy and CSV tensors are read whole first.
func (a *Archive) Stream(i int, fn func(values []float32) error) error {
	if err := a.has(i); err != nil {
		return err
	}
	if a.load != nil {
		t, err := a.Tensor(i)
		if err != nil {
			return err
		}
		return fn(t.Data)
	}
	if err := a.check(a.Tensors[i]); err != nil {
		return a.wrap(i, err)
	}
	return a.wrap(i, a.stream1(i, fn))
}

// stream1 decodes the raw data of a safetensors or npz tensor in chunks.
func (a *Archive) stream1(i int, fn func([]float32) error) error {
	return a.decodeChunks(i, nil, fn)
}

// decode decodes the raw data of a safetensors or npz tensor into dst
// (whole groups: see tensor), a chunk at a time.
func (a *Archive) decode(i int, dst []float32) error {
	return a.decodeChunks(i, dst, func([]float32) error { return nil })
}

// decodeChunks decodes tensor i in chunks, each into dst (in place) when
// dst is set and into a reused chunk buffer otherwise, and hands it to fn.
func (a *Archive) decodeChunks(i int, dst []float32, fn func([]float32) error) error {
	in := a.Tensors[i]
	c := codecs[in.DType]
	rd, err := a.stream(i)
	if err != nil {
		return err
	}
	n := in.Len()
	// Buffers of one chunk, or of the whole tensor when it is smaller: a
	// file of thousands of tiny tensors must not cost a chunk each.
	groups := min(ChunkValues/c.groupVals, int((n+int64(c.groupVals)-1)/int64(c.groupVals)))
	raw := make([]byte, groups*c.groupBytes)
	var vals []float32
	if dst == nil {
		vals = make([]float32, groups*c.groupVals)
	}
	var done, left int64 = 0, in.Bytes
	for done < n {
		g := min(int64(groups), (n-done+int64(c.groupVals)-1)/int64(c.groupVals))
		full := raw[:g*int64(c.groupBytes)]
		b := full[:min(int64(len(full)), left)] // a packed tensor may end mid-group
		if _, err := io.ReadFull(rd, b); err != nil {
			return fmt.Errorf("%w: data ends within values %d…%d of %d: %v", scaling.ErrParse, done, done+g*int64(c.groupVals), n, err)
		}
		clear(full[len(b):])
		left -= int64(len(b))
		v := vals
		if dst != nil {
			v = dst[done:]
		}
		v = v[:g*int64(c.groupVals)]
		c.decode(v, full)
		v = v[:min(int64(len(v)), n-done)]
		if err := fn(v); err != nil {
			return err
		}
		done += int64(len(v))
	}
	return nil
}

// wrap names tensor i in err.
func (a *Archive) wrap(i int, err error) error {
	if err == nil || a.has(i) != nil {
		return err
	}
	in := a.Tensors[i]
	switch {
	case a.Kind == NPY || a.Kind == CSV:
		// single-tensor formats: the tensor is the file
	case in.Name != "" || a.Name == "":
		err = fmt.Errorf("tensor %q: %w", in.Name, err)
	}
	if a.Name != "" {
		err = fmt.Errorf("%s: %w", a.Name, err)
	}
	return err
}

// ReadArchive reads every decoded tensor of a; the others are skipped.
func ReadArchive(a *Archive) ([]Named, error) {
	if a == nil {
		return nil, fmt.Errorf("%w: nil Archive", scaling.ErrParse)
	}
	var out []Named
	for i, in := range a.Tensors {
		if !in.Decoded {
			continue
		}
		t, err := a.Tensor(i)
		if err != nil {
			return nil, err
		}
		out = append(out, Named{Name: in.Name, Tensor: t})
	}
	if len(out) == 0 {
		err := fmt.Errorf("%w: no tensor of a decoded dtype", scaling.ErrParse)
		if a.Name != "" {
			err = fmt.Errorf("%s: %w", a.Name, err)
		}
		return nil, err
	}
	return out, nil
}
