package train

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

	// Steps is the length of run the configuration is meant for, which
	// fp8lab train takes when --steps is not given; 0 leaves it to the
	// command (200 steps).
	Steps int `json:"steps,omitempty"`
}

// MaxConfigSide bounds each of a configuration's sizes (layers, width,
// heads, context, batch): a model far beyond it could not be trained on a
// CPU, and sizes multiplied together must not overflow.
const MaxConfigSide = 1 << 16

// Vocab is the vocabulary size: tokens are bytes.
const Vocab = 256

// TokensPerStep returns B·T.
func (c Config) TokensPerStep() int { return c.Batch * c.Context }

// Check reports a configuration the model cannot be built from.
func (c Config) Check() error {
	switch {
	case c.Layers < 1, c.Width < 1, c.Heads < 1, c.Context < 1, c.Batch < 1:
		return fmt.Errorf("train: config %q: layers, width, heads, context and batch must be positive", c.Name)
	case c.Layers > MaxConfigSide, c.Width > MaxConfigSide, c.Heads > MaxConfigSide, c.Context > MaxConfigSide, c.Batch > MaxConfigSide:
		return fmt.Errorf("train: config %q: layers, width, heads, context and batch must be at most %d", c.Name, MaxConfigSide)
	case int64(c.Batch)*int64(c.Context)*int64(max(4*c.Width, Vocab)) > 1<<31,
		int64(c.Batch)*int64(c.Heads)*int64(c.Context)*int64(c.Context) > 1<<31,
		int64(c.Layers)*int64(c.Width)*int64(c.Width)*12 > 1<<31:
		return fmt.Errorf("train: config %q: %d blocks of width %d over %d sequences of %d bytes is too large to train here",
			c.Name, c.Layers, c.Width, c.Batch, c.Context)
	case c.Steps < 0:
		return fmt.Errorf("train: config %q: negative steps", c.Name)
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

// LongK is the classroom model trained on long batches, so that the
// weight gradient dW = Xᵀ·dY sums over K = 64 sequences × 64 bytes = 4096
// tokens: the length at which BENCHMARKS.md measured the H100's fast
// accumulation (and scaling.FastAccumulator, calibrated on it) losing 7%
// of a growing sum. One block keeps its steps affordable; the lesson on
// fast accumulation (docs/training-lessons.md) trains it.
func LongK() Config {
	return Config{
		Name: "long-k", Layers: 1, Width: 32, Heads: 2, Context: 64, Batch: 64,
		TiedHead: true, Optim: defaultOptim(3e-3, 20), EvalEvery: 25, EvalBatches: 2, Steps: 200,
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
	"long-k":    LongK,
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

// ParseConfig reads a configuration from JSON, the fields of Config:
//
//	{"name": "wide", "layers": 2, "width": 64, "heads": 4, "context": 32,
//	 "batch": 8, "tied_head": true, "optim": {"lr": 0.003, "warmup": 20},
//	 "eval_every": 25, "eval_batches": 4, "steps": 400}
//
// The sizes and the learning rate must be given; optimizer fields left out
// take the named configurations' values (min_lr 0.1, weight_decay 0.1,
// beta1 0.9, beta2 0.95, eps 1e-8, clip_norm 1; warmup 0), eval_every 0
// evaluates only at the end. Unknown fields, trailing data and a
// configuration the model cannot be built from are errors that say where
// the problem is.
func ParseConfig(rd io.Reader) (Config, error) {
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	c := Config{Optim: defaultOptim(0, 0)}
	if err := dec.Decode(&c); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return Config{}, fmt.Errorf("train: config JSON, byte %d: %w", se.Offset, err)
		}
		return Config{}, fmt.Errorf("train: config JSON: %w", err)
	}
	if dec.More() {
		return Config{}, errors.New("train: config JSON: data after the config object")
	}
	if !(c.Optim.LR > 0) {
		return Config{}, fmt.Errorf("train: config %q: optim.lr must be a positive learning rate", c.Name)
	}
	if err := c.Check(); err != nil {
		return Config{}, err
	}
	return c, nil
}
