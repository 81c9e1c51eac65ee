package claim

import (
	"math"
	"strconv"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func oneDecimal(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func TestCompareWordsFollowTheShownValues(t *testing.T) {
	c := Compare{Key: "k", Show: oneDecimal, Above: "raises", Below: "lowers", Same: "leaves unchanged"}
	for _, tc := range []struct {
		a, b  float64
		words string
		order int
	}{
		{2, 1, "raises", 1},
		{1, 2, "lowers", -1},
		{1.04, 1.01, "leaves unchanged", 0}, // both show 1.0
		{1.06, 1.01, "raises", 1},           // 1.1 against 1.0
		{math.Inf(1), 3, "raises", 1},
	} {
		c.A, c.B = tc.a, tc.b
		assert.Equal(t, tc.words, c.String(), "%v against %v", tc.a, tc.b)
		assert.Equal(t, tc.order, c.Order())
		assert.True(t, c.Decided())
	}
	c.A = math.NaN()
	assert.False(t, c.Decided())
	assert.Empty(t, c.String())
}

func TestCountWords(t *testing.T) {
	c := Count{One: "value", Many: "values", None: "no value"}
	for n, want := range map[int]string{0: "no value", 1: "1 value", 2: "2 values", 20057: "20057 values"} {
		c.N = n
		assert.Equal(t, want, c.String())
	}
	c.None = ""
	c.N = 0
	assert.Equal(t, "0 values", c.String())
}

func TestUndecidedParagraphIsNotSaid(t *testing.T) {
	var e Explanation
	e.Addf("A is %s B.", Compare{Key: "x", A: math.NaN(), B: 1, Above: "above", Below: "below", Same: "the same as"})
	e.Addf("%s.", Count{Key: "n", N: 3, One: "row", Many: "rows"})
	e.Add(Lit(""))
	require.Equal(t, []string{"3 rows."}, e.Paragraphs())
	require.Len(t, e.Claims(), 1)
	assert.Equal(t, "n", e.Claims()[0].ID())
	assert.Equal(t, "3 rows.", e.Takeaway())
}

func TestPhrasesKeepTheirClaims(t *testing.T) {
	a := Sprintf("%s", Has{Key: "a", Present: true, Yes: "yes", No: "no"})
	b := Sprintf("%s", Count{Key: "b", N: 1, One: "step", Many: "steps"})
	c := Sprintf("%s", Quantity{Key: "c", V: 0.5})
	j := JoinAnd([]Phrase{a, Lit(""), b, c})
	assert.Equal(t, "yes, 1 step and 0.5", j.String())
	var ids []string
	for _, cl := range Sprintf("(%s)", j).Claims() {
		ids = append(ids, cl.ID())
	}
	assert.Equal(t, []string{"a", "b", "c"}, ids)
	assert.Equal(t, "yes and 1 step", JoinAnd([]Phrase{a, b}).String())
	args := []any{a}
	Sprintf("%s", args...)
	assert.IsType(t, Phrase{}, args[0], "Sprintf leaves the caller's arguments alone")
}

func TestAdviceDirection(t *testing.T) {
	a := Advice{Key: "scale", Param: "scale", From: 40, To: 14, Goal: "overflow", Better: -1, Raise: "raise", Lower: "lower"}
	assert.Equal(t, -1, a.Dir())
	assert.Equal(t, "lower", a.String())
	assert.Equal(t, "14", a.Target())
	a.To = 40
	assert.False(t, a.Decided(), "advice to stay is no advice")
	a.To, a.Better = 41, 0
	assert.False(t, a.Decided(), "advice must say what is better")
}

func TestFormatFactsReadTheFormat(t *testing.T) {
	z := Of(fp8.E8M0, Zero, "a zero", "no zero")
	assert.Equal(t, "no zero", z.String())
	assert.Equal(t, "E8M0.zero", z.ID())
	assert.Equal(t, "a zero", Of(fp8.E4M3FN, Zero, "a zero", "no zero").String())
	assert.Equal(t, "saturates", Of(fp8.E2M1, AlwaysSaturates, "saturates", "may overflow").String())
	assert.Len(t, Properties(), len(properties))
	for _, p := range Properties() {
		assert.NotContains(t, p.String(), "Property(")
	}
	assert.Len(t, Kinds(), len(kindNames))
}
