package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/records"
)

// The verdicts, the only words the page uses to judge a claim.
const (
	Agrees      = "agrees"
	Differs     = "differs"
	TooSmall    = "too small to tell"
	NotMeasured = "not measured"
)

// Verdict is the judgement of one claim against the runs.
type Verdict struct {
	Word     string // Agrees, Differs, TooSmall or NotMeasured
	Measured string // the numbers behind it
	Why      string
}

// Claim is a statement of a seed document or paper, quoted as a fact with
// its source, and how the runs test it.
type Claim struct {
	Title, Fact, Source string
	Test                func(s *compare.Summary) Verdict
}

// pct formats a percentage with its sign.
func pct(v float64) string { return fmt.Sprintf("%+.2f%%", v) }

// diffText describes a difference, seed by seed, and its spread.
func diffText(d compare.Difference, what string) string {
	per := make([]string, len(d.PerSeed))
	for i, g := range d.PerSeed {
		per[i] = fmt.Sprintf("%+.2f", g)
	}
	return fmt.Sprintf("%s of %s against %s: %s (seed by seed %s); spread over seeds %.2f points",
		what, d.A, d.B, pct(d.GapPct), strings.Join(per, ", "), d.SpreadPct)
}

// claims are the claims the page sets its measurements beside.
var claims = []Claim{
	{
		Title: "Seed 003: FP8 costs +0.74% perplexity against BF16",
		Fact: "The article's table (\"GPT-Class Model Study: 7B–13B Parameters\", WikiText-103) gives a final " +
			"perplexity of 9.42 for FP32, 9.51 for BF16 and 9.58 for FP8 with E4M3 forward and E5M2 gradients: " +
			"+0.74% against BF16; elsewhere it puts the cost at 0.5–1% perplexity. The table names no paper or " +
			"run it comes from, and the same article gets FP8's ranges wrong (see seeds/README.md): a claim to test.",
		Source: "seeds/003, \"FP8 Training and Inference: Next-Generation Numerical Formats\" (May 21, 2025)",
		Test: func(s *compare.Summary) Verdict {
			d, err := s.Diff("e5m2-grads", "bf16", true)
			if err != nil {
				return Verdict{NotMeasured, "", "needs the recipes e5m2-grads (E4M3 forward, E5M2 gradients) and bf16"}
			}
			v := Verdict{Measured: diffText(d, "perplexity")}
			switch {
			case !d.Resolved():
				v.Word, v.Why = TooSmall, "the gap is no larger than the spread over seeds"
			case d.GapPct > 0 && d.GapPct <= 1:
				v.Word, v.Why = Agrees, "FP8 is worse than BF16, by less than 1%, as claimed"
			case d.GapPct > 1:
				v.Word, v.Why = Differs, "FP8 is worse than BF16 by more than the claimed 0.5–1%"
			default:
				v.Word, v.Why = Differs, "FP8 is better than BF16 here, not worse"
			}
			return v
		},
	},
	{
		Title: "DeepSeek-V3: relative loss error below 0.25% against BF16",
		Fact: "DeepSeek-V3's FP8 recipe (E4M3 everywhere, 1×128 activation tiles, 128×128 weight blocks, " +
			"promotion to float32 every 128 products) kept the training loss within 0.25% (relative) of a BF16 " +
			"baseline, validated on models of about 16B and 230B parameters trained for about 1T tokens.",
		Source: "DeepSeek-AI, \"DeepSeek-V3 Technical Report\", arXiv:2412.19437, §3.3",
		Test: func(s *compare.Summary) Verdict {
			d, err := s.Diff("deepseek", "bf16", false)
			if err != nil {
				return Verdict{NotMeasured, "", "deepseek was not run (see above); " +
					"the next table applies the bound to the recipes that ran"}
			}
			return boundVerdict(d, 0.25)
		},
	},
	{
		Title: "The talk (seed 002): E5M2 gradients worked poorly, full E4M3 is better",
		Fact: "E5M2 was meant for gradients, for their range; in practice it worked poorly, and E4M3 for every " +
			"tensor (with scaling providing the range) trained better.",
		Source: "seeds/002, \"fp8 training from Hopper to Blackwell\" (PyTorch Conference Europe 2026), slide \"Gotchas: Two dtypes: e4m3 vs e5m2\"",
		Test: func(s *compare.Summary) Verdict {
			d, err := s.Diff("e5m2-grads", "tensorwise", false)
			if err != nil {
				return Verdict{NotMeasured, "", "needs the recipes e5m2-grads and tensorwise"}
			}
			v := Verdict{Measured: diffText(d, "validation loss")}
			switch {
			case !d.Resolved():
				v.Word, v.Why = TooSmall, "the gap is no larger than the spread over seeds"
			case d.GapPct > 0:
				v.Word, v.Why = Agrees, "E5M2 gradients end with a higher loss than E4M3 everywhere"
			default:
				v.Word, v.Why = Differs, "E5M2 gradients end with a lower loss than E4M3 everywhere"
			}
			return v
		},
	},
}

// boundVerdict judges a claim that |gap| stays below bound (in %): it holds
// when even the gap plus the spread is below, fails when the gap minus the
// spread is above, and cannot be told otherwise.
func boundVerdict(d compare.Difference, bound float64) Verdict {
	v := Verdict{Measured: diffText(d, "validation loss")}
	g := math.Abs(d.GapPct)
	switch {
	case g+d.SpreadPct < bound:
		v.Word, v.Why = Agrees, fmt.Sprintf("|gap| + spread = %.2f%% is below %.2f%%", g+d.SpreadPct, bound)
	case g-d.SpreadPct > bound:
		v.Word, v.Why = Differs, fmt.Sprintf("|gap| − spread = %.2f%% is above %.2f%%", g-d.SpreadPct, bound)
	default:
		v.Word, v.Why = TooSmall, fmt.Sprintf("the bound %.2f%% lies within gap ± spread", bound)
	}
	return v
}

// pairVerdict compares recipe a with b: better, worse, or within the spread.
func pairVerdict(s *compare.Summary, a, b string) Verdict {
	d, err := s.Diff(a, b, false)
	if err != nil {
		return Verdict{NotMeasured, "", fmt.Sprintf("needs %s and %s", a, b)}
	}
	v := Verdict{Measured: diffText(d, "validation loss")}
	switch {
	case !d.Resolved():
		v.Word, v.Why = TooSmall, "the gap is no larger than the spread over seeds"
	case d.GapPct > 0:
		v.Word, v.Why = "worse", fmt.Sprintf("%s ends with a higher loss than %s", a, b)
	default:
		v.Word, v.Why = "better", fmt.Sprintf("%s ends with a lower loss than %s", a, b)
	}
	return v
}

// fp8Recipes are the recipes whose operands are FP8 (or FP4), for the
// DeepSeek bound.
var fp8Recipes = []string{"tensorwise", "rowwise", "rowwise-gw-hp", "deepseek", "mxfp8", "nvfp4", "e5m2-grads", "fast-accum-bwd", "delayed"}

// Render writes the page for a comparison record and, if not nil, the
// record of the same comparison with an activation spike.
func Render(rec *Record, spike *Record, curves string) (string, error) {
	sum, err := compare.Summarize(&rec.Set, "")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	cfg := rec.Config
	w("# What FP8 does to training: measured\n\n")
	w("<!-- generated by go run ./docs/training (go tool task training-doc): do not edit by hand -->\n\n")
	w("The training lab's byte-level GPT (package train) trained under each recipe from the same initial " +
		"weights and the same batches in the same order for each seed, every quantization done by package " +
		"scaling. The numbers below, and every verdict, are computed from the runs by the generator; " +
		"nothing is typed in by hand.\n\n")
	w("- Command: `%s`\n", rec.Command)
	w("- Configuration: %s, %d blocks of width %d, %d heads, %d bytes of context, %d sequences a step "+
		"(%d parameters); %d steps; seeds %s\n", cfg.Name, cfg.Layers, cfg.Width, cfg.Heads, cfg.Context, cfg.Batch,
		cfg.NumParams(), rec.Steps, seedList(rec.Seeds))
	w("- Corpus: %s\n", rec.Corpus)
	w("- Machine: %s; date %s; all %d runs took %s\n\n", rec.Machine, rec.Date, len(rec.Runs), cost(rec))
	if rec.Stopped {
		w("**This comparison was interrupted: only the runs that finished are counted.**\n\n")
	}

	w("## The table\n\n")
	w("Final validation loss in nats per byte: mean ± sample standard deviation [smallest, largest] over "+
		"the %d seeds; perplexity per byte is exp(loss); the gap is the mean loss against %s's; \"reaches\" is "+
		"the first evaluated step (every %d) at which the mean loss is at most %s's final one; overflow and "+
		"underflow count elements, summed over layers, products, steps and seeds. The last column compares "+
		"each recipe with %s seed by seed: \"%s\" when the gap is no larger than its spread over seeds "+
		"(see below).\n\n",
		len(rec.Seeds), sum.Baseline, cfg.EvalEvery, sum.Baseline, sum.Baseline, TooSmall)
	head := append(compare.Header(sum.Baseline), "against "+sum.Baseline)
	w("| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
	for i := range sum.Rows {
		r := &sum.Rows[i]
		cells := r.Cells()
		verdict := "(baseline)"
		if r.Recipe != sum.Baseline {
			verdict = pairVerdict(sum, r.Recipe, sum.Baseline).Word
		}
		w("| %s | %s |\n", strings.Join(cells, " | "), verdict)
	}
	w("\n![Validation loss over the steps, mean over seeds, one line per recipe](%s)\n\n", curves)

	w("## Not run\n\n")
	ran := map[string]bool{}
	for _, n := range rec.Recipes {
		ran[n] = true
	}
	missing := 0
	for _, n := range train.RecipeNames() {
		if !ran[n] {
			why := rec.NotRun[n]
			if why == "" {
				why = "not chosen for this run"
			}
			w("- %s: %s.\n", n, why)
			missing++
		}
	}
	if missing == 0 {
		w("Every named recipe ran.\n")
	}

	w("\n## The claims beside the measurements\n\n")
	w("Each claim is quoted as a fact with its source; the verdict says whether this small model agrees, " +
		"differs, or is too small to tell. A model of this size, trained for minutes, cannot confirm or refute " +
		"what was measured on billions of parameters; it shows whether the effect is visible at all.\n\n")
	for _, c := range claims {
		v := c.Test(sum)
		w("### %s\n\n> %s\n>\n> — %s\n\n", c.Title, c.Fact, c.Source)
		if v.Word == NotMeasured {
			w("Verdict: **%s**: %s.\n\n", v.Word, v.Why)
			continue
		}
		w("Measured: %s.\n\nVerdict: **%s** (%s).\n\n", v.Measured, v.Word, v.Why)
	}

	w("### The 0.25%% bound applied to the FP8 recipes that ran\n\n")
	w("| recipe | gap to bf16 | spread over seeds (points) | within 0.25%%? |\n| --- | --- | --- | --- |\n")
	for _, n := range fp8Recipes {
		d, err := sum.Diff(n, "bf16", false)
		if err != nil {
			continue
		}
		w("| %s | %s | %.2f | %s |\n", n, pct(d.GapPct), d.SpreadPct, boundVerdict(d, 0.25).Word)
	}

	w("\n## The issue's comparisons\n\n")
	for _, p := range []struct{ title, a, b string }{
		{"E5M2 gradients against E4M3 everywhere", "e5m2-grads", "tensorwise"},
		{"Delayed against current scaling (no spike injected)", "delayed", "tensorwise"},
		{"Stochastic against round-to-nearest BF16 weight updates", "bf16-weights-sr", "bf16-weights-rtn"},
		{"BF16 master weights (round to nearest) against float32 ones", "bf16-weights-rtn", "bf16"},
		{"Fast accumulation in the backward pass against float32 accumulation", "fast-accum-bwd", "tensorwise"},
	} {
		v := pairVerdict(sum, p.a, p.b)
		w("- %s: **%s** — %s", p.title, v.Word, v.Why)
		if v.Word != NotMeasured {
			w(" (%s)", v.Measured)
		}
		w(".\n")
	}

	if spike != nil {
		if err := renderSpike(&b, sum, rec, spike); err != nil {
			return "", err
		}
	}

	w("\n## How the verdicts are computed\n\n")
	w("- Runs of the same seed start from the same weights and see the same batches, so a comparison "+
		"is made seed by seed: the gap of each seed alone (A's final validation loss against B's, in "+
		"percent), and its spread over seeds, the largest of those per-seed gaps minus the smallest (in "+
		"percentage points). A gap (of the means, as in the table) no larger than that spread is \"%s\": "+
		"the seeds disagree by more than the effect. The min/max columns of the table are the "+
		"unpaired spread, which mostly measures how the seed's data and weights move every recipe alike.\n", TooSmall)
	w("- Seed 003's claim (FP8 worse by +0.74%%, \"0.5–1%%\"): it %s when FP8 with E5M2 gradients "+
		"(e5m2-grads) has a higher perplexity than bf16 by at most 1%%, and %s when it is better or worse by more.\n", Agrees, Differs)
	w("- DeepSeek-V3's bound: it %s when |gap| + spread < 0.25%%, %s when |gap| − spread > 0.25%%, "+
		"and is %s in between.\n", Agrees, Differs, TooSmall)
	w("- The talk's claim: it %s when e5m2-grads ends with a higher loss than tensorwise (the same recipe "+
		"with E4M3 gradients), %s when lower.\n\n", Agrees, Differs)

	w("## Regenerating, and the reference configuration\n\n")
	task := "go tool task training-doc"
	if cfg.Name != "classroom" {
		task += " CONFIG=" + cfg.Name
	}
	w("`%s` reruns this comparison and rewrites this page and its curves. Here its %d runs of the %s "+
		"configuration took %s, and the spike runs below took theirs. ", task, len(rec.Runs), cfg.Name, cost(rec))
	ref, refPlan := train.Reference(), plans["reference"]
	if cfg.Name == "reference" {
		w("The reference configuration (%d blocks of width %d, %d sequences of %d bytes a step, %d recipes × "+
			"3 seeds × %d steps) is sized for a 60-minute budget on a 2-core machine: see train.Reference for the "+
			"step times it was sized by; a machine shared with other work, as the load above says, takes longer "+
			"than the CPU time divided by its cores. The classroom configuration's page is [training.md](training.md).",
			ref.Layers, ref.Width, ref.Batch, ref.Context, len(strings.Split(refPlan.recipes, ",")), refPlan.steps)
	} else {
		w("`go tool task training-doc CONFIG=reference` runs the reference configuration (%d blocks of width %d, "+
			"%d sequences of %d bytes a step, %d recipes × 3 seeds × %d steps, sized for a 60-minute budget on a "+
			"2-core machine: see train.Reference for the step times it was sized by); its page is "+
			"[training-reference.md](training-reference.md).",
			ref.Layers, ref.Width, ref.Batch, ref.Context, len(strings.Split(refPlan.recipes, ",")), refPlan.steps)
	}
	runsPath, spikePath := filepath.ToSlash(records.Path(cfg.Name, "runs")), filepath.ToSlash(records.Path(cfg.Name, "spike"))
	w(" The runs behind the page are kept as gzipped JSON (`fp8lab train --compare -o`) in [%s](../%s/), "+
		"where the playground's Training scene also reads the reference runs (Runs: reference), and "+
		"`go run ./docs/training -config %s -runs %s -spike-runs %s` "+
		"rewrites the page from them without training again.\n", records.Dir, records.Dir, cfg.Name, runsPath, spikePath)
	return b.String(), nil
}

func seedList(seeds []uint64) string {
	s := make([]string, len(seeds))
	for i, v := range seeds {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

// renderSpike writes the spike experiment: the spiked comparison's table,
// delayed against current scaling under the spike, and what the spike cost
// each recipe against its run without one (the same seeds and batches).
func renderSpike(b *strings.Builder, plain *compare.Summary, rec, spike *Record) error {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	sum, err := compare.Summarize(&spike.Set, "")
	if err != nil {
		return err
	}
	sp := spike.Spike
	if sp == nil {
		return fmt.Errorf("the spike record has no spike")
	}
	w("\n## Delayed against current scaling, with an activation spike\n\n")
	w("The same training with every block's GELU output (the input of its MLP projection) multiplied by "+
		"%g during step %d, as a burst of outlier activations would be. Delayed scaling meets it with a scale "+
		"from the amax history of earlier steps, current scaling with the spike's own amax.\n\n", sp.Factor, sp.Step)
	w("- Command: `%s`\n- Machine: %s; date %s; %s\n\n", spike.Command, spike.Machine, spike.Date, cost(spike))
	head := compare.Header(sum.Baseline)
	w("| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
	for i := range sum.Rows {
		w("| %s |\n", strings.Join(sum.Rows[i].Cells(), " | "))
	}
	v := pairVerdict(sum, "delayed", "tensorwise")
	w("\n- Under the spike, delayed against current (tensorwise) scaling: **%s** — %s", v.Word, v.Why)
	if v.Word != NotMeasured {
		w(" (%s)", v.Measured)
	}
	w(".\n")
	for _, r := range sum.Rows {
		p := plain.Row(r.Recipe)
		if p == nil || p.Finals == nil || r.Finals == nil || !slices.Equal(rec.Seeds, spike.Seeds) ||
			rec.Steps != spike.Steps || rec.Config != spike.Config {
			continue // not the same runs but for the spike
		}
		d := compare.Gap(r.Finals, p.Finals, false, r.Recipe+" with the spike", r.Recipe+" without")
		word := TooSmall
		switch {
		case d.Resolved() && d.GapPct > 0:
			word = "worse"
		case d.Resolved():
			word = "better"
		}
		w("- What the spike did to %s: **%s** (%s; overflow %d and underflow %d elements against %d and %d without).\n",
			r.Recipe, word, diffText(d, "validation loss"), r.Overflow, r.Underflow, p.Overflow, p.Underflow)
	}
	return nil
}

// cost says how long a comparison took: its wall time, and where the record
// has them its CPU time and the machine's load averages around it, since a
// shared machine's wall time says as much about the load as about the runs.
func cost(rec *Record) string {
	s := fmt.Sprintf("%.0f s of wall time", rec.Seconds)
	if rec.CPUSeconds > 0 {
		s += fmt.Sprintf(" (%.0f s of CPU time)", rec.CPUSeconds)
	}
	if rec.Load != "" {
		s += "; load average " + rec.Load
	}
	return s
}
