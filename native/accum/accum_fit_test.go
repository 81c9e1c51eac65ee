package accum

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite docs/gpu/*/emulated.json from the current accumulator presets")

// TestAccumulatorFitsShippedRuns holds the emulator to the hardware: for
// every shipped accumulation study (docs/gpu/*/accum.json) it rebuilds the
// operands the GPU multiplied (Operands from the run's M, N and seed),
// runs scaling.FastAccumulator and scaling.PromotedAccumulator on them and
// requires their relative errors within a factor 2 of the device's with
// fast accumulation on and off, at every K, for both operand kinds.
//
// The full products are long (FP8LAB_LONG=1, or -update): there the test
// first proves the operands are the GPU run's own, by reproducing the
// float32 and the then-shipped emulations recorded in accum.json bit for
// bit, and then requires emulated.json to hold exactly what the current
// presets give (-update rewrites it). The short run multiplies every
// eighth row of A, checks the factor-2 bound on that sample and that it
// agrees with emulated.json within 15%.
func TestAccumulatorFitsShippedRuns(t *testing.T) {
	runs, err := gpu.Runs()
	require.NoError(t, err)
	full := testenv.Long() || *update
	stride := 8
	if full {
		stride = 1
	}
	studied := 0
	for _, run := range runs {
		rep := run.Accum
		if rep == nil {
			continue
		}
		studied++
		em := &gpu.Emulated{Fast: scaling.FastAccumulator, Promoted: scaling.PromotedAccumulator}
		for _, r := range rep.Rows {
			a, b, err := Operands(rep.M, r.K, rep.N, r.Operands, rep.Seed)
			require.NoError(t, err)
			sub := everyNthRow(a, stride)
			ref, mass := exactProduct(sub, b)
			errOf := func(acc scaling.Accumulator) gpu.AccumError {
				d, err := scaling.ScaledMatMul(sub, b, acc)
				require.NoError(t, err)
				return accumError(d.Data, ref, mass)
			}
			if full {
				assert.Equal(t, r.Float32, errOf(scaling.Float32Accumulator), "%s %s K=%d: the float32 emulation of the run; the operands differ", run.Name, r.Operands, r.K)
				assert.Equal(t, r.Shipped, errOf(rep.Shipped), "%s %s K=%d: the run's own emulation; the operands differ", run.Name, r.Operands, r.K)
			}
			row := gpu.EmulatedRow{Operands: r.Operands, K: r.K, Fast: errOf(em.Fast), Promoted: errOf(em.Promoted)}
			on, off := row.Fast.Rel/r.On.Rel, row.Promoted.Rel/r.Off.Rel
			t.Logf("%s %-8s K=%5d  fast accumulation on: device %.3g, emulated %.3g (×%.3f); off: device %.3g, promoted %.3g (×%.3f)",
				run.Name, r.Operands, r.K, r.On.Rel, row.Fast.Rel, on, r.Off.Rel, row.Promoted.Rel, off)
			assert.InDelta(t, 0, math.Log2(on), 1, "%s %s K=%d: FastAccumulator within 2× of fast accumulation on", run.Name, r.Operands, r.K)
			assert.InDelta(t, 0, math.Log2(off), 1, "%s %s K=%d: PromotedAccumulator within 2× of fast accumulation off", run.Name, r.Operands, r.K)
			em.Rows = append(em.Rows, row)
			if full || run.Emulated == nil {
				continue
			}
			stored := run.Emulated.Row(r.Operands, r.K)
			require.NotNil(t, stored, "%s/emulated.json lacks %s K=%d", run.Name, r.Operands, r.K)
			assert.InEpsilon(t, stored.Fast.Rel, row.Fast.Rel, 0.15, "%s %s K=%d: the sample agrees with emulated.json", run.Name, r.Operands, r.K)
			assert.InEpsilon(t, stored.Promoted.Rel, row.Promoted.Rel, 0.15, "%s %s K=%d", run.Name, r.Operands, r.K)
		}
		file := filepath.Join("..", "..", "docs", "gpu", run.Name, "emulated.json")
		switch {
		case *update:
			b, err := json.MarshalIndent(em, "", "  ")
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(file, append(b, '\n'), 0o644))
		case run.Emulated == nil:
			t.Errorf("%s has no emulated.json: run go test ./native/accum -run TestAccumulatorFitsShippedRuns -update", run.Name)
		case full:
			assert.Equal(t, em, run.Emulated, "%s: emulated.json is stale: run go test ./native/accum -run TestAccumulatorFitsShippedRuns -update", file)
		default:
			assert.Equal(t, em.Fast, run.Emulated.Fast, "%s: emulated.json was made with another FastAccumulator (-update)", file)
			assert.Equal(t, em.Promoted, run.Emulated.Promoted, "%s: emulated.json was made with another PromotedAccumulator (-update)", file)
		}
	}
	require.NotZero(t, studied, "no shipped accumulation study")
}

// everyNthRow returns the rows 0, n, 2n, ... of q, a per-tensor
// quantization (q itself for n = 1).
func everyNthRow(q *scaling.Quantized, n int) *scaling.Quantized {
	if n == 1 {
		return q
	}
	s := *q
	s.Rows = (q.Rows + n - 1) / n
	s.BlockRows = s.Rows // one block: the tensor
	s.Codes = make([]uint8, 0, s.Rows*q.Cols)
	for i := 0; i < q.Rows; i += n {
		s.Codes = append(s.Codes, q.Codes[i*q.Cols:(i+1)*q.Cols]...)
	}
	return &s
}
