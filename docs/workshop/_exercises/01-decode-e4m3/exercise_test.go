package decode

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
)

func TestDecodeEveryCode(t *testing.T) {
	for c := 0; c < 256; c++ {
		got, err := DecodeE4M3(uint8(c))
		require.NoError(t, err, "code 0x%02X", c)
		want := fp8.E4M3FN.Decode(uint8(c))
		if math.IsNaN(want) {
			assert.True(t, math.IsNaN(got), "code 0x%02X should be NaN", c)
			continue
		}
		assert.Equal(t, want, got, "code 0x%02X", c)
		assert.Equal(t, math.Signbit(want), math.Signbit(got), "sign of code 0x%02X", c)
	}
}

func TestLandmarks(t *testing.T) {
	for c, want := range map[uint8]float64{0x7E: 448, 0x01: 0x1p-9, 0x08: 0x1p-6, 0x38: 1, 0xB8: -1} {
		got, err := DecodeE4M3(c)
		require.NoError(t, err)
		assert.Equal(t, want, got, "code 0x%02X", c)
	}
}
