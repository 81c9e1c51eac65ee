//go:build js && wasm

package jsapi

import (
	"fmt"
	"syscall/js"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/fp8lab/fp8lab/scaling"
)

// coreFuncs are the functions over fp8, scaling, rng and dither.
func coreFuncs() map[string]fn {
	return map[string]fn{
		"formats":    apiFormats,
		"info":       apiInfo,
		"encode":     apiEncode,
		"encodeInto": apiEncodeInto,
		"decode":     apiDecode,
		"explain":    apiExplain,
		"describe":   apiDescribe,
		"table":      apiTable,
		"quantize":   apiQuantize,
		"dither":     apiDither,
		"randomBits": apiRandomBits,
		"hadamard":   apiHadamard,
	}
}

// argFormat reads argument i as a format name.
func argFormat(args []js.Value, i int) (*fp8.Format, error) {
	name, err := argString(args, i, "format")
	if err != nil {
		return nil, err
	}
	return fp8.Lookup(name)
}

// formats() -> [Info]: every preset format.
func apiFormats(args []js.Value) (any, error) {
	var infos []fp8.Info
	for _, f := range fp8.Presets() {
		infos = append(infos, f.Info())
	}
	return plainJS(infos)
}

// info(format) -> Info.
func apiInfo(args []js.Value) (any, error) {
	f, err := argFormat(args, 0)
	if err != nil {
		return nil, err
	}
	return plainJS(f.Info())
}

// encodeBuffers is memory encodeCall copies its input into and encodes
// into before copying the codes out.
type encodeBuffers struct {
	busy  bool
	x     []float32
	codes []uint8
}

// encodeScratch is kept from one encodeCall to the next: allocating (and
// zeroing, and collecting) 5 bytes per value on every call cost about as
// much as encoding them. Only encodeCall uses it; a call made while it is
// busy (from a getter that copying the input runs) uses its own.
var encodeScratch encodeBuffers

// maxScratch is the most values encodeScratch keeps memory for (20 MiB);
// longer calls allocate.
const maxScratch = 1 << 22

// encode(format, x, opts?) -> code, or Uint8Array for an array x.
// opts: round, overflow | saturate, bits, seed, stream (stochastic rounding
// uses random word rng.Bits(seed, stream, i) for element i).
func apiEncode(args []js.Value) (any, error) { return encodeCall(args, false) }

// encodeInto(format, x, out, opts?) -> out: encode of an array x, its codes
// written into out, a Uint8Array of x's length, rather than into a new
// array: the first writes into a new array's memory fault its pages in,
// which cost a third of encode's time for 1M values in Node (BENCHMARKS.md,
// issue 14, run G). A caller that encodes again and again reuses one out,
// as native code reuses its destination slice.
func apiEncodeInto(args []js.Value) (any, error) { return encodeCall(args, true) }

// encodeCall is encode, or encodeInto when into is set.
func encodeCall(args []js.Value, into bool) (any, error) {
	f, err := argFormat(args, 0)
	if err != nil {
		return nil, err
	}
	sc := &encodeScratch
	if sc.busy {
		sc = new(encodeBuffers)
	}
	sc.busy = true
	defer func() { sc.busy = false }()
	x, err := argNumbersInto(args, 1, "x", sc.x)
	if err != nil {
		return nil, err
	}
	optsAt, out := 2, js.Undefined()
	if into {
		if x.single {
			return nil, fmt.Errorf("argument 2 (x) must be a Float32Array, Float64Array or Array of numbers, got number")
		}
		if out, err = argOut(args, 2, x.len()); err != nil {
			return nil, err
		}
		optsAt = 3
	}
	o, err := argOpts(args, optsAt, "round", "overflow", "saturate", "bits", "seed", "stream")
	if err != nil {
		return nil, err
	}
	m, err := o.Mode()
	if err != nil {
		return nil, err
	}
	seed, err := o.Uint64("seed", 0)
	if err != nil {
		return nil, err
	}
	stream, err := o.Uint64("stream", 0)
	if err != nil {
		return nil, err
	}
	if m.Round != fp8.Stochastic && (o["seed"] != nil || o["stream"] != nil) {
		return nil, fmt.Errorf("seed and stream are for round: \"stochastic\"")
	}
	codes := grow(sc.codes, x.len())
	if x.len() <= maxScratch {
		sc.codes = codes
		if x.f32 != nil {
			sc.x = x.f32
		}
	}
	switch {
	case m.Round == fp8.Stochastic && x.f32 != nil:
		err = rng.EncodeStochastic(f, codes, x.f32, seed, stream, m.RandomBits)
	case m.Round == fp8.Stochastic:
		for i, v := range x.f64 {
			if codes[i], err = f.EncodeStochastic(v, rng.Bits(seed, stream, uint64(i)), m); err != nil {
				err = fmt.Errorf("element %d (%v): %w", i, v, err)
				break
			}
		}
	case x.f32 != nil:
		err = f.EncodeSlice32(codes, x.f32, m)
	default:
		err = f.EncodeSlice(codes, x.f64, m)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case x.single:
		return int(codes[0]), nil
	case into:
		// An option getter may have detached or shrunk out's buffer since
		// argOut looked at it, and copying into a detached array throws past
		// the Go code: check again, then copy into a view made just now.
		if m, err := length(out); err != nil || m != len(codes) {
			return nil, fmt.Errorf("argument 3 (out) no longer holds %d bytes: its buffer changed while the options were read", len(codes))
		}
		if n := js.CopyBytesToJS(byteView(out), codes); n != len(codes) {
			return nil, fmt.Errorf("argument 3 (out) took %d of %d codes", n, len(codes))
		}
		return out, nil
	}
	return toJS(jsUint8Array, codes), nil
}

// argOut reads argument i as encodeInto's out: a Uint8Array of n elements.
func argOut(args []js.Value, i, n int) (js.Value, error) {
	v := arg(args, i)
	if k := kind(v); k != "Uint8Array" {
		return v, fmt.Errorf("argument %d (out) must be a Uint8Array of x's length %d, got %s", i+1, n, k)
	}
	m, err := length(v)
	if err != nil {
		return v, fmt.Errorf("argument %d (out): %w", i+1, err)
	}
	if m != n {
		return v, fmt.Errorf("argument %d (out) must be a Uint8Array of x's length %d, got one of %d", i+1, n, m)
	}
	return v, nil
}

// decode(format, c, opts?) -> value, or Float32Array (Float64Array with
// opts.float64) for an array of codes. Codes wider than the format decode
// to NaN, as Format.Decode does.
func apiDecode(args []js.Value) (any, error) {
	f, err := argFormat(args, 0)
	if err != nil {
		return nil, err
	}
	codes, single, err := argCodes(args, 1, "code")
	if err != nil {
		return nil, err
	}
	o, err := argOpts(args, 2, "float64")
	if err != nil {
		return nil, err
	}
	wide, err := o.Bool("float64", false)
	if err != nil {
		return nil, err
	}
	if single {
		return number(f.Decode(codes[0])), nil
	}
	if wide {
		out := make([]float64, len(codes))
		if err := f.DecodeSlice(out, codes); err != nil {
			return nil, err
		}
		return toJS(jsFloat64Array, out), nil
	}
	out := make([]float32, len(codes))
	if err := f.DecodeSlice32(out, codes); err != nil {
		return nil, err
	}
	return toJS(jsFloat32Array, out), nil
}

// explain(format, x, opts?) -> Explanation: code, fields, bracketing
// values, errors, overflow and underflow. opts: round, overflow | saturate.
func apiExplain(args []js.Value) (any, error) {
	f, err := argFormat(args, 0)
	if err != nil {
		return nil, err
	}
	x, err := argNumber(args, 1, "x")
	if err != nil {
		return nil, err
	}
	o, err := argOpts(args, 2, "round", "overflow", "saturate")
	if err != nil {
		return nil, err
	}
	m, err := o.Mode()
	if err != nil {
		return nil, err
	}
	e, err := f.Explain(x, m)
	if err != nil {
		return nil, err
	}
	return plainJS(e)
}

// describe(format, code) -> CodeInfo: bits, fields, value, class, ULP.
func apiDescribe(args []js.Value) (any, error) {
	f, err := argFormat(args, 0)
	if err != nil {
		return nil, err
	}
	c, err := argInt(args, 1, "code", 0, 255)
	if err != nil {
		return nil, err
	}
	ci, err := f.Describe(uint8(c))
	if err != nil {
		return nil, err
	}
	return plainJS(ci)
}

// table(format) -> [CodeInfo] for every code of the format.
func apiTable(args []js.Value) (any, error) {
	f, err := argFormat(args, 0)
	if err != nil {
		return nil, err
	}
	rows := make([]fp8.CodeInfo, 0, f.NumCodes())
	for c := 0; c < f.NumCodes(); c++ {
		ci, err := f.Describe(uint8(c))
		if err != nil {
			return nil, err
		}
		rows = append(rows, ci)
	}
	return plainJS(rows)
}

// quantize(data, rows, cols, format, granularity, opts?) -> {codes,
// scales, amax, scaleCodes, dequantized, metrics, ...}. data is row-major.
// opts: round, overflow | saturate, bits, seed, stream, pow2 ("none",
// "down", "up"), margin, mxRounding ("floor", "ceil", "nearest").
func apiQuantize(args []js.Value) (any, error) {
	data, err := argFloat32s(args, 0, "data")
	if err != nil {
		return nil, err
	}
	rows, err := argInt(args, 1, "rows", 1, MaxElements)
	if err != nil {
		return nil, err
	}
	cols, err := argInt(args, 2, "cols", 1, MaxElements)
	if err != nil {
		return nil, err
	}
	f, err := argFormat(args, 3)
	if err != nil {
		return nil, err
	}
	gname, err := argString(args, 4, "granularity")
	if err != nil {
		return nil, err
	}
	g, err := scaling.ParseGranularity(gname)
	if err != nil {
		return nil, err
	}
	o, err := argOpts(args, 5, "round", "overflow", "saturate", "bits", "seed", "stream", "pow2", "margin", "mxRounding")
	if err != nil {
		return nil, err
	}
	opts, err := quantizeOptions(o, len(data))
	if err != nil {
		return nil, err
	}
	if rows*cols != len(data) {
		return nil, fmt.Errorf("rows×cols = %d×%d = %d but data has %d elements", rows, cols, rows*cols, len(data))
	}
	t, err := scaling.FromSlice(rows, cols, data)
	if err != nil {
		return nil, err
	}
	q, err := scaling.Quantize(t, f, g, opts)
	if err != nil {
		return nil, err
	}
	deq, err := q.Dequantize()
	if err != nil {
		return nil, err
	}
	met, err := scaling.Measure(t, q)
	if err != nil {
		return nil, err
	}
	metrics, err := plainJS(met)
	if err != nil {
		return nil, err
	}
	var scaleCodes any
	scaleFormat := ""
	if q.ScaleFormat != nil {
		scaleCodes, scaleFormat = toJS(jsUint8Array, q.ScaleCodes), q.ScaleFormat.Name()
	}
	return map[string]any{
		"format":      f.Name(),
		"granularity": q.Granularity.String(),
		"rows":        q.Rows, "cols": q.Cols,
		"blockRows": q.BlockRows, "blockCols": q.BlockCols,
		"scaleRows": q.ScaleRows, "scaleCols": q.ScaleCols,
		"codes":       toJS(jsUint8Array, q.Codes),
		"scales":      toJS(jsFloat32Array, q.Scales),
		"amax":        toJS(jsFloat32Array, q.Amax),
		"scaleFormat": scaleFormat,
		"scaleCodes":  scaleCodes,
		"tensorScale": float64(q.TensorScale),
		"dequantized": toJS(jsFloat32Array, deq.Data),
		"metrics":     metrics,
	}, nil
}

// quantizeOptions builds scaling.Options from the quantize options.
func quantizeOptions(o Opts, n int) (scaling.Options, error) {
	var opts scaling.Options
	var err error
	if opts.Mode, err = o.Mode(); err != nil {
		return opts, err
	}
	seed, err := o.Uint64("seed", 0)
	if err != nil {
		return opts, err
	}
	stream, err := o.Uint64("stream", 0)
	if err != nil {
		return opts, err
	}
	if opts.Mode.Round == fp8.Stochastic {
		opts.Random = make([]uint32, n)
		rng.Fill(opts.Random, seed, stream, 0)
	} else if o["seed"] != nil || o["stream"] != nil {
		return opts, fmt.Errorf("seed and stream are for round: \"stochastic\"")
	}
	if p, ok := o["pow2"]; ok {
		s, ok := p.(string)
		if !ok {
			return opts, fmt.Errorf("option pow2 must be a string (none, down, up)")
		}
		if opts.Rule.Pow2, err = scaling.ParsePow2(s); err != nil {
			return opts, err
		}
	}
	if opts.Rule.Margin, err = o.Int("margin", 0, -64, 64); err != nil {
		return opts, err
	}
	if r, ok := o["mxRounding"]; ok {
		s, ok := r.(string)
		if !ok {
			return opts, fmt.Errorf("option mxRounding must be a string (floor, ceil, nearest)")
		}
		if opts.MXRounding, err = fp8.ParseScaleRounding(s); err != nil {
			return opts, err
		}
	}
	return opts, nil
}

// dither(pixels, width, height, opts) -> Float32Array: the image (values in
// [0, 1], row by row) quantized by opts.method ("nearest", "stochastic",
// "bayer2", "bayer4", "bayer8", "floyd") onto opts.levels uniform levels or
// the grid of opts.format (scaled by opts.scale), averaging opts.frames
// frames, with opts.seed and opts.bits for the stochastic method.
func apiDither(args []js.Value) (any, error) {
	pix, err := argFloat32s(args, 0, "pixels")
	if err != nil {
		return nil, err
	}
	w, err := argInt(args, 1, "width", 1, dither.MaxPixels)
	if err != nil {
		return nil, err
	}
	h, err := argInt(args, 2, "height", 1, dither.MaxPixels)
	if err != nil {
		return nil, err
	}
	o, err := argOpts(args, 3, "method", "levels", "format", "scale", "frames", "seed", "bits")
	if err != nil {
		return nil, err
	}
	var opts dither.Options
	mname, err := o.String("method", "nearest")
	if err != nil {
		return nil, err
	}
	if opts.Method, err = dither.ParseMethod(mname); err != nil {
		return nil, err
	}
	if opts.Levels, err = o.Int("levels", 0, 0, dither.MaxLevels); err != nil {
		return nil, err
	}
	if fname, err := o.String("format", ""); err != nil {
		return nil, err
	} else if fname != "" {
		if opts.Format, err = fp8.Lookup(fname); err != nil {
			return nil, err
		}
	}
	if opts.Scale, err = o.Float("scale", 0); err != nil {
		return nil, err
	}
	if opts.Frames, err = o.Int("frames", 1, 1, dither.MaxFrames); err != nil {
		return nil, err
	}
	if opts.Seed, err = o.Uint64("seed", 0); err != nil {
		return nil, err
	}
	if opts.RandomBits, err = o.Int("bits", 0, 0, 32); err != nil {
		return nil, err
	}
	if w*h != len(pix) {
		return nil, fmt.Errorf("width×height = %d×%d = %d but pixels has %d elements", w, h, w*h, len(pix))
	}
	img, err := dither.GrayFromPixels(w, h, pix)
	if err != nil {
		return nil, err
	}
	out, err := dither.Dither(img, opts)
	if err != nil {
		return nil, err
	}
	return toJS(jsFloat32Array, out.Pix()), nil
}

// randomBits(seed, stream, start, count) -> Uint32Array of the Philox4x32-10
// words Bits(seed, stream, start+j): the random bits stochastic rounding uses.
func apiRandomBits(args []js.Value) (any, error) {
	seed, err := argUint64(args, 0, "seed")
	if err != nil {
		return nil, err
	}
	stream, err := argUint64(args, 1, "stream")
	if err != nil {
		return nil, err
	}
	start, err := argUint64(args, 2, "start")
	if err != nil {
		return nil, err
	}
	n, err := argInt(args, 3, "count", 0, MaxElements)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, n)
	rng.Fill(out, seed, stream, start)
	return toJS(jsUint32Array, out), nil
}

// hadamard(x, opts?) -> Float32Array: x rotated by the normalized
// block-diagonal Hadamard transform. opts: block (a power of two dividing
// len(x); default len(x)), seed (random signs: a randomized Hadamard
// transform), inverse (undo the rotation).
func apiHadamard(args []js.Value) (any, error) {
	x, err := argFloat32s(args, 0, "x")
	if err != nil {
		return nil, err
	}
	o, err := argOpts(args, 1, "block", "seed", "inverse")
	if err != nil {
		return nil, err
	}
	if len(x) == 0 {
		return nil, fmt.Errorf("x is empty")
	}
	block, err := o.Int("block", len(x), 1, scaling.MaxHadamard)
	if err != nil {
		return nil, err
	}
	inverse, err := o.Bool("inverse", false)
	if err != nil {
		return nil, err
	}
	var rot *scaling.Rotation
	if _, ok := o["seed"]; ok {
		seed, err := o.Uint64("seed", 0)
		if err != nil {
			return nil, err
		}
		rot, err = scaling.NewRandomRotation(len(x), block, seed)
		if err != nil {
			return nil, err
		}
	} else if rot, err = scaling.NewRotation(len(x), block); err != nil {
		return nil, err
	}
	t, err := scaling.FromSlice(1, len(x), x)
	if err != nil {
		return nil, err
	}
	if inverse {
		err = rot.UnrotateRows(t)
	} else {
		err = rot.RotateRows(t)
	}
	if err != nil {
		return nil, err
	}
	return toJS(jsFloat32Array, t.Data), nil
}
