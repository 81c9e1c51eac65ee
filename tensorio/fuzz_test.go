package tensorio

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// FuzzReadNPY: arbitrary bytes never panic, and whatever parses writes back
// and reads again to the same tensor.
func FuzzReadNPY(f *testing.F) {
	var buf bytes.Buffer
	x, _ := scaling.FromRows([][]float32{{1, 2}, {3, 4}})
	_ = WriteNPY(&buf, x)
	f.Add(buf.Bytes())
	f.Add(npyBytes(1, "{'descr': '>f8', 'fortran_order': True, 'shape': (2, 1), }\n", make([]byte, 16)))
	f.Add(npyBytes(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }\n", make([]byte, 12)))
	f.Add([]byte("\x93NUMPY\x01\x00\xff\xff{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := One(ReadBytes(b, "", Limits{}))
		if err != nil {
			assert.True(t, errors.Is(err, scaling.ErrParse) || errors.Is(err, scaling.ErrShape) || errors.Is(err, ErrTooLarge), "unexpected error %v", err)
			return
		}
		require.NoError(t, x.Check())
		var out bytes.Buffer
		require.NoError(t, WriteNPY(&out, x))
		y, err := One(ReadBytes(out.Bytes(), "", Limits{}))
		require.NoError(t, err)
		assert.Equal(t, math.Float32bits(x.Data[0]), math.Float32bits(y.Data[0]))
		assert.Equal(t, x.Rows, y.Rows)
		assert.Equal(t, x.Cols, y.Cols)
	})
}

// FuzzReadCSV: arbitrary text never panics; what parses has a valid shape.
func FuzzReadCSV(f *testing.F) {
	f.Add("1,2\n3,4\n")
	f.Add("a,b\n1e39,-0\n")
	f.Add("# c\n\n1\n")
	f.Add("\"1\",2\n")
	f.Fuzz(func(t *testing.T, s string) {
		x, err := One(ReadBytes([]byte(s), "", Limits{}))
		if err != nil {
			assert.True(t, errors.Is(err, scaling.ErrParse) || errors.Is(err, scaling.ErrShape) || errors.Is(err, ErrTooLarge), "unexpected error %v", err)
			return
		}
		require.NoError(t, x.Check())
	})
}

// FuzzParseField: the CSV reader's fast path for plain decimals and
// fp8.ParseNumber agree on every text, value bits and error class alike.
func FuzzParseField(f *testing.F) {
	for _, s := range []string{"1.5", "-0", "1e39", "1e-46", ".5e-3", "2^-9", "0x1p3", "1_0", "+.e1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, werr := fp8.ParseNumber(s, 32)
		got, gerr := parseField([]byte(s))
		require.Equal(t, werr == nil, gerr == nil, "%q: %v vs %v", s, werr, gerr)
		require.Equal(t, errors.Is(werr, strconv.ErrRange), errors.Is(gerr, strconv.ErrRange), s)
		if werr == nil || errors.Is(werr, strconv.ErrRange) {
			require.Equal(t, math.Float64bits(want), math.Float64bits(got), s)
		}
	})
}
