package scaling

import (
	"testing"

	"github.com/fp8lab/fp8lab/internal/apitest"
)

// TestAPIOnZeroValues: every exported function and method, called with
// nil, zero, one-element and out-of-range arguments (and on nil and zero
// receivers), returns instead of panicking (issue 26 item 8).
func TestAPIOnZeroValues(t *testing.T) {
	apitest.Check(t, apitest.API{
		Types: []any{Accumulator{}, AmaxAlgo(0), (*DelayedScaler)(nil), DelayedStep{}, (*Granularity)(nil), Metrics{}, Pow2(0),
			(*Quantized)(nil), (*Rotation)(nil), SQNRSummary{}, ScaleRule{}, Sequence{}, (*Tensor)(nil)},
		Funcs: []any{Amax, AmaxBlocks, AmaxCols, AmaxGrid, AmaxRows, Block, ColTile, Compare, FWHT, FromFloat64, FromRows, FromSlice,
			Granularities, HadamardMatrix, Log2Histogram, MXEmax, MXRoundings, MakeOutlierTensor, MatMul, Measure, MeasureWith,
			NVFP4BlockScale, NVFP4TensorScale, NewDelayedScaler, NewRandomRotation, NewRotation, NewTensor, OutlierExperiment,
			ParseAmaxAlgo, ParseGranularity, ParsePow2, Quantize, QuantizeInto, QuantizeWithScales, QuantizeWithStats, RandomNormal,
			SQNR, SQNRByBlock, ScaledMatMul, ScaledMatMulNT, SimulateDelayed, Tile},
	})
}
