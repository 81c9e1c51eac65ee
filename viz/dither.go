package viz

import (
	"fmt"
	"math"
	"strconv"

	"github.com/fp8lab/fp8lab/dither"
	"github.com/fp8lab/fp8lab/dither/quality"
	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/stochastic"
)

// ditherMaxFrames is the largest number of stochastic frames averaged.
const ditherMaxFrames = 256

// The size of the mystery image the scene quantizes, whatever size it is
// drawn at: its numbers (PSNR, SSIM) are the same on a phone and on a
// projector, and the picture shows the image enlarged, or a crop of it at
// pixel scale where the whole would be too small (drawImages).
const ditherImgW, ditherImgH = 128, 96

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
	sceneBase

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
	tinyKey               string
	tiny                  *stochastic.TinyUpdateResult
	tinyStart, tinyUpdate float64
	scoreKey              string
	scores                []ditherScore // nearest, one frame, Bayer, Floyd–Steinberg, mean of N
	biased                int           // pixels whose expected stochastic value is not the original
}

// ditherScore is how one quantized image compares with the original:
// pixel by pixel (raw PSNR), after the eye blur, and by SSIM.
// ditherScored is how many pictures the score table compares (the rows
// of computeScores' list, which the compiler holds to it).
const ditherScored = 5

type ditherScore struct {
	key, label      string
	raw, blur, ssim float64
	oneFrame        bool // an image of the grid's levels (not the mean of N frames)
}

func newDither() Scene {
	return newScene(&ditherScene{sceneBase: sceneBase{name: "dither", title: "Dithering and stochastic rounding", ps: newParamSet(
		Param{Name: "grid", Label: "Levels from", Kind: ParamChoice, Options: append([]string{"levels"}, mxElementNames()...), Default: "levels",
			Help: "levels: k evenly spaced grey levels; a format: its non-negative values scaled so that max is white"},
		Param{Name: "levels", Label: "Grey levels", Kind: ParamInt, Min: 2, Max: 16, Step: 1, Default: "2",
			Help: "number of evenly spaced levels (with grid=levels)"},
		Param{Name: "frames", Label: "Frames N", Kind: ParamInt, Min: 1, Max: ditherMaxFrames, Step: 1, Default: "16",
			Help: "how many stochastic frames are averaged; setting N by hand stops Grow N live, so N stays where you put it", MovedBy: "animate"},
		Param{Name: "animate", Label: "Grow N live", Kind: ParamBool, Default: "true",
			Help: "N grows by one frame at every screen refresh and the box clears itself at 256; ticking it at 256 starts again from 1"},
		Param{Name: "bits", Label: "Random bits", Kind: ParamInt, Min: 1, Max: 32, Step: 1, Default: "32",
			Help: "random bits added below the last kept bit before truncating, per stochastic rounding (the floor rule)"},
		Param{Name: "bayer", Label: "Bayer matrix", Kind: ParamChoice, Options: []string{"2", "4", "8"}, Default: "4",
			Help: "size of the ordered-dithering threshold matrix"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 0, Max: 1 << 20, Step: 1, Default: "1",
			Help: "Philox key of the stochastic rounding"},
		Param{Name: "blur", Label: "Eye blur σ (pixels)", Kind: ParamNumber, Min: 0.25, Max: 4, Step: 0.25, Default: "1.5",
			Help: "standard deviation, in pixels of the image, of the Gaussian blur that models viewing from farther away (0.25: from up close, almost no blur)"},
		Param{Name: "view", Label: "Show images", Kind: ParamChoice, Options: []string{"pixels", "blurred"}, Default: "pixels",
			Help: "pixels: as quantized; blurred: after the eye blur, as they look from farther away"},
		Param{Name: "tiny_format", Label: "Tiny-update format", Kind: ParamChoice, Options: []string{"BF16", "FP16", "E5M2", "E4M3FN"}, Default: "BF16",
			Help: "the format a weight is stored in while it receives tiny updates"},
		Param{Name: "tiny_update", Label: "Tiny update (log₂)", Kind: ParamInt, Min: -20, Max: -1, Step: 1, Default: "-10",
			Help: "the update added 1000 times to a weight starting at 1"},
	)}})
}

// Click implements Scene.
func (s *ditherScene) Click(x, y, w, h int) bool { return false }

// Set changes a parameter; a quantizer the dither package refuses is an
// error and leaves the scene unchanged. The frame count has one home, the
// frames parameter, which Grow N live advances: setting N by hand stops
// the growth (so the two controls never pull N different ways), and
// ticking Grow N live when N is already at its maximum starts again from 1
// (so the box always does something visible).
func (s *ditherScene) Set(name, value string) error {
	growing := s.ps.bool("animate")
	if err := s.ps.setAndApply(name, value, s.compute); err != nil {
		return err
	}
	switch {
	case name == "frames" && growing:
		s.ps.values["animate"] = "false"
	case name == "animate" && !growing && s.ps.bool("animate") && s.ps.int("frames") >= ditherMaxFrames:
		s.ps.values["frames"] = "1"
		return s.compute()
	}
	return nil
}

// Animate implements Animator: while Grow N live is on, N grows by one;
// on reaching the maximum the growth switches itself off, so that the box
// shows whether N is still moving.
func (s *ditherScene) Animate() bool {
	n := s.ps.int("frames")
	if !s.ps.bool("animate") {
		return false
	}
	if n >= ditherMaxFrames {
		s.ps.values["animate"] = "false"
		return true
	}
	s.ps.values["frames"] = strconv.Itoa(n + 1)
	if n+1 >= ditherMaxFrames {
		s.ps.values["animate"] = "false"
	}
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
	p, err := quality.PSNR(s.img, out)
	return out, p, err
}

// compute brings the images, the running average of N frames, its PSNR
// curve and the tiny-update experiment up to date. Adding frames reuses
// the running sum, so growing N costs one frame per step.
func (s *ditherScene) compute() error {
	key := s.ps.key("grid", "levels", "bits", "bayer", "seed")
	if key != s.key {
		img, err := dither.Mystery(ditherImgW, ditherImgH)
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
		s.biased = s.countBiased()
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
				p, err := quality.PSNR(s.img, avg)
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
	if err := s.computeScores(); err != nil {
		return err
	}
	return s.computeTiny()
}

// countBiased counts the pixels whose expected value under stochastic
// rounding with r random bits is not the pixel itself. With r bits the
// floor rule goes up with probability floor(δ·2^r)/2^r, where δ is the
// pixel's position between the two levels around it, so a pixel is
// unbiased exactly when δ·2^r is a whole number. Every product here is
// exact in float64: a float32 times a small integer, or a difference of
// float32 values scaled by a power of two.
func (s *ditherScene) countBiased() int {
	o := s.stoch.Options()
	r := math.Ldexp(1, o.RandomBits)
	n := 0
	for _, v := range s.img.Pix() {
		v = min(max(v, 0), 1)
		var d float64
		if o.Format == nil {
			t := float64(v) * float64(o.Levels-1)
			d = t - math.Floor(t)
		} else {
			ex, err := o.Format.Explain(float64(v*float32(o.Scale)), fp8.Mode{})
			if err != nil {
				continue
			}
			d = ex.UpProbability
		}
		if dr := d * r; dr != math.Floor(dr) {
			n++
		}
	}
	return n
}

// computeScores measures every image against the original: raw PSNR,
// PSNR after the eye blur, and SSIM.
func (s *ditherScene) computeScores() error {
	n := s.ps.int("frames")
	key := s.key + "|" + s.ps.key("blur") + "|" + strconv.Itoa(n)
	if key == s.scoreKey {
		return nil
	}
	sigma := s.ps.float("blur")
	bs := s.ps.str("bayer")
	list := [ditherScored]struct {
		key, label string
		g          *dither.Gray
		raw        float64
		one        bool
	}{
		{"nearest", "round to nearest", s.nearest, s.pNearest, true},
		{"stochastic_1", "one stochastic frame", s.frame0, s.psnr[0], true},
		{"bayer", "Bayer " + bs + "×" + bs, s.bayer, s.pBayer, true},
		{"floyd", "Floyd–Steinberg", s.floyd, s.pFS, true},
		{"average", "mean of " + plural(n, "frame", "frames"), s.avg, s.psnr[n-1], false},
	}
	out := make([]ditherScore, len(list))
	for i, m := range list {
		b, err := quality.BlurredPSNR(s.img, m.g, sigma)
		if err != nil {
			return err
		}
		q, err := quality.SSIM(s.img, m.g)
		if err != nil {
			return err
		}
		out[i] = ditherScore{key: m.key, label: m.label, raw: m.raw, blur: b, ssim: q, oneFrame: m.one}
	}
	s.scores, s.scoreKey = out, key
	return nil
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
	res, err := stochastic.TinyUpdates(stochastic.TinyUpdateConfig{
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
	m := map[string]string{
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
		"blur_sigma":            s.ps.str("blur"),
		"growing":               s.ps.str("animate"),
		"max_frames":            strconv.Itoa(ditherMaxFrames),
		"image_size":            fmt.Sprintf("%dx%d", s.img.Width(), s.img.Height()),
		"pixels":                strconv.Itoa(len(s.img.Pix())),
		"biased_pixels":         strconv.Itoa(s.biased),
	}
	for _, sc := range s.scores {
		m["blur_psnr_"+sc.key+"_db"] = fact(sc.blur)
		m["ssim_"+sc.key] = fact(sc.ssim)
	}
	return m
}
