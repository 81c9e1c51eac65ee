package scan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/scaling"
)

// Layout is how a checkpoint stores its weights: which dimensions hold the
// output channels. The scan reads every tensor as the matrix an FP8 GEMM
// would scale (see View): one row per output channel, the contraction
// (input features, times the kernel's taps for a convolution) along the
// row. "rowwise" is then one scale per output channel, and the 1×32 and
// 1×16 blocks of MX and NVFP4 run along the contraction.
type Layout int

const (
	// Torch is PyTorch's layout, that of Hugging Face safetensors: a Linear
	// weight is [out, in], a convolution [out, in/groups, kh, kw] (a
	// depthwise one [C, 1, kh, kw]). Rows are dimension 0, the row the
	// rest.
	Torch Layout = iota
	// TF is TensorFlow's and Keras's: a Dense kernel is [in, out], a
	// convolution [kh, kw, in, out], a depthwise convolution [kh, kw, C,
	// multiplier]. Rows are the last dimension, the row the ones before;
	// a tensor of three or more dimensions whose name contains "depthwise"
	// (Keras names the weight depthwise_kernel) has C·multiplier rows of
	// kh·kw, since each output channel sees only its own input channel.
	TF
)

// Layouts lists the layouts by name, the default first.
var Layouts = []Layout{Torch, TF}

// String is the layout's name, as ParseLayout reads it.
func (l Layout) String() string {
	switch l {
	case Torch:
		return "torch"
	case TF:
		return "tf"
	}
	return "Layout(" + strconv.Itoa(int(l)) + ")"
}

// Rows says in a few words where the layout's output channels are, as a
// menu shows it.
func (l Layout) Rows() string {
	switch l {
	case Torch:
		return "rows = dim 0 (PyTorch, Hugging Face)"
	case TF:
		return "rows = last dim (TensorFlow, Keras)"
	}
	return ""
}

// ParseLayout reads "torch" or "tf" (any case; "" is Torch).
func ParseLayout(s string) (Layout, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return Torch, nil
	}
	for _, l := range Layouts {
		if l.String() == s {
			return l, nil
		}
	}
	return 0, fmt.Errorf("scan: unknown layout %q (known: torch, tf)", s)
}

// View is the matrix a tensor is scanned as. The shape's dimensions split
// at Split into two groups; the rows are the product of one group (the
// output channels) and the row the product of the other (the
// contraction). Under Torch the rows are the first group, so the view is
// the stored data read row by row; under TF they are the second and the
// view is that data's transpose.
type View struct {
	Rows, Cols int
	Split      int
	Transposed bool
	Depthwise  bool
	ndim       int
}

// View gives the matrix of a tensor of the given name and shape under l. A
// scalar and a 1-D tensor are one row.
func (l Layout) View(name string, shape []int64) View {
	n := len(shape)
	v := View{Split: min(1, n), ndim: n}
	switch {
	case n < 2:
		v.Split = 0 // one row of everything
	case l == TF:
		v.Transposed = true
		v.Split = n - 1
		if n >= 3 && strings.Contains(strings.ToLower(name), "depthwise") {
			v.Split, v.Depthwise = n-2, true
		}
	}
	a, b := prod(shape[:v.Split]), prod(shape[v.Split:])
	v.Rows, v.Cols = int(a), int(b)
	if v.Transposed {
		v.Rows, v.Cols = int(b), int(a)
	}
	return v
}

func prod(s []int64) int64 {
	p := int64(1)
	for _, d := range s {
		p *= d
	}
	return p
}

// String says which dimensions the rows and the row come from, as every
// report prints it: "64×288 (rows: dim 0; row: dims 1·2·3)".
func (v View) String() string {
	rowDims, colDims := dims(0, v.Split), dims(v.Split, v.ndim)
	if v.Transposed {
		rowDims, colDims = colDims, rowDims
	}
	s := fmt.Sprintf("%d×%d", v.Rows, v.Cols)
	switch {
	case rowDims == "":
		return s + " (one row)"
	case v.Depthwise:
		return s + " (rows: " + rowDims + ", depthwise; row: " + colDims + ")"
	}
	return s + " (rows: " + rowDims + "; row: " + colDims + ")"
}

// dims names the dimensions lo…hi-1 of a shape: "dim 0", "dims 1·2·3".
func dims(lo, hi int) string {
	switch {
	case lo >= hi:
		return ""
	case hi-lo == 1:
		return "dim " + strconv.Itoa(lo)
	}
	parts := make([]string, 0, hi-lo)
	for d := lo; d < hi; d++ {
		parts = append(parts, strconv.Itoa(d))
	}
	return "dims " + strings.Join(parts, "·")
}

// apply reshapes t (read with its dimensions folded as tensorio reads
// them) into the view, transposing into buf when the view asks for it; it
// returns the tensor to scan and the buffer to reuse next time.
func (v View) apply(t *scaling.Tensor, buf []float32) (*scaling.Tensor, []float32) {
	if !v.Transposed {
		return &scaling.Tensor{Rows: v.Rows, Cols: v.Cols, Data: t.Data}, buf
	}
	n := v.Rows * v.Cols
	if cap(buf) < n {
		buf = make([]float32, n)
	}
	out := &scaling.Tensor{Rows: v.Rows, Cols: v.Cols, Data: buf[:n]}
	// The stored data is Cols×Rows; out[i][j] = in[j][i], in tiles that
	// stay in cache.
	const tile = 64
	for j0 := 0; j0 < v.Cols; j0 += tile {
		for i0 := 0; i0 < v.Rows; i0 += tile {
			for j := j0; j < min(j0+tile, v.Cols); j++ {
				src := t.Data[j*v.Rows:]
				for i := i0; i < min(i0+tile, v.Rows); i++ {
					out.Data[i*v.Cols+j] = src[i]
				}
			}
		}
	}
	return out, buf
}
