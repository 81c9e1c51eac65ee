package train

import (
	"fmt"
	"sort"
	"strings"
)

// Config is the shape of the model and the schedule of its optimizer.
type Config struct {
	Name     string `json:"name"`
	Layers   int    `json:"layers"`    // transformer blocks
	Width    int    `json:"width"`     // C, the channel count
	Heads    int    `json:"heads"`     // NH; Width must be a multiple
	Context  int    `json:"context"`   // T, tokens per sequence
	Batch    int    `json:"batch"`     // B, sequences per step
	TiedHead bool   `json:"tied_head"` // the output head reuses the token embedding

	Optim OptimConfig `json:"optim"`

	// EvalEvery is the number of steps between validation losses (0: only
	// at the end); EvalBatches is how many fixed batches each one averages.
	EvalEvery   int `json:"eval_every"`
	EvalBatches int `json:"eval_batches"`
}

// Vocab is the vocabulary size: tokens are bytes.
const Vocab = 256

// TokensPerStep returns B·T.
func (c Config) TokensPerStep() int { return c.Batch * c.Context }

// Check reports a configuration the model cannot be built from.
func (c Config) Check() error {
	switch {
	case c.Layers < 1, c.Width < 1, c.Heads < 1, c.Context < 1, c.Batch < 1:
		return fmt.Errorf("train: config %q: layers, width, heads, context and batch must be positive", c.Name)
	case c.Width%c.Heads != 0:
		return fmt.Errorf("train: config %q: width %d is not a multiple of heads %d", c.Name, c.Width, c.Heads)
	case c.EvalEvery < 0, c.EvalBatches < 0:
		return fmt.Errorf("train: config %q: negative eval settings", c.Name)
	}
	return c.Optim.Check()
}

// Classroom is small enough to train live in a browser tab: 2 blocks of
// width 32 over 32 bytes of context, 8 sequences (256 tokens) a step, 34,688
// parameters. A float32 step measured about 20 ms of CPU time natively (on
// the loaded 2-core development machine); WebAssembly runs on one thread
// and slower, but even at 100 ms a step the playground's three recipes ×
// 300 steps fit in its 3-minute budget. Its validation loss falls from
// 5.53 to about 3.1 nats/byte in 200 steps.
func Classroom() Config {
	return Config{
		Name: "classroom", Layers: 2, Width: 32, Heads: 2, Context: 32, Batch: 8,
		TiedHead: true, Optim: defaultOptim(3e-3, 20), EvalEvery: 25, EvalBatches: 4,
	}
}

// Reference is the configuration of the measured comparison: 4 blocks of
// width 64, 4 heads, 64 bytes of context, 8 sequences (512 tokens) a step,
// 220,544 parameters. It is sized for issue 16's budget, every named recipe
// × 3 seeds in 60 minutes on the 2-core development VM: there (2026-11-22,
// load 1.5, 10 steps each) a float32 step took 0.11 s and one step of each
// of the 13 named recipes 2.07 s together (deepseek 0.31 s, fast-accum-bwd
// 0.25 s, nvfp4 0.22 s, the rest 0.11–0.18 s), so 3 seeds × 300 steps come
// to about 31 minutes, and the delayed-scaling spike runs to about 6 more.
// With 16 sequences a step each step cost about 2.5× as much (float32 0.20
// s, deepseek 0.59 s) and the comparison did not fit. 300 steps take
// float32's validation loss well past the fast early drop: in a 500-step
// float32 run it fell from 5.49 to 3.09 by step 100, 2.98 by step 150, and
// only to 2.77 by step 500.
func Reference() Config {
	return Config{
		Name: "reference", Layers: 4, Width: 64, Heads: 4, Context: 64, Batch: 8,
		TiedHead: true, Optim: defaultOptim(2e-3, 50), EvalEvery: 50, EvalBatches: 8,
	}
}

// Tiny is for tests: 1 block of width 8, 2 heads, 8 tokens of context.
func Tiny() Config {
	return Config{
		Name: "tiny", Layers: 1, Width: 8, Heads: 2, Context: 8, Batch: 2,
		Optim: defaultOptim(1e-2, 2), EvalEvery: 5, EvalBatches: 1,
	}
}

var configs = map[string]func() Config{
	"classroom": Classroom,
	"reference": Reference,
	"tiny":      Tiny,
}

// ConfigNames returns the names of the named configurations, sorted.
func ConfigNames() []string {
	names := make([]string, 0, len(configs))
	for n := range configs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ConfigByName returns a named configuration.
func ConfigByName(name string) (Config, error) {
	f, ok := configs[strings.ToLower(name)]
	if !ok {
		return Config{}, fmt.Errorf("train: unknown config %q (known: %s)", name, strings.Join(ConfigNames(), ", "))
	}
	return f(), nil
}
