package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/infile"
	"github.com/fp8lab/fp8lab/internal/outfile"
	"github.com/fp8lab/fp8lab/internal/safetext"
	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
)

func init() {
	commands["train"] = command{"train the byte-level GPT under an FP8 recipe, or --compare recipes over seeds", runTrain}
}

// interruptContext is the context a training command stops on: Ctrl-C.
// Tests replace it.
var interruptContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// trainFlags are the flags of fp8lab train.
type trainFlags struct {
	recipe, recipeFile, config, configFile, corpus, out, png, compare string
	steps, seeds, workers, evalEvery, corpusBytes                     int
	seed                                                              uint64
	asJSON, progress                                                  bool
	spike                                                             string          // --spike STEP:FACTOR[:LEN]
	spikeAt                                                           compare.Spike   // parsed by check
	checkpoint, checkpointDType                                       string          // --checkpoint FILE, its dtype
	given                                                             map[string]bool // the flags given on the command line
}

const trainSynopsis = "--recipe NAME|--recipe-file r.json --steps N [--seed S] [--config NAME|--config-file c.json] [--corpus FILE] [--spike STEP:FACTOR[:LEN]] [--json] [-o run.json]\n" +
	"       fp8lab train --compare NAME|r.json,... [NAME|r.json ...] [--seeds 3] [--steps N] [--config ...] [--png curves.png] [-o runs.json]"

// defaultSteps is the length of a run when neither --steps nor the
// configuration says it.
const defaultSteps = 200

func runTrain(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("train", trainSynopsis, stderr)
	var f trainFlags
	fs.StringVar(&f.recipe, "recipe", "", "a built-in recipe: "+strings.Join(train.RecipeNames(), ", "))
	fs.StringVar(&f.recipeFile, "recipe-file", "", "a recipe as JSON (the fields of train.Recipe)")
	fs.StringVar(&f.compare, "compare", "", "compare these recipes (comma-separated, or followed by more): built-in names, or recipe files (a path with a / or ending in .json)")
	fs.IntVar(&f.steps, "steps", defaultSteps, fmt.Sprintf("training steps of each run (1..%d; default: the config's steps, else %d)", compare.MaxSteps, defaultSteps))
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the initial weights and the data order (compare: the first seed)")
	fs.IntVar(&f.seeds, "seeds", 3, fmt.Sprintf("compare: seeds per recipe, seed, seed+1, ... (1..%d)", compare.MaxSeeds))
	fs.StringVar(&f.config, "config", "classroom", "model and schedule: "+strings.Join(train.ConfigNames(), ", "))
	fs.StringVar(&f.configFile, "config-file", "", "model and schedule as JSON (the fields of train.Config: layers, width, heads, context, batch, optim.lr, steps, ...)")
	fs.StringVar(&f.corpus, "corpus", "", "train on this text file (default: the Go distribution's own source)")
	fs.IntVar(&f.corpusBytes, "corpus-bytes", 2<<20, "bytes of Go source to read when no --corpus is given")
	fs.IntVar(&f.evalEvery, "eval-every", 0, "steps between validation losses (0: the config's)")
	fs.IntVar(&f.workers, "workers", min(runtime.GOMAXPROCS(0), maxWorkers()), "compare: runs trained at once (results do not depend on it)")
	fs.BoolVar(&f.asJSON, "json", false, "print the run (or runs) as JSON instead of a table")
	fs.StringVar(&f.out, "o", "", "also write the run (or runs) as JSON to this file ('-' for stdout)")
	fs.StringVar(&f.png, "png", "", "compare: draw the mean validation-loss curves to this PNG")
	fs.StringVar(&f.spike, "spike", "", "inject an activation spike: STEP:FACTOR[:LEN] multiplies every block's GELU output for LEN steps (default 1) from STEP (e.g. 200:1000, 200:1000:5)")
	fs.BoolVar(&f.progress, "progress", false, "show the progress line on stderr even when it is not a terminal")
	fs.StringVar(&f.checkpoint, "checkpoint", "", "save the weights at the end of the run to this safetensors file (fp8lab scan reads it)")
	fs.StringVar(&f.checkpointDType, "checkpoint-dtype", train.CheckpointF32, "dtype of --checkpoint: F32 (exact) or BF16")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	f.given = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.given[fl.Name] = true })
	cfg, err := f.loadConfig()
	if err != nil {
		return err
	}
	if !f.given["steps"] && cfg.Steps > 0 {
		f.steps = cfg.Steps
	}
	if err := f.check(pos); err != nil {
		return err
	}
	for _, name := range []string{f.out, f.png, f.checkpoint} {
		if name != "" {
			if err := outfile.Check(name); err != nil {
				return err
			}
		}
	}
	if f.evalEvery > 0 {
		cfg.EvalEvery = f.evalEvery
	}
	ctx, stop := interruptContext()
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills at once
	}()
	if f.compare != "" || len(pos) > 0 {
		return runCompare(ctx, &f, append(splitNames(f.compare), pos...), cfg, args, stdout, stderr)
	}
	r, err := f.loadRecipe()
	if err != nil {
		return err
	}
	data, err := f.loadCorpus()
	if err != nil {
		return err
	}
	pr := newProgress(stderr, f.progress, 1, f.steps, cfg.TokensPerStep())
	var save func(*train.Trainer) error
	if f.checkpoint != "" {
		save = func(tr *train.Trainer) error {
			var b bytes.Buffer
			if err := tr.SaveCheckpoint(&b, f.checkpointDType); err != nil {
				return err
			}
			return outfile.WriteFile(f.checkpoint, b.Bytes())
		}
	}
	res, stopped, err := compare.RunCheckpoint(ctx, cfg, r, f.seed, f.steps, data, f.spikeAt, pr.step, save)
	pr.done()
	if err != nil && (res == nil || res.Diverged == nil) {
		return err
	}
	rec := newRunRecord(res, stopped)
	if f.spikeAt != (compare.Spike{}) {
		rec.Spike = &f.spikeAt
	}
	if err := f.emit(stdout, rec, func(w io.Writer) error { return rec.writeText(w) }); err != nil {
		return err
	}
	if stopped {
		return fmt.Errorf("interrupted after %d of %d steps (the run so far is above)", res.Steps, f.steps)
	}
	if d := res.Diverged; d != nil {
		return fmt.Errorf("stopped by an Inf or a NaN at step %d of %d (the run so far is above): %w", d.Step, f.steps, err)
	}
	return nil
}

// check reports flag combinations that make no sense, as usage errors.
func (f *trainFlags) check(pos []string) error {
	comparing := f.compare != "" || len(pos) > 0
	switch {
	case f.steps < 1:
		return cmdline.Usagef("--steps %d: want at least 1", f.steps)
	case f.steps > compare.MaxSteps:
		return cmdline.Usagef("--steps %d: at most %d steps", f.steps, compare.MaxSteps)
	case f.evalEvery < 0:
		return cmdline.Usagef("--eval-every %d: want 0 or more", f.evalEvery)
	case comparing && (f.recipe != "" || f.recipeFile != ""):
		return cmdline.Usagef("give --compare or --recipe/--recipe-file, not both")
	case comparing && (f.seeds < 1 || f.seeds > compare.MaxSeeds):
		return cmdline.Usagef("--seeds %d: want 1..%d", f.seeds, compare.MaxSeeds)
	case f.workers < 1 || f.workers > maxWorkers():
		return cmdline.Usagef("--workers %d: want 1..%d (%d per core)", f.workers, maxWorkers(), workersPerCore)
	case comparing && f.checkpoint != "":
		return cmdline.Usagef("--checkpoint saves a single run (--recipe), not a --compare")
	case f.checkpointDType != train.CheckpointF32 && f.checkpointDType != train.CheckpointBF16:
		return cmdline.Usagef("--checkpoint-dtype %q: want %s or %s", f.checkpointDType, train.CheckpointF32, train.CheckpointBF16)
	case !comparing && f.png != "":
		return cmdline.Usagef("--png draws the curves of --compare")
	case !comparing && f.recipe == "" && f.recipeFile == "":
		return cmdline.Usagef("give --recipe NAME, --recipe-file r.json or --compare NAME,...")
	case f.recipe != "" && f.recipeFile != "":
		return cmdline.Usagef("give --recipe or --recipe-file, not both")
	case f.corpusBytes < minCorpusBytes || int64(f.corpusBytes) > infile.Corpus.Max:
		return cmdline.Usagef("--corpus-bytes %d: want %d..%d", f.corpusBytes, minCorpusBytes, infile.Corpus.Max)
	}
	if err := distinctOutputs(map[string]string{"-o": f.out, "--png": f.png, "--checkpoint": f.checkpoint}); err != nil {
		return err
	}
	if f.spike != "" {
		sp, err := parseSpike(f.spike)
		if err != nil {
			return cmdline.Usagef("--spike %q: want STEP:FACTOR or STEP:FACTOR:LEN, such as 200:1000 or 200:1000:5", f.spike)
		}
		f.spikeAt = sp
		if err := f.spikeAt.Check(f.steps); err != nil {
			return cmdline.Usagef("--spike %q: want its steps within 1..%d and a positive finite factor", f.spike, f.steps)
		}
	}
	return nil
}

// workersPerCore bounds --workers: each worker trains a run of its own
// (its model, optimizer and batch in memory), so more workers than a few
// per core only add memory (--workers 10000000 ran out of it).
const workersPerCore = 4

func maxWorkers() int { return workersPerCore * runtime.NumCPU() }

// minCorpusBytes is the smallest --corpus-bytes: about one Go file in ten
// goes to validation, so a few files' worth is needed for both parts.
const minCorpusBytes = 64 << 10

// distinctOutputs refuses two flags that name the same output file (-o X
// --checkpoint X wrote the run's JSON over the checkpoint): the same path,
// or two names of one existing file (a link, a hard link).
func distinctOutputs(flags map[string]string) error {
	names := make([]string, 0, len(flags))
	for flag, name := range flags {
		if name != "" && name != outfile.Stdout {
			names = append(names, flag)
		}
	}
	sort.Strings(names)
	for i, a := range names {
		for _, b := range names[i+1:] {
			pa, pb := flags[a], flags[b]
			same := filepath.Clean(pa) == filepath.Clean(pb)
			if sa, err := os.Stat(pa); err == nil {
				if sb, err := os.Stat(pb); err == nil && os.SameFile(sa, sb) {
					same = true
				}
			}
			if same {
				return cmdline.Usagef("%s %s and %s %s name the same file: give each its own", a, pa, b, pb)
			}
		}
	}
	return nil
}

// parseSpike parses STEP:FACTOR[:LEN].
func parseSpike(s string) (compare.Spike, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return compare.Spike{}, fmt.Errorf("want 2 or 3 fields")
	}
	st, err := strconv.Atoi(parts[0])
	if err != nil {
		return compare.Spike{}, err
	}
	fa, err := strconv.ParseFloat(parts[1], 32)
	if err != nil {
		return compare.Spike{}, err
	}
	sp := compare.Spike{Step: st, Factor: float32(fa)}
	if len(parts) == 3 {
		if sp.Len, err = strconv.Atoi(parts[2]); err != nil {
			return compare.Spike{}, err
		}
		if sp.Len < 1 {
			return compare.Spike{}, fmt.Errorf("length %d", sp.Len)
		}
	}
	return sp, nil
}

// spikeWhen says when a spike strikes: "at step 200", "in steps 200 to 204".
func spikeWhen(sp compare.Spike) string {
	if sp.Steps() > 1 {
		return fmt.Sprintf("in steps %d to %d", sp.Step, sp.Step+sp.Steps()-1)
	}
	return fmt.Sprintf("at step %d", sp.Step)
}

// loadConfig returns the configuration of --config or --config-file.
func (f *trainFlags) loadConfig() (train.Config, error) {
	if f.configFile == "" {
		cfg, err := train.ConfigByName(f.config)
		if err != nil {
			return train.Config{}, cmdline.Usagef("%v", err)
		}
		return cfg, nil
	}
	if f.given["config"] {
		return train.Config{}, cmdline.Usagef("give --config or --config-file, not both")
	}
	data, err := infile.ReadFile(f.configFile, infile.ModelConfig)
	if err != nil {
		return train.Config{}, err
	}
	cfg, err := train.ParseConfig(bytes.NewReader(data))
	if err != nil {
		return train.Config{}, fmt.Errorf("%s: %w", f.configFile, err)
	}
	if cfg.Name == "" {
		cfg.Name = strings.TrimSuffix(filepath.Base(f.configFile), ".json")
	}
	return cfg, nil
}

func splitNames(s string) []string {
	var out []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// loadRecipe returns the recipe of --recipe or --recipe-file.
func (f *trainFlags) loadRecipe() (*train.Recipe, error) {
	if f.recipe != "" {
		r, err := train.RecipeByName(f.recipe)
		if err != nil {
			return nil, cmdline.Usagef("%v", err)
		}
		return r, nil
	}
	return readRecipeFile(f.recipeFile)
}

// isRecipeFile reports whether a --compare entry names a recipe file
// rather than a built-in recipe: a path with a slash, or a .json name.
func isRecipeFile(s string) bool {
	return strings.ContainsRune(s, '/') || strings.ContainsRune(s, filepath.Separator) || strings.HasSuffix(strings.ToLower(s), ".json")
}

// recipeArg returns the recipe a --compare entry names: a built-in one or
// a recipe file.
func recipeArg(s string) (*train.Recipe, error) {
	if isRecipeFile(s) {
		return readRecipeFile(s)
	}
	r, err := train.RecipeByName(s)
	if err != nil {
		return nil, cmdline.Usagef("%v (a recipe file needs a / in its path or a .json name)", err)
	}
	return r, nil
}

// readRecipeFile reads a recipe file (at most 1 MiB); a recipe without a
// name takes the file's, without .json.
func readRecipeFile(path string) (*train.Recipe, error) {
	data, err := infile.ReadFile(path, infile.Recipe)
	if err != nil {
		return nil, err
	}
	r, err := train.ParseRecipe(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Name == "" {
		r.Name = strings.TrimSuffix(filepath.Base(path), ".json")
	}
	return r, nil
}

// loadCorpus reads --corpus, or the Go source.
func (f *trainFlags) loadCorpus() (*train.Corpus, error) {
	if f.corpus != "" {
		return train.ReadTextCorpus(f.corpus)
	}
	return train.GoSourceCorpus(cmdline.GoRoot(), f.corpusBytes)
}

// emit prints v as JSON (--json) or with text, and writes it as JSON to -o.
func (f *trainFlags) emit(stdout io.Writer, v any, text func(io.Writer) error) error {
	var js bytes.Buffer
	if err := cmdline.WriteJSON(&js, v); err != nil {
		return err
	}
	if f.out != "" {
		if err := outfile.Write(f.out, stdout, js.Bytes()); err != nil {
			return err
		}
		if f.out == outfile.Stdout {
			return nil
		}
	}
	if f.asJSON {
		_, err := stdout.Write(js.Bytes())
		return err
	}
	return text(stdout)
}

// runRecord is what fp8lab train prints and writes for one run: the
// train.Result and a digest of it.
type runRecord struct {
	*train.Result
	Stopped bool           `json:"stopped,omitempty"`
	Spike   *compare.Spike `json:"spike,omitempty"`
	// FinalTrain is the mean training loss of the last (up to) 10 steps.
	FinalTrain float64 `json:"final_train_loss"`
	FinalVal   float64 `json:"final_val_loss"`
	Perplexity float64 `json:"val_perplexity"` // exp(FinalVal), per byte
	// Totals are the operand statistics summed over the run.
	Totals []train.OperandStats `json:"operand_totals"`
}

func newRunRecord(res *train.Result, stopped bool) *runRecord {
	rec := &runRecord{Result: res, Stopped: stopped, FinalVal: res.FinalVal(), Totals: compare.OperandTotals(res)}
	rec.Perplexity = math.Exp(rec.FinalVal)
	if n := min(len(res.TrainLoss), 10); n > 0 {
		for _, l := range res.TrainLoss[len(res.TrainLoss)-n:] {
			rec.FinalTrain += l
		}
		rec.FinalTrain /= float64(n)
	} else {
		rec.FinalTrain = math.NaN()
	}
	return rec
}

// MarshalJSON writes NaN as null (a run stopped before its first step has
// no training loss).
func (r *runRecord) MarshalJSON() ([]byte, error) {
	type plain runRecord
	if math.IsNaN(r.FinalTrain) {
		c := *r
		c.FinalTrain = 0
		return json.Marshal((*plain)(&c))
	}
	return json.Marshal((*plain)(r))
}

func (r *runRecord) writeText(w io.Writer) error {
	var b strings.Builder
	// The recipe's name and the corpus's path may come from files: shown
	// escaped, they cannot act on the terminal.
	fmt.Fprintf(&b, "recipe %s, config %s (%d parameters), seed %d, %d steps (%.1f s)\n",
		safetext.Text(r.Recipe.Name), r.Config.Name, r.Config.NumParams(), r.Seed, r.Steps, r.Seconds)
	fmt.Fprintf(&b, "corpus: %s\n", safetext.Text(r.Corpus))
	if sp := r.Spike; sp != nil {
		fmt.Fprintf(&b, "activation spike: every block's GELU output × %g %s\n", sp.Factor, spikeWhen(*sp))
	}
	if r.Stopped {
		b.WriteString("stopped early: these are the numbers of the run so far\n")
	}
	if d := r.Diverged; d != nil {
		fmt.Fprintf(&b, "stopped at step %d by an Inf or a NaN: these are the numbers of the run so far\n", d.Step)
	}
	fmt.Fprintf(&b, "train loss      %.4f nats/byte (mean of the last %d steps)\n", r.FinalTrain, min(len(r.TrainLoss), 10))
	fmt.Fprintf(&b, "validation loss %.4f nats/byte at step %d\n", r.FinalVal, r.Val[len(r.Val)-1].Step)
	fmt.Fprintf(&b, "perplexity      %.3f per byte\n", r.Perplexity)
	var over, under int64
	for _, o := range r.Totals {
		over += o.Overflow
		under += o.Underflow
	}
	if len(r.Totals) == 0 {
		b.WriteString("no operand was quantized (float32 recipe)\n")
	} else {
		fmt.Fprintf(&b, "\noverflow %d, underflow %d in all; by layer, product and operand:\n", over, under)
		fmt.Fprintf(&b, "%-10s %-12s %-12s %12s %10s %10s %14s\n", "layer", "product", "operand", "amax", "overflow", "underflow", "elements")
		for _, o := range r.Totals {
			fmt.Fprintf(&b, "%-10s %-12s %-12s %12.4g %10d %10d %14d\n", o.Layer, o.Product, o.Operand, o.Amax, o.Overflow, o.Underflow, o.Elements)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// progress draws one line on stderr, rewritten in place: step, loss,
// tokens per second and the time left. It draws only on a terminal, or
// when forced, and at most five times a second.
type progress struct {
	w         io.Writer
	on        bool
	runs      int // runs in all
	steps     int // steps per run
	tokens    int // tokens per step
	start     time.Time
	last      time.Time
	doneSteps int // steps done over all runs
	drawn     bool
}

func newProgress(w io.Writer, force bool, runs, steps, tokens int) *progress {
	return &progress{w: w, on: force || isTerminal(w), runs: runs, steps: steps, tokens: tokens, start: time.Now()}
}

func (p *progress) step(s compare.Step) {
	p.doneSteps++
	if !p.on {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond && p.doneSteps < p.runs*p.steps {
		return
	}
	p.last = now
	el := now.Sub(p.start).Seconds()
	rate := float64(p.doneSteps*p.tokens) / el
	eta := time.Duration(float64(p.runs*p.steps-p.doneSteps) * el / float64(p.doneSteps) * float64(time.Second)).Round(time.Second)
	who := ""
	if p.runs > 1 {
		who = fmt.Sprintf("%s seed %d, %d/%d steps in all, ", s.Recipe, s.Seed, p.doneSteps, p.runs*p.steps)
	}
	fmt.Fprintf(p.w, "\r%sstep %d/%d  loss %.4f  %s tok/s  ETA %s   ", who, s.Step, s.Steps, s.Loss,
		strconv.FormatFloat(rate, 'f', 0, 64), eta)
	p.drawn = true
}

// done ends the progress line.
func (p *progress) done() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
