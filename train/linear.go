package train

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/fp8lab/fp8lab/scaling"
)

// OperandStats counts what quantization did to one operand of one product
// of one linear layer, summed over the steps since the last snapshot.
type OperandStats struct {
	Layer   string `json:"layer"`   // "h0.qkv", ..., "head"
	Product string `json:"product"` // forward, input_grad, weight_grad
	Operand string `json:"operand"` // input, weight, grad_output
	// Amax is the largest |x| seen (before quantization).
	Amax float32 `json:"amax"`
	// Overflow counts elements clipped at the format's Max: saturated, and
	// larger than the decoded value by more than a quarter of Max's ulp.
	Overflow int64 `json:"overflow"`
	// Underflow counts nonzero elements that became zero.
	Underflow int64 `json:"underflow"`
	Elements  int64 `json:"elements"`
}

// capturedOperand is what a test hook sees: the operand as it went into
// scaling (K-major, rotated if the recipe rotates) and its quantization.
type capturedOperand struct {
	site, product, role int
	input               *scaling.Tensor
	q                   *scaling.Quantized
}

// linearEngine computes the linear layers' products under a recipe and
// keeps the per-tensor state (delayed scalers, rotations, statistics).
type linearEngine struct {
	cfg    Config
	recipe *Recipe
	seed   uint64
	step   int  // the training step, for the stochastic-rounding streams
	eval   bool // validation: no statistics, no delayed-scaling updates
	rule   scaling.ScaleRule
	// overflow is the casts' overflow policy and mxRounding the rule of MX
	// scales (Recipe.Overflow, Scaling.MXRounding).
	overflow   fp8.Overflow
	mxRounding fp8.ScaleRounding
	// watch is set when a cast may give an Inf or a NaN (non-saturating,
	// delayed or no scaling): each operand is then looked at after its cast.
	watch   bool
	kinds   [3][3]opKind
	formats [3][3]*fp8.Format
	delayed map[int]*scaling.DelayedScaler
	rots    map[int]*scaling.Rotation
	stats   []OperandStats // by operand id
	// scratch holds the left and right operands' memory; spare takes the
	// input gradient's dY aside while the weight gradient reuses it.
	scratch [2]*slotScratch
	spare   *slotScratch
	random  []uint32
	capture func(capturedOperand)
	pack    [2][]float32 // packing space of the WebAssembly build's matmul
}

func newLinearEngine(cfg Config, r *Recipe, seed uint64) (*linearEngine, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	rule, _ := r.Scaling.rule()
	overflow, _ := r.overflow()
	mxRounding, _ := r.Scaling.mxRounding()
	e := &linearEngine{cfg: cfg, recipe: r, seed: seed, rule: rule, overflow: overflow, mxRounding: mxRounding,
		watch:   overflow == fp8.NoSaturate || r.Scaling.Delayed || r.Scaling.None,
		delayed: map[int]*scaling.DelayedScaler{}, rots: map[int]*scaling.Rotation{},
		scratch: [2]*slotScratch{{}, {}}, spare: &slotScratch{}}
	for pi, p := range r.products() {
		for role := range 3 {
			e.kinds[pi][role], e.formats[pi][role], _ = p.operand(role).kind()
		}
	}
	sites := cfg.Layers*sitesPerLayer + 1
	e.stats = make([]OperandStats, sites*6)
	for s := range sites {
		for pi := range 3 {
			for slot := range 2 {
				e.stats[operandID(s, pi, slot)] = OperandStats{Layer: siteName(cfg, s),
					Product: productNames[pi], Operand: roleNames[uses[pi][slot]]}
			}
		}
	}
	return e, nil
}

// operandID numbers the operands: 6 per linear layer (3 products × 2).
func operandID(site, product, slot int) int { return site*6 + product*2 + slot }

// snapshot returns the statistics of the operands that were quantized and
// starts counting afresh.
func (e *linearEngine) snapshot() []OperandStats {
	var out []OperandStats
	for i, s := range e.stats {
		if s.Elements > 0 {
			out = append(out, s)
		}
		e.stats[i].Amax, e.stats[i].Overflow, e.stats[i].Underflow, e.stats[i].Elements = 0, 0, 0, 0
	}
	return out
}

// kmOperand is a matrix operand of a product with contraction length K:
// either K-major (rows of K elements) or stored (K, other).
type kmOperand struct {
	data   []float32
	kmajor bool
	q      *scaling.Quantized // K-major codes when quantized, for emulated accumulation
}

// slotScratch is the memory one operand slot of a product reuses from call
// to call and step to step, so that rounding an operand allocates nothing.
type slotScratch struct {
	kmajor []float32         // a K-major copy, where the operand cannot be quantized where it lies
	out    []float32         // the rounded operand the product reads
	q      scaling.Quantized // its codes and scales
	// counted is what the last rounding added to the statistics.
	counted OperandStats
}

// prepare rounds one operand as the recipe says. src is (other,K) when
// kmajor, else (K,other). FP8 operands are quantized with the blocks the
// granularity defines on the K-major operand; the result keeps src's
// layout (so the GEMM runs with the same layouts and gonum kernels as the
// float32 recipe) unless it was rotated, in which case it is K-major.
func (e *linearEngine) prepare(site, product, slot int, src []float32, K, other int, kmajor bool) (kmOperand, error) {
	role := uses[product][slot]
	kind, f := e.kinds[product][role], e.formats[product][role]
	if site == e.cfg.Layers*sitesPerLayer && !e.recipe.QuantizeHead {
		kind = opFP32
	}
	p := e.recipe.products()[product]
	rotate := product == 2 && p.Hadamard > 0
	if kind == opFP32 && !rotate {
		return kmOperand{data: src, kmajor: kmajor}, nil
	}
	n := K * other
	sc := e.scratch[slot]
	sc.counted = OperandStats{}
	sc.out = grow(sc.out, n)
	var random []uint32
	if e.recipe.StochasticGrads && role == 2 && kind != opFP32 {
		e.random = grow(e.random, n)
		random = e.random
		rng.Fill(random, e.seed, streamID(streamOperand, operandID(site, product, slot), e.step), 0)
	}
	if kind == opBF16 && !rotate {
		// Elementwise rounding needs no particular layout: keep src's, so
		// the product runs exactly as in float32.
		copy(sc.out, src)
		roundBF16(sc.out, random)
		return kmOperand{data: sc.out, kmajor: kmajor}, nil
	}
	g := p.operand(role).Granularity
	// The operand is quantized where it lies (no copy) when it is K-major,
	// or when its blocks have a shape on the stored (K, other) layout too
	// (scaling's Transpose: the same blocks as g on the K-major transpose,
	// so the same codes element for element); random words and emulated
	// accumulation are indexed K-major.
	orig, rows, cols, gq := src, other, K, g
	inPlace := kmajor && !rotate
	if !kmajor && !rotate && random == nil && !p.emulated() && kind == opFP8 {
		gq, inPlace = g.Transpose()
		rows, cols = K, other
	}
	if !inPlace {
		sc.kmajor = grow(sc.kmajor, n)
		orig, rows, cols, gq = sc.kmajor, other, K, g
		if kmajor {
			copy(orig, src)
		} else {
			transpose(orig, src, K, other)
		}
	}
	t, err := scaling.FromSlice(rows, cols, orig)
	if err != nil {
		return kmOperand{}, err
	}
	if rotate {
		rot, err := e.rotation(K, p.Hadamard)
		if err != nil {
			return kmOperand{}, fmt.Errorf("train: %s %s: %w", siteName(e.cfg, site), productNames[product], err)
		}
		if err := rot.RotateRows(t); err != nil {
			return kmOperand{}, err
		}
	}
	switch kind {
	case opFP32:
		return kmOperand{data: orig, kmajor: true}, nil
	case opBF16:
		roundBF16(orig, random)
		return kmOperand{data: orig, kmajor: true}, nil
	}
	id := operandID(site, product, slot)
	q, err := e.quantize(id, t, f, gq, random, &sc.q)
	if err != nil {
		return kmOperand{}, fmt.Errorf("train: %s %s %s: %w", siteName(e.cfg, site), productNames[product], roleNames[role], err)
	}
	if err := q.DequantizeInto(sc.out); err != nil {
		return kmOperand{}, err
	}
	if e.watch {
		if bad := countNonFinite(sc.out[:n]); bad > 0 {
			return kmOperand{}, e.nonFinite(site, product, role, q, bad, n)
		}
	}
	if !e.eval {
		sc.counted = count(orig, sc.out, q)
		e.stats[id].add(sc.counted)
	}
	stored := inPlace && !kmajor // quantized as (K, other)
	if e.capture != nil {
		if err := e.captureOperand(site, product, role, t, q, stored); err != nil {
			return kmOperand{}, err
		}
	}
	switch {
	case stored:
		return kmOperand{data: sc.out, kmajor: false}, nil
	case !kmajor && !rotate:
		// Quantized in a K-major copy: back to src's layout, into the copy's
		// memory (the original values are no longer needed).
		transpose(sc.kmajor, sc.out, other, K)
		return kmOperand{data: sc.kmajor, kmajor: false, q: q}, nil
	}
	return kmOperand{data: sc.out, kmajor: true, q: q}, nil
}

// sameGradRounding reports whether the weight gradient's dY operand is
// rounded exactly as the input gradient's: the same kind and format, one
// current scale for the whole tensor (or BF16) without random words, no
// rotation, and no emulated accumulation, which needs K-major codes.
func (e *linearEngine) sameGradRounding(site int) bool {
	r := e.recipe
	ig, wg := r.products()[1], r.products()[2]
	kind := e.kinds[1][2]
	switch {
	case site == e.cfg.Layers*sitesPerLayer && !r.QuantizeHead, kind == opFP32,
		kind != e.kinds[2][2], e.formats[1][2] != e.formats[2][2],
		r.StochasticGrads, r.Scaling.Delayed, wg.Hadamard > 0, wg.emulated():
		return false
	}
	return kind == opBF16 || ig.GradOutput.Granularity.Kind == scaling.KindTensor &&
		wg.GradOutput.Granularity.Kind == scaling.KindTensor
}

// captureOperand hands the test hook the operand as scaling saw it and its
// quantization, both K-major and copied (the engine reuses its buffers).
func (e *linearEngine) captureOperand(site, product, role int, t *scaling.Tensor, q *scaling.Quantized, stored bool) error {
	c := capturedOperand{site: site, product: product, role: role, input: t.Clone(), q: cloneQuantized(q)}
	if stored {
		var err error
		if c.input, err = t.Transpose(); err != nil {
			return err
		}
		if c.q, err = q.Transpose(); err != nil {
			return err
		}
	}
	e.capture(c)
	return nil
}

// cloneQuantized returns a copy of q that shares no memory with it.
func cloneQuantized(q *scaling.Quantized) *scaling.Quantized {
	c := *q
	c.Codes = slices.Clone(q.Codes)
	c.Scales = slices.Clone(q.Scales)
	c.Amax = slices.Clone(q.Amax)
	c.ScaleCodes = slices.Clone(q.ScaleCodes)
	return &c
}

// quantize runs scaling's current or delayed scaling on one operand.
// Current scaling writes into reuse.
func (e *linearEngine) quantize(id int, t *scaling.Tensor, f *fp8.Format, g scaling.Granularity, random []uint32, reuse *scaling.Quantized) (*scaling.Quantized, error) {
	mode := fp8.Mode{Overflow: e.overflow}
	if random != nil {
		mode.Round, mode.RandomBits = fp8.Stochastic, 32
	}
	sc := e.recipe.Scaling
	if sc.None {
		return scaling.QuantizeWithScales(t, f, scaling.PerTensor, unitScale[:], scaling.Options{Mode: mode, Random: random})
	}
	if sc.Delayed {
		d := e.delayed[id]
		if d == nil {
			algo, _ := sc.algo()
			var err error
			d, err = scaling.NewDelayedScaler(scaling.DelayedConfig{Format: f, HistoryLen: sc.HistoryLen,
				Algo: algo, Margin: sc.Margin, Mode: mode})
			if err != nil {
				return nil, err
			}
			e.delayed[id] = d
		}
		if e.eval {
			return scaling.QuantizeWithScales(t, f, scaling.PerTensor, []float32{d.Scale()}, scaling.Options{Mode: mode, Random: random})
		}
		return d.Quantize(t, random)
	}
	opts := scaling.Options{Mode: mode, Random: random, Rule: e.rule}
	if !g.FloatScales() {
		opts.Rule = scaling.ScaleRule{}
	}
	if g.Scales() == scaling.ScaleE8M0 {
		opts.MXRounding = e.mxRounding
	}
	if err := scaling.QuantizeInto(reuse, t, f, g, opts); err != nil {
		return nil, err
	}
	return reuse, nil
}

// add folds counts of a later rounding into s.
func (s *OperandStats) add(c OperandStats) {
	s.Amax = max(s.Amax, c.Amax)
	s.Overflow += c.Overflow
	s.Underflow += c.Underflow
	s.Elements += c.Elements
}

// count returns an operand's amax, overflows and underflows.
func count(orig, deq []float32, q *scaling.Quantized) OperandStats {
	var st OperandStats
	for _, a := range q.Amax {
		st.Amax = max(st.Amax, a)
	}
	f := q.Format
	maxCode := f.MaxCode()
	sign := uint8(1) << (f.Bits() - 1)
	// A quarter of Max's ulp, relative: values that round to Max from
	// just above it are not clipped.
	tol := 1 + math.Ldexp(1, -f.Spec().ManBits-2)
	deq, codes := deq[:len(orig)], q.Codes[:len(orig)]
	var special [256]bool // codes that may count: all, or those of ±0 and ±Max
	if q.Granularity.Scales() == scaling.ScaleE4M3 {
		// NVFP4: a block scale that rounded to zero zeroes nonzero codes.
		for c := range special {
			special[c] = true
		}
	} else {
		// Float32 and power-of-two scales turn every nonzero code into a
		// nonzero value (the smallest subnormal of any format over the
		// largest scale stays above float32's smallest), so only codes of
		// ±0 and ±Max can count: a byte test per element finds them.
		for c := range f.NumCodes() {
			special[c] = f.Decode32(uint8(c)) == 0 || uint8(c)&^sign == maxCode
		}
	}
	var over, under int64
	// tally counts element i: underflow where it became zero, overflow where
	// it was clipped at ±Max.
	tally := func(i int) {
		x, d, c := orig[i], deq[i], codes[i]
		if d == 0 {
			if x != 0 {
				under++
			}
		} else if c&^sign == maxCode && math.Abs(float64(x)) > math.Abs(float64(d))*tol {
			over++
		}
	}
	// Eight codes at a time: a word with no byte of ±0 or ±Max (sign
	// cleared) needs no look (the zero-byte test finds any such byte, and a
	// false alarm only costs the byte-by-byte look).
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	keep, maxes := uint64(^sign)*ones, uint64(maxCode)*ones
	zeroByte := func(v uint64) bool { return (v-ones)&^v&highs != 0 }
	i := 0
	for ; i+8 <= len(codes); i += 8 {
		w := binary.LittleEndian.Uint64(codes[i:]) & keep
		if !zeroByte(w) && !zeroByte(w^maxes) {
			continue
		}
		for k := i; k < i+8; k++ {
			if special[codes[k]] {
				tally(k)
			}
		}
	}
	for ; i < len(codes); i++ {
		if special[codes[i]] {
			tally(i)
		}
	}
	st.Overflow, st.Underflow, st.Elements = over, under, int64(len(orig))
	return st
}

// rotation returns the random Hadamard rotation of K with the given block,
// the same for the whole run (Transformer Engine fixes its random signs).
func (e *linearEngine) rotation(K, block int) (*scaling.Rotation, error) {
	key := K<<8 | block
	if r := e.rots[key]; r != nil {
		return r, nil
	}
	r, err := scaling.NewRandomRotation(K, block, e.seed^0x9e3779b97f4a7c15)
	if err != nil {
		return nil, err
	}
	e.rots[key] = r
	return r, nil
}

// gemm computes c (M,N) = beta·c + a·b for a with M rows and b with N
// columns over the contraction K, each given K-major or (K, other).
func (e *linearEngine) gemm(product int, c []float32, a, b kmOperand, M, K, N int, beta float32) error {
	p := e.recipe.products()[product]
	if p.emulated() && a.q != nil && b.q != nil {
		return emulatedGemm(c, a.q, b.q, *p.Accumulator, beta)
	}
	e.matmul(c, a.data, b.data, a.kmajor, b.kmajor, M, K, N, beta)
	return nil
}

// emulatedGemm multiplies K-major quantized operands with scaling's
// accumulator emulation: qa is (M,K) and qb is (N,K), cuBLASLt's TN layout.
func emulatedGemm(c []float32, qa, qb *scaling.Quantized, acc scaling.Accumulator, beta float32) error {
	out, err := scaling.ScaledMatMulNT(qa, qb, acc)
	if err != nil {
		return err
	}
	for i, v := range out.Data {
		if beta == 0 {
			c[i] = v
		} else {
			c[i] = beta*c[i] + v
		}
	}
	return nil
}

// forward computes out (N,OC) = inp (N,IC) · weightᵀ + bias, weight (OC,IC),
// bias (OC) or nil: the product Y = X·W with W = weightᵀ.
func (e *linearEngine) forward(site int, out, inp, weight, bias []float32, N, IC, OC int) error {
	x, err := e.prepare(site, 0, 0, inp, IC, N, true)
	if err != nil {
		return err
	}
	w, err := e.prepare(site, 0, 1, weight, IC, OC, true)
	if err != nil {
		return err
	}
	if err := e.gemm(0, out, x, w, N, IC, OC, 0); err != nil {
		return err
	}
	if bias != nil {
		for i := 0; i < N; i++ {
			o := out[i*OC : (i+1)*OC]
			for j := range o {
				o[j] += bias[j]
			}
		}
	}
	return nil
}

// backward computes dinp (N,IC) = dout·weight (overwritten) and adds
// doutᵀ·inp to dweight (OC,IC) and the column sums of dout to dbias (OC,
// may be nil). dout is (N,OC). The bias gradient uses dout unrounded.
func (e *linearEngine) backward(site int, dinp, dweight, dbias, dout, inp, weight []float32, N, IC, OC int) error {
	// dX = dY·Wᵀ: contraction over OC; weight (OC,IC) is stored (K, other).
	dy, err := e.prepare(site, 1, 0, dout, OC, N, true)
	if err != nil {
		return err
	}
	w, err := e.prepare(site, 1, 1, weight, OC, IC, false)
	if err != nil {
		return err
	}
	if err := e.gemm(1, dinp, dy, w, N, OC, IC, 0); err != nil {
		return err
	}
	// dW = Xᵀ·dY, computed as its transpose doutᵀ·inp (OC,IC), the layout
	// the weight is stored in; contraction over the N tokens.
	var dy2 kmOperand
	reuse := e.sameGradRounding(site)
	if reuse {
		// The weight gradient rounds dY exactly as the input gradient did:
		// keep that result (its memory set aside from x's rounding) and
		// count it again rather than round it again. dout is (N,OC) in
		// both products, K-major for one and stored (K, other) for the other.
		e.scratch[0], e.spare = e.spare, e.scratch[0]
		dy2 = kmOperand{data: dy.data, kmajor: false}
		e.stats[operandID(site, 2, 1)].add(e.spare.counted)
		if e.capture != nil && e.kinds[2][2] == opFP8 {
			t, err := scaling.FromSlice(N, OC, dout)
			if err != nil {
				return err
			}
			if err := e.captureOperand(site, 2, 2, t, dy.q, true); err != nil {
				return err
			}
		}
	}
	x, err := e.prepare(site, 2, 0, inp, N, IC, false)
	if err != nil {
		return err
	}
	if !reuse {
		if dy2, err = e.prepare(site, 2, 1, dout, N, OC, false); err != nil {
			return err
		}
	}
	if err := e.gemm(2, dweight, dy2, x, OC, N, IC, 1); err != nil {
		return err
	}
	if dbias != nil {
		for i := 0; i < N; i++ {
			for j, v := range dout[i*OC : (i+1)*OC] {
				dbias[j] += v
			}
		}
	}
	return nil
}
