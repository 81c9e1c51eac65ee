package main

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/fp8lab/fp8lab/scaling"
)

// recipe says how the matrix products of one training run are done.
type recipe struct {
	Name string
	// FP8 false: plain float32 products. Otherwise the forward operands are
	// quantized to Fwd and the output gradient to Grad (weights and
	// activations in the backward products stay in Fwd), each with
	// granularity Gran.
	FP8       bool
	Fwd, Grad *fp8.Format
	Gran      scaling.Granularity
	// Stochastic rounds the gradients stochastically (Philox streams).
	Stochastic bool
}

// net is a 2-H-H-2 tanh MLP with its Adam state.
type net struct {
	w      [3]*scaling.Tensor // weights, in×out
	b      [3][]float32
	m, v   [3][]float32 // Adam moments of w (flattened) then b
	mb, vb [3][]float32
	t      int
}

func newNet(hidden int, seed uint64) (*net, error) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	sizes := []int{2, hidden, hidden, 2}
	n := &net{}
	for l := 0; l < 3; l++ {
		w, err := scaling.NewTensor(sizes[l], sizes[l+1])
		if err != nil {
			return nil, err
		}
		std := math.Sqrt(1 / float64(sizes[l]))
		for i := range w.Data {
			w.Data[i] = float32(rng.NormFloat64() * std)
		}
		n.w[l] = w
		n.b[l] = make([]float32, sizes[l+1])
		n.m[l], n.v[l] = make([]float32, len(w.Data)), make([]float32, len(w.Data))
		n.mb[l], n.vb[l] = make([]float32, sizes[l+1]), make([]float32, sizes[l+1])
	}
	return n, nil
}

// trainer runs the products of one recipe.
type trainer struct {
	r      recipe
	seed   uint64
	stream uint64 // a fresh Philox stream for every stochastically rounded tensor
}

// fake quantizes t to f and back (a simulated FP8 operand).
func (tr *trainer) fake(t *scaling.Tensor, f *fp8.Format, stochastic bool) (*scaling.Tensor, error) {
	opts := scaling.Options{}
	if stochastic {
		opts.Mode = fp8.Mode{Round: fp8.Stochastic, RandomBits: 32}
		opts.Random = make([]uint32, len(t.Data))
		rng.Fill(opts.Random, tr.seed, tr.stream, 0)
		tr.stream++
	}
	q, err := scaling.Quantize(t, f, tr.r.Gran, opts)
	if err != nil {
		return nil, err
	}
	return q.Dequantize()
}

// mul returns a·b; gradA/gradB mark which operand is a gradient.
func (tr *trainer) mul(a, b *scaling.Tensor, gradA, gradB bool) (*scaling.Tensor, error) {
	if tr.r.FP8 {
		var err error
		fa, fb := tr.r.Fwd, tr.r.Fwd
		if gradA {
			fa = tr.r.Grad
		}
		if gradB {
			fb = tr.r.Grad
		}
		if a, err = tr.fake(a, fa, gradA && tr.r.Stochastic); err != nil {
			return nil, err
		}
		if b, err = tr.fake(b, fb, gradB && tr.r.Stochastic); err != nil {
			return nil, err
		}
	}
	return scaling.MatMul(a, b)
}

// step does one full-batch forward and backward pass and an Adam update,
// and returns the mean cross-entropy loss of the forward pass.
func (tr *trainer) step(n *net, x *scaling.Tensor, labels []int, lr float64) (float64, error) {
	acts := [4]*scaling.Tensor{x}
	for l := 0; l < 3; l++ {
		z, err := tr.mul(acts[l], n.w[l], false, false)
		if err != nil {
			return 0, err
		}
		for i := range z.Data {
			z.Data[i] += n.b[l][i%z.Cols]
			if l < 2 {
				z.Data[i] = float32(math.Tanh(float64(z.Data[i])))
			}
		}
		acts[l+1] = z
	}
	// Softmax cross-entropy; g = dLoss/dlogits.
	logits := acts[3]
	g, err := scaling.NewTensor(logits.Rows, logits.Cols)
	if err != nil {
		return 0, err
	}
	loss := 0.0
	for i := 0; i < logits.Rows; i++ {
		a, b := float64(logits.At(i, 0)), float64(logits.At(i, 1))
		mx := math.Max(a, b)
		ea, eb := math.Exp(a-mx), math.Exp(b-mx)
		p := [2]float64{ea / (ea + eb), eb / (ea + eb)}
		loss -= math.Log(math.Max(p[labels[i]], 1e-12))
		for k := 0; k < 2; k++ {
			d := p[k]
			if k == labels[i] {
				d--
			}
			g.Set(i, k, float32(d/float64(logits.Rows)))
		}
	}
	loss /= float64(logits.Rows)
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return 0, errors.New("loss is not finite")
	}
	n.t++
	for l := 2; l >= 0; l-- {
		at, err := acts[l].Transpose()
		if err != nil {
			return 0, err
		}
		dw, err := tr.mul(at, g, false, true)
		if err != nil {
			return 0, err
		}
		db := make([]float32, g.Cols)
		for i := range g.Data {
			db[i%g.Cols] += g.Data[i]
		}
		if l > 0 {
			wt, err := n.w[l].Transpose()
			if err != nil {
				return 0, err
			}
			dx, err := tr.mul(g, wt, true, false)
			if err != nil {
				return 0, err
			}
			for i, y := range acts[l].Data { // tanh' = 1 - y²
				dx.Data[i] *= 1 - y*y
			}
			g = dx
		}
		adam(n.w[l].Data, dw.Data, n.m[l], n.v[l], n.t, lr)
		adam(n.b[l], db, n.mb[l], n.vb[l], n.t, lr)
	}
	return loss, nil
}

// adam applies one Adam update (β1 0.9, β2 0.999, ε 1e-8).
func adam(w, g, m, v []float32, t int, lr float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	c1, c2 := 1-math.Pow(b1, float64(t)), 1-math.Pow(b2, float64(t))
	for i := range w {
		gi := float64(g[i])
		mi := b1*float64(m[i]) + (1-b1)*gi
		vi := b2*float64(v[i]) + (1-b2)*gi*gi
		m[i], v[i] = float32(mi), float32(vi)
		w[i] -= float32(lr * (mi / c1) / (math.Sqrt(vi/c2) + eps))
	}
}

// spirals returns n points of two interleaved spirals (n/2 per class) with a
// little noise, as an n×2 tensor and labels 0 and 1.
func spirals(n int, seed uint64) (*scaling.Tensor, []int, error) {
	rng := rand.New(rand.NewPCG(seed, 0xda7a))
	x, err := scaling.NewTensor(n, 2)
	if err != nil {
		return nil, nil, err
	}
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % 2
		t := float64(i/2) / float64(n/2) // 0..1 along the spiral
		angle := t*3*math.Pi + float64(c)*math.Pi
		r := 0.1 + 0.9*t
		x.Set(i, 0, float32(r*math.Cos(angle)+0.02*rng.NormFloat64()))
		x.Set(i, 1, float32(r*math.Sin(angle)+0.02*rng.NormFloat64()))
		labels[i] = c
	}
	return x, labels, nil
}
