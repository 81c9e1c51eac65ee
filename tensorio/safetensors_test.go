package tensorio

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/x448/float16"

	"github.com/fp8lab/fp8lab/scaling"
)

func stBytes(t testing.TB, ts []Raw) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, WriteSafetensors(&b, ts, map[string]string{"format": "pt"}))
	return b.Bytes()
}

// rawHeader builds a safetensors file from a header written by hand.
func rawHeader(header string, data []byte) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint64(len(header)))
	b.WriteString(header)
	b.Write(data)
	return b.Bytes()
}

// TestSafetensorsDTypes: every decoded dtype, with codes written by hand
// (independently of fp8's codecs) and the values they stand for.
func TestSafetensorsDTypes(t *testing.T) {
	le := func(v any) []byte { var b bytes.Buffer; binary.Write(&b, binary.LittleEndian, v); return b.Bytes() }
	var f16 []uint16
	for _, v := range []float32{1, -2.5, 65504} {
		f16 = append(f16, float16.Fromfloat32(v).Bits())
	}
	var bf16 []uint16
	for _, v := range []float32{1, -3, 1e30} {
		bf16 = append(bf16, uint16(math.Float32bits(v)>>16))
	}
	cases := []struct {
		dtype string
		shape []int64
		data  []byte
		want  []float32
	}{
		{"F64", []int64{3}, le([]float64{0.1, -1e300, 2}), []float32{0.1, float32(math.Inf(-1)), 2}},
		{"F32", []int64{2, 2}, le([]float32{1, 2, 3, -4}), []float32{1, 2, 3, -4}},
		{"F16", []int64{3}, le(f16), []float32{1, -2.5, 65504}},
		{"BF16", []int64{3}, le(bf16), []float32{1, -3, float32(math.Float32frombits(math.Float32bits(1e30) &^ 0xFFFF))}},
		// E4M3FN: 0x38 = 1, 0xC0 = -2, 0x7E = 448, 0x01 = 2^-9.
		{"F8_E4M3", []int64{4}, []byte{0x38, 0xC0, 0x7E, 0x01}, []float32{1, -2, 448, 0x1p-9}},
		// E5M2: 0x3C = 1, 0x7B = 57344, 0x7C = +Inf.
		{"F8_E5M2", []int64{3}, []byte{0x3C, 0x7B, 0x7C}, []float32{1, 57344, float32(math.Inf(1))}},
		// E8M0: 127 = 1, 130 = 8, 0 = 2^-127.
		{"F8_E8M0", []int64{3}, []byte{127, 130, 0}, []float32{1, 8, 0x1p-127}},
		// E2M1 nibbles, first value low: 0x2 = 1, 0x7 = 6, 0xB = -1.5; 3 values.
		{"F4", []int64{3}, []byte{0x72, 0x0B}, []float32{1, 6, -1.5}},
		// E2M3 6-bit codes 8 (1.0), 31 (7.5), 40 (-1.0), 1 (0.125) packed LSB first.
		{"F6_E2M3", []int64{4}, pack6(8, 31, 40, 1), []float32{1, 7.5, -1, 0.125}},
		// E3M2: 12 = 1, 31 = 28, 5 values (the last group is partial).
		{"F6_E3M2", []int64{5}, pack6(12, 31, 12, 12, 31)[:4], []float32{1, 28, 1, 1, 28}},
	}
	var raws []Raw
	for _, c := range cases {
		raws = append(raws, Raw{Name: "t." + c.dtype, DType: c.dtype, Shape: c.shape, Data: c.data})
	}
	raws = append(raws, Raw{Name: "ids", DType: "I64", Shape: []int64{2}, Data: make([]byte, 16)})
	file := stBytes(t, raws)
	a, err := Open(bytes.NewReader(file), int64(len(file)), "m.safetensors", Limits{})
	require.NoError(t, err)
	assert.Equal(t, Safetensors, a.Kind)
	assert.Equal(t, map[string]string{"format": "pt"}, a.Metadata)
	require.Len(t, a.Tensors, len(cases)+1)
	for i, c := range cases {
		in := a.Tensors[i]
		assert.Equal(t, "t."+c.dtype, in.Name)
		assert.True(t, in.Decoded)
		x, err := a.Tensor(i)
		require.NoError(t, err, c.dtype)
		assert.Equal(t, c.want, x.Data, c.dtype)
		rows, cols := in.Matrix()
		assert.Equal(t, []int{int(rows), int(cols)}, []int{x.Rows, x.Cols})
	}
	assert.False(t, a.Tensors[len(cases)].Decoded)
	_, err = a.Tensor(len(cases))
	assert.ErrorContains(t, err, `m.safetensors: tensor "ids": `)
	assert.ErrorContains(t, err, "I64")

	ts, err := ReadBytes(file, "m.safetensors", Limits{})
	require.NoError(t, err)
	assert.Len(t, ts, len(cases), "the I64 tensor is skipped")
}

// pack6 packs 6-bit codes LSB first.
func pack6(codes ...uint32) []byte {
	var out []byte
	var acc uint64
	bits := 0
	for _, c := range codes {
		acc |= uint64(c) << bits
		bits += 6
		for bits >= 8 {
			out = append(out, byte(acc))
			acc >>= 8
			bits -= 8
		}
	}
	if bits > 0 {
		out = append(out, byte(acc))
	}
	for len(out)%3 != 0 {
		out = append(out, 0)
	}
	return out
}

func TestSafetensorsStreamChunks(t *testing.T) {
	n := ChunkValues*2 + 7
	vals := make([]float32, n)
	for i := range vals {
		vals[i] = float32(i)
	}
	file := stBytes(t, []Raw{{Name: "w", DType: "F32", Shape: []int64{int64(n)}, Data: f32le(vals...)}})
	a, err := Open(bytes.NewReader(file), int64(len(file)), "", Limits{})
	require.NoError(t, err)
	var got []float32
	chunks := 0
	require.NoError(t, a.Stream(0, func(v []float32) error { chunks++; got = append(got, v...); return nil }))
	assert.Equal(t, 3, chunks)
	assert.Equal(t, vals, got)
}

func TestSafetensorsBadInput(t *testing.T) {
	good := `{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`
	cases := []struct {
		name, want string
		file       []byte
		tooLarge   bool
	}{
		{"truncated data", `tensor "w": truncated`, rawHeader(good, make([]byte, 5)), false},
		{"truncated header", "truncated", rawHeader(good, nil)[:20], false},
		{"header over 100 MB", "over the 100000000-byte limit", append(binary.LittleEndian.AppendUint64(nil, 1<<40), '{'), true},
		{"offsets out of range", `tensor "w": truncated`, rawHeader(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}`, make([]byte, 8)), false},
		{"overlap", `"a" [0, 8) and "b" [4, 12) overlap`, rawHeader(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`, make([]byte, 12)), false},
		{"byte count", `tensor "w": F32 [3] needs 12 bytes`, rawHeader(`{"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, make([]byte, 8)), false},
		{"unknown dtype", `tensor "w": unknown dtype "F7"`, rawHeader(`{"w":{"dtype":"F7","shape":[2],"data_offsets":[0,8]}}`, make([]byte, 8)), false},
		{"duplicate", `tensor "w" appears twice`, rawHeader(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, make([]byte, 8)), false},
		{"not JSON", "not JSON", rawHeader(`{"w":{"dtype":"F32",`, nil), false},
		{"bad metadata", "__metadata__ is not a map", rawHeader(`{"__metadata__": 5}`, nil), false},
		{"not UTF-8", "not UTF-8", rawHeader("{\"\xff\": 1}", nil), false},
		{"missing field", "are all required", rawHeader(`{"w":{"dtype":"F32","shape":[2]}}`, nil), false},
		{"negative", "negative dimension", rawHeader(`{"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}`, make([]byte, 8)), false},
		{"shape overflow", "too large", rawHeader(`{"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}}`, make([]byte, 8)), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Open(bytes.NewReader(c.file), int64(len(c.file)), "bad.safetensors", Limits{})
			require.Error(t, err)
			assert.ErrorContains(t, err, "bad.safetensors: ")
			assert.ErrorContains(t, err, c.want)
			if c.tooLarge {
				assert.ErrorIs(t, err, ErrTooLarge)
			} else {
				assert.ErrorIs(t, err, scaling.ErrParse)
			}
		})
	}
}

func TestSafetensorsNonFiniteKept(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	file := stBytes(t, []Raw{{Name: "w", DType: "F32", Shape: []int64{3}, Data: f32le(nan, inf, 1)}})
	x, err := One(ReadBytes(file, "", Limits{}))
	require.NoError(t, err)
	assert.True(t, math.IsNaN(float64(x.Data[0])))
	assert.True(t, math.IsInf(float64(x.Data[1]), 1))
}

func writeShards(t *testing.T, dir string) {
	t.Helper()
	s1 := stBytes(t, []Raw{{Name: "a", DType: "F32", Shape: []int64{2}, Data: f32le(1, 2)}})
	s2 := stBytes(t, []Raw{{Name: "b", DType: "F32", Shape: []int64{1, 2}, Data: f32le(3, 4)}, {Name: "c", DType: "F32", Shape: []int64{1}, Data: f32le(5)}})
	require.NoError(t, os.WriteFile(filepath.Join(dir, "model-00001-of-00002.safetensors"), s1, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "model-00002-of-00002.safetensors"), s2, 0o644))
}

func TestShardedSet(t *testing.T) {
	dir := t.TempDir()
	writeShards(t, dir)
	index := `{"metadata": {"total_size": 20}, "weight_map": {"a": "model-00001-of-00002.safetensors",
		"b": "model-00002-of-00002.safetensors", "c": "model-00002-of-00002.safetensors"}}`
	ip := filepath.Join(dir, "model.safetensors.index.json")
	require.NoError(t, os.WriteFile(ip, []byte(index), 0o644))
	as, closeFiles, err := OpenFile(ip, Limits{})
	require.NoError(t, err)
	defer closeFiles()
	require.Len(t, as, 2)
	var names []string
	var vals []float32
	for _, a := range as {
		ts, err := ReadArchive(a)
		require.NoError(t, err)
		for _, n := range ts {
			names = append(names, n.Name)
			vals = append(vals, n.Tensor.Data...)
		}
	}
	assert.Equal(t, []string{"a", "b", "c"}, names)
	assert.Equal(t, []float32{1, 2, 3, 4, 5}, vals)

	// Reading the index without the file system says what to do.
	_, err = ReadBytes([]byte(index), "idx.json", Limits{})
	assert.ErrorContains(t, err, "shard index")

	bad := map[string]string{
		"missing tensor": `{"weight_map": {"a": "model-00001-of-00002.safetensors", "z": "model-00001-of-00002.safetensors"}}`,
		"escape":         `{"weight_map": {"a": "../x.safetensors"}}`,
		"missing shard":  `{"weight_map": {"a": "nope.safetensors"}}`,
		"not JSON":       `{"weight_map": `,
	}
	for name, idx := range bad {
		require.NoError(t, os.WriteFile(ip, []byte(idx), 0o644))
		_, closeFiles, err := OpenFile(ip, Limits{})
		closeFiles()
		assert.Error(t, err, name)
		assert.ErrorContains(t, err, "model.safetensors.index.json", name)
	}
	// A tensor in two shards.
	s := stBytes(t, []Raw{{Name: "a", DType: "F32", Shape: []int64{1}, Data: f32le(9)}})
	require.NoError(t, os.WriteFile(filepath.Join(dir, "dup.safetensors"), s, 0o644))
	require.NoError(t, os.WriteFile(ip, []byte(`{"weight_map": {"a": "model-00001-of-00002.safetensors", "x": "dup.safetensors"}}`), 0o644))
	_, closeFiles, err = OpenFile(ip, Limits{})
	closeFiles()
	assert.ErrorContains(t, err, `tensor "a" is in both`)
}

func TestNPZ(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	x, _ := scaling.FromRows([][]float32{{1, 2, 3}, {4, 5, 6}})
	for _, m := range []struct {
		name   string
		method uint16
	}{{"stored.npy", zip.Store}, {"deflated.npy", zip.Deflate}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: m.method})
		require.NoError(t, err)
		require.NoError(t, WriteNPY(w, x))
	}
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "be.npy", Method: zip.Deflate})
	var be bytes.Buffer
	binary.Write(&be, binary.BigEndian, []float64{0.5, -1})
	w.Write(npyBytes(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }\n", be.Bytes()))
	require.NoError(t, zw.Close())
	ts, err := ReadBytes(buf.Bytes(), "a.npz", Limits{})
	require.NoError(t, err)
	require.Len(t, ts, 3)
	assert.Equal(t, "stored", ts[0].Name)
	assert.Equal(t, x.Data, ts[0].Tensor.Data)
	assert.Equal(t, "deflated", ts[1].Name)
	assert.Equal(t, x.Data, ts[1].Tensor.Data)
	assert.Equal(t, 3, ts[1].Tensor.Cols)
	assert.Equal(t, []float32{0.5, -1}, ts[2].Tensor.Data)

	// Truncated member data.
	buf.Reset()
	zw = zip.NewWriter(&buf)
	w, _ = zw.Create("x.npy")
	w.Write(npyBytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }\n", f32le(1)))
	zw.Close()
	_, err = ReadBytes(buf.Bytes(), "t.npz", Limits{})
	assert.ErrorContains(t, err, `t.npz: `)
	assert.ErrorContains(t, err, `"x.npy"`)
	assert.ErrorContains(t, err, "truncated")
}

// FuzzSafetensorsHeader: no header panics the parser, and whatever it
// accepts is consistent: ranges within the data, in order, disjoint, and
// of the size dtype and shape imply.
func FuzzSafetensorsHeader(f *testing.F) {
	f.Add([]byte(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`), int64(8))
	f.Add([]byte(`{"__metadata__":{"a":"b"},"x":{"dtype":"F4","shape":[3],"data_offsets":[0,2]},"y":{"dtype":"I8","shape":[],"data_offsets":[2,3]}}`), int64(3))
	f.Add([]byte(`{"w":{"dtype":"F6_E2M3","shape":[5,0],"data_offsets":[0,0]}}  `), int64(0))
	f.Add([]byte(`{"a":{"dtype":"BF16","shape":[1],"data_offsets":[0,2]},"a":{}}`), int64(2))
	f.Add([]byte(`[]`), int64(0))
	f.Fuzz(func(t *testing.T, h []byte, dataLen int64) {
		ts, _, err := ParseSafetensorsHeader(h, dataLen)
		if err != nil {
			assert.True(t, errors.Is(err, scaling.ErrParse) || errors.Is(err, ErrTooLarge), "unexpected error %v", err)
			return
		}
		var end int64
		for _, in := range ts {
			require.GreaterOrEqual(t, in.Offset, end)
			end = in.Offset + in.Bytes
			require.LessOrEqual(t, end, dataLen)
			require.Equal(t, dtypeBytes(in.Len(), dtypeBits[in.DType]), in.Bytes)
			require.False(t, strings.HasPrefix(in.Name, "__metadata__") && in.Name == "__metadata__")
		}
	})
}

// TestTensorInto: decoding into a reused buffer gives what Tensor gives,
// aliases the buffer when it is large enough, and handles a packed dtype
// whose last group ends past the last value (F6: 4 values per 3 bytes).
func TestTensorInto(t *testing.T) {
	bf := make([]byte, 2*3*50)
	for i := range bf {
		bf[i] = byte(i * 29)
	}
	bf[1] = 0x7F          // the 2nd byte of a BF16 NaN: compared bit for bit
	f6 := make([]byte, 6) // 7 values of 6 bits take 6 bytes (5.25 rounded up)
	for i := range f6 {
		f6[i] = byte(i*53 + 1)
	}
	var b bytes.Buffer
	require.NoError(t, WriteSafetensors(&b, []Raw{
		{Name: "bf", DType: "BF16", Shape: []int64{3, 50}, Data: bf},
		{Name: "six", DType: "F6_E2M3", Shape: []int64{7}, Data: f6},
	}, nil))
	a, err := Open(bytes.NewReader(b.Bytes()), int64(b.Len()), "into", Limits{})
	require.NoError(t, err)
	buf := make([]float32, 0, 200)
	for i := range a.Tensors {
		want, err := a.Tensor(i)
		require.NoError(t, err)
		got, err := a.TensorInto(i, buf)
		require.NoError(t, err)
		assert.Equal(t, []int{want.Rows, want.Cols}, []int{got.Rows, got.Cols})
		require.Len(t, got.Data, len(want.Data))
		for k := range want.Data {
			require.Equal(t, math.Float32bits(want.Data[k]), math.Float32bits(got.Data[k]), a.Tensors[i].Name)
		}
		assert.Same(t, &buf[:1][0], &got.Data[0], "decoded into buf")
	}
	got, err := a.TensorInto(0, make([]float32, 10))
	require.NoError(t, err)
	assert.Len(t, got.Data, 150)
}
