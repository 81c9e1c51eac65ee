package train

import "math"

// float is the element type of the layer functions. The model runs them in
// float32; the gradient checks run the same code in float64, so a backward
// pass is checked against finite differences that are not drowned in
// float32 rounding.
type float interface{ ~float32 | ~float64 }

// Shapes below use B (batch), T (time, the context length), C (channels,
// the model width), NH (attention heads), V (vocabulary, 256 bytes).
// Every tensor is row-major; "(B,T,C)" means index (b*T+t)*C+c.

// encoderForward sums token and position embeddings.
//
//	out (B,T,C) = wte[tokens[b,t]] + wpe[t];  tokens (B,T); wte (V,C); wpe (T,C)
func encoderForward[F float](out []F, tokens []int, wte, wpe []F, B, T, C int) {
	for b := 0; b < B; b++ {
		for t := 0; t < T; t++ {
			o := out[(b*T+t)*C : (b*T+t+1)*C]
			we := wte[tokens[b*T+t]*C:]
			pe := wpe[t*C:]
			for c := range o {
				o[c] = we[c] + pe[c]
			}
		}
	}
}

// encoderBackward accumulates the embedding gradients: dwte[tokens[b,t]] +=
// dout[b,t] and dwpe[t] += dout[b,t]. dout (B,T,C); dwte (V,C); dwpe (T,C).
func encoderBackward[F float](dwte, dwpe, dout []F, tokens []int, B, T, C int) {
	for b := 0; b < B; b++ {
		for t := 0; t < T; t++ {
			d := dout[(b*T+t)*C : (b*T+t+1)*C]
			dwt := dwte[tokens[b*T+t]*C:]
			dwp := dwpe[t*C:]
			for c, v := range d {
				dwt[c] += v
				dwp[c] += v
			}
		}
	}
}

// layernormEps is GPT-2's LayerNorm epsilon.
const layernormEps = 1e-5

// layernormForward normalizes each of the N rows of inp (N,C) and applies
// the affine weight and bias (C): out (N,C). mean and rstd (N) keep the
// row statistics for the backward pass.
func layernormForward[F float](out, mean, rstd, inp, weight, bias []F, N, C int) {
	for i := 0; i < N; i++ {
		x := inp[i*C : (i+1)*C]
		var m F
		for _, v := range x {
			m += v
		}
		m /= F(C)
		var variance F
		for _, v := range x {
			d := v - m
			variance += d * d
		}
		variance /= F(C)
		s := F(1 / math.Sqrt(float64(variance)+layernormEps))
		o := out[i*C : (i+1)*C]
		for c, v := range x {
			o[c] = (v-m)*s*weight[c] + bias[c]
		}
		mean[i], rstd[i] = m, s
	}
}

// layernormBackward accumulates the gradients of layernormForward:
// dinp (N,C) += ∂L/∂inp, dweight and dbias (C) += their gradients,
// given dout (N,C) and the saved mean and rstd (N).
func layernormBackward[F float](dinp, dweight, dbias, dout, inp, weight, mean, rstd []F, N, C int) {
	for i := 0; i < N; i++ {
		d := dout[i*C : (i+1)*C]
		x := inp[i*C : (i+1)*C]
		m, s := mean[i], rstd[i]
		// Two reductions: the mean of dnorm and of dnorm·norm.
		var dnormMean, dnormNormMean F
		for c := range d {
			norm := (x[c] - m) * s
			dnorm := weight[c] * d[c]
			dnormMean += dnorm
			dnormNormMean += dnorm * norm
		}
		dnormMean /= F(C)
		dnormNormMean /= F(C)
		di := dinp[i*C : (i+1)*C]
		for c := range d {
			norm := (x[c] - m) * s
			dnorm := weight[c] * d[c]
			dbias[c] += d[c]
			dweight[c] += norm * d[c]
			di[c] += (dnorm - dnormMean - norm*dnormNormMean) * s
		}
	}
}

// attentionForward is causal multi-head self-attention.
//
//	qkv (B,T,3C): query, key, value side by side, each C = NH·hs wide
//	out (B,T,C):  the heads' outputs side by side
//	att (B,NH,T,T): softmax probabilities, kept for the backward pass (row t
//	                holds t+1 used entries; the rest stay zero)
func attentionForward[F float](out, att, qkv []F, B, T, C, NH int) {
	hs := C / NH
	scale := F(1 / math.Sqrt(float64(hs)))
	parallelRange(B*NH, B*NH*T*T*hs, func(bh int) {
		b, h := bh/NH, bh%NH
		for t := 0; t < T; t++ {
			q := qkv[(b*T+t)*3*C+h*hs:][:hs]
			row := att[(bh*T+t)*T:][:T]
			maxv := F(math.Inf(-1))
			for t2 := 0; t2 <= t; t2++ {
				k := qkv[(b*T+t2)*3*C+C+h*hs:][:hs]
				var dot F
				for i := range q {
					dot += q[i] * k[i]
				}
				dot *= scale
				row[t2] = dot
				maxv = max(maxv, dot)
			}
			var sum F
			for t2 := 0; t2 <= t; t2++ {
				e := F(math.Exp(float64(row[t2] - maxv)))
				row[t2] = e
				sum += e
			}
			inv := 1 / sum
			for t2 := 0; t2 <= t; t2++ {
				row[t2] *= inv
			}
			for t2 := t + 1; t2 < T; t2++ {
				row[t2] = 0
			}
			o := out[(b*T+t)*C+h*hs:][:hs]
			clear(o)
			for t2 := 0; t2 <= t; t2++ {
				v := qkv[(b*T+t2)*3*C+2*C+h*hs:][:hs]
				a := row[t2]
				for i := range o {
					o[i] += a * v[i]
				}
			}
		}
	})
}

// attentionBackward accumulates dqkv (B,T,3C) from dout (B,T,C), using the
// saved probabilities att (B,NH,T,T) and the forward input qkv. scratch
// holds B·NH·T floats (one row of datt per head).
func attentionBackward[F float](dqkv, dout, qkv, att, scratch []F, B, T, C, NH int) {
	hs := C / NH
	scale := F(1 / math.Sqrt(float64(hs)))
	// Heads write disjoint slices of dqkv: each (b,h) pair is independent.
	parallelRange(B*NH, B*NH*T*T*hs, func(bh int) {
		b, h := bh/NH, bh%NH
		datt := scratch[bh*T:][:T]
		for t := 0; t < T; t++ {
			row := att[(bh*T+t)*T:][:T]
			d := dout[(b*T+t)*C+h*hs:][:hs]
			// out = Σ att·v: datt = dout·v, dv += att·dout.
			for t2 := 0; t2 <= t; t2++ {
				v := qkv[(b*T+t2)*3*C+2*C+h*hs:][:hs]
				dv := dqkv[(b*T+t2)*3*C+2*C+h*hs:][:hs]
				var dot F
				a := row[t2]
				for i := range d {
					dot += d[i] * v[i]
					dv[i] += a * d[i]
				}
				datt[t2] = dot
			}
			// Softmax backward: dpre = att·(datt - Σ att·datt).
			var s F
			for t2 := 0; t2 <= t; t2++ {
				s += row[t2] * datt[t2]
			}
			q := qkv[(b*T+t)*3*C+h*hs:][:hs]
			dq := dqkv[(b*T+t)*3*C+h*hs:][:hs]
			for t2 := 0; t2 <= t; t2++ {
				dpre := row[t2] * (datt[t2] - s) * scale
				k := qkv[(b*T+t2)*3*C+C+h*hs:][:hs]
				dk := dqkv[(b*T+t2)*3*C+C+h*hs:][:hs]
				for i := range q {
					dq[i] += dpre * k[i]
					dk[i] += dpre * q[i]
				}
			}
		}
	})
}

// geluScale is sqrt(2/π), GPT-2's tanh approximation of GELU.
var geluScale = math.Sqrt(2 / math.Pi)

// geluForward applies GELU (tanh approximation) elementwise: out (N) from inp (N).
func geluForward[F float](out, inp []F) {
	for i, x := range inp {
		xf := float64(x)
		out[i] = F(0.5 * xf * (1 + math.Tanh(geluScale*(xf+0.044715*xf*xf*xf))))
	}
}

// geluBackward accumulates dinp (N) += GELU'(inp)·dout.
func geluBackward[F float](dinp, inp, dout []F) {
	for i, x := range inp {
		xf := float64(x)
		u := geluScale * (xf + 0.044715*xf*xf*xf)
		th := math.Tanh(u)
		sech2 := 1 - th*th
		grad := 0.5*(1+th) + 0.5*xf*sech2*geluScale*(1+3*0.044715*xf*xf)
		dinp[i] += F(grad) * dout[i]
	}
}

// residualForward writes out (N) = a + b.
func residualForward[F float](out, a, b []F) {
	for i := range out {
		out[i] = a[i] + b[i]
	}
}

// crossEntropyForward turns logits (N,V) into probabilities probs (N,V)
// (softmax) and returns the mean over the N rows of -log probs[target].
// The sum is taken in float64 so the loss of a large batch is not rounded
// N times.
func crossEntropyForward[F float](probs, logits []F, targets []int, N, V int) float64 {
	var total float64
	for i := 0; i < N; i++ {
		l := logits[i*V : (i+1)*V]
		p := probs[i*V : (i+1)*V]
		maxv := l[0]
		for _, v := range l {
			maxv = max(maxv, v)
		}
		var sum float64
		for j, v := range l {
			e := math.Exp(float64(v - maxv))
			p[j] = F(e)
			sum += e
		}
		inv := 1 / sum
		for j := range p {
			p[j] = F(float64(p[j]) * inv)
		}
		total -= math.Log(max(float64(p[targets[i]]), 1e-30))
	}
	return total / float64(N)
}

// crossEntropyBackward writes dlogits (N,V) = (probs - onehot(target)) / N,
// the gradient of the mean loss.
func crossEntropyBackward[F float](dlogits, probs []F, targets []int, N, V int) {
	inv := 1 / F(N)
	for i := 0; i < N; i++ {
		d := dlogits[i*V : (i+1)*V]
		p := probs[i*V : (i+1)*V]
		for j := range d {
			d[j] = p[j] * inv
		}
		d[targets[i]] -= inv
	}
}

// matmulForward is the plain reference linear layer, used by the gradient
// checks and as the model of what every recipe emulates:
//
//	out (N,OC) = inp (N,IC) · weightᵀ + bias;  weight (OC,IC); bias (OC) or nil
//
// The weight is stored as (OC,IC), as llm.c and PyTorch store it: the W of
// Y = X·W is its transpose.
func matmulForward[F float](out, inp, weight, bias []F, N, IC, OC int) {
	for i := 0; i < N; i++ {
		x := inp[i*IC : (i+1)*IC]
		for o := 0; o < OC; o++ {
			w := weight[o*IC : (o+1)*IC]
			var s F
			if bias != nil {
				s = bias[o]
			}
			for c, v := range x {
				s += v * w[c]
			}
			out[i*OC+o] = s
		}
	}
}

// matmulBackward accumulates the gradients of matmulForward:
// dinp (N,IC) += dout·weight, dweight (OC,IC) += doutᵀ·inp, dbias (OC) += Σ dout
// (dbias may be nil).
func matmulBackward[F float](dinp, dweight, dbias, dout, inp, weight []F, N, IC, OC int) {
	for i := 0; i < N; i++ {
		d := dout[i*OC : (i+1)*OC]
		x := inp[i*IC : (i+1)*IC]
		di := dinp[i*IC : (i+1)*IC]
		for o, g := range d {
			w := weight[o*IC : (o+1)*IC]
			dw := dweight[o*IC : (o+1)*IC]
			for c := range di {
				di[c] += g * w[c]
				dw[c] += g * x[c]
			}
			if dbias != nil {
				dbias[o] += g
			}
		}
	}
}
