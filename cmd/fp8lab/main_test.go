package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cli runs fp8lab in-process and returns its exit status and outputs.
func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestFormatsJSON(t *testing.T) {
	code, out, _ := cli(t, "", "formats", "--json")
	require.Equal(t, 0, code)
	var infos []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &infos))
	byName := map[string]map[string]any{}
	for _, in := range infos {
		byName[in["name"].(string)] = in
	}
	assert.Equal(t, 448.0, byName["E4M3FN"]["max"])
	assert.Equal(t, 57344.0, byName["E5M2"]["max"])
	assert.Equal(t, 65504.0, byName["FP16"]["max"])
	assert.Contains(t, byName, "BF16")
	assert.Equal(t, 126.0, byName["E4M3FN"]["positive_finite"])
	code, out, _ = cli(t, "", "formats")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "57344")
}

func TestTable(t *testing.T) {
	code, out, _ := cli(t, "", "table", "E4M3FN")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Len(t, lines, 257)
	assert.Regexp(t, `0x7E\s+0\.1111\.110\s+448\s+max`, out)
	code, out, _ = cli(t, "", "table", "E2M1", "--json")
	require.Equal(t, 0, code)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	assert.Len(t, rows, 16)
	assert.Equal(t, -6.0, rows[15]["value"])
}

type encodeRow struct {
	Input string `json:"input"`
	Code  int    `json:"code"`
	Value any    `json:"value"`
}

func TestEncodeJSON(t *testing.T) {
	code, out, errOut := cli(t, "", "encode", "E4M3FN", "--json", "--saturate=false", "464", "465", "-431.99999999999994", "0x1p-9", "-inf", "nan")
	require.Equal(t, 0, code, errOut)
	var rows []encodeRow
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 6)
	assert.Equal(t, encodeRow{"464", 0x7E, 448.0}, rows[0])
	assert.Equal(t, encodeRow{"465", 0x7F, "NaN"}, rows[1])
	assert.Equal(t, encodeRow{"-431.99999999999994", 0xFD, -416.0}, rows[2])
	assert.Equal(t, encodeRow{"0x1p-9", 0x01, 0.001953125}, rows[3])
	assert.Equal(t, 0xFF, rows[4].Code)
	code, out, _ = cli(t, "", "encode", "E5M2", "--json", "--saturate=false", "-inf", "1e6")
	require.Equal(t, 0, code)
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	assert.Equal(t, "-Inf", rows[0].Value)
	assert.Equal(t, "+Inf", rows[1].Value)
}

func TestEncodeStdinManyValues(t *testing.T) {
	var in strings.Builder
	const n = 100000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&in, "%g\n", float64(i)/1000)
	}
	code, out, errOut := cli(t, in.String(), "encode", "E5M2", "--json")
	require.Equal(t, 0, code, errOut)
	var rows []encodeRow
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, n)
	assert.Equal(t, 96.0, rows[n-1].Value, "99.999 lies in [96, 112), where E5M2 steps by 16")
}

func TestEncodeBadLineIsAtomic(t *testing.T) {
	code, out, errOut := cli(t, "1\n2\nbanana\n4\n", "encode", "E4M3FN", "--json")
	assert.Equal(t, 1, code)
	assert.Empty(t, out, "nothing half-printed")
	assert.Contains(t, errOut, "line 3")
	assert.Contains(t, errOut, "banana")
	code, out, errOut = cli(t, "", "encode", "E2M1", "1", "nan")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "NaN has no code")
	code, _, errOut = cli(t, "", "encode", "E9M9", "1")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "unknown format")
	code, _, _ = cli(t, "", "encode", "E4M3FN", "--round", "sideways", "1")
	assert.Equal(t, 1, code)
	code, _, _ = cli(t, "", "encode")
	assert.Equal(t, 2, code)
	code, _, _ = cli(t, "", "encode", "E4M3FN", "--bogus", "1")
	assert.Equal(t, 2, code)
}

// TestEncodeTextRoundsOnce covers issue 12 items 13 and 14: the sign of NaN
// is kept, decimal text is rounded once from its exact value, and values
// beyond float64's range overflow like any other large value.
func TestEncodeTextRoundsOnce(t *testing.T) {
	code, out, errOut := cli(t, "", "encode", "E4M3FN", "--json", "-nan", "nan", "1.06250000000000000001", "1e400", "-1e400", "1e-400", "-1e-400")
	require.Equal(t, 0, code, errOut)
	var rows []encodeRow
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 7)
	assert.Equal(t, 0xFF, rows[0].Code, "-nan keeps its sign")
	assert.Equal(t, 0x7F, rows[1].Code)
	assert.Equal(t, 0x39, rows[2].Code, "rounded once: just above the tie 1.0625")
	assert.Equal(t, 0x7E, rows[3].Code, "1e400 saturates like any large value")
	assert.Equal(t, 0xFE, rows[4].Code)
	assert.Equal(t, 0x00, rows[5].Code)
	assert.Equal(t, 0x80, rows[6].Code)
	code, out, errOut = cli(t, "", "encode", "E5M2", "--json", "--saturate=false", "1e400", "-1e400")
	require.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	assert.Equal(t, "+Inf", rows[0].Value)
	assert.Equal(t, "-Inf", rows[1].Value)
	code, out, errOut = cli(t, "", "explain", "E4M3FN", "1.06250000000000000001", "--json")
	require.Equal(t, 0, code, errOut)
	var ex map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &ex))
	assert.Equal(t, 1.125, ex["result"].(map[string]any)["value"])
	v, err := parseNumber("-nan")
	require.NoError(t, err)
	assert.True(t, math.Signbit(v))
}

func TestEncodeStochasticIsReproducible(t *testing.T) {
	args := []string{"encode", "E4M3FN", "--round", "stochastic", "--rbits", "16", "--seed", "42", "--json"}
	for i := 0; i < 400; i++ {
		args = append(args, "0.3952")
	}
	_, out1, _ := cli(t, "", args...)
	_, out2, _ := cli(t, "", args...)
	require.Equal(t, out1, out2)
	var rows []encodeRow
	require.NoError(t, json.Unmarshal([]byte(out1), &rows))
	up := 0
	for _, r := range rows {
		if r.Value == 0.40625 {
			up++
		} else {
			require.Equal(t, 0.375, r.Value)
		}
	}
	// P(up) = 0.6464; 400 draws: 4 sigma is about 38.
	assert.InDelta(t, 0.6464*400, float64(up), 38)
}

func TestDecodeAndExplain(t *testing.T) {
	code, out, _ := cli(t, "", "decode", "E4M3FN", "0x7E", "0b01111111", "1")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "448")
	assert.Contains(t, out, "NaN")
	assert.Contains(t, out, "0.001953125")
	code, _, errOut := cli(t, "", "decode", "E2M1", "0x10")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "out of range")
	code, out, _ = cli(t, "", "explain", "E4M3FN", "0.3952", "--json")
	require.Equal(t, 0, code)
	var ex map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &ex))
	assert.Equal(t, 0.40625, ex["result"].(map[string]any)["value"])
	code, out, _ = cli(t, "", "explain", "E4M3FN", "1000")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "OVERFLOW")
	code, out, _ = cli(t, "", "explain", "E4M3FN", "-1.5")
	require.Equal(t, 0, code, "negative values are values, not flags")
	assert.Contains(t, out, "-1.5")
}

func TestUsage(t *testing.T) {
	code, out, _ := cli(t, "", "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "encode")
	code, _, errOut := cli(t, "", "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "unknown command")
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"1", "-0", "0x1p-9", "nan", "-Inf", "1e400", "1e-400", "", " 2.5 ", "0x", "1_000", "+inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseNumber(s)
		if err != nil {
			return
		}
		low := strings.ToLower(strings.TrimSpace(s))
		if strings.Contains(low, "nan") {
			if !math.IsNaN(v) {
				t.Fatalf("%q gave %v", s, v)
			}
			return
		}
		if math.IsInf(v, 0) {
			if !strings.Contains(low, "inf") {
				t.Fatalf("%q gave %v without saying inf", s, v)
			}
			return
		}
		want, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil && want != 0 && !math.IsInf(want, 0) {
			t.Fatalf("%q: parseNumber accepted what strconv rejects: %v", s, err)
		}
		if want != v && !(err != nil && math.Abs(want) < 1e-300) {
			t.Fatalf("%q: %v, strconv says %v", s, v, want)
		}
	})
}
