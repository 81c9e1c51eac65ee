package scaling

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// npyBytes builds an .npy file by hand (independently of WriteNPY).
func npyBytes(version byte, header string, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x93NUMPY")
	b.WriteByte(version)
	b.WriteByte(0)
	if version == 1 {
		binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	} else {
		binary.Write(&b, binary.LittleEndian, uint32(len(header)))
	}
	b.WriteString(header)
	b.Write(data)
	return b.Bytes()
}

func f32le(vs ...float32) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, vs)
	return b.Bytes()
}

func TestReadNPY(t *testing.T) {
	// Exactly what numpy 1.x writes for np.arange(6, dtype='<f4').reshape(2, 3).
	hdr := "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
	hdr += strings.Repeat(" ", 118-len(hdr)-1) + "\n"
	x, err := ReadNPY(bytes.NewReader(npyBytes(1, hdr, f32le(0, 1, 2, 3, 4, 5))))
	require.NoError(t, err)
	assert.Equal(t, &Tensor{Rows: 2, Cols: 3, Data: []float32{0, 1, 2, 3, 4, 5}}, x)

	// Fortran order: the data is column-major.
	x, err = ReadNPY(bytes.NewReader(npyBytes(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3)}\n", f32le(0, 3, 1, 4, 2, 5))))
	require.NoError(t, err)
	assert.Equal(t, []float32{0, 1, 2, 3, 4, 5}, x.Data)

	// Big-endian float64, version 2, 1-D, double quotes.
	var be bytes.Buffer
	binary.Write(&be, binary.BigEndian, []float64{0.1, -2, math.Inf(1)})
	x, err = ReadNPY(bytes.NewReader(npyBytes(2, `{"shape": (3,), "descr": ">f8", "fortran_order": False}`+"\n", be.Bytes())))
	require.NoError(t, err)
	assert.Equal(t, 1, x.Rows)
	assert.Equal(t, []float32{0.1, -2, float32(math.Inf(1))}, x.Data)

	// Round trip through WriteNPY, with a length that crosses read chunks.
	big := normal(t, 3, readChunk/4, 1, 1)
	var buf bytes.Buffer
	require.NoError(t, WriteNPY(&buf, big))
	assert.Zero(t, (buf.Len()-big.Len()*4)%64, "data starts at a multiple of 64")
	back, err := ReadNPY(&buf)
	require.NoError(t, err)
	assert.Equal(t, big, back)
}

func TestReadNPYErrors(t *testing.T) {
	good := "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }\n"
	data := f32le(1, 2, 3, 4)
	cases := map[string][]byte{
		"empty":          nil,
		"bad magic":      append([]byte("\x93NUMPX\x01\x00"), npyBytes(1, good, data)[8:]...),
		"version 4":      npyBytes(4, good, data),
		"short header":   npyBytes(1, good, nil)[:20],
		"truncated data": npyBytes(1, good, data[:10]),
		"int dtype":      npyBytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", data),
		"float16":        npyBytes(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }", data),
		"3-D":            npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 2), }", data),
		"0-D":            npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", data),
		"zero rows":      npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 2), }", data),
		"huge":           npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999), }", data),
		"missing key":    npyBytes(1, "{'descr': '<f4', 'shape': (2, 2), }", data),
		"unknown key":    npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 1}", data),
		"duplicate key":  npyBytes(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)}", data),
		"bad bool":       npyBytes(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 2)}", data),
		"bad tuple":      npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2; 2)}", data),
		"negative":       npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 2)}", data),
		"trailing text":  npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)} x", data),
		"not a dict":     npyBytes(1, "[1, 2]", data),
		"v2 huge header": npyBytes(2, "", nil)[:8],
	}
	hdr := npyBytes(2, "", nil)
	binary.LittleEndian.PutUint32(hdr[8:], 1<<30)
	cases["v2 header too long"] = hdr
	for name, b := range cases {
		_, err := ReadNPY(bytes.NewReader(b))
		assert.Error(t, err, name)
	}
	assert.ErrorIs(t, WriteNPY(&bytes.Buffer{}, nil), ErrShape)
}

func TestReadCSV(t *testing.T) {
	in := "# a comment\nx, y, z\n1, 2, 3\n\n4.5,-6e-3 , NaN\n"
	x, err := ReadCSV(strings.NewReader(in))
	require.NoError(t, err)
	require.Equal(t, 2, x.Rows)
	require.Equal(t, 3, x.Cols)
	assert.Equal(t, []float32{1, 2, 3, 4.5, -6e-3}, x.Data[:5])
	assert.True(t, math.IsNaN(float64(x.Data[5])))

	x, err = ReadCSV(strings.NewReader("1e39,0.1\n"))
	require.NoError(t, err)
	assert.True(t, math.IsInf(float64(x.Data[0]), 1))

	y := normal(t, 5, 7, 1e-3, 2)
	var buf bytes.Buffer
	require.NoError(t, WriteCSV(&buf, y))
	back, err := ReadCSV(&buf)
	require.NoError(t, err)
	assert.Equal(t, y, back, "shortest float32 text reads back exactly")

	for name, s := range map[string]string{
		"empty":       "",
		"header only": "a,b\n",
		"ragged":      "1,2\n3\n",
		"not number":  "1,2\n3,x\n",
		"empty field": "1,,2\n",
		"bad quote":   "\"1,2\n",
	} {
		_, err := ReadCSV(strings.NewReader(s))
		assert.Error(t, err, name)
	}
	assert.ErrorIs(t, WriteCSV(&bytes.Buffer{}, &Tensor{}), ErrShape)
}
