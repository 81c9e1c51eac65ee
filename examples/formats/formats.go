package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fp8lab/fp8lab/fp8"
)

// row is one line of the table: a format's facts and where x lands in it.
type row struct {
	Info     fp8.Info
	Code     uint8
	Value    float64
	RelError float64
}

// run prints the table for x and returns its rows, one per preset format.
func run(w io.Writer, x float64) ([]row, error) {
	var rows []row
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "format\tmax\tmin normal\tmin subnormal\teps\tbinades\tcode(%g)\tvalue\trel error\t\n", x)
	for _, f := range fp8.Presets() {
		e, err := f.Explain(x, fp8.Mode{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		r := row{Info: f.Info(), Code: e.Result.Code, Value: float64(e.Result.Value), RelError: float64(e.RelError)}
		rows = append(rows, r)
		fmt.Fprintf(tw, "%s\t%g\t%g\t%g\t%g\t%.1f\t0x%02X\t%g\t%.2f%%\t\n",
			r.Info.Name, r.Info.Max, r.Info.MinNormal, r.Info.MinSubnormal, r.Info.Eps, r.Info.Binades,
			r.Code, r.Value, 100*r.RelError)
	}
	return rows, tw.Flush()
}
