//go:build !js

package jsapi_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/jsapi"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz"
)

func coreFunctionsForTest() []string  { return jsapi.CoreFunctions }
func sceneFunctionsForTest() []string { return jsapi.SceneFunctions }
func liveFunctionsForTest() []string {
	if len(viz.Names()) == 0 {
		return nil // the core module registers no live scene without scenes
	}
	return jsapi.LiveFunctions
}

// testValues is a deterministic spread of float32 inputs: every binade of
// E5M2 and beyond, ties, subnormals, zeros and specials.
func testValues() []float32 {
	var xs []float32
	for e := -20; e <= 20; e++ {
		for _, m := range []float64{1, 1.0625, 1.125, 1.1875, 1.25, 1.3, 1.5, 1.75, 1.9} {
			v := float32(math.Ldexp(m, e))
			xs = append(xs, v, -v)
		}
	}
	xs = append(xs, 0, float32(math.Copysign(0, -1)), 448, 464, 465, 480, 57344, 61440, 1e9, -1e9,
		float32(math.Inf(1)), float32(math.Inf(-1)))
	return xs
}

func coreCases(t *testing.T) []jsCase {
	xs := testValues()
	wantE4 := make([]uint8, len(xs))
	require.NoError(t, fp8.E4M3FN.EncodeSlice32(wantE4, xs, fp8.Mode{}))
	wantE5 := make([]uint8, len(xs))
	require.NoError(t, fp8.E5M2.EncodeSlice32(wantE5, xs, fp8.Mode{Overflow: fp8.NoSaturate}))
	stoch := make([]uint8, len(xs))
	require.NoError(t, rng.EncodeStochastic(fp8.E4M3FN, stoch, xs, 42, 3, 8))

	allCodes := make([]uint8, 256)
	for i := range allCodes {
		allCodes[i] = uint8(i)
	}
	decoded := make([]float32, 256)
	require.NoError(t, fp8.E5M2.DecodeSlice32(decoded, allCodes))

	single, err := fp8.E4M3FN.Encode(0.3952, fp8.Mode{})
	require.NoError(t, err)
	singleSR, err := fp8.E5M2.EncodeStochastic(0.3952, rng.Bits(9, 1, 0), fp8.Mode{Round: fp8.Stochastic, RandomBits: 16})
	require.NoError(t, err)

	wantNames := append(append(append([]string{}, jsapi.CoreFunctions...), jsapi.SceneFunctions...), jsapi.TrainingFunctions...)
	wantNames = append(wantNames, liveFunctionsForTest()...)
	wantNames = append(wantNames, "module", "version")
	sort.Strings(wantNames)

	return []jsCase{
		{name: "exports", code: `return Object.keys(api).sort();`, check: func(t *testing.T, v any) {
			var got []string
			for _, n := range v.([]any) {
				got = append(got, n.(string))
			}
			assert.Equal(t, wantNames, got)
		}},
		{name: "version and module", code: `return [typeof api.version, api.module];`, check: func(t *testing.T, v any) {
			assert.Equal(t, []any{"string", "core"}, v)
		}},
		{name: "formats", code: `return api.formats().map(f => [f.name, f.max, f.positive_finite]);`, check: func(t *testing.T, v any) {
			presets := fp8.Presets()
			rows := v.([]any)
			require.Len(t, rows, len(presets))
			for i, f := range presets {
				r := rows[i].([]any)
				assert.Equal(t, f.Name(), r[0])
				assert.Equal(t, f.Max(), r[1])
				assert.Equal(t, float64(f.Info().PositiveFinite), r[2])
			}
		}},
		{name: "info E4M3FN", code: `const i = api.info("E4M3FN"); return [i.max, i.min_normal, i.min_subnormal, i.positive_finite, i.nan_codes, i.bias];`,
			check: func(t *testing.T, v any) {
				assert.Equal(t, []any{448.0, 1.0 / 64, 1.0 / 512, 126.0, []any{127.0, 255.0}, 7.0}, v)
			}},
		{name: "info is case-insensitive", code: `return api.info("e5m2").max;`, check: func(t *testing.T, v any) { assert.Equal(t, 57344.0, v) }},
		{name: "info unknown format", code: `return api.info("E9M9");`, wantErr: "unknown format"},
		{name: "info format not a string", code: `return api.info(42);`, wantErr: "argument 1 (format) must be a string, got number"},
		{name: "info no argument", code: `return api.info();`, wantErr: "got undefined"},

		{name: "encode single value", code: `return [api.encode("E4M3FN", 0.3952), api.encode("E4M3FN", 464), api.encode("E4M3FN", 465)];`,
			check: func(t *testing.T, v any) { assert.Equal(t, []any{float64(single), 126.0, 126.0}, v) }},
		{name: "encode non-saturating", code: `return [api.encode("E4M3FN", 465, {saturate: false}), api.encode("E5M2", 61440, {overflow: "no-saturate"}), api.encode("E5M2", Infinity, {overflow: "saturate-keep-inf"})];`,
			check: func(t *testing.T, v any) { assert.Equal(t, []any{127.0, 124.0, 124.0}, v) }},
		{name: "encode float64 rounds once", code: `return [api.encode("E4M3FN", -431.99999999999994), api.encode("E4M3FN", new Float64Array([-431.99999999999994]))[0]];`,
			check: func(t *testing.T, v any) {
				c, err := fp8.E4M3FN.Encode(-431.99999999999994, fp8.Mode{})
				require.NoError(t, err)
				assert.Equal(t, -416.0, fp8.E4M3FN.Decode(c))
				assert.Equal(t, []any{float64(c), float64(c)}, v)
			}},
		{name: "encode Float32Array", code: `return api.encode("E4M3FN", new Float32Array(` + jsArray(xs) + `));`,
			check: func(t *testing.T, v any) { sameFloats(t, toF64(wantE4), typed(t, v, "Uint8Array"), "E4M3FN codes") }},
		{name: "encode Array, non-saturating E5M2", code: `return api.encode("E5M2", ` + jsArray(xs) + `, {saturate: false});`,
			check: func(t *testing.T, v any) { sameFloats(t, toF64(wantE5), typed(t, v, "Uint8Array"), "E5M2 codes") }},
		{name: "encode subarray view", code: `const a = new Float32Array([1, 2, 448, 500, 3]); return api.encode("E4M3FN", a.subarray(2, 4));`,
			check: func(t *testing.T, v any) { assert.Equal(t, []float64{126, 126}, typed(t, v, "Uint8Array")) }},
		{name: "encode keeps no returned codes", // encodeScratch is reused from call to call
			code: `const a = new Float32Array(` + jsArray(xs) + `);
				const c1 = api.encode("E4M3FN", a), c2 = api.encode("E4M3FN", new Float32Array([448, 1])), c3 = api.encode("E4M3FN", a.subarray(0, 3));
				return [c1, c2, c3, api.encode("E4M3FN", a)];`,
			check: func(t *testing.T, v any) {
				got := v.([]any)
				require.Len(t, got, 4)
				sameFloats(t, toF64(wantE4), typed(t, got[0], "Uint8Array"), "first call")
				assert.Equal(t, toF64(encodeAll(t, 448, 1)), typed(t, got[1], "Uint8Array"), "shorter second call")
				sameFloats(t, toF64(wantE4[:3]), typed(t, got[2], "Uint8Array"), "view")
				sameFloats(t, toF64(wantE4), typed(t, got[3], "Uint8Array"), "again")
			}},
		{name: "encode called from an option getter while its input waits",
			code: `const a = new Float32Array([1, 2, 3]); let inner;
				const opts = {get round() { inner = api.encode("E4M3FN", new Float32Array([448, 0.5, 9, 10])); return "nearest"; }};
				const outer = api.encode("E4M3FN", a, opts);
				return [outer, inner, api.encode("E4M3FN", a)];`,
			check: func(t *testing.T, v any) {
				got := v.([]any)
				require.Len(t, got, 3)
				assert.Equal(t, toF64(encodeAll(t, 1, 2, 3)), typed(t, got[0], "Uint8Array"), "outer")
				assert.Equal(t, toF64(encodeAll(t, 448, 0.5, 9, 10)), typed(t, got[1], "Uint8Array"), "inner")
				assert.Equal(t, toF64(encodeAll(t, 1, 2, 3)), typed(t, got[2], "Uint8Array"), "outer again")
			}},
		{name: "encodeInto writes into out and returns it",
			code: `const x = new Float32Array(` + jsArray(xs) + `), out = new Uint8Array(x.length).fill(7);
				const r = api.encodeInto("E4M3FN", x, out), r2 = api.encodeInto("E5M2", Array.from(x), new Uint8Array(x.length), {saturate: false});
				return [r === out, out, r2, api.encodeInto("E4M3FN", new Float64Array([-431.99999999999994]), new Uint8Array(1))];`,
			check: func(t *testing.T, v any) {
				got := v.([]any)
				require.Len(t, got, 4)
				assert.Equal(t, true, got[0], "returns out itself")
				sameFloats(t, toF64(wantE4), typed(t, got[1], "Uint8Array"), "E4M3FN")
				sameFloats(t, toF64(wantE5), typed(t, got[2], "Uint8Array"), "E5M2 from an Array")
				c, err := fp8.E4M3FN.Encode(-431.99999999999994, fp8.Mode{})
				require.NoError(t, err)
				assert.Equal(t, []float64{float64(c)}, typed(t, got[3], "Uint8Array"), "float64 rounds once")
			}},
		{name: "encodeInto a view, x and out sharing a buffer",
			code: `const buf = new ArrayBuffer(16), x = new Float32Array(buf, 0, 3), out = new Uint8Array(buf, 4, 3);
				x.set([448, 1, 0.5]);
				api.encodeInto("E4M3FN", x, out);
				return new Uint8Array(buf);`,
			check: func(t *testing.T, v any) {
				// x is copied in before out is written, so the codes of the
				// original 448, 1, 0.5 land in bytes 4..6 and the rest stays.
				want := make([]float64, 16)
				for i, b := range bytesOfFloat32s(448, 1, 0.5) {
					want[i] = float64(b)
				}
				for i, c := range encodeAll(t, 448, 1, 0.5) {
					want[4+i] = float64(c)
				}
				assert.Equal(t, want, typed(t, v, "Uint8Array"))
			}},
		{name: "encodeInto stochastic", code: `return api.encodeInto("E4M3FN", new Float32Array(` + jsArray(xs) + `), new Uint8Array(` + fmt.Sprint(len(xs)) + `), {round: "stochastic", seed: 42, stream: 3, bits: 8});`,
			check: func(t *testing.T, v any) { sameFloats(t, toF64(stoch), typed(t, v, "Uint8Array"), "") }},
		{name: "encodeInto out of another length", code: `return api.encodeInto("E4M3FN", new Float32Array(3), new Uint8Array(4));`, wantErr: "argument 3 (out) must be a Uint8Array of x's length 3, got one of 4"},
		{name: "encodeInto out not a Uint8Array", code: `return api.encodeInto("E4M3FN", new Float32Array(3), new Uint8ClampedArray(3));`, wantErr: "argument 3 (out) must be a Uint8Array of x's length 3, got Uint8ClampedArray"},
		{name: "encodeInto without out", code: `return api.encodeInto("E4M3FN", [1, 2]);`, wantErr: "got undefined"},
		{name: "encodeInto a single number", code: `return api.encodeInto("E4M3FN", 1, new Uint8Array(1));`, wantErr: "argument 2 (x) must be a Float32Array, Float64Array or Array of numbers, got number"},
		{name: "encodeInto options in the fourth argument", code: `return api.encodeInto("E4M3FN", [1], new Uint8Array(1), {round: "up"});`, wantErr: "up"},
		{name: "encodeInto out detached by an option getter",
			code: `const out = new Uint8Array(3);
				const opts = {get round() { structuredClone(out.buffer, {transfer: [out.buffer]}); return "nearest"; }};
				return api.encodeInto("E4M3FN", new Float32Array([1, 2, 3]), out, opts);`,
			wantErr: "argument 3 (out) no longer holds 3 bytes"},
		{name: "encode empty array", code: `return api.encode("E4M3FN", new Float32Array(0));`,
			check: func(t *testing.T, v any) { assert.Empty(t, typed(t, v, "Uint8Array")) }},
		{name: "encode stochastic Float32Array", code: `return api.encode("E4M3FN", new Float32Array(` + jsArray(xs) + `), {round: "stochastic", seed: 42, stream: 3, bits: 8});`,
			check: func(t *testing.T, v any) { sameFloats(t, toF64(stoch), typed(t, v, "Uint8Array"), "stochastic codes") }},
		{name: "encode stochastic single value", code: `return api.encode("E5M2", 0.3952, {round: "stochastic", seed: "9", stream: 1});`,
			check: func(t *testing.T, v any) { assert.Equal(t, float64(singleSR), v) }},
		{name: "encode other roundings", code: `return [api.encode("E4M3FN", 1.0625, {round: "zero"}), api.encode("E4M3FN", 1.0625, {round: "away"}), api.encode("E4M3FN", 1.0625)];`,
			check: func(t *testing.T, v any) { assert.Equal(t, []any{56.0, 57.0, 56.0}, v) }},
		{name: "encode NaN where there is none", code: `return api.encode("E2M1", NaN);`, wantErr: "NaN has no code"},
		{name: "encode negative unsigned", code: `return api.encode("E8M0", -1);`, wantErr: "negative"},
		{name: "encode bad rounding", code: `return api.encode("E4M3FN", 1, {round: "up"});`, wantErr: "up"},
		{name: "encode misspelt option", code: `return api.encode("E4M3FN", 1, {rounding: "zero"});`, wantErr: `unknown option "rounding"`},
		{name: "encode bits out of range", code: `return api.encode("E4M3FN", 1, {round: "stochastic", bits: 0});`, wantErr: "option bits must be an integer in [1, 32]"},
		{name: "encode seed without stochastic", code: `return api.encode("E4M3FN", 1, {seed: 1});`, wantErr: "seed and stream are for"},
		{name: "encode overflow and saturate", code: `return api.encode("E4M3FN", 1, {overflow: "saturate", saturate: true});`, wantErr: "not both"},
		{name: "encode string value", code: `return api.encode("E4M3FN", "1.5");`, wantErr: "argument 2 (x) must be a number, Float32Array, Float64Array or Array of numbers, got string"},
		{name: "encode Int8Array", code: `return api.encode("E4M3FN", new Int8Array(3));`, wantErr: "got Int8Array"},
		{name: "encode Array with a string", code: `return api.encode("E4M3FN", [1, "2"]);`, wantErr: "element 1 must be a number"},
		{name: "encode options not an object", code: `return api.encode("E4M3FN", 1, "zero");`, wantErr: "argument 3 (options) must be an object"},
		{name: "encode option of wrong type", code: `return api.encode("E4M3FN", 1, {saturate: "no"});`, wantErr: "option saturate must be true or false"},

		{name: "decode single codes", code: `return [api.decode("E4M3FN", 0x7e), api.decode("E5M2", 0x7b), api.decode("E4M3FN", 0x7f), api.decode("E5M2", 0x7c), api.decode("E2M1", 0x10)];`,
			check: func(t *testing.T, v any) {
				r := v.([]any)
				assert.Equal(t, 448.0, num(t, r[0]))
				assert.Equal(t, 57344.0, num(t, r[1]))
				assert.True(t, math.IsNaN(num(t, r[2])))
				assert.True(t, math.IsInf(num(t, r[3]), 1))
				assert.True(t, math.IsNaN(num(t, r[4])), "a code wider than the format is not a value")
			}},
		{name: "decode Uint8Array", code: `const c = new Uint8Array(256); for (let i = 0; i < 256; i++) c[i] = i; return api.decode("E5M2", c);`,
			check: func(t *testing.T, v any) { sameFloats(t, toF64(decoded), typed(t, v, "Float32Array"), "E5M2 values") }},
		{name: "decode to Float64Array", code: `return api.decode("E8M0", [0, 127, 254], {float64: true});`,
			check: func(t *testing.T, v any) {
				assert.Equal(t, []float64{math.Ldexp(1, -127), 1, math.Ldexp(1, 127)}, typed(t, v, "Float64Array"))
			}},
		{name: "decode code too large", code: `return api.decode("E4M3FN", 256);`, wantErr: "argument 2 (code) must be an integer in [0, 255]"},
		{name: "decode fractional code", code: `return api.decode("E4M3FN", 1.5);`, wantErr: "must be an integer"},
		{name: "decode string code", code: `return api.decode("E4M3FN", "0x7e");`, wantErr: "got string"},
		{name: "decode Array with a bad code", code: `return api.decode("E4M3FN", [1, 300]);`, wantErr: "element 1 must be an integer in [0, 255]"},

		{name: "explain", code: `const e = api.explain("E4M3FN", -431.99999999999994); return [e.result.value, e.lower, e.upper, e.result.bits, e.format];`,
			check: func(t *testing.T, v any) {
				e, err := fp8.E4M3FN.Explain(-431.99999999999994, fp8.Mode{})
				require.NoError(t, err)
				assert.Equal(t, []any{-416.0, float64(e.Lower), float64(e.Upper), e.Result.Bits, "E4M3FN"}, v)
			}},
		{name: "explain overflow", code: `const e = api.explain("E5M2", 1e6, {saturate: false}); return [e.overflow, e.result.value, e.result.class];`,
			check: func(t *testing.T, v any) { assert.Equal(t, []any{true, "+Inf", "inf"}, v) }},
		{name: "explain stochastic is refused", code: `return api.explain("E4M3FN", 1, {round: "stochastic"});`, wantErr: "fp8lab.explain"},
		{name: "explain bits is not an option", code: `return api.explain("E4M3FN", 1, {bits: 3});`, wantErr: `unknown option "bits"`},

		{name: "describe", code: `const d = api.describe("E4M3FN", 0x7e); return [d.bits, d.value, d.class, d.code];`,
			check: func(t *testing.T, v any) { assert.Equal(t, []any{"0.1111.110", 448.0, "max", 126.0}, v) }},
		{name: "describe code wider than the format", code: `return api.describe("E2M1", 0x10);`, wantErr: "code out of range"},
		{name: "table", code: `const tb = api.table("E2M1"); return [tb.length, tb[15].value, tb[7].value, tb[1].class];`,
			check: func(t *testing.T, v any) { assert.Equal(t, []any{16.0, -6.0, 6.0, "subnormal"}, v) }},
	}
}

// outlierTensor is a 4×64 matrix whose row 2 is 1000 times larger.
func outlierTensor() *scaling.Tensor {
	t, _ := scaling.NewTensor(4, 64)
	for i := 0; i < 4; i++ {
		for j := 0; j < 64; j++ {
			v := float32(math.Sin(float64(i*64+j))) * 0.01
			if i == 2 {
				v *= 1000
			}
			t.Set(i, j, v)
		}
	}
	return t
}

func quantizeCases(t *testing.T) []jsCase {
	x := outlierTensor()
	q, err := scaling.Quantize(x, fp8.E4M3FN, scaling.PerRow, scaling.Options{})
	require.NoError(t, err)
	deq, err := q.Dequantize()
	require.NoError(t, err)
	m, err := scaling.Measure(x, q)
	require.NoError(t, err)
	mx, err := scaling.Quantize(x, fp8.E4M3FN, scaling.Granularity{Kind: scaling.KindMX}, scaling.Options{})
	require.NoError(t, err)
	ct, err := scaling.Quantize(x, fp8.E4M3FN, scaling.ColTile(2), scaling.Options{})
	require.NoError(t, err)
	random := make([]uint32, x.Len())
	rng.Fill(random, 5, 6, 0)
	sr, err := scaling.Quantize(x, fp8.E5M2, scaling.PerTensor, scaling.Options{Mode: fp8.Mode{Round: fp8.Stochastic, RandomBits: 12}, Random: random})
	require.NoError(t, err)
	data := "new Float32Array(" + jsArray(x.Data) + ")"
	return []jsCase{
		{name: "quantize per row", code: `return api.quantize(` + data + `, 4, 64, "E4M3FN", "row");`, check: func(t *testing.T, v any) {
			r := obj(t, v)
			sameFloats(t, toF64(q.Codes), typed(t, r["codes"], "Uint8Array"), "codes")
			sameFloats(t, toF64(q.Scales), typed(t, r["scales"], "Float32Array"), "scales")
			sameFloats(t, toF64(q.Amax), typed(t, r["amax"], "Float32Array"), "amax")
			sameFloats(t, toF64(deq.Data), typed(t, r["dequantized"], "Float32Array"), "dequantized")
			assert.Equal(t, "row", r["granularity"])
			assert.Equal(t, []any{4.0, 1.0}, []any{r["scaleRows"], r["scaleCols"]})
			assert.Nil(t, r["scaleCodes"])
			met := obj(t, r["metrics"])
			assert.InDelta(t, m.SQNR, num(t, met["sqnr_db"]), 1e-9)
			assert.Equal(t, float64(m.Underflow), met["underflow"])
		}},
		{name: "quantize MX", code: `const r = api.quantize(` + data + `, 4, 64, "E4M3FN", "mx"); return [r.scaleFormat, r.scaleCodes, r.codes];`, check: func(t *testing.T, v any) {
			r := v.([]any)
			assert.Equal(t, "E8M0", r[0])
			sameFloats(t, toF64(mx.ScaleCodes), typed(t, r[1], "Uint8Array"), "E8M0 scale codes")
			sameFloats(t, toF64(mx.Codes), typed(t, r[2], "Uint8Array"), "codes")
		}},
		{name: "quantize column tiles", code: `const r = api.quantize(` + data + `, 4, 64, "E4M3FN", "tile2x1"); return [r.granularity, r.scaleRows, r.scaleCols, r.scales, r.codes];`, check: func(t *testing.T, v any) {
			r := v.([]any)
			assert.Equal(t, []any{"tile2x1", 2.0, 64.0}, r[:3])
			sameFloats(t, toF64(ct.Scales), typed(t, r[3], "Float32Array"), "scales")
			sameFloats(t, toF64(ct.Codes), typed(t, r[4], "Uint8Array"), "codes")
		}},
		{name: "quantize stochastic", code: `return api.quantize(Array.from(` + data + `), 4, 64, "E5M2", "tensor", {round: "stochastic", bits: 12, seed: 5, stream: 6}).codes;`,
			check: func(t *testing.T, v any) {
				sameFloats(t, toF64(sr.Codes), typed(t, v, "Uint8Array"), "stochastic codes")
			}},
		{name: "quantize shape mismatch", code: `return api.quantize(new Float32Array(6), 4, 2, "E4M3FN", "row");`, wantErr: "4×2 = 8 but data has 6"},
		{name: "quantize bad granularity", code: `return api.quantize(new Float32Array(4), 2, 2, "E4M3FN", "diagonal");`, wantErr: "diagonal"},
		{name: "quantize bad pow2", code: `return api.quantize(new Float32Array(4), 2, 2, "E4M3FN", "row", {pow2: "sideways"});`, wantErr: "sideways"},
		{name: "quantize non-finite", code: `return api.quantize(new Float32Array([1, NaN, 2, 3]), 2, 2, "E4M3FN", "tensor");`, wantErr: "fp8lab.quantize"},
	}
}

func ditherCases(t *testing.T) []jsCase {
	const w, h = 16, 8
	pix := make([]float32, w*h)
	for i := range pix {
		pix[i] = float32(i%w) / float32(w-1) * float32(1+i/w) / h
	}
	img, err := dither.GrayFromPixels(w, h, pix)
	require.NoError(t, err)
	fsd, err := dither.Dither(img, dither.Options{Method: dither.FloydSteinberg, Levels: 4})
	require.NoError(t, err)
	sto, err := dither.Dither(img, dither.Options{Method: dither.Stochastic, Format: fp8.E4M3FN, Frames: 4, Seed: 7, RandomBits: 8})
	require.NoError(t, err)
	bits := make([]uint32, 5)
	rng.Fill(bits, 1, 2, 3)
	big := make([]uint32, 2)
	rng.Fill(big, math.MaxUint64, 0, math.MaxUint64)
	data := "new Float32Array(" + jsArray(pix) + ")"
	return []jsCase{
		{name: "dither floyd", code: fmt.Sprintf(`return api.dither(%s, %d, %d, {method: "floyd", levels: 4});`, data, w, h),
			check: func(t *testing.T, v any) { sameFloats(t, toF64(fsd.Pix()), typed(t, v, "Float32Array"), "floyd") }},
		{name: "dither stochastic onto E4M3FN", code: fmt.Sprintf(`return api.dither(%s, %d, %d, {method: "stochastic", format: "E4M3FN", frames: 4, seed: 7, bits: 8});`, data, w, h),
			check: func(t *testing.T, v any) { sameFloats(t, toF64(sto.Pix()), typed(t, v, "Float32Array"), "stochastic") }},
		{name: "dither size mismatch", code: `return api.dither(new Float32Array(10), 4, 4, {levels: 2});`, wantErr: "4×4 = 16 but pixels has 10"},
		{name: "dither bad method", code: `return api.dither(new Float32Array(4), 2, 2, {method: "blur", levels: 2});`, wantErr: "blur"},
		{name: "dither levels and format", code: `return api.dither(new Float32Array(4), 2, 2, {levels: 2, format: "E4M3FN"});`, wantErr: "fp8lab.dither"},
		{name: "randomBits", code: `return api.randomBits(1, 2, 3, 5);`,
			check: func(t *testing.T, v any) { sameFloats(t, toF64(bits), typed(t, v, "Uint32Array"), "philox words") }},
		{name: "randomBits with 64-bit strings", code: `return api.randomBits("0xffffffffffffffff", 0, "18446744073709551615", 2);`,
			check: func(t *testing.T, v any) { sameFloats(t, toF64(big), typed(t, v, "Uint32Array"), "philox words") }},
		{name: "randomBits negative seed", code: `return api.randomBits(-1, 0, 0, 1);`, wantErr: "argument 1 (seed) must be an integer in [0, 2^53]"},
	}
}

func hadamardCases(t *testing.T) []jsCase {
	x := []float32{1, 2, 3, 4, -5, 6, 7, 100}
	want := append([]float32{}, x...)
	require.NoError(t, scaling.FWHT(want))
	rot, err := scaling.NewRandomRotation(8, 4, 11)
	require.NoError(t, err)
	rt, err := scaling.FromSlice(1, 8, append([]float32{}, x...))
	require.NoError(t, err)
	require.NoError(t, rot.RotateRows(rt))
	data := "new Float32Array(" + jsArray(x) + ")"
	return []jsCase{
		{name: "hadamard", code: `return api.hadamard(` + data + `);`,
			check: func(t *testing.T, v any) { sameFloats(t, toF64(want), typed(t, v, "Float32Array"), "FWHT") }},
		{name: "hadamard blocks with random signs", code: `return api.hadamard(` + data + `, {block: 4, seed: 11});`,
			check: func(t *testing.T, v any) { sameFloats(t, toF64(rt.Data), typed(t, v, "Float32Array"), "rotation") }},
		{name: "hadamard inverse", code: `return api.hadamard(api.hadamard(` + data + `, {block: 4, seed: 11}), {block: 4, seed: 11, inverse: true});`,
			check: func(t *testing.T, v any) {
				got := typed(t, v, "Float32Array")
				for i := range x {
					assert.InDelta(t, float64(x[i]), got[i], 1e-4)
				}
			}},
		{name: "hadamard length not a power of two", code: `return api.hadamard(new Float32Array(6));`, wantErr: "fp8lab.hadamard"},
		{name: "hadamard bad block", code: `return api.hadamard(new Float32Array(8), {block: 3});`, wantErr: "fp8lab.hadamard"},
		{name: "hadamard empty", code: `return api.hadamard([]);`, wantErr: "empty"},
		{name: "hadamard number", code: `return api.hadamard(3);`, wantErr: "got number"},
	}
}

// robustnessCases check that failures inside Go, even panics, become
// exceptions and leave the module working.
func robustnessCases() []jsCase {
	return []jsCase{
		{name: "a throwing options object", code: `return api.encode("E4M3FN", 1, new Proxy({}, {ownKeys() { throw new Error("boom"); }}));`, wantErr: "boom"},
		{name: "a throwing typed array getter", code: `const a = new Float32Array(4); Object.defineProperty(a, "buffer", {get() { throw new Error("no buffer"); }}); return api.encode("E4M3FN", a);`, wantErr: "no buffer"},
		{name: "still alive after errors", code: `for (let i = 0; i < 100; i++) { try { api.decode("E4M3FN", "x"); } catch (e) {} } return api.decode("E4M3FN", 0x7e);`,
			check: func(t *testing.T, v any) { assert.Equal(t, 448.0, v) }},
	}
}

// negativeZeroCases check that -0 survives the trip both ways.
func negativeZeroCases() []jsCase {
	return []jsCase{
		{name: "negative zero in and out", code: `return [api.encode("E4M3FN", -0), api.encode("E4M3FN", 0), Object.is(api.decode("E4M3FN", 0x80), -0), Object.is(api.decode("E4M3FN", 0), 0), api.encode("E4M3FN", [-0, 0])];`,
			check: func(t *testing.T, v any) {
				r := v.([]any)
				assert.Equal(t, []any{128.0, 0.0, true, true}, r[:4])
				assert.Equal(t, []float64{128, 0}, typed(t, r[4], "Uint8Array"))
			}},
		{name: "negative zero in explain", code: `const e = api.explain("E5M2", -0); return [Object.is(e.input, -0), Object.is(e.result.value, -0), e.result.code];`,
			check: func(t *testing.T, v any) { assert.Equal(t, []any{true, true, 128.0}, v) }},
		{name: "negative zero is not a format", code: `return api.info(-0);`, wantErr: "argument 1 (format) must be a string, got number"},
	}
}

// encodeAll encodes xs to E4M3FN, nearest-even, saturating.
func encodeAll(t *testing.T, xs ...float32) []uint8 {
	t.Helper()
	codes := make([]uint8, len(xs))
	require.NoError(t, fp8.E4M3FN.EncodeSlice32(codes, xs, fp8.Mode{}))
	return codes
}

// bytesOfFloat32s is the little-endian bytes of xs, as a Float32Array holds them.
func bytesOfFloat32s(xs ...float32) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}
