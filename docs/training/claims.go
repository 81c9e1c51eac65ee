package main

import (
	"fmt"
	"strings"

	"github.com/fp8lab/fp8lab/train/compare"
)

// The words the page uses to set a claim beside the runs. A bound or a
// finding measured on models of billions of parameters is never "agreed
// with" by a model of thousands: the runs are at most consistent with it.
const (
	NotComparable = "not comparable"
	Consistent    = "consistent, at a scale that cannot test it"
	Beyond        = "beyond the bound here"
	CannotTell    = "cannot tell"
	SameWay       = "the same direction"
	OtherWay      = "the opposite direction"
	NoEffect      = "no measurable effect"
	NotMeasured   = "not measured"
)

// Verdict is the judgement of one claim against the runs.
type Verdict struct {
	Word     string // one of the words above
	Measured string // the numbers behind it
	Why      string // one sentence, computed from the numbers
}

// Claim is a statement of a seed document or paper with its source, and
// how the runs test it.
type Claim struct {
	Title, Source string
	// Quotes are the source's own words, verbatim (a table row's cells
	// joined by " | "; TestQuotesAreVerbatim checks them against the
	// seeds). Fact says the rest, or the whole claim when there is no
	// quote, and then starts "(paraphrase)".
	Quotes []string
	Fact   string
	Test   func(s *compare.Summary) Verdict
}

// labScale says why the lab's runs cannot test a claim made at scale.
const labScale = "a model of tens or hundreds of thousands of parameters trained for minutes"

// claims are the claims the page sets its measurements beside.
var claims = []Claim{
	{
		Title:  "Seed 003: FP8 costs +0.74% perplexity against BF16",
		Quotes: []string{"Final Perplexity (WikiText-103) | 9.42 | 9.51 | 9.58 | +0.74%"},
		Fact: "The row of the article's table \"GPT-Class Model Study: 7B–13B Parameters\" (columns FP32, BF16, " +
			"FP8 E4M3/E5M2, difference FP8 against BF16), which names no paper or run it comes from; the same " +
			"article gets FP8's ranges wrong (see seeds/README.md). WikiText-103 perplexity is conventionally " +
			"reported per word of English text.",
		Source: "seeds/003, \"FP8 Training and Inference: Next-Generation Numerical Formats\" (May 21, 2025)",
		Test: func(s *compare.Summary) Verdict {
			d, err := s.Diff("e5m2-grads", "bf16", compare.ValLoss)
			if err != nil {
				return Verdict{NotMeasured, "", "it needs the recipes e5m2-grads (E4M3 forward, E5M2 gradients) and bf16"}
			}
			v := compare.Judge(d)
			return Verdict{NotComparable, v.Measured(), "its +0.74% is per word of English at 7B–13B parameters, this " +
				"lab's loss is per byte of Go source: a word of k bytes raises a per-byte perplexity ratio to the k-th " +
				"power, and the corpora differ, so the two percentages do not measure the same thing. What this lab " +
				"measures for the same recipe (E4M3 forward, E5M2 gradients) against bf16 is " + v.Outcome.String() + ": " + v.Sentence()}
		},
	},
	{
		Title: "DeepSeek-V3: relative loss error below 0.25% against BF16",
		Fact: "(paraphrase) DeepSeek-V3's FP8 recipe (E4M3 everywhere, 1×128 activation tiles, 128×128 weight " +
			"blocks, promotion to float32 every 128 products) kept the relative error of its training loss below " +
			"0.25% of a BF16 baseline's, validated on models of about 16B and 230B parameters trained for about 1T tokens.",
		Source: "DeepSeek-AI, \"DeepSeek-V3 Technical Report\", arXiv:2412.19437, §3.3",
		Test: func(s *compare.Summary) Verdict {
			d, err := s.Diff("deepseek", "bf16", compare.TrainLoss)
			if err != nil {
				return Verdict{NotMeasured, "", "deepseek was not run (see above); " +
					"the next table applies the bound to the recipes that ran"}
			}
			return boundVerdict(d, deepSeekBound)
		},
	},
	{
		Title: "The talk (seed 002): E5M2 gradients worked poorly, full E4M3 is better",
		Quotes: []string{"The intention was to use e5m2 for gradients, as they need wider range",
			"However, this worked poorly, and empirically we're better off with full e4m3"},
		Source: "seeds/002, \"fp8 training from Hopper to Blackwell\" (PyTorch Conference Europe 2026), slide \"Gotchas: Two dtypes: e4m3 vs e5m2\"",
		Test: func(s *compare.Summary) Verdict {
			d, err := s.Diff("e5m2-grads", "tensorwise", compare.ValLoss)
			if err != nil {
				return Verdict{NotMeasured, "", "it needs the recipes e5m2-grads and tensorwise"}
			}
			v := compare.Judge(d)
			out := Verdict{Measured: v.Measured(), Why: v.Sentence()}
			switch v.Outcome {
			case compare.Worse:
				out.Word = SameWay
			case compare.Better:
				out.Word = OtherWay
			default:
				out.Word = NoEffect
			}
			out.Why += "; the talk's finding comes from models far larger than " + labScale
			return out
		},
	},
}

// deepSeekBound is DeepSeek-V3's bound on the relative loss error, in percent.
const deepSeekBound = 0.25

// boundVerdict judges a claim that |gap| stays below bound (in percent)
// with compare.JudgeBound, on the training loss as the bound is stated.
func boundVerdict(d compare.Difference, bound float64) Verdict {
	b := compare.JudgeBound(d, bound)
	v := Verdict{Measured: b.Measured(), Why: b.Sentence(labScale)}
	switch b.Outcome {
	case compare.Consistent:
		v.Word = Consistent
	case compare.Beyond:
		v.Word = Beyond
	default:
		v.Word = CannotTell
	}
	return v
}

// pairVerdict judges recipe a against b on the validation loss with the
// rule of compare.Judge.
func pairVerdict(s *compare.Summary, a, b string) (compare.Verdict, error) {
	d, err := s.Diff(a, b, compare.ValLoss)
	if err != nil {
		return compare.Verdict{}, fmt.Errorf("needs %s and %s measured on every seed", a, b)
	}
	return compare.Judge(d), nil
}

// fp8Recipes are the recipes whose operands are FP8 (or FP4), for the
// DeepSeek bound.
var fp8Recipes = []string{"tensorwise", "rowwise", "rowwise-gw-hp", "deepseek", "mxfp8", "nvfp4", "e5m2-grads", "fast-accum-bwd", "delayed"}

// pct formats a percentage with its sign.
func pct(v float64) string { return fmt.Sprintf("%+.2f%%", v) }

// writeTable writes the comparison table with a last column judging each
// recipe against the baseline (compare.Judge).
func writeTable(b *strings.Builder, sum *compare.Summary) {
	head := append(compare.Header(sum.Baseline), "against "+sum.Baseline)
	fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
	for i := range sum.Rows {
		r := &sum.Rows[i]
		fmt.Fprintf(b, "| %s | %s |\n", strings.Join(r.Cells(), " | "), sum.VerdictCell(r.Recipe))
	}
}

// writeClaim writes one claim: its quotes or paraphrase, its source, what
// was measured and the verdict.
func writeClaim(b *strings.Builder, c Claim, sum *compare.Summary) {
	fmt.Fprintf(b, "### %s\n\n", c.Title)
	for _, q := range c.Quotes {
		fmt.Fprintf(b, "> “%s”\n>\n", q)
	}
	if c.Fact != "" {
		fmt.Fprintf(b, "> %s\n>\n", c.Fact)
	}
	fmt.Fprintf(b, "> — %s\n\n", c.Source)
	v := c.Test(sum)
	if v.Word == NotMeasured {
		fmt.Fprintf(b, "Verdict: **%s**: %s.\n\n", v.Word, v.Why)
		return
	}
	fmt.Fprintf(b, "Measured: %s.\n\nVerdict: **%s**: %s.\n\n", v.Measured, v.Word, v.Why)
}

// writePair writes one comparison of recipe a with b as a list item.
func writePair(b *strings.Builder, title string, sum *compare.Summary, a, c string) {
	v, err := pairVerdict(sum, a, c)
	if err != nil {
		fmt.Fprintf(b, "- %s: **%s** — it %s.\n", title, NotMeasured, err)
		return
	}
	fmt.Fprintf(b, "- %s: **%s** — %s (%s).\n", title, v.Outcome, v.Sentence(), v.Measured())
}

// writeRule says how every verdict of the page is computed.
func writeRule(b *strings.Builder) {
	fmt.Fprintf(b, "\n## How the verdicts are computed\n\n")
	fmt.Fprintf(b, "One rule, compare.Judge in train/compare, judges every comparison here, in `fp8lab train --compare` "+
		"and in the playground's Training scene:\n\n")
	fmt.Fprintf(b, "- Runs of the same seed start from the same weights and see the same batches, so a comparison is made "+
		"seed by seed: the gap of each seed alone (A's final validation loss against B's, in percent), and its spread, "+
		"the largest of those per-seed gaps minus the smallest (in percentage points). The min/max columns of the "+
		"table are the unpaired spread, which mostly measures how the seed's data and weights move every recipe alike.\n")
	fmt.Fprintf(b, "- A recipe is \"%s\" or \"%s\" than another only when the gap (of the means, as in the table) is at "+
		"least %.1f%% and larger than its spread over at least %d seeds (which puts every seed's gap on the same "+
		"side); otherwise it is \"%s\". One seed is never judged: it has no spread.\n",
		compare.Better, compare.Worse, compare.MinEffectPct, compare.MinSeeds, compare.NoEffect)
	fmt.Fprintf(b, "- A published bound on |gap| (DeepSeek-V3's 0.25%%) is \"%s\" when |gap| + spread stays below "+
		"it, \"%s\" when the gap is an effect and |gap| − spread exceeds it, and \"%s\" in between.\n",
		Consistent, Beyond, CannotTell)
	fmt.Fprintf(b, "- A claim stated in another unit than this lab measures (seed 003's per-word WikiText perplexity) is "+
		"\"%s\": the page says why, and what the lab measures instead.\n\n", NotComparable)
}
