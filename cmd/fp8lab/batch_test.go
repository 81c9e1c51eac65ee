package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOverflowFlag covers issue 12 item 17: --overflow reaches every policy,
// SaturateKeepInf included.
func TestOverflowFlag(t *testing.T) {
	codes := func(args ...string) []int {
		t.Helper()
		code, out, errOut := cli(t, "", append(args, "--json")...)
		require.Equal(t, 0, code, errOut)
		var rows []encodeRow
		require.NoError(t, json.Unmarshal([]byte(out), &rows))
		var cs []int
		for _, r := range rows {
			cs = append(cs, r.Code)
		}
		return cs
	}
	assert.Equal(t, []int{0x7E, 0x7E, 0xFE}, codes("encode", "E4M3FN", "--overflow", "saturate", "1000", "inf", "-inf"))
	assert.Equal(t, []int{0x7E, 0x7F, 0xFF}, codes("encode", "E4M3FN", "--overflow", "saturate-keep-inf", "1000", "inf", "-inf"))
	assert.Equal(t, []int{0x7F, 0x7F, 0xFF}, codes("encode", "E4M3FN", "--overflow", "no-saturate", "1000", "inf", "-inf"))
	assert.Equal(t, []int{0x7B, 0x7C, 0xFC}, codes("encode", "E5M2", "--overflow=saturate-keep-inf", "1e6", "inf", "-inf"))
	assert.Equal(t, []int{0x7F}, codes("encode", "E4M3FN", "--saturate=false", "1000"), "the older flag still works")
	code, out, _ := cli(t, "", "explain", "E5M2", "inf", "--overflow", "saturate-keep-inf", "--json")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"+Inf"`)
	code, _, errOut := cli(t, "", "encode", "E4M3FN", "--overflow", "no-saturate", "--saturate=false", "1")
	assert.Equal(t, 2, code, "both flags are ambiguous")
	assert.Contains(t, errOut, "not both")
	code, _, _ = cli(t, "", "encode", "E4M3FN", "--overflow", "clamp", "1")
	assert.Equal(t, 1, code)
}

// TestWideFormatsInCodecCommands: encode, decode and table accept FP16 and
// BF16, which formats lists.
func TestWideFormatsInCodecCommands(t *testing.T) {
	code, out, errOut := cli(t, "", "encode", "FP16", "--json", "1", "65520", "-nan", "0x1p-24", "1.00048828125000001")
	require.Equal(t, 0, code, errOut)
	var rows []encodeRow
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	assert.Equal(t, 0x3C00, rows[0].Code)
	assert.Equal(t, 0x7BFF, rows[1].Code, "saturates by default")
	assert.Equal(t, 0xFE00, rows[2].Code, "-nan keeps its sign")
	assert.Equal(t, 0x0001, rows[3].Code)
	assert.Equal(t, 0x3C01, rows[4].Code, "rounded once, just above the tie")
	code, out, _ = cli(t, "", "encode", "BF16", "--overflow", "no-saturate", "1e39")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "0x7F80")
	code, out, _ = cli(t, "", "decode", "BF16", "0x3F80", "0xFF80")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "0.01111111.0000000")
	assert.Contains(t, out, "-Inf")
	code, out, _ = cli(t, "", "table", "fp16", "--jsonl")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 1<<16)
	var max map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0x7BFF]), &max))
	assert.Equal(t, "max", max["class"])
	assert.Equal(t, 65504.0, max["value"])
	code, _, errOut = cli(t, "", "decode", "FP16", "0x10000")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "invalid code")
}

// TestKeepGoingAndJSONL: one bad value no longer aborts a batch with
// --keep-going; it becomes an error object (or line) and the status is 1.
func TestKeepGoingAndJSONL(t *testing.T) {
	code, out, errOut := cli(t, "1\nbanana\n1e999999\n\n-2\n", "encode", "E4M3FN", "--keep-going", "--jsonl")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "2 of 5 values failed")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5)
	var objs []map[string]any
	for _, l := range lines {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		objs = append(objs, m)
	}
	assert.Equal(t, 56.0, objs[0]["code"])
	assert.Contains(t, objs[1]["error"], "line 2")
	assert.Equal(t, 126.0, objs[2]["code"], "1e999999 saturates")
	assert.Contains(t, objs[3]["error"], "line 4")
	assert.Equal(t, 0xC0+0.0, objs[4]["code"])
	code, out, _ = cli(t, "", "encode", "E2M1", "1", "nan", "2", "--keep-going")
	assert.Equal(t, 1, code)
	assert.Regexp(t, `nan\s+error: .*NaN has no code`, out)
	assert.Contains(t, out, "0x02")
	code, out, _ = cli(t, "", "encode", "E2M1", "1", "nan", "--json")
	assert.Equal(t, 1, code)
	assert.Empty(t, out, "without --keep-going a batch stays atomic")
	code, out, _ = cli(t, "", "decode", "E2M1", "0x1", "0x10", "--keep-going", "--json")
	assert.Equal(t, 1, code)
	var arr []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &arr))
	require.Len(t, arr, 2)
	assert.Contains(t, arr[1]["error"], "out of range")
	code, out, _ = cli(t, "", "encode", "E4M3FN", "--jsonl", "1", "2")
	require.Equal(t, 0, code)
	assert.Equal(t, 2, strings.Count(out, "\n"))
	assert.NotContains(t, out, "  ", "compact")
}

// TestRandBitsReproduce: stochastic encoding prints the random word of each
// value, and --rand-bits takes them back to reproduce the result.
func TestRandBitsReproduce(t *testing.T) {
	type row struct {
		Code       int    `json:"code"`
		Random     string `json:"random"`
		RandomBits int    `json:"random_bits"`
	}
	args := []string{"encode", "E4M3FN", "--round", "stochastic", "--rbits", "5", "--seed", "7", "--json"}
	vals := []string{"0.3952", "0.3952", "0.3952", "0.3952", "-1.03", "300.5"}
	code, out, errOut := cli(t, "", append(args, vals...)...)
	require.Equal(t, 0, code, errOut)
	var first []row
	require.NoError(t, json.Unmarshal([]byte(out), &first))
	var words []string
	for _, r := range first {
		require.Regexp(t, `^0x[0-9A-F]{8}$`, r.Random)
		assert.Equal(t, 5, r.RandomBits)
		words = append(words, r.Random)
	}
	code, out, errOut = cli(t, "", append([]string{"encode", "E4M3FN", "--round", "stochastic", "--rbits", "5", "--rand-bits", strings.Join(words, ","), "--json"}, vals...)...)
	require.Equal(t, 0, code, errOut)
	var again []row
	require.NoError(t, json.Unmarshal([]byte(out), &again))
	assert.Equal(t, first, again)
	code, out, errOut = cli(t, "", "encode", "E5M2", "--round", "stochastic", "--rbits", "3", "--sr-rule", "nearest", "--rand-bits", "5,4", "277", "277")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `277\s+0x5D.*0x00000005`, out, "gfloat's rule: 21/64·8 rounds to 3, 3+5 >= 8")
	assert.Regexp(t, `277\s+0x5C.*0x00000004`, out)
	code, _, _ = cli(t, "", "encode", "E5M2", "--round", "stochastic", "--rand-bits", "5", "1", "2")
	assert.Equal(t, 2, code, "one word per value")
	code, _, _ = cli(t, "", "encode", "E5M2", "--round", "stochastic", "--rand-bits", "xyz", "1")
	assert.Equal(t, 2, code)
}
