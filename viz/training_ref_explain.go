package viz

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/viz/claim"
)

// refFacts are the facts of shipped runs (the reference comparison or a
// lesson's): where they come from, each recipe's final validation loss
// over the seeds, its gap to the baseline judged by compare.Judge (the
// rule of docs/training.md and fp8lab train --compare), which seeds an Inf
// or a NaN stopped, and the inspected recipe's layers; for a lesson, its
// title, the talk's words and the sentence of what its runs show.
func (s *trainingScene) refFacts(st trainingState) map[string]string {
	v, rec := s.ref, s.ref.rec
	cfg := rec.Config
	f := map[string]string{
		"runs":            s.ps.str("runs"),
		"config":          cfg.Name,
		"model":           describeConfig(cfg),
		"parameters":      strconv.Itoa(cfg.NumParams()),
		"tokens_per_step": strconv.Itoa(cfg.TokensPerStep()),
		"corpus":          rec.Corpus,
		"status":          st.status,
		"steps":           strconv.Itoa(rec.Steps),
		"steps_done":      strconv.Itoa(st.done),
		"compare_step":    strconv.Itoa(rec.Steps),
		"seeds":           v.seedText(),
		"seed_count":      strconv.Itoa(len(rec.Seeds)),
		"command":         rec.Command,
		"machine":         rec.Machine,
		"date":            rec.Date,
		"recipes":         strconv.Itoa(len(st.curves)),
		"operand":         s.ps.str("operand"),
		"baseline":        v.sum.Baseline,
		"stats_every":     strconv.Itoa(st.every),
	}
	if rec.Stopped {
		f["stopped"] = "true"
	}
	best := -1
	for i, c := range st.curves {
		k := strconv.Itoa(i + 1)
		f["recipe_"+k], f["seeds_"+k] = c.recipe, strconv.Itoa(len(v.finals[i]))
		f["initial_val_loss_"+k] = shown(c.val[0].Loss)
		under, amax, _, _, _ := operandTotals(c, s.ps.str("operand"))
		f["underflow_"+k], f["amax_"+k] = shown(under), shown(amax)
		if c.err != nil {
			f["stopped_"+k] = c.err.Error()
		}
		if len(v.finals[i]) == 0 {
			continue // no finished run: no final loss
		}
		last := c.val[len(c.val)-1].Loss
		r := st.ranges[i][len(st.ranges[i])-1]
		f["val_loss_"+k], f["val_lo_"+k], f["val_hi_"+k] = shown(last), shown(r.lo), shown(r.hi)
		if best < 0 || last < st.curves[best].val[len(st.curves[best].val)-1].Loss {
			best = i
		}
		if c.recipe == v.sum.Baseline {
			continue
		}
		if d, err := v.sum.Diff(c.recipe, v.sum.Baseline, compare.ValLoss); err == nil {
			verdict := compare.Judge(d)
			f["gap_pct_"+k], f["gap_spread_"+k] = shown(d.GapPct), shown(d.SpreadPct)
			f["gap_verdict_"+k] = verdict.Outcome.String()
		}
	}
	if row := v.sum.Row(v.sum.Baseline); row != nil && row.Seeds > 0 {
		f["baseline_val"] = shown(row.ValMean)
	}
	if best >= 0 {
		b := st.curves[best]
		f["lowest"], f["lowest_val"] = b.recipe, shown(b.val[len(b.val)-1].Loss)
	}
	if l := v.lesson; l != nil {
		f["lesson"], f["lesson_title"] = l.Name, l.Title
		f["lesson_number"] = strconv.Itoa(lessonNumber(l.Name))
		f["quote"] = "“" + strings.Join(l.Quotes, "” … “") + "”"
		if sentence, err := l.Sentence(rec); err == nil {
			f["shows"] = sentence
		} else {
			f["shows_error"] = err.Error()
		}
	}
	s.inspectFacts(f, st)
	return f
}

// signedPct writes a gap in percent with its sign.
func signedPct(v float64) string { return fmt.Sprintf("%+.3g%%", v) }

// refExplain explains the shipped reference runs from their facts.
func refExplain(f facts) claim.Explanation {
	var e claim.Explanation
	names := recipeNames(f)
	e.Add(shippedTakeaway(f))
	p := claim.Sprintf("The reference runs, shipped with the program: a byte-level GPT of the %s configuration (%s, %s parameters, "+
		"%s bytes a step) trained for %s steps under %s, from %s %s (the runs of one seed share their initial weights and batches), "+
		"on %s. They were made on %s at %s by: %s. Running go tool task training-doc CONFIG=reference makes them again.",
		f["config"], f["model"], f["parameters"], f["tokens_per_step"], f["steps"], joinAnd(names),
		seedsClaim(f), f["seeds"], f["corpus"], f["machine"], f["date"], f["command"])
	if f["stopped"] == "true" {
		p = claim.Sprintf("%s The comparison was interrupted: only the runs that finished are shown.", p)
	}
	e.Add(p)
	shippedDetails(&e, f)
	return e
}

// seedsClaim counts the seeds of shipped runs.
func seedsClaim(f facts) claim.Count {
	return claim.Count{Key: "training.seeds", N: f.int("seed_count"), One: "seed", Many: "seeds"}
}

// shippedTakeaway is the first sentence of shipped runs: every recipe's
// verdict against the baseline, or (with nothing to judge) the lowest.
func shippedTakeaway(f facts) claim.Phrase {
	var parts []claim.Phrase
	for k := 1; k <= f.int("recipes"); k++ {
		kk := strconv.Itoa(k)
		if r := f["recipe_"+kk]; r != f["baseline"] && f["gap_verdict_"+kk] != "" {
			parts = append(parts, claim.Sprintf("%s %s", r, verdictIs(f, kk, r)))
		}
	}
	if len(parts) > 0 {
		return claim.Sprintf("Against %s over %s, %s.", f["baseline"], seedsClaim(f), claim.JoinAnd(parts))
	}
	if _, ok := f["lowest"]; ok {
		return claim.Sprintf("At step %s %s has the lowest mean validation loss, %s nats per byte.",
			f["steps"], claim.Is{Key: "training.lowest", Value: f["lowest"]}, f.r("lowest_val"))
	}
	return claim.Sprintf("No run of %s finished.", joinAnd(recipeNames(f)))
}

// verdictIs is recipe r's verdict against the baseline (compare.Judge).
func verdictIs(f facts, k, r string) claim.Is {
	words := map[string]string{
		compare.Worse.String():    "is worse",
		compare.Better.String():   "is better",
		compare.NoEffect.String(): "shows no measurable effect",
	}
	v := f["gap_verdict_"+k]
	w, ok := words[v]
	if !ok {
		w = "is " + v
	}
	return claim.Is{Key: "training.verdict." + r, Value: v, Words: w}
}

// shippedDetails adds what shipped runs (reference or lesson) show beyond
// their first sentences: the curves, the lowest loss, the verdicts with
// their numbers, and the maps.
func shippedDetails(e *claim.Explanation, f facts) {
	e.Add(claim.Lit(shippedCurvesText(f)))
	if p, ok := lowestText(f); ok {
		e.Add(p)
	}
	if p, ok := gapsText(f); ok {
		e.Add(p)
	}
	seeds := f.int("seed_count")
	if p, ok := mapsText(f, f.int("stats_every"), fmt.Sprintf("its %s'", plural(seeds, "seed", "seeds")), "its largest amax over the seeds"); ok {
		e.Add(p)
	}
}

// recipeNames lists the recipes of the facts, in order.
func recipeNames(f facts) []string {
	var names []string
	for i := 1; i <= f.int("recipes"); i++ {
		names = append(names, f["recipe_"+strconv.Itoa(i)])
	}
	return names
}

// shippedCurvesText says what the curves and the gap panel of shipped
// runs are.
func shippedCurvesText(f facts) string {
	return fmt.Sprintf("The marks are the mean validation loss over the seeds, each bar runs from the lowest seed's to the highest's; "+
		"the thin lines are the mean training loss of each step's batch, averaged over %d steps. Beside them, zoomed, each recipe's "+
		"validation loss against %s's in percent, seed paired with seed (the runs of one seed share their weights and batches): "+
		"the mark is the mean of the seeds' gaps, the bar runs from the lowest seed's gap to the highest's.", trainingSmooth, f["baseline"])
}

// lowestText names the recipe with the lowest mean final validation loss
// and the others' losses; false when no recipe finished.
func lowestText(f facts) (claim.Phrase, bool) {
	if _, ok := f["lowest"]; !ok {
		return claim.Phrase{}, false
	}
	var others []string
	ki := ""
	for k := 1; k <= f.int("recipes"); k++ {
		kk := strconv.Itoa(k)
		r := f["recipe_"+kk]
		switch {
		case r == f["lowest"]:
			ki = kk
		case f["val_loss_"+kk] != "":
			others = append(others, fmt.Sprintf("%s %s (%s to %s)", r, f.r("val_loss_"+kk), f.r("val_lo_"+kk), f.r("val_hi_"+kk)))
		}
	}
	p := claim.Sprintf("At step %s %s has the lowest mean validation loss, %s nats per byte (its seeds %s to %s)",
		f["steps"], claim.Is{Key: "training.lowest", Value: f["lowest"]}, f.r("lowest_val"), f.r("val_lo_"+ki), f.r("val_hi_"+ki))
	if len(others) > 0 {
		p = claim.Sprintf("%s; %s", p, strings.Join(others, ", "))
	}
	return claim.Sprintf("%s.", p), true
}

// gapsText judges every recipe against the baseline with the verdicts of
// the facts (compare.Judge), and says which an Inf or a NaN stopped;
// false when there is nothing to judge.
func gapsText(f facts) (claim.Phrase, bool) {
	var gaps []claim.Phrase
	var stopped []string
	for k := 1; k <= f.int("recipes"); k++ {
		kk := strconv.Itoa(k)
		r := f["recipe_"+kk]
		if why, ok := f["stopped_"+kk]; ok {
			stopped = append(stopped, r+": "+why)
		}
		if r == f["baseline"] {
			continue
		}
		if _, ok := f["gap_pct_"+kk]; !ok {
			gaps = append(gaps, claim.Sprintf("%s did not finish on every seed, so it is not judged", r))
			continue
		}
		g := claim.Sprintf("%s is %s (per seed the gaps span %s percentage points): ", r,
			claim.Quantity{Key: "training.gap." + r, V: f.num("gap_pct_" + kk), Show: signedPct},
			claim.Quantity{Key: "training.spread." + r, V: f.num("gap_spread_" + kk), Show: sig4})
		v := verdictIs(f, kk, r)
		switch v.Value {
		case compare.Worse.String():
			v.Words = fmt.Sprintf("worse, a higher loss on every seed, beyond that spread and the %.1f%% this lab calls an effect", compare.MinEffectPct)
		case compare.Better.String():
			v.Words = fmt.Sprintf("better, a lower loss on every seed, beyond that spread and the %.1f%% this lab calls an effect", compare.MinEffectPct)
		default:
			v.Words = "no measurable effect at this size"
		}
		gaps = append(gaps, claim.Sprintf("%s%s", g, v))
	}
	var parts []claim.Phrase
	if len(gaps) > 0 {
		base := f["baseline"]
		if _, ok := f["baseline_val"]; ok {
			base += " (" + f.r("baseline_val") + ")"
		}
		parts = append(parts, claim.Sprintf("Against the mean final loss of %s, seed by seed: %s.", base, claim.Join(gaps, "; ")))
	}
	if len(stopped) > 0 {
		parts = append(parts, claim.Lit("Stopped: "+strings.Join(stopped, "; ")+"."))
	}
	return claim.Join(parts, " "), len(parts) > 0
}
