package train

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLinearProductsCountAStepsFLOPs(t *testing.T) {
	for _, cfg := range []Config{Tiny(), Classroom(), Reference()} {
		ps := cfg.LinearProducts()
		assert.Len(t, ps, 15, cfg.Name)
		flops := 0
		for _, p := range ps {
			flops += 2 * p.M * p.K * p.N * p.Count
		}
		// Forward and both backward products: 3 × 2 flops per weight per token.
		C, L, BT := cfg.Width, cfg.Layers, cfg.TokensPerStep()
		assert.Equal(t, 6*(12*C*C*L+C*Vocab)*BT, flops, cfg.Name)
	}
	r := Reference().LinearProducts()
	// The MLP input layer's weight gradient: 64×256 weights, contracted over
	// the step's 8 sequences × 64 bytes, once per block.
	assert.Equal(t, ProductShape{Layer: "fc", Pass: "wgrad", M: 64, K: 512, N: 256, Count: 4}, r[8])
}
