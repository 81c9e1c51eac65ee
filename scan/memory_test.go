package scan

import (
	"bytes"
	"context"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/tensorio"
)

// TestMemoryBound scans a BF16 file whose largest tensor holds N values
// under the five default recipes, with a soft memory limit, and checks
// that the heap in use never grows by more than 3× the largest tensor in
// float32 (12·N bytes) over what it held before (which includes the file's
// bytes, held here in memory as a browser Blob would be).
func TestMemoryBound(t *testing.T) {
	const rows, cols = 512, 2048 // N = 1M values: 4 MB in float32
	n := rows * cols
	data := make([]byte, 2*n)
	for i := range n {
		// BF16 of a spread of values: exponent 120…127, varied mantissa.
		data[2*i], data[2*i+1] = byte(i*37), 0x3C+byte(i%3)
	}
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, []tensorio.Raw{
		{Name: "big", DType: "BF16", Shape: []int64{rows, cols}, Data: data},
		{Name: "small", DType: "BF16", Shape: []int64{cols}, Data: data[:2*cols]},
	}, nil))
	data = nil
	file := b.Bytes()
	a, err := tensorio.Open(bytes.NewReader(file), int64(len(file)), "mem.safetensors", tensorio.Limits{})
	require.NoError(t, err)

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	bound := base + uint64(12*n)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(bound)))
	stop := heapPeak(2 * time.Millisecond)
	rep, err := Run(context.Background(), []*tensorio.Archive{a}, Options{})
	peak := stop()
	require.NoError(t, err)
	require.Len(t, rep.Tensors, 2)
	grew := float64(peak-base) / float64(4*n)
	t.Logf("peak heap growth %.2f× the largest tensor in float32", grew)
	assert.LessOrEqual(t, grew, 3.0)
}
