//go:build js && wasm

package jsapi

import (
	"fmt"
	"syscall/js"
)

// sceneFuncs are the stateless scene functions: each call makes a fresh
// scene, so they never disturb the one on screen.
func sceneFuncs() map[string]fn {
	return map[string]fn{
		"scenes":        apiScenes,
		"sceneInfo":     apiSceneInfo,
		"renderScene":   apiRenderScene,
		"scanFile":      apiScanFile,
		"extractTensor": apiExtractTensor,
	}
}

// scenes() -> [{name, title}] in teaching order.
func apiScenes(args []js.Value) (any, error) {
	return SceneList()
}

// sceneInfo(name, params?) -> {name, title, params: [Param + value], facts}
// of a fresh scene with params applied.
func apiSceneInfo(args []js.Value) (any, error) {
	name, err := argString(args, 0, "name")
	if err != nil {
		return nil, err
	}
	params, err := argParams(args, 1)
	if err != nil {
		return nil, err
	}
	s, err := NewScene(name, params)
	if err != nil {
		return nil, err
	}
	return SceneInfo(s)
}

// renderScene(name, width, height, params?) -> Uint8ClampedArray of RGBA
// pixels, ready for new ImageData(pixels, width, height).
func apiRenderScene(args []js.Value) (any, error) {
	name, err := argString(args, 0, "name")
	if err != nil {
		return nil, err
	}
	w, err := argInt(args, 1, "width", 1, MaxRenderSide)
	if err != nil {
		return nil, err
	}
	h, err := argInt(args, 2, "height", 1, MaxRenderSide)
	if err != nil {
		return nil, err
	}
	params, err := argParams(args, 3)
	if err != nil {
		return nil, err
	}
	s, err := NewScene(name, params)
	if err != nil {
		return nil, err
	}
	pix, err := Render(s, w, h)
	if err != nil {
		return nil, err
	}
	return toJS(jsUint8Clamped, pix), nil
}

// liveFuncs act on the scene on screen.
func liveFuncs(live Live) map[string]fn {
	return map[string]fn{
		// currentScene() -> sceneInfo of the scene on screen.
		"currentScene": func(args []js.Value) (any, error) {
			return SceneInfo(live.Scene())
		},
		// setScene(name) -> sceneInfo of the scene now on screen. The
		// playground keeps the parameters each scene had when last shown.
		"setScene": func(args []js.Value) (any, error) {
			name, err := argString(args, 0, "name")
			if err != nil {
				return nil, err
			}
			if err := live.SetScene(name); err != nil {
				return nil, err
			}
			return SceneInfo(live.Scene())
		},
		// setParam(name, value) -> sceneInfo after the change; a bad name or
		// value is an error and leaves the scene unchanged.
		"setParam": func(args []js.Value) (any, error) {
			name, err := argString(args, 0, "name")
			if err != nil {
				return nil, err
			}
			v := arg(args, 1)
			var value string
			switch v.Type() {
			case js.TypeString:
				value = v.String()
			case js.TypeNumber:
				value = formatNumber(v.Float())
			case js.TypeBoolean:
				value = fmt.Sprint(v.Bool())
			default:
				return nil, fmt.Errorf("argument 2 (value) must be a string, number or boolean, got %s", kind(v))
			}
			if err := checkParamName(name); err != nil {
				return nil, err
			}
			if err := live.SetParam(name, value); err != nil {
				return nil, err
			}
			return SceneInfo(live.Scene())
		},
		// getParam(name) -> the parameter's current value as a string.
		"getParam": func(args []js.Value) (any, error) {
			name, err := argString(args, 0, "name")
			if err != nil {
				return nil, err
			}
			return live.Scene().Get(name)
		},
		// loadTensor(bytes, filename?, tensorName?) -> sceneInfo with
		// loaded: {rows, cols, values} (the tensor as read; a scene may show
		// part of it, its facts say which): shows a tensor of a .npy, CSV,
		// safetensors or .npz file (a Uint8Array of its bytes) in the live
		// scene, which must be able to (viz.TensorScenes): the one named
		// tensorName, or the file's only tensor.
		"loadTensor": func(args []js.Value) (any, error) {
			data, single, err := argCodes(args, 0, "bytes")
			if err != nil {
				return nil, err
			}
			if single {
				return nil, fmt.Errorf("argument 1 (bytes) must be a Uint8Array of the file's bytes, got number")
			}
			var filename string
			if v := arg(args, 1); v.Type() == js.TypeString {
				filename = v.String()
			} else if v.Type() != js.TypeUndefined && v.Type() != js.TypeNull {
				return nil, fmt.Errorf("argument 2 (filename) must be a string, got %s", kind(v))
			}
			var tensorName string
			if v := arg(args, 2); v.Type() == js.TypeString {
				tensorName = v.String()
			} else if v.Type() != js.TypeUndefined && v.Type() != js.TypeNull {
				return nil, fmt.Errorf("argument 3 (tensorName) must be a string, got %s", kind(v))
			}
			t, err := ReadTensor(data, filename, tensorName)
			if err != nil {
				return nil, err
			}
			if err := live.LoadTensor(t); err != nil {
				return nil, err
			}
			info, err := SceneInfo(live.Scene())
			if err != nil {
				return nil, err
			}
			info["loaded"] = map[string]any{"rows": t.Rows, "cols": t.Cols, "values": t.Len()}
			return info, nil
		},
		// frameCount() -> frames drawn so far (0 without a screen).
		"frameCount": func(args []js.Value) (any, error) {
			if fc, ok := live.(interface{ Frames() int }); ok {
				return fc.Frames(), nil
			}
			return 0, nil
		},
	}
}
