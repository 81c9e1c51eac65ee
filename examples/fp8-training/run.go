package main

import (
	"fmt"
	"image"
	"io"
	"os"
	"text/tabwriter"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// options configures a run of the example.
type options struct {
	Short bool   // 300 steps instead of 1500
	PNG   string // where to write the plot; empty for none
}

// curve is the loss of one recipe at every step.
type curve struct {
	Recipe recipe
	Loss   []float64
}

// Final is the mean loss over the last 10 steps (smooths step noise).
func (c curve) Final() float64 {
	s, n := 0.0, min(10, len(c.Loss))
	for _, l := range c.Loss[len(c.Loss)-n:] {
		s += l
	}
	return s / float64(n)
}

// recipes are the runs compared; the first is the float32 baseline.
func recipes() []recipe {
	return []recipe{
		{Name: "float32"},
		{Name: "E4M3 fwd, E4M3 grad, tensor", FP8: true, Fwd: fp8.E4M3FN, Grad: fp8.E4M3FN, Gran: scaling.PerTensor},
		{Name: "E4M3 fwd, E5M2 grad, tensor", FP8: true, Fwd: fp8.E4M3FN, Grad: fp8.E5M2, Gran: scaling.PerTensor},
		{Name: "E4M3 fwd, E5M2 grad, row", FP8: true, Fwd: fp8.E4M3FN, Grad: fp8.E5M2, Gran: scaling.PerRow},
		{Name: "E4M3 fwd, E5M2 grad, row, SR", FP8: true, Fwd: fp8.E4M3FN, Grad: fp8.E5M2, Gran: scaling.PerRow, Stochastic: true},
	}
}

// run trains every recipe from the same initial weights, prints the losses
// and writes the plot.
func run(w io.Writer, o options) ([]curve, error) {
	steps := 1500
	if o.Short {
		steps = 300
	}
	const hidden, points, lr = 32, 400, 0.01
	x, labels, err := spirals(points, 1)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "two spirals, %d points; MLP 2-%d-%d-2 tanh, softmax cross-entropy, Adam lr %g, full batch, %d steps\n\n",
		points, hidden, hidden, lr, steps)
	var curves []curve
	for _, r := range recipes() {
		n, err := newNet(hidden, 7)
		if err != nil {
			return nil, err
		}
		tr := &trainer{r: r, seed: 11}
		c := curve{Recipe: r, Loss: make([]float64, steps)}
		for s := 0; s < steps; s++ {
			if c.Loss[s], err = tr.step(n, x, labels, lr); err != nil {
				return nil, fmt.Errorf("%s, step %d: %w", r.Name, s, err)
			}
		}
		curves = append(curves, c)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "recipe\t")
	marks := []int{0, steps / 10, steps / 4, steps / 2, steps - 1}
	for _, m := range marks {
		fmt.Fprintf(tw, "step %d\t", m+1)
	}
	fmt.Fprintln(tw, "final (last 10)\tvs float32\t")
	base := curves[0].Final()
	for _, c := range curves {
		fmt.Fprintf(tw, "%s\t", c.Recipe.Name)
		for _, m := range marks {
			fmt.Fprintf(tw, "%.4f\t", c.Loss[m])
		}
		fmt.Fprintf(tw, "%.4f\t%+.4f\t\n", c.Final(), c.Final()-base)
	}
	if err := tw.Flush(); err != nil {
		return nil, err
	}
	if o.PNG != "" {
		if err := plotCurves(o.PNG, curves); err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "\nwrote %s\n", o.PNG)
	}
	return curves, nil
}

// plotCurves draws the loss curves into a 1280×720 PNG.
func plotCurves(path string, curves []curve) (err error) {
	maxLoss := 0.0
	for _, c := range curves {
		for _, l := range c.Loss {
			maxLoss = max(maxLoss, l)
		}
	}
	steps := len(curves[0].Loss)
	xs, err := plot.NewLinear(1, float64(steps))
	if err != nil {
		return err
	}
	ys, err := plot.NewLinear(0, maxLoss*1.05)
	if err != nil {
		return err
	}
	th := plot.LightTheme()
	dst := plot.NewCanvas(1280, 720, th.Background)
	ax, err := plot.NewAxes(image.Rect(0, 0, 1280, 720), xs, ys, plot.AxesOptions{
		Title:  "Two spirals: training loss, float32 vs simulated FP8 matmuls",
		XLabel: "step", YLabel: "cross-entropy loss",
	})
	if err != nil {
		return err
	}
	ax.Draw(dst)
	var legend []plot.LegendEntry
	for i, c := range curves {
		col := plot.Categorical(i)
		st := plot.LineStyle{Color: col, Width: 2}
		if i > 0 && c.Recipe.Stochastic {
			st.Dash = []float64{8, 5}
		}
		x := make([]float64, steps)
		for s := range x {
			x[s] = float64(s + 1)
		}
		if err := ax.Line(dst, x, c.Loss, st); err != nil {
			return err
		}
		legend = append(legend, plot.LegendEntry{Label: c.Recipe.Name, Color: col, Width: 2, Dash: st.Dash})
	}
	if _, err := ax.Legend(dst, plot.TopRight, legend); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	return viz.WritePNG(f, dst)
}
