package scaling

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fp8lab/fp8lab/internal/parallel"
)

// Hadamard rotations spread outliers: multiplying a row by an orthogonal
// Hadamard matrix mixes each value into all the others, so one huge value
// becomes many moderate ones and the amax falls towards the row's RMS. The
// product is unchanged because the rotation is orthogonal:
// (A·R)(Rᵀ·B) = A·B (QuaRot, SpinQuant, and FlashAttention-3's FP8 path).

// MaxHadamard is the largest transform size accepted (2^24).
const MaxHadamard = 1 << 24

func checkPow2(n int) error {
	if n < 1 || n > MaxHadamard || n&(n-1) != 0 {
		return fmt.Errorf("%w: Hadamard size %d is not a power of two in 1..%d", ErrShape, n, MaxHadamard)
	}
	return nil
}

// FWHT applies the normalized fast Walsh–Hadamard transform to x in place:
// x ← H·x/√n, with H the n×n Sylvester Hadamard matrix and n = len(x) a
// power of two. It takes n·log2(n) additions. The normalized transform is
// orthogonal and symmetric, so applying it twice gives x back (up to
// float32 rounding).
func FWHT(x []float32) error {
	if err := checkPow2(len(x)); err != nil {
		return err
	}
	fwht(x)
	return nil
}

// fwht is FWHT for a checked power-of-two length.
func fwht(x []float32) {
	n := len(x)
	if n == 1 {
		return
	}
	// First two stages fused: 4-point transforms on consecutive elements.
	h := 1
	if n >= 4 {
		for i := 0; i+4 <= n; i += 4 {
			v := x[i : i+4 : i+4]
			a, b, c, d := v[0]+v[1], v[0]-v[1], v[2]+v[3], v[2]-v[3]
			v[0], v[1], v[2], v[3] = a+c, b+d, a-c, b-d
		}
		h = 4
	}
	for ; h < n; h <<= 1 {
		for i := 0; i < n; i += 2 * h {
			a := x[i : i+h : i+h]
			b := x[i+h : i+2*h : i+2*h]
			for j := range a {
				u, v := a[j], b[j]
				a[j], b[j] = u+v, u-v
			}
		}
	}
	norm := float32(1 / math.Sqrt(float64(n)))
	for i := range x {
		x[i] *= norm
	}
}

// HadamardMatrix returns the unnormalized n×n Sylvester Hadamard matrix
// (entries ±1, H·H = n·I), built by the recursion H₂ₙ = [[H, H], [H, -H]].
// It is meant for small n, to show and check the transform.
func HadamardMatrix(n int) (*Tensor, error) {
	if err := checkPow2(n); err != nil {
		return nil, err
	}
	t, err := NewTensor(n, n)
	if err != nil {
		return nil, err
	}
	t.Data[0] = 1
	for h := 1; h < n; h <<= 1 {
		for i := 0; i < h; i++ {
			for j := 0; j < h; j++ {
				v := t.Data[i*n+j]
				t.Data[i*n+j+h] = v
				t.Data[(i+h)*n+j] = v
				t.Data[(i+h)*n+j+h] = -v
			}
		}
	}
	return t, nil
}

// Rotation is a block-diagonal orthogonal matrix R of size Size×Size whose
// diagonal blocks are D_b·H/√Block: a normalized Hadamard transform of side
// Block (a power of two: 16, 128, or the whole row), preceded by the random
// signs D_b = diag(Signs) of that block when Signs is set (a randomized
// Hadamard transform). Signs nil means all +1.
//
// It acts on the K dimension of a product A·B: RotateRows turns A (M×K)
// into A·R and RotateCols turns B (K×N) into Rᵀ·B, so that
// (A·R)(Rᵀ·B) = A·B; UnrotateRows and UnrotateCols undo them.
type Rotation struct {
	Size  int       `json:"size"`
	Block int       `json:"block"`
	Signs []float32 `json:"signs,omitempty"`
}

// NewRotation returns the plain (unrandomized) block-diagonal Hadamard
// rotation of the given size; block must be a power of two dividing size.
func NewRotation(size, block int) (*Rotation, error) {
	r := &Rotation{Size: size, Block: block}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return r, nil
}

// NewRandomRotation returns a randomized Hadamard rotation: signs drawn
// from a PCG generator seeded with seed, so the same seed gives the same
// rotation.
func NewRandomRotation(size, block int, seed uint64) (*Rotation, error) {
	r, err := NewRotation(size, block)
	if err != nil {
		return nil, err
	}
	src := rand.New(rand.NewPCG(seed, seed^0xD1B54A32D192ED03))
	r.Signs = make([]float32, size)
	for i := range r.Signs {
		r.Signs[i] = 1
		if src.Uint64()&1 == 1 {
			r.Signs[i] = -1
		}
	}
	return r, nil
}

// Check reports whether r is usable: Block a power of two dividing Size,
// and Signs empty or Size values of ±1.
func (r *Rotation) Check() error {
	if r == nil {
		return fmt.Errorf("%w: nil rotation", ErrShape)
	}
	if err := checkPow2(r.Block); err != nil {
		return err
	}
	if r.Size < 1 || r.Size%r.Block != 0 {
		return fmt.Errorf("%w: rotation size %d is not a positive multiple of its block %d", ErrShape, r.Size, r.Block)
	}
	if r.Signs != nil {
		if len(r.Signs) != r.Size {
			return fmt.Errorf("%w: %d signs for size %d", ErrShape, len(r.Signs), r.Size)
		}
		for i, s := range r.Signs {
			if s != 1 && s != -1 {
				return fmt.Errorf("%w: sign %d is %g, not ±1", ErrValue, i, s)
			}
		}
	}
	return nil
}

// RotateRows replaces t by t·R in place (each row a becomes a·R); t.Cols
// must equal r.Size.
func (r *Rotation) RotateRows(t *Tensor) error { return r.rows(t, true) }

// UnrotateRows replaces t by t·Rᵀ in place, undoing RotateRows.
func (r *Rotation) UnrotateRows(t *Tensor) error { return r.rows(t, false) }

// RotateCols replaces t by Rᵀ·t in place (each column b becomes Rᵀ·b);
// t.Rows must equal r.Size.
func (r *Rotation) RotateCols(t *Tensor) error { return r.cols(t, true) }

// UnrotateCols replaces t by R·t in place, undoing RotateCols.
func (r *Rotation) UnrotateCols(t *Tensor) error { return r.cols(t, false) }

// rows applies, per block of each row, signs then FWHT (a·D·H/√n) when
// forward, FWHT then signs (a·H·D/√n) otherwise.
func (r *Rotation) rows(t *Tensor, forward bool) error {
	if err := r.Check(); err != nil {
		return err
	}
	if err := t.Check(); err != nil {
		return err
	}
	if t.Cols != r.Size {
		return fmt.Errorf("%w: %d columns, rotation of size %d", ErrShape, t.Cols, r.Size)
	}
	return parallel.Chunks(t.Rows, 1, t.Len(), func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			row := t.Data[i*t.Cols : (i+1)*t.Cols]
			if forward {
				r.flip(row, 0)
			}
			for j := 0; j < len(row); j += r.Block {
				fwht(row[j : j+r.Block])
			}
			if !forward {
				r.flip(row, 0)
			}
		}
		return nil
	})
}

// flip multiplies v elementwise by Signs[off:].
func (r *Rotation) flip(v []float32, off int) {
	if r.Signs == nil {
		return
	}
	s := r.Signs[off : off+len(v)]
	for i := range v {
		v[i] *= s[i]
	}
}

// cols applies the transform down the columns, butterflying whole rows so
// that memory is read in order.
func (r *Rotation) cols(t *Tensor, forward bool) error {
	if err := r.Check(); err != nil {
		return err
	}
	if err := t.Check(); err != nil {
		return err
	}
	if t.Rows != r.Size {
		return fmt.Errorf("%w: %d rows, rotation of size %d", ErrShape, t.Rows, r.Size)
	}
	n := t.Cols
	rowSign := func() {
		if r.Signs == nil {
			return
		}
		for i := 0; i < t.Rows; i++ {
			if r.Signs[i] < 0 {
				row := t.Row(i)
				for j := range row {
					row[j] = -row[j]
				}
			}
		}
	}
	if forward {
		rowSign()
	}
	norm := float32(1 / math.Sqrt(float64(r.Block)))
	// Split the columns among workers; each runs every stage on its strip.
	err := parallel.Chunks(n, 64, t.Len(), func(lo, hi int) error {
		for b0 := 0; b0 < t.Rows; b0 += r.Block {
			for h := 1; h < r.Block; h <<= 1 {
				for i := b0; i < b0+r.Block; i += 2 * h {
					for k := i; k < i+h; k++ {
						a := t.Data[k*n+lo : k*n+hi]
						b := t.Data[(k+h)*n+lo : (k+h)*n+hi]
						for j := range a {
							u, v := a[j], b[j]
							a[j], b[j] = u+v, u-v
						}
					}
				}
			}
			for k := b0; k < b0+r.Block; k++ {
				a := t.Data[k*n+lo : k*n+hi]
				for j := range a {
					a[j] *= norm
				}
			}
		}
		return nil
	})
	if !forward {
		rowSign()
	}
	return err
}
