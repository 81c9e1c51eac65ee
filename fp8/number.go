package fp8

import (
	"math"
	"strconv"
)

// Number is a float64 that marshals to JSON as a number, or as the strings
// "NaN", "+Inf" and "-Inf", which JSON cannot express as numbers.
type Number float64

// MarshalJSON implements json.Marshaler.
func (n Number) MarshalJSON() ([]byte, error) {
	return []byte(n.jsonText()), nil
}

func (n Number) jsonText() string {
	v := float64(n)
	switch {
	case math.IsNaN(v):
		return `"NaN"`
	case math.IsInf(v, 1):
		return `"+Inf"`
	case math.IsInf(v, -1):
		return `"-Inf"`
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// String formats the number with the shortest text that reads back exactly
// ("NaN", "+Inf" and "-Inf" for the specials).
func (n Number) String() string {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		t := n.jsonText()
		return t[1 : len(t)-1]
	}
	return n.jsonText()
}
