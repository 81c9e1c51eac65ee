package fp8

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite docs/conformance.md from testdata/conformance")

// conformanceDoc is where TestConformanceDoc writes the comparison.
const conformanceDoc = "../docs/conformance.md"

// confSource is one file of testdata/conformance: what one library (or the
// OCP specifications) does, cell by cell, with citations, and test vectors
// taken from its published tests, code or documents.
type confSource struct {
	Library    string              `json:"library"`
	Repository string              `json:"repository"`
	Commit     string              `json:"commit"`
	Cells      map[string]confCell `json:"cells"`
	Vectors    []confVector        `json:"vectors"`
}

type confCell struct {
	Says string `json:"says"`
	Path string `json:"path"`
}

// confVector is one input with the library's result. Matches says whether
// fp8lab, under the options given (overflow, sr_rule, rule), claims to give
// the same result; false records a known difference, which is checked too.
type confVector struct {
	Behaviour  string `json:"behaviour"`
	Path       string `json:"path"`
	Kind       string `json:"kind"` // encode, stochastic, e8m0, mx
	Format     string `json:"format,omitempty"`
	Input      string `json:"input"`
	Overflow   string `json:"overflow,omitempty"`
	RandomBits int    `json:"random_bits,omitempty"`
	SRRule     string `json:"sr_rule,omitempty"`
	Rule       string `json:"rule,omitempty"`
	Want       string `json:"want"`
	Matches    bool   `json:"matches"`
}

// confBehaviours are the rows of the document, in order.
var confBehaviours = []struct{ id, title string }{
	{"ties", "Ties (round to nearest)"},
	{"overflow", "Overflow thresholds and policy"},
	{"infnan", "±Inf and NaN inputs per mode"},
	{"fnuz", "FNUZ and negative zero"},
	{"e8m0", "E8M0 rounding"},
	{"mx", "MX shared-scale rule"},
	{"stochastic", "Stochastic rounding"},
	{"towardzero", "Toward-zero rounding and overflow"},
}

// confOrder is the column order of the libraries.
var confOrder = []string{"OCP", "ml_dtypes", "PyTorch", "ONNX", "gfloat", "torchao", "Transformer Engine"}

func loadConformance(t *testing.T) []confSource {
	files, err := filepath.Glob("testdata/conformance/*.json")
	require.NoError(t, err)
	var out []confSource
	for _, name := range files {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		var s confSource
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&s), name)
		for _, b := range confBehaviours {
			c, ok := s.Cells[b.id]
			require.True(t, ok, "%s lacks the cell %q", name, b.id)
			require.True(t, c.Says == "not checked" || c.Path != "", "%s %s: a fact needs a citation", name, b.id)
		}
		out = append(out, s)
	}
	rank := map[string]int{}
	for i, n := range confOrder {
		rank[n] = i
	}
	sort.Slice(out, func(i, j int) bool { return rank[out[i].Library] < rank[out[j].Library] })
	require.Len(t, out, len(confOrder), "one file per library")
	return out
}

// fp8labResult computes what fp8lab gives for a vector, as text comparable
// with Want.
func fp8labResult(t *testing.T, v confVector) string {
	switch v.Kind {
	case "encode":
		f, err := Lookup(v.Format)
		require.NoError(t, err)
		o, err := ParseOverflow(v.Overflow)
		require.NoError(t, err)
		c, err := f.EncodeString(v.Input, Mode{Overflow: o})
		require.NoError(t, err)
		return Number(f.Decode(c)).String()
	case "stochastic":
		f, err := Lookup(v.Format)
		require.NoError(t, err)
		rule, err := ParseStochasticRule(v.SRRule)
		require.NoError(t, err)
		x, err := ParseText(v.Input)
		require.NoError(t, err)
		return upFraction(t, f, x, v.RandomBits, rule)
	case "e8m0":
		r, err := ParseScaleRounding(v.Rule)
		require.NoError(t, err)
		x, err := ParseText(v.Input)
		require.NoError(t, err)
		c, err := EncodeE8M0(x, r)
		require.NoError(t, err)
		return fmt.Sprintf("0x%02X", c)
	case "mx":
		f, err := Lookup(v.Format)
		require.NoError(t, err)
		r, err := ParseScaleRounding(v.Rule)
		require.NoError(t, err)
		x, err := ParseText(v.Input)
		require.NoError(t, err)
		c, err := MXScale(x, f, r)
		require.NoError(t, err)
		k, err := E8M0Exponent(c)
		require.NoError(t, err)
		return strconv.Itoa(k)
	}
	t.Fatalf("unknown vector kind %q", v.Kind)
	return ""
}

// TestConformanceVectors checks every cited vector against fp8lab: equal
// where fp8lab claims to match under the given options, different where the
// file records a difference.
func TestConformanceVectors(t *testing.T) {
	n := 0
	for _, s := range loadConformance(t) {
		for _, v := range s.Vectors {
			got := fp8labResult(t, v)
			if v.Matches {
				assert.Equal(t, v.Want, got, "%s %s %+v", s.Library, v.Path, v)
			} else {
				assert.NotEqual(t, v.Want, got, "%s %s %+v: recorded as a difference", s.Library, v.Path, v)
			}
			n++
		}
	}
	assert.Greater(t, n, 40)
}

// TestConformanceDoc regenerates docs/conformance.md (go test -run
// TestConformanceDoc -update) and fails when the committed file differs.
func TestConformanceDoc(t *testing.T) {
	doc := renderConformance(t, loadConformance(t))
	if *update {
		require.NoError(t, os.WriteFile(conformanceDoc, []byte(doc), 0o644))
		return
	}
	b, err := os.ReadFile(conformanceDoc)
	require.NoError(t, err, "run go test ./fp8 -run TestConformanceDoc -update")
	require.Equal(t, doc, string(b), "docs/conformance.md is stale: run go test ./fp8 -run TestConformanceDoc -update")
}

func renderConformance(t *testing.T, srcs []confSource) string {
	var b strings.Builder
	b.WriteString("# Conformance: fp8lab beside OCP and the libraries\n\n")
	b.WriteString("Generated by `TestConformanceDoc` in fp8/conformance_test.go from the cited facts and test\n")
	b.WriteString("vectors in fp8/testdata/conformance/*.json; the fp8lab column is computed by fp8lab when the file\n")
	b.WriteString("is generated. Do not edit by hand: run `go test ./fp8 -run TestConformanceDoc -update`.\n")
	b.WriteString("\"not checked\" means nobody has verified that library's behaviour from its sources yet.\n\n")
	b.WriteString("Sources (repository at commit):\n\n")
	for _, s := range srcs {
		switch {
		case s.Repository == "" && s.Library == "OCP":
			b.WriteString("- OCP: OFP8 v1.0 and MX v1.0 specifications (PDF), as summarized in the project's design notes\n")
		case s.Commit == "":
			fmt.Fprintf(&b, "- %s: %s (not checked)\n", s.Library, s.Repository)
		default:
			fmt.Fprintf(&b, "- %s: %s at %s\n", s.Library, s.Repository, s.Commit[:12])
		}
	}
	computed := fp8labCells(t)
	for _, beh := range confBehaviours {
		fmt.Fprintf(&b, "\n## %s\n\n| source | behaviour | citation |\n|---|---|---|\n", beh.title)
		fmt.Fprintf(&b, "| **fp8lab** | %s | computed |\n", computed[beh.id])
		for _, s := range srcs {
			c := s.Cells[beh.id]
			cite := c.Path
			if cite == "" {
				cite = "—"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", s.Library, escapeCell(c.Says), escapeCell(cite))
		}
		if beh.id == "stochastic" {
			b.WriteString(stochasticBiasTable(t))
		}
	}
	b.WriteString("\n## Test vectors checked in CI\n\n")
	b.WriteString("`TestConformanceVectors` runs each against fp8lab under the options shown; \"same\" rows must match,\n")
	b.WriteString("\"differs\" rows must not (a recorded difference).\n\n")
	b.WriteString("| source | file | kind | input | fp8lab options | theirs | fp8lab | |\n|---|---|---|---|---|---|---|---|\n")
	for _, s := range srcs {
		for _, v := range s.Vectors {
			opts := strings.Join(strings.Fields(strings.Join([]string{v.Format, v.Overflow, ruleText(v)}, " ")), " ")
			verdict := "same"
			if !v.Matches {
				verdict = "differs"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", s.Library, escapeCell(v.Path), v.Kind, v.Input, opts, v.Want, fp8labResult(t, v), verdict)
		}
	}
	return b.String()
}

func ruleText(v confVector) string {
	switch {
	case v.SRRule != "":
		return fmt.Sprintf("r=%d sr-rule=%s", v.RandomBits, v.SRRule)
	case v.Rule != "":
		return v.Rule
	}
	return ""
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// fp8labCells describes what fp8lab does, computed from the library.
func fp8labCells(t *testing.T) map[string]string {
	enc := func(f *Format, s string, m Mode) string {
		c, err := f.EncodeString(s, m)
		require.NoError(t, err)
		return Number(f.Decode(c)).String()
	}
	encCode := func(f *Format, s string, m Mode) string {
		c, err := f.EncodeString(s, m)
		require.NoError(t, err)
		return fmt.Sprintf("0x%02X", c)
	}
	e8 := func(x float64, r ScaleRounding) string {
		c, err := EncodeE8M0(x, r)
		require.NoError(t, err)
		return Number(E8M0.Decode(c)).String()
	}
	mx := func(amax float64, r ScaleRounding) string {
		c, err := MXScale(amax, E4M3FN, r)
		require.NoError(t, err)
		k, _ := E8M0Exponent(c)
		return strconv.Itoa(k)
	}
	// The first overflowing float64 above the last tie.
	firstOver := func(f *Format) string {
		lo, hi := f.Max(), 2*f.Max()
		for i := 0; i < 200; i++ {
			mid := (lo + hi) / 2
			if f.Overflows(mid, Mode{}) {
				hi = mid
			} else {
				lo = mid
			}
		}
		return Number(lo).String()
	}
	nosat, keep := Mode{Overflow: NoSaturate}, Mode{Overflow: SaturateKeepInf}
	return map[string]string{
		"ties": fmt.Sprintf("nearest even on the exact input, once (text too): E4M3FN 1.0625 → %s, 1.06250000000000000001 → %s, 464 → %s; E5M2 61440 under saturate → %s",
			enc(E4M3FN, "1.0625", Mode{}), enc(E4M3FN, "1.06250000000000000001", Mode{}), enc(E4M3FN, "464", Mode{}), enc(E5M2, "61440", Mode{})),
		"overflow": fmt.Sprintf("round first, then compare: largest non-overflowing input E4M3FN %s, E5M2 %s; saturate (default) → ±max, no-saturate: E4M3FN 465 → %s, E5M2 61440 → %s; 1e400 → %s (saturate)",
			firstOver(E4M3FN), firstOver(E5M2), enc(E4M3FN, "465", nosat), enc(E5M2, "61440", nosat), enc(E4M3FN, "1e400", Mode{})),
		"infnan": fmt.Sprintf("saturate: +Inf → E4M3FN %s, E5M2 %s; saturate-keep-inf: %s, %s; no-saturate: %s, %s; -nan → E4M3FN %s (sign kept)",
			enc(E4M3FN, "inf", Mode{}), enc(E5M2, "inf", Mode{}), enc(E4M3FN, "inf", keep), enc(E5M2, "inf", keep), enc(E4M3FN, "inf", nosat), enc(E5M2, "inf", nosat), encCode(E4M3FN, "-nan", Mode{})),
		"fnuz": fmt.Sprintf("E4M3FNUZ: -0 → %s, -1e-10 → %s, NaN → %s; E4M3FN keeps -0 → %s",
			encCode(E4M3FNUZ, "-0", Mode{}), encCode(E4M3FNUZ, "-1e-10", Mode{}), encCode(E4M3FNUZ, "nan", Mode{}), encCode(E4M3FN, "-0", Mode{})),
		"e8m0": fmt.Sprintf("by name: floor 3 → %s, ceil 3 → %s, nearest-up 3 → %s and 6 → %s (ml_dtypes, PyTorch, ONNX), nearest-even 3 → %s and 6 → %s (fp8lab's older \"nearest\")",
			e8(3, ScaleFloor), e8(3, ScaleCeil), e8(3, ScaleNearestUp), e8(6, ScaleNearestUp), e8(3, ScaleNearestEven), e8(6, ScaleNearestEven)),
		"mx": fmt.Sprintf("exponent k for an E4M3FN block with amax 449: floor (OCP, torchao FLOOR) %s, ceil (torchao RCEIL) %s, nearest-even %s; torchao's CEIL and EVEN are not offered",
			mx(449, ScaleFloor), mx(449, ScaleCeil), mx(449, ScaleNearestEven)),
		"stochastic": "r random bits added below the last kept bit; sr-rule floor (default: truncate δ·2^r, gfloat's StochasticFastest) or nearest (round δ·2^r to nearest even first, gfloat's Stochastic); bias below",
		"towardzero": fmt.Sprintf("never rounds a finite input to Inf/NaN: E4M3FN 1000 toward zero under no-saturate → %s; E5M2 1e6 → %s",
			enc(E4M3FN, "1000", Mode{Round: TowardZero, Overflow: NoSaturate}), enc(E5M2, "1e6", Mode{Round: TowardZero, Overflow: NoSaturate})),
	}
}

// stochasticBiasTable lists E[round(v)] - v over all 2^r random words,
// exactly, for both rules (E5M2, where the ULP between 256 and 512 is 64).
func stochasticBiasTable(t *testing.T) string {
	var b strings.Builder
	b.WriteString("\nBias E[round(v)] − v of fp8lab's two rules in E5M2 (ULP 64 between 256 and 512), exact over all\n")
	b.WriteString("2^r random words (computed by fp8lab; `TestStochasticRuleBias` checks the closed forms):\n\n")
	b.WriteString("| v | r | floor: P(up) | floor: bias | nearest: P(up) | nearest: bias |\n|---|---|---|---|---|---|\n")
	for _, v := range []float64{259, 277, 311} {
		for r := 3; r <= 5; r++ {
			fmt.Fprintf(&b, "| %g | %d | %s | %s | %s | %s |\n", v, r,
				upFraction(t, E5M2, v, r, StochasticFloor), stochasticBias(t, E5M2, v, r, StochasticFloor).RatString(),
				upFraction(t, E5M2, v, r, StochasticNearest), stochasticBias(t, E5M2, v, r, StochasticNearest).RatString())
		}
	}
	// Mean bias and mean |bias| over v = 256 + j/4, j = 1..255 (every
	// quarter inside the first ULP), r = 3.
	var sumF, sumN, absF, absN float64
	n := 0
	for j := 1; j < 256; j++ {
		v := 256 + float64(j)/4
		f, _ := stochasticBias(t, E5M2, v, 3, StochasticFloor).Float64()
		g, _ := stochasticBias(t, E5M2, v, 3, StochasticNearest).Float64()
		sumF, sumN, absF, absN = sumF+f, sumN+g, absF+math.Abs(f), absN+math.Abs(g)
		n++
	}
	fmt.Fprintf(&b, "\nOver v = 256 + j/4 (j = 1…255) with r = 3: mean bias floor %.4g, nearest %.4g; mean |bias| floor %.4g, nearest %.4g.\n",
		sumF/float64(n), sumN/float64(n), absF/float64(n), absN/float64(n))
	return b.String()
}
