package scan

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/tensorio"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += n
	return n, err
}

// Issue 26 items 2 and 10: more tensors than the limit (an 8.8 MB file of
// 100,000 tensors took 2.3 GB) is an error before any tensor is read, and
// a NaN or infinite threshold is refused (it was accepted, and the JSON
// report could not be written).
func TestRunRefusesBeforeReading(t *testing.T) {
	raws := make([]tensorio.Raw, 30)
	for k := range raws {
		raws[k] = tensorio.Raw{Name: fmt.Sprintf("t%d", k), DType: "F32", Shape: []int64{1}, Data: []byte{0, 0, 128, 63}}
	}
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, raws, nil))
	cr := &countingReader{r: bytes.NewReader(b.Bytes())}
	a, err := tensorio.Open(cr, int64(b.Len()), "m.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	opened := cr.n

	rep, err := Run(context.Background(), []*tensorio.Archive{a}, Options{MaxTensors: 29})
	require.ErrorIs(t, err, ErrTooMany)
	assert.EqualError(t, err, "scan: too many tensors: 30 tensors to scan, more than the limit of 29")
	assert.Nil(t, rep)
	assert.Equal(t, opened, cr.n, "no tensor read")

	rep, err = Run(context.Background(), []*tensorio.Archive{a}, Options{MaxTensors: 30})
	require.NoError(t, err)
	assert.Len(t, rep.Tensors, 30)
	rep, err = Run(context.Background(), []*tensorio.Archive{a}, Options{MaxTensors: 10, Filter: mustRegexp(`^t1\d$`)})
	require.NoError(t, err, "the limit counts the tensors the filter keeps")
	assert.Len(t, rep.Tensors, 10)

	for _, o := range []Options{{MinSQNR: math.NaN()}, {MinSQNR: math.Inf(1)}, {MinSQNR: -3}, {MaxTensors: -1}} {
		rep, err := Run(context.Background(), []*tensorio.Archive{a}, o)
		assert.Error(t, err, "%+v", o)
		assert.Nil(t, rep)
	}
}
