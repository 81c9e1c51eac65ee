//go:build !js

package jsapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/testenv"
	"github.com/fp8lab/fp8lab/internal/wasmbuild"
	"github.com/fp8lab/fp8lab/site"
)

// jsCase is one call sequence run in Node: code is the body of a function
// of api; check receives the value it returned, or errMsg when it threw.
type jsCase struct {
	name  string
	code  string
	check func(t *testing.T, value any)
	// wantErr, when set, says the code must throw an Error whose message
	// contains it.
	wantErr string
}

// result is what the harness reports for a case.
type result struct {
	Name      string `json:"name"`
	Value     any    `json:"value"`
	Error     string `json:"error"`
	ErrorType string `json:"errorType"`
}

// runNode runs the cases against a module in Node and checks each result.
func runNode(t *testing.T, wasmFile string, cases []jsCase) {
	t.Helper()
	node := testenv.Node(t)
	dir := t.TempDir()
	loader := filepath.Join(dir, "fp8lab.js")
	data, err := fs.ReadFile(site.FS(), "js/fp8lab.js")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(loader, data, 0o644))
	res := testenv.Wasm(t)

	type wire struct {
		Name string `json:"name"`
		Code string `json:"code"`
	}
	var w []wire
	for _, c := range cases {
		w = append(w, wire{c.name, c.code})
	}
	casesJSON, err := json.Marshal(w)
	require.NoError(t, err)
	casesFile := filepath.Join(dir, "cases.json")
	require.NoError(t, os.WriteFile(casesFile, casesJSON, 0o644))

	harness, err := filepath.Abs(filepath.Join("testdata", "harness.js"))
	require.NoError(t, err)
	cmd := exec.Command(node, "--stack-size=8192", harness, res.Files[wasmbuild.WasmExec], loader, wasmFile, casesFile)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "node failed: %s", stderr.String())
	assert.NotContains(t, stderr.String(), "call to released function")
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak := int64(ru.Maxrss) * 1024 // kilobytes on Linux
		t.Logf("node peak resident memory: %d MiB", peak>>20)
		assert.Less(t, peak, int64(nodePeakRSS), "node's peak resident memory")
	}

	var results []result
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &results), stdout.String())
	require.Len(t, results, len(cases))
	for i, c := range cases {
		r := results[i]
		require.Equal(t, c.name, r.Name)
		t.Run(c.name, func(t *testing.T) {
			if c.wantErr != "" {
				require.NotEmpty(t, r.Error, "expected an exception, got %v", r.Value)
				assert.Equal(t, "Error", r.ErrorType)
				assert.Contains(t, r.Error, c.wantErr)
				assert.True(t, strings.HasPrefix(r.Error, "fp8lab."), "message names the function: %s", r.Error)
				return
			}
			require.Empty(t, r.Error, "unexpected exception")
			if c.check != nil {
				c.check(t, r.Value)
			}
		})
	}
}

// jsNum writes a float64 as a JavaScript literal that reads back exactly.
func jsNum(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x == 0 && math.Signbit(x):
		return "-0"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// jsArray writes values as a JavaScript array literal.
func jsArray[T float32 | float64 | uint8 | uint32](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = jsNum(float64(x))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// num reads a number the harness reported ("NaN", "+Inf", "-Inf", "-0" included).
func num(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return x
	case string:
		switch x {
		case "NaN":
			return math.NaN()
		case "+Inf":
			return math.Inf(1)
		case "-Inf":
			return math.Inf(-1)
		case "-0":
			return math.Copysign(0, -1)
		}
	}
	t.Fatalf("not a number: %#v", v)
	return 0
}

// typed reads a typed array the harness reported and checks its type.
func typed(t *testing.T, v any, wantType string) []float64 {
	t.Helper()
	m, ok := v.(map[string]any)
	require.True(t, ok, "not a typed array: %#v", v)
	require.Equal(t, wantType, m["type"])
	raw := m["values"].([]any)
	out := make([]float64, len(raw))
	for i, e := range raw {
		out[i] = num(t, e)
	}
	return out
}

// obj reads an object the harness reported.
func obj(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	require.True(t, ok, "not an object: %#v", v)
	return m
}

// sameFloats compares two float sequences bit for bit, NaN equal to NaN.
func sameFloats(t *testing.T, want, got []float64, msg string) {
	t.Helper()
	require.Len(t, got, len(want), msg)
	for i := range want {
		if math.IsNaN(want[i]) {
			assert.True(t, math.IsNaN(got[i]), "%s: element %d: want NaN, got %v", msg, i, got[i])
			continue
		}
		if !assert.Equal(t, want[i], got[i], "%s: element %d", msg, i) {
			return
		}
	}
}

func toF64[T float32 | uint8 | uint32](xs []T) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// TestCoreModuleInNode runs the whole API of the core module in Node.
func TestCoreModuleInNode(t *testing.T) {
	testenv.Node(t) // skip before building anything when there is no node
	res := testenv.Wasm(t)
	cases := coreCases(t)
	cases = append(cases, quantizeCases(t)...)
	cases = append(cases, ditherCases(t)...)
	cases = append(cases, hadamardCases(t)...)
	cases = append(cases, sceneCases(t)...)
	cases = append(cases, negativeZeroCases()...)
	cases = append(cases, robustnessCases()...)
	cases = append(cases, typeCases()...)
	cases = append(cases, hostileJSCases()...)
	cases = append(cases, scanCases(t)...)
	cases = append(cases, scanHostileCases()...)
	// Every function must be exercised by some case.
	all := append(append(append([]string{}, coreFunctionsForTest()...), sceneFunctionsForTest()...), liveFunctionsForTest()...)
	for _, name := range all {
		found := false
		for _, c := range cases {
			if strings.Contains(c.code, "api."+name+"(") {
				found = true
				break
			}
		}
		assert.True(t, found, "no Node test calls api.%s", name)
	}
	runNode(t, res.Files[wasmbuild.Core.File], cases)
}

// fmtCode formats a code as a JavaScript hex literal.
func fmtCode(c uint8) string { return fmt.Sprintf("0x%02x", c) }
