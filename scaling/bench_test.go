package scaling

import (
	"sync"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
)

// The benchmarks report throughput in bytes of float32 input read per
// second (b.SetBytes), beside fp8's plain bulk encoder on the same data in
// the same run: the baseline the quantizers are compared with.

const benchSide = 4096

var (
	benchOnce   sync.Once
	benchTensor *Tensor
)

func benchInput(b *testing.B) *Tensor {
	benchOnce.Do(func() {
		t, err := RandomNormal(benchSide, benchSide, 1, 1)
		if err != nil {
			panic(err)
		}
		benchTensor = t
	})
	return benchTensor
}

// BenchmarkQuantize4096 quantizes a 4096×4096 float32 matrix with every
// granularity (E4M3FN; E2M1 for NVFP4 and MXFP4), after the plain encode
// baseline.
func BenchmarkQuantize4096(b *testing.B) {
	x := benchInput(b)
	for _, f := range []*fp8.Format{fp8.E4M3FN, fp8.E2M1} {
		b.Run("baseline_EncodeSlice32_"+f.Name(), func(b *testing.B) {
			dst := make([]uint8, x.Len())
			b.SetBytes(int64(4 * x.Len()))
			for b.Loop() {
				if err := f.EncodeSlice32(dst, x.Data, fp8.Mode{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(x.Len()), "ns/value")
		})
	}
	cases := []struct {
		name string
		f    *fp8.Format
		g    Granularity
	}{
		{"tensor", fp8.E4M3FN, PerTensor},
		{"row", fp8.E4M3FN, PerRow},
		{"col", fp8.E4M3FN, PerCol},
		{"tile1x128", fp8.E4M3FN, Tile1x128},
		{"block128", fp8.E4M3FN, Block128},
		{"mx", fp8.E4M3FN, MX},
		{"tensor_E2M1", fp8.E2M1, PerTensor},
		{"mx_E2M1", fp8.E2M1, MX},
		{"nvfp4_E2M1", fp8.E2M1, NVFP4},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(4 * x.Len()))
			for b.Loop() {
				if _, err := Quantize(x, c.f, c.g, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(x.Len()), "ns/value")
		})
	}
}

// BenchmarkDequantize4096 decodes the per-row quantization.
func BenchmarkDequantize4096(b *testing.B) {
	x := benchInput(b)
	q, err := Quantize(x, fp8.E4M3FN, PerRow, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(x.Len()))
	for b.Loop() {
		if _, err := q.Dequantize(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFWHT transforms 4096 rows of 4096 in place (and rows of 256),
// beside a dense O(n²) Hadamard product for n = 256 for scale.
func BenchmarkFWHT(b *testing.B) {
	x := benchInput(b)
	b.Run("rows4096x4096", func(b *testing.B) {
		r, err := NewRotation(benchSide, benchSide)
		if err != nil {
			b.Fatal(err)
		}
		y := x.Clone()
		b.SetBytes(int64(4 * y.Len()))
		for b.Loop() {
			if err := r.RotateRows(y); err != nil {
				b.Fatal(err)
			}
		}
	})
	small, err := RandomNormal(benchSide, 256, 1, 2)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("rows4096x256", func(b *testing.B) {
		r, err := NewRotation(256, 256)
		if err != nil {
			b.Fatal(err)
		}
		y := small.Clone()
		b.SetBytes(int64(4 * y.Len()))
		for b.Loop() {
			if err := r.RotateRows(y); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dense4096x256", func(b *testing.B) {
		h, err := HadamardMatrix(256)
		if err != nil {
			b.Fatal(err)
		}
		out := make([]float32, 256)
		b.SetBytes(int64(4 * small.Len()))
		for b.Loop() {
			for i := 0; i < small.Rows; i++ {
				row := small.Row(i)
				clear(out)
				for k, v := range row {
					hk := h.Row(k)
					for j := range out {
						out[j] += v * hk[j]
					}
				}
			}
		}
	})
}

// BenchmarkScaledMatMul multiplies 256×1024 by 1024×256 quantized matrices.
func BenchmarkScaledMatMul(b *testing.B) {
	a, _ := RandomNormal(256, 1024, 1, 3)
	w, _ := RandomNormal(1024, 256, 1, 4)
	qa, _ := Quantize(a, fp8.E4M3FN, Tile1x128, Options{})
	qw, _ := Quantize(w, fp8.E4M3FN, Block128, Options{})
	for _, acc := range []struct {
		name string
		acc  Accumulator
	}{{"float32", Float32Accumulator}, {"fast", FastAccumulator}} {
		b.Run(acc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ScaledMatMul(qa, qw, acc.acc); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(256*1024*256), "ns/product")
		})
	}
}
