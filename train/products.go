package train

// ProductShape is the shape of one matrix product of a training step, Y (M×N) = A (M×K) ·
// B (K×N), as a Recipe sees it: a linear layer's forward product, its input
// gradient or its weight gradient.
type ProductShape struct {
	Layer   string // the layer kind: qkv, attproj, fc, fcproj or head
	Pass    string // forward (Y = X·W), dgrad (dX = dY·Wᵀ) or wgrad (dW = Xᵀ·dY)
	M, K, N int
	// Count is how many of these products one step runs (one per block,
	// one for the head).
	Count int
}

// LinearProducts returns the distinct matrix products of one training step
// of c: three per linear layer kind (forward, input gradient, weight
// gradient), with the number of times a step runs each. A GPU benchmark
// runs them to show what FP8 does at the training lab's own sizes.
func (c Config) LinearProducts() []ProductShape {
	T, C := c.TokensPerStep(), c.Width
	layers := []struct {
		name    string
		in, out int
		count   int
	}{
		{"qkv", C, 3 * C, c.Layers}, {"attproj", C, C, c.Layers},
		{"fc", C, 4 * C, c.Layers}, {"fcproj", 4 * C, C, c.Layers},
		{"head", C, Vocab, 1},
	}
	var out []ProductShape
	for _, l := range layers {
		out = append(out,
			ProductShape{Layer: l.name, Pass: "forward", M: T, K: l.in, N: l.out, Count: l.count},
			ProductShape{Layer: l.name, Pass: "dgrad", M: T, K: l.out, N: l.in, Count: l.count},
			ProductShape{Layer: l.name, Pass: "wgrad", M: l.in, K: T, N: l.out, Count: l.count})
	}
	return out
}
