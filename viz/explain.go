package viz

import (
	"math"
	"strconv"
	"strings"
)

// Words shared by the scenes' explanations (each in NAME_explain.go, built
// from package claim's typed claims): a reader of a scene's Facts and the
// helpers that join words; numbers.go writes the numbers.

// facts reads a scene's Facts for an explanation.
type facts map[string]string

// num returns a fact as a number (NaN when missing or not a number).
func (f facts) num(k string) float64 {
	v, err := strconv.ParseFloat(f[k], 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// int returns a fact as an integer (0 when missing).
func (f facts) int(k string) int {
	v, _ := strconv.Atoi(f[k])
	return v
}

// db formats a fact in decibels with one decimal.
func (f facts) db(k string) string { return dbText(f.num(k)) }

// r formats a fact to 4 significant digits.
func (f facts) r(k string) string { return sig4(f.num(k)) }

// pct formats a fraction as a percentage.
func (f facts) pct(k string) string { return pctText(f.num(k)) }

// plural writes n with a noun, singular for one.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// errorExplanation is the explanation of a scene whose facts are an error.
func errorExplanation(f facts) ([]string, bool) {
	if e, ok := f["error"]; ok {
		return []string{"The scene cannot be computed: " + e + "."}, true
	}
	return nil, false
}

// joinAnd writes a list as "a", "a and b" or "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// lowerFirst lowercases the first letter of a sentence's start for use
// mid-sentence, unless the first word is an acronym ("MX").
func lowerFirst(s string) string {
	if len(s) > 1 && s[1] >= 'a' && s[1] <= 'z' {
		return strings.ToLower(s[:1]) + s[1:]
	}
	return s
}
