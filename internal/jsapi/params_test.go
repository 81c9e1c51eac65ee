//go:build !js

package jsapi_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fp8lab/fp8lab/internal/jsapi"
	"github.com/fp8lab/fp8lab/viz"
)

// otherParam returns a parameter of s and a value other than its default:
// the first choice or numeric parameter that has one.
func otherParam(s viz.Scene) (string, string, bool) {
	for _, p := range s.Params() {
		switch p.Kind {
		case viz.ParamChoice:
			for _, o := range p.Options {
				if o != p.Default && s.Set(p.Name, o) == nil {
					return p.Name, o, true
				}
			}
		case viz.ParamNumber, viz.ParamInt:
			if p.Max > p.Min {
				v := fmt.Sprint(p.Min)
				if v == p.Default {
					v = fmt.Sprint(p.Max)
				}
				if s.Set(p.Name, v) == nil {
					return p.Name, v, true
				}
			}
		}
	}
	return "", "", false
}

// paramCases pass parameters to sceneInfo and renderScene (issue 12 item 2:
// every parameter was refused, `unknown option "format" (known: )`), and
// check that a "file" parameter is a clear error that leaves the module
// running (item 1: it deadlocked the Go runtime under Node).
func paramCases(t *testing.T, names []string) []jsCase {
	var cases []jsCase
	for _, name := range names {
		probe, err := viz.New(name)
		require.NoError(t, err)
		pname, value, ok := otherParam(probe)
		if !ok {
			continue
		}
		want, err := jsapi.NewScene(name, map[string]string{pname: value})
		require.NoError(t, err)
		wantValue, err := want.Get(pname)
		require.NoError(t, err)
		wantFacts := want.Facts()
		pix, err := jsapi.Render(want, 480, 270)
		require.NoError(t, err)
		sum := 0
		for _, b := range pix {
			sum += int(b)
		}
		arg := fmt.Sprintf("{%q: %q}", pname, value)
		cases = append(cases,
			jsCase{name: "sceneInfo with params " + name, code: fmt.Sprintf(`return api.sceneInfo(%q, %s);`, name, arg),
				check: func(t *testing.T, v any) {
					got := obj(t, v)
					for _, p := range got["params"].([]any) {
						pm := obj(t, p)
						if pm["name"] == pname {
							assert.Equal(t, wantValue, pm["value"], "%s.%s", name, pname)
						}
					}
					gotFacts := obj(t, got["facts"])
					for k, fv := range wantFacts {
						assert.Equal(t, fv, gotFacts[k], "%s fact %s", name, k)
					}
				}},
			jsCase{name: "renderScene with params " + name,
				code: fmt.Sprintf(`const px = api.renderScene(%q, 480, 270, %s); let s = 0; for (const b of px) s += b; return [px.length, s];`, name, arg),
				check: func(t *testing.T, v any) {
					r := v.([]any)
					assert.Equal(t, float64(480*270*4), r[0])
					assert.InDelta(t, float64(sum), num(t, r[1]), float64(sum)*0.01+1, "%s with %s=%s", name, pname, value)
				}},
			jsCase{name: "sceneInfo with an unknown param " + name,
				code: fmt.Sprintf(`return api.sceneInfo(%q, {"no-such-param": "1"});`, name), wantErr: `unknown parameter "no-such-param"`},
		)
	}
	for _, name := range names {
		if name != "window" {
			continue
		}
		cases = append(cases,
			jsCase{name: "sceneInfo with a file param", code: `return api.sceneInfo("window", {file: "/x.npy"});`, wantErr: "no file paths"},
			jsCase{name: "renderScene with a file param", code: `return api.renderScene("window", 8, 8, {file: "/x.npy"});`, wantErr: "loadTensor"},
			jsCase{name: "setParam file does not stop the module",
				code: `api.setScene("window"); let msg = ""; try { api.setParam("file", "/x.npy"); } catch (e) { msg = e.message; } const r = [msg, api.currentScene().name, api.currentScene().tensorInput]; api.setScene(` + fmt.Sprintf("%q", names[0]) + `); return r;`,
				check: func(t *testing.T, v any) {
					r := v.([]any)
					assert.Contains(t, r[0], "no file paths")
					assert.Equal(t, "window", r[1], "the module still answers")
					assert.Equal(t, true, r[2])
				}},
		)
	}
	return cases
}

// The Go side of the same rules, without Node.
func TestNoFileParams(t *testing.T) {
	for _, name := range viz.Names() {
		_, err := jsapi.NewScene(name, map[string]string{"file": "/dev/zero"})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "loadTensor")
		h, err := jsapi.NewHeadless(name)
		require.NoError(t, err)
		err = h.SetParam("file", "/dev/zero")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "no file paths")
		info, err := jsapi.SceneInfo(h.Scene())
		require.NoError(t, err)
		_, loader := h.Scene().(viz.TensorLoader)
		assert.Equal(t, loader, info["tensorInput"], name)
	}
	_, err := jsapi.ReadTensor([]byte("1,2\n3\n"), "bad.csv", "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad.csv: ")
}
