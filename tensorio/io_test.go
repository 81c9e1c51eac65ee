package tensorio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
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
	x, err := readBytes(t, npyBytes(1, hdr, f32le(0, 1, 2, 3, 4, 5)))
	require.NoError(t, err)
	assert.Equal(t, &scaling.Tensor{Rows: 2, Cols: 3, Data: []float32{0, 1, 2, 3, 4, 5}}, x)

	// Fortran order: the data is column-major.
	x, err = readBytes(t, npyBytes(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3)}\n", f32le(0, 3, 1, 4, 2, 5)))
	require.NoError(t, err)
	assert.Equal(t, []float32{0, 1, 2, 3, 4, 5}, x.Data)

	// Big-endian float64, version 2, 1-D, double quotes.
	var be bytes.Buffer
	binary.Write(&be, binary.BigEndian, []float64{0.1, -2, math.Inf(1)})
	x, err = readBytes(t, npyBytes(2, `{"shape": (3,), "descr": ">f8", "fortran_order": False}`+"\n", be.Bytes()))
	require.NoError(t, err)
	assert.Equal(t, 1, x.Rows)
	assert.Equal(t, []float32{0.1, -2, float32(math.Inf(1))}, x.Data)

	// Round trip through WriteNPY, with a length that crosses read chunks.
	big := normal(t, 3, readChunk/4, 1, 1)
	var buf bytes.Buffer
	require.NoError(t, WriteNPY(&buf, big))
	assert.Zero(t, (buf.Len()-big.Len()*4)%64, "data starts at a multiple of 64")
	back, err := readBytes(t, buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, big, back)
}

// TestNPYUint8 round-trips FP8 codes through WriteNPYUint8 and the reader
// (as the float32 values 0..255), and reads numpy's own uint8 header.
func TestNPYUint8(t *testing.T) {
	codes := make([]uint8, 3*300)
	for i := range codes {
		codes[i] = uint8(i * 37)
	}
	var buf bytes.Buffer
	require.NoError(t, WriteNPYUint8(&buf, 3, 300, codes))
	assert.Zero(t, (buf.Len()-len(codes))%64, "data starts at a multiple of 64")
	back, err := readBytes(t, buf.Bytes())
	require.NoError(t, err)
	require.Equal(t, 3, back.Rows)
	require.Equal(t, 300, back.Cols)
	for i, c := range codes {
		require.Equal(t, float32(c), back.Data[i], "code %d", i)
	}
	a, err := Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "codes.npy", Limits{})
	require.NoError(t, err)
	assert.Equal(t, "U8", a.Tensors[0].DType)

	// Exactly what numpy writes for np.arange(4, dtype=np.uint8).reshape(2, 2).
	hdr := "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2), }"
	hdr += strings.Repeat(" ", 118-len(hdr)-1) + "\n"
	x, err := readBytes(t, npyBytes(1, hdr, []byte{0, 1, 2, 255}))
	require.NoError(t, err)
	assert.Equal(t, []float32{0, 1, 2, 255}, x.Data)

	for _, bad := range []struct {
		rows, cols int
		data       []uint8
	}{{0, 4, nil}, {2, 2, []uint8{1, 2, 3}}, {-1, -4, []uint8{1, 2, 3, 4}}} {
		assert.ErrorIs(t, WriteNPYUint8(&bytes.Buffer{}, bad.rows, bad.cols, bad.data), scaling.ErrShape)
	}
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
		"complex":        npyBytes(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", data),
		"3-D Fortran":    npyBytes(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2, 2), }", data),
		"3-D, a zero":    npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0, 2), }", data),
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
		_, err := readBytes(t, b)
		assert.Error(t, err, name)
	}
	assert.ErrorIs(t, WriteNPY(&bytes.Buffer{}, nil), scaling.ErrShape)
}

func TestReadCSV(t *testing.T) {
	in := "# a comment\nx, y, z\n1, 2, 3\n\n4.5,-6e-3 , NaN\n"
	x, err := readBytes(t, []byte(in))
	require.NoError(t, err)
	require.Equal(t, 2, x.Rows)
	require.Equal(t, 3, x.Cols)
	assert.Equal(t, []float32{1, 2, 3, 4.5, -6e-3}, x.Data[:5])
	assert.True(t, math.IsNaN(float64(x.Data[5])))

	x, err = readBytes(t, []byte("1e39,0.1\n"))
	require.NoError(t, err)
	assert.True(t, math.IsInf(float64(x.Data[0]), 1))

	y := normal(t, 5, 7, 1e-3, 2)
	var buf bytes.Buffer
	require.NoError(t, WriteCSV(&buf, y))
	back, err := readBytes(t, buf.Bytes())
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
		_, err := readBytes(t, []byte(s))
		assert.Error(t, err, name)
	}
	assert.ErrorIs(t, WriteCSV(&bytes.Buffer{}, &scaling.Tensor{}), scaling.ErrShape)
}

// readBytes reads one tensor from b with the default limits.
func readBytes(t testing.TB, b []byte) (*scaling.Tensor, error) {
	t.Helper()
	return One(ReadBytes(b, "", Limits{}))
}

func normal(t testing.TB, rows, cols int, std float64, seed uint64) *scaling.Tensor {
	t.Helper()
	x, err := scaling.RandomNormal(rows, cols, std, seed)
	require.NoError(t, err)
	return x
}

// The format is decided by content, not by name: an .npy file called
// x.csv is read as .npy, a CSV called x.npy as CSV.
func TestSniffByContent(t *testing.T) {
	dir := t.TempDir()
	npyPath := filepath.Join(dir, "x.csv")
	csvPath := filepath.Join(dir, "x.npy")
	require.NoError(t, os.WriteFile(npyPath, npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f32le(7, 8)), 0o644))
	require.NoError(t, os.WriteFile(csvPath, []byte("7,8\n"), 0o644))
	for _, p := range []string{npyPath, csvPath} {
		ts, err := ReadFile(p, Limits{})
		require.NoError(t, err, p)
		require.Len(t, ts, 1)
		assert.Equal(t, p, ts[0].Name)
		assert.Equal(t, []float32{7, 8}, ts[0].Tensor.Data, p)
	}
	assert.Equal(t, NPY, Sniff([]byte("\x93NUMPY\x01")))
	assert.Equal(t, CSV, Sniff([]byte("\x93NUM")))
}

// Issue 12 item 11: a directory says it is one (not "parse error"); a
// device is refused at once instead of being read until memory runs out
// (item 4: fp8lab quantize /dev/zero grew past 3 GB).
func TestReadFileRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadFile(dir, Limits{})
	require.ErrorIs(t, err, ErrNotFile)
	assert.Contains(t, err.Error(), "is a directory")
	assert.NotErrorIs(t, err, scaling.ErrParse)
	if _, serr := os.Stat("/dev/zero"); serr == nil {
		_, err = ReadFile("/dev/zero", Limits{})
		require.ErrorIs(t, err, ErrNotFile)
		assert.Contains(t, err.Error(), "device")
	}
	_, err = ReadFile(filepath.Join(dir, "missing.npy"), Limits{})
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// zeros is an endless reader of zero bytes that claims to be huge, as
// /dev/zero behind a ReaderAt would.
type zeros struct{}

func (zeros) ReadAt(p []byte, off int64) (int, error) {
	clear(p)
	return len(p), nil
}

// Issue 12 item 4: input over the byte limit is refused before a byte is
// read; a tensor over the element limit is refused while streaming.
func TestLimits(t *testing.T) {
	_, err := Read(zeros{}, 3<<30, "zero", Limits{})
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), "zero: ")
	_, err = Read(zeros{}, 1000, "", Limits{MaxBytes: 999})
	require.ErrorIs(t, err, ErrTooLarge)

	_, err = One(ReadBytes([]byte("1,2,3\n4,5,6\n"), "", Limits{MaxElements: 5}))
	require.ErrorIs(t, err, ErrTooLarge)
	x, err := One(ReadBytes([]byte("1,2,3\n4,5,6\n"), "", Limits{MaxElements: 6}))
	require.NoError(t, err)
	assert.Equal(t, 6, len(x.Data))

	hdr := "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }"
	_, err = One(ReadBytes(npyBytes(1, hdr, f32le(1, 2, 3, 4, 5, 6)), "", Limits{MaxElements: 5}))
	require.ErrorIs(t, err, ErrTooLarge)
	// A header announcing more data than the file holds fails before the
	// array is allocated.
	hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (10000, 10000), }"
	_, err = One(ReadBytes(npyBytes(1, hdr, f32le(1, 2)), "", Limits{}))
	require.ErrorIs(t, err, scaling.ErrParse)
	assert.Contains(t, err.Error(), "ends after 2 of 100000000 values")
}

// Issue 12 item 11: a 13-digit dimension says it is too large.
func TestNPYHugeDimension(t *testing.T) {
	for _, shape := range []string{"(1234567890123, 2)", "(2, 99999999999999999999999999)", "(1234567890123,)"} {
		hdr := "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }"
		_, err := readBytes(t, npyBytes(1, hdr, f32le(1, 2)))
		require.ErrorIs(t, err, ErrTooLarge, shape)
		assert.NotContains(t, err.Error(), "not a tuple", shape)
		assert.Contains(t, err.Error(), "too large", shape)
	}
}

// Issue 12 item 11: a UTF-8 byte-order mark is skipped; the number grammar
// is fp8.ParseNumber's (no underscores; the same as fp8lab encode).
func TestCSVGrammar(t *testing.T) {
	x, err := readBytes(t, []byte("\xef\xbb\xbfa,b\r\n1,0x1p-3\r\n\"2\", -inf \n"))
	require.NoError(t, err)
	assert.Equal(t, 2, x.Rows)
	assert.Equal(t, []float32{1, 0.125, 2, float32(math.Inf(-1))}, x.Data)
	x, err = readBytes(t, []byte("\xef\xbb\xbf1,2\n"))
	require.NoError(t, err)
	assert.Equal(t, []float32{1, 2}, x.Data, "a BOM before numbers")
	for _, s := range []string{"1_0,2\n", "1,2\n3,1_000\n", "0x1_0p0,1\n", "1,2\n3, 4 5\n", "1,2\n\"3\"x,4\n", "1,2\n3,4\"\n"} {
		_, err := readBytes(t, []byte(s))
		require.ErrorIs(t, err, scaling.ErrParse, "%q", s)
	}
	_, err = readBytes(t, []byte("1,2\n3,1_0\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 2, field 2")
	// Every value is rounded once, straight to float32 (not via float64).
	x, err = readBytes(t, []byte("1.00000005960464477539062500000001\n"))
	require.NoError(t, err)
	assert.Equal(t, float32(1.0000001), x.Data[0])
	// A field longer than maxField is refused, not buffered.
	_, err = readBytes(t, append(bytes.Repeat([]byte("1"), maxField+1), '\n'))
	require.ErrorIs(t, err, scaling.ErrParse)
}

// Issue 12 item 4: a long one-line CSV streams: memory stays near the size
// of the tensor (encoding/csv took 4.1 GB for a 100 MB line).
func TestCSVOneLongLineStreams(t *testing.T) {
	const n = 1 << 20
	line := bytes.Repeat([]byte("1.5,"), n)
	line[len(line)-1] = '\n'
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x, err := readBytes(t, line)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, n, x.Cols)
	// The tensor is 4 MiB; allow for append's growth and a copy, far below
	// the per-record copies of encoding/csv. No allocation per value, so
	// the bound holds under the race detector too (issue 26 item 9: the
	// number parser's two copies per value, three under -race, took
	// 72 MiB there).
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(32<<20))
	assert.Less(t, after.Mallocs-before.Mallocs, uint64(1000), "allocations for %d values", n)
}

// TestParseFieldIsParseNumber: the fast path for plain decimals gives
// fp8.ParseNumber's value and error class, bit for bit.
func TestParseFieldIsParseNumber(t *testing.T) {
	fields := []string{"0", "-0", "+1", "1.", ".5", "-.5", "1.5e3", "1E-3", "3.4028235e38", "3.4028236e38", "-1e39", "1e-46", "1e-45",
		"7e-46", "123456789012345678901234567890", "0.1", "-2.5E+02", "1e", "1e+", ".", "-", "+.e1", "1..2", "0x1p-3", "2^-9", "inf",
		"-nan", "1_0", "1e5x", " 1", "١"}
	for k := range 2000 {
		fields = append(fields, strconv.FormatFloat(float64(math.Float32frombits(uint32(k)*2654435761)), 'g', -1, 32),
			strconv.FormatFloat(float64(k)*1.37e-3, 'e', k%12, 64))
	}
	for _, f := range fields {
		want, werr := fp8.ParseNumber(f, 32)
		got, gerr := parseField([]byte(f))
		require.Equal(t, werr == nil, gerr == nil, "%q: %v vs %v", f, werr, gerr)
		assert.Equal(t, errors.Is(werr, strconv.ErrRange), errors.Is(gerr, strconv.ErrRange), f)
		if werr == nil || errors.Is(werr, strconv.ErrRange) {
			assert.Equal(t, math.Float64bits(want), math.Float64bits(got), f)
		}
	}
}
