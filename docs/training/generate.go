// Command training regenerates docs/training.md (and, with -lessons,
// docs/training-lessons.md: see generateLessons): it runs `fp8lab train
// --compare` (the recipes × seeds of the classroom configuration by
// default), draws the curves to docs/training/curves.png, and writes the
// measured table beside the claims of the seed documents and papers, with a
// verdict for each that is computed from the numbers: a difference no
// larger than the spread over seeds is "too small to tell". Run it from the
// repository root:
//
//	go run ./docs/training [-config reference] [-runs runs.json]
//
// The comparison records are kept, gzipped, as train/records/CONFIG-runs.json.gz
// and CONFIG-spike.json.gz (the playground embeds the reference ones from
// there). With -runs it writes the page from an existing `fp8lab train
// --compare -o` file, plain or gzipped (whose curves PNG that command
// drew), instead of training again.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/outfile"
	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/records"
)

// The runs of each configuration: the recipes that fit its time budget on
// the 2-core machine, the steps that take the float32 loss past the fast
// early drop, and where its page and curves go (relative to the
// repository root; the curves relative to docs/ in the page), so that the
// reference run never overwrites the classroom page.
var plans = map[string]struct {
	recipes string
	steps   int
	page    string
	curves  string
}{
	"classroom": {"fp32,bf16,tensorwise,rowwise,rowwise-gw-hp,deepseek,mxfp8,nvfp4,e5m2-grads,fast-accum-bwd,delayed,bf16-weights-rtn,bf16-weights-sr", 400,
		"docs/training.md", "training/curves.png"},
	"reference": {"fp32,bf16,tensorwise,rowwise,rowwise-gw-hp,deepseek,mxfp8,nvfp4,e5m2-grads,fast-accum-bwd,delayed,bf16-weights-rtn,bf16-weights-sr", 300,
		"docs/training-reference.md", "training/curves-reference.png"},
}

// The spike experiment: delayed against current scaling when every block's
// GELU output is multiplied by spikeFactor halfway through the run.
const (
	spikeRecipes = "bf16,tensorwise,delayed"
	spikeFactor  = 100
)

func main() {
	config := flag.String("config", "classroom", "classroom or reference")
	seeds := flag.Int("seeds", 3, "seeds per recipe")
	runs := flag.String("runs", "", "write the page from this `fp8lab train --compare -o` file instead of training")
	spikeRuns := flag.String("spike-runs", "", "with -runs: the spike comparison's file (none: the page leaves it out)")
	out := flag.String("o", "", "the page to write (default: docs/training.md, or docs/training-reference.md for -config reference)")
	doLessons := flag.Bool("lessons", false, "run the lessons (train/lessons) and write docs/training-lessons.md instead")
	fromRecords := flag.Bool("from-records", false, "with -lessons: write the page from the records kept in train/records, without training")
	only := flag.String("lesson", "", "with -lessons: train only this lesson (the others' kept records fill the page)")
	flag.Parse()
	if *doLessons {
		if err := generateLessons(*fromRecords, *only); err != nil {
			fmt.Fprintln(os.Stderr, "training:", err)
			os.Exit(1)
		}
		return
	}
	if err := generate(*config, *seeds, *runs, *spikeRuns, *out); err != nil {
		fmt.Fprintln(os.Stderr, "training:", err)
		os.Exit(1)
	}
}

func generate(config string, seeds int, runs, spikeRuns, out string) error {
	plan, ok := plans[config]
	if !ok {
		return fmt.Errorf("unknown config %q (classroom or reference)", config)
	}
	if out == "" {
		out = filepath.FromSlash(plan.page)
	}
	curvesPNG := filepath.Join("docs", filepath.FromSlash(plan.curves))
	if runs == "" {
		bin, tmp, err := buildFP8Lab()
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		// The runs are kept in train/records, gzipped, so that the page
		// can be rewritten from them (-runs), anyone can check its
		// numbers, and the playground can show them.
		plain, plainSpike := filepath.Join(tmp, "runs.json"), filepath.Join(tmp, "spike.json")
		common := []string{"--seeds", fmt.Sprint(seeds), "--steps", fmt.Sprint(plan.steps), "--config", config, "--progress"}
		if err := command(bin, append([]string{"train", "--compare", plan.recipes, "--png", curvesPNG, "-o", plain}, common...)...); err != nil {
			return err
		}
		if err := command(bin, append([]string{"train", "--compare", spikeRecipes,
			"--spike", fmt.Sprintf("%d:%d", plan.steps/2, spikeFactor), "-o", plainSpike}, common...)...); err != nil {
			return err
		}
		runs, spikeRuns = records.Path(config, "runs"), records.Path(config, "spike")
		if err := keep(plain, runs); err != nil {
			return err
		}
		if err := keep(plainSpike, spikeRuns); err != nil {
			return err
		}
	}
	rec, err := load(runs)
	if err != nil {
		return err
	}
	var spike *Record
	if spikeRuns != "" {
		if spike, err = load(spikeRuns); err != nil {
			return err
		}
	}
	if rec.NotRun, err = timeSlow(rec); err != nil {
		return err
	}
	page, err := Render(rec, spike, plan.curves)
	if err != nil {
		return err
	}
	if err := outfile.WriteFile(out, []byte(page)); err != nil {
		return err
	}
	fmt.Println("wrote", out)
	return nil
}

// buildFP8Lab builds the fp8lab command into a new temporary folder,
// which the caller removes, and returns its path and the folder's.
func buildFP8Lab() (bin, tmp string, err error) {
	if tmp, err = os.MkdirTemp("", "fp8lab-training"); err != nil {
		return "", "", err
	}
	bin = filepath.Join(tmp, "fp8lab")
	if err := command("go", "build", "-o", bin, "./cmd/fp8lab"); err != nil {
		os.RemoveAll(tmp)
		return "", "", fmt.Errorf("build fp8lab (run from the repository root): %w", err)
	}
	return bin, tmp, nil
}

// keep writes the record file src, gzipped, to dst.
func keep(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	z, err := records.Compress(b)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	return outfile.WriteFile(dst, z)
}

// load reads an `fp8lab train --compare -o` file, plain or gzipped.
func load(path string) (*Record, error) {
	rec, err := records.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &Record{Record: *rec}, nil
}

func command(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}

// Record is an `fp8lab train --compare -o` file and what the generator
// adds for the page.
type Record struct {
	records.Record
	// NotRun says why a named recipe that is missing was left out (the
	// generator fills it; a recipe not in it was just not chosen).
	NotRun map[string]string
}

// slowRecipes emulate fast accumulation product by product
// (scaling.ScaledMatMul); the generator times them when they are left out.
var slowRecipes = []string{"deepseek", "fast-accum-bwd"}

// timeSlow measures a step of each slow recipe that the record lacks
// against a float32 step (timedSteps steps of the record's configuration,
// one after another on this machine) and says why it was left out.
func timeSlow(rec *Record) (map[string]string, error) {
	const timedSteps = 20
	ran := map[string]bool{}
	for _, n := range rec.Recipes {
		ran[n] = true
	}
	data, err := train.GoSourceCorpus(cmdline.GoRoot(), 1<<20)
	if err != nil {
		return nil, err
	}
	perStep := func(name string) (float64, error) {
		r, err := train.RecipeByName(name)
		if err != nil {
			return 0, err
		}
		cfg := rec.Config
		cfg.EvalEvery = 0
		start := time.Now()
		if _, err := train.Run(cfg, r, 1, timedSteps, data); err != nil {
			return 0, err
		}
		return time.Since(start).Seconds() / timedSteps, nil
	}
	reasons := map[string]string{}
	var base float64
	for _, n := range slowRecipes {
		if ran[n] {
			continue
		}
		if base == 0 {
			if base, err = perStep("fp32"); err != nil {
				return nil, err
			}
		}
		t, err := perStep(n)
		if err != nil {
			return nil, err
		}
		reasons[n] = fmt.Sprintf("it emulates fast accumulation product by product (scaling.ScaledMatMul): "+
			"a step took %.0f ms against float32's %.0f ms (%.0f×; %d steps each, timed by the generator), so its "+
			"%d seeds × %d steps would add about %.0f minutes of CPU time to a comparison meant to fit in 10 minutes "+
			"on 2 cores", 1000*t, 1000*base, t/base, timedSteps, len(rec.Seeds), rec.Steps,
			t*float64(len(rec.Seeds)*rec.Steps)/60)
	}
	return reasons, nil
}
