package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/train"
	"github.com/fp8lab/fp8lab/train/compare"
)

// trainCorpus writes a small text file to train the tiny configuration on.
func trainCorpus(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "func f%d(x int) int { return x*%d + %d }\n", i, i%7, i%13)
	}
	path := filepath.Join(t.TempDir(), "corpus.txt")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

func TestTrainUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"name": "x", "forward": {"input": {"format": "e9m9"}}}`), 0o644))
	broken := filepath.Join(dir, "broken.json")
	require.NoError(t, os.WriteFile(broken, []byte(`{"name": "x", "forward": {`), 0o644))
	unknown := filepath.Join(dir, "unknown.json")
	require.NoError(t, os.WriteFile(unknown, []byte(`{"name": "x", "speed": 11}`), 0o644))
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--steps", "5"}, 2, "give --recipe NAME"},
		{[]string{"--recipe", "nope"}, 2, `unknown recipe "nope" (known: bf16,`},
		{[]string{"--recipe", "fp32", "--steps", "0"}, 2, "--steps 0: want at least 1"},
		{[]string{"--recipe", "fp32", "--steps", "5000000000"}, 2, "--steps 5000000000: at most 1000000 steps"},
		{[]string{"--recipe", "fp32", "--recipe-file", bad}, 2, "not both"},
		{[]string{"--recipe-file", bad}, 1, "bad.json: train: recipe \"x\": forward.input"},
		{[]string{"--recipe-file", broken}, 1, "broken.json: train: recipe JSON"},
		{[]string{"--recipe-file", unknown}, 1, `unknown field "speed"`},
		{[]string{"--recipe-file", filepath.Join(dir, "missing.json")}, 1, "missing.json"},
		{[]string{"--recipe", "fp32", "--config", "huge"}, 2, `unknown config "huge"`},
		{[]string{"--recipe", "fp32", "--png", "x.png"}, 2, "--png draws the curves of --compare"},
		{[]string{"--compare", "fp32", "--recipe", "bf16"}, 2, "--compare or --recipe"},
		{[]string{"--compare", "fp32,nope"}, 2, `unknown recipe "nope"`},
		{[]string{"--compare", "fp32,fp32"}, 2, "named twice"},
		{[]string{"--compare", "fp32", "--seeds", "0"}, 2, "--seeds 0: want 1..100"},
		{[]string{"--compare", "fp32", "--seeds", "101"}, 2, "--seeds 101"},
		{[]string{"--recipe", "fp32", "-o", dir}, 1, "not a regular file"},
		{[]string{"--recipe", "fp32", "--steps", "10", "--spike", "11:100"}, 2, "want its steps within 1..10"},
		{[]string{"--recipe", "fp32", "--steps", "10", "--spike", "8:100:4"}, 2, "want its steps within 1..10"},
		{[]string{"--recipe", "fp32", "--steps", "10", "--spike", "8:100:0"}, 2, "want STEP:FACTOR or STEP:FACTOR:LEN"},
		{[]string{"--recipe", "fp32", "--steps", "10", "--spike", "8:100:2:3"}, 2, "want STEP:FACTOR or STEP:FACTOR:LEN"},
		{[]string{"--recipe", "fp32", "--config-file", bad}, 2, "give --config or --config-file, not both"},
		{[]string{"--compare", "fp32," + filepath.Join(dir, "nope.json")}, 1, "nope.json"},
		{[]string{"--compare", "fp32," + bad}, 1, "bad.json: train: recipe \"x\""},
		{[]string{"--compare", "fp32,nope"}, 2, "a recipe file needs a / in its path or a .json name"},
		{[]string{"--recipe", "fp32", "--spike", "5"}, 2, "want STEP:FACTOR"},
		{[]string{"--recipe", "fp32", "--spike", "5:-1"}, 2, "positive finite factor"},
		{[]string{"--recipe", "fp32", "--corpus", filepath.Join(dir, "none.txt")}, 1, "none.txt"},
	} {
		code, _, errOut := cli(t, "", append([]string{"train", "--config", "tiny"}, c.args...)...)
		assert.Equal(t, c.code, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.want, "%v", c.args)
	}
	for _, c := range []struct{ file, want string }{
		{bad, "bad.json: train: config JSON"},
		{unknown, `unknown field "speed"`},
		{filepath.Join(dir, "nope.json"), "nope.json"},
		{dir, "not a regular file"},
	} {
		code, _, errOut := cli(t, "", "train", "--recipe", "fp32", "--config-file", c.file)
		assert.Equal(t, 1, code, "%s: %s", c.file, errOut)
		assert.Contains(t, errOut, c.want, c.file)
	}
}

// jsonRun is the part of fp8lab train --json that is a train.Result.
type jsonRun struct {
	train.Result
	FinalVal   float64              `json:"final_val_loss"`
	Perplexity float64              `json:"val_perplexity"`
	Totals     []train.OperandStats `json:"operand_totals"`
	Stopped    bool                 `json:"stopped"`
}

func TestTrainJSONMatchesRun(t *testing.T) {
	corpus := trainCorpus(t)
	out := filepath.Join(t.TempDir(), "run.json")
	code, stdout, errOut := cli(t, "", "train", "--recipe", "tensorwise", "--steps", "7", "--seed", "3",
		"--config", "tiny", "--corpus", corpus, "--json", "-o", out)
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, errOut, "no progress line when stderr is not a terminal")
	var got jsonRun
	require.NoError(t, json.Unmarshal([]byte(stdout), &got))
	file, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, stdout, string(file), "-o writes what --json prints")

	data, err := train.ReadTextCorpus(corpus)
	require.NoError(t, err)
	r, _ := train.RecipeByName("tensorwise")
	want, err := train.Run(train.Tiny(), r, 3, 7, data)
	require.NoError(t, err)
	got.Result.Seconds, want.Seconds = 0, 0
	assert.Equal(t, *want, got.Result)
	assert.Equal(t, want.FinalVal(), got.FinalVal)
	assert.Equal(t, compare.OperandTotals(want), got.Totals)
	assert.False(t, got.Stopped)

	// The text report carries the same final numbers.
	code, text, _ := cli(t, "", "train", "--recipe", "tensorwise", "--steps", "7", "--seed", "3", "--config", "tiny", "--corpus", corpus)
	require.Equal(t, 0, code)
	assert.Contains(t, text, fmt.Sprintf("validation loss %.4f nats/byte at step 7", want.FinalVal()))
	assert.Contains(t, text, "h0.qkv     input_grad   grad_output")
}

func TestTrainRecipeFile(t *testing.T) {
	r, _ := train.RecipeByName("e5m2-grads")
	r.Name = "mine"
	b, err := r.MarshalIndented()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "r.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	code, stdout, errOut := cli(t, "", "train", "--recipe-file", path, "--steps", "3", "--config", "tiny", "--corpus", trainCorpus(t))
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, stdout, "recipe mine, config tiny")

	code, stdout, errOut = cli(t, "", "train", "--recipe-file", path, "--steps", "3", "--config", "tiny", "--corpus", trainCorpus(t), "--spike", "2:100")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, stdout, "activation spike: every block's GELU output × 100 at step 2")
}

func TestTrainInterrupted(t *testing.T) {
	old := interruptContext
	defer func() { interruptContext = old }()
	interruptContext = func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // Ctrl-C before the first step
		return ctx, cancel
	}
	out := filepath.Join(t.TempDir(), "run.json")
	code, stdout, errOut := cli(t, "", "train", "--recipe", "fp32", "--steps", "50", "--config", "tiny", "--corpus", trainCorpus(t), "-o", out)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "interrupted after 0 of 50 steps")
	assert.Contains(t, stdout, "stopped early")
	var got jsonRun
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &got))
	assert.True(t, got.Stopped)
	assert.Equal(t, 0, got.Steps)
	assert.Len(t, got.Val, 1)
}

func TestTrainCompareInterrupted(t *testing.T) {
	old := interruptContext
	defer func() { interruptContext = old }()
	interruptContext = func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx, cancel
	}
	out := filepath.Join(t.TempDir(), "runs.json")
	code, stdout, errOut := cli(t, "", "train", "--compare", "fp32,bf16", "--steps", "5", "--config", "tiny", "--corpus", trainCorpus(t), "-o", out)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "interrupted")
	assert.Contains(t, stdout, "stopped early")
	var f compareFile
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &f))
	assert.True(t, f.Stopped)
}

// compareFile is the part of the --compare JSON the tests read.
type compareFile struct {
	compare.Set
	Summary compare.Summary `json:"summary"`
	Date    string          `json:"date"`
	Machine string          `json:"machine"`
}

func TestTrainCompareTableEqualsJSON(t *testing.T) {
	corpus := trainCorpus(t)
	dir := t.TempDir()
	args := []string{"train", "--compare", "fp32,tensorwise", "e5m2-grads", "bf16", "--seeds", "2", "--steps", "8",
		"--config", "tiny", "--corpus", corpus, "--png", filepath.Join(dir, "curves.png")}
	runs := map[int]compareFile{}
	var table string
	for _, workers := range []int{1, 2} {
		out := filepath.Join(dir, fmt.Sprintf("runs%d.json", workers))
		code, stdout, errOut := cli(t, "", append(args, "--workers", fmt.Sprint(workers), "-o", out)...)
		require.Equal(t, 0, code, errOut)
		var f compareFile
		b, err := os.ReadFile(out)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &f))
		runs[workers] = f
		table = stdout
	}
	f := runs[1]
	assert.Equal(t, []string{"fp32", "tensorwise", "e5m2-grads", "bf16"}, f.Recipes)
	assert.Equal(t, []uint64{1, 2}, f.Seeds)
	require.Len(t, f.Runs, 8)
	assert.Contains(t, f.Command, "--compare fp32,tensorwise e5m2-grads bf16")
	assert.NotEmpty(t, f.Machine)

	// One worker or two: the same runs, bit for bit.
	for k := range f.Runs {
		a, b := f.Runs[k], runs[2].Runs[k]
		a.Seconds, b.Seconds = 0, 0
		assert.Equal(t, a, b)
	}

	// The JSON's summary is the summary of its runs, and the table prints it.
	sum, err := compare.Summarize(&f.Set, "")
	require.NoError(t, err)
	assert.Equal(t, "bf16", sum.Baseline)
	for i := range sum.Rows {
		sum.Rows[i].Seconds, f.Summary.Rows[i].Seconds = 0, 0
	}
	assert.Equal(t, *sum, f.Summary)
	for i, name := range f.Recipes {
		var finals []float64
		for j := range f.Seeds {
			finals = append(finals, f.Run(i, j).FinalVal())
		}
		mean := (finals[0] + finals[1]) / 2
		row := sum.Row(name)
		line := lineOf(t, table, name+" ")
		assert.Contains(t, line, fmt.Sprintf("%.4f ± ", mean), name)
		assert.Contains(t, line, fmt.Sprintf("[%.4f, %.4f]", min(finals[0], finals[1]), max(finals[0], finals[1])), name)
		assert.Contains(t, line, fmt.Sprintf("%+.2f%%", 100*(mean-sum.Row("bf16").ValMean)/sum.Row("bf16").ValMean), name)
		verdict := sum.VerdictCell(name)
		require.True(t, strings.HasSuffix(line, "  "+verdict), "%s: %q does not end with its verdict %q", name, line, verdict)
		fields := strings.Fields(strings.TrimSuffix(line, verdict))
		assert.Equal(t, []string{fmt.Sprint(row.Overflow), fmt.Sprint(row.Underflow)}, fields[len(fields)-2:], name)
	}
	png, err := os.ReadFile(filepath.Join(dir, "curves.png"))
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(png[:4]))
}

func lineOf(t *testing.T, text, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("no line starting %q in\n%s", prefix, text)
	return ""
}

// TestTrainCompareRecipeFile compares a built-in recipe with a recipe
// file, under a configuration file: the file's recipe runs by its name,
// seed-paired with the built-in one, with the same table, verdict and PNG
// as names alone give.
func TestTrainCompareRecipeFile(t *testing.T) {
	dir := t.TempDir()
	r, _ := train.RecipeByName("tensorwise")
	r.Name, r.Scaling.Margin = "tensorwise-margin4", 4
	b, err := r.MarshalIndented()
	require.NoError(t, err)
	recipePath := filepath.Join(dir, "tensorwise-margin4.json")
	require.NoError(t, os.WriteFile(recipePath, b, 0o644))
	cfg := train.Tiny()
	cfg.Name, cfg.Steps = "tiny-file", 6
	cb, err := json.Marshal(cfg)
	require.NoError(t, err)
	configPath := filepath.Join(dir, "tiny.json")
	require.NoError(t, os.WriteFile(configPath, cb, 0o644))
	out := filepath.Join(dir, "runs.json")
	code, stdout, errOut := cli(t, "", "train", "--compare", "bf16,"+recipePath, "--config-file", configPath, "--seeds", "2",
		"--corpus", trainCorpus(t), "--png", filepath.Join(dir, "curves.png"), "-o", out)
	require.Equal(t, 0, code, errOut)
	var f compareFile
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &f))
	assert.Equal(t, []string{"bf16", "tensorwise-margin4"}, f.Recipes)
	assert.Equal(t, 6, f.Steps, "the configuration file's steps")
	assert.Equal(t, "tiny-file", f.Config.Name)
	assert.Equal(t, 4, f.Run(1, 0).Recipe.Scaling.Margin)
	assert.Contains(t, stdout, "config tiny-file")
	line := lineOf(t, stdout, "tensorwise-margin4 ")
	sum, err := compare.Summarize(&f.Set, "")
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(line, sum.VerdictCell("tensorwise-margin4")))

	// The same run as a built-in name gives the same losses.
	data, err := train.ReadTextCorpus(trainCorpus(t))
	require.NoError(t, err)
	want, err := train.Run(cfg, r, 1, 6, data)
	require.NoError(t, err)
	assert.Equal(t, want.TrainLoss, f.Run(1, 0).TrainLoss)
}

// TestTrainNonsaturatingSpikeStops: a run with non-saturating casts and a
// delayed scale that an activation spike overflows stops at the spike's
// step, and the command says where (step, layer, product and operand),
// after the numbers of the run so far.
func TestTrainNonsaturatingSpikeStops(t *testing.T) {
	dir := t.TempDir()
	r, _ := train.RecipeByName("delayed-nonsat")
	r.Name, r.Scaling.Margin = "delayed-nonsat-margin8", 8 // no overflow before the spike
	b, err := r.MarshalIndented()
	require.NoError(t, err)
	path := filepath.Join(dir, "r.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	out := filepath.Join(dir, "run.json")
	code, stdout, errOut := cli(t, "", "train", "--recipe-file", path, "--steps", "12", "--config", "tiny",
		"--corpus", trainCorpus(t), "--spike", "6:1e6:3", "-o", out)
	assert.Equal(t, 1, code)
	for _, want := range []string{"stopped by an Inf or a NaN at step 6 of 12", "step 6: h0.fcproj forward, operand input",
		"non-saturating", "training stops"} {
		assert.Contains(t, errOut, want)
	}
	assert.Contains(t, stdout, "activation spike: every block's GELU output × 1e+06 in steps 6 to 8")
	assert.Contains(t, stdout, "stopped at step 6 by an Inf or a NaN")
	var got jsonRun
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &got))
	require.NotNil(t, got.Diverged)
	assert.Equal(t, 6, got.Diverged.Step)
	assert.Equal(t, "h0.fcproj", got.Diverged.Layer)
	assert.Equal(t, 5, got.Steps)

	// In a comparison the stopped run is a result, not a failure: the
	// others finish, and the table says which stopped.
	code, stdout, errOut = cli(t, "", "train", "--compare", "tensorwise,"+path, "--steps", "12", "--seeds", "2", "--config", "tiny",
		"--corpus", trainCorpus(t), "--spike", "6:1e6")
	require.Equal(t, 0, code, errOut)
	line := lineOf(t, stdout, "delayed-nonsat-margin8 ")
	assert.Contains(t, line, "(2 stopped by Inf/NaN, the first at step 6)")
}
