package jsapi

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/tensorio"
	"github.com/fp8lab/fp8lab/viz"
)

// MaxRenderSide bounds the width and height of a rendered scene.
const MaxRenderSide = 4096

// Live is the scene on screen that the live functions (currentScene,
// setScene, setParam, getParam) act on: the ebiten game in the playground
// module, a Headless scene in the core module and in tests.
type Live interface {
	// Scene returns the scene being shown.
	Scene() viz.Scene
	// SetScene shows the scene of that name instead (the playground keeps
	// the parameters each scene had when it was last shown; Headless starts
	// afresh).
	SetScene(name string) error
	// SetParam changes one parameter of the scene being shown.
	SetParam(name, value string) error
	// LoadTensor shows t in the scene being shown, which must be a
	// viz.TensorLoader, and redraws it even when no parameter changes (a
	// second file chosen with the same parameters must replace the first
	// picture). It is part of Live, not found by a type assertion, so that
	// a wrapper of the playground's game cannot hide it and fall back to the
	// scene itself, which the screen would not know has changed.
	LoadTensor(t *scaling.Tensor) error
	// TrainElsewhere and FeedTraining reach a viz.RemoteTrainer scene (the
	// training scene, whose live run a page trains in a Web Worker); like
	// LoadTensor they are part of Live so that the playground's screen
	// knows the scene changed.
	TrainElsewhere() error
	FeedTraining(u viz.TrainingUpdate) error
}

// Headless is a Live without a screen: a scene and nothing else. It is not
// safe for concurrent use.
type Headless struct {
	scene viz.Scene
}

// NewHeadless returns a Headless showing a fresh scene of that name.
func NewHeadless(name string) (*Headless, error) {
	s, err := viz.New(name)
	if err != nil {
		return nil, err
	}
	return &Headless{scene: s}, nil
}

// Scene implements Live.
func (h *Headless) Scene() viz.Scene {
	if h == nil {
		return nil
	}
	return h.scene
}

// errNoScene is the error of a call that needs a scene and has none (a
// Headless not made by NewHeadless, a nil scene).
var errNoScene = errors.New("no scene (a Headless must come from NewHeadless)")

// SetScene implements Live.
func (h *Headless) SetScene(name string) error {
	if h == nil {
		return errNoScene
	}
	s, err := viz.New(name)
	if err != nil {
		return err
	}
	h.scene = s
	return nil
}

// SetParam implements Live.
func (h *Headless) SetParam(name, value string) error {
	if err := checkParamName(name); err != nil {
		return err
	}
	if h.Scene() == nil {
		return errNoScene
	}
	return h.scene.Set(name, value)
}

// ReadTensor parses an uploaded tensor file through package tensorio (the
// format is told by content: .npy, CSV, safetensors or .npz), with at most
// MaxElements values; name, the file's name, prefixes errors. tensorName
// picks one tensor of a file of several; empty, the file must hold only
// one, and the error for one of several lists their names (see
// tensorio.Select). Only the picked tensor is decoded.
func ReadTensor(data []byte, name, tensorName string) (*scaling.Tensor, error) {
	a, err := tensorio.Open(bytes.NewReader(data), int64(len(data)), name, tensorio.Limits{MaxElements: MaxElements})
	if err != nil {
		return nil, err
	}
	t, err := tensorio.Select([]*tensorio.Archive{a}, tensorName)
	if errors.Is(err, tensorio.ErrNoTensor) && tensorName == "" {
		err = fmt.Errorf("%w; pass its name as loadTensor's third argument", err)
	}
	return t, err
}

// errFileParam answers a "file" parameter: inside WebAssembly there are no
// file paths (reading one from a callback would block the Go runtime).
var errFileParam = errors.New(`scenes take no file paths: pass the file's bytes (a Uint8Array) to loadTensor(bytes, filename)`)

// checkParamName refuses the "file" parameter with errFileParam.
func checkParamName(name string) error {
	if name == "file" {
		return errFileParam
	}
	return nil
}

// LoadTensor implements Live: a Headless has no screen to tell.
func (h *Headless) LoadTensor(t *scaling.Tensor) error { return loadInto(h.Scene(), t) }

// TrainElsewhere implements Live.
func (h *Headless) TrainElsewhere() error { return trainElsewhere(h.Scene()) }

// FeedTraining implements Live.
func (h *Headless) FeedTraining(u viz.TrainingUpdate) error { return feedTraining(h.Scene(), u) }

// remoteTrainer returns s as a viz.RemoteTrainer, or says it is not one.
func remoteTrainer(s viz.Scene) (viz.RemoteTrainer, error) {
	if s == nil {
		return nil, errNoScene
	}
	r, ok := s.(viz.RemoteTrainer)
	if !ok {
		return nil, fmt.Errorf("scene %s does not train (training does)", s.Name())
	}
	return r, nil
}

func trainElsewhere(s viz.Scene) error {
	r, err := remoteTrainer(s)
	if err == nil {
		r.TrainElsewhere()
	}
	return err
}

func feedTraining(s viz.Scene, u viz.TrainingUpdate) error {
	r, err := remoteTrainer(s)
	if err != nil {
		return err
	}
	return r.FeedTraining(u)
}

// loadInto hands t to s, a viz.TensorLoader, or says which scenes can take
// a tensor.
func loadInto(s viz.Scene, t *scaling.Tensor) error {
	if s == nil {
		return errNoScene
	}
	l, ok := s.(viz.TensorLoader)
	if !ok {
		return fmt.Errorf("scene %s cannot show a tensor from a file (%s can)", s.Name(), strings.Join(viz.TensorScenes(), ", "))
	}
	return l.LoadTensor(t)
}

// formatNumber writes a JavaScript number as a parameter value: a whole
// number in full (1048576, not Go's %v 1.048576e+06), anything else in the
// shortest form that reads back exactly.
func formatNumber(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// SceneList returns name and title of every scene, in teaching order.
func SceneList() ([]any, error) {
	var out []any
	for _, n := range viz.Names() {
		s, err := viz.New(n)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"name": s.Name(), "title": s.Title()})
	}
	return out, nil
}

// NewScene makes a scene and applies params to it in sorted order.
func NewScene(name string, params map[string]string) (viz.Scene, error) {
	if _, ok := params["file"]; ok {
		return nil, errFileParam
	}
	s, err := viz.New(name)
	if err != nil {
		return nil, err
	}
	if err := viz.SetAll(s, params); err != nil {
		return nil, err
	}
	return s, nil
}

// SceneInfo describes a scene as plain values: name, title, params (each
// viz.Param with its current value added as "value"), facts, explanation
// (the paragraphs of viz.Scene.Explain, as an array of strings), problems
// (viz.Problems: for a control whose value another control's change left
// unusable, why, shown beside that control), and tensorInput, true when the scene can show a tensor from a file (through
// loadTensor), so that a page offers a file picker.
func SceneInfo(s viz.Scene) (map[string]any, error) {
	if s == nil {
		return nil, errNoScene
	}
	var params []any
	for _, p := range s.Params() {
		m, err := Plain(p)
		if err != nil {
			return nil, err
		}
		v, err := s.Get(p.Name)
		if err != nil {
			return nil, fmt.Errorf("scene %s: %w", s.Name(), err)
		}
		pm := m.(map[string]any)
		pm["value"] = v
		// Plain drops empty fields (omitempty); make min, max and step
		// always present for numeric controls.
		if p.Kind == viz.ParamNumber || p.Kind == viz.ParamInt {
			pm["min"], pm["max"], pm["step"] = p.Min, p.Max, p.Step
		}
		params = append(params, pm)
	}
	if params == nil {
		params = []any{}
	}
	facts := map[string]any{}
	for k, v := range s.Facts() {
		facts[k] = v
	}
	explanation := []any{}
	for _, p := range s.Explain().Paragraphs() {
		explanation = append(explanation, p)
	}
	problems := map[string]any{}
	for k, v := range viz.Problems(s) {
		problems[k] = v
	}
	_, tensorInput := s.(viz.TensorLoader)
	return map[string]any{"name": s.Name(), "title": s.Title(), "params": params, "facts": facts,
		"explanation": explanation, "problems": problems, "tensorInput": tensorInput}, nil
}

// Render draws s at width × height and returns its RGBA pixels, row by row
// (the layout of a canvas ImageData).
func Render(s viz.Scene, width, height int) ([]byte, error) {
	if s == nil {
		return nil, errNoScene
	}
	if width < 1 || height < 1 || width > MaxRenderSide || height > MaxRenderSide {
		return nil, fmt.Errorf("width and height must be in [1, %d], got %d×%d", MaxRenderSide, width, height)
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	if err := s.Render(img); err != nil {
		return nil, err
	}
	return img.Pix, nil
}
