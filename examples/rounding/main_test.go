package main

import (
	"bytes"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoundingClaims(t *testing.T) {
	var out bytes.Buffer
	res, err := run(&out)
	require.NoError(t, err)
	by := map[float64]outcome{}
	for _, o := range res.Rows {
		by[o.X] = o
	}
	require.Contains(t, by, 464.0)
	require.Contains(t, by, 465.0)

	// 464: a tie, to even, 448, in every mode.
	assert.Equal(t, 448.0, by[464].Nearest)
	assert.Equal(t, 448.0, by[464].NoSat)
	// 465: beyond the tie. Saturating clamps, non-saturating gives NaN.
	assert.Equal(t, 448.0, by[465].Nearest)
	assert.True(t, math.IsNaN(by[465].NoSat))
	// Toward zero never overflows: 465 and 1e6 give Max.
	assert.Equal(t, 448.0, by[465].TowardZero)
	assert.Equal(t, 448.0, by[1e6].TowardZero)
	// 4.25 is a tie between 4 and 4.5: even is 4. Toward zero truncates 4.75.
	assert.Equal(t, 4.0, by[4.25].Nearest)
	assert.Equal(t, 4.5, by[4.75].TowardZero)
	assert.Equal(t, 5.0, by[4.75].Nearest)

	// The double-rounding trap of DESIGN.md §3.
	assert.Equal(t, -416.0, res.Direct)
	assert.Equal(t, -448.0, res.ViaF32)
	assert.Contains(t, out.String(), "-416")
}

// TestReadmeShowsTheRealOutput keeps the README's output block equal to what
// `go run ./examples/rounding` prints.
func TestReadmeShowsTheRealOutput(t *testing.T) {
	var out bytes.Buffer
	_, err := run(&out)
	require.NoError(t, err)
	testenv.ReadmeOutput(t, "go run ./examples/rounding", out.String())
}
