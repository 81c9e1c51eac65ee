package viz

import (
	"fmt"
	"image"
	"math"
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// The simulated training run: 200 steps of a 16×64 tensor.
const (
	delayedSteps = 200
	delayedRows  = 16
	delayedCols  = 64
)

// delayedScene runs Transformer Engine's delayed scaling over a drifting
// or spiking tensor and shows the amax history, the scale and the
// overflow events step by step.
type delayedScene struct {
	sceneBase
	key   string
	steps []scaling.DelayedStep
	lows  []float64 // smallest nonzero |x| of each step
	f     *fp8.Format
	axes  []*plot.Axes // of the last render, for clicks
	size  image.Point
}

func newDelayed() Scene {
	return newScene(&delayedScene{sceneBase: sceneBase{name: "delayed", title: "Delayed scaling timeline", ps: newParamSet(
		Param{Name: "format", Label: "Format", Kind: ParamChoice, Options: []string{"E4M3FN", "E5M2"}, Default: "E4M3FN",
			Help: "element format"},
		Param{Name: "history", Label: "History length", Kind: ParamChoice, Options: []string{"1", "4", "16", "64", "1024"}, Default: "16",
			Help: "how many past amaxes the scale is computed from (Transformer Engine's default is 1024)"},
		Param{Name: "algo", Label: "Amax from history", Kind: ParamChoice, Options: []string{"max", "most_recent"}, Default: "max",
			Help: "max: the largest amax in the history; most_recent: the last one"},
		Param{Name: "margin", Label: "Margin (log₂)", Kind: ParamInt, Min: 0, Max: 8, Step: 1, Default: "0",
			Help: "the scale is divided by 2^margin: headroom for growth, at the cost of precision"},
		Param{Name: "drift", Label: "Drift % per step", Kind: ParamInt, Min: -5, Max: 5, Step: 1, Default: "0",
			Help: "the tensor's standard deviation grows by this many percent at every step"},
		Param{Name: "spike", Label: "Spike factor (log₂)", Kind: ParamInt, Min: 0, Max: 16, Step: 1, Default: "10",
			Help: "one step is multiplied by 2^spike, like a loss spike (0: none)"},
		Param{Name: "spike_at", Label: "Spike at step", Kind: ParamInt, Min: 0, Max: delayedSteps - 1, Step: 1, Default: "80",
			Help: "the step that spikes; click a plot to move it"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 0, Max: 1 << 20, Step: 1, Default: "5",
			Help: "seed of the tensors"},
	)}, f: fp8.E4M3FN})
}

// Set implements Scene.
func (s *delayedScene) Set(name, value string) error {
	return s.ps.setAndApply(name, value, s.compute)
}

func (s *delayedScene) compute() error {
	key := s.ps.key("format", "history", "algo", "margin", "drift", "spike", "spike_at", "seed")
	if key == s.key {
		return nil
	}
	f, err := fp8.Lookup(s.ps.str("format"))
	if err != nil {
		return err
	}
	algo, err := scaling.ParseAmaxAlgo(s.ps.str("algo"))
	if err != nil {
		return err
	}
	hist, _ := strconv.Atoi(s.ps.str("history"))
	seq := scaling.Sequence{
		Steps: delayedSteps, Rows: delayedRows, Cols: delayedCols, Seed: uint64(s.ps.int("seed")),
		Drift: 1 + float64(s.ps.int("drift"))/100, SpikeStep: s.ps.int("spike_at"),
		SpikeFactor: math.Exp2(float64(s.ps.int("spike"))),
	}
	ts, err := seq.Generate()
	if err != nil {
		return err
	}
	steps, err := scaling.SimulateDelayed(scaling.DelayedConfig{Format: f, HistoryLen: hist, Algo: algo, Margin: s.ps.int("margin")}, ts)
	if err != nil {
		return err
	}
	lows := make([]float64, len(ts))
	for i, t := range ts {
		lows[i] = math.Inf(1)
		for _, v := range t.Data {
			if a := math.Abs(float64(v)); a > 0 && a < lows[i] {
				lows[i] = a
			}
		}
	}
	s.steps, s.lows, s.f, s.key = steps, lows, f, key
	return nil
}

// staleWindow returns the steps after the spike whose scale is still at
// least 2× below the scale the spike step used, because the spike's amax is
// in the history: from, to (inclusive) and their count (0 when none).
func (s *delayedScene) staleWindow() (from, to, n int) {
	at := s.ps.int("spike_at")
	if s.ps.int("spike") == 0 || at >= len(s.steps) {
		return 0, 0, 0
	}
	before := float64(s.steps[at].Scale)
	for k := at + 1; k < len(s.steps) && float64(s.steps[k].Scale) <= before/2; k++ {
		n++
	}
	return at + 1, at + n, n
}

// Facts implements Scene.
func (s *delayedScene) Facts() map[string]string {
	if err := s.compute(); err != nil {
		return map[string]string{"error": err.Error()}
	}
	events, total, first := 0, 0, -1
	var sq, cq float64
	worst := math.Inf(1)
	for _, st := range s.steps {
		if st.Overflow > 0 {
			events++
			total += st.Overflow
			if first < 0 {
				first = st.Step
			}
		}
		sq += st.SQNR
		cq += st.CurrentSQNR
		worst = math.Min(worst, st.SQNR)
	}
	n := float64(len(s.steps))
	spikeAt, spikeOver, flushSteps, flushed := s.ps.int("spike_at"), 0, 0, 0
	from, to, stale := s.staleWindow()
	var staleSQ, beforeSQ float64
	for _, st := range s.steps {
		if st.Step == spikeAt {
			spikeOver = st.Overflow
		}
		if stale > 0 && st.Step >= from && st.Step <= to {
			staleSQ += st.SQNR / float64(stale)
			if st.Underflow > 0 {
				flushSteps++
				flushed += st.Underflow
			}
		}
		if stale > 0 && st.Step >= spikeAt-stale && st.Step < spikeAt {
			beforeSQ += st.SQNR / float64(min(stale, spikeAt))
		}
	}
	m := map[string]string{
		"format":                  s.f.Name(),
		"steps":                   strconv.Itoa(len(s.steps)),
		"overflow_steps":          strconv.Itoa(events),
		"overflow_values":         strconv.Itoa(total),
		"first_overflow_step":     strconv.Itoa(first),
		"mean_sqnr_db":            fact(sq / n),
		"mean_current_sqnr_db":    fact(cq / n),
		"worst_sqnr_db":           fact(worst),
		"final_scale":             fact(float64(s.steps[len(s.steps)-1].NextScale)),
		"spike_log2":              s.ps.str("spike"),
		"spike_step":              strconv.Itoa(spikeAt),
		"spike_overflow":          strconv.Itoa(spikeOver),
		"flush_steps_after_spike": strconv.Itoa(flushSteps),
		"flushed_after_spike":     strconv.Itoa(flushed),
		"values_per_step":         strconv.Itoa(delayedRows * delayedCols),
		"stale_steps":             strconv.Itoa(stale),
	}
	if stale > 0 {
		m["stale_from"], m["stale_to"] = strconv.Itoa(from), strconv.Itoa(to)
		m["stale_scale_ratio"] = fact(float64(s.steps[spikeAt].Scale) / float64(s.steps[from].Scale))
		m["stale_mean_sqnr_db"] = fact(staleSQ)
		if spikeAt > 0 {
			m["before_spike_mean_sqnr_db"] = fact(beforeSQ)
		}
	}
	return m
}

// Click implements Scene.
func (s *delayedScene) Click(x, y, w, h int) bool {
	if s.size != image.Pt(w, h) || s.axes == nil {
		if s.Render(canvas(w, h)) != nil {
			return false
		}
	}
	for _, ax := range s.axes {
		if image.Pt(x, y).In(ax.Plot) {
			k := int(math.Round(ax.X.Invert(float64(x))))
			k = min(max(k, 0), delayedSteps-1)
			if strconv.Itoa(k) == s.ps.str("spike_at") {
				return false
			}
			return s.Set("spike_at", strconv.Itoa(k)) == nil
		}
	}
	return false
}

// amaxFrom says in words which amax of the history sets the scale: the
// most recent one, or the largest of the last N steps'.
func (s *delayedScene) amaxFrom() string {
	n := s.ps.int("history")
	switch {
	case s.ps.str("algo") == "most_recent":
		return "the most recent step's amax"
	case n == 1:
		return "the last step's amax"
	}
	return fmt.Sprintf("max of the last %d steps' amaxes", n)
}

// Render implements Scene.
func (s *delayedScene) render(dst *image.RGBA, d Display) error {
	st, body, err := begin(dst, d, "Delayed scaling timeline",
		fmt.Sprintf("scale = (%s max ÷ amax) ÷ 2%s, amax = %s", s.f.Name(), plot.Superscript(s.ps.int("margin")), s.amaxFrom()))
	if err != nil {
		return err
	}
	s.size = dst.Bounds().Size()
	if err := s.compute(); err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	// The legends stand in a column right of the plots, where they cover
	// no data, as wide as their longest label (measured off screen). Where
	// that column would leave the plots less than half the width (a phone)
	// each legend goes in a strip above its plot instead, and the plots
	// take the whole width.
	th := st.th
	dash := []float64{st.pxf(5), st.pxf(4)}
	legends := [][]plot.LegendEntry{{
		{Label: "largest, smallest |x|", Color: plot.ReddishPurple, Width: st.pxf(1.5), Marker: plot.MarkerCircle},
		{Label: "window of the scale", Color: windowTint, Kind: plot.LegendSwatch},
		{Label: "clipped", Color: plot.Vermillion, Kind: plot.LegendMarker, Marker: plot.MarkerTriangleUp},
		{Label: "flushed to zero", Color: plot.Orange, Kind: plot.LegendMarker, Marker: plot.MarkerTriangleDown},
	}, {
		{Label: "delayed scaling", Color: plot.Blue, Width: st.pxf(2.5)},
		{Label: "current scaling", Color: st.th.MutedText, Width: st.pxf(1.5), Dash: dash},
	}}
	legW := 0
	for _, l := range legends {
		box, err := plot.DrawLegend(image.NewRGBA(body), body, plot.TopRight, l, &th)
		if err != nil {
			return err
		}
		legW = max(legW, box.Dx()+2*(body.Max.X-box.Max.X))
	}
	plots := image.Rect(body.Min.X, body.Min.Y, body.Max.X-legW, body.Max.Y)
	strips := 2*plots.Dx() < body.Dx()
	keys := [][]plot.LegendEntry{nil, nil, nil} // the legend each axes leaves a strip for
	if strips {
		plots, keys[0], keys[1] = body, legends[0], legends[1]
	}
	rows, err := plot.SplitRows(plots, st.px(10), 1.25, 1, 1)
	if err != nil {
		return err
	}
	n := len(s.steps)
	x := make([]float64, n)
	amax, top, scale, cur, sq, csq := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	floor := make([]float64, n)
	var ox, oy, ux, uy []float64
	// Below half the smallest subnormal a value rounds to zero (the tie
	// goes to the even zero): the window's floor.
	tiny := s.f.Info().MinSubnormal / 2
	for i, p := range s.steps {
		x[i] = float64(p.Step)
		amax[i] = p.Amax
		top[i] = s.f.Max() / float64(p.Scale)
		floor[i] = tiny / float64(p.Scale)
		if p.Underflow > 0 {
			ux, uy = append(ux, x[i]), append(uy, s.lows[i])
		}
		scale[i], cur[i] = float64(p.Scale), float64(p.CurrentScale)
		sq[i], csq[i] = p.SQNR, p.CurrentSQNR
		if p.Overflow > 0 {
			ox, oy = append(ox, x[i]), append(oy, p.Amax)
		}
	}
	xs, err := plot.NewLinear(0, float64(n-1))
	if err != nil {
		return err
	}
	yAmax, err := log2Span(amax, top, floor, s.lows)
	if err != nil {
		return err
	}
	yScale, err := log2Span(scale, cur)
	if err != nil {
		return err
	}
	ySQ, err := plot.NewLinear(math.Min(0, math.Floor(minFinite(append(append([]float64{}, sq...), csq...))/10)*10), 45)
	if err != nil {
		return err
	}
	// Short pictures drop the plot titles and keep the axis labels.
	titles := []string{"Largest and smallest |x| of each step, and the window the scale lets through",
		"Scale: delayed (from history) and current (from this step)", "SQNR of each step"}
	if strips {
		// The legends above the plots name the curves: the titles need not,
		// and keep to two lines at a phone's width.
		titles[0], titles[1] = "|x| of each step and the scale's window", "Scale: delayed and current"
	}
	// The three plots share one time line, labelled under the last; short
	// pictures drop the plot titles (the axis labels stay).
	if body.Dy() < st.px(480) {
		titles = []string{"", "", ""}
		if rows, err = plot.SplitRows(plots, st.px(4), 1, 0.9, 1.5); err != nil {
			return err
		}
	}
	axes, err := alignedAxes(rows,
		func(r image.Rectangle) (*plot.Axes, error) {
			return st.sharedAxes(r, xs, yAmax, titles[0], "magnitude", keys[0]...)
		},
		func(r image.Rectangle) (*plot.Axes, error) {
			return st.sharedAxes(r, xs, yScale, titles[1], "scale", keys[1]...)
		},
		func(r image.Rectangle) (*plot.Axes, error) {
			return st.axes(r, xs, ySQ, titles[2], "training step", "SQNR (dB)", keys[2]...)
		})
	if err != nil {
		return err
	}
	s.axes = axes
	for _, ax := range axes {
		ax.Draw(dst)
		for _, p := range s.steps {
			if p.Overflow > 0 {
				ax.VBand(dst, float64(p.Step)-0.5, float64(p.Step)+0.5, plot.WithAlpha(plot.Vermillion, 0x40), "")
			}
		}
	}
	thin := plot.LineStyle{Color: st.th.MutedText, Width: st.pxf(1.5), Dash: []float64{st.pxf(5), st.pxf(4)}}
	// The window of each step: values above it clip, values below it flush.
	clip := axes[0].Clip(dst)
	for i := range x {
		x0, x1 := axes[0].X.Map(x[i]-0.5), axes[0].X.Map(x[i]+0.5)
		y0, y1 := axes[0].Y.Map(top[i]), axes[0].Y.Map(floor[i])
		plot.FillRect(clip, image.Rect(int(math.Round(x0)), int(math.Round(y0)), int(math.Round(x1)), int(math.Round(y1))), windowTint)
	}
	edge := plot.LineStyle{Color: plot.Blue, Width: st.pxf(2.5)}
	for _, ys := range [][]float64{top, floor} {
		if err := axes[0].Step(dst, x, ys, plot.StepMid, edge); err != nil {
			return err
		}
	}
	data := plot.LineStyle{Color: plot.ReddishPurple, Width: st.pxf(1.5), Marker: plot.MarkerCircle, MarkerSize: st.pxf(4)}
	for _, ys := range [][]float64{amax, s.lows} {
		if err := axes[0].Line(dst, x, ys, data); err != nil {
			return err
		}
	}
	if len(ox) > 0 {
		if err := axes[0].Scatter(dst, ox, oy, plot.MarkerStyle{Shape: plot.MarkerTriangleUp, Size: st.pxf(12), Color: plot.Vermillion}); err != nil {
			return err
		}
	}
	if len(ux) > 0 {
		if err := axes[0].Scatter(dst, ux, uy, plot.MarkerStyle{Shape: plot.MarkerTriangleDown, Size: st.pxf(12), Color: plot.Orange}); err != nil {
			return err
		}
	}
	if err := axes[1].Line(dst, x, cur, thin); err != nil {
		return err
	}
	if err := axes[1].Step(dst, x, scale, plot.StepMid, plot.LineStyle{Color: plot.Blue, Width: st.pxf(2.5)}); err != nil {
		return err
	}
	if err := axes[2].Line(dst, x, csq, thin); err != nil {
		return err
	}
	if err := axes[2].Line(dst, x, sq, plot.LineStyle{Color: plot.Blue, Width: st.pxf(2)}); err != nil {
		return err
	}
	if strips {
		for i, l := range legends {
			if _, err := axes[i].Legend(dst, plot.TopLeft, l); err != nil {
				return err
			}
		}
		return nil
	}
	below := body.Min.Y // each legend starts beside its plot, below the one before
	for i, l := range legends {
		area := image.Rect(plots.Max.X, max(axes[i].Plot.Min.Y, below), body.Max.X, body.Max.Y)
		box, err := plot.DrawLegend(dst, area, plot.TopLeft, l, &th)
		if err != nil {
			return err
		}
		below = box.Max.Y
	}
	return nil
}

// windowTint fills the window of magnitudes a step's scale lets through.
var windowTint = plot.WithAlpha(plot.Blue, 0x30)

// log2Span returns a log2 scale over whole binades covering the positive
// finite values of the slices, with a binade of room above for legends.
func log2Span(series ...[]float64) (plot.LogScale, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, v := range s {
			if v > 0 && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 1, 2
	}
	return plot.NewLog2(math.Exp2(math.Floor(math.Log2(lo))), math.Exp2(math.Ceil(math.Log2(hi))+2))
}
