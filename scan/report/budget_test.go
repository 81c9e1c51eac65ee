package report

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/tensorio"
)

// scanned is the report of one real 16×64 tensor under every recipe for
// the given formats.
func scanned(t *testing.T, name string, formats ...*fp8.Format) scan.TensorStats {
	t.Helper()
	x, err := scaling.RandomNormal(16, 64, 1, 7)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, []tensorio.Raw{{Name: name, DType: "F32", Shape: []int64{16, 64}, Data: f32bytes(x.Data)}}, nil))
	a, err := tensorio.Open(bytes.NewReader(b.Bytes()), int64(b.Len()), "m.safetensors", tensorio.Limits{})
	require.NoError(t, err)
	all, err := scan.ParseRecipes("all")
	require.NoError(t, err)
	rep, err := scan.Run(context.Background(), []*tensorio.Archive{a}, scan.Options{Recipes: all, Formats: formats})
	require.NoError(t, err)
	return rep.Tensors[0]
}

func f32bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// Issue 26 item 2: a report of 100,000 tensors wrote a 356 MB page. The
// page (here of 20,000 tensors) draws at most MaxPageRows table rows and
// says what it leaves out, whether each tensor has one result or many.
func TestPageBudget(t *testing.T) {
	const n = 20_000
	one := scanned(t, "w", fp8.E4M3FN, fp8.E5M2, fp8.E4M3FNUZ) // three format windows a histogram
	for _, results := range []int{1, len(one.Results)} {
		rep := &scan.Report{MinSQNR: 15, Recipes: []string{"all"}, Formats: []string{"x"}, Tensors: make([]scan.TensorStats, n)}
		for i := range rep.Tensors {
			rep.Tensors[i] = one
			rep.Tensors[i].Name = fmt.Sprintf("model.layers.%d.mlp.experts.%d.down_proj.weight", i/256, i%256)
			rep.Tensors[i].Results = one.Results[:results]
		}
		page := string(Page(rep))
		drawn := MaxPageRows / results
		t.Logf("%d results a tensor: %d tensors drawn, %.1f MB", results, drawn, float64(len(page))/1e6)
		assert.Less(t, len(page), 24<<20, "%d results a tensor", results)
		note := fmt.Sprintf("This page shows the first %d of the %d tensors", drawn, n)
		assert.True(t, strings.Contains(page, note), "the page says %q", note) // (not the whole page on failure)
		assert.Equal(t, drawn, strings.Count(page, `<svg class="hist"`))
	}
	small := &scan.Report{MinSQNR: 15, Tensors: []scan.TensorStats{scanned(t, "w", fp8.E4M3FN)}}
	assert.NotContains(t, Body(small), "This page shows the first")
}

// Issue 26 item 6: NUL and ESC bytes of a tensor name went raw into the
// page. Visible text shows them escaped; data-tensor keeps the exact name
// through character references; no control byte but newline is in the page.
func TestPageHasNoControlBytes(t *testing.T) {
	name := "evil\x1b]0;pwned\a\x1b[2J\x00\u202e<b>"
	ts := scanned(t, name, fp8.E4M3FN)
	rep := &scan.Report{MinSQNR: 15, Recipes: []string{"tensorwise"}, Formats: []string{"E4M3FN"}, Tensors: []scan.TensorStats{ts},
		Summary: []scan.Summary{{Recipe: "tensorwise", Format: "E4M3FN", Worst: []string{name}, KeepBF16: []scan.Keep{{Tensor: name, WorstBlockSQNR: 3}}, Flushed: []scan.Risk{{Tensor: name, Values: 44, Energy: 0.3}}}}}
	rep.Tensors[0].Skipped = ""
	page := string(Page(rep))
	for i := 0; i < len(page); i++ {
		if c := page[i]; (c < 0x20 && c != '\n') || c == 0x7f {
			t.Fatalf("control byte %#x at %d: %q", c, i, page[max(0, i-40):min(len(page), i+40)])
		}
	}
	assert.Contains(t, page, `evil\x1b]0;pwned\x07\x1b[2J\x00\u202e&lt;b&gt;`)
	assert.Contains(t, page, `data-tensor="evil&#x1b;]0;pwned&#x7;&#x1b;[2J&#x0;&#x202e;&lt;b&gt;"`)
}
