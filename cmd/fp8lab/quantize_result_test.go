package main

import (
	"encoding/json"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuantizeResultJSON checks the keys `fp8lab quantize --json` prints.
func TestQuantizeResultJSON(t *testing.T) {
	x, err := scaling.FromRows([][]float32{{1000, 0x1p-8, 0x1p-11, 1, 2, 2}})
	require.NoError(t, err)
	r, err := evaluate(x, fp8.E4M3FN, scaling.PerRow, scaling.Options{})
	require.NoError(t, err)
	b, err := json.Marshal(r)
	require.NoError(t, err)
	var decoded map[string]any
	require.NoError(t, json.Unmarshal(b, &decoded))
	metrics := decoded["metrics"].(map[string]any)
	for _, key := range []string{"sqnr_db", "mse", "max_abs_error", "overflow", "underflow"} {
		assert.Contains(t, metrics, key)
	}
	assert.Equal(t, "row", decoded["granularity"])
	assert.Equal(t, "E4M3FN", decoded["format"])
	assert.Len(t, decoded["scales"], 1)
	assert.NotContains(t, decoded, "Quantized")

	r, err = evaluate(x, fp8.E4M3FN, scaling.MX, scaling.Options{})
	require.NoError(t, err)
	assert.Equal(t, "E8M0", r.ScaleFormat)
	assert.Len(t, r.ScaleCodes, 1)
}
