package scan

import (
	"bytes"
	"context"
	"testing"

	"github.com/fp8lab/fp8lab/tensorio"
)

// BenchmarkScanBF16 scans a generated BF16 file of 8 tensors of 1024×1024
// under the five default recipes for E4M3FN and reports values/s.
func BenchmarkScanBF16(b *testing.B) {
	const rows, cols, tensors = 1024, 1024, 8
	data := make([]byte, 2*rows*cols)
	for i := range rows * cols {
		data[2*i], data[2*i+1] = byte(i*37), 0x3C+byte(i%3)
	}
	var raws []tensorio.Raw
	for k := range tensors {
		raws = append(raws, tensorio.Raw{Name: string(rune('a' + k)), DType: "BF16", Shape: []int64{rows, cols}, Data: data})
	}
	var buf bytes.Buffer
	if err := tensorio.WriteSafetensors(&buf, raws, nil); err != nil {
		b.Fatal(err)
	}
	file := buf.Bytes()
	a, err := tensorio.Open(bytes.NewReader(file), int64(len(file)), "bench", tensorio.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(context.Background(), []*tensorio.Archive{a}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*rows*cols*tensors)/b.Elapsed().Seconds(), "values/s")
}
