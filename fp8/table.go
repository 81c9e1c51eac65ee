package fp8

import (
	"math"
	"sync"
	"sync/atomic"
)

// Encoding by table lookup. The code of a float32 x, in any deterministic
// rounding, depends only on its top 16 bits (sign, exponent, 7 mantissa
// bits) and on whether any of its low 16 bits is set, for a format with at
// most 6 mantissa bits: every rounding boundary (a code's value, or the
// midpoint of two neighbours, normal or subnormal) is a multiple of the
// key's step 2^(e-7) within x's binade e, so the open interval that the low
// bits span holds none, and every x in it encodes like key<<16 | 1. Only the
// key's own value can differ: an exact half-way point rounds to even, a
// value on the grid stays. The same holds for a float64 and its top 16 bits
// (4 mantissa bits) when the format has at most 3 mantissa bits, which is
// every FP8 format but E3M4. Each table entry is built by the encoder the
// slice functions use without a table, from the two inputs key<<16 and
// key<<16 | 1 (key<<48 and key<<48 | 1), so the table is bit-exact by
// construction; NaN, ±Inf, saturation, FNUZ's -0 and the overflow policy
// land in it with no code of their own. TestExhaustiveTable32 checks all
// 2^32 float32 inputs of E4M3FN and E5M2 in long mode (FP8LAB_LONG=1).

// codeTable maps key = bits >> (width - 16) to the codes of the key's own
// value ([0]) and of any input with the same key and nonzero bits below it
// ([1]). The two codes of a key share a cache line; the keys that real data
// meets take little of the 128 KiB (20 binades of both signs: 10 KiB).
type codeTable [1 << 16][2]uint8

// tableMinLen is the shortest slice that builds a missing table; shorter
// calls use a table only once one exists, else the arithmetic kernels.
// Building encodes 2^17 inputs with those kernels (NaN and Inf keys through
// the core) and took 1.5–3.3 ms natively and 15–83 ms under Node on the
// loaded 2-core VM of BENCHMARKS.md's run F: paid once per process, format
// and mode, by a call that encodes at least 2^15 values.
const tableMinLen = 1 << 15

// tableSlot is one lazily built table.
type tableSlot struct {
	t  atomic.Pointer[codeTable]
	no atomic.Bool // the format cannot have this table
}

// tables holds a format's tables, one per input width, rounding and
// overflow policy, each built on the first call long enough to repay it.
type tables struct {
	mu       sync.Mutex
	f32, f64 [Stochastic][NoSaturate + 1]tableSlot
}

// table32For returns the float32 table for mode m (checked, not
// Stochastic), building it when n ≥ tableMinLen values are to be encoded;
// nil when n is shorter, or when the format cannot have one (more than 6
// mantissa bits, or an input the encoder rejects, such as NaN in a format
// without one).
func (f *Format) table32For(m Mode, n int) *codeTable {
	return f.tableFor(&f.tables.f32[m.Round][m.Overflow], n, func() (*codeTable, bool) {
		if f.spec.ManBits > 6 {
			return nil, false
		}
		lo, hi := make([]float32, tableBuildBlock), make([]float32, tableBuildBlock)
		return buildTable(func(dst []uint8, keys []uint32) error {
			for i, k := range keys {
				lo[i], hi[i] = math.Float32frombits(k<<16), math.Float32frombits(k<<16|1)
			}
			if _, err := f.encodeSlice32Serial(dst[:len(keys)], lo, m); err != nil {
				return err
			}
			_, err := f.encodeSlice32Serial(dst[len(keys):], hi, m)
			return err
		})
	})
}

// PrepareEncode readies f to encode about n float32 values in mode m over
// any number of calls. A format that encodes by table lookup builds the
// table for m when n repays it, as one call of n values would: without the
// hint, a caller encoding a large tensor in short pieces (a quantizer's
// rows or chunks) would keep the slower arithmetic kernels. It changes no
// result. An invalid or stochastic mode is ignored here; the encode calls
// report it.
func (f *Format) PrepareEncode(m Mode, n int) {
	if f.check() != nil || m.Round == Stochastic || m.check() != nil {
		return
	}
	f.table32For(m, n)
}

// table64For is table32For for float64 inputs (at most 3 mantissa bits).
func (f *Format) table64For(m Mode, n int) *codeTable {
	return f.tableFor(&f.tables.f64[m.Round][m.Overflow], n, func() (*codeTable, bool) {
		if f.spec.ManBits > 3 {
			return nil, false
		}
		lo, hi := make([]float64, tableBuildBlock), make([]float64, tableBuildBlock)
		return buildTable(func(dst []uint8, keys []uint32) error {
			for i, k := range keys {
				u := uint64(k) << 48
				lo[i], hi[i] = math.Float64frombits(u), math.Float64frombits(u|1)
			}
			if _, err := f.encodeSlice64Serial(dst[:len(keys)], lo, m); err != nil {
				return err
			}
			_, err := f.encodeSlice64Serial(dst[len(keys):], hi, m)
			return err
		})
	})
}

// tableFor returns slot's table, building it with build under the format's
// lock when n ≥ tableMinLen.
func (f *Format) tableFor(slot *tableSlot, n int, build func() (*codeTable, bool)) *codeTable {
	if t := slot.t.Load(); t != nil || n < tableMinLen || slot.no.Load() {
		return t
	}
	f.tables.mu.Lock()
	defer f.tables.mu.Unlock()
	if t := slot.t.Load(); t != nil || slot.no.Load() {
		return t
	}
	t, ok := build()
	if !ok {
		slot.no.Store(true)
		return nil
	}
	slot.t.Store(t)
	return t
}

// tableBuildBlock is how many keys buildTable encodes per call of encode.
const tableBuildBlock = 2048

// buildTable fills a table a block of keys at a time: encode writes into
// dst the codes of the keys' own values, then of the keys with a nonzero
// low part.
func buildTable(encode func(dst []uint8, keys []uint32) error) (*codeTable, bool) {
	t := new(codeTable)
	keys := make([]uint32, tableBuildBlock)
	dst := make([]uint8, 2*tableBuildBlock)
	for k0 := 0; k0 < len(t); k0 += tableBuildBlock {
		for i := range keys {
			keys[i] = uint32(k0 + i)
		}
		if err := encode(dst, keys); err != nil {
			return nil, false
		}
		for i := range keys {
			t[k0+i] = [2]uint8{dst[i], dst[tableBuildBlock+i]}
		}
	}
	return t, true
}

// encodeTable32 encodes s into d (same length) with table t, sixteen values
// per iteration: Go's WebAssembly backend sends every loop iteration through
// a br_table dispatch, which unrolling pays once per 16 values (measured
// under Node, ns/value: one per iteration 2.2, four 1.4, eight 1.06,
// sixteen 0.9; natively 0.97, 0.73, 0.68, 0.67).
func encodeTable32(t *codeTable, d []uint8, s []float32) {
	w := words32(s)
	d = d[:len(w)]
	i := 0
	for ; i+16 <= len(w); i += 16 {
		w16 := (*[16]uint32)(w[i : i+16])
		d16 := (*[16]uint8)(d[i : i+16])
		d16[0] = tableCode32(t, w16[0])
		d16[1] = tableCode32(t, w16[1])
		d16[2] = tableCode32(t, w16[2])
		d16[3] = tableCode32(t, w16[3])
		d16[4] = tableCode32(t, w16[4])
		d16[5] = tableCode32(t, w16[5])
		d16[6] = tableCode32(t, w16[6])
		d16[7] = tableCode32(t, w16[7])
		d16[8] = tableCode32(t, w16[8])
		d16[9] = tableCode32(t, w16[9])
		d16[10] = tableCode32(t, w16[10])
		d16[11] = tableCode32(t, w16[11])
		d16[12] = tableCode32(t, w16[12])
		d16[13] = tableCode32(t, w16[13])
		d16[14] = tableCode32(t, w16[14])
		d16[15] = tableCode32(t, w16[15])
	}
	for ; i < len(w); i++ {
		d[i] = tableCode32(t, w[i])
	}
}

// encodeScaledTable32 is encodeTable32 of s[i]·scale, the product formed
// in float32: EncodeScaledSlice32's loop over one block.
func encodeScaledTable32(t *codeTable, d []uint8, s []float32, scale float32) {
	d = d[:len(s)]
	i := 0
	for ; i+16 <= len(s); i += 16 {
		s16 := (*[16]float32)(s[i : i+16])
		d16 := (*[16]uint8)(d[i : i+16])
		d16[0] = tableCode32(t, math.Float32bits(s16[0]*scale))
		d16[1] = tableCode32(t, math.Float32bits(s16[1]*scale))
		d16[2] = tableCode32(t, math.Float32bits(s16[2]*scale))
		d16[3] = tableCode32(t, math.Float32bits(s16[3]*scale))
		d16[4] = tableCode32(t, math.Float32bits(s16[4]*scale))
		d16[5] = tableCode32(t, math.Float32bits(s16[5]*scale))
		d16[6] = tableCode32(t, math.Float32bits(s16[6]*scale))
		d16[7] = tableCode32(t, math.Float32bits(s16[7]*scale))
		d16[8] = tableCode32(t, math.Float32bits(s16[8]*scale))
		d16[9] = tableCode32(t, math.Float32bits(s16[9]*scale))
		d16[10] = tableCode32(t, math.Float32bits(s16[10]*scale))
		d16[11] = tableCode32(t, math.Float32bits(s16[11]*scale))
		d16[12] = tableCode32(t, math.Float32bits(s16[12]*scale))
		d16[13] = tableCode32(t, math.Float32bits(s16[13]*scale))
		d16[14] = tableCode32(t, math.Float32bits(s16[14]*scale))
		d16[15] = tableCode32(t, math.Float32bits(s16[15]*scale))
	}
	for ; i < len(s); i++ {
		d[i] = tableCode32(t, math.Float32bits(s[i]*scale))
	}
}

// tableCode32 looks up the code of the float32 with bits u. The column is 1
// exactly when the low half of u is nonzero: (low + 0xFFFF) >> 16.
func tableCode32(t *codeTable, u uint32) uint8 {
	return t[u>>16][(u&0xFFFF+0xFFFF)>>16&1]
}

// encodeTable64 is encodeTable32 for float64 inputs.
func encodeTable64(t *codeTable, d []uint8, s []float64) {
	w := words64(s)
	d = d[:len(w)]
	i := 0
	for ; i+16 <= len(w); i += 16 {
		w16 := (*[16]uint64)(w[i : i+16])
		d16 := (*[16]uint8)(d[i : i+16])
		d16[0] = tableCode64(t, w16[0])
		d16[1] = tableCode64(t, w16[1])
		d16[2] = tableCode64(t, w16[2])
		d16[3] = tableCode64(t, w16[3])
		d16[4] = tableCode64(t, w16[4])
		d16[5] = tableCode64(t, w16[5])
		d16[6] = tableCode64(t, w16[6])
		d16[7] = tableCode64(t, w16[7])
		d16[8] = tableCode64(t, w16[8])
		d16[9] = tableCode64(t, w16[9])
		d16[10] = tableCode64(t, w16[10])
		d16[11] = tableCode64(t, w16[11])
		d16[12] = tableCode64(t, w16[12])
		d16[13] = tableCode64(t, w16[13])
		d16[14] = tableCode64(t, w16[14])
		d16[15] = tableCode64(t, w16[15])
	}
	for ; i < len(w); i++ {
		d[i] = tableCode64(t, w[i])
	}
}

// tableCode64 is tableCode32 for float64 bits: the key is the top 16 bits,
// the column 1 when any of the low 48 is set.
func tableCode64(t *codeTable, u uint64) uint8 {
	return t[u>>48][(u&(1<<48-1)+(1<<48-1))>>48&1]
}
