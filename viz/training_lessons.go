package viz

import (
	"fmt"
	"slices"

	"github.com/fp8lab/fp8lab/train/lessons"
)

// lessonNumber is a lesson's place in the talk's order, from 1.
func lessonNumber(name string) int { return slices.Index(lessons.Names(), name) + 1 }

// lessonExplain explains a lesson's shipped runs from their facts: the
// talk's words, the experiment, the sentence of what it shows (computed by
// train/lessons with compare.Judge), each recipe judged against the
// baseline, and the maps.
func lessonExplain(f facts) []string {
	names := recipeNames(f)
	seeds := f.int("seed_count")
	out := []string{fmt.Sprintf("Lesson %s of the talk \"fp8 training from Hopper to Blackwell\" (seed 002): %s. The talk says: %s",
		f["lesson_number"], f["lesson_title"], f["quote"])}
	out = append(out, fmt.Sprintf("The experiment, shipped with the program: a byte-level GPT of the %s configuration (%s, %s parameters, "+
		"%s bytes a step) trained for %s steps under %s, from %s %s (the runs of one seed share their initial weights and batches). "+
		"They were made on %s at %s by: %s. Running go tool task training-lessons makes them again.",
		f["config"], f["model"], f["parameters"], f["tokens_per_step"], f["steps"], joinAnd(names),
		plural(seeds, "seed", "seeds"), f["seeds"], f["machine"], f["date"], f["command"]))
	if s, ok := f["shows"]; ok {
		out = append(out, "What the runs show: "+s+".")
	} else {
		out = append(out, "These runs are not the lesson's experiment, so nothing is concluded: "+f["shows_error"]+".")
	}
	out = append(out, shippedCurvesText(f))
	if p, ok := gapsText(f); ok {
		out = append(out, p)
	}
	if p, ok := mapsText(f, f.int("stats_every"), fmt.Sprintf("its %s'", plural(seeds, "seed", "seeds")), "its largest amax over the seeds"); ok {
		out = append(out, p)
	}
	return out
}
