//go:build !js

package jsapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// typeCases pass every JavaScript type the API does not take where numbers,
// strings, arrays and options are expected (issue 12 item 11). A BigInt used
// to stop the call with "internal error: bad type flag" (syscall/js does not
// know the type); each case must now give a clear message. To add a case,
// append {name, code, wantErr}: code is the body of a function of api.
func typeCases() []jsCase {
	const big = "BigInt is not supported, pass a Number"
	cases := []jsCase{
		{name: "BigInt value", code: `return api.encode("E4M3FN", 1n);`, wantErr: "argument 2 (x): " + big},
		{name: "BigInt in an Array", code: `return api.encode("E4M3FN", [1, 2n]);`, wantErr: "element 1: " + big},
		{name: "BigInt code", code: `return api.decode("E4M3FN", 5n);`, wantErr: "argument 2 (code): " + big},
		{name: "BigInt in a code Array", code: `return api.decode("E4M3FN", [1, 5n]);`, wantErr: "element 1: " + big},
		{name: "BigInt to explain", code: `return api.explain("E5M2", 3n);`, wantErr: big},
		{name: "BigInt integer argument", code: `return api.quantize([1, 2], 1n, 2, "E4M3FN", "tensor");`, wantErr: "argument 2 (rows): " + big},
		{name: "BigInt render size", code: `return api.renderScene("explorer", 480n, 270);`, wantErr: "argument 2 (width): " + big},
		{name: "BigInt format name", code: `return api.info(1n);`, wantErr: "argument 1 (format) must be a string, got BigInt"},
		{name: "BigInt option", code: `return api.encode("E4M3FN", 1, {round: "stochastic", bits: 8n});`, wantErr: "option bits must be an integer in [1, 32], got 8n (" + big + ")"},
		{name: "BigInt negative seed", code: `return api.randomBits(-1n, 0, 0, 4);`, wantErr: "argument 1 (seed) must be a BigInt in [0, 2^64-1], got -1n"},
		{name: "BigInt seed too large", code: `return api.randomBits(2n ** 64n, 0, 0, 4);`, wantErr: "got 18446744073709551616n"},
		{name: "Symbol value", code: `return api.encode("E4M3FN", Symbol("x"));`, wantErr: "got Symbol"},
		{name: "Symbol option", code: `return api.encode("E4M3FN", 1, {round: Symbol("x")});`, wantErr: "option round must be a number, string or boolean, got Symbol"},
		{name: "Symbol format", code: `return api.info(Symbol("E4M3FN"));`, wantErr: "must be a string, got Symbol"},
		{name: "function value", code: `return api.encode("E4M3FN", () => 1);`, wantErr: "got Function"},
		{name: "function options", code: `return api.encode("E4M3FN", 1, () => 1);`, wantErr: "argument 3 (options) must be an object, got Function"},
		{name: "null value", code: `return api.decode("E4M3FN", null);`, wantErr: "got null"},
		{name: "undefined value", code: `return api.encode("E4M3FN");`, wantErr: "got undefined"},
		{name: "object value", code: `return api.encode("E4M3FN", {length: 2, 0: 1, 1: 2});`, wantErr: "got Object"},
		{name: "Array options", code: `return api.encode("E4M3FN", 1, [1]);`, wantErr: "argument 3 (options) must be an object, got Array"},
		{name: "Map options", code: `return api.encode("E4M3FN", 1, new Map());`, wantErr: "got Map"},
		{name: "object in an Array", code: `return api.encode("E4M3FN", [1, {}]);`, wantErr: "element 1 must be a number, got Object"},
		{name: "null in a code Array", code: `return api.decode("E4M3FN", [null]);`, wantErr: "element 0 must be an integer in [0, 255], got null"},
		{name: "BigInt length", code: `return api.encode("E4M3FN", new Proxy([1], {get(t, k) { return k === "length" ? 1n : t[k]; }}));`, wantErr: "bad length"},
	}
	cases = append(cases,
		jsCase{name: "BigInt seeds work", code: `return [api.randomBits(42n, 3n, 0n, 4), api.randomBits(42, 3, 0, 4), api.randomBits(2n ** 64n - 1n, 0, 0, 1), api.randomBits("18446744073709551615", 0, 0, 1)];`,
			check: func(t *testing.T, v any) {
				r := v.([]any)
				assert.Equal(t, typed(t, r[1], "Uint32Array"), typed(t, r[0], "Uint32Array"))
				assert.Equal(t, typed(t, r[3], "Uint32Array"), typed(t, r[2], "Uint32Array"))
			}},
		jsCase{name: "BigInt seed option works", code: `return [api.encode("E4M3FN", [0.3, 0.7], {round: "stochastic", seed: 7n}), api.encode("E4M3FN", [0.3, 0.7], {round: "stochastic", seed: 7})];`,
			check: func(t *testing.T, v any) {
				r := v.([]any)
				assert.Equal(t, typed(t, r[1], "Uint8Array"), typed(t, r[0], "Uint8Array"))
			}},
		jsCase{name: "alive after the type errors", code: `return api.decode("E4M3FN", 0x7e);`,
			check: func(t *testing.T, v any) { assert.Equal(t, 448.0, v) }},
	)
	return cases
}
