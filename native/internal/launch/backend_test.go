package launch

import (
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuantizeRefusesUnlistedKinds checks, without a GPU or the emulator,
// that every kind scaling's table does not mark GPUQuantizes (col, nvfp4,
// tile128x1 today, and any kind added later) is refused with
// native.ErrUnsupported before anything runs, so that parity.Run skips it.
func TestQuantizeRefusesUnlistedKinds(t *testing.T) {
	x, err := scaling.RandomNormal(3, 5, 1, 1)
	require.NoError(t, err)
	k := &Kernels{Arch: "none"} // no Runner: a refused call never reaches it
	refused := 0
	for _, g := range scaling.Granularities() {
		if g.GPUQuantizes() {
			continue
		}
		_, err := k.Quantize(x, fp8.E4M3FN, g, native.QuantizeOptions{})
		assert.ErrorIs(t, err, native.ErrUnsupported, "%s", g)
		refused++
	}
	assert.GreaterOrEqual(t, refused, 3, "col, nvfp4 and tile128x1 at least")
}
