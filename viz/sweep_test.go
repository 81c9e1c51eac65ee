package viz

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/viz/claim"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sweep: for every scene, walk its controls (every value of every
// choice, both values of every bool, the boundaries of every number, and
// typed text from a list of hostile and ordinary inputs), and check every
// claim its explanation makes against a second path that recomputes the
// claim's data without the scene's wording or facts code: a direct count,
// float64 or exact arithmetic on the library's raw outputs, or an
// enumeration of a format's codes.

// truths are the second path's answers, keyed by claim ID: [2]float64 for
// a Compare (A, B), int for a Count, float64 for a Share or a Quantity,
// bool for a Has, string for an Is.
type truths map[string]any

// sweepSpec is a scene's part of the sweep.
type sweepSpec struct {
	// texts are the values tried for each text parameter.
	texts map[string][]string
	// fixed holds parameters swept over fewer values than their range's
	// boundaries (a seed: two values show that it is read).
	fixed map[string][]string
	// short is how many settings the -short suite checks (0: 150), long
	// how many FP8LAB_LONG checks (0: all of them); at least 1,000 where
	// the space is that large.
	short, long int
	// truth is the second path: the truth of every claim the scene can make
	// in its current setting.
	truth func(t *testing.T, s Scene) truths
}

// sweeps holds every scene's sweep; TestSweepCoversEveryScene fails for a
// scene of the catalog without one.
var sweeps = map[string]sweepSpec{}

// setting is one assignment of every swept parameter, in Params order.
type setting [][2]string

func (st setting) String() string {
	var b strings.Builder
	for _, kv := range st {
		fmt.Fprintf(&b, "%s=%q ", kv[0], kv[1])
	}
	return strings.TrimSpace(b.String())
}

// sweepValues lists the values swept for one parameter.
func sweepValues(p Param, spec sweepSpec) []string {
	if v, ok := spec.fixed[p.Name]; ok {
		return v
	}
	switch p.Kind {
	case ParamChoice:
		return p.Options
	case ParamBool:
		return []string{"false", "true"}
	case ParamText:
		return spec.texts[p.Name]
	}
	var vals []float64
	for _, v := range []float64{p.Min, p.Max, 0, 1, -1, math.Round(p.Min / 2), math.Round((p.Min + p.Max) / 2)} {
		if v >= p.Min && v <= p.Max {
			vals = append(vals, v)
		}
	}
	if d, err := strconv.ParseFloat(p.Default, 64); err == nil {
		vals = append(vals, d)
	}
	sort.Float64s(vals)
	var out []string
	for i, v := range vals {
		if i == 0 || v != vals[i-1] {
			out = append(out, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	return out
}

// sweepSettings returns the settings to check: the whole cross product
// when it has at most limit members, else every single change from the
// defaults and a fixed random sample of the product up to limit.
func sweepSettings(params []Param, spec sweepSpec, limit int) (all int, out []setting) {
	values := make([][]string, len(params))
	all = 1
	for i, p := range params {
		values[i] = sweepValues(p, spec)
		if len(values[i]) == 0 {
			values[i] = []string{p.Default}
		}
		all *= len(values[i])
	}
	at := func(idx []int) setting {
		st := make(setting, len(params))
		for i, p := range params {
			st[i] = [2]string{p.Name, values[i][idx[i]]}
		}
		return st
	}
	decode := func(n int) []int {
		idx := make([]int, len(params))
		for i := len(params) - 1; i >= 0; i-- {
			idx[i] = n % len(values[i])
			n /= len(values[i])
		}
		return idx
	}
	if all <= limit {
		for n := 0; n < all; n++ {
			out = append(out, at(decode(n)))
		}
		return all, out
	}
	// Every value of every parameter once, the others at their defaults.
	def := make([]int, len(params))
	for i, p := range params {
		for j, v := range values[i] {
			if v == p.Default {
				def[i] = j
			}
		}
	}
	for i := range params {
		for j := range values[i] {
			idx := append([]int(nil), def...)
			idx[i] = j
			out = append(out, at(idx))
		}
	}
	r := rand.New(rand.NewPCG(1, uint64(len(params))))
	for len(out) < limit {
		out = append(out, at(decode(r.IntN(all))))
	}
	return all, out
}

// sweepTensor is the tensor loaded into scenes that take one, so that
// their "loaded" settings are reachable: a 256×256 matrix with zeros,
// an outlier row and values over many binades.
func sweepTensor() *scaling.Tensor {
	t, _ := scaling.NewTensor(256, 256)
	r := rand.New(rand.NewPCG(7, 11))
	for i := range t.Data {
		switch {
		case i%97 == 0:
			t.Data[i] = 0
		case i/256 == 5:
			t.Data[i] = float32(r.NormFloat64() * 4096)
		default:
			t.Data[i] = float32(r.NormFloat64() * math.Exp2(float64(r.IntN(16)-12)))
		}
	}
	return t
}

// applySetting makes the scene of a setting: a fresh scene (with the sweep
// tensor loaded where it takes one), then each value in order. It returns
// the values refused, which the explanation must survive too.
func applySetting(t *testing.T, name string, st setting) (Scene, []string) {
	s, err := New(name)
	require.NoError(t, err)
	if l, ok := s.(TensorLoader); ok {
		require.NoError(t, l.LoadTensor(sweepTensor()))
	}
	var refused []string
	for _, kv := range st {
		if err := s.Set(kv[0], kv[1]); err != nil {
			refused = append(refused, kv[0]+"="+kv[1])
		}
	}
	return s, refused
}

// Wording checks that need no second path.
var (
	singularAfterMany = regexp.MustCompile(`(?:^|[\s(])(0|[2-9]|\d{2,}) (value|step|row|code|scale|seed|recipe|layer|outlier|column|block|draw|frame|level|tensor|element|format)\b`)
	pluralNoun        = regexp.MustCompile(`^(rows|columns|values|codes|scales|steps|pixels|bits|blocks|tiles)$`)
	// "1 random bits", "1 E8M0 scales": a word may stand between.
	pluralAfterOne = regexp.MustCompile(`(?:^|[\s(])1 (?:[A-Za-z][A-Za-z0-9]* )?(values|steps|rows|codes|scales|seeds|recipes|layers|outliers|columns|blocks|draws|frames|levels|tensors|elements|formats|bits|amaxes)\b`)
)

// numberAgreementFaults reports the numbers in text whose noun disagrees
// with them: "1 scales", "3 value".
func numberAgreementFaults(text string) []string {
	var out []string
	for _, m := range singularAfterMany.FindAllStringIndex(text, -1) {
		// "3 outlier rows": the noun is an adjective of the plural after it.
		next := strings.Fields(text[m[1]:])
		if len(next) > 0 && pluralNoun.MatchString(strings.Trim(next[0], ",.;:)")) {
			continue
		}
		out = append(out, "singular after a number other than one: "+strings.TrimSpace(text[m[0]:m[1]]))
	}
	if m := pluralAfterOne.FindString(text); m != "" {
		out = append(out, "plural after one: "+strings.TrimSpace(m))
	}
	return out
}

// lintText reports wording faults of a paragraph.
func lintText(p string) []string {
	var out []string
	if strings.Contains(p, "%!") {
		out = append(out, "a formatting verb went wrong")
	}
	out = append(out, numberAgreementFaults(p)...)
	if strings.Contains(p, "  ") || strings.Contains(p, " ,") || strings.Contains(p, " .") {
		out = append(out, "stray space")
	}
	if strings.TrimSpace(p) != p || p == "" {
		out = append(out, "empty or padded paragraph")
	}
	return out
}

// sweepStats counts what a scene's sweep checked.
type sweepStats struct {
	settings, refused, claims int
	kinds                     map[claim.Kind]int
}

// sweepScene checks one scene over its settings.
func sweepScene(t *testing.T, name string, spec sweepSpec, limit int) sweepStats {
	s, err := New(name)
	require.NoError(t, err)
	all, sts := sweepSettings(s.Params(), spec, limit)
	st := sweepStats{kinds: map[claim.Kind]int{}}
	t.Logf("%s: %d settings in the space, checking %d", name, all, len(sts))
	failures := 0
	for _, set := range sts {
		sc, refused := applySetting(t, name, set)
		st.settings++
		if len(refused) > 0 {
			st.refused++
		}
		e := sc.Explain()
		tr := spec.truth(t, sc)
		var faults []string
		for _, p := range e.Paragraphs() {
			for _, f := range lintText(p) {
				faults = append(faults, fmt.Sprintf("%s in %q", f, p))
			}
		}
		if tk := e.Takeaway(); tk == "" || strings.Contains(strings.TrimSuffix(tk, "."), ". ") {
			faults = append(faults, fmt.Sprintf("the takeaway is not one sentence: %q", tk))
		}
		for _, c := range e.Claims() {
			st.claims++
			st.kinds[c.Kind()]++
			if err := checkClaim(t, name, sc, set, c, tr); err != nil {
				faults = append(faults, err.Error())
			}
		}
		if len(faults) > 0 {
			failures++
			if failures <= 5 {
				t.Errorf("%s %s (refused: %v):\n  %s\n  text: %s", name, set, refused, strings.Join(faults, "\n  "), strings.Join(e.Paragraphs(), "\n        "))
			}
		}
	}
	if failures > 5 {
		t.Errorf("%s: %d settings failed in all", name, failures)
	}
	return st
}

// checkClaim checks one claim against the second path.
func checkClaim(t *testing.T, name string, s Scene, set setting, c claim.Claim, tr truths) error {
	id := c.ID()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("claim %s %q (%s): %s", c.Kind(), id, c, fmt.Sprintf(format, args...))
	}
	switch v := c.(type) {
	case claim.FormatFact:
		if want := formatPropertyTruth(t, v.Format, v.Prop); want != v.Holds {
			return bad("the format's codes say %v", want)
		}
		return nil
	case claim.Reference:
		if !drawsLabel(t, s, v.Label) {
			return bad("the picture draws no %q", v.Label)
		}
		return nil
	case claim.Advice:
		return checkAdvice(t, name, s, set, v, tr)
	}
	want, ok := tr[id]
	if !ok {
		return bad("no second path for this claim")
	}
	switch v := c.(type) {
	case claim.Compare:
		ab, ok := want.([2]float64)
		if !ok {
			return bad("second path gave %T", want)
		}
		if got := claim.Order(ab[0], ab[1], v.Show); got != v.Order() {
			return bad("second path: %v against %v, order %d, claimed %d", ab[0], ab[1], got, v.Order())
		}
		if show := v.Show; show != nil && (show(ab[0]) != show(v.A) || show(ab[1]) != show(v.B)) {
			return bad("second path shows %s and %s, claim %s and %s", show(ab[0]), show(ab[1]), show(v.A), show(v.B))
		}
	case claim.Count:
		if n, ok := want.(int); !ok || n != v.N {
			return bad("second path counts %v", want)
		}
	case claim.Share:
		f, ok := want.(float64)
		if !ok || v.Show(f) != v.Show(v.Fraction) || (f == 0) != (v.Fraction == 0) {
			return bad("second path gives %v", want)
		}
	case claim.Quantity:
		f, ok := want.(float64)
		show := v.Show
		if show == nil {
			show = claim.Plain
		}
		if !ok || show(f) != show(v.V) {
			return bad("second path gives %v", want)
		}
	case claim.Has:
		if b, ok := want.(bool); !ok || b != v.Present {
			return bad("second path says %v", want)
		}
	case claim.Is:
		if sv, ok := want.(string); !ok || sv != v.Value {
			return bad("second path says %v", want)
		}
	default:
		return bad("unknown kind of claim %T", c)
	}
	return nil
}

// checkAdvice moves the advised control to the advised value in a scene of
// the same setting and checks, by the second path, that the goal improves.
func checkAdvice(t *testing.T, name string, s Scene, set setting, a claim.Advice, tr truths) error {
	now, ok := tr[a.Goal].(float64)
	if !ok {
		return fmt.Errorf("advice %q: no second path for its goal %q", a.Key, a.Goal)
	}
	moved, _ := applySetting(t, name, set)
	if err := moved.Set(a.Param, a.Target()); err != nil {
		return fmt.Errorf("advice %q: the advised %s=%s is refused: %v", a.Key, a.Param, a.Target(), err)
	}
	then, ok := sweeps[name].truth(t, moved)[a.Goal].(float64)
	if !ok || !(float64(a.Better)*(then-now) > 0) {
		return fmt.Errorf("advice %q (%s): moving %s to %s takes %s from %v to %v, which is no improvement", a.Key, a, a.Param, a.Target(), a.Goal, now, then)
	}
	return nil
}

// drawsLabel renders s at 1280×720 and reports whether some text drawn
// contains label.
func drawsLabel(t *testing.T, s Scene, label string) bool {
	img := canvas(1280, 720)
	for _, b := range plottest.RecordText(img, func() { require.NoError(t, s.Render(img)) }) {
		if strings.Contains(b.Text, label) {
			return true
		}
	}
	return false
}

// sweepLimit is how many settings a scene's sweep checks: its own sample
// in the -short suite, every setting (up to a bound) under FP8LAB_LONG.
func sweepLimit(spec sweepSpec) int {
	if testenv.Long() {
		if spec.long > 0 {
			return spec.long
		}
		return math.MaxInt
	}
	if spec.short > 0 {
		return spec.short
	}
	return 150
}

func TestSweep(t *testing.T) {
	for _, name := range Names() {
		spec, ok := sweeps[name]
		if !ok {
			continue // TestSweepCoversEveryScene says so
		}
		t.Run(name, func(t *testing.T) {
			st := sweepScene(t, name, spec, sweepLimit(spec))
			var kinds []string
			for _, k := range claim.Kinds() {
				if n := st.kinds[k]; n > 0 {
					kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
				}
			}
			fmt.Printf("sweep %-11s %5d settings (%d with a refused value), %6d claims checked: %s\n",
				name, st.settings, st.refused, st.claims, strings.Join(kinds, ", "))
		})
	}
}

// mutate returns a claim that says the opposite of c, or something off by
// one: a comparison flipped, a count one more, a presence negated. false
// when c has no such mutation (a comparison of infinities, say).
func mutate(c claim.Claim) (claim.Claim, bool) {
	switch v := c.(type) {
	case claim.Compare:
		if v.Order() != 0 {
			v.A, v.B = v.B, v.A
		} else if math.IsInf(v.B, 0) {
			return nil, false
		} else {
			v.A = v.B + math.Max(1, 2*math.Abs(v.B))
		}
		return v, true
	case claim.Count:
		v.N++
		return v, true
	case claim.Share:
		if v.Fraction < 0.5 {
			v.Fraction += 0.5
		} else {
			v.Fraction -= 0.5
		}
		return v, true
	case claim.Quantity:
		if math.IsInf(v.V, 0) {
			return nil, false
		}
		v.V += math.Max(1, math.Abs(v.V))
		return v, true
	case claim.Has:
		v.Present = !v.Present
		return v, true
	case claim.Is:
		v.Value += "~"
		return v, true
	case claim.FormatFact:
		v.Holds = !v.Holds
		return v, true
	case claim.Advice:
		v.To = 2*v.From - v.To
		return v, true
	case claim.Reference:
		v.Label += " (not drawn)"
		return v, true
	}
	return nil, false
}

// TestSweepCatchesMutations: a claim flipped, or a count off by one, fails
// its check, for every kind of claim the scenes make, on the first
// settings of every scene's sweep. It shows that no check passes whatever
// the claim says.
func TestSweepCatchesMutations(t *testing.T) {
	caught, tried := map[claim.Kind]int{}, map[claim.Kind]int{}
	for _, name := range Names() {
		spec, ok := sweeps[name]
		if !ok {
			continue
		}
		s, err := New(name)
		require.NoError(t, err)
		_, sts := sweepSettings(s.Params(), spec, 12)
		for _, set := range sts[:min(len(sts), 12)] {
			sc, _ := applySetting(t, name, set)
			tr := spec.truth(t, sc)
			for _, c := range sc.Explain().Claims() {
				require.NoError(t, checkClaim(t, name, sc, set, c, tr), "the claim itself holds")
				m, ok := mutate(c)
				if !ok {
					continue
				}
				tried[c.Kind()]++
				if checkClaim(t, name, sc, set, m, tr) != nil {
					caught[c.Kind()]++
				} else {
					t.Errorf("%s %s: the mutated claim %s %q (%s) passes its check", name, set, m.Kind(), m.ID(), m)
				}
			}
		}
	}
	for _, k := range claim.Kinds() {
		t.Logf("%-9s %d of %d mutations caught", k, caught[k], tried[k])
		assert.Positive(t, tried[k], "no %s claim was mutated: the scenes make none", k)
	}
}

// TestSweepCoversEveryScene: a scene joins the catalog with a sweep, and
// its explanation makes claims (a scene whose words judge nothing, or judge
// without claims, fails here).
func TestSweepCoversEveryScene(t *testing.T) {
	for _, name := range Names() {
		_, ok := sweeps[name]
		assert.True(t, ok, "scene %s has no sweep: add its second path to sweeps (docs/architecture.md, Add a scene)", name)
		s, err := New(name)
		require.NoError(t, err)
		assert.NotEmpty(t, s.Explain().Claims(), "scene %s explains without claims", name)
	}
}
