package scaling

import (
	"math"
	"math/bits"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hadamardEntry is the Sylvester Hadamard matrix by its closed form,
// (-1)^popcount(i AND j), independent of the recursion in HadamardMatrix.
func hadamardEntry(i, j int) float64 {
	if bits.OnesCount(uint(i&j))%2 == 1 {
		return -1
	}
	return 1
}

// TestFWHTMatchesDenseProduct compares the fast transform with the dense
// product H·x/√n in float64 for every power of two up to 4096.
func TestFWHTMatchesDenseProduct(t *testing.T) {
	for n := 1; n <= 4096; n *= 2 {
		x := normal(t, 1, n, 1, uint64(n))
		want := make([]float64, n)
		for i := 0; i < n; i++ {
			s := 0.0
			for j := 0; j < n; j++ {
				s += hadamardEntry(i, j) * float64(x.Data[j])
			}
			want[i] = s / math.Sqrt(float64(n))
		}
		got := append([]float32(nil), x.Data...)
		require.NoError(t, FWHT(got))
		// float32 butterflies: log2(n) roundings of values of size ~‖x‖.
		tol := 1e-6 * (1 + math.Log2(float64(n))) * math.Sqrt(float64(n))
		for i := range want {
			require.InDelta(t, want[i], float64(got[i]), tol, "n=%d i=%d", n, i)
		}
		// Orthogonal and symmetric: applying it again gives x back.
		require.NoError(t, FWHT(got))
		for i := range got {
			require.InDelta(t, float64(x.Data[i]), float64(got[i]), tol, "inverse n=%d", n)
		}
	}
	for _, n := range []int{0, 3, 12, 4095} {
		assert.ErrorIs(t, FWHT(make([]float32, n)), ErrShape, "n=%d", n)
	}
}

// TestHadamardMatrix checks H·H = n·I and the closed form.
func TestHadamardMatrix(t *testing.T) {
	for n := 1; n <= 256; n *= 2 {
		h, err := HadamardMatrix(n)
		require.NoError(t, err)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				require.Equal(t, hadamardEntry(i, j), float64(h.At(i, j)))
			}
		}
		hh, err := MatMul(h, h)
		require.NoError(t, err)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := 0.0
				if i == j {
					want = float64(n)
				}
				require.Equal(t, want, float64(hh.At(i, j)), "n=%d (%d,%d)", n, i, j)
			}
		}
	}
	_, err := HadamardMatrix(6)
	assert.ErrorIs(t, err, ErrShape)
}

// TestRotationPreservesProduct checks (A·R)(Rᵀ·B) = A·B within float32
// error, for plain and randomized block-diagonal rotations, and that the
// inverse functions undo the rotations.
func TestRotationPreservesProduct(t *testing.T) {
	const m, k, n = 24, 256, 20
	a := normal(t, m, k, 1, 1)
	b := normal(t, k, n, 1, 2)
	ab, err := MatMul(a, b)
	require.NoError(t, err)
	for _, block := range []int{16, 128, 256} {
		for _, random := range []bool{false, true} {
			var r *Rotation
			if random {
				r, err = NewRandomRotation(k, block, 42)
			} else {
				r, err = NewRotation(k, block)
			}
			require.NoError(t, err)
			ar, rb := a.Clone(), b.Clone()
			require.NoError(t, r.RotateRows(ar))
			require.NoError(t, r.RotateCols(rb))
			assert.NotEqual(t, a.Data[:8], ar.Data[:8], "rotation changes A")
			got, err := MatMul(ar, rb)
			require.NoError(t, err)
			for i := range got.Data {
				require.InDelta(t, ab.Data[i], got.Data[i], 2e-4*math.Sqrt(k), "block %d random %v", block, random)
			}
			// Dense check of one row: (a·R)_j = Σ_i a_i R_ij with R = D·H/√block.
			for j := 0; j < k; j++ {
				want := 0.0
				base := j / block * block
				for i := base; i < base+block; i++ {
					s := 1.0
					if r.Signs != nil {
						s = float64(r.Signs[i])
					}
					want += float64(a.Data[i]) * s * hadamardEntry(i-base, j-base)
				}
				require.InDelta(t, want/math.Sqrt(float64(block)), float64(ar.Data[j]), 1e-5)
			}
			require.NoError(t, r.UnrotateRows(ar))
			require.NoError(t, r.UnrotateCols(rb))
			for i := range a.Data {
				require.InDelta(t, a.Data[i], ar.Data[i], 1e-5)
			}
			for i := range b.Data {
				require.InDelta(t, b.Data[i], rb.Data[i], 1e-5)
			}
		}
	}
	r1, err := NewRandomRotation(64, 16, 5)
	require.NoError(t, err)
	r2, err := NewRandomRotation(64, 16, 5)
	require.NoError(t, err)
	assert.Equal(t, r1.Signs, r2.Signs, "same seed, same signs")
}

func TestRotationErrors(t *testing.T) {
	_, err := NewRotation(100, 16)
	assert.ErrorIs(t, err, ErrShape)
	_, err = NewRotation(96, 24)
	assert.ErrorIs(t, err, ErrShape)
	r, err := NewRotation(64, 16)
	require.NoError(t, err)
	x := normal(t, 3, 32, 1, 1)
	assert.ErrorIs(t, r.RotateRows(x), ErrShape)
	assert.ErrorIs(t, r.RotateCols(x), ErrShape)
	bad := &Rotation{Size: 4, Block: 4, Signs: []float32{1, 0, 1, 1}}
	assert.ErrorIs(t, bad.Check(), ErrValue)
	bad = &Rotation{Size: 4, Block: 4, Signs: []float32{1}}
	assert.ErrorIs(t, bad.Check(), ErrShape)
	var nilR *Rotation
	assert.ErrorIs(t, nilR.Check(), ErrShape)
}

// TestOutlierExperiment: one outlier feature, 100 times the typical value,
// in every row of an activation matrix quantized to FP4 (E2M1) per row.
// Without rotation the row scale is set by the outlier and the typical
// values flush to zero; the rotation spreads the outlier over the row,
// lowers the amax and keeps the small values.
func TestOutlierExperiment(t *testing.T) {
	spec := OutlierSpec{Rows: 32, Cols: 256, Seed: 9}
	for i := 0; i < 32; i++ {
		spec.Outliers = append(spec.Outliers, Outlier{Row: i, Col: 17, Value: 100})
	}
	x, err := MakeOutlierTensor(spec)
	require.NoError(t, err)
	r, err := NewRandomRotation(256, 256, 1)
	require.NoError(t, err)
	rep, err := OutlierExperiment(x, fp8.E2M1, PerRow, r, Options{})
	require.NoError(t, err)
	assert.Equal(t, float32(100), rep.AmaxBefore)
	assert.Less(t, rep.AmaxAfter, float32(100/4), "the outlier is spread over the row")
	assert.Greater(t, rep.Plain.Underflow, 32*255/2, "without rotation the small values flush")
	assert.Less(t, rep.Rotated.Underflow, 32*255/50)
	// FP4 stays coarse, but the error halves: about 3 dB, overall and on
	// the small blocks.
	assert.Greater(t, rep.Rotated.SQNR, rep.Plain.SQNR+2)
	assert.Greater(t, rep.Rotated.Blocks.Mean, rep.Plain.Blocks.Mean+2)
	assert.Less(t, rep.Rotated.MSE, 0.6*rep.Plain.MSE)
	// Histograms: before, one count per row in the outlier's binade
	// (2^6 ≤ 100 < 2^7); after, nothing up there.
	total := func(h Histogram) int {
		s := h.Below + h.Above + h.Zeros + h.NonFinite
		for _, c := range h.Counts {
			s += c
		}
		return s
	}
	assert.Equal(t, x.Len(), total(rep.Before))
	assert.Equal(t, x.Len(), total(rep.After))
	top := 6 - rep.Before.MinExp
	require.Less(t, top, len(rep.Before.Counts))
	assert.Equal(t, 32, rep.Before.Counts[top])
	assert.Zero(t, rep.After.Counts[top])
	assert.Equal(t, top+1, len(rep.Before.Counts), "the shared range ends at the outlier's binade")

	_, err = OutlierExperiment(x, fp8.E4M3FN, PerRow, &Rotation{Size: 128, Block: 128}, Options{})
	assert.ErrorIs(t, err, ErrShape)
	_, err = MakeOutlierTensor(OutlierSpec{Rows: 2, Cols: 2, OutlierRows: []int{2}})
	assert.ErrorIs(t, err, ErrShape)
	_, err = MakeOutlierTensor(OutlierSpec{Rows: 2, Cols: 2, Outliers: []Outlier{{Row: 0, Col: 5}}})
	assert.ErrorIs(t, err, ErrShape)
	_, err = Log2Histogram(nil, 3, 2)
	assert.ErrorIs(t, err, ErrOptions)
	h, err := Log2Histogram([]float32{0, 1, 1.5, 2, 1e-3, 1e3, float32(math.NaN())}, 0, 1)
	require.NoError(t, err)
	assert.Equal(t, Histogram{MinExp: 0, Counts: []int{2, 1}, Below: 1, Above: 1, Zeros: 1, NonFinite: 1}, h)
}

// TestRotateColsMatchesRows: rotating the columns of B equals rotating the
// rows of Bᵀ, on a matrix large enough to split across cores.
func TestRotateColsMatchesRows(t *testing.T) {
	b := normal(t, 1024, 130, 1, 8)
	r, err := NewRandomRotation(1024, 128, 3)
	require.NoError(t, err)
	viaRows, err := b.Transpose()
	require.NoError(t, err)
	require.NoError(t, r.RotateRows(viaRows))
	viaRows, err = viaRows.Transpose()
	require.NoError(t, err)
	viaCols := b.Clone()
	require.NoError(t, r.RotateCols(viaCols))
	for i := range viaCols.Data {
		require.InDelta(t, viaRows.Data[i], viaCols.Data[i], 1e-5)
	}
	require.NoError(t, r.UnrotateCols(viaCols))
	for i := range b.Data {
		require.InDelta(t, b.Data[i], viaCols.Data[i], 1e-5)
	}
}
