package viz

import (
	"slices"

	"github.com/fp8lab/fp8lab/train/lessons"
	"github.com/fp8lab/fp8lab/viz/claim"
)

// lessonNumber is a lesson's place in the talk's order, from 1.
func lessonNumber(name string) int { return slices.Index(lessons.Names(), name) + 1 }

// lessonExplain explains a lesson's shipped runs from their facts: the
// sentence of what it shows (computed by train/lessons with
// compare.Judge), the talk's words, the experiment, each recipe judged
// against the baseline, and the maps.
func lessonExplain(f facts) claim.Explanation {
	var e claim.Explanation
	if s, ok := f["shows"]; ok {
		e.Addf("Lesson %s, %s: %s.", f["lesson_number"], lowerFirst(f["lesson_title"]), lowerFirst(s))
	} else {
		e.Addf("Lesson %s, %s: these runs are not the lesson's experiment, so nothing is concluded.", f["lesson_number"], lowerFirst(f["lesson_title"]))
	}
	e.Addf("The talk \"fp8 training from Hopper to Blackwell\" (seed 002) says: %s", f["quote"])
	p := claim.Sprintf("The experiment, shipped with the program: a byte-level GPT of the %s configuration (%s, %s parameters, "+
		"%s bytes a step) trained for %s steps under %s, from %s %s (the runs of one seed share their initial weights and batches). "+
		"They were made on %s at %s by: %s. Running go tool task training-lessons makes them again.",
		f["config"], f["model"], f["parameters"], f["tokens_per_step"], f["steps"], joinAnd(recipeNames(f)),
		seedsClaim(f), f["seeds"], f["machine"], f["date"], f["command"])
	if _, ok := f["shows"]; !ok {
		p = claim.Sprintf("%s %s.", p, upperFirst(f["shows_error"]))
	}
	e.Add(p)
	e.Add(shippedTakeaway(f))
	shippedDetails(&e, f)
	return e
}
