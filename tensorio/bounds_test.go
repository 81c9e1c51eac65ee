package tensorio

import (
	"archive/zip"
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 26 item 1: reading a tensor costs buffers the size of the tensor,
// not a chunk each: a file of thousands of tiny tensors (596 KB, ~6,000
// tensors) ran the browser's module out of memory at ~1 MiB a tensor.
func TestTinyTensorsCostNoChunk(t *testing.T) {
	const n = 500
	raws := make([]Raw, n)
	for k := range raws {
		raws[k] = Raw{Name: fmt.Sprintf("t%d", k), DType: "F32", Shape: []int64{2}, Data: f32le(float32(k), 1)}
	}
	data := stBytes(t, raws)
	a, err := Open(bytes.NewReader(data), int64(len(data)), "tiny.safetensors", Limits{})
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var buf []float32
	for i := range a.Tensors {
		x, err := a.TensorInto(i, buf)
		require.NoError(t, err)
		require.Equal(t, float32(i), x.Data[0])
		buf = x.Data
		require.NoError(t, a.Stream(i, func(v []float32) error {
			require.Equal(t, []float32{float32(i), 1}, v)
			return nil
		}))
	}
	runtime.ReadMemStats(&after)
	perTensor := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("%d bytes allocated per tiny tensor (read and streamed)", perTensor)
	assert.Less(t, perTensor, uint64(4<<10), "bytes allocated per tensor of two values")
}

// npzOf is an .npz of one member holding data, deflated or stored.
func npzOf(t *testing.T, name string, method uint16, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

// Issue 26 item 2: an .npz member that inflates far beyond its compressed
// size (a 1 MB file that inflates to 1 GiB was scanned at 2.25 GB) is
// refused when the archive is opened, before anything is inflated; the
// same bytes stored uncompressed, and a member that compresses as
// weights do, are read.
func TestNPZInflateBound(t *testing.T) {
	const rows, cols = 512, 1024 // 2 MiB of float32 zeros: deflates 1000:1
	hdr := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }\n", rows, cols)
	zeros := npyBytes(1, hdr, make([]byte, 4*rows*cols))
	bomb := npzOf(t, "w.npy", zip.Deflate, zeros)
	require.Less(t, len(bomb), len(zeros)/MaxInflateRatio, "the test's member compresses beyond the bound")
	_, err := Open(bytes.NewReader(bomb), int64(len(bomb)), "bomb.npz", Limits{})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.ErrorContains(t, err, `bomb.npz: `)
	assert.ErrorContains(t, err, `npz member "w.npy" inflates`)

	stored := npzOf(t, "w.npy", zip.Store, zeros)
	a, err := Open(bytes.NewReader(stored), int64(len(stored)), "stored.npz", Limits{})
	require.NoError(t, err)
	x, err := a.Tensor(0)
	require.NoError(t, err)
	assert.Equal(t, rows*cols, x.Len())

	// Small members inflate as they like (an all-zero bias).
	small := npzOf(t, "b.npy", zip.Deflate, npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4096,), }\n", make([]byte, 4*4096)))
	_, err = Open(bytes.NewReader(small), int64(len(small)), "small.npz", Limits{})
	require.NoError(t, err)

	// What the members inflate to counts against the input limit.
	_, err = Open(bytes.NewReader(stored), int64(len(stored)), "stored.npz", Limits{MaxBytes: int64(len(stored)) + 10})
	require.NoError(t, err)
	_, err = Open(bytes.NewReader(small), int64(len(small)), "small.npz", Limits{MaxBytes: int64(len(small)) + 10})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.ErrorContains(t, err, "inflate to more than the input limit")
}
