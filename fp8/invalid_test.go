package fp8

import (
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInvalidFormatEveryMethod calls every exported method of *Format on a
// nil pointer and on the zero Format{} with zero arguments (and with
// one-element slices): none may panic, and every method that returns an
// error must return one wrapping ErrInvalidFormat.
func TestInvalidFormatEveryMethod(t *testing.T) {
	typ := reflect.TypeOf((*Format)(nil))
	require.Greater(t, typ.NumMethod(), 25, "the reflection walk sees the methods")
	errType := reflect.TypeOf((*error)(nil)).Elem()
	for name, f := range map[string]*Format{"nil": nil, "zero": {}} {
		for i := 0; i < typ.NumMethod(); i++ {
			m := typ.Method(i)
			for _, n := range []int{0, 1} {
				args := []reflect.Value{reflect.ValueOf(f)}
				for j := 1; j < m.Type.NumIn(); j++ {
					in := m.Type.In(j)
					v := reflect.New(in).Elem()
					if in.Kind() == reflect.Slice {
						v = reflect.MakeSlice(in, n, n)
					}
					args = append(args, v)
				}
				var out []reflect.Value
				require.NotPanics(t, func() { out = m.Func.Call(args) }, "%s Format: %s", name, m.Name)
				if k := m.Type.NumOut(); k > 0 && m.Type.Out(k-1) == errType {
					err, _ := out[k-1].Interface().(error)
					assert.ErrorIs(t, err, ErrInvalidFormat, "%s Format: %s must report the invalid format", name, m.Name)
				}
			}
		}
		_, err := f.Explain(1, Mode{})
		assert.ErrorIs(t, err, ErrInvalidFormat, "%s Format: Explain", name)
		_, err = f.Encode(1, Mode{})
		assert.ErrorIs(t, err, ErrInvalidFormat, "%s Format: Encode", name)
		assert.True(t, math.IsNaN(f.Decode(0x38)), "%s Format: Decode gives NaN", name)
		assert.True(t, math.IsNaN(float64(f.Decode32(0))), name)
		assert.True(t, f.IsNaN(0), name)
		assert.True(t, math.IsNaN(f.Max()), name)
		assert.Equal(t, ClassNaN, f.Class(0), name)
		assert.False(t, f.Valid(0), name)
		assert.False(t, f.HasNaN(), name)
		assert.Zero(t, f.NumCodes(), name)
		assert.Empty(t, f.Codes(), name)
		assert.Equal(t, Info{}, f.Info(), name)
		assert.Equal(t, "invalid Format", f.String(), name)
		assert.False(t, f.Overflows(1e9, Mode{}), name)
	}
}
