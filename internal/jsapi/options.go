// Package jsapi is the JavaScript API of fp8lab's WebAssembly modules:
// encode, decode, explain and describe values and typed arrays, format
// facts, quantization with any granularity, image dithering, stochastic
// rounding bits, Hadamard rotations and the visualization scenes.
//
// Register (GOOS=js only) installs the functions on a JavaScript object.
// Each one returns its result, or an Error object when the arguments are bad
// or the library refuses them; site/static/js/fp8lab.js wraps the functions
// so that such an Error is thrown. A panic inside a function is recovered
// and reported the same way, so a bad call never stops the Go runtime.
// Typed arrays move in one bulk copy in each direction.
//
// The option parsing and the conversion of library results to plain
// JavaScript values live in files without build constraints, so that they
// are tested natively as well as in Node.
package jsapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
)

// MaxElements bounds the length of the arrays the API accepts and returns
// (64 Mi elements, 256 MB of float32), so that a mistaken call gets an error
// instead of exhausting the WebAssembly memory.
const MaxElements = 1 << 26

// NegZero is how -0 crosses between JavaScript and Go. Go's wasm_exec.js
// turns every number -0 into +0 on the way in and out, so the loader
// (site/static/js/fp8lab.js) passes a -0 argument as this string and turns
// this string in a result back into -0.
const NegZero = "fp8lab:-0"

// Opts is a JavaScript options object decoded to Go values: each property is
// a float64, a string, a bool or a BigInt.
type Opts map[string]any

// BigInt is a JavaScript BigInt argument or option, as its decimal digits
// (String(v)). Only the 64-bit integers (seeds, streams: Uint64, ToUint64)
// accept it; everywhere else it is reported as an error asking for a
// Number.
type BigInt string

// Check returns an error naming the first property (in sorted order) that
// is not one of allowed, so a misspelt option is reported, not ignored.
func (o Opts) Check(allowed ...string) error {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ok := false
		for _, a := range allowed {
			if k == a {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Errorf("unknown option %q (known: %s)", k, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// String returns the string option key, or def when it is absent.
func (o Opts) String(key, def string) (string, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("option %s must be a string, got %s", key, describe(v))
	}
	return s, nil
}

// Bool returns the boolean option key, or def when it is absent.
func (o Opts) Bool(key string, def bool) (bool, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("option %s must be true or false, got %s", key, describe(v))
	}
	return b, nil
}

// Float returns the finite number option key, or def when it is absent.
func (o Opts) Float(key string, def float64) (float64, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("option %s must be a finite number, got %s", key, describe(v))
	}
	return f, nil
}

// Int returns the integer option key in [lo, hi], or def when it is absent.
func (o Opts) Int(key string, def, lo, hi int) (int, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	f, ok := v.(float64)
	if !ok || f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, fmt.Errorf("option %s must be an integer in [%d, %d], got %s", key, lo, hi, describe(v))
	}
	return int(f), nil
}

// Uint64 returns the unsigned integer option key: a number up to 2^53, or a
// decimal or 0x-hexadecimal string for larger values (seeds).
func (o Opts) Uint64(key string, def uint64) (uint64, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	return ToUint64(key, v)
}

// ToUint64 converts a number (an integer in [0, 2^53]) or a string (decimal,
// 0x hexadecimal) to a uint64; name is used in the error message.
func ToUint64(name string, v any) (uint64, error) {
	switch x := v.(type) {
	case float64:
		if x >= 0 && x <= 1<<53 && x == math.Trunc(x) {
			return uint64(x), nil
		}
	case string:
		if u, err := strconv.ParseUint(strings.TrimSpace(x), 0, 64); err == nil {
			return u, nil
		}
	case BigInt:
		if u, err := strconv.ParseUint(string(x), 10, 64); err == nil {
			return u, nil
		}
		return 0, fmt.Errorf("%s must be a BigInt in [0, 2^64-1], got %sn", name, string(x))
	}
	return 0, fmt.Errorf("%s must be an integer in [0, 2^53] or a string holding one up to 2^64-1, got %s", name, describe(v))
}

// describe names a decoded value for error messages.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nothing"
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case BigInt:
		return string(x) + "n (BigInt is not supported, pass a Number)"
	}
	return fmt.Sprintf("%T", v)
}

// Mode reads the rounding options shared by the encoding functions:
// round ("nearest", "zero", "away", "stochastic"), overflow ("saturate",
// "saturate-keep-inf", "no-saturate") or its shorthand saturate (a bool), and
// bits, the random bits of stochastic rounding (1..32, default 16).
func (o Opts) Mode() (fp8.Mode, error) {
	var m fp8.Mode
	name, err := o.String("round", "nearest")
	if err != nil {
		return m, err
	}
	if m.Round, err = fp8.ParseRounding(name); err != nil {
		return m, err
	}
	ov, hasOverflow := o["overflow"]
	_, hasSaturate := o["saturate"]
	switch {
	case hasOverflow && hasSaturate:
		return m, fmt.Errorf("give overflow or saturate, not both")
	case hasOverflow:
		s, ok := ov.(string)
		if !ok {
			return m, fmt.Errorf("option overflow must be a string, got %s", describe(ov))
		}
		if m.Overflow, err = ParseOverflow(s); err != nil {
			return m, err
		}
	case hasSaturate:
		sat, err := o.Bool("saturate", true)
		if err != nil {
			return m, err
		}
		if !sat {
			m.Overflow = fp8.NoSaturate
		}
	}
	if m.RandomBits, err = o.Int("bits", 16, 1, 32); err != nil {
		return m, err
	}
	return m, nil
}

// ParseOverflow parses an overflow policy name as fp8.Overflow.String spells
// it, case-insensitively.
func ParseOverflow(s string) (fp8.Overflow, error) {
	for _, o := range []fp8.Overflow{fp8.Saturate, fp8.SaturateKeepInf, fp8.NoSaturate} {
		if strings.EqualFold(strings.TrimSpace(s), o.String()) {
			return o, nil
		}
	}
	return 0, fmt.Errorf("unknown overflow policy %q (saturate, saturate-keep-inf, no-saturate)", s)
}

// Plain converts a value to what syscall/js.ValueOf accepts (map[string]any,
// []any, float64, string, bool, nil) through its JSON form, turning the
// strings "NaN", "+Inf" and "-Inf" that fp8.Number writes back into numbers.
// Field names are the JSON names of the CLI's --json output.
func Plain(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return fixSpecials(out), nil
}

func fixSpecials(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = fixSpecials(e)
		}
	case []any:
		for i, e := range x {
			x[i] = fixSpecials(e)
		}
	case float64:
		if x == 0 && math.Signbit(x) {
			return NegZero
		}
	case string:
		switch x {
		case "NaN":
			return math.NaN()
		case "+Inf", "Infinity", "+Infinity":
			return math.Inf(1)
		case "-Inf", "-Infinity":
			return math.Inf(-1)
		}
	}
	return v
}
