package site_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/scan/report"
	"github.com/fp8lab/fp8lab/tensorio"
	"github.com/fp8lab/fp8lab/viz"
)

var (
	cliOnce sync.Once
	cliPath string
	cliErr  error
)

// fp8labCLI builds the fp8lab command once for the tests that compare the
// Scan page with it.
func fp8labCLI(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fp8lab-cli-")
		if err != nil {
			cliErr = err
			return
		}
		cliPath = filepath.Join(dir, "fp8lab")
		out, err := exec.Command("go", "build", "-o", cliPath, "github.com/fp8lab/fp8lab/cmd/fp8lab").CombinedOutput()
		if err != nil {
			cliErr = fmt.Errorf("go build ./cmd/fp8lab: %v\n%s", err, out)
		}
	})
	require.NoError(t, cliErr)
	return cliPath
}

// runCLI runs fp8lab in dir (so that it names files as the page does, by
// their base name) and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(fp8labCLI(t), args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, out.String(), errOut.String()
}

// f32Bytes and bf16Bytes are the little-endian bytes of t's values as F32
// and as BF16 (truncated, which is exact for the test: the fixture's
// values are what the file holds either way).
func f32Bytes(t *scaling.Tensor) []byte {
	b := make([]byte, 4*len(t.Data))
	for i, v := range t.Data {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

func bf16Bytes(t *scaling.Tensor) []byte {
	b := make([]byte, 2*len(t.Data))
	for i, v := range t.Data {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(math.Float32bits(v)>>16))
	}
	return b
}

// writeCheckpoint writes a safetensors file of n tensors of rows×cols
// normal values (BF16 when bf16, F32 otherwise); tensor 1, when there is
// one, has an outlier row (row 3 times 1e4), the case tensorwise scaling
// handles worst.
func writeCheckpoint(t *testing.T, path string, n, rows, cols int, bf16 bool) {
	t.Helper()
	var raws []tensorio.Raw
	for k := 0; k < n; k++ {
		x, err := scaling.RandomNormal(rows, cols, 0.02, uint64(k+1))
		require.NoError(t, err)
		if k == 1 {
			for j := range x.Row(3) {
				x.Row(3)[j] *= 1e4
			}
		}
		raw := tensorio.Raw{Name: fmt.Sprintf("layers.%d.weight", k), DType: "F32", Shape: []int64{int64(rows), int64(cols)}, Data: f32Bytes(x)}
		if bf16 {
			raw.DType, raw.Data = "BF16", bf16Bytes(x)
		}
		raws = append(raws, raw)
	}
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, raws, nil))
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
}

// openScanPage opens the Scan page in a w×h viewport and waits for its
// worker.
func openScanPage(t *testing.T, tab *tabT, w, h int) {
	t.Helper()
	tab.do(t, chromedp.EmulateViewport(int64(w), int64(h)), chromedp.Navigate(serverBase(t)+"scan.html"))
	tab.waitReady(t)
}

// scanInPage picks the file in the page and waits until the scan ends in
// one of the states given; it returns the state.
func scanInPage(t *testing.T, tab *tabT, path string, states ...string) string {
	t.Helper()
	tab.do(t, chromedp.SetUploadFiles(chromedp.ID("scan-file"), []string{path}))
	return waitScan(t, tab, states...)
}

// waitScan waits until the scan in progress ends in one of the states
// given and returns it.
func waitScan(t *testing.T, tab *tabT, states ...string) string {
	t.Helper()
	deadline := time.Now().Add(3 * defaultWait)
	for {
		st := eval[string](t, tab, `document.body.dataset.scan || ""`)
		for _, want := range states {
			if st == want {
				return st
			}
		}
		require.True(t, time.Now().Before(deadline), "the scan did not end: %q (console: %v)", st, tab.Errors())
		time.Sleep(50 * time.Millisecond)
	}
}

// noSidewaysScroll checks that the page is no wider than the window.
func noSidewaysScroll(t *testing.T, tab *tabT, what string) {
	t.Helper()
	assert.LessOrEqual(t, eval[int](t, tab, `document.documentElement.scrollWidth`), eval[int](t, tab, `innerWidth`), "sideways scroll: %s", what)
}

// cellText is how the report's table prints a value of the CLI's JSON
// (decoded into any): strings as they are, shapes as [a b], the counts and
// indices as integers, every other number to four significant digits
// (report.G4), and the JSON's "NaN"/"+Inf" strings as Go prints them.
func cellText(col string, v any) string {
	switch col {
	case "nan", "inf", "worst_row", "worst_block":
		return strconv.Itoa(int(v.(float64)))
	case "shape":
		var dims []string
		for _, d := range v.([]any) {
			dims = append(dims, strconv.Itoa(int(d.(float64))))
		}
		return "[" + strings.Join(dims, " ") + "]"
	}
	switch x := v.(type) {
	case float64:
		return report.G4(x)
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return report.G4(f)
		}
		return x
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// The Scan page scans a checkpoint in the browser and shows the CLI's
// numbers: its JSON download is byte for byte fp8lab scan --json of the
// same file, every cell of its table is the CLI's value as printed, and the
// heatmap's cells are the CLI's worst-block SQNRs. At a phone's width the
// page does not scroll sideways.
func TestScanPageMatchesCLI(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.safetensors")
	writeCheckpoint(t, path, 3, 64, 256, true)
	code, cliJSON, errOut := runCLI(t, dir, "scan", "--json", "model.safetensors")
	require.Equal(t, 0, code, errOut)
	var cli struct {
		Tensors []map[string]any `json:"tensors"`
	}
	require.NoError(t, json.Unmarshal([]byte(cliJSON), &cli))
	require.Len(t, cli.Tensors, 3)

	tab := newTab(t)
	openScanPage(t, tab, 1366, 768)
	require.Equal(t, "done", scanInPage(t, tab, path, "done", "failed", "cancelled"), tab.text(t, "#scan-error"))
	pageJSON := eval[string](t, tab, `decodeURIComponent(document.getElementById("download-json").href.replace(/^data:[^,]*,/, ""))`)
	assert.Equal(t, cliJSON, pageJSON, "the page's JSON is the CLI's")

	rows := eval[[][]string](t, tab, `Array.from(document.querySelectorAll("#report table.scan-table tr[data-tensor]"),
		tr => Array.from(tr.cells, td => td.textContent))`)
	header := eval[[]string](t, tab, `Array.from(document.querySelectorAll("#report table.scan-table th"), th => th.textContent)`)
	require.Equal(t, report.Columns, header)
	k := 0
	for _, ts := range cli.Tensors {
		for _, r := range ts["results"].([]any) {
			res := r.(map[string]any)
			require.Less(t, k, len(rows))
			for c, col := range report.Columns {
				key := col
				if col == "tensor" {
					key = "name"
				}
				v, ok := res[key]
				if !ok {
					v = ts[key]
				}
				assert.Equal(t, cellText(col, v), rows[k][c], "%s %s: %s", ts["name"], res["recipe"], col)
			}
			k++
		}
	}
	assert.Equal(t, k, len(rows), "one table row per tensor × recipe")

	heat := eval[[][]string](t, tab, `Array.from(document.querySelectorAll("#report table.heatmap tr[data-tensor]"),
		tr => Array.from(tr.cells, td => td.textContent))`)
	require.Len(t, heat, len(cli.Tensors))
	for i, ts := range cli.Tensors {
		want := []string{ts["name"].(string)}
		for _, r := range ts["results"].([]any) {
			want = append(want, fmt.Sprintf("%.1f", r.(map[string]any)["worst_block_sqnr_db"].(float64)))
		}
		assert.Equal(t, want, heat[i])
	}
	assert.Equal(t, len(cli.Tensors), eval[int](t, tab, `document.querySelectorAll("#report svg.hist").length`), "a histogram per tensor")
	tab.savePage(t, "scan-results-1366x768")

	tab.do(t, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3)))
	noSidewaysScroll(t, tab, "results at 390 px")
}

// A malformed file shows the error the CLI prints for it, naming the file,
// in the page; the page stays usable.
func TestScanPageBadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "model.safetensors")
	writeCheckpoint(t, good, 1, 8, 32, false)
	b, err := os.ReadFile(good)
	require.NoError(t, err)
	bad := filepath.Join(dir, "truncated.safetensors")
	require.NoError(t, os.WriteFile(bad, b[:len(b)-100], 0o644))
	code, _, errOut := runCLI(t, dir, "scan", "truncated.safetensors")
	require.NotEqual(t, 0, code)
	want := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(errOut), "fp8lab scan: "))
	require.Contains(t, want, "truncated.safetensors")

	tab := newTab(t)
	openScanPage(t, tab, 1366, 768)
	require.Equal(t, "failed", scanInPage(t, tab, bad, "done", "failed", "cancelled"))
	assert.Equal(t, want, tab.text(t, "#scan-error"))
	assert.True(t, eval[bool](t, tab, `document.getElementById("results").hidden`), "no report for a file that cannot be opened")
	tab.savePage(t, "scan-error-1366x768")
	// The next file scans.
	assert.Equal(t, "done", scanInPage(t, tab, good, "done", "failed"))
	assert.True(t, eval[bool](t, tab, `document.getElementById("scan-error").hidden`), "the error goes with the next scan")
}

// A click on a tensor's row offers the scenes that can show a tensor; the
// window scene then opens with that tensor: its elements and amax are the
// CLI's.
func TestScanPageOpensTensorInScene(t *testing.T) {
	hasWindow := false
	for _, n := range viz.Names() {
		hasWindow = hasWindow || n == "window"
	}
	if !hasWindow {
		t.Skip("no window scene")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "model.safetensors")
	writeCheckpoint(t, path, 3, 64, 256, true)
	code, cliJSON, errOut := runCLI(t, dir, "scan", "--json", "model.safetensors")
	require.Equal(t, 0, code, errOut)
	var cli struct {
		Tensors []struct {
			Name  string  `json:"name"`
			Rows  int     `json:"rows"`
			Cols  int     `json:"cols"`
			Amax  float64 `json:"amax"`
			Shape []int64 `json:"shape"`
		} `json:"tensors"`
	}
	require.NoError(t, json.Unmarshal([]byte(cliJSON), &cli))
	want := cli.Tensors[1] // the one with the outlier row

	tab := newTab(t)
	openScanPage(t, tab, 1366, 768)
	require.Equal(t, "done", scanInPage(t, tab, path, "done", "failed"))
	require.True(t, eval[bool](t, tab, `document.getElementById("open-bar").hidden`))
	tab.do(t, chromedp.Click(fmt.Sprintf(`#report table.heatmap tr[data-tensor=%q] td`, want.Name)))
	assert.Equal(t, want.Name, tab.text(t, "#open-name"))
	scenes := eval[[]string](t, tab, `Array.from(document.querySelectorAll("#open-bar button[data-scene]"), b => b.dataset.scene)`)
	var loaders []string
	for _, n := range viz.Names() {
		s, err := viz.New(n)
		require.NoError(t, err)
		if _, ok := s.(viz.TensorLoader); ok {
			loaders = append(loaders, n)
		}
	}
	assert.Equal(t, loaders, scenes, "every scene that can show a tensor is offered")
	tab.do(t, chromedp.Click(`#open-bar button[data-scene="window"]`))
	deadline := time.Now().Add(defaultWait)
	for !eval[bool](t, tab, `location.pathname.endsWith("/scene.html") && document.readyState === "complete"`) {
		require.True(t, time.Now().Before(deadline), "the scene page did not open: %s",
			eval[string](t, tab, `(document.getElementById("open-status") || {}).textContent || ""`))
		time.Sleep(50 * time.Millisecond)
	}
	tab.waitReady(t)
	tab.waitDrawn(t)
	assert.Equal(t, "loaded", eval[string](t, tab, liveAPI+`.then(a => a.getParam("tensor"))`))
	facts := shownFacts(t, tab)
	assert.Equal(t, strconv.Itoa(want.Rows*want.Cols), facts["elements"])
	amax, err := strconv.ParseFloat(facts["amax"], 64)
	require.NoError(t, err)
	assert.Equal(t, want.Amax, amax, "the scene's amax is the CLI's")
	assert.Contains(t, tab.text(t, "#status"), want.Name)
	assert.Empty(t, tab.text(t, "#p-file-error"))
	assert.Contains(t, eval[string](t, tab, `location.search`), "from=scan")
	tab.savePage(t, "scan-handoff-window-1366x768")
}

// The Scan page in its four states (empty, scanning, with results, with an
// error) at 1024×768, 1920×1080 and a phone's 390×844 never scrolls
// sideways (screenshots in $FP8LAB_SCREENSHOTS). While it scans it shows
// progress; Cancel stops it after the tensor in progress, with the report
// of the tensors done.
func TestScanPageStates(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.safetensors")
	const n = 16
	writeCheckpoint(t, big, n, 1024, 1024, true)
	small := filepath.Join(dir, "model.safetensors")
	writeCheckpoint(t, small, 3, 64, 256, true)
	bad := filepath.Join(dir, "bad.safetensors")
	require.NoError(t, os.WriteFile(bad, []byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\": {\"dtype\": 1}}"), 0o644))
	viewports := []struct {
		w, h int
		dpr  float64
	}{{1024, 768, 1}, {1920, 1080, 1}, {390, 844, 2}} // a full-page screenshot at 3× is taller than Chromium draws
	tab := newTab(t)
	each := func(state string) {
		for _, vp := range viewports {
			tab.do(t, chromedp.EmulateViewport(int64(vp.w), int64(vp.h), chromedp.EmulateScale(vp.dpr)))
			noSidewaysScroll(t, tab, fmt.Sprintf("%s at %dx%d", state, vp.w, vp.h))
			tab.savePage(t, fmt.Sprintf("scan-%s-%dx%d", state, vp.w, vp.h))
		}
		tab.do(t, chromedp.EmulateViewport(1024, 768))
	}
	openScanPage(t, tab, 1024, 768)
	each("empty")

	tab.do(t, chromedp.SetUploadFiles(chromedp.ID("scan-file"), []string{big}))
	deadline := time.Now().Add(defaultWait)
	for eval[float64](t, tab, `document.getElementById("scan-progress").value`) == 0 {
		require.Equal(t, "running", eval[string](t, tab, `document.body.dataset.scan`))
		require.True(t, time.Now().Before(deadline), "no progress")
		time.Sleep(50 * time.Millisecond)
	}
	assert.Regexp(t, `^\d+ of 16 tensors, [\d.]+ of [\d.]+ MB \([\d.]+ MB/s, ETA \w+\)`, tab.text(t, "#progress-text"))
	each("running")
	tab.do(t, chromedp.Click("#cancel"))
	require.Equal(t, "cancelled", waitScan(t, tab, "cancelled", "done", "failed"))
	done := eval[int](t, tab, `document.querySelectorAll("#report table.heatmap tr[data-tensor]").length`)
	assert.Greater(t, done, 0)
	assert.Less(t, done, n)
	assert.Equal(t, fmt.Sprintf("Cancelled: the report covers the %d tensors scanned.", done), tab.text(t, "#status"))

	require.Equal(t, "done", scanInPage(t, tab, small, "done", "failed"))
	each("results")
	require.Equal(t, "failed", scanInPage(t, tab, bad, "failed", "done"))
	assert.Contains(t, tab.text(t, "#scan-error"), "bad.safetensors")
	each("error")
}
