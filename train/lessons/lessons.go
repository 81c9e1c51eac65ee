// Package lessons defines the training lab's lessons: one experiment for
// each lesson of the talk "fp8 training from Hopper to Blackwell" (seed 002)
// that the byte-level GPT can show, with the talk's words, the comparison
// that tests them (fp8lab train --compare arguments), and the one sentence
// of what the runs show, computed from their record with the verdict rule
// of package compare. docs/training's generator runs them and writes
// docs/training-lessons.md; their records ship in train/records, and the
// playground's Training scene shows them (Runs: lessons).
package lessons

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
	"github.com/fp8lab/fp8lab/train/records"
)

// Lesson is one experiment.
type Lesson struct {
	// Name is the lesson's short name: the Training scene's Lesson value
	// and its record's file, records.LessonPath(Name).
	Name string
	// Title says the lesson; Quotes are the talk's words it tests,
	// verbatim (TestQuotesAreVerbatim checks them against the seed).
	Title  string
	Quotes []string
	// Config and Steps are the configuration and the length of each run;
	// Recipes are built-in names or, for the variants only a lesson needs,
	// names of Files; Spike is injected into every run.
	Config  string
	Steps   int
	Recipes []string
	Spike   compare.Spike
	// Baseline is what every recipe is measured against (bf16).
	Baseline string
	// shows computes the lesson's sentence from its runs.
	shows func(f facts) string
}

// Seeds is how many seeds each lesson runs.
const Seeds = 3

// All returns the lessons in the talk's order.
func All() []Lesson { return slices.Clone(all) }

// Names returns the lessons' names in the talk's order.
func Names() []string {
	out := make([]string, len(all))
	for i, l := range all {
		out[i] = l.Name
	}
	return out
}

// ByName returns the lesson of that name.
func ByName(name string) (Lesson, error) {
	for _, l := range all {
		if l.Name == name {
			return l, nil
		}
	}
	return Lesson{}, fmt.Errorf("lessons: no lesson %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Args returns the fp8lab train arguments that run the lesson, with
// recipe files under dir (as Files writes them).
func (l Lesson) Args(dir string) []string {
	names := make([]string, len(l.Recipes))
	for i, r := range l.Recipes {
		names[i] = r
		if _, ok := files[r]; ok {
			names[i] = dir + "/" + r + ".json"
		}
	}
	args := []string{"train", "--compare", strings.Join(names, ","), "--config", l.Config,
		"--steps", fmt.Sprint(l.Steps), "--seeds", fmt.Sprint(Seeds)}
	if l.Spike != (compare.Spike{}) {
		args = append(args, "--spike", l.Spike.String())
	}
	return args
}

// Files returns the recipes that only lessons use, by name, as the JSON
// files the lessons' commands read (train.Recipe.MarshalIndented).
func Files() (map[string][]byte, error) {
	out := map[string][]byte{}
	for name, f := range files {
		r := f()
		r.Name = name
		b, err := r.MarshalIndented()
		if err != nil {
			return nil, err
		}
		out[name] = b
	}
	return out, nil
}

// Recipe returns a recipe a lesson names: a built-in one or a lesson file.
func Recipe(name string) (*train.Recipe, error) {
	if f, ok := files[name]; ok {
		r := f()
		r.Name = name
		return &r, nil
	}
	return train.RecipeByName(name)
}

// Sentence computes what the lesson's runs show, in one sentence, from
// their record: the verdicts of compare.Judge and the counts of the runs.
func (l Lesson) Sentence(rec *records.Record) (string, error) {
	if err := l.matches(rec); err != nil {
		return "", err
	}
	sum, err := compare.Summarize(&rec.Set, l.Baseline)
	if err != nil {
		return "", err
	}
	return l.shows(facts{rec: rec, sum: sum}), nil
}

// matches reports a record that is not this lesson's experiment.
func (l Lesson) matches(rec *records.Record) error {
	switch {
	case rec == nil:
		return fmt.Errorf("lessons: %s: no record", l.Name)
	case !slices.Equal(rec.Recipes, l.Recipes):
		return fmt.Errorf("lessons: %s: the record holds %s, the lesson runs %s", l.Name,
			strings.Join(rec.Recipes, ","), strings.Join(l.Recipes, ","))
	case rec.Config.Name != l.Config, rec.Steps != l.Steps:
		return fmt.Errorf("lessons: %s: the record is %s × %d steps, the lesson %s × %d", l.Name,
			rec.Config.Name, rec.Steps, l.Config, l.Steps)
	case len(rec.Seeds) < compare.MinSeeds:
		return fmt.Errorf("lessons: %s: the record has %d seeds", l.Name, len(rec.Seeds))
	}
	sp := compare.Spike{}
	if rec.Spike != nil {
		sp = *rec.Spike
	}
	if sp != l.Spike {
		return fmt.Errorf("lessons: %s: the record's spike %v is not the lesson's %v", l.Name, sp, l.Spike)
	}
	return nil
}
