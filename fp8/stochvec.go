package fp8

// stochasticParams are the constants of stochasticAVX2 for one format and
// call, in the order the assembly reads them.
type stochasticParams struct {
	mask, right, left, drop uint32 // the r random bits, and how to move them below the kept lsb
	bias, minNormal, ovf    uint32
	maxFinite, signBit      uint32
}

// newStochasticParams returns the parameters for a format whose normal
// range drops drop bits of a float32 and rebiases by bias, with r random
// bits and ovf the magnitude of overflow. The scalar kernels add
// (rnd·2^(56-r)) >> (56-drop), which is rnd >> (r-drop) when r ≥ drop and
// rnd << (drop-r) otherwise.
func newStochasticParams(drop, bias, minNormal, r, ovf uint32) stochasticParams {
	p := stochasticParams{mask: uint32(1<<r - 1), drop: drop, bias: bias, minNormal: minNormal,
		ovf: ovf, maxFinite: 0x7F7FFFFF, signBit: 0x80}
	if r >= drop {
		p.right = r - drop
	} else {
		p.left = drop - r
	}
	return p
}

// stochasticVec is a stochastic kernel (stochasticE4M3FN, stochasticE5M2)
// with its normal range eight values at a time: stochasticAVX2 runs until a
// group of eight holds a subnormal result, a NaN or ±Inf, scalar encodes
// that group (and the tail of fewer than eight), and the vector loop goes
// on. The codes are scalar's; the returned word is scalar's special flag
// over the groups it did (the vector loop stops before any NaN or Inf).
func stochasticVec(p *stochasticParams, d []uint8, s []float32, rw []uint32, r, ovf uint32,
	scalar func(*fast32, []uint8, []float32, []uint32, uint32, uint32) uint32) uint32 {
	d, rw = d[:len(s)], rw[:len(s)]
	w := words32(s)
	var special uint32
	for i := 0; i < len(s); {
		if n := (len(s) - i) &^ 7; n > 0 {
			i += stochasticAVX2(&d[i], &w[i], &rw[i], n, p)
		}
		end := min(i+8, len(s))
		if i < end {
			special |= scalar(nil, d[i:end], s[i:end], rw[i:end], r, ovf)
		}
		i = end
	}
	return special
}

// stochasticE4M3FNVec is stochasticE4M3FN through stochasticVec.
func stochasticE4M3FNVec(_ *fast32, d []uint8, s []float32, rw []uint32, r, ovf uint32) uint32 {
	p := newStochasticParams(dropE4M3FN, biasE4M3FN, minNormalE4M3FN, r, ovf)
	return stochasticVec(&p, d, s, rw, r, ovf, stochasticE4M3FN)
}

// stochasticE5M2Vec is stochasticE5M2 through stochasticVec.
func stochasticE5M2Vec(_ *fast32, d []uint8, s []float32, rw []uint32, r, ovf uint32) uint32 {
	p := newStochasticParams(dropE5M2, biasE5M2, minNormalE5M2, r, ovf)
	return stochasticVec(&p, d, s, rw, r, ovf, stochasticE5M2)
}
