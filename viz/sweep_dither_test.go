package viz

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/dither/quality"
	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/stochastic"
	"github.com/stretchr/testify/require"
)

func init() {
	sweeps["dither"] = sweepSpec{
		fixed: map[string][]string{"seed": {"1", "2"}, "frames": {"1", "2", "16", "256"}, "blur": {"0.25", "1.5", "4"},
			"bits": {"1", "2", "8", "24", "32"}, "levels": {"2", "3", "16"}, "tiny_update": {"-20", "-10", "-9", "-8", "-1"}},
		short: 60,
		long:  1000,
		truth: ditherTruth,
	}
}

// ditherTruth recomputes the dither scene's claims with the dither
// library's quantizers and measures, called directly, and exact rational
// arithmetic for the bias of every pixel.
func ditherTruth(t *testing.T, s Scene) truths {
	get := func(k string) string { v, err := s.Get(k); require.NoError(t, err); return v }
	num := func(k string) int { v, err := strconv.Atoi(get(k)); require.NoError(t, err); return v }
	d := s.(*ditherScene)
	require.NoError(t, d.compute())
	img := d.img // the input picture
	o := dither.Options{Seed: uint64(num("seed")), RandomBits: num("bits")}
	if g := get("grid"); g == "levels" {
		o.Levels = num("levels")
	} else {
		f, err := fp8.Lookup(g)
		require.NoError(t, err)
		o.Format = f
	}
	with := func(m dither.Method) dither.Options { c := o; c.Method = m; return c }
	one := func(m dither.Method) *dither.Gray {
		out, err := dither.Dither(img, with(m))
		require.NoError(t, err)
		return out
	}
	bayer := map[string]dither.Method{"2": dither.Bayer2, "4": dither.Bayer4, "8": dither.Bayer8}[get("bayer")]
	q, err := dither.NewQuantizer(with(dither.Stochastic))
	require.NoError(t, err)
	n := num("frames")
	frame, err := dither.NewGray(img.Width(), img.Height())
	require.NoError(t, err)
	sum := make([]float64, len(img.Pix()))
	var first *dither.Gray
	for k := 0; k < n; k++ {
		require.NoError(t, q.Frame(frame, img, uint64(k)))
		if k == 0 {
			first, err = dither.GrayFromPixels(img.Width(), img.Height(), append([]float32(nil), frame.Pix()...))
			require.NoError(t, err)
		}
		for i, v := range frame.Pix() {
			sum[i] += float64(v)
		}
	}
	pix := make([]float32, len(sum))
	for i, v := range sum {
		pix[i] = float32(v / float64(n))
	}
	avg, err := dither.GrayFromPixels(img.Width(), img.Height(), pix)
	require.NoError(t, err)
	images := map[string]*dither.Gray{"nearest": one(dither.Nearest), "stochastic_1": first, "bayer": one(bayer), "floyd": one(dither.FloydSteinberg), "average": avg}
	sigma, err := strconv.ParseFloat(get("blur"), 64)
	require.NoError(t, err)
	raw, blur, ssim := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for k, g := range images {
		raw[k] = refPSNR(img.Pix(), g.Pix())
		blur[k], err = quality.BlurredPSNR(img, g, sigma)
		require.NoError(t, err)
		ssim[k], err = quality.SSIM(img, g)
		require.NoError(t, err)
	}
	tr := truths{}
	tr["dither.frames"] = n
	tr["dither.random_bits"] = num("bits")
	tr["dither.levels"] = len(q.Levels())
	tr["dither.psnr_average"], tr["dither.psnr_nearest"], tr["dither.psnr_one"] = raw["average"], raw["nearest"], raw["stochastic_1"]
	tr["dither.psnr_bayer"], tr["dither.psnr_floyd"] = raw["bayer"], raw["floyd"]
	for _, k := range []string{"average", "stochastic_1", "bayer", "floyd"} {
		name := map[string]string{"average": "average", "stochastic_1": "one", "bayer": "bayer", "floyd": "floyd"}[k]
		tr["dither."+name+"_vs_nearest"] = [2]float64{raw[k], raw["nearest"]}
	}
	best := func(m map[string]float64, show func(float64) string) (string, string) {
		top := math.Inf(-1)
		for _, dm := range ditherMethods {
			top = math.Max(top, m[dm.key])
		}
		var keys []string
		for _, dm := range ditherMethods {
			if show(m[dm.key]) == show(top) {
				keys = append(keys, dm.key)
			}
		}
		return strings.Join(keys, "+"), keys[0]
	}
	var rk, bk string
	tr["dither.best_raw"], rk = best(raw, dbText)
	tr["dither.best_blurred"], bk = best(blur, dbText)
	tr["dither.best_ssim"], _ = best(ssim, ssimText)
	tr["dither.blur_gain"] = [2]float64{blur[bk] - raw[bk], blur[rk] - raw[rk]}
	biased := refBiasedPixels(t, img.Pix(), o)
	tr["dither.unbiased"], tr["dither.biased_pixels"] = biased == 0, biased
	tr["dither.growing"] = get("animate") == "true"
	// The tiny-update experiment, run by the library and checked against
	// the half step of the format at 1.
	u := math.Exp2(float64(num("tiny_update")))
	res, err := stochastic.TinyUpdates(stochastic.TinyUpdateConfig{Format: get("tiny_format"), Start: 1, Update: u, Steps: 1000,
		RandomBits: num("bits"), Seed: uint64(num("seed")), Stream: 1})
	require.NoError(t, err)
	last := len(res.Exact) - 1
	ex, nr, sr := res.Exact[last], res.Nearest[last], res.Stochastic[last]
	tr["dither.tiny_exact"], tr["dither.tiny_nearest"], tr["dither.tiny_stochastic"] = ex, nr, sr
	tr["dither.tiny_distance"] = [2]float64{math.Abs(sr - ex), math.Abs(nr - ex)}
	ulpAtOne := map[string]float64{"BF16": 0x1p-7, "FP16": 0x1p-10, "E5M2": 0x1p-2, "E4M3FN": 0x1p-3}[get("tiny_format")]
	tr["dither.tiny_update_vs_half_step"] = [2]float64{u, ulpAtOne / 2}
	return tr
}

// refPSNR is 10·log10(1/MSE) for pictures in [0, 1].
func refPSNR(a, b []float32) float64 {
	var se float64
	for i := range a {
		d := float64(a[i]) - float64(b[i])
		se += d * d
	}
	return 10 * math.Log10(float64(len(a))/se)
}

// refBiasedPixels counts, in exact rationals, the pixels whose expected
// value under the floor rule with r random bits differs from the pixel:
// those whose position δ between their two levels has δ·2^r fractional.
func refBiasedPixels(t *testing.T, pix []float32, o dither.Options) int {
	r := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(o.RandomBits)))
	n := 0
	for _, v := range pix {
		v = min(max(v, 0), 1)
		var d *big.Rat
		if o.Format == nil {
			t := new(big.Rat).Mul(new(big.Rat).SetFloat64(float64(v)), big.NewRat(int64(o.Levels-1), 1))
			fl := new(big.Int).Quo(t.Num(), t.Denom())
			d = new(big.Rat).Sub(t, new(big.Rat).SetInt(fl))
		} else {
			scaled := v * float32(o.Format.Max())
			rr, ok := refRound(t, o.Format.Name(), float64(scaled), "nearest", "saturate")
			require.True(t, ok)
			if rr.lower == rr.hi || math.IsNaN(rr.lower) || math.IsNaN(rr.hi) {
				continue
			}
			d = new(big.Rat).Quo(new(big.Rat).Sub(new(big.Rat).SetFloat64(float64(scaled)), new(big.Rat).SetFloat64(rr.lower)),
				new(big.Rat).Sub(new(big.Rat).SetFloat64(rr.hi), new(big.Rat).SetFloat64(rr.lower)))
		}
		if !new(big.Rat).Mul(d, r).IsInt() {
			n++
		}
	}
	return n
}
