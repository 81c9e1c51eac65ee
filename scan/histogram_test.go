package scan

import (
	"bytes"
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/tensorio"
)

// TestHistogramAndWindow: the binade histogram against math.Log2 in
// float64, subnormal float32 values included, and each format's window
// against fp8's own facts and the tensorwise recipe's scale_inv.
func TestHistogramAndWindow(t *testing.T) {
	x := gauss(t, 8, 64, 3)
	x.Data[0], x.Data[1], x.Data[2] = 0, 1e-40, -1.5e-45 // float32 subnormals
	x.Data[3] = float32(math.NaN())
	ref := x.Clone()
	s := Describe(x)
	want := map[int]int{}
	for _, v := range ref.Data {
		a := math.Abs(float64(v))
		if a != 0 && !math.IsNaN(a) && !math.IsInf(a, 0) {
			want[int(math.Floor(math.Log2(a)))]++
		}
	}
	got := map[int]int{}
	for k, c := range s.Histogram.Counts {
		if c > 0 {
			got[s.Histogram.Lo+k] = c
		}
	}
	assert.Equal(t, want, got)
	assert.Equal(t, -149, s.Histogram.Lo) // -1.5e-45 rounds to -2^-149
	assert.Positive(t, s.Histogram.Counts[len(s.Histogram.Counts)-1])

	raws := []tensorio.Raw{{Name: "w", DType: "F32", Shape: []int64{8, 64}, Data: f32bytes(ref.Data)}}
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, raws, nil))
	a, err := tensorio.Open(bytes.NewReader(b.Bytes()), int64(b.Len()), "w.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	formats := []*fp8.Format{fp8.E4M3FN, fp8.E5M2}
	rep, err := Run(context.Background(), []*tensorio.Archive{a}, Options{Formats: formats})
	require.NoError(t, err)
	ts := rep.Tensors[0]
	require.Len(t, ts.Windows, 2)
	for k, f := range formats {
		w := ts.Windows[k]
		var d float64
		for _, r := range ts.Results {
			if r.Recipe == "tensorwise" && r.Format == f.Name() {
				d = r.ScaleInvMin
			}
		}
		require.NotZero(t, d)
		in := f.Info()
		assert.Equal(t, f.Name(), w.Format)
		assert.Equal(t, d, w.ScaleInv)
		assert.Equal(t, in.MinSubnormal*d, w.Lo, f.Name())
		assert.Equal(t, in.Max*d, w.Hi, f.Name())
		assert.InDelta(t, ts.Amax, w.Hi, 1e-6*ts.Amax) // the scale maps amax to Max
	}
	assert.Equal(t, 448.0, fp8.E4M3FN.Info().Max)
	assert.Equal(t, math.Ldexp(1, -9), fp8.E4M3FN.Info().MinSubnormal)
}

// TestMeasureSplitIndependent: measure's rows run in parallel, but the
// result is the same, bit for bit, however they are split.
func TestMeasureSplitIndependent(t *testing.T) {
	x := gauss(t, 300, 256, 4) // 76,800 values: split on 2 or more workers
	x.Data[7] = 5              // a spike: overflow under mxfp8, flush elsewhere
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var serial []Result
	for _, r := range DefaultRecipes() {
		serial = append(serial, Measure(x, r, fp8.E4M3FN))
	}
	for _, procs := range []int{2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		for k, r := range DefaultRecipes() {
			assert.Equal(t, serial[k], Measure(x, r, fp8.E4M3FN), "%s on %d procs", r.Name, procs)
		}
	}
}

// TestDescribeOddRows: rows of odd length (Describe's two counting lanes
// and its tail), a row with NaN and Inf at the tail and at the start
// (taken back and counted again), subnormals, zeros and a negative zero,
// all against a float64 count.
func TestDescribeOddRows(t *testing.T) {
	x := gauss(t, 5, 33, 4)
	x.Data[32] = float32(math.NaN())                     // row 0's tail
	x.Data[33], x.Data[34] = float32(math.Inf(1)), 1e-42 // row 1
	x.Data[40], x.Data[41] = 0, float32(math.Copysign(0, -1))
	x.Data[70] = -3e-39
	ref := x.Clone()
	s := Describe(x)
	bins := map[int]int{}
	zeros, minnz, amax, ss := 0, math.Inf(1), 0.0, 0.0
	for _, v := range ref.Data {
		a := math.Abs(float64(v))
		switch {
		case math.IsNaN(a) || math.IsInf(a, 0):
			continue
		case a == 0:
			zeros++
		default:
			bins[int(math.Floor(math.Log2(a)))]++
			minnz = math.Min(minnz, a)
		}
		amax, ss = math.Max(amax, a), ss+a*a
	}
	got := map[int]int{}
	for k, c := range s.Histogram.Counts {
		if c > 0 {
			got[s.Histogram.Lo+k] = c
		}
	}
	assert.Equal(t, bins, got)
	assert.Equal(t, []int{1, 1}, []int{s.NaN, s.Inf})
	assert.Equal(t, float64(zeros)/float64(len(ref.Data)), s.Zeros)
	assert.Equal(t, minnz, s.MinNonZero)
	assert.Equal(t, amax, s.Amax)
	assert.InDelta(t, amax/math.Sqrt(ss/float64(len(ref.Data)-2)), s.Outlier, 1e-12*s.Outlier)
	assert.Zero(t, x.Data[32])
	assert.Zero(t, x.Data[33])
}
