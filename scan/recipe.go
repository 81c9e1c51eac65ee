// Package scan answers "what will FP8 do to my model's tensors": it reads
// every tensor of a checkpoint (through tensorio, one tensor at a time) and
// reports, per tensor, its range and outliers, and, per tensor × recipe ×
// element format, what quantizing it would cost: the range of scale_inv,
// the share of values clipped, flushed to zero and landing on subnormals,
// the MSE and the SQNR of the whole tensor, of its worst row and of its
// worst block. The statistics follow Transformer Engine's debug features
// (LogFp8TensorStats: underflows %, overflows %, scale_inv min/max, MSE),
// computed offline for every recipe at once.
//
// A checkpoint's tensors are weights: a 2-D tensor is read with its last
// dimension (the input features of a PyTorch Linear, the contraction
// dimension K) along the rows, so "rowwise" is one scale per output
// channel and the 1×32, 1×16 blocks of MX and NVFP4 run along K. Tensors
// of more dimensions fold their leading dimensions into rows; 1-D tensors
// are one row.
package scan

import (
	"fmt"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// Recipe is one way to quantize a weight tensor, named as the training lab
// (package train) names its recipes.
type Recipe struct {
	// Name is "tensorwise", "rowwise", "deepseek", "mxfp8" or "nvfp4", with
	// "-hadamard" appended for the rotated variants.
	Name string `json:"name"`
	// Granularity is how scales are shared.
	Granularity scaling.Granularity `json:"granularity"`
	// Format, when set, is the only element format of the recipe (NVFP4's
	// E2M1); otherwise the recipe runs once per scanned format.
	Format *fp8.Format `json:"-"`
	// Hadamard is the block of a random Hadamard rotation applied along
	// each row before quantization (0: none). Rows whose length it does not
	// divide use the largest power of two that does (at least 2).
	Hadamard int `json:"hadamard,omitempty"`
}

// HadamardSeed seeds the random signs of the Hadamard variants, so that a
// scan is reproducible.
const HadamardSeed = 0x5CA7

// The recipes, in report order. deepseek is DeepSeek-V3's weight recipe
// (128×128 blocks; its 1×128 tiles are for activations, which a checkpoint
// does not hold). The Hadamard block is 16 for nvfp4, as Transformer
// Engine's NVFP4 recipe rotates, and 128 for the others (the tile of the
// 128-wide recipes; a common choice in rotation-based FP8/FP4 work).
var recipes = []Recipe{
	{Name: "tensorwise", Granularity: scaling.PerTensor},
	{Name: "rowwise", Granularity: scaling.PerRow},
	{Name: "deepseek", Granularity: scaling.Block128},
	{Name: "mxfp8", Granularity: scaling.MX},
	{Name: "nvfp4", Granularity: scaling.NVFP4, Format: fp8.E2M1},
}

// Recipes returns every recipe: the five plain ones, then their Hadamard
// variants.
func Recipes() []Recipe {
	out := append([]Recipe(nil), recipes...)
	for _, r := range recipes {
		h := r
		h.Name += "-hadamard"
		h.Hadamard = 128
		if r.Granularity.Kind == scaling.KindNVFP4 {
			h.Hadamard = 16
		}
		out = append(out, h)
	}
	return out
}

// DefaultRecipes returns the five recipes without rotation.
func DefaultRecipes() []Recipe { return append([]Recipe(nil), recipes...) }

// ParseRecipes parses a comma-separated list of recipe names, or "all";
// the empty string gives DefaultRecipes.
func ParseRecipes(s string) ([]Recipe, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "":
		return DefaultRecipes(), nil
	case "all":
		return Recipes(), nil
	}
	all := Recipes()
	var out []Recipe
	seen := map[string]bool{}
	for _, name := range strings.Split(s, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		found := false
		for _, r := range all {
			if r.Name == name {
				if !seen[name] {
					out = append(out, r)
				}
				seen[name], found = true, true
			}
		}
		if !found {
			names := make([]string, len(all))
			for i, r := range all {
				names[i] = r.Name
			}
			return nil, fmt.Errorf("scan: unknown recipe %q (known: %s, all)", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// ParseFormats parses a comma-separated list of element formats (fp8
// preset names); the empty string gives E4M3FN alone.
func ParseFormats(s string) ([]*fp8.Format, error) {
	if strings.TrimSpace(s) == "" {
		return []*fp8.Format{fp8.E4M3FN}, nil
	}
	var out []*fp8.Format
	for _, name := range strings.Split(s, ",") {
		f, err := fp8.Lookup(name)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// DefaultMinSQNR is the worst-block SQNR (dB, 1×32 blocks) below which
// a tensor is reported as needing to stay in BF16: 15 dB, a noise power of
// 3% of the block's signal (a relative RMS error of 18%). On well-behaved
// (Gaussian) weights the worst block of a 64×128 tensor measures about
// 28 dB under the E4M3 recipes with float32 scales, 22 dB under mxfp8 (its
// power-of-two scales) and 17 dB under nvfp4 (E2M1), as this package's
// tests show; 15 dB sits below the coarsest recipe's own floor, so a
// flagged tensor is one the recipe handles clearly worse than benign data
// (values flushed to zero or left with a bit or two), not one that merely
// meets a 4-bit format's limits. BF16 itself gives about 50 dB. Raise it
// (--min-sqnr 25) to hold the 8-bit recipes to a stricter bar.
const DefaultMinSQNR = 15.0
