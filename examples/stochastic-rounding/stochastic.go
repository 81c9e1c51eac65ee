package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fp8lab/fp8lab/stochastic"
)

// seeds is how many stochastic runs are averaged for the mean end value.
const seeds = 32

// outcome is one format's experiment: the series of seed 42 and the end
// value of the stochastic run averaged over seeds 0..seeds-1.
type outcome struct {
	*stochastic.TinyUpdateResult
	MeanEnd float64
}

// run does the tiny-update experiment in three formats and prints the
// weight at a few checkpoints. It returns the results by format.
func run(w io.Writer, short bool) ([]outcome, error) {
	steps := 10000
	if short {
		steps = 2000
	}
	cfgs := []stochastic.TinyUpdateConfig{
		{Format: "BF16", Start: 1, Update: 1e-3, Steps: steps, Seed: 42},
		{Format: "E5M2", Start: 1, Update: 1e-3, Steps: steps, Seed: 42},
		{Format: "E4M3FN", Start: 1, Update: 1e-3, Steps: steps, Seed: 42},
	}
	fmt.Fprintf(w, "w starts at 1 and receives +0.001, %d times; exact end value %g\n\n", steps, 1+float64(steps)*1e-3)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "format\trounding\t")
	marks := []int{steps / 10, steps / 4, steps / 2, steps}
	for _, m := range marks {
		fmt.Fprintf(tw, "after %d\t", m)
	}
	fmt.Fprintln(tw)
	var out []outcome
	for _, c := range cfgs {
		r, err := stochastic.TinyUpdates(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Format, err)
		}
		o := outcome{TinyUpdateResult: r}
		for s := uint64(0); s < seeds; s++ {
			c.Seed = s
			rs, err := stochastic.TinyUpdates(c)
			if err != nil {
				return nil, err
			}
			o.MeanEnd += rs.Stochastic[len(rs.Stochastic)-1] / seeds
		}
		out = append(out, o)
		for _, row := range []struct {
			name string
			v    []float64
		}{{"exact", r.Exact}, {"nearest", r.Nearest}, {"stochastic", r.Stochastic}} {
			fmt.Fprintf(tw, "%s\t%s\t", r.Format, row.name)
			for _, m := range marks {
				fmt.Fprintf(tw, "%.4g\t", row.v[m-1])
			}
			fmt.Fprintln(tw)
		}
	}
	if err := tw.Flush(); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "\nstochastic end value averaged over %d seeds:", seeds)
	for _, o := range out {
		fmt.Fprintf(w, "  %s %.4g", o.Format, o.MeanEnd)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "\nThe update is below half the spacing around 1 in all three formats (BF16 2^-7,")
	fmt.Fprintln(w, "E5M2 2^-2, E4M3FN 2^-3): nearest returns w unchanged forever. Stochastic rounding")
	fmt.Fprintln(w, "moves w one step up with probability update/spacing, so it tracks the exact sum")
	fmt.Fprintln(w, "on average. One run is noisy where the spacing is coarse (FP8 at 2: 0.25 or 0.5).")
	return out, nil
}
