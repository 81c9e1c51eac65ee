package viz

import (
	"math"
	"strconv"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/require"
)

func init() {
	sweeps["hadamard"] = sweepSpec{
		fixed: map[string][]string{"seed": {"3", "4"}, "rows": {"1", "8", "64"}, "outlier": {"0", "6", "20"}, "outliers": {"0", "1", "8"}},
		short: 80,
		long:  1000,
		truth: hadamardTruth,
	}
}

// hadamardRun quantizes x directly and after the rotation, with the
// library's quantizer, and measures both in float64: SQNR of all values
// and of the non-outliers, values flushed to zero, amax before and after.
type hadamardRun struct {
	sqnr, rotSQNR, bulk, rotBulk float64
	under, rotUnder              int
	amax, rotAmax                float64
	outMaxErr                    float64
}

func hadamardMeasure(t *testing.T, x *scaling.Tensor, f *fp8.Format, g scaling.Granularity, rot *scaling.Rotation, isOut func(i, j int) bool) hadamardRun {
	q, err := scaling.Quantize(x, f, g, scaling.Options{})
	require.NoError(t, err)
	plain, err := q.Dequantize()
	require.NoError(t, err)
	xr := x.Clone()
	require.NoError(t, rot.RotateRows(xr))
	qr, err := scaling.Quantize(xr, f, g, scaling.Options{})
	require.NoError(t, err)
	back, err := qr.Dequantize()
	require.NoError(t, err)
	var run hadamardRun
	for i := range qr.Codes {
		if xr.Data[i] != 0 && back.Data[i] == 0 {
			run.rotUnder++
		}
		run.rotAmax = math.Max(run.rotAmax, math.Abs(float64(xr.Data[i])))
	}
	require.NoError(t, rot.UnrotateRows(back))
	var sig, noise, rnoise, bsig, bnoise, brnoise float64
	for i := 0; i < x.Rows; i++ {
		for j := 0; j < x.Cols; j++ {
			k := i*x.Cols + j
			v := float64(x.Data[k])
			d, dr := v-float64(plain.Data[k]), v-float64(back.Data[k])
			sig, noise, rnoise = sig+v*v, noise+d*d, rnoise+dr*dr
			if isOut(i, j) {
				run.outMaxErr = math.Max(run.outMaxErr, math.Abs(d))
			} else {
				bsig, bnoise, brnoise = bsig+v*v, bnoise+d*d, brnoise+dr*dr
			}
			if v != 0 && plain.Data[k] == 0 {
				run.under++
			}
			run.amax = math.Max(run.amax, math.Abs(v))
		}
	}
	run.sqnr, run.rotSQNR = scaling.SQNR(sig, noise), scaling.SQNR(sig, rnoise)
	run.bulk, run.rotBulk = scaling.SQNR(bsig, bnoise), scaling.SQNR(bsig, brnoise)
	return run
}

// hadamardTruth recomputes the Hadamard scene's claims from its input
// tensor (the planted outliers, or the loaded crop) with the library's
// rotation and quantizer and float64 sums.
func hadamardTruth(t *testing.T, s Scene) truths {
	get := func(k string) string { v, err := s.Get(k); require.NoError(t, err); return v }
	h := s.(*hadamardScene)
	tr := truths{}
	if h.compute() != nil {
		return tr
	}
	x := h.t // the input, made from the controls; everything below is recomputed
	loaded := get("tensor") == "loaded"
	seed, _ := strconv.Atoi(get("seed"))
	block := x.Cols
	if b := get("block"); b != "full" {
		block, _ = strconv.Atoi(b)
	}
	block = min(block, x.Cols)
	var rot *scaling.Rotation
	var err error
	if get("random_signs") == "true" {
		rot, err = scaling.NewRandomRotation(x.Cols, block, uint64(seed)+101)
	} else {
		rot, err = scaling.NewRotation(x.Cols, block)
	}
	require.NoError(t, err)
	// Outliers: the planted columns hold ±2^k; a loaded tensor's are the
	// values beyond outlierRMS times its RMS.
	var ss float64
	for _, v := range x.Data {
		ss += float64(v) * float64(v)
	}
	th := outlierRMS * math.Sqrt(ss/float64(len(x.Data)))
	big := math.Exp2(float64(h.ps.int("outlier")))
	planted := map[int]bool{}
	if !loaded {
		for j := 0; j < x.Cols; j++ {
			colOut := true
			for i := 0; i < x.Rows; i++ {
				colOut = colOut && math.Abs(float64(x.At(i, j))) == big
			}
			planted[j] = colOut && h.ps.int("outliers") > 0
		}
	}
	isOut := func(i, j int) bool {
		if loaded {
			return math.Abs(float64(x.At(i, j))) > th
		}
		return planted[j]
	}
	nOut, outE := 0, 0.0
	for i := 0; i < x.Rows; i++ {
		for j := 0; j < x.Cols; j++ {
			if isOut(i, j) {
				nOut++
				outE += float64(x.At(i, j)) * float64(x.At(i, j))
			}
		}
	}
	g, err := scaling.ParseGranularity(get("granularity"))
	require.NoError(t, err)
	f, err := fp8.Lookup(get("format"))
	require.NoError(t, err)
	run := hadamardMeasure(t, x, f, g, rot, isOut)
	tr["hadamard.sqnr"] = [2]float64{run.rotSQNR, run.sqnr}
	tr["hadamard.bulk_sqnr"] = [2]float64{run.rotBulk, run.bulk}
	tr["hadamard.plain_sqnr"], tr["hadamard.rotated_sqnr"] = run.sqnr, run.rotSQNR
	tr["hadamard.plain_bulk_sqnr"], tr["hadamard.rotated_bulk_sqnr"] = run.bulk, run.rotBulk
	tr["hadamard.elements"] = len(x.Data)
	tr["hadamard.outlier_values"] = nOut
	tr["hadamard.outlier_threshold"] = th
	tr["hadamard.outliers_per_row"] = h.ps.int("outliers")
	tr["hadamard.amax_before"], tr["hadamard.amax_after"] = run.amax, run.rotAmax
	tr["hadamard.plain_underflow"] = run.under
	tr["hadamard.outlier_energy"] = outE / ss
	tr["hadamard.all_vs_bulk"] = [2]float64{run.sqnr, run.bulk}
	best, at := -1.0, false
	for i := 0; i < x.Rows; i++ {
		for j := 0; j < x.Cols; j++ {
			if v := math.Abs(float64(x.At(i, j))); v > best {
				best, at = v, isOut(i, j)
			}
		}
	}
	tr["hadamard.outlier_is_amax"] = at
	tr["hadamard.amax_after_vs_before"] = [2]float64{run.rotAmax, run.amax}
	tr["hadamard.underflow_after_vs_before"] = [2]float64{float64(run.rotUnder), float64(run.under)}
	tr["hadamard.outliers_exact"] = nOut > 0 && run.outMaxErr == 0 && run.rotSQNR < run.sqnr
	for _, name := range chartFormats(f.Name()) {
		cf, err := fp8.Lookup(name)
		require.NoError(t, err)
		o := hadamardMeasure(t, x, cf, g, rot, isOut)
		tr["hadamard.gain."+name] = [2]float64{o.rotSQNR, o.sqnr}
	}
	return tr
}
