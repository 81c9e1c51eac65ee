package records

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gz gzips parts written one after the other (a large repetitive document
// never sits whole in memory).
func gz(t *testing.T, parts ...func(w *gzip.Writer)) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	require.NoError(t, err)
	for _, p := range parts {
		p(zw)
	}
	require.NoError(t, zw.Close())
	return b.Bytes()
}

// text writes s; repeat writes s n times.
func text(s string) func(*gzip.Writer) { return repeat(s, 1) }

func repeat(s string, n int) func(*gzip.Writer) {
	return func(w *gzip.Writer) {
		chunk := []byte(strings.Repeat(s, max(1, (64<<10)/len(s))))
		per := len(chunk) / len(s)
		for n > 0 {
			k := min(n, per)
			w.Write(chunk[:k*len(s)])
			n -= k
		}
	}
}

// Issue 26 item 3: gzip files that inflate to a huge document (whitespace,
// one long string, a huge array: 4.2–4.7 GB and "out of memory" before)
// are refused once MaxDecodedBytes are inflated; a flipped CRC byte, a
// missing trailer and trailing data (accepted as "ok" before) are errors;
// null, a key given twice and an unknown key are refused.
func TestReadIntegrity(t *testing.T) {
	const big = MaxDecodedBytes + 1<<20
	plain := small(t)
	good := gz(t, text(string(plain)))
	_, err := Read(bytes.NewReader(good))
	require.NoError(t, err)

	flipped := bytes.Clone(good)
	flipped[len(flipped)-6] ^= 0x40 // a byte of the CRC-32 in the trailer
	wrongLen := bytes.Clone(good)
	binary.LittleEndian.PutUint32(wrongLen[len(wrongLen)-4:], uint32(len(plain)+1))
	twice := strings.Replace(string(plain), `"date":`, `"machine": "x", "date":`, 1)
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"whitespace bomb":  {gz(t, repeat(" ", big)), "more than 33554432 bytes of JSON"},
		"one long string":  {gz(t, text(`{"command": "`), repeat("a", big), text(`"}`)), "more than 33554432 bytes of JSON"},
		"a huge array":     {gz(t, text(`{"seeds": [`), repeat("0,", big/2), text(`0]}`)), "more than 33554432 bytes of JSON"},
		"flipped CRC":      {flipped, "gzip: invalid checksum"},
		"wrong length":     {wrongLen, "gzip: invalid checksum"},
		"no trailer":       {good[:len(good)-8], "cut short"},
		"trailing garbage": {append(bytes.Clone(good), "garbage"...), "data after the gzip stream"},
		"a second member":  {append(bytes.Clone(good), good...), "data after the gzip stream"},
		"null":             {gz(t, text("null")), "null"},
		"plain null":       {[]byte(" null\n"), "null"},
		"a key twice":      {gz(t, text(twice)), `key "machine" appears twice`},
		"an unknown key":   {gz(t, text(`{"comand": "x"}`)), `unknown field "comand"`},
		"plain trailing":   {append(bytes.Clone(plain), "{}"...), "data after the JSON value"},
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Read(bytes.NewReader(c.data))
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			assert.ErrorContains(t, err, c.want)
			// At most the limit, read in chunks and joined once (the bombs
			// took 4.2-4.7 GB before).
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(3*MaxDecodedBytes), "bytes allocated")
		})
	}
}

// TestShippedRecordsReadStrictly: every record kept in the package passes
// the strict reader.
func TestShippedRecordsReadStrictly(t *testing.T) {
	files, err := filepath.Glob("*.json.gz")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		rec, err := ReadFile(f)
		require.NoError(t, err, f)
		assert.NotEmpty(t, rec.Runs, f)
	}
	_, err = ReadFile(".")
	assert.EqualError(t, err, ". is a directory, not a regular file")
}
