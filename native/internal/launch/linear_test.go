package launch

import (
	"math"
	"slices"
	"testing"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native/parity"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runSplit runs p on the emulator, making its GEMM steps on the host
// between the runs of the kernels around them, as cuBLASLt makes them
// between kernels on a GPU, and returns the buffers outs.
func runSplit(t *testing.T, r *emulatorRunner, p *Program, outs ...int) [][]byte {
	t.Helper()
	require.NoError(t, p.Check())
	all := make([]int, len(p.Buffers))
	for i := range all {
		all[i] = i
	}
	var state [][]byte
	for start := 0; ; {
		end := start
		for end < len(p.Steps) && p.Steps[end].GEMM == nil {
			end++
		}
		seg := Program{Buffers: slices.Clone(p.Buffers), Steps: p.Steps[start:end]}
		for i := range state {
			seg.Buffers[i].Init = state[i]
		}
		var err error
		state, err = r.Run(&seg, nil, all...)
		require.NoError(t, err)
		if end == len(p.Steps) {
			break
		}
		hostGEMM(p.Steps[end].GEMM, state)
		start = end + 1
	}
	res := make([][]byte, len(outs))
	for i, o := range outs {
		res[i] = state[o]
	}
	return res
}

// hostGEMM makes g on the host: the exact product of the decoded operands
// times the decode factors, rounded once to float32.
func hostGEMM(g *GEMM, buf [][]byte) {
	decode := func(b []byte, i int) float64 {
		switch g.Type {
		case TypeBF16:
			return float64(fp8.BF16.Decode(uint16(b[2*i]) | uint16(b[2*i+1])<<8))
		case TypeE5M2:
			return float64(fp8.E5M2.Decode32(b[i]))
		}
		return float64(fp8.E4M3FN.Decode32(b[i]))
	}
	scale := 1.0
	if g.AScale >= 0 {
		scale = float64(as[float32](buf[g.AScale])[0]) * float64(as[float32](buf[g.BScale])[0])
	}
	d := make([]float32, g.M*g.N)
	for i := 0; i < g.M; i++ {
		for j := 0; j < g.N; j++ {
			var s float64
			for p := 0; p < g.K; p++ {
				ai, bi := i*g.K+p, p*g.N+j
				if g.TransA {
					ai = p*g.M + i
				}
				if g.TransB {
					bi = j*g.K + p
				}
				s += decode(buf[g.A], ai) * decode(buf[g.B], bi)
			}
			d[i*g.N+j] = float32(s * scale)
		}
	}
	copy(buf[g.D], Bytes(d))
}

// linearInputs returns the layer's float32 X, Wt and dY: normal values
// with outliers, so that the scales and the saturation matter.
func linearInputs(t *testing.T, sh LinearShape) (x, wt, dy []float32) {
	t.Helper()
	get := func(rows, cols int, seed uint64) []float32 {
		m, err := parity.MakeInput(rows, cols, parity.InputNormal, seed)
		require.NoError(t, err)
		return m.Data
	}
	return get(sh.Tokens, sh.In, 1), get(sh.Out, sh.In, 2), get(sh.Tokens, sh.Out, 3)
}

// TestEmulatedLinearPlansMatchTheCPU runs the three plans of the linear
// layer on the real kernels (the emulator) with the products made on the
// host from the buffers the plan hands cuBLASLt, and holds them to the
// CPU: codes, transposes, scales and decode factors bit for bit, products
// within tolerance. Sides that are not multiples of 32 leave partial
// transpose tiles.
func TestEmulatedLinearPlansMatchTheCPU(t *testing.T) {
	r := emulator(t)
	sh := LinearShape{Tokens: 48, In: 32, Out: 80}
	x, wt, dy := linearInputs(t, sh)
	results := map[string]LinearResult{}
	for _, plan := range LinearPlans {
		var p Program
		in := LinearIn{X: Upload(&p, x), Wt: Upload(&p, wt), DY: Upload(&p, dy)}
		o, err := emuConfig.Linear(&p, plan, sh, in, false)
		require.NoError(t, err)
		roles := map[string]int{}
		for _, s := range p.Steps {
			require.NotEmpty(t, s.Role, "%s: every step has a role", plan)
			roles[s.Role]++
		}
		assert.Equal(t, 3, roles[gpu.RoleGEMM], plan)
		switch plan {
		case PlanNaive:
			assert.Equal(t, 3, roles[gpu.RoleTranspose], "one transposed copy each of X, W and dY")
			assert.Equal(t, 3, roles[gpu.RoleAmax])
		case PlanFused:
			assert.Equal(t, 3, roles[gpu.RoleCastTranspose])
			assert.Zero(t, roles[gpu.RoleTranspose]+roles[gpu.RoleAmax])
		case PlanBF16:
			assert.Equal(t, 3, roles[gpu.RoleProduce])
			assert.Len(t, p.Steps, 6, "BF16 takes every layout: no copies")
		}
		res, err := ReadLinear(plan, runSplit(t, r, &p, o.Outputs(plan)...))
		require.NoError(t, err)
		require.NoError(t, CheckLinear(plan, sh, x, wt, dy, res), plan)
		results[plan] = res
	}
	naive, fused := results[PlanNaive], results[PlanFused]
	assert.Equal(t, naive, fused, "fusing changes where the work happens, not one bit of it")

	// The check finds what a broken plan would do.
	bad := fused
	bad.CodesT[MatX] = slices.Clone(bad.CodesT[MatX])
	bad.CodesT[MatX][5] ^= 1
	assert.ErrorContains(t, CheckLinear(PlanFused, sh, x, wt, dy, bad), "transposed code")
	bad = fused
	bad.DWt = slices.Clone(bad.DWt)
	bad.DWt[7] += 1
	assert.ErrorContains(t, CheckLinear(PlanFused, sh, x, wt, dy, bad), "dW = Xᵀ·dY")
	bad = fused
	bad.Decode[MatW] = math.Nextafter32(bad.Decode[MatW], 0)
	assert.ErrorContains(t, CheckLinear(PlanFused, sh, x, wt, dy, bad), "decode factor")
	bf := results[PlanBF16]
	bf.Y = slices.Clone(bf.Y)
	bf.Y[0] += 1000
	assert.Error(t, CheckLinear(PlanBF16, sh, x, wt, dy, bf))
}

// TestLinearRefusesBadPlans: shapes and plans a GPU cannot run are errors
// before any launch, and a GEMM step that names wrong buffers fails Check.
func TestLinearRefusesBadPlans(t *testing.T) {
	var p Program
	in := LinearIn{X: p.Alloc(4), Wt: p.Alloc(4), DY: p.Alloc(4)}
	for _, sh := range []LinearShape{{0, 16, 16}, {16, 20, 16}, {16, 16, 1 << 20}} {
		_, err := emuConfig.Linear(&p, PlanFused, sh, in, false)
		assert.Error(t, err, "%+v", sh)
	}
	_, err := emuConfig.Linear(&p, "fp8-magic", LinearShape{16, 16, 16}, in, false)
	assert.Error(t, err)
	for _, g := range []GEMM{
		{A: 0, B: 1, D: 2, AScale: -1, BScale: -1, Type: TypeE4M3, M: 1, N: 1, K: 1, TransB: true},
		{A: 0, B: 1, D: 2, AScale: 0, BScale: 0, Type: TypeE4M3, M: 1, N: 1, K: 1},
		{A: 0, B: 1, D: 2, AScale: -1, BScale: -1, Type: TypeBF16, M: 64, N: 64, K: 64},
		{A: 0, B: 1, D: 9, AScale: -1, BScale: -1, Type: TypeBF16, M: 1, N: 1, K: 1},
		{A: 0, B: 1, D: 2, AScale: -1, BScale: -1, Type: 7, M: 1, N: 1, K: 1},
		{A: 0, B: 1, D: 2, AScale: -1, BScale: -1, Type: TypeBF16, M: 0, N: 1, K: 1},
	} {
		var q Program
		q.Alloc(64)
		q.Alloc(64)
		q.Alloc(64)
		g := g
		q.Steps = append(q.Steps, Step{GEMM: &g})
		assert.Error(t, q.Check(), "%+v", g)
	}
}
