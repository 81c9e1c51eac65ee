package viz

import (
	"fmt"
	"image"
	"math"
	"sort"
	"strconv"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/fp8lab/fp8lab/viz/plot"
)

// The parameter ranges of the stochastic scene.
const (
	srMaxBits  = 24     // random bits r: 1..srMaxBits
	srMaxDraws = 100000 // draws N: 1..srMaxDraws
	srMaxX     = 100    // x in [-srMaxX, srMaxX]
	srStream   = 0      // the Philox stream id of the draws
)

// srRules are the stochastic rules in the order the scene shows them.
var srRules = []fp8.StochasticRule{fp8.StochasticFloor, fp8.StochasticNearest}

// stochasticScene rounds one value x stochastically: the two neighbours it
// chooses between, the exact probability of going up for r random bits
// under each rule, the bias that follows, and N draws from the project's
// Philox stream whose frequency and running mean approach the exact values.
type stochasticScene struct {
	sceneBase
	key string
	f   *fp8.Format
	res srResult

	line *plot.Axes // the number line of the last render, for clicks
	size image.Point
}

// srExact is what one rule gives for one r, exactly: the probability that
// x rounds to the upper neighbour, the mean of the rounded values and its
// distance from x.
type srExact struct {
	p, mean, bias float64
}

// srResult holds everything the scene shows for the current parameters.
type srResult struct {
	x            float64
	lower, upper float64   // the neighbours in value order; equal when x needs no choice
	step         float64   // upper - lower
	vals         []float64 // the format's finite values, ascending
	pIdeal       float64   // P(upper) with exact (infinitely many) random bits
	dropped      int       // significant bits of x below the last kept bit
	rule         fp8.StochasticRule
	exact        [2]srExact   // per rule in srRules, for the chosen r
	curve        [2][]float64 // per rule: bias in steps for r = 1..srMaxBits
	ups          int          // draws that went to upper
	mean         float64      // mean of the rounded draws
	runN, runV   []float64    // the running mean after runN[i] draws
	draws, drawR int
}

func newStochastic() Scene {
	return newScene(&stochasticScene{sceneBase: sceneBase{name: "stochastic", title: "Stochastic rounding", ps: newParamSet(
		Param{Name: "x", Label: "Value x", Kind: ParamNumber, Min: -srMaxX, Max: srMaxX, Step: 0.0001, Default: "1.1",
			Help: "the value rounded stochastically; click the number line to move it"},
		Param{Name: "format", Label: "Format", Kind: ParamChoice, Options: signedFormats(), Default: "E4M3FN",
			Help: "the format x is rounded to"},
		Param{Name: "random_bits", Label: "Random bits r", Kind: ParamInt, Min: 1, Max: srMaxBits, Step: 1, Default: "4",
			Help: "how many random bits decide each rounding: probabilities become multiples of 2^-r"},
		Param{Name: "rule", Label: "Rule", Kind: ParamChoice, Options: []string{"floor", "nearest"}, Default: "floor",
			Help: "floor: add r random bits below the last kept bit and truncate (fp8lab, GPU kernels); nearest: round the position to r bits first (gfloat)"},
		Param{Name: "draws", Label: "Draws N", Kind: ParamInt, Min: 1, Max: srMaxDraws, Step: 1, Default: "1000",
			Help: "how many times x is rounded, each with its own word of the Philox stream"},
		Param{Name: "seed", Label: "Seed", Kind: ParamInt, Min: 0, Max: 1 << 20, Step: 1, Default: "1",
			Help: "seed of the Philox stream that supplies the random bits"},
	)}, f: fp8.E4M3FN})
}

// Set implements Scene.
func (s *stochasticScene) Set(name, value string) error {
	return s.ps.setAndApply(name, value, s.compute)
}

// srNeighbours returns the values x rounds between, in value order, from
// fp8's Explain: beyond ±Max both are the saturated value, and a value of
// the format is its own neighbour.
func srNeighbours(f *fp8.Format, x float64) (lower, upper, pIdeal float64, err error) {
	ex, err := f.Explain(x, fp8.Mode{})
	if err != nil {
		return 0, 0, 0, err
	}
	lower, upper = float64(ex.Lower), float64(ex.Upper)
	switch {
	case math.IsInf(upper, 1):
		upper = lower
	case math.IsInf(lower, -1):
		lower = upper
	}
	if lower == upper {
		return lower, upper, 0, nil
	}
	// UpProbability is the chance of going away from zero.
	pIdeal = ex.UpProbability
	if x < 0 {
		pIdeal = 1 - pIdeal
	}
	return lower, upper, pIdeal, nil
}

// srProbability returns the exact probability that x rounds to upper with r
// random bits under rule, by asking fp8's codec: the words that round away
// from zero are those from a threshold up, so a binary search over the 2^r
// words finds how many there are.
func srProbability(f *fp8.Format, x, lower, upper float64, r int, rule fp8.StochasticRule) (float64, error) {
	if lower == upper {
		return 0, nil
	}
	away := upper
	if x < 0 {
		away = lower
	}
	mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: r, SRRule: rule}
	var err error
	n := 1 << r
	first := sort.Search(n, func(w int) bool {
		c, e := f.EncodeStochastic(x, uint32(w), mode)
		if e != nil {
			err = e
			return true
		}
		return f.Decode(c) == away
	})
	if err != nil {
		return 0, err
	}
	pAway := float64(n-first) / float64(n)
	if x < 0 {
		return 1 - pAway, nil
	}
	return pAway, nil
}

// significantBits returns how many bits d (in [0, 1), exact) has after
// the binary point.
func significantBits(d float64) int {
	k := 0
	for d != math.Trunc(d) && k < 1100 {
		d *= 2
		k++
	}
	return k
}

func (s *stochasticScene) compute() error {
	key := s.ps.key("x", "format", "random_bits", "rule", "draws", "seed")
	if key == s.key {
		return nil
	}
	f, err := fp8.Lookup(s.ps.str("format"))
	if err != nil {
		return err
	}
	rule, err := fp8.ParseStochasticRule(s.ps.str("rule"))
	if err != nil {
		return err
	}
	x, r, n := s.ps.float("x"), s.ps.int("random_bits"), s.ps.int("draws")
	var res srResult
	res.x, res.rule, res.draws, res.drawR = x, rule, n, r
	if res.lower, res.upper, res.pIdeal, err = srNeighbours(f, x); err != nil {
		return err
	}
	res.step = res.upper - res.lower
	res.vals = finiteValues(f)
	if res.step > 0 {
		res.dropped = significantBits((math.Abs(x) - math.Min(math.Abs(res.lower), math.Abs(res.upper))) / res.step)
	}
	for i, rl := range srRules {
		res.curve[i] = make([]float64, srMaxBits)
		for b := 1; b <= srMaxBits; b++ {
			p, err := srProbability(f, x, res.lower, res.upper, b, rl)
			if err != nil {
				return err
			}
			mean := res.lower + p*res.step
			if res.step > 0 {
				res.curve[i][b-1] = (mean - x) / res.step
			}
			if b == r {
				res.exact[i] = srExact{p: p, mean: mean, bias: mean - x}
			}
		}
	}
	if err := res.drawAll(f, uint64(s.ps.int("seed"))); err != nil {
		return err
	}
	s.f, s.res, s.key = f, res, key
	return nil
}

// drawAll rounds x res.draws times with the words of the Philox stream of
// seed, counting the draws that went up and keeping the running mean at
// every draw up to 100, then at about 1 % steps.
func (res *srResult) drawAll(f *fp8.Format, seed uint64) error {
	words := make([]uint32, res.draws)
	rng.NewStream(seed, srStream).Fill(words, 0)
	mode := fp8.Mode{Round: fp8.Stochastic, RandomBits: res.drawR, SRRule: res.rule}
	var sum float64
	next := 1
	for i, w := range words {
		c, err := f.EncodeStochastic(res.x, w, mode)
		if err != nil {
			return err
		}
		v := f.Decode(c)
		sum += v
		if v == res.upper && res.step > 0 {
			res.ups++
		}
		if k := i + 1; k == next || k == len(words) {
			res.runN = append(res.runN, float64(k))
			res.runV = append(res.runV, sum/float64(k))
			next = max(k+1, int(float64(k)*1.01))
		}
	}
	res.mean = sum / float64(len(words))
	return nil
}

// chosen returns the exact result of the chosen rule.
func (res *srResult) chosen() srExact {
	if res.rule == fp8.StochasticNearest {
		return res.exact[1]
	}
	return res.exact[0]
}

// frequency returns the fraction of draws that went up.
func (res *srResult) frequency() float64 { return float64(res.ups) / float64(res.draws) }

// direction names the sign of a bias.
func direction(bias float64) string {
	switch {
	case bias < 0:
		return "biased down"
	case bias > 0:
		return "biased up"
	}
	return "unbiased"
}

// Facts implements Scene.
func (s *stochasticScene) Facts() map[string]string {
	if err := s.compute(); err != nil {
		return map[string]string{"error": err.Error()}
	}
	res := &s.res
	ch := res.chosen()
	sigma := math.Sqrt(ch.p * (1 - ch.p) / float64(res.draws))
	z := 0.0
	if sigma > 0 {
		z = (res.frequency() - ch.p) / sigma
	}
	biasSteps := 0.0
	if res.step > 0 {
		biasSteps = ch.bias / res.step
	}
	cover := "cover"
	if res.drawR < res.dropped {
		cover = "do not cover"
	}
	out := map[string]string{
		"format":               s.f.Name(),
		"x":                    fact(res.x),
		"lower":                fact(res.lower),
		"upper":                fact(res.upper),
		"step":                 fact(res.step),
		"up_probability_ideal": fact(res.pIdeal),
		"dropped_bits":         strconv.Itoa(res.dropped),
		"random_bits":          strconv.Itoa(res.drawR),
		"bits_cover":           cover,
		"rule":                 res.rule.String(),
		"up_probability":       fact(ch.p),
		"expected":             fact(ch.mean),
		"bias":                 fact(ch.bias),
		"bias_steps":           fact(biasSteps),
		"bias_direction":       direction(ch.bias),
		"draws":                strconv.Itoa(res.draws),
		"seed":                 s.ps.str("seed"),
		"ups":                  strconv.Itoa(res.ups),
		"up_frequency":         fact(res.frequency()),
		"frequency_sigmas":     fact(z),
		"mean":                 fact(res.mean),
	}
	for i, rl := range srRules {
		out[rl.String()+"_up_probability"] = fact(res.exact[i].p)
		out[rl.String()+"_bias"] = fact(res.exact[i].bias)
		out[rl.String()+"_bias_direction"] = direction(res.exact[i].bias)
	}
	return out
}

// Click implements Scene: a click on the number line moves x there.
func (s *stochasticScene) Click(x, y, w, h int) bool {
	if s.size != image.Pt(w, h) || s.line == nil {
		if s.Render(canvas(w, h)) != nil {
			return false
		}
	}
	if s.line == nil || !image.Pt(x, y).In(s.line.Plot) {
		return false
	}
	lo, hi := s.line.X.Domain()
	v := s.line.X.Invert(float64(x) + 0.5)
	// Keep about four digits of the visible span.
	e := int(math.Floor(math.Log10((hi - lo) / 2000)))
	v = math.Round(v*math.Pow(10, float64(-e))) / math.Pow(10, float64(-e))
	v = math.Min(math.Max(v, -srMaxX), srMaxX)
	text := strconv.FormatFloat(v, 'f', max(0, -e), 64)
	old := s.ps.str("x")
	if err := s.Set("x", text); err != nil {
		return false
	}
	return s.ps.str("x") != old
}

// Render implements Scene.
func (s *stochasticScene) render(dst *image.RGBA, d Display) error {
	sub := fmt.Sprintf("N = %s (seed %s) · r = %s · %s rule",
		plural(s.ps.int("draws"), "Philox draw", "Philox draws"), s.ps.str("seed"), plural(s.ps.int("random_bits"), "random bit", "random bits"), s.ps.str("rule"))
	st, body, err := begin(dst, d, "Stochastic rounding of x to "+s.ps.str("format"), sub)
	if err != nil {
		return err
	}
	s.size = dst.Bounds().Size()
	if err := s.compute(); err != nil {
		errorPanel(dst, body, st, err.Error())
		return nil
	}
	return s.draw(dst, st, body)
}
