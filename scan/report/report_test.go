package report

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scan"
)

// The heatmap's colour classes: red (0) at or below 0 dB, green at 40 dB
// and above, no greener than 30% of the way below the threshold, grey for
// an all-zero tensor (NaN SQNR).
func TestHeat(t *testing.T) {
	for _, c := range []struct {
		db, threshold float64
		want          string
	}{
		{-5, 15, "heat0"}, {0, 15, "heat0"}, {40, 15, "heat12"}, {90, 15, "heat12"}, {math.Inf(1), 15, "heat12"},
		{20, 15, "heat6"},   // 0.5 of the way
		{14.9, 15, "heat4"}, // below the threshold: 0.3725 capped at 0.3, 3.6 rounds to 4
		{14.9, 10, "heat4"}, // above it: 0.3725 × 12 = 4.47
		{30, 35, "heat4"},   // 0.75 capped at 0.3
		{math.NaN(), 15, "heat-nan"},
	} {
		assert.Equal(t, c.want, heat(c.db, c.threshold), "%v dB, threshold %v", c.db, c.threshold)
	}
}

// Body has no style attributes (a page whose Content-Security-Policy
// forbids inline styles shows it whole): every class it colours with is in
// CSS. Tensor names are escaped, in the text and in data-tensor.
func TestBodyStyledByCSS(t *testing.T) {
	name := `a"<b>&c`
	rep := &scan.Report{MinSQNR: 15, Recipes: []string{"tensorwise"}, Formats: []string{"E4M3FN"}, Tensors: []scan.TensorStats{
		{Name: name, DType: "F32", Shape: []int64{2, 3}, Results: []scan.Result{
			{Recipe: "tensorwise", Format: "E4M3FN", WorstBlockSQNR: 27},
			{Recipe: "rowwise", Format: "E4M3FN", WorstBlockSQNR: math.NaN()},
		}},
	}}
	body := Body(rep)
	assert.NotContains(t, body, "style=")
	assert.NotContains(t, body, name)
	assert.Contains(t, body, `data-tensor="a&#34;&lt;b&gt;&amp;c"`)
	css := CSS()
	classes := regexp.MustCompile(`<td class="(heat[^"]*)"`).FindAllStringSubmatch(body, -1)
	require.Len(t, classes, 2)
	for _, c := range classes {
		assert.Contains(t, css, "td."+c[1]+"{", c[1])
	}
	assert.Equal(t, heatSteps, strings.Count(css, "td.heat")-1, "one rule per hue and one for NaN")
	page := string(Page(rep))
	assert.Contains(t, page, body)
	assert.Contains(t, page, css)
	assert.NotContains(t, page, "<script")
}
