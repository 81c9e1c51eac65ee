package scaling

import (
	"fmt"
	"math"
)

// MaxElements is the largest number of elements a Tensor may hold (2^30):
// constructors and readers refuse larger shapes with ErrShape instead of
// trying to allocate them.
const MaxElements = 1 << 30

// Tensor is a small row-major matrix of float32: element (i, j) is
// Data[i*Cols+j]. A vector is a 1×n tensor. Every function of the package
// checks that Rows and Cols are positive and that len(Data) == Rows*Cols,
// and returns ErrShape otherwise, so a Tensor built by hand is safe to pass.
type Tensor struct {
	Rows int       `json:"rows"`
	Cols int       `json:"cols"`
	Data []float32 `json:"data"`
}

// checkDims validates a shape without allocating.
func checkDims(rows, cols int) error {
	if rows <= 0 || cols <= 0 {
		return fmt.Errorf("%w: %d×%d (both dimensions must be positive)", ErrShape, rows, cols)
	}
	if rows > MaxElements/cols {
		return fmt.Errorf("%w: %d×%d has more than %d elements", ErrShape, rows, cols, MaxElements)
	}
	return nil
}

// NewTensor returns a zero-filled rows×cols tensor, or ErrShape when a
// dimension is not positive or the tensor would exceed MaxElements.
func NewTensor(rows, cols int) (*Tensor, error) {
	if err := checkDims(rows, cols); err != nil {
		return nil, err
	}
	return &Tensor{Rows: rows, Cols: cols, Data: make([]float32, rows*cols)}, nil
}

// FromSlice wraps data (not copied) as a rows×cols tensor; len(data) must be
// rows*cols.
func FromSlice(rows, cols int, data []float32) (*Tensor, error) {
	if err := checkDims(rows, cols); err != nil {
		return nil, err
	}
	if len(data) != rows*cols {
		return nil, fmt.Errorf("%w: %d values for %d×%d", ErrShape, len(data), rows, cols)
	}
	return &Tensor{Rows: rows, Cols: cols, Data: data}, nil
}

// FromRows copies a slice of equally long rows into a new tensor.
func FromRows(rows [][]float32) (*Tensor, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no rows", ErrShape)
	}
	t, err := NewTensor(len(rows), len(rows[0]))
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		if len(r) != t.Cols {
			return nil, fmt.Errorf("%w: row %d has %d values, row 0 has %d", ErrShape, i, len(r), t.Cols)
		}
		copy(t.Data[i*t.Cols:], r)
	}
	return t, nil
}

// FromFloat64 converts a row-major float64 slice into a new rows×cols tensor,
// rounding each value to the nearest float32.
func FromFloat64(rows, cols int, data []float64) (*Tensor, error) {
	if err := checkDims(rows, cols); err != nil {
		return nil, err
	}
	if len(data) != rows*cols {
		return nil, fmt.Errorf("%w: %d values for %d×%d", ErrShape, len(data), rows, cols)
	}
	t := &Tensor{Rows: rows, Cols: cols, Data: make([]float32, len(data))}
	for i, v := range data {
		t.Data[i] = float32(v)
	}
	return t, nil
}

// Check reports whether t is a usable tensor: non-nil, positive dimensions
// and len(Data) == Rows*Cols.
func (t *Tensor) Check() error {
	if t == nil {
		return fmt.Errorf("%w: nil tensor", ErrShape)
	}
	if err := checkDims(t.Rows, t.Cols); err != nil {
		return err
	}
	if len(t.Data) != t.Rows*t.Cols {
		return fmt.Errorf("%w: %d values for %d×%d", ErrShape, len(t.Data), t.Rows, t.Cols)
	}
	return nil
}

// Len returns the number of elements, Rows*Cols.
func (t *Tensor) Len() int {
	if t == nil {
		return 0
	}
	return t.Rows * t.Cols
}

// index is the position of element (i, j) in t.Data, and whether there is
// one: false for a nil tensor, an index out of range, or data too short.
func (t *Tensor) index(i, j int) (int, bool) {
	if t == nil || uint(i) >= uint(t.Rows) || uint(j) >= uint(t.Cols) {
		return 0, false
	}
	k := i*t.Cols + j
	return k, k < len(t.Data)
}

// At returns element (i, j), or NaN when there is none (an index out of
// range, a nil tensor).
func (t *Tensor) At(i, j int) float32 {
	k, ok := t.index(i, j)
	if !ok {
		return float32(math.NaN())
	}
	return t.Data[k]
}

// Set stores v at (i, j); it does nothing when there is no such element.
func (t *Tensor) Set(i, j int, v float32) {
	if k, ok := t.index(i, j); ok {
		t.Data[k] = v
	}
}

// Row returns row i as a slice sharing t's storage, or nil when there is
// no such row.
func (t *Tensor) Row(i int) []float32 {
	if t == nil || uint(i) >= uint(t.Rows) || t.Cols < 0 || (i+1)*t.Cols > len(t.Data) {
		return nil
	}
	return t.Data[i*t.Cols : (i+1)*t.Cols]
}

// Clone returns a deep copy of t (nil for nil).
func (t *Tensor) Clone() *Tensor {
	if t == nil {
		return nil
	}
	return &Tensor{Rows: t.Rows, Cols: t.Cols, Data: append([]float32(nil), t.Data...)}
}

// Transpose returns a new Cols×Rows tensor holding tᵀ.
func (t *Tensor) Transpose() (*Tensor, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	out := &Tensor{Rows: t.Cols, Cols: t.Rows, Data: make([]float32, len(t.Data))}
	const tile = 32
	for i0 := 0; i0 < t.Rows; i0 += tile {
		for j0 := 0; j0 < t.Cols; j0 += tile {
			for i := i0; i < min(i0+tile, t.Rows); i++ {
				for j := j0; j < min(j0+tile, t.Cols); j++ {
					out.Data[j*t.Rows+i] = t.Data[i*t.Cols+j]
				}
			}
		}
	}
	return out, nil
}

// Float64 returns the elements as a new row-major float64 slice.
func (t *Tensor) Float64() []float64 {
	if t == nil {
		return nil
	}
	out := make([]float64, len(t.Data))
	for i, v := range t.Data {
		out[i] = float64(v)
	}
	return out
}

// AllFinite reports whether no element is NaN or ±Inf (true for nil).
func (t *Tensor) AllFinite() bool {
	if t == nil {
		return true
	}
	for _, v := range t.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return false
		}
	}
	return true
}

// sameShape returns ErrShape unless a and b have the same dimensions.
func sameShape(a, b *Tensor) error {
	if a.Rows != b.Rows || a.Cols != b.Cols {
		return fmt.Errorf("%w: %d×%d and %d×%d differ", ErrShape, a.Rows, a.Cols, b.Rows, b.Cols)
	}
	return nil
}
