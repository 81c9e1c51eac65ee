package tensorio

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/testenv"
)

// numpyFiles runs a numpy script in dir (sys.argv[1]), which writes the
// files under test with numpy's own writers.
func numpyFiles(t *testing.T, script string) string {
	t.Helper()
	py := testenv.NumPy(t)
	dir := t.TempDir()
	out, err := exec.Command(py, "-c", script, dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return dir
}

// Issue 27 defects 3 and 4: an .npz of a float16 member failed whole, a
// bfloat16 one (ml_dtypes' dtype, which numpy.save writes as the 2-byte
// void '<V2') could not be read, an integer member made the scan panic,
// and a 0-d .npy was refused while a 0-d safetensors tensor is read. The
// files are numpy's, and so are the expected float32 values (want.npy,
// read through the float32 path).
func TestNumpyWrittenFiles(t *testing.T) {
	dir := numpyFiles(t, `
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(3)
x = (rng.standard_normal((3, 2, 5)) * 1e3).astype(np.float32)
h = x.astype(np.float16)
bits = (x.view(np.uint32) >> 16).astype(np.uint16)   # bfloat16, truncated
np.savez(d + "/m.npz", h=h, b=bits.view("V2"), i=np.arange(6, dtype=np.int32), u=np.arange(4, dtype=np.uint8))
np.save(d + "/want_h.npy", h.astype(np.float32))
np.save(d + "/want_b.npy", (bits.astype(np.uint32) << 16).view(np.float32))
np.save(d + "/h.npy", h.astype(">f2"))
np.save(d + "/scalar.npy", np.float32(-2.5))
`)
	read := func(name string) []float32 {
		x, err := One(ReadFile(filepath.Join(dir, name), Limits{}))
		require.NoError(t, err, name)
		return x.Data
	}
	f, err := os.Open(filepath.Join(dir, "m.npz"))
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	a, err := Open(f, st.Size(), "m.npz", Limits{})
	require.NoError(t, err)
	byName := map[string]int{}
	for i, in := range a.Tensors {
		byName[in.Name] = i
	}
	for name, want := range map[string]struct {
		dtype   string
		decoded bool
	}{"h": {"F16", true}, "b": {"BF16", true}, "i": {"npy <i4", false}, "u": {"U8", false}} {
		in := a.Tensors[byName[name]]
		assert.Equal(t, want.dtype, in.DType, name)
		assert.Equal(t, want.decoded, in.Decoded, name)
	}
	assert.Equal(t, []int64{3, 2, 5}, a.Tensors[byName["h"]].Shape)
	for member, want := range map[string]string{"h": "want_h.npy", "b": "want_b.npy"} {
		x, err := a.Tensor(byName[member])
		require.NoError(t, err, member)
		assert.Equal(t, []int{6, 5}, []int{x.Rows, x.Cols}, member)
		assert.Equal(t, read(want), x.Data, member)
	}
	_, err = a.Tensor(byName["u"])
	assert.ErrorContains(t, err, "not decoded", "an integer member is an error to read, not a panic")
	assert.Equal(t, read("want_h.npy"), read("h.npy"), "a big-endian float16 .npy of three dimensions")
	s, err := One(ReadFile(filepath.Join(dir, "scalar.npy"), Limits{}))
	require.NoError(t, err)
	assert.Equal(t, []int{1, 1}, []int{s.Rows, s.Cols})
	assert.Equal(t, []float32{-2.5}, s.Data)
}

// Issue 27 defect 2: an empty or 4-byte .safetensors said "csv holds no
// rows of numbers". When the content is no format (not even CSV), the
// error names the format the extension claims and what is wrong; a CSV
// under such a name is still read as CSV (TestSniffByContent).
func TestClaimedFormatErrors(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"empty.safetensors": {nil, "not a safetensors file, as its name says: the file is empty"},
		"four.safetensors":  {[]byte("abcd"), "not a safetensors file, as its name says: 4 bytes (61 62 63 64), shorter than the 8-byte header length"},
		"eight.safetensors": {[]byte{2, 0, 0, 0, 0, 0, 0, 0}, "8 bytes: a header length and no header after it"},
		"list.safetensors":  {[]byte("\x02\x00\x00\x00\x00\x00\x00\x00[]"), "does not start with '{' (byte 8 is 0x5b)"},
		"x.NPZ":             {[]byte("abcd"), "not an .npz file, as its name says: it does not start with the zip signature 50 4b 03 04 (its first bytes: 61 62 63 64)"},
		"x.npy":             {nil, "not an .npy file, as its name says: the file is empty"},
		"x.csv":             {nil, "csv holds no rows of numbers"},
	} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, c.data, 0o644))
		_, err := ReadFile(p, Limits{})
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.want, name)
		assert.Contains(t, err.Error(), p, name)
	}
}
