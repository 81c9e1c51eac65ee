package viz

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/viz/claim"
)

// lastVal returns a curve's validation loss at step, if it has one.
func lastVal(c trainCurve, step int) (float64, bool) {
	for _, p := range c.val {
		if p.Step == step {
			return p.Loss, true
		}
	}
	return 0, false
}

// upperFirst capitalizes the first letter of a sentence.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// operandTotals sums a curve's statistics of one operand role: the
// underflowed fraction and the largest amax over all layers and steps, and
// the layer with the largest underflowed fraction and the one with the
// largest amax.
func operandTotals(c trainCurve, operand string) (under, amax float64, worst, top string, worstUnder float64) {
	var uf, el float64
	perU, perE := map[string]float64{}, map[string]float64{}
	for _, p := range c.stats {
		for _, o := range p.Operands {
			if o.Operand != operand {
				continue
			}
			uf += float64(o.Underflow)
			el += float64(o.Elements)
			perU[o.Layer] += float64(o.Underflow)
			perE[o.Layer] += float64(o.Elements)
			if float64(o.Amax) > amax {
				amax, top = float64(o.Amax), o.Layer
			}
		}
	}
	if el > 0 {
		under = uf / el
	}
	worstUnder = -1
	for _, p := range c.stats {
		for _, o := range p.Operands {
			if o.Operand == operand && perE[o.Layer] > 0 {
				if f := perU[o.Layer] / perE[o.Layer]; f > worstUnder {
					worst, worstUnder = o.Layer, f
				}
			}
		}
	}
	return under, amax, worst, top, worstUnder
}

// Facts implements Scene.
func (s *trainingScene) Facts() map[string]string {
	st, err := s.state()
	if err != nil {
		return map[string]string{"error": err.Error()}
	}
	if s.reference() {
		return s.refFacts(st)
	}
	cfg := s.run.cfg
	f := map[string]string{
		"config":          cfg.Name,
		"model":           describeConfig(cfg),
		"parameters":      strconv.Itoa(cfg.NumParams()),
		"tokens_per_step": strconv.Itoa(cfg.TokensPerStep()),
		"corpus":          s.run.data.Source,
		"status":          st.status,
		"steps":           strconv.Itoa(s.run.total),
		"steps_done":      strconv.Itoa(st.done),
		"seed":            s.ps.str("seed"),
		"recipes":         strconv.Itoa(len(st.curves)),
		"operand":         s.ps.str("operand"),
		"runs":            runsLive,
	}
	common := math.MaxInt // the last step at which every curve has a validation loss
	for i, c := range st.curves {
		k := strconv.Itoa(i + 1)
		f["recipe_"+k] = c.recipe
		last := c.val[len(c.val)-1]
		common = min(common, last.Step)
		f["initial_val_loss_"+k] = shown(c.val[0].Loss)
		if c.err != nil {
			f["error_"+k] = c.err.Error()
		}
		under, amax, _, _, _ := operandTotals(c, s.ps.str("operand"))
		f["underflow_"+k] = shown(under)
		f["amax_"+k] = shown(amax)
	}
	f["compare_step"] = strconv.Itoa(common)
	if common > 0 {
		best, second := -1, -1
		for i, c := range st.curves {
			l, _ := lastVal(c, common)
			f["val_loss_"+strconv.Itoa(i+1)] = shown(l)
			switch {
			case best < 0:
				best = i
			case l < mustVal(st.curves[best], common):
				best, second = i, best
			case second < 0 || l < mustVal(st.curves[second], common):
				second = i
			}
		}
		lb := mustVal(st.curves[best], common)
		f["lowest"], f["lowest_val"] = st.curves[best].recipe, shown(lb)
		if second >= 0 {
			l2 := mustVal(st.curves[second], common)
			f["runner_up"], f["runner_up_val"] = st.curves[second].recipe, shown(l2)
			f["gap"] = shown(l2 - lb)
			// A live run has one seed: the rule of every verdict
			// (compare.Judge) claims no difference from it.
			v := compare.Judge(compare.Gap([]float64{l2}, []float64{lb}, compare.ValLoss, st.curves[second].recipe, st.curves[best].recipe))
			f["verdict"], f["verdict_sentence"] = v.Outcome.String(), v.Sentence()
		}
	}
	s.inspectFacts(f, st)
	return f
}

// inspectFacts adds the facts of the recipe whose operand the maps show:
// its name, and the layers with the largest amax and the most underflow.
func (s *trainingScene) inspectFacts(f map[string]string, st trainingState) {
	if st.inspect < 0 {
		return
	}
	c := st.curves[st.inspect]
	_, _, worst, top, wu := operandTotals(c, s.ps.str("operand"))
	f["inspect_recipe"] = c.recipe
	if top != "" {
		f["largest_amax_layer"], f["worst_underflow_layer"], f["worst_underflow"] = top, worst, shown(wu)
	}
}

// shown writes a number of a training run to the 4 significant digits the
// scene shows. The run's float32 sums are ordered differently under
// WebAssembly (see train's matmul), so the browser's losses match the native
// ones to rounding, not bit for bit; at this precision the facts agree.
func shown(v float64) string { return sig4(v) }

// mustVal is lastVal for a step known to be there.
func mustVal(c trainCurve, step int) float64 {
	l, _ := lastVal(c, step)
	return l
}

// operandText names an operand role for a sentence.
var operandText = map[string]string{
	"grad_output": "gradient dY",
	"input":       "activations X",
	"weight":      "weights W",
}

// operandSymbol is the short name of an operand role, for small pictures.
var operandSymbol = map[string]string{"grad_output": "dY", "input": "X", "weight": "W"}

// Explain implements Scene: the live runs', the reference runs' or a
// lesson's explanation, each judgement a claim (see sweep_training_test.go).
func (s *trainingScene) Explain() claim.Explanation {
	f := facts(s.Facts())
	if out, bad := errorExplanation(f); bad {
		var e claim.Explanation
		e.Add(claim.Lit(out[0]))
		return e
	}
	switch f["runs"] {
	case runsReference:
		return refExplain(f)
	case runsLessons:
		return lessonExplain(f)
	}
	return liveExplain(f)
}

// recipesClaim counts the recipes of the facts.
func recipesClaim(f facts) claim.Count {
	return claim.Count{Key: "training.recipes", N: f.int("recipes"), One: "recipe", Many: "recipes"}
}

// liveExplain explains runs trained here, with one seed: what is trained,
// how far, and what one seed can and cannot tell.
func liveExplain(f facts) claim.Explanation {
	var e claim.Explanation
	n := f.int("recipes")
	list := joinAnd(recipeNames(f))
	each := map[bool]string{true: " each", false: ""}[n > 1]
	e.Add(liveTakeaway(f, each))
	e.Addf("A byte-level GPT small enough for a classroom (%s, %s parameters, %s bytes a step) learns to predict "+
		"the next byte of Go source code under %s, every recipe from the same initial weights (seed %s) and the same batches. "+
		"The text (%s) is built into the program: a browser has no Go distribution to read.",
		f["model"], f["parameters"], f["tokens_per_step"], list, f["seed"], f["corpus"])
	switch f["status"] {
	case "not started":
		e.Addf("Not trained yet: at step 0 the validation loss is %s nats per byte, the untrained model's guess. "+
			"Once Train is checked the recipes take one step each in turn, and the curves grow.", f.r("initial_val_loss_1"))
	case "training":
		e.Addf("Training: %s of %s steps done by every recipe. %s", f["steps_done"], f["steps"], curvesText)
	default:
		e.Addf("Done: %s steps of each recipe. %s", f["steps"], curvesText)
	}
	if _, ok := f["runner_up"]; ok {
		p := claim.Sprintf("At step %s %s has the lowest validation loss, %s nats per byte; %s is %s %s (%s)",
			f["compare_step"], claim.Is{Key: "training.lowest", Value: f["lowest"]}, f.r("lowest_val"), f["runner_up"], f.r("gap"),
			claim.Compare{Key: "training.runner_up_vs_lowest", A: f.num("runner_up_val"), B: f.num("lowest_val"), Show: shown,
				Above: "higher", Below: "lower", Same: "higher, the same to 4 digits"},
			pctText(f.num("gap")/f.num("lowest_val")))
		if n > 2 {
			for i := 1; i <= n; i++ {
				k := strconv.Itoa(i)
				if r := f["recipe_"+k]; r != f["lowest"] && r != f["runner_up"] {
					p = claim.Sprintf("%s, %s %s", p, r, f.r("val_loss_"+k))
				}
			}
		}
		e.Add(claim.Sprintf("%s. %s", p, liveVerdict(f)))
	}
	if p, ok := mapsText(f, trainStatsEvery, "its", "its largest amax so far"); ok {
		e.Add(p)
	}
	return e
}

// liveTakeaway is the live runs' first sentence: what Train will do, how
// far training is, or where the losses stand and what one seed can tell.
func liveTakeaway(f facts, each string) claim.Phrase {
	switch {
	case f["status"] == "not started":
		return claim.Sprintf("Check Train to train %s for %s steps%s from the same initial weights and batches.", recipesClaim(f), f["steps"], each)
	case f.int("compare_step") == 0:
		return claim.Sprintf("Training %s for %s steps%s: the first validation loss comes after step %d.", recipesClaim(f), f["steps"], each, trainStatsEvery)
	case f["runner_up"] != "":
		return claim.Sprintf("At step %s %s has the lowest validation loss, but %s.", f["compare_step"],
			claim.Is{Key: "training.lowest", Value: f["lowest"]}, liveVerdictIs(f))
	}
	return claim.Sprintf("At step %s the validation loss is %s nats per byte, %s the untrained model's %s.",
		f["compare_step"], f.r("lowest_val"),
		claim.Compare{Key: "training.final_vs_initial", A: f.num("lowest_val"), B: f.num("initial_val_loss_1"), Show: shown,
			Above: "above", Below: "below", Same: "the same as"},
		f.r("initial_val_loss_1"))
}

// liveVerdictIs is the verdict on the gap between the two lowest recipes
// (compare.Judge): with one seed, that nothing tells it from luck.
func liveVerdictIs(f facts) claim.Is {
	return claim.Is{Key: "training.verdict", Value: f["verdict"], Words: f["verdict_sentence"]}
}

// liveVerdict says what one seed can tell of the gap between the two
// lowest recipes (compare.Judge's sentence); the shipped runs judge over
// several seeds.
func liveVerdict(f facts) claim.Phrase {
	v := liveVerdictIs(f)
	v.Words = upperFirst(v.Words)
	if f["verdict"] == compare.TooFewSeeds.String() {
		return claim.Sprintf("%s. The reference and lessons runs (Runs) judge recipes over several seeds.", v)
	}
	return claim.Sprintf("%s.", v)
}

// mapsText says what the maps show of the inspected recipe (every: steps
// a column; whose: whose elements, e.g. "its" or "its 3 seeds'";
// largest: how the largest amax is named), from the facts that Facts
// computes for both kinds of runs; false when no recipe is inspected.
func mapsText(f facts, every int, whose, largest string) (claim.Phrase, bool) {
	r, ok := f["inspect_recipe"]
	if !ok {
		return claim.Phrase{}, false
	}
	op := operandText[f["operand"]]
	if _, stats := f["largest_amax_layer"]; !stats {
		if f.int("steps_done") < every {
			return claim.Sprintf("The maps will show %s's %s per linear layer, a column every %d steps.", r, op, every), true
		}
		return claim.Sprintf("The maps of %s stay empty: it keeps its %s in float32 or BF16, which have float32's range: "+
			"no scale, and no underflow to count.", r, op), true
	}
	k := ""
	for i := 1; i <= f.int("recipes"); i++ {
		if f["recipe_"+strconv.Itoa(i)] == r {
			k = strconv.Itoa(i)
		}
	}
	p := claim.Sprintf("The maps show %s's %s per linear layer, %d steps a column: %s is %s, in %s.",
		r, op, every, largest, claim.Quantity{Key: "training.amax", V: f.num("amax_" + k), Show: shown}, f["largest_amax_layer"])
	under := claim.Share{Key: "training.underflow", Fraction: f.num("underflow_" + k), Show: pctText, None: "None"}
	most := ""
	if under.Fraction > 0 {
		most = fmt.Sprintf(", most in %s (%s)", f["worst_underflow_layer"], pctText(f.num("worst_underflow")))
	}
	return claim.Sprintf("%s %s of %s elements underflowed to zero%s.", p, under, whose, most), true
}

// curvesText says what the curves are.
var curvesText = fmt.Sprintf("The marks are the validation loss on fixed held-out text; the thin lines the training loss "+
	"of each step's batch, averaged over %d steps.", trainingSmooth)
