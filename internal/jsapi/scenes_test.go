//go:build !js

package jsapi_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/jsapi"
	"github.com/fp8lab/fp8lab/tensorio"
	"github.com/fp8lab/fp8lab/viz"
)

// Pixels are compared through the mean luminance of blocks of blockSide²
// pixels: WebAssembly and amd64 may differ in the last bit of math.Log or
// math.Exp (Go uses assembly for them on amd64), which moves a few pixels
// of a curve; a wrong picture changes the means far more.
const (
	renderW, renderH = 800, 500
	blockSide        = 50
)

// jsBlocks is a JavaScript expression of the block means of the RGBA pixel
// array px.
var jsBlocks = fmt.Sprintf(`(() => { const W = %d, H = %d, B = %d, out = [];
	for (let by = 0; by < H; by += B) for (let bx = 0; bx < W; bx += B) {
		let sum = 0;
		for (let y = by; y < by + B; y++) for (let x = bx; x < bx + B; x++) {
			const i = 4 * (y * W + x); sum += 0.299 * px[i] + 0.587 * px[i + 1] + 0.114 * px[i + 2];
		}
		out.push(sum / (B * B));
	}
	return out; })()`, renderW, renderH, blockSide)

// blocks is jsBlocks in Go.
func blocks(px []byte) []float64 {
	var out []float64
	for by := 0; by < renderH; by += blockSide {
		for bx := 0; bx < renderW; bx += blockSide {
			sum := 0.0
			for y := by; y < by+blockSide; y++ {
				for x := bx; x < bx+blockSide; x++ {
					i := 4 * (y*renderW + x)
					sum += 0.299*float64(px[i]) + 0.587*float64(px[i+1]) + 0.114*float64(px[i+2])
				}
			}
			out = append(out, sum/(blockSide*blockSide))
		}
	}
	return out
}

// sceneCases check the scene functions against the viz package; without
// scenes only their error paths are left to check.
func sceneCases(t *testing.T) []jsCase {
	cases := []jsCase{
		{name: "scenes", code: `return api.scenes().map(s => s.name);`, check: func(t *testing.T, v any) {
			var got []string
			for _, n := range v.([]any) {
				got = append(got, n.(string))
			}
			want := viz.Names()
			if len(want) == 0 {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, want, got)
		}},
		{name: "sceneInfo of an unknown scene", code: `return api.sceneInfo("nope");`, wantErr: `unknown scene "nope"`},
		{name: "renderScene of an unknown scene", code: `return api.renderScene("nope", 8, 8);`, wantErr: `unknown scene "nope"`},
		{name: "renderScene too large", code: `return api.renderScene("nope", 5000, 8);`, wantErr: "argument 2 (width) must be an integer in [1, 4096]"},
	}
	names := viz.Names()
	for _, name := range names {
		s, err := viz.New(name)
		require.NoError(t, err)
		info, err := jsapi.SceneInfo(s)
		require.NoError(t, err)
		facts := s.Facts() // of a fresh scene, as sceneInfo makes
		drawn, err := viz.New(name)
		require.NoError(t, err)
		pix, err := jsapi.Render(drawn, renderW, renderH)
		require.NoError(t, err)
		want := blocks(pix)
		cases = append(cases,
			jsCase{name: "sceneInfo " + name, code: `return api.sceneInfo(` + strconv.Quote(name) + `);`, check: func(t *testing.T, v any) {
				got := obj(t, v)
				assert.Equal(t, info["title"], got["title"])
				var params []string
				for _, p := range got["params"].([]any) {
					pm := obj(t, p)
					params = append(params, pm["name"].(string))
					assert.Contains(t, pm, "value")
					assert.Contains(t, pm, "kind")
				}
				var want []string
				for _, p := range s.Params() {
					want = append(want, p.Name)
				}
				assert.Equal(t, want, params)
				gotFacts := obj(t, got["facts"])
				assert.Len(t, gotFacts, len(facts))
				for k, fv := range facts {
					assert.Equal(t, fv, gotFacts[k], "fact %s", k)
				}
			}},
			jsCase{name: "renderScene " + name, code: fmt.Sprintf(`const px = api.renderScene(%q, %d, %d); return [px.constructor.name, px.length, %s];`, name, renderW, renderH, jsBlocks),
				check: func(t *testing.T, v any) {
					r := v.([]any)
					assert.Equal(t, []any{"Uint8ClampedArray", float64(renderW * renderH * 4)}, r[:2])
					got := r[2].([]any)
					require.Len(t, got, len(want))
					for i := range want {
						assert.InDelta(t, want[i], num(t, got[i]), 2.0, "block %d: the picture differs from the native one", i)
					}
				}},
		)
	}
	if len(names) == 0 {
		return cases
	}
	cases = append(cases, paramCases(t, names)...)
	cases = append(cases, liveCases(t, names)...)
	return append(cases, trainingCases()...)
}

// liveCases drive the core module's headless live scene.
func liveCases(t *testing.T, names []string) []jsCase {
	first, err := viz.New(names[0])
	require.NoError(t, err)
	cases := []jsCase{
		{name: "currentScene", code: `return api.currentScene().name;`, check: func(t *testing.T, v any) { assert.Equal(t, names[0], v) }},
		{name: "frameCount without a screen", code: `return api.frameCount();`, check: func(t *testing.T, v any) { assert.Equal(t, 0.0, v) }},
		{name: "setScene unknown", code: `try { api.setScene("nope"); } catch (e) { return [e.message, api.currentScene().name]; }`, check: func(t *testing.T, v any) {
			r := v.([]any)
			assert.Contains(t, r[0], `fp8lab.setScene: viz: unknown scene "nope"`)
			assert.Equal(t, names[0], r[1], "the scene on screen is unchanged")
		}},
		{name: "setParam unknown", code: `return api.setParam("no-such-param", "1");`, wantErr: "fp8lab.setParam"},
		{name: "setParam value not a string", code: `return api.setParam("x", {});`, wantErr: "argument 2 (value) must be a string, number or boolean, got Object"},
		{name: "getParam unknown", code: `return api.getParam("no-such-param");`, wantErr: "fp8lab.getParam"},
		// A number passed as a number reaches the scene as an integer when it
		// is one (a text parameter keeps it as written): 1048576, not 1.048576e+06.
		{name: "setParam with a whole number", code: `api.setScene("explorer"); api.setParam("value", 1048576); const v = api.getParam("value"); api.setParam("value", 0.15625); const w = api.getParam("value"); api.setScene(` + fmt.Sprintf("%q", names[0]) + `); return [v, w];`,
			check: func(t *testing.T, v any) { assert.Equal(t, []any{"1048576", "0.15625"}, v) }},
	}
	// Change the first choice or number parameter of the first scene to a
	// value other than its default, and check getParam and the facts follow.
	for _, p := range first.Params() {
		var value string
		switch p.Kind {
		case viz.ParamChoice:
			for _, o := range p.Options {
				if o != p.Default {
					value = o
					break
				}
			}
		case viz.ParamNumber, viz.ParamInt:
			if p.Max > p.Min {
				value = fmt.Sprint(p.Max)
			}
		}
		if value == "" {
			continue
		}
		want, err := viz.New(names[0])
		require.NoError(t, err)
		require.NoError(t, want.Set(p.Name, value))
		got, err := want.Get(p.Name)
		require.NoError(t, err)
		wantFacts := want.Facts()
		cases = append(cases, jsCase{name: "setParam " + p.Name,
			code: fmt.Sprintf(`const info = api.setParam(%q, %q); return [api.getParam(%q), info.facts];`, p.Name, value, p.Name),
			check: func(t *testing.T, v any) {
				r := v.([]any)
				assert.Equal(t, got, r[0])
				gotFacts := obj(t, r[1])
				for k, fv := range wantFacts {
					assert.Equal(t, fv, gotFacts[k], "fact %s", k)
				}
			}})
		break
	}
	if len(names) > 1 {
		cases = append(cases, jsCase{name: "setScene", code: fmt.Sprintf(`api.setScene(%q); return api.currentScene().name;`, names[1]),
			check: func(t *testing.T, v any) { assert.Equal(t, names[1], v) }})
	}
	return append(cases, tensorCases(t, names)...)
}

// tensorCases load a tensor file into the window scene, the one scene that
// takes one.
func tensorCases(t *testing.T, names []string) []jsCase {
	cases := []jsCase{
		{name: "loadTensor into a scene that cannot show one", code: fmt.Sprintf(`api.setScene(%q); return api.loadTensor(new TextEncoder().encode("1,2\n3,4"), "t.csv");`, names[0]),
			wantErr: "cannot show a tensor"},
		{name: "loadTensor of a number", code: `return api.loadTensor(3);`, wantErr: "must be a Uint8Array"},
	}
	hasWindow := false
	for _, n := range names {
		hasWindow = hasWindow || n == "window"
	}
	if !hasWindow {
		return cases
	}
	want, err := viz.New("window")
	require.NoError(t, err)
	tensor, err := jsapi.ReadTensor([]byte("1,2,300\n-4,0.001,6\n"), "t.csv", "")
	require.NoError(t, err)
	require.NoError(t, want.(viz.TensorLoader).LoadTensor(tensor))
	wantFacts := want.Facts()
	two, twoFacts := twoTensorFile(t)
	return append(cases,
		jsCase{name: "loadTensor CSV", code: `api.setScene("window"); const info = api.loadTensor(new TextEncoder().encode("1,2,300\n-4,0.001,6\n"), "t.csv"); return [api.getParam("tensor"), info.facts];`,
			check: func(t *testing.T, v any) {
				r := v.([]any)
				assert.Equal(t, "loaded", r[0])
				got := obj(t, r[1])
				for k, fv := range wantFacts {
					assert.Equal(t, fv, got[k], "fact %s", k)
				}
			}},
		jsCase{name: "loadTensor of a two-tensor safetensors file, no name", code: `api.setScene("window"); return api.loadTensor(` + two + `, "two.safetensors");`,
			wantErr: `holds 2 tensors; name one ("a.weight", "b.weight"); pass its name as loadTensor's third argument`},
		jsCase{name: "loadTensor of a two-tensor safetensors file, unknown name", code: `api.setScene("window"); return api.loadTensor(` + two + `, "two.safetensors", "c");`,
			wantErr: `no such tensor "c"`},
		jsCase{name: "loadTensor with a tensor name that is not a string", code: `api.setScene("window"); return api.loadTensor(` + two + `, "two.safetensors", 3);`,
			wantErr: "argument 3 (tensorName) must be a string"},
		jsCase{name: "loadTensor picks a tensor by name", code: `api.setScene("window"); const info = api.loadTensor(` + two + `, "two.safetensors", "b.weight"); return [api.getParam("tensor"), info.facts];`,
			check: func(t *testing.T, v any) {
				r := v.([]any)
				assert.Equal(t, "loaded", r[0])
				got := obj(t, r[1])
				for k, fv := range twoFacts {
					assert.Equal(t, fv, got[k], "fact %s", k)
				}
			}},
		jsCase{name: "loadTensor garbage", code: `return api.loadTensor(new TextEncoder().encode("1,2\n3\n"));`, wantErr: "fp8lab.loadTensor"},
		jsCase{name: "loadTensor with NaN", code: `return api.loadTensor(new TextEncoder().encode("1,NaN\n"));`, wantErr: "NaN"},
	)
}

// twoTensorFile is a safetensors file of two tensors as a JS Uint8Array
// literal, and the window scene's facts for its tensor "b.weight".
func twoTensorFile(t *testing.T) (string, map[string]string) {
	f32 := func(v ...float32) []byte {
		var b bytes.Buffer
		require.NoError(t, binary.Write(&b, binary.LittleEndian, v))
		return b.Bytes()
	}
	var b bytes.Buffer
	require.NoError(t, tensorio.WriteSafetensors(&b, []tensorio.Raw{
		{Name: "a.weight", DType: "F32", Shape: []int64{1, 2}, Data: f32(1, 2)},
		{Name: "b.weight", DType: "F32", Shape: []int64{2, 3}, Data: f32(1, 2, 300, -4, 0.001, 6)},
	}, nil))
	tensor, err := jsapi.ReadTensor(b.Bytes(), "two.safetensors", "b.weight")
	require.NoError(t, err)
	assert.Equal(t, []float32{1, 2, 300, -4, 0.001, 6}, tensor.Data)
	w, err := viz.New("window")
	require.NoError(t, err)
	require.NoError(t, w.(viz.TensorLoader).LoadTensor(tensor))
	nums := make([]string, b.Len())
	for i, c := range b.Bytes() {
		nums[i] = strconv.Itoa(int(c))
	}
	return "new Uint8Array([" + strings.Join(nums, ",") + "])", w.Facts()
}

// TensorScenes lists exactly the scenes that are viz.TensorLoaders, and a
// Headless loads a tensor into them only: the error of any other scene
// names the ones that can.
func TestTensorScenes(t *testing.T) {
	scenes := viz.TensorScenes()
	require.NotEmpty(t, scenes)
	// 256×256: the size of the granularity scene's matrix, the largest a
	// scene needs.
	var csv strings.Builder
	for i := range 256 {
		for j := range 256 {
			if j > 0 {
				csv.WriteByte(',')
			}
			csv.WriteString(strconv.Itoa((i*7+j*13)%29 - 14))
		}
		csv.WriteByte('\n')
	}
	tensor, err := jsapi.ReadTensor([]byte(csv.String()), "t.csv", "")
	require.NoError(t, err)
	for _, n := range viz.Names() {
		s, err := viz.New(n)
		require.NoError(t, err)
		_, loader := s.(viz.TensorLoader)
		assert.Equal(t, loader, slices.Contains(scenes, n), n)
		h, err := jsapi.NewHeadless(n)
		require.NoError(t, err)
		err = h.LoadTensor(tensor)
		if loader {
			assert.NoError(t, err, n)
			continue
		}
		require.Error(t, err, n)
		assert.Contains(t, err.Error(), strings.Join(scenes, ", "), n)
	}
}
