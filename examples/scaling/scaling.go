package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// line is the result of one granularity.
type line struct {
	Granularity string
	Format      string
	Metrics     scaling.Metrics
}

// activation returns a 128×512 normal matrix (std 0.002) with two outlier
// tokens (rows ×40) and two outliers of feature 100 (300 and -250).
func activation() (*scaling.Tensor, error) {
	spec := scaling.OutlierSpec{
		Rows: 128, Cols: 512, Std: 0.002, Seed: 7,
		OutlierRows: []int{3, 77}, RowFactor: 40,
		Outliers: []scaling.Outlier{{Row: 10, Col: 100, Value: 300}, {Row: 90, Col: 100, Value: -250}},
	}
	return scaling.MakeOutlierTensor(spec)
}

// run prints the SQNR table and returns one line per granularity.
func run(w io.Writer) ([]line, error) {
	t, err := activation()
	if err != nil {
		return nil, err
	}
	amax, err := scaling.Amax(t)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "activation %d×%d, std 0.002, outlier rows 3 and 77 (×40), outliers at (10,100) and (90,100); amax %g\n\n", t.Rows, t.Cols, amax)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "granularity\tformat\tSQNR dB\tworst row dB\tworst block dB\tunderflow\tsubnormal\t")
	var out []line
	for _, g := range scaling.Granularities() {
		f := fp8.E4M3FN
		if e := g.ElementFormat(); e != nil {
			f = e // NVFP4 is a 4-bit recipe: E2M1
		}
		q, err := scaling.Quantize(t, f, g, scaling.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g, err)
		}
		m, err := scaling.Measure(t, q)
		if err != nil {
			return nil, err
		}
		out = append(out, line{Granularity: g.String(), Format: f.Name(), Metrics: m})
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.1f\t%d\t%.1f%%\t\n", g, f.Name(), m.SQNR, m.Rows.Worst, m.Blocks.Worst, m.Underflow, 100*m.FractionSubnormal)
	}
	return out, tw.Flush()
}
