//go:build !js

package jsapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/jsapi"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/tensorio"
)

// checkpoint is a safetensors file of n F32 tensors of rows×cols normal
// values; tensor 1 has an outlier row.
func checkpoint(t *testing.T, n, rows, cols int) []byte {
	t.Helper()
	var raws []tensorio.Raw
	for k := 0; k < n; k++ {
		x, err := scaling.RandomNormal(rows, cols, 0.02, uint64(k+1))
		require.NoError(t, err)
		if k == 1 {
			for j := range x.Row(3) {
				x.Row(3)[j] *= 1e4
			}
		}
		b := make([]byte, 4*len(x.Data))
		for i, v := range x.Data {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		raws = append(raws, tensorio.Raw{Name: fmt.Sprintf("layers.%d.weight", k), DType: "F32", Shape: []int64{int64(rows), int64(cols)}, Data: b})
	}
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, raws, nil))
	return b.Bytes()
}

// Scan gives fp8lab scan's report: the JSON of scan.Run over the same
// file, written as the CLI writes it, and report.Body of it; progress is
// called once per tensor; bad options are the CLI's errors.
func TestScanIsTheCLIs(t *testing.T) {
	data := checkpoint(t, 3, 16, 64)
	var calls []scan.Progress
	res, err := jsapi.Scan(context.Background(), bytes.NewReader(data), int64(len(data)), "m.safetensors", jsapi.ScanRequest{},
		func(p scan.Progress) { calls = append(calls, p) })
	require.NoError(t, err)
	a, err := tensorio.Open(bytes.NewReader(data), int64(len(data)), "m.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	rep, err := scan.Run(context.Background(), []*tensorio.Archive{a}, scan.Options{})
	require.NoError(t, err)
	var want bytes.Buffer
	require.NoError(t, cmdline.WriteJSON(&want, rep))
	assert.Equal(t, want.String(), string(res.JSON))
	assert.Equal(t, 3, res.Tensors)
	assert.False(t, res.Interrupted)
	assert.Contains(t, res.HTML, `data-tensor="layers.1.weight"`)
	require.Len(t, calls, 3)
	assert.Equal(t, 3, calls[2].Tensors)
	assert.Equal(t, calls[2].Size, calls[2].Bytes)

	for _, c := range []struct {
		q    jsapi.ScanRequest
		want string
	}{
		{jsapi.ScanRequest{Recipes: "nope"}, `unknown recipe "nope"`},
		{jsapi.ScanRequest{Formats: "E9M9"}, "E9M9"},
		{jsapi.ScanRequest{Filter: "("}, "filter"},
		{jsapi.ScanRequest{Layout: "nchw"}, "unknown layout"},
		{jsapi.ScanRequest{MinSQNR: -1}, "minSQNR"},
	} {
		_, err := jsapi.Scan(context.Background(), bytes.NewReader(data), int64(len(data)), "m.safetensors", c.q, nil)
		assert.ErrorContains(t, err, c.want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = jsapi.Scan(ctx, bytes.NewReader(data), int64(len(data)), "m.safetensors", jsapi.ScanRequest{}, nil)
	require.NoError(t, err)
	assert.True(t, res.Interrupted)
	assert.Equal(t, 0, res.Tensors)
}

// ExtractNPY writes one tensor of the file as a float32 .npy that reads
// back to the same values.
func TestExtractNPY(t *testing.T) {
	data := checkpoint(t, 3, 16, 64)
	b, err := jsapi.ExtractNPY(bytes.NewReader(data), int64(len(data)), "m.safetensors", "layers.1.weight")
	require.NoError(t, err)
	got, err := tensorio.One(tensorio.ReadBytes(b, "x.npy", tensorio.Limits{}))
	require.NoError(t, err)
	a, err := tensorio.Open(bytes.NewReader(data), int64(len(data)), "m.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	want, err := a.Tensor(1)
	require.NoError(t, err)
	assert.Equal(t, want.Data, got.Data)
	assert.Equal(t, [2]int{16, 64}, [2]int{got.Rows, got.Cols})
	_, err = jsapi.ExtractNPY(bytes.NewReader(data), int64(len(data)), "m.safetensors", "nope")
	assert.ErrorIs(t, err, tensorio.ErrNoTensor)
}

// scanCases run scanFile and extractTensor on Blobs in Node: the same JSON
// as Scan over the bytes (also for a file of several 4 MiB windows), the
// same error for a truncated file, cancel, and the arguments' errors.
func scanCases(t *testing.T) []jsCase {
	small := checkpoint(t, 3, 16, 64)
	big := checkpoint(t, 3, 512, 1024) // 6 MiB: the reader fetches several windows
	native := func(data []byte) string {
		res, err := jsapi.Scan(context.Background(), bytes.NewReader(data), int64(len(data)), "m.safetensors", jsapi.ScanRequest{}, nil)
		require.NoError(t, err)
		return string(res.JSON)
	}
	blob := func(data []byte) string {
		return fmt.Sprintf(`new Blob([Uint8Array.from(atob(%q), (c) => c.charCodeAt(0))])`, base64.StdEncoding.EncodeToString(data))
	}
	truncated := small[:len(small)-100]
	_, badErr := jsapi.Scan(context.Background(), bytes.NewReader(truncated), int64(len(truncated)), "m.safetensors", jsapi.ScanRequest{}, nil)
	require.Error(t, badErr)
	npy, err := jsapi.ExtractNPY(bytes.NewReader(small), int64(len(small)), "m.safetensors", "layers.2.weight")
	require.NoError(t, err)
	scanned := func(want []byte, fetchesAtLeast int) func(t *testing.T, v any) {
		return func(t *testing.T, v any) {
			o := obj(t, v)
			assert.Equal(t, native(want), o["json"])
			assert.Nil(t, o["error"])
			assert.Equal(t, false, o["interrupted"])
			assert.Equal(t, 3.0, o["progress"], "one progress call per tensor")
			assert.GreaterOrEqual(t, o["fetches"], float64(fetchesAtLeast))
			assert.Contains(t, o["html"], `data-tensor="layers.0.weight"`)
		}
	}
	run := `let calls = 0; const job = api.scanFile(%s, {filename: "m.safetensors", onProgress: () => calls++});
		return job.done.then((r) => Object.assign(r, {progress: calls}));`
	return []jsCase{
		{name: "scanFile: a small file", code: fmt.Sprintf(run, blob(small)), check: scanned(small, 1)},
		{name: "scanFile: a file of several windows", code: fmt.Sprintf(run, blob(big)), check: scanned(big, 2)},
		{name: "scanFile: a truncated file rejects with the CLI's error",
			code:    fmt.Sprintf(`return api.scanFile(%s, {filename: "m.safetensors"}).done;`, blob(truncated)),
			wantErr: "fp8lab.scanFile: " + badErr.Error()},
		{name: "scanFile: cancel at once", code: fmt.Sprintf(`const job = api.scanFile(%s, {filename: "m.safetensors"}); job.cancel(); return job.done;`, blob(small)),
			check: func(t *testing.T, v any) {
				o := obj(t, v)
				assert.Equal(t, true, o["interrupted"])
				assert.Equal(t, 0.0, o["tensors"])
			}},
		{name: "scanFile: not a Blob", code: `return api.scanFile(new Uint8Array(8));`, wantErr: "must be a Blob or File"},
		{name: "scanFile: unknown recipe", code: fmt.Sprintf(`return api.scanFile(%s, {recipes: "nope"});`, blob(small)), wantErr: `unknown recipe "nope"`},
		{name: "scanFile: unknown option", code: fmt.Sprintf(`return api.scanFile(%s, {recipe: "rowwise"});`, blob(small)), wantErr: "recipe"},
		{name: "extractTensor: one tensor as .npy", code: fmt.Sprintf(`return api.extractTensor(%s, "layers.2.weight", "m.safetensors");`, blob(small)),
			check: func(t *testing.T, v any) {
				got := typed(t, v, "Uint8Array")
				assert.Equal(t, toF64(npy), got)
			}},
		{name: "extractTensor: no such tensor", code: fmt.Sprintf(`return api.extractTensor(%s, "nope", "m.safetensors");`, blob(small)),
			wantErr: strings.Split(tensorio.ErrNoTensor.Error(), ":")[0]},
	}
}

// cancelAt is a file that cancels the scan when a read reaches past off,
// and fails that read as a Blob read cut short by the cancel does.
type cancelAt struct {
	data   []byte
	off    int64
	cancel context.CancelFunc
}

func (c *cancelAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > c.off {
		c.cancel()
		return 0, errors.New("reading bytes of the file: cancelled")
	}
	return bytes.NewReader(c.data).ReadAt(p, off)
}

// A scan cancelled while a tensor's read waits reports the tensors before
// it as interrupted, not the cut read as an error (the Scan page showed
// "failed" after Cancel once reads stopped at once).
func TestScanCancelledDuringARead(t *testing.T) {
	data := checkpoint(t, 3, 16, 64)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := tensorio.Open(bytes.NewReader(data), int64(len(data)), "m.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	r := &cancelAt{data: data, off: a.Tensors[1].Offset + 1, cancel: cancel}
	res, err := jsapi.Scan(ctx, r, int64(len(data)), "m.safetensors", jsapi.ScanRequest{}, nil)
	require.NoError(t, err)
	assert.True(t, res.Interrupted)
	assert.Equal(t, 1, res.Tensors, "the tensor before the cut read")
}
