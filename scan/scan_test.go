package scan

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/tensorio"
)

func gauss(t testing.TB, rows, cols int, seed uint64) *scaling.Tensor {
	x, err := scaling.RandomNormal(rows, cols, 0.02, seed)
	require.NoError(t, err)
	return x
}

func f32bytes(v []float32) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, v)
	return b.Bytes()
}

// TestDescribe checks every tensor statistic against a float64 computation.
func TestDescribe(t *testing.T) {
	x := gauss(t, 6, 40, 1)
	x.Data[3], x.Data[50], x.Data[51] = 0, 0, 0
	x.Data[7] = float32(math.NaN())
	x.Data[8] = float32(math.Inf(-1))
	x.Data[100] = 3 // row 2 is the outlier row
	ref := x.Clone()
	s := Describe(x)

	var amax, minnz float64 = 0, math.Inf(1)
	zeros, nans, infs := 0, 0, 0
	var ss float64
	n := 0
	rowMax := make([]float64, ref.Rows)
	for i := 0; i < ref.Rows; i++ {
		for _, v := range ref.Row(i) {
			a := math.Abs(float64(v))
			switch {
			case math.IsNaN(a):
				nans++
				continue
			case math.IsInf(a, 0):
				infs++
				continue
			case a == 0:
				zeros++
			default:
				minnz = math.Min(minnz, a)
			}
			n++
			ss += a * a
			rowMax[i] = math.Max(rowMax[i], a)
		}
		amax = math.Max(amax, rowMax[i])
	}
	worst, worstRow := 0.0, -1
	for i, m := range rowMax {
		if r := m / math.Sqrt(ss/float64(n)); r > worst {
			worst, worstRow = r, i
		}
	}
	assert.Equal(t, amax, s.Amax)
	assert.Equal(t, 3.0, s.Amax)
	assert.Equal(t, minnz, s.MinNonZero)
	assert.InDelta(t, math.Log2(amax/minnz), s.DynamicRange, 1e-12)
	assert.InDelta(t, float64(zeros)/240, s.Zeros, 1e-15)
	assert.Equal(t, []int{1, 1}, []int{nans, infs})
	assert.Equal(t, []int{1, 1}, []int{s.NaN, s.Inf})
	assert.InDelta(t, worst, s.Outlier, 1e-9*worst)
	assert.Equal(t, worstRow, s.OutlierRows[0])
	assert.Equal(t, 2, worstRow)
	assert.Len(t, s.OutlierRows, WorstRows)
	assert.Zero(t, x.Data[7], "non-finite values are zeroed for the recipes")
}

// TestMeasure checks every recipe statistic against scaling's dequantized
// tensor measured in float64 here.
func TestMeasure(t *testing.T) {
	x := gauss(t, 130, 256, 2)
	x.Data[5] = 1e-9 // flushed under every recipe
	x.Data[6] = 0
	for _, r := range Recipes() {
		for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E5M2} {
			got := Measure(x, r, f)
			require.Empty(t, got.Skipped, r.Name)
			ff := f
			if r.Format != nil {
				ff = r.Format
			}
			in := x
			if r.Hadamard > 0 {
				in = x.Clone()
				rot, err := scaling.NewRandomRotation(x.Cols, r.Hadamard, HadamardSeed)
				require.NoError(t, err)
				require.NoError(t, rot.RotateRows(in))
			}
			q, err := scaling.Quantize(in, ff, r.Granularity, scaling.Options{})
			require.NoError(t, err)
			y, err := q.Dequantize()
			require.NoError(t, err)
			var sig, noise, underE float64
			under, sub := 0, 0
			worstRow, worstBlock := math.Inf(1), math.Inf(1)
			for i := 0; i < in.Rows; i++ {
				var rs, rn float64
				for j0 := 0; j0 < in.Cols; j0 += 32 {
					var bs, bn float64
					for j := j0; j < j0+32; j++ {
						a, b := float64(in.At(i, j)), float64(y.At(i, j))
						bs += a * a
						bn += (a - b) * (a - b)
						if a != 0 && b == 0 {
							under++
							underE += a * a
						}
						if ff.Class(q.Codes[i*in.Cols+j]) == fp8.ClassSubnormal {
							sub++
						}
					}
					if bs > 0 {
						worstBlock = math.Min(worstBlock, 10*math.Log10(bs/bn))
					}
					rs, rn = rs+bs, rn+bn
				}
				worstRow = math.Min(worstRow, 10*math.Log10(rs/rn))
				sig, noise = sig+rs, noise+rn
			}
			n := float64(in.Len())
			name := r.Name + " " + ff.Name()
			assert.InDelta(t, noise/n, got.MSE, 1e-9*noise/n, name)
			assert.InDelta(t, 10*math.Log10(sig/noise), got.SQNR, 1e-9, name)
			assert.InDelta(t, worstRow, got.WorstRowSQNR, 1e-9, name)
			assert.InDelta(t, worstBlock, got.WorstBlockSQNR, 1e-9, name)
			assert.InDelta(t, 100*float64(under)/n, got.Underflow, 1e-12, name)
			assert.InDelta(t, 100*underE/sig, got.UnderflowEnergy, 1e-9*100*underE/sig+1e-300, name)
			assert.InDelta(t, 100*float64(sub)/n, got.Subnormal, 1e-12, name)
			m, err := scaling.Measure(in, q)
			require.NoError(t, err)
			assert.InDelta(t, 100*float64(m.Overflow)/n, got.Overflow, 1e-12, name)
			lo, hi := math.Inf(1), 0.0
			for b := range q.Scales {
				if q.Amax[b] > 0 {
					d := q.BlockDecodeScale(b)
					lo, hi = math.Min(lo, d), math.Max(hi, d)
				}
			}
			assert.Equal(t, []float64{lo, hi}, []float64{got.ScaleInvMin, got.ScaleInvMax}, name)
			if r.Name == "tensorwise" && ff == fp8.E4M3FN {
				amax, _ := scaling.Amax(x)
				assert.InDelta(t, float64(amax)/448, got.ScaleInvMin, 1e-7*float64(amax)/448)
			}
		}
	}
}

// outlierFile: four Gaussian weights (σ 0.02): one has a row 10^6 times
// larger than the rest, one has a value of 1000 in every row (which even a
// per-row scale cannot absorb: the rest of the row falls ~16 binades
// below it, into E4M3's subnormals and below).
func outlierFile(t testing.TB) []byte {
	var raws []tensorio.Raw
	for k, name := range []string{"a.weight", "b.weight", "outlier.weight", "spiky.weight"} {
		x := gauss(t, 64, 128, uint64(10+k))
		switch name {
		case "outlier.weight": // one row far above the others
			for j := range x.Row(7) {
				x.Row(7)[j] *= 1e6
			}
		case "spiky.weight": // one large value in every row
			for i := 0; i < x.Rows; i++ {
				x.Row(i)[i] = 1e3
			}
		}
		raws = append(raws, tensorio.Raw{Name: name, DType: "F32", Shape: []int64{64, 128}, Data: f32bytes(x.Data)})
	}
	raws = append(raws, tensorio.Raw{Name: "bias", DType: "F32", Shape: []int64{128}, Data: f32bytes(gauss(t, 1, 128, 3).Data)})
	raws = append(raws, tensorio.Raw{Name: "steps", DType: "I64", Shape: []int64{1}, Data: make([]byte, 8)})
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, raws, nil))
	return b.Bytes()
}

func TestOutlierRanking(t *testing.T) {
	file := outlierFile(t)
	a, err := tensorio.Open(bytes.NewReader(file), int64(len(file)), "m.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	rep, err := Run(context.Background(), []*tensorio.Archive{a}, Options{})
	require.NoError(t, err)
	require.Len(t, rep.Tensors, 6)
	assert.Equal(t, "dtype I64 is not a floating-point type fp8lab decodes", rep.Tensors[5].Skipped)
	assert.Equal(t, 1, rep.Tensors[4].Rows, "a 1-D tensor is one row")
	assert.Equal(t, 7, rep.Tensors[2].OutlierRows[0])
	sum := map[string]Summary{}
	for _, s := range rep.Summary {
		sum[s.Recipe] = s
	}
	require.Len(t, sum, 5)
	assert.Equal(t, "outlier.weight", sum["tensorwise"].Worst[0])
	assert.Contains(t, keepNames(sum["tensorwise"]), "outlier.weight")
	assert.Equal(t, "spiky.weight", sum["rowwise"].Worst[0])
	assert.NotEqual(t, "outlier.weight", sum["rowwise"].Worst[0])
	assert.NotContains(t, keepNames(sum["rowwise"]), "outlier.weight")
}

func TestRunInterruptedAndFiltered(t *testing.T) {
	file := outlierFile(t)
	a, err := tensorio.Open(bytes.NewReader(file), int64(len(file)), "m.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	rep, err := Run(ctx, []*tensorio.Archive{a}, Options{Progress: func(p Progress) {
		n++
		if p.Tensors == 2 {
			cancel()
		}
	}})
	require.NoError(t, err)
	assert.True(t, rep.Interrupted)
	assert.Len(t, rep.Tensors, 2)
	assert.Equal(t, 2, n)

	rep, err = Run(context.Background(), []*tensorio.Archive{a}, Options{Filter: mustRegexp(`^outlier`), Recipes: Recipes()})
	require.NoError(t, err)
	require.Len(t, rep.Tensors, 1)
	assert.Len(t, rep.Tensors[0].Results, 10)
}

func TestParse(t *testing.T) {
	r, err := ParseRecipes("rowwise, nvfp4-hadamard,rowwise")
	require.NoError(t, err)
	assert.Equal(t, []string{"rowwise", "nvfp4-hadamard"}, []string{r[0].Name, r[1].Name})
	assert.Equal(t, 16, r[1].Hadamard)
	_, err = ParseRecipes("fast")
	assert.ErrorContains(t, err, "known: tensorwise")
	all, _ := ParseRecipes("all")
	assert.Len(t, all, 10)
	f, err := ParseFormats("e5m2,E4M3FN")
	require.NoError(t, err)
	assert.Equal(t, []*fp8.Format{fp8.E5M2, fp8.E4M3FN}, f)
}

func TestJSONNonFinite(t *testing.T) {
	x, _ := scaling.NewTensor(2, 32)
	r := Measure(x, DefaultRecipes()[0], fp8.E4M3FN)
	assert.True(t, math.IsNaN(r.SQNR))
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"sqnr_db":"NaN"`)
	var back Result
	require.NoError(t, json.Unmarshal(b, &back))
	assert.True(t, math.IsNaN(back.SQNR))
	assert.Equal(t, r.Recipe, back.Recipe)
}

// FlushRisk sits above what Gaussian weights lose to flushing under every
// default recipe (nvfp4's E2M1, whose smallest step is a 24th of the block
// amax, flushes about one value in 14), and those values carry a
// negligible share of the energy.
func TestFlushRiskOnGaussian(t *testing.T) {
	x := gauss(t, 64, 128, 5)
	for _, r := range DefaultRecipes() {
		res := Measure(x, r, fp8.E4M3FN)
		assert.Less(t, res.Underflow, FlushRisk, r.Name)
		assert.Less(t, res.UnderflowEnergy, 0.1, r.Name)
		if r.Name == "nvfp4" {
			assert.InDelta(t, 100.0/14, res.Underflow, 1.5)
		} else {
			assert.Less(t, res.Underflow, 1.0, r.Name)
		}
	}
}
