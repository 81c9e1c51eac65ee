package tensorio

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSelect: a named tensor is read, the only tensor needs no name, and
// an empty or unknown name among several is an error listing them.
func TestSelect(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteSafetensors(&b, []Raw{
		{Name: "a.weight", DType: "F32", Shape: []int64{1, 2}, Data: f32le(1, 2)},
		{Name: "b.weight", DType: "F32", Shape: []int64{2}, Data: f32le(3, 4)},
	}, nil))
	a, err := Open(bytes.NewReader(b.Bytes()), int64(b.Len()), "two.safetensors", Limits{})
	require.NoError(t, err)
	x, err := Select([]*Archive{a}, "b.weight")
	require.NoError(t, err)
	assert.Equal(t, []float32{3, 4}, x.Data)
	_, err = Select([]*Archive{a}, "")
	require.True(t, errors.Is(err, ErrNoTensor), "%v", err)
	assert.EqualError(t, err, `two.safetensors: tensorio: no such tensor: the file holds 2 tensors; name one ("a.weight", "b.weight")`)
	_, err = Select([]*Archive{a}, "c")
	require.True(t, errors.Is(err, ErrNoTensor))
	assert.Contains(t, err.Error(), `"c"; the file holds "a.weight", "b.weight"`)

	one, err := Open(bytes.NewReader([]byte("1,2\n3,4\n")), 8, "t.csv", Limits{})
	require.NoError(t, err)
	x, err = Select([]*Archive{one}, "")
	require.NoError(t, err)
	assert.Equal(t, []float32{1, 2, 3, 4}, x.Data)
}
