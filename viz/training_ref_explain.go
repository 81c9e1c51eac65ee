package viz

import (
	"fmt"
	"strconv"
	"strings"
)

// refFacts are the facts of the shipped reference runs: where they come
// from, each chosen recipe's final validation loss over the seeds, its gap
// to the baseline against the spread of that gap over the seeds
// (compare.Summary.Diff, the rule of docs/training.md), and the inspected
// recipe's layers.
func (s *trainingScene) refFacts(st trainingState) map[string]string {
	v, rec := s.ref, s.ref.rec
	cfg := rec.Config
	f := map[string]string{
		"runs":            runsReference,
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
		last := c.val[len(c.val)-1].Loss
		r := st.ranges[i][len(st.ranges[i])-1]
		f["recipe_"+k], f["seeds_"+k] = c.recipe, strconv.Itoa(len(v.finals[i]))
		f["initial_val_loss_"+k] = shown(c.val[0].Loss)
		f["val_loss_"+k], f["val_lo_"+k], f["val_hi_"+k] = shown(last), shown(r.lo), shown(r.hi)
		if best < 0 || last < st.curves[best].val[len(st.curves[best].val)-1].Loss {
			best = i
		}
		under, amax, _, _, _ := operandTotals(c, s.ps.str("operand"))
		f["underflow_"+k], f["amax_"+k] = shown(under), shown(amax)
		if c.recipe == v.sum.Baseline {
			continue
		}
		if d, err := v.sum.Diff(c.recipe, v.sum.Baseline, false); err == nil {
			f["gap_pct_"+k], f["gap_spread_"+k] = shown(d.GapPct), shown(d.SpreadPct)
			f["gap_resolved_"+k] = strconv.FormatBool(d.Resolved())
		}
	}
	if row := v.sum.Row(v.sum.Baseline); row != nil {
		f["baseline_val"] = shown(row.ValMean)
	}
	b := st.curves[best]
	f["lowest"], f["lowest_val"] = b.recipe, shown(b.val[len(b.val)-1].Loss)
	s.inspectFacts(f, st)
	return f
}

// signedPct writes a gap in percent with its sign.
func signedPct(v float64) string { return fmt.Sprintf("%+.3g%%", v) }

// refExplain explains the shipped reference runs from their facts.
func refExplain(f facts) []string {
	n := f.int("recipes")
	var names, others []string
	for i := 1; i <= n; i++ {
		k := strconv.Itoa(i)
		names = append(names, f["recipe_"+k])
		if r := f["recipe_"+k]; r != f["lowest"] {
			others = append(others, fmt.Sprintf("%s %s (%s to %s)", r, f.r("val_loss_"+k), f.r("val_lo_"+k), f.r("val_hi_"+k)))
		}
	}
	seeds := f.int("seed_count")
	seedWord := "seeds"
	if seeds == 1 {
		seedWord = "seed"
	}
	out := []string{fmt.Sprintf("The reference runs, shipped with the program: a byte-level GPT of the %s configuration (%s, %s parameters, "+
		"%s bytes a step) trained for %s steps under %s, from %s %s (the runs of one seed share their initial weights and batches), "+
		"on %s. They were made on %s at %s by: %s. Running go tool task training-doc CONFIG=reference makes them again.",
		f["config"], f["model"], f["parameters"], f["tokens_per_step"], f["steps"], joinAnd(names),
		seedWord, f["seeds"],
		f["corpus"], f["machine"], f["date"], f["command"])}
	if f["stopped"] == "true" {
		out[0] += " The comparison was interrupted: only the runs that finished are shown."
	}
	out = append(out, fmt.Sprintf("The marks are the mean validation loss over the seeds, each bar runs from the lowest seed's to the highest's; "+
		"the thin lines are the mean training loss of each step's batch, averaged over %d steps. Beside them, each recipe's last "+
		"validation loss seed by seed, with a bar at the mean, on a scale where the spread over seeds shows.", trainingSmooth))
	i := 0
	for k := 1; k <= n; k++ {
		if f["recipe_"+strconv.Itoa(k)] == f["lowest"] {
			i = k
		}
	}
	ki := strconv.Itoa(i)
	p := fmt.Sprintf("At step %s %s has the lowest mean validation loss, %s nats per byte (its seeds %s to %s)",
		f["steps"], f["lowest"], f.r("lowest_val"), f.r("val_lo_"+ki), f.r("val_hi_"+ki))
	if len(others) > 0 {
		p += "; " + strings.Join(others, ", ")
	}
	out = append(out, p+".")
	var gaps []string
	for k := 1; k <= n; k++ {
		kk := strconv.Itoa(k)
		r := f["recipe_"+kk]
		if r == f["baseline"] {
			continue
		}
		if _, ok := f["gap_pct_"+kk]; !ok {
			gaps = append(gaps, fmt.Sprintf("%s was not measured on every seed, so its gap is left out", r))
			continue
		}
		g := fmt.Sprintf("%s is %s (per seed the gaps span %s percentage points): ", r, signedPct(f.num("gap_pct_"+kk)), f.r("gap_spread_"+kk))
		if f["gap_resolved_"+kk] == "true" {
			word := "higher"
			if f.num("gap_pct_"+kk) < 0 {
				word = "lower"
			}
			g += "larger than that spread, so these runs see a " + word + " loss"
		} else {
			g += "no larger than that spread, too small to tell at this size"
		}
		gaps = append(gaps, g)
	}
	if len(gaps) > 0 {
		base := f["baseline"]
		if _, ok := f["baseline_val"]; ok {
			base += " (" + f.r("baseline_val") + ")"
		}
		out = append(out, fmt.Sprintf("Against the mean final loss of %s, seed by seed: %s.", base, strings.Join(gaps, "; ")))
	}
	if p, ok := mapsText(f, f.int("stats_every"), fmt.Sprintf("its %s'", plural(seeds, "seed", "seeds")), "its largest amax over the seeds"); ok {
		out = append(out, p)
	}
	return out
}
