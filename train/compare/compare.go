package compare

import (
	"context"
	"fmt"
	"sync"

	"github.com/fp8lab/fp8lab/train"
)

// Plan is a comparison: every recipe trained for Steps steps from every
// seed. Runs of the same seed start from the same weights and see the same
// batches in the same order, whatever the recipe.
type Plan struct {
	Config  train.Config
	Recipes []*train.Recipe
	Seeds   []uint64
	Steps   int
	Data    *train.Corpus
	// Workers is how many runs train at once (0 or 1: one after another).
	// Runs share nothing, so the results do not depend on it.
	Workers int
	// Spike, if set, is injected into every run at the same step.
	Spike Spike
	// OnStep, if not nil, is called after every step of every run, from
	// the run's goroutine, one call at a time.
	OnStep func(Step)
}

// Set is the record of a comparison, as `fp8lab train --compare` writes it:
// Runs holds one run per recipe and seed, recipe by recipe in the order of
// Recipes, seeds in the order of Seeds within each.
type Set struct {
	Command string       `json:"command,omitempty"` // the command line that made it
	Config  train.Config `json:"config"`
	Steps   int          `json:"steps"`
	Seeds   []uint64     `json:"seeds"`
	Recipes []string     `json:"recipes"`
	Corpus  string       `json:"corpus"`
	Spike   *Spike       `json:"spike,omitempty"`
	// Stopped is set when the comparison was interrupted: runs were cut
	// short or never started (nil).
	Stopped bool            `json:"stopped,omitempty"`
	Runs    []*train.Result `json:"runs"`
}

// Run returns the run of recipe i and seed j (nil if it never ran, or if
// there is no such recipe or seed).
func (s *Set) Run(i, j int) *train.Result {
	if s == nil || i < 0 || j < 0 || j >= len(s.Seeds) || i*len(s.Seeds)+j >= len(s.Runs) {
		return nil
	}
	return s.Runs[i*len(s.Seeds)+j]
}

// Check reports a plan that cannot run, before any training starts.
func (p *Plan) Check() error {
	switch {
	case p == nil:
		return fmt.Errorf("compare: no plan")
	case len(p.Recipes) == 0:
		return fmt.Errorf("compare: no recipes")
	case len(p.Seeds) == 0:
		return fmt.Errorf("compare: no seeds")
	case len(p.Seeds) > MaxSeeds:
		return fmt.Errorf("compare: %d seeds is more than the bound of %d", len(p.Seeds), MaxSeeds)
	case p.Steps < 1:
		return fmt.Errorf("compare: %d steps (want at least 1)", p.Steps)
	case p.Steps > MaxSteps:
		return fmt.Errorf("compare: %d steps is more than the bound of %d", p.Steps, MaxSteps)
	case p.Data == nil:
		return fmt.Errorf("compare: no corpus")
	}
	if err := p.Spike.Check(p.Steps); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, r := range p.Recipes {
		if seen[r.Name] {
			return fmt.Errorf("compare: recipe %q named twice", r.Name)
		}
		seen[r.Name] = true
		if err := r.Check(); err != nil {
			return err
		}
	}
	return p.Config.Check()
}

// Compare runs the plan and returns every run. When ctx is done, the runs
// under way stop with what they have, the others do not start, and the
// set is returned with Stopped. A run that an Inf or a NaN stops
// (train.NonFiniteError) keeps its record, with Diverged set, and the
// others go on: that is what a run with non-saturating casts may show.
// Any other error of a run stops the rest and is returned with the set so
// far.
func Compare(ctx context.Context, p Plan) (*Set, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	set := &Set{Config: p.Config, Steps: p.Steps, Seeds: p.Seeds, Corpus: p.Data.Source,
		Runs: make([]*train.Result, len(p.Recipes)*len(p.Seeds))}
	for _, r := range p.Recipes {
		set.Recipes = append(set.Recipes, r.Name)
	}
	if p.Spike != (Spike{}) {
		sp := p.Spike
		set.Spike = &sp
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex // guards firstErr, set.Stopped and OnStep calls
		firstErr error
		wg       sync.WaitGroup
	)
	onStep := func(s Step) {
		if p.OnStep != nil {
			mu.Lock()
			p.OnStep(s)
			mu.Unlock()
		}
	}
	jobs := make(chan int)
	for range max(p.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range jobs {
				// Each run gets its own copy of the recipe: nothing is shared.
				r := *p.Recipes[k/len(p.Seeds)]
				res, stopped, err := Run(ctx, p.Config, &r, p.Seeds[k%len(p.Seeds)], p.Steps, p.Data, p.Spike, onStep)
				mu.Lock()
				set.Runs[k] = res
				if stopped {
					set.Stopped = true
				}
				if res != nil && res.Diverged != nil {
					err = nil // an Inf or NaN ends this run, as the experiment may mean it to
				}
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("recipe %s, seed %d: %w", r.Name, p.Seeds[k%len(p.Seeds)], err)
					cancel()
				}
				mu.Unlock()
			}
		}()
	}
	for k := range set.Runs {
		if ctx.Err() != nil {
			break
		}
		jobs <- k
	}
	close(jobs)
	wg.Wait()
	for _, r := range set.Runs {
		if r == nil {
			set.Stopped = true
		}
	}
	if firstErr != nil {
		return set, firstErr
	}
	return set, nil
}
