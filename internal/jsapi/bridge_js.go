//go:build js && wasm

package jsapi

import (
	"fmt"
	"math"
	"runtime/debug"
	"syscall/js"
	"unsafe"
)

// fn is one API function: it gets the call's arguments and returns a value
// for js.ValueOf or an error, which becomes a JavaScript Error.
type fn func(args []js.Value) (any, error)

// JavaScript constructors, looked up once.
var (
	jsError        = js.Global().Get("Error")
	jsObject       = js.Global().Get("Object")
	jsUint8Array   = js.Global().Get("Uint8Array")
	jsUint8Clamped = js.Global().Get("Uint8ClampedArray")
	jsUint32Array  = js.Global().Get("Uint32Array")
	jsFloat32Array = js.Global().Get("Float32Array")
	jsFloat64Array = js.Global().Get("Float64Array")
	objToString    = jsObject.Get("prototype").Get("toString")
	reflectGet     = js.Global().Get("Reflect").Get("get")
)

// get reads v[key] through Reflect.get, so that a throwing getter or proxy
// trap becomes a recoverable Go panic (js.Value.Get would unwind the Go
// stack instead).
func get(v js.Value, key any) js.Value {
	return reflectGet.Invoke(v, key)
}

// length reads v.length safely as an int.
func length(v js.Value) (int, error) {
	l := get(v, "length")
	if typeOf(l) != js.TypeNumber || l.Float() < 0 || l.Float() != math.Trunc(l.Float()) || l.Float() > math.MaxInt32 {
		return 0, fmt.Errorf("bad length")
	}
	return l.Int(), nil
}

// funcs keeps every js.Func alive for the life of the program.
var funcs []js.Func

// export installs f as obj[name], turning errors and panics into Error
// objects whose message starts with "fp8lab.name: ".
func export(obj js.Value, name string, f fn) {
	jf := js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				msg := fmt.Sprintf("internal error: %v", r)
				if e, ok := r.(js.Error); ok { // an exception thrown by the caller's objects
					msg = e.Error()
				} else if fmt.Sprint(r) == "bad type flag" { // a BigInt reached js.Value.Type
					msg = "an argument is a BigInt: " + errBigInt
				}
				result = jsError.New("fp8lab." + name + ": " + msg)
			}
		}()
		v, err := f(args)
		if err != nil {
			return jsError.New("fp8lab." + name + ": " + err.Error())
		}
		return v
	})
	funcs = append(funcs, jf)
	obj.Set(name, jf)
}

// Register installs the API on obj: the core and scene functions, the live
// functions when live is not nil, and the string property "version".
func Register(obj js.Value, live Live) {
	for name, f := range coreFuncs() {
		export(obj, name, f)
	}
	for name, f := range sceneFuncs() {
		export(obj, name, f)
	}
	for name, f := range trainingFuncs() {
		export(obj, name, f)
	}
	if live != nil {
		for name, f := range liveFuncs(live) {
			export(obj, name, f)
		}
		for name, f := range trainingLiveFuncs(live) {
			export(obj, name, f)
		}
	}
	obj.Set("version", version())
}

// version is the main module's version ("(devel)" in a checkout).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// Ready hands the API object to the page's loader: it calls
// globalThis.__fp8labReady(obj) when the loader has set it.
func Ready(obj js.Value) {
	if f := js.Global().Get("__fp8labReady"); f.Type() == js.TypeFunction {
		f.Invoke(obj)
	}
}

// ReadyError tells the page's loader that the module could not start: it
// calls globalThis.__fp8labReady with an Error carrying err's message, which
// the loader throws.
func ReadyError(err error) {
	if f := js.Global().Get("__fp8labReady"); f.Type() == js.TypeFunction {
		f.Invoke(jsError.New("fp8lab: " + err.Error()))
	}
}

// typeBigInt is what typeOf returns for a BigInt, the one JavaScript type
// syscall/js does not know: js.Value.Type panics on it with "bad type flag".
const typeBigInt js.Type = -1

// typeOf is v.Type() that returns typeBigInt for a BigInt instead of
// panicking.
func typeOf(v js.Value) (t js.Type) {
	defer func() {
		if recover() != nil {
			t = typeBigInt
		}
	}()
	return v.Type()
}

// errBigInt is the message for a BigInt where a number is needed.
const errBigInt = "BigInt is not supported, pass a Number"

// jsString converts any value with JavaScript's String(v) (BigInts have no
// methods callable through syscall/js).
var jsString = js.Global().Get("String")

// kind names a JavaScript value's type as Object.prototype.toString does
// ("Float32Array", "Array", "Number"...), which works across frames.
func kind(v js.Value) string {
	switch typeOf(v) {
	case typeBigInt:
		return "BigInt"
	case js.TypeUndefined:
		return "undefined"
	case js.TypeNull:
		return "null"
	case js.TypeNumber:
		return "number"
	case js.TypeString:
		if isNegZero(v) {
			return "number"
		}
		return "string"
	case js.TypeBoolean:
		return "boolean"
	}
	s := objToString.Call("call", v).String() // "[object Float32Array]"
	if len(s) > 9 {
		return s[8 : len(s)-1]
	}
	return s
}

// arg returns argument i, or undefined when the call passed fewer.
func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// argString reads argument i as a string.
func argString(args []js.Value, i int, name string) (string, error) {
	v := arg(args, i)
	if typeOf(v) != js.TypeString || isNegZero(v) {
		return "", fmt.Errorf("argument %d (%s) must be a string, got %s", i+1, name, kind(v))
	}
	return v.String(), nil
}

// isNegZero reports whether v is the loader's stand-in for -0 (see NegZero).
func isNegZero(v js.Value) bool {
	return typeOf(v) == js.TypeString && v.String() == NegZero
}

// argNumber reads argument i as a number (NaN, ±Infinity and -0 allowed).
func argNumber(args []js.Value, i int, name string) (float64, error) {
	v := arg(args, i)
	if isNegZero(v) {
		return math.Copysign(0, -1), nil
	}
	switch typeOf(v) {
	case js.TypeNumber:
		return v.Float(), nil
	case typeBigInt:
		return 0, fmt.Errorf("argument %d (%s): %s", i+1, name, errBigInt)
	}
	return 0, fmt.Errorf("argument %d (%s) must be a number, got %s", i+1, name, kind(v))
}

// argInt reads argument i as an integer in [lo, hi].
func argInt(args []js.Value, i int, name string, lo, hi int) (int, error) {
	f, err := argNumber(args, i, name)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, fmt.Errorf("argument %d (%s) must be an integer in [%d, %d], got %v", i+1, name, lo, hi, f)
	}
	return int(f), nil
}

// argUint64 reads argument i as a seed-like integer (number, string or
// BigInt, the one place a BigInt is accepted).
func argUint64(args []js.Value, i int, name string) (uint64, error) {
	v := arg(args, i)
	switch typeOf(v) {
	case js.TypeNumber:
		return ToUint64(fmt.Sprintf("argument %d (%s)", i+1, name), v.Float())
	case js.TypeString:
		return ToUint64(fmt.Sprintf("argument %d (%s)", i+1, name), v.String())
	case typeBigInt:
		return ToUint64(fmt.Sprintf("argument %d (%s)", i+1, name), BigInt(jsString.Invoke(v).String()))
	}
	return 0, fmt.Errorf("argument %d (%s) must be an integer, a string or a BigInt, got %s", i+1, name, kind(v))
}

// argOpts reads argument i as an options object (undefined or null: none),
// rejecting properties not in allowed.
func argOpts(args []js.Value, i int, allowed ...string) (Opts, error) {
	o, err := argObject(args, i)
	if err != nil {
		return nil, err
	}
	return o, o.Check(allowed...)
}

// argObject reads argument i as a plain object of numbers, strings and
// booleans, with any property names.
func argObject(args []js.Value, i int) (Opts, error) {
	v := arg(args, i)
	o := Opts{}
	if t := typeOf(v); t == js.TypeUndefined || t == js.TypeNull {
		return o, nil
	}
	if typeOf(v) != js.TypeObject || kind(v) != "Object" {
		return nil, fmt.Errorf("argument %d (options) must be an object, got %s", i+1, kind(v))
	}
	keys := jsObject.Call("keys", v)
	for j := 0; j < keys.Length(); j++ {
		k := keys.Index(j).String()
		p := get(v, k)
		switch typeOf(p) {
		case typeBigInt: // kept for the seed options, reported by the others
			o[k] = BigInt(jsString.Invoke(p).String())
		case js.TypeNumber:
			o[k] = p.Float()
		case js.TypeString:
			o[k] = p.String()
		case js.TypeBoolean:
			o[k] = p.Bool()
		case js.TypeUndefined:
			continue
		default:
			return nil, fmt.Errorf("option %s must be a number, string or boolean, got %s", k, kind(p))
		}
	}
	return o, nil
}

// argParams reads argument i as scene parameters: an object whose values are
// strings, numbers or booleans, all passed on as strings.
func argParams(args []js.Value, i int) (map[string]string, error) {
	o, err := argObject(args, i)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(o))
	for k, v := range o {
		switch x := v.(type) {
		case string:
			out[k] = x
		case bool:
			out[k] = fmt.Sprint(x)
		case float64:
			out[k] = fmt.Sprint(x)
		case BigInt:
			out[k] = string(x)
		}
	}
	return out, nil
}

// byteView returns a Uint8Array over the bytes of a typed array.
func byteView(v js.Value) js.Value {
	return jsUint8Array.New(get(v, "buffer"), get(v, "byteOffset"), get(v, "byteLength"))
}

// checkLen rejects arrays longer than MaxElements.
func checkLen(n int) error {
	if n > MaxElements {
		return fmt.Errorf("%d elements is more than the %d the API accepts", n, MaxElements)
	}
	return nil
}

// bytesOf views a slice's memory as bytes.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// grow returns buf[:n] when buf has the room, else a new slice of n.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}

// copyIn fills dst from a typed array of the same element type with one bulk copy.
func copyIn[T any](dst []T, v js.Value) {
	if len(dst) > 0 {
		js.CopyBytesToGo(bytesOf(dst), byteView(v))
	}
}

// toJS returns a new typed array made with ctor holding a copy of s.
func toJS[T any](ctor js.Value, s []T) js.Value {
	a := ctor.New(len(s))
	if len(s) > 0 {
		js.CopyBytesToJS(jsUint8Array.New(a.Get("buffer")), bytesOf(s))
	}
	return a
}

// numbers is a numeric array argument as float32 or float64 values.
type numbers struct {
	f32    []float32 // set for Float32Array input
	f64    []float64 // set otherwise
	single bool      // the argument was a plain number
}

func (n numbers) len() int {
	if n.f32 != nil {
		return len(n.f32)
	}
	return len(n.f64)
}

// float32s returns the values as float32 (rounding float64 input to nearest).
func (n numbers) float32s() []float32 {
	if n.f32 != nil {
		return n.f32
	}
	out := make([]float32, len(n.f64))
	for i, x := range n.f64 {
		out[i] = float32(x)
	}
	return out
}

// argNumbers reads argument i as a number, a Float32Array, a Float64Array
// or an Array of numbers. Typed arrays move in one bulk copy; an Array is
// checked element by element, then copied through Float64Array.from (which,
// unlike single values, keeps the sign of -0).
func argNumbers(args []js.Value, i int, name string) (numbers, error) {
	return argNumbersInto(args, i, name, nil)
}

// argNumbersInto is argNumbers that copies a Float32Array into buf when it
// is long enough, instead of into new memory.
func argNumbersInto(args []js.Value, i int, name string, buf []float32) (numbers, error) {
	v := arg(args, i)
	if t := typeOf(v); t == js.TypeNumber || t == typeBigInt || isNegZero(v) {
		x, err := argNumber(args, i, name)
		return numbers{f64: []float64{x}, single: true}, err
	}
	k := kind(v)
	switch k {
	case "Float32Array", "Float64Array", "Array":
	default:
		return numbers{}, fmt.Errorf("argument %d (%s) must be a number, Float32Array, Float64Array or Array of numbers, got %s", i+1, name, k)
	}
	n, err := length(v)
	if err != nil {
		return numbers{}, fmt.Errorf("argument %d (%s): %w", i+1, name, err)
	}
	if err := checkLen(n); err != nil {
		return numbers{}, err
	}
	switch k {
	case "Float32Array":
		out := grow(buf, n)
		copyIn(out, v)
		return numbers{f32: out}, nil
	case "Array":
		for j := 0; j < n; j++ {
			if e := get(v, j); typeOf(e) != js.TypeNumber {
				if typeOf(e) == typeBigInt {
					return numbers{}, fmt.Errorf("argument %d (%s): element %d: %s", i+1, name, j, errBigInt)
				}
				return numbers{}, fmt.Errorf("argument %d (%s): element %d must be a number, got %s", i+1, name, j, kind(e))
			}
		}
		v = jsFloat64Array.Call("from", v)
	}
	out := make([]float64, n)
	copyIn(out, v)
	return numbers{f64: out}, nil
}

// argFloat32s reads argument i as a Float32Array, Float64Array or Array of
// numbers, as float32 values.
func argFloat32s(args []js.Value, i int, name string) ([]float32, error) {
	if typeOf(arg(args, i)) == js.TypeNumber {
		return nil, fmt.Errorf("argument %d (%s) must be a Float32Array, Float64Array or Array of numbers, got number", i+1, name)
	}
	n, err := argNumbers(args, i, name)
	if err != nil {
		return nil, err
	}
	return n.float32s(), nil
}

// argCodes reads argument i as a code (integer 0..255), a Uint8Array or an
// Array of codes.
func argCodes(args []js.Value, i int, name string) (codes []uint8, single bool, err error) {
	v := arg(args, i)
	if t := typeOf(v); t == js.TypeNumber || t == typeBigInt {
		c, err := argInt(args, i, name, 0, 255)
		return []uint8{uint8(c)}, true, err
	}
	k := kind(v)
	switch k {
	case "Uint8Array", "Uint8ClampedArray":
		n, err := length(v)
		if err != nil {
			return nil, false, err
		}
		if err := checkLen(n); err != nil {
			return nil, false, err
		}
		out := make([]uint8, n)
		copyIn(out, v)
		return out, false, nil
	case "Array":
		n, err := length(v)
		if err != nil {
			return nil, false, err
		}
		if err := checkLen(n); err != nil {
			return nil, false, err
		}
		out := make([]uint8, n)
		for j := range out {
			e := get(v, j)
			if typeOf(e) != js.TypeNumber || e.Float() != math.Trunc(e.Float()) || e.Float() < 0 || e.Float() > 255 {
				got := kind(e)
				switch typeOf(e) {
				case js.TypeNumber:
					got = fmt.Sprint(e.Float())
				case typeBigInt:
					return nil, false, fmt.Errorf("argument %d (%s): element %d: %s", i+1, name, j, errBigInt)
				}
				return nil, false, fmt.Errorf("argument %d (%s): element %d must be an integer in [0, 255], got %s", i+1, name, j, got)
			}
			out[j] = uint8(e.Int())
		}
		return out, false, nil
	}
	return nil, false, fmt.Errorf("argument %d (%s) must be a code (0..255), Uint8Array or Array of codes, got %s", i+1, name, k)
}

// plainJS converts a library value with Plain.
func plainJS(v any) (any, error) {
	return Plain(v)
}

// number returns x for js.ValueOf, NegZero for -0 (which js.ValueOf would
// turn into +0).
func number(x float64) any {
	if x == 0 && math.Signbit(x) {
		return NegZero
	}
	return x
}
