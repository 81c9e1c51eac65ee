package scan

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/tensorio"
)

func TestLayoutView(t *testing.T) {
	for _, c := range []struct {
		layout Layout
		name   string
		shape  []int64
		want   string
	}{
		{Torch, "w", []int64{64, 32, 3, 3}, "64×288 (rows: dim 0; row: dims 1·2·3)"},
		{Torch, "dw.weight", []int64{32, 1, 3, 3}, "32×9 (rows: dim 0; row: dims 1·2·3)"},
		{Torch, "fc", []int64{10, 20}, "10×20 (rows: dim 0; row: dim 1)"},
		{Torch, "b", []int64{7}, "1×7 (one row)"},
		{Torch, "s", nil, "1×1 (one row)"},
		{TF, "dense/kernel", []int64{20, 10}, "10×20 (rows: dim 1; row: dim 0)"},
		{TF, "conv/kernel", []int64{3, 3, 32, 64}, "64×288 (rows: dim 3; row: dims 0·1·2)"},
		{TF, "b/DepthWise_kernel", []int64{3, 3, 32, 2}, "64×9 (rows: dims 2·3, depthwise; row: dims 0·1)"},
		{TF, "conv1d/kernel", []int64{5, 16, 8}, "8×80 (rows: dim 2; row: dims 0·1)"},
		{TF, "b", []int64{7}, "1×7 (one row)"},
	} {
		v := c.layout.View(c.name, c.shape)
		assert.Equal(t, c.want, v.String(), "%v %s %v", c.layout, c.name, c.shape)
	}
	for _, s := range []string{"torch", " TF ", ""} {
		_, err := ParseLayout(s)
		assert.NoError(t, err, s)
	}
	_, err := ParseLayout("nchw")
	assert.ErrorContains(t, err, "known: torch, tf")
	_, err = Run(context.Background(), nil, Options{Layout: 7})
	assert.ErrorContains(t, err, "unknown layout")
}

// convKernels are a PyTorch convolution [out, in, kh, kw] and depthwise
// convolution [C, 1, kh, kw] whose output channels have spreads 2^0 to
// 2^-10 apart (what per-output-channel scaling is for), and the same
// values in TensorFlow's layouts, [kh, kw, in, out] and [kh, kw, C, 1],
// placed by index here (independently of View).
func convKernels(t *testing.T) (torch, tf []tensorio.Raw, perChannel map[string]*scaling.Tensor) {
	const out, in, k, c = 24, 8, 3, 40
	conv := gauss(t, out, in*k*k, 21)
	dw := gauss(t, c, k*k, 22)
	for _, x := range []*scaling.Tensor{conv, dw} {
		for i := 0; i < x.Rows; i++ {
			for j := range x.Row(i) {
				x.Row(i)[j] *= float32(math.Exp2(-float64(i % 11)))
			}
		}
	}
	convTF := make([]float32, len(conv.Data))
	for o := 0; o < out; o++ {
		for i := 0; i < in; i++ {
			for h := 0; h < k; h++ {
				for w := 0; w < k; w++ {
					convTF[((h*k+w)*in+i)*out+o] = conv.Data[((o*in+i)*k+h)*k+w]
				}
			}
		}
	}
	dwTF := make([]float32, len(dw.Data))
	for ch := 0; ch < c; ch++ {
		for h := 0; h < k; h++ {
			for w := 0; w < k; w++ {
				dwTF[(h*k+w)*c+ch] = dw.Data[(ch*k+h)*k+w]
			}
		}
	}
	torch = []tensorio.Raw{
		{Name: "conv.weight", DType: "F32", Shape: []int64{out, in, k, k}, Data: f32bytes(conv.Data)},
		{Name: "dw.weight", DType: "F32", Shape: []int64{c, 1, k, k}, Data: f32bytes(dw.Data)},
	}
	tf = []tensorio.Raw{
		{Name: "conv/kernel", DType: "F32", Shape: []int64{k, k, in, out}, Data: f32bytes(convTF)},
		{Name: "dw/depthwise_kernel", DType: "F32", Shape: []int64{k, k, c, 1}, Data: f32bytes(dwTF)},
	}
	return torch, tf, map[string]*scaling.Tensor{"conv": conv, "dw": dw}
}

func scanRaws(t *testing.T, raws []tensorio.Raw, l Layout) *Report {
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, raws, nil))
	a, err := tensorio.Open(bytes.NewReader(b.Bytes()), int64(b.Len()), "m.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	rep, err := Run(context.Background(), []*tensorio.Archive{a}, Options{Layout: l})
	require.NoError(t, err)
	return rep
}

// Issue 27 defect 1: a convolution's rows must be its output channels.
// Under both layouts, rowwise gives each output channel its own scale:
// its result is that of the per-channel matrix built by index (row o =
// channel o's in·kh·kw values), and the scale_inv range is the channels'
// amax range over 448. Before, TF's depthwise [3, 3, C, 1] was read as
// 9·C rows of one value, each its own scale (an SQNR of ~150 dB).
func TestConvLayouts(t *testing.T) {
	torch, tf, perChannel := convKernels(t)
	reps := map[Layout]*Report{Torch: scanRaws(t, torch, Torch), TF: scanRaws(t, tf, TF)}
	views := map[Layout][]string{
		Torch: {"24×72 (rows: dim 0; row: dims 1·2·3)", "40×9 (rows: dim 0; row: dims 1·2·3)"},
		TF:    {"24×72 (rows: dim 3; row: dims 0·1·2)", "40×9 (rows: dims 2·3, depthwise; row: dims 0·1)"},
	}
	for l, rep := range reps {
		assert.Equal(t, l.String(), rep.Layout)
		for k, key := range []string{"conv", "dw"} {
			ts := rep.Tensors[k]
			x := perChannel[key]
			assert.Equal(t, views[l][k], ts.View, "%v %s", l, key)
			require.Equal(t, []int{x.Rows, x.Cols}, []int{ts.Rows, ts.Cols}, "%v %s", l, key)
			want := Measure(x, DefaultRecipes()[1], fp8.E4M3FN) // rowwise
			got := ts.Results[1]
			require.Equal(t, "rowwise", got.Recipe)
			lo, hi := math.Inf(1), 0.0
			for i := 0; i < x.Rows; i++ {
				var amax float64
				for _, v := range x.Row(i) {
					amax = math.Max(amax, math.Abs(float64(v)))
				}
				lo, hi = math.Min(lo, amax/448), math.Max(hi, amax/448)
			}
			assert.InDelta(t, lo, got.ScaleInvMin, 1e-6*lo, "%v %s", l, key)
			assert.InDelta(t, hi, got.ScaleInvMax, 1e-6*hi, "%v %s", l, key)
			assert.InDelta(t, want.SQNR, got.SQNR, 1e-9, "%v %s", l, key)
			assert.InDelta(t, want.WorstRowSQNR, got.WorstRowSQNR, 1e-9, "%v %s", l, key)
			assert.Equal(t, want.WorstRow, got.WorstRow, "%v %s", l, key)
			assert.Less(t, got.SQNR, 40.0, "per-channel E4M3, not a scale per value")
			t.Logf("%v %s: %s: rowwise SQNR %.2f dB, worst row %.2f dB; tensorwise worst row %.2f dB", l, key, ts.View, got.SQNR, got.WorstRowSQNR, ts.Results[0].WorstRowSQNR)
		}
	}
	// The old view of the TF depthwise kernel: 9·C rows of one value.
	old := perChannel["dw"].Clone()
	old.Rows, old.Cols = old.Len(), 1
	oldSQNR := Measure(old, DefaultRecipes()[1], fp8.E4M3FN).SQNR
	assert.Greater(t, oldSQNR, 100.0)
	t.Logf("the old view of the TF depthwise kernel: %d×1, rowwise SQNR %.1f dB", old.Rows, oldSQNR)
}
