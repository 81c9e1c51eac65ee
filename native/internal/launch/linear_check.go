package launch

import (
	"fmt"
	"math"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/scaling"
)

// LinearResult is what a plan leaves, read back: the products and, for
// the FP8 plans, each matrix's codes, transposed codes, scale and decode
// factor.
type LinearResult struct {
	Y, DX, DWt    []float32
	Codes, CodesT [3][]uint8
	Scale, Decode [3]float32
}

// Outputs lists the buffers of o to read back, in ReadLinear's order.
func (o LinearOut) Outputs(plan string) []int {
	outs := []int{o.Y, o.DX, o.DWt}
	if plan != PlanBF16 {
		for k := range 3 {
			outs = append(outs, o.Codes[k], o.CodesT[k], o.Scale[k], o.Decode[k])
		}
	}
	return outs
}

// ReadLinear decodes the buffers Outputs named, read back in its order.
func ReadLinear(plan string, b [][]byte) (LinearResult, error) {
	want := 3
	if plan != PlanBF16 {
		want += 12
	}
	if len(b) != want {
		return LinearResult{}, fmt.Errorf("launch: %d buffers of a %s plan, want %d", len(b), plan, want)
	}
	r := LinearResult{Y: as[float32](b[0]), DX: as[float32](b[1]), DWt: as[float32](b[2])}
	for k := 0; plan != PlanBF16 && k < 3; k++ {
		q := b[3+4*k:]
		r.Codes[k], r.CodesT[k] = q[0], q[1]
		r.Scale[k], r.Decode[k] = as[float32](q[2])[0], as[float32](q[3])[0]
	}
	return r, nil
}

// CheckLinear compares res, plan's results for the inputs x (Tokens×In),
// wt (Out×In) and dy (Tokens×Out), with the CPU: for the FP8 plans, every
// code, transposed code, scale and decode factor bit for bit against
// scaling.Quantize (E4M3FN, per tensor, current scaling); and each product
// within native.GEMMTolFP8 (FP8) or native.GEMMTolBF16 (BF16) of Σ|a||b|
// from the exact product of the rounded operands, which depends on no
// GPU's way of accumulating.
func CheckLinear(plan string, sh LinearShape, x, wt, dy []float32, res LinearResult) error {
	if err := sh.Check(); err != nil {
		return err
	}
	t, in, out := sh.Tokens, sh.In, sh.Out
	src := [3]*scaling.Tensor{{Rows: t, Cols: in, Data: x}, {Rows: out, Cols: in, Data: wt}, {Rows: t, Cols: out, Data: dy}}
	names := [3]string{"X", "W", "dY"}
	var op [3][]float64 // the rounded operands, as the products see them
	for k, m := range src {
		if err := m.Check(); err != nil {
			return fmt.Errorf("%s: %w", names[k], err)
		}
		op[k] = make([]float64, len(m.Data))
		if plan == PlanBF16 {
			for i, v := range m.Data {
				op[k][i] = float64(fp8.BF16.Decode(fp8.BF16.Encode32(v)))
			}
			continue
		}
		q, err := scaling.Quantize(m, fp8.E4M3FN, scaling.PerTensor, scaling.Options{})
		if err != nil {
			return fmt.Errorf("%s: %w", names[k], err)
		}
		if err := sameCodes(names[k], q.Codes, res.Codes[k], res.CodesT[k], m.Rows, m.Cols); err != nil {
			return err
		}
		if math.Float32bits(q.Scales[0]) != math.Float32bits(res.Scale[k]) {
			return fmt.Errorf("%s: scale %g, the CPU's %g", names[k], res.Scale[k], q.Scales[0])
		}
		if d := float32(q.BlockDecodeScale(0)); math.Float32bits(d) != math.Float32bits(res.Decode[k]) {
			return fmt.Errorf("%s: decode factor %g, the CPU's %g", names[k], res.Decode[k], d)
		}
		for i, c := range q.Codes {
			op[k][i] = float64(fp8.E4M3FN.Decode32(c)) * float64(res.Decode[k])
		}
	}
	tol := native.GEMMTolFP8
	if plan == PlanBF16 {
		tol = native.GEMMTolBF16
	}
	// Y = X·Wtᵀ, dX = dY·Wt, dWt = dYᵀ·X, from the row-major operands.
	at := func(m []float64, cols, i, j int) float64 { return m[i*cols+j] }
	products := []struct {
		name    string
		got     []float32
		m, n, k int
		ab      func(i, p, j int) (float64, float64)
	}{
		{"Y = X·W", res.Y, t, out, in, func(i, p, j int) (float64, float64) { return at(op[MatX], in, i, p), at(op[MatW], in, j, p) }},
		{"dX = dY·Wᵀ", res.DX, t, in, out, func(i, p, j int) (float64, float64) { return at(op[MatDY], out, i, p), at(op[MatW], in, p, j) }},
		{"dW = Xᵀ·dY", res.DWt, out, in, t, func(i, p, j int) (float64, float64) { return at(op[MatDY], out, p, i), at(op[MatX], in, p, j) }},
	}
	for _, pr := range products {
		if len(pr.got) != pr.m*pr.n {
			return fmt.Errorf("%s: %d values, want %d", pr.name, len(pr.got), pr.m*pr.n)
		}
		for i := 0; i < pr.m; i++ {
			for j := 0; j < pr.n; j++ {
				var sum, mass float64
				for p := 0; p < pr.k; p++ {
					a, b := pr.ab(i, p, j)
					sum += a * b
					mass += math.Abs(a * b)
				}
				g := float64(pr.got[i*pr.n+j])
				if !(math.Abs(g-sum) <= tol*mass) {
					return fmt.Errorf("%s (%s plan): element (%d, %d) is %g, the exact product of the rounded operands %g (tolerance %g)",
						pr.name, plan, i, j, g, sum, tol*mass)
				}
			}
		}
	}
	return nil
}

// sameCodes checks a plan's codes and transposed codes against the CPU's.
func sameCodes(name string, want, got, gotT []uint8, rows, cols int) error {
	if len(got) != len(want) || len(gotT) != len(want) {
		return fmt.Errorf("%s: %d and %d codes, want %d", name, len(got), len(gotT), len(want))
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			c := want[i*cols+j]
			if got[i*cols+j] != c {
				return fmt.Errorf("%s: code (%d, %d) is %#02x, the CPU's %#02x", name, i, j, got[i*cols+j], c)
			}
			if gotT[j*rows+i] != c {
				return fmt.Errorf("%s: transposed code (%d, %d) is %#02x, the CPU's %#02x", name, j, i, gotT[j*rows+i], c)
			}
		}
	}
	return nil
}
