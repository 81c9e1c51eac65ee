package accum

import (
	"bytes"
	"math"
	"testing"

	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// emulatedDevice multiplies like a GPU whose fast accumulation keeps acc.
func emulatedDevice(acc scaling.Accumulator) Product {
	return func(a, b *scaling.Quantized, fast bool) (*scaling.Tensor, error) {
		if fast {
			return scaling.ScaledMatMul(a, b, acc)
		}
		return scaling.ScaledMatMul(a, b, scaling.Float32Accumulator)
	}
}

func TestAccumStudyRecoversAKnownAccumulator(t *testing.T) {
	for _, acc := range []scaling.Accumulator{{MantissaBits: 12}, {MantissaBits: 14, AlignGroup: 16}} {
		var log bytes.Buffer
		rep, err := Study(emulatedDevice(acc), Config{Ks: []int{256, 1024, 4096}, M: 16, N: 32, Seed: 1, Log: &log})
		require.NoError(t, err)
		assert.Equal(t, acc, rep.Fit, acc.String())
		assert.Equal(t, 1.0, rep.FitSpread)
		require.Len(t, rep.Rows, 6)
		for _, r := range rep.Rows {
			assert.Equal(t, r.On, r.Fitted, "the fit is the device")
			assert.Equal(t, r.Off, r.Float32)
			assert.Less(t, r.Off.Rel, 1e-6, "float32 accumulation")
			assert.LessOrEqual(t, r.On.Norm, r.On.MaxNorm)
		}
		pos := rep.Rows[:3]
		assert.Less(t, pos[0].On.Rel, pos[2].On.Rel, "a growing sum loses more bits as K grows")
		assert.Contains(t, log.String(), "fits a "+acc.String()+" accumulator")
		assert.Equal(t, scaling.PromotedAccumulator, *rep.Promoted)
		assert.Equal(t, uint64(1), rep.Seed)
	}
}

func TestAccumStudyRefusesBadShapes(t *testing.T) {
	dev := emulatedDevice(scaling.FastAccumulator)
	for _, cfg := range []Config{{M: 8, N: 16}, {M: 16, N: 16, Ks: []int{20}}, {M: 16, N: 16, Ks: []int{1 << 17}}, {M: 4096, N: 4096}} {
		_, err := Study(dev, cfg)
		assert.ErrorIs(t, err, native.ErrInvalidArgument, "%+v", cfg)
	}
	_, err := Study(nil, Config{})
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
	_, _, err = Operands(16, 16, 16, "mixed", 1)
	assert.ErrorIs(t, err, native.ErrInvalidArgument)
}

func TestExactProductIsExact(t *testing.T) {
	a, b, err := Operands(16, 64, 16, "signed", 3)
	require.NoError(t, err)
	ref, mass := exactProduct(a, b)
	da, _ := a.Dequantize()
	db, _ := b.Dequantize()
	var want, wantMass float64
	for p := 0; p < 64; p++ {
		x, y := float64(da.Data[5*64+p]), float64(db.Data[p*16+7])
		want += x * y
		wantMass += math.Abs(x * y)
	}
	assert.Equal(t, want, ref[5*16+7])
	assert.Equal(t, wantMass, mass[5*16+7])
}
