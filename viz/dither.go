package viz

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// ditherMaxFrames is the largest number of stochastic frames averaged.
const ditherMaxFrames = 256

// Animator is implemented by scenes that change by themselves over time,
// such as the dither scene, whose average of N stochastic frames grows
// while its "animate" parameter is on. The desktop app and the playground
// call Animate once per frame.
type Animator interface {
	// Animate advances the animation by one step and reports whether a
	// parameter changed (so the picture must be drawn again).
	Animate() bool
}

// ditherScene quantizes the mystery image with every method, averages
// stochastic frames, and plots PSNR against N and the tiny-update
// experiment.
type ditherScene struct {
	ps *paramSet

	key                   string // parameters of the image and quantizers
	img                   *dither.Gray
	stoch                 *dither.Quantizer
	nearest, bayer, floyd *dither.Gray
	pNearest, pBayer, pFS float64
	frame0                *dither.Gray // one stochastic frame
	sum                   []float64    // sum of stochastic frames 0..nSum-1
	nSum                  int
	psnr                  []float64 // PSNR of the mean of frames 0..n-1, n = 1..len
	avg                   *dither.Gray
	levels                int
	imgW, imgH            int // size of the mystery image, from the last render
	tinyKey               string
	tiny                  *dither.TinyUpdateResult
	tinyStart, tinyUpdate float64
	lastErr               error
}

func newDither() Scene {
	return &ditherScene{ps: newParamSet(
		Param{Name: "grid", Label: "Levels from", Kind: ParamChoice, Options: []string{"levels", "E4M3FN", "E5M2", "E3M2", "E2M3", "E2M1"}, Default: "levels",
			Help: "levels: k evenly spaced grey levels; a format: its non-negative values scaled so that max is white"},
		Param{Name: "levels", Label: "Grey levels", Kind: ParamInt, Min: 2, Max: 16, Step: 1, Default: "2",
			Help: "number of evenly spaced levels (with grid=levels)"},
		Param{Name: "frames", Label: "Frames N", Kind: ParamInt, Min: 1, Max: ditherMaxFrames, Step: 1, Default: "16",
			Help: "how many stochastic frames are averaged"},
		Param{Name: "animate", Label: "Grow N live", Kind: ParamBool, Default: "true",
			Help: "add one frame at every screen refresh until N reaches 256"},
		Param{Name: "bits", Label: "Random bits", Kind: ParamInt, Min: 1, Max: 32, Step: 1, Default: "32",
			Help: "random bits per stochastic rounding; too few bias the result toward zero"},
		Param{Name: "bayer", Label: "Bayer matrix", Kind: ParamChoice, Options: []string{"2", "4", "8"}, Default: "4",
			Help: "size of the ordered-dithering threshold matrix"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 0, Max: 1 << 20, Step: 1, Default: "1",
			Help: "Philox key of the stochastic rounding"},
		Param{Name: "tiny_format", Label: "Tiny-update format", Kind: ParamChoice, Options: []string{"BF16", "FP16", "E5M2", "E4M3FN"}, Default: "BF16",
			Help: "the format a weight is stored in while it receives tiny updates"},
		Param{Name: "tiny_update", Label: "Tiny update (log₂)", Kind: ParamInt, Min: -20, Max: -1, Step: 1, Default: "-10",
			Help: "the update added 1000 times to a weight starting at 1"},
	)}
}

// Name implements Scene.
func (s *ditherScene) Name() string { return "dither" }

// Title implements Scene.
func (s *ditherScene) Title() string { return "Dithering and stochastic rounding" }

// Params implements Scene.
func (s *ditherScene) Params() []Param { return s.ps.Params() }

// Get implements Scene.
func (s *ditherScene) Get(name string) (string, error) { return s.ps.Get(name) }

// Click implements Scene.
func (s *ditherScene) Click(x, y, w, h int) bool { return false }

// Set changes a parameter; a quantizer the dither package refuses is an
// error and leaves the scene unchanged.
func (s *ditherScene) Set(name, value string) error {
	return s.ps.setAndApply(name, value, s.compute)
}

// Animate implements Animator: while animate is on, N grows by one.
func (s *ditherScene) Animate() bool {
	n := s.ps.int("frames")
	if !s.ps.bool("animate") || n >= ditherMaxFrames {
		return false
	}
	s.ps.values["frames"] = strconv.Itoa(n + 1)
	return true
}

// options returns the dither options of a method for the current grid.
func (s *ditherScene) options(m dither.Method) (dither.Options, error) {
	o := dither.Options{Method: m, Seed: uint64(s.ps.int("seed")), RandomBits: s.ps.int("bits")}
	if g := s.ps.str("grid"); g == "levels" {
		o.Levels = s.ps.int("levels")
	} else {
		f, err := fp8.Lookup(g)
		if err != nil {
			return o, err
		}
		o.Format = f
	}
	return o, nil
}

// once quantizes img with one deterministic method.
func (s *ditherScene) once(m dither.Method) (*dither.Gray, float64, error) {
	o, err := s.options(m)
	if err != nil {
		return nil, 0, err
	}
	out, err := dither.Dither(s.img, o)
	if err != nil {
		return nil, 0, err
	}
	p, err := dither.PSNR(s.img, out)
	return out, p, err
}

// compute brings the images, the running average of N frames, its PSNR
// curve and the tiny-update experiment up to date. Adding frames reuses
// the running sum, so growing N costs one frame per step.
func (s *ditherScene) compute() error {
	if s.imgW == 0 {
		s.imgW, s.imgH = 128, 96
	}
	key := s.ps.key("grid", "levels", "bits", "bayer", "seed") + fmt.Sprintf("%dx%d", s.imgW, s.imgH)
	if key != s.key {
		img, err := dither.Mystery(s.imgW, s.imgH)
		if err != nil {
			return err
		}
		s.img = img
		o, err := s.options(dither.Stochastic)
		if err != nil {
			return err
		}
		if s.stoch, err = dither.NewQuantizer(o); err != nil {
			return err
		}
		s.levels = len(s.stoch.Levels())
		if s.nearest, s.pNearest, err = s.once(dither.Nearest); err != nil {
			return err
		}
		bm := map[string]dither.Method{"2": dither.Bayer2, "4": dither.Bayer4, "8": dither.Bayer8}[s.ps.str("bayer")]
		if s.bayer, s.pBayer, err = s.once(bm); err != nil {
			return err
		}
		if s.floyd, s.pFS, err = s.once(dither.FloydSteinberg); err != nil {
			return err
		}
		if s.frame0, err = dither.NewGray(img.Width(), img.Height()); err != nil {
			return err
		}
		if err := s.stoch.Frame(s.frame0, img, 0); err != nil {
			return err
		}
		s.sum, s.nSum, s.psnr = make([]float64, len(img.Pix())), 0, nil
		s.key = key
	}
	n := s.ps.int("frames")
	if n < s.nSum {
		s.sum, s.nSum, s.avg = make([]float64, len(s.img.Pix())), 0, nil
	}
	if n != s.nSum || s.avg == nil {
		fr, err := dither.NewGray(s.img.Width(), s.img.Height())
		if err != nil {
			return err
		}
		for s.nSum < n {
			if err := s.stoch.Frame(fr, s.img, uint64(s.nSum)); err != nil {
				return err
			}
			for i, v := range fr.Pix() {
				s.sum[i] += float64(v)
			}
			s.nSum++
			if s.nSum > len(s.psnr) {
				avg, err := s.mean()
				if err != nil {
					return err
				}
				p, err := dither.PSNR(s.img, avg)
				if err != nil {
					return err
				}
				s.psnr = append(s.psnr, p)
			}
		}
		avg, err := s.mean()
		if err != nil {
			return err
		}
		s.avg = avg
	}
	return s.computeTiny()
}

// mean returns the mean of the nSum frames summed so far, computed as
// dither's Quantizer.Dither computes it (a float64 sum, divided, rounded
// to float32).
func (s *ditherScene) mean() (*dither.Gray, error) {
	pix := make([]float32, len(s.sum))
	for i, v := range s.sum {
		pix[i] = float32(v / float64(s.nSum))
	}
	return dither.GrayFromPixels(s.img.Width(), s.img.Height(), pix)
}

func (s *ditherScene) computeTiny() error {
	key := s.ps.key("tiny_format", "tiny_update", "bits", "seed")
	if key == s.tinyKey {
		return nil
	}
	u := math.Exp2(float64(s.ps.int("tiny_update")))
	res, err := dither.TinyUpdates(dither.TinyUpdateConfig{
		Format: s.ps.str("tiny_format"), Start: 1, Update: u, Steps: 1000,
		RandomBits: s.ps.int("bits"), Seed: uint64(s.ps.int("seed")), Stream: 1,
	})
	if err != nil {
		return err
	}
	s.tiny, s.tinyStart, s.tinyUpdate, s.tinyKey = res, 1, u, key
	return nil
}

// Facts implements Scene.
func (s *ditherScene) Facts() map[string]string {
	if err := s.compute(); err != nil {
		return map[string]string{"error": err.Error()}
	}
	n := s.ps.int("frames")
	last := len(s.tiny.Exact) - 1
	return map[string]string{
		"levels":                strconv.Itoa(s.levels),
		"frames":                strconv.Itoa(n),
		"psnr_nearest_db":       fact(s.pNearest),
		"psnr_stochastic_1_db":  fact(s.psnr[0]),
		"psnr_average_db":       fact(s.psnr[n-1]),
		"psnr_bayer_db":         fact(s.pBayer),
		"psnr_floyd_db":         fact(s.pFS),
		"tiny_exact_final":      fact(s.tiny.Exact[last]),
		"tiny_nearest_final":    fact(s.tiny.Nearest[last]),
		"tiny_stochastic_final": fact(s.tiny.Stochastic[last]),
		"tiny_start":            fact(s.tiny.Start),
		"random_bits":           s.ps.str("bits"),
	}
}

// Render implements Scene.
func (s *ditherScene) Render(dst *image.RGBA) error {
	grid := fmt.Sprintf("%d grey levels", s.ps.int("levels"))
	if g := s.ps.str("grid"); g != "levels" {
		grid = g + " values as grey levels"
	}
	st, body, err := begin(dst, "Dithering and stochastic rounding", "the mystery image quantized to "+grid+" · "+s.ps.str("bits")+" random bits")
	if err != nil {
		return err
	}
	cols, err := plot.SplitColumns(body, st.px(24), 1.85, 1)
	if err != nil {
		return err
	}
	cells, err := plot.GridCells(cols[0], 2, 3, st.px(10))
	if err != nil {
		return err
	}
	// The image is drawn at zoom 2, so that single pixels of the dither
	// patterns stay visible: its size follows the panels' size.
	capH := st.px(24)
	w := min(cells[0].Dx()/2, (cells[0].Dy()-capH)/2*4/3)
	w = min(max(w/4*4, 64), 320)
	s.imgW, s.imgH = w, w*3/4
	if err := s.compute(); err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	if err := s.drawImages(dst, st, cells); err != nil {
		return err
	}
	right, err := plot.SplitRows(cols[1], st.px(14), 1, 1)
	if err != nil {
		return err
	}
	if err := s.drawPSNR(dst, st, right[0]); err != nil {
		return err
	}
	return s.drawTiny(dst, st, right[1])
}

// drawImages shows the original and the five quantizations.
func (s *ditherScene) drawImages(dst *image.RGBA, st style, cells []image.Rectangle) error {
	n := s.ps.int("frames")
	panels := []struct {
		g       *dither.Gray
		caption string
	}{
		{s.img, "original"},
		{s.nearest, "round to nearest · " + dB(s.pNearest)},
		{s.frame0, "one stochastic frame · " + dB(s.psnr[0])},
		{s.avg, fmt.Sprintf("mean of %d frames · %s", n, dB(s.psnr[n-1]))},
		{s.bayer, fmt.Sprintf("Bayer %s×%s · %s", s.ps.str("bayer"), s.ps.str("bayer"), dB(s.pBayer))},
		{s.floyd, "Floyd–Steinberg · " + dB(s.pFS)},
	}
	th := st.th
	th.TickSize = 14 * st.s
	th.MutedText = th.Foreground
	for i, p := range panels {
		if _, err := plot.DrawImagePanel(dst, cells[i], p.g.Pix(), p.g.Width(), p.g.Height(), plot.ImageStyle{Caption: p.caption, Theme: &th}); err != nil {
			return err
		}
	}
	return nil
}

// drawPSNR plots the PSNR of the mean of n stochastic frames against n
// beside the flat lines of the deterministic methods.
func (s *ditherScene) drawPSNR(dst *image.RGBA, st style, r image.Rectangle) error {
	n := s.ps.int("frames")
	xs, err := plot.NewLog2(1, ditherMaxFrames)
	if err != nil {
		return err
	}
	hi := math.Max(math.Max(s.pBayer, s.pFS), s.pNearest)
	for _, p := range s.psnr {
		hi = math.Max(hi, p)
	}
	lo := math.Min(s.pNearest, s.psnr[0])
	ys, err := plot.NewLinear(math.Floor(lo/5)*5, math.Ceil((hi+2)/5)*5)
	if err != nil {
		return err
	}
	ax, err := st.axes(r, xs, ys, "PSNR against the original", "frames averaged, N", "PSNR (dB)")
	if err != nil {
		return err
	}
	ax.Draw(dst)
	flat := func(v float64, c color.RGBA, dash []float64) error {
		return ax.Line(dst, []float64{1, ditherMaxFrames}, []float64{v, v}, plot.LineStyle{Color: c, Width: st.pxf(2), Dash: dash})
	}
	if err := flat(s.pNearest, plot.Vermillion, nil); err != nil {
		return err
	}
	if err := flat(s.pBayer, plot.BluishGreen, []float64{st.pxf(6), st.pxf(4)}); err != nil {
		return err
	}
	if err := flat(s.pFS, plot.ReddishPurple, []float64{st.pxf(2), st.pxf(3)}); err != nil {
		return err
	}
	k := min(n, len(s.psnr))
	xsd, ysd := make([]float64, k), make([]float64, k)
	for i := 0; i < k; i++ {
		xsd[i], ysd[i] = float64(i+1), s.psnr[i]
	}
	if err := ax.Line(dst, xsd, ysd, plot.LineStyle{Color: plot.Blue, Width: st.pxf(2.5)}); err != nil {
		return err
	}
	p := ax.Map(float64(n), s.psnr[n-1])
	plot.FillCircle(ax.Clip(dst), p.X, p.Y, st.pxf(5), plot.Blue)
	_, err = ax.Legend(dst, plot.TopLeft, []plot.LegendEntry{
		{Label: "mean of N stochastic frames", Color: plot.Blue, Width: st.pxf(2.5)},
		{Label: "nearest", Color: plot.Vermillion, Width: st.pxf(2)},
		{Label: "Bayer", Color: plot.BluishGreen, Width: st.pxf(2), Dash: []float64{st.pxf(6), st.pxf(4)}},
		{Label: "Floyd–Steinberg", Color: plot.ReddishPurple, Width: st.pxf(2), Dash: []float64{st.pxf(2), st.pxf(3)}},
	})
	return err
}

// drawTiny plots a weight receiving the same tiny update 1000 times, with
// round to nearest (stalls) and stochastic rounding (tracks the sum).
func (s *ditherScene) drawTiny(dst *image.RGBA, st style, r image.Rectangle) error {
	t := s.tiny
	steps := make([]float64, len(t.Exact)+1)
	exact := append([]float64{t.Start}, t.Exact...)
	near := append([]float64{t.Start}, t.Nearest...)
	sto := append([]float64{t.Start}, t.Stochastic...)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range steps {
		steps[i] = float64(i)
		for _, v := range []float64{exact[i], near[i], sto[i]} {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	pad := (hi - lo) * 0.08
	if pad == 0 {
		pad = 0.01
	}
	xs, err := plot.NewLinear(0, float64(len(steps)-1))
	if err != nil {
		return err
	}
	ys, err := plot.NewLinear(lo-pad, hi+pad*2.5)
	if err != nil {
		return err
	}
	ax, err := st.axes(r, xs, ys, fmt.Sprintf("Tiny updates: w += 2%s in %s", plot.Superscript(s.ps.int("tiny_update")), s.ps.str("tiny_format")), "step", "w")
	if err != nil {
		return err
	}
	ax.Draw(dst)
	if err := ax.Line(dst, steps, exact, plot.LineStyle{Color: st.th.Foreground, Width: st.pxf(1.5), Dash: []float64{st.pxf(6), st.pxf(4)}}); err != nil {
		return err
	}
	if err := ax.Step(dst, steps, near, plot.StepPost, plot.LineStyle{Color: plot.Vermillion, Width: st.pxf(2.5)}); err != nil {
		return err
	}
	if err := ax.Step(dst, steps, sto, plot.StepPost, plot.LineStyle{Color: plot.Blue, Width: st.pxf(2)}); err != nil {
		return err
	}
	_, err = ax.Legend(dst, plot.TopLeft, []plot.LegendEntry{
		{Label: "exact sum", Width: st.pxf(1.5), Dash: []float64{st.pxf(6), st.pxf(4)}},
		{Label: "round to nearest", Color: plot.Vermillion, Width: st.pxf(2.5)},
		{Label: "stochastic rounding", Color: plot.Blue, Width: st.pxf(2)},
	})
	return err
}
