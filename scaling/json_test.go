package scaling

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodeJSON marshals v and decodes the text into a map.
func decodeJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// TestMarshalNumbersFinite checks that finite results marshal exactly as
// encoding/json marshals the plain struct: same keys, same values.
func TestMarshalNumbersFinite(t *testing.T) {
	type plainMetrics Metrics
	type plainStep DelayedStep
	m := Metrics{Elements: 4, MSE: 0.25, SQNR: 31.5, MaxAbsError: 1.5, MaxRelError: 0.125,
		FractionSubnormal: 0.5, Rows: SQNRSummary{Mean: 3, Worst: 1, WorstIndex: 2, Parts: 4}}
	want := decodeJSON(t, plainMetrics(m))
	want["row_sqnr"] = decodeJSON(t, struct {
		Mean       float64 `json:"mean_db"`
		Worst      float64 `json:"worst_db"`
		WorstIndex int     `json:"worst_index"`
		Parts      int     `json:"parts"`
		Exact      int     `json:"exact"`
	}(m.Rows))
	want["block_sqnr"] = decodeJSON(t, struct {
		Mean       float64 `json:"mean_db"`
		Worst      float64 `json:"worst_db"`
		WorstIndex int     `json:"worst_index"`
		Parts      int     `json:"parts"`
		Exact      int     `json:"exact"`
	}(m.Blocks))
	assert.Equal(t, want, decodeJSON(t, m))

	s := DelayedStep{Step: 3, Amax: 2.5, Scale: 4, NextScale: 2, SQNR: 30, CurrentScale: 8, CurrentSQNR: 31}
	assert.Equal(t, decodeJSON(t, plainStep(s)), decodeJSON(t, s))
}

// TestMarshalNumbersSpecials checks that every float64 field may hold NaN
// or ±Inf and is then written as a string.
func TestMarshalNumbersSpecials(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	m := Metrics{MSE: nan, SQNR: inf, MaxAbsError: -inf, MaxRelError: nan, FractionSubnormal: nan,
		Rows: SQNRSummary{Mean: inf, Worst: nan}}
	got := decodeJSON(t, m)
	assert.Equal(t, "NaN", got["mse"])
	assert.Equal(t, "+Inf", got["sqnr_db"])
	assert.Equal(t, "-Inf", got["max_abs_error"])
	assert.Equal(t, "NaN", got["fraction_subnormal"])
	assert.Equal(t, map[string]any{"mean_db": "+Inf", "worst_db": "NaN", "worst_index": 0.0, "parts": 0.0, "exact": 0.0}, got["row_sqnr"])

	s := decodeJSON(t, DelayedStep{Amax: inf, SQNR: nan, CurrentSQNR: -inf, Scale: 1})
	assert.Equal(t, "+Inf", s["amax"])
	assert.Equal(t, "NaN", s["sqnr_db"])
	assert.Equal(t, "-Inf", s["current_sqnr_db"])
	assert.Equal(t, 1.0, s["scale"])
}

func TestMarshalNumbersRejects(t *testing.T) {
	_, err := marshalNumbers(3.0)
	assert.Error(t, err)
	type inner struct{ A float64 }
	_, err = marshalNumbers(struct{ inner }{})
	assert.Error(t, err)
}
