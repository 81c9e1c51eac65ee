package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// paramSpec names one parameter tensor: (Rows,Cols) row-major, a vector has
// Rows 1. Matrices get weight decay, vectors (biases, norms) do not.
type paramSpec struct {
	Name       string
	Rows, Cols int
	Matrix     bool
}

// layerParams are one block's parameters. Linear weights are stored
// (out,in) as in llm.c: the W of Y = X·W is the transpose.
type layerParams struct {
	ln1w, ln1b         []float32 // (C)
	qkvw, qkvb         []float32 // (3C,C), (3C)
	attprojw, attprojb []float32 // (C,C), (C)
	ln2w, ln2b         []float32 // (C)
	fcw, fcb           []float32 // (4C,C), (4C)
	fcprojw, fcprojb   []float32 // (C,4C), (C)
}

// paramSet views a flat parameter (or gradient) slice as named tensors.
type paramSet struct {
	wte, wpe   []float32 // (V,C), (T,C)
	layers     []layerParams
	lnfw, lnfb []float32 // (C)
	head       []float32 // (V,C), nil when tied to wte
}

// paramSpecs lists the parameter tensors in their fixed order.
func paramSpecs(cfg Config) []paramSpec {
	C := cfg.Width
	s := []paramSpec{{"wte", Vocab, C, true}, {"wpe", cfg.Context, C, true}}
	for l := 0; l < cfg.Layers; l++ {
		p := fmt.Sprintf("h%d.", l)
		s = append(s,
			paramSpec{p + "ln1.w", 1, C, false}, paramSpec{p + "ln1.b", 1, C, false},
			paramSpec{p + "qkv.w", 3 * C, C, true}, paramSpec{p + "qkv.b", 1, 3 * C, false},
			paramSpec{p + "attproj.w", C, C, true}, paramSpec{p + "attproj.b", 1, C, false},
			paramSpec{p + "ln2.w", 1, C, false}, paramSpec{p + "ln2.b", 1, C, false},
			paramSpec{p + "fc.w", 4 * C, C, true}, paramSpec{p + "fc.b", 1, 4 * C, false},
			paramSpec{p + "fcproj.w", C, 4 * C, true}, paramSpec{p + "fcproj.b", 1, C, false})
	}
	s = append(s, paramSpec{"lnf.w", 1, C, false}, paramSpec{"lnf.b", 1, C, false})
	if !cfg.TiedHead {
		s = append(s, paramSpec{"head.w", Vocab, C, true})
	}
	return s
}

// carve splits flat into the tensors of specs, in order.
func carve(cfg Config, flat []float32, specs []paramSpec) paramSet {
	parts := make([][]float32, len(specs))
	off := 0
	for i, s := range specs {
		parts[i] = flat[off : off+s.Rows*s.Cols]
		off += s.Rows * s.Cols
	}
	p := paramSet{wte: parts[0], wpe: parts[1], layers: make([]layerParams, cfg.Layers)}
	for l := range p.layers {
		q := parts[2+12*l:]
		p.layers[l] = layerParams{q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9], q[10], q[11]}
	}
	rest := parts[2+12*cfg.Layers:]
	p.lnfw, p.lnfb = rest[0], rest[1]
	if cfg.TiedHead {
		p.head = p.wte
	} else {
		p.head = rest[2]
	}
	return p
}

// layerActs are one block's saved activations for a (B,T) batch.
type layerActs struct {
	ln1, ln1Mean, ln1Rstd []float32 // (B,T,C), (B,T), (B,T)
	qkv                   []float32 // (B,T,3C)
	atty                  []float32 // (B,T,C)
	att                   []float32 // (B,NH,T,T)
	attproj, res2         []float32 // (B,T,C)
	ln2, ln2Mean, ln2Rstd []float32 // (B,T,C), (B,T), (B,T)
	fch, fchGelu          []float32 // (B,T,4C)
	fcproj, res3          []float32 // (B,T,C)
}

// gpt is the byte-level model: parameters, their gradients, the saved
// activations of the last forward pass and the backward scratch buffers.
type gpt struct {
	cfg    Config
	specs  []paramSpec
	params []float32 // all parameters, flat, in paramSpecs order
	grads  []float32 // same layout
	p, g   paramSet
	lin    *linearEngine
	// spike, when not 0 or 1, multiplies every block's GELU output in the
	// next forward pass: an activation outlier burst (see Trainer.SetSpike).
	spike float32

	tokens, targets []int // (B,T)
	encoded         []float32
	layers          []layerActs
	lnf             []float32 // (B,T,C)
	lnfMean         []float32 // (B,T)
	lnfRstd         []float32 // (B,T)
	logits, probs   []float32 // (B,T,V)

	// backward scratch
	dres, dln, datty, dlnf []float32 // (B,T,C)
	dqkv                   []float32 // (B,T,3C)
	dfch, dfchGelu         []float32 // (B,T,4C)
	dlogits                []float32 // (B,T,V)
	attScratch             []float32 // (B,NH,T)
}

// newModel allocates a model with GPT-2's initialization drawn from seed:
// normal(0, 0.02) matrices, residual projections scaled by 1/√(2L), unit
// norm weights and zero biases. The same seed gives the same weights
// whatever the recipe, so recipes are compared from one starting point.
func newModel(cfg Config, lin *linearEngine, seed uint64) *gpt {
	specs := paramSpecs(cfg)
	n := 0
	for _, s := range specs {
		n += s.Rows * s.Cols
	}
	m := &gpt{cfg: cfg, specs: specs, params: make([]float32, n), grads: make([]float32, n), lin: lin}
	off := 0
	for i, s := range specs {
		t := m.params[off : off+s.Rows*s.Cols]
		off += len(t)
		r := rand.New(rand.NewPCG(seed, uint64(i)))
		switch {
		case s.Matrix:
			std := 0.02
			if strings.HasSuffix(s.Name, "attproj.w") || strings.HasSuffix(s.Name, "fcproj.w") {
				std /= math.Sqrt(2 * float64(cfg.Layers))
			}
			for j := range t {
				t[j] = float32(r.NormFloat64() * std)
			}
		case strings.HasSuffix(s.Name, ".w"): // norm weights
			for j := range t {
				t[j] = 1
			}
		}
	}
	m.p = carve(cfg, m.params, specs)
	m.g = carve(cfg, m.grads, specs)

	B, T, C, NH := cfg.Batch, cfg.Context, cfg.Width, cfg.Heads
	BT := B * T
	f := func(n int) []float32 { return make([]float32, n) }
	m.tokens, m.targets = make([]int, BT), make([]int, BT)
	m.encoded = f(BT * C)
	m.layers = make([]layerActs, cfg.Layers)
	for l := range m.layers {
		m.layers[l] = layerActs{
			ln1: f(BT * C), ln1Mean: f(BT), ln1Rstd: f(BT), qkv: f(BT * 3 * C), atty: f(BT * C),
			att: f(B * NH * T * T), attproj: f(BT * C), res2: f(BT * C),
			ln2: f(BT * C), ln2Mean: f(BT), ln2Rstd: f(BT), fch: f(BT * 4 * C), fchGelu: f(BT * 4 * C),
			fcproj: f(BT * C), res3: f(BT * C),
		}
	}
	m.lnf, m.lnfMean, m.lnfRstd = f(BT*C), f(BT), f(BT)
	m.logits, m.probs = f(BT*Vocab), f(BT*Vocab)
	m.dres, m.dln, m.datty, m.dlnf = f(BT*C), f(BT*C), f(BT*C), f(BT*C)
	m.dqkv, m.dfch, m.dfchGelu = f(BT*3*C), f(BT*4*C), f(BT*4*C)
	m.dlogits, m.attScratch = f(BT*Vocab), f(B*NH*T)
	return m
}

// Linear layer sites: four per block, then the output head.
const (
	siteQKV = iota
	siteAttProj
	siteFC
	siteFCProj
	sitesPerLayer
)

// siteName names a linear layer for the statistics: "h0.qkv", ..., "head".
func siteName(cfg Config, site int) string {
	if site == cfg.Layers*sitesPerLayer {
		return "head"
	}
	return fmt.Sprintf("h%d.%s", site/sitesPerLayer, [...]string{"qkv", "attproj", "fc", "fcproj"}[site%sitesPerLayer])
}

// LinearLayers returns the names of the model's linear layers in order, as
// OperandStats.Layer names them.
func (c Config) LinearLayers() []string {
	out := make([]string, c.Layers*sitesPerLayer+1)
	for i := range out {
		out[i] = siteName(c, i)
	}
	return out
}

// forward runs the model on tokens (B,T) and returns the mean cross-entropy
// against targets (B,T). Both are copied.
func (m *gpt) forward(tokens, targets []int) (float64, error) {
	cfg := m.cfg
	B, T, C, NH := cfg.Batch, cfg.Context, cfg.Width, cfg.Heads
	BT := B * T
	copy(m.tokens, tokens)
	copy(m.targets, targets)
	encoderForward(m.encoded, m.tokens, m.p.wte, m.p.wpe, B, T, C)
	residual := m.encoded
	for l := range m.layers {
		p, a := &m.p.layers[l], &m.layers[l]
		site := l * sitesPerLayer
		layernormForward(a.ln1, a.ln1Mean, a.ln1Rstd, residual, p.ln1w, p.ln1b, BT, C)
		if err := m.lin.forward(site+siteQKV, a.qkv, a.ln1, p.qkvw, p.qkvb, BT, C, 3*C); err != nil {
			return 0, err
		}
		attentionForward(a.atty, a.att, a.qkv, B, T, C, NH)
		if err := m.lin.forward(site+siteAttProj, a.attproj, a.atty, p.attprojw, p.attprojb, BT, C, C); err != nil {
			return 0, err
		}
		residualForward(a.res2, residual, a.attproj)
		layernormForward(a.ln2, a.ln2Mean, a.ln2Rstd, a.res2, p.ln2w, p.ln2b, BT, C)
		if err := m.lin.forward(site+siteFC, a.fch, a.ln2, p.fcw, p.fcb, BT, C, 4*C); err != nil {
			return 0, err
		}
		geluForward(a.fchGelu, a.fch)
		if m.spike != 0 && m.spike != 1 {
			for i := range a.fchGelu {
				a.fchGelu[i] *= m.spike
			}
		}
		if err := m.lin.forward(site+siteFCProj, a.fcproj, a.fchGelu, p.fcprojw, p.fcprojb, BT, 4*C, C); err != nil {
			return 0, err
		}
		residualForward(a.res3, a.res2, a.fcproj)
		residual = a.res3
	}
	layernormForward(m.lnf, m.lnfMean, m.lnfRstd, residual, m.p.lnfw, m.p.lnfb, BT, C)
	if err := m.lin.forward(cfg.Layers*sitesPerLayer, m.logits, m.lnf, m.p.head, nil, BT, C, Vocab); err != nil {
		return 0, err
	}
	return crossEntropyForward(m.probs, m.logits, m.targets, BT, Vocab), nil
}

// backward computes the gradients of the last forward pass's loss into
// m.grads (overwritten).
func (m *gpt) backward() error {
	cfg := m.cfg
	B, T, C, NH := cfg.Batch, cfg.Context, cfg.Width, cfg.Heads
	BT := B * T
	clear(m.grads)
	crossEntropyBackward(m.dlogits, m.probs, m.targets, BT, Vocab)
	if err := m.lin.backward(cfg.Layers*sitesPerLayer, m.dlnf, m.g.head, nil, m.dlogits, m.lnf, m.p.head, BT, C, Vocab); err != nil {
		return err
	}
	last := m.encoded
	if cfg.Layers > 0 {
		last = m.layers[cfg.Layers-1].res3
	}
	clear(m.dres)
	layernormBackward(m.dres, m.g.lnfw, m.g.lnfb, m.dlnf, last, m.p.lnfw, m.lnfMean, m.lnfRstd, BT, C)
	// m.dres holds ∂L/∂(residual stream) as it is walked back block by block.
	for l := cfg.Layers - 1; l >= 0; l-- {
		p, g, a := &m.p.layers[l], &m.g.layers[l], &m.layers[l]
		site := l * sitesPerLayer
		residual := m.encoded
		if l > 0 {
			residual = m.layers[l-1].res3
		}
		// res3 = res2 + fcproj: the same gradient flows into both.
		if err := m.lin.backward(site+siteFCProj, m.dfchGelu, g.fcprojw, g.fcprojb, m.dres, a.fchGelu, p.fcprojw, BT, 4*C, C); err != nil {
			return err
		}
		if m.spike != 0 && m.spike != 1 {
			for i := range m.dfchGelu {
				m.dfchGelu[i] *= m.spike
			}
		}
		clear(m.dfch)
		geluBackward(m.dfch, a.fch, m.dfchGelu)
		if err := m.lin.backward(site+siteFC, m.dln, g.fcw, g.fcb, m.dfch, a.ln2, p.fcw, BT, C, 4*C); err != nil {
			return err
		}
		layernormBackward(m.dres, g.ln2w, g.ln2b, m.dln, a.res2, p.ln2w, a.ln2Mean, a.ln2Rstd, BT, C)
		// res2 = residual + attproj.
		if err := m.lin.backward(site+siteAttProj, m.datty, g.attprojw, g.attprojb, m.dres, a.atty, p.attprojw, BT, C, C); err != nil {
			return err
		}
		clear(m.dqkv)
		attentionBackward(m.dqkv, m.datty, a.qkv, a.att, m.attScratch, B, T, C, NH)
		if err := m.lin.backward(site+siteQKV, m.dln, g.qkvw, g.qkvb, m.dqkv, a.ln1, p.qkvw, BT, C, 3*C); err != nil {
			return err
		}
		layernormBackward(m.dres, g.ln1w, g.ln1b, m.dln, residual, p.ln1w, a.ln1Mean, a.ln1Rstd, BT, C)
	}
	encoderBackward(m.g.wte, m.g.wpe, m.dres, m.tokens, B, T, C)
	return nil
}

// NumParams returns the number of parameters of a configuration.
func (c Config) NumParams() int {
	n := 0
	for _, s := range paramSpecs(c) {
		n += s.Rows * s.Cols
	}
	return n
}
