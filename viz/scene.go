// Package viz holds the seven visualizations of fp8lab as deterministic
// renderers: each Scene is a pure function of its parameters to an
// *image.RGBA, testable without a display and exportable as PNG. The ebiten
// shell in viz/app and the browser playground drive the same Scenes.
package viz

import (
	"fmt"
	"image"
	"sort"
	"strings"
)

// ParamKind says how a parameter is edited.
type ParamKind string

// The kinds of parameters a scene exposes.
const (
	ParamChoice ParamKind = "choice" // one of Options
	ParamNumber ParamKind = "number" // a float in [Min, Max] with Step
	ParamInt    ParamKind = "int"    // an integer in [Min, Max] with Step
	ParamBool   ParamKind = "bool"   // "true" or "false"
	ParamText   ParamKind = "text"   // free text, e.g. a value to encode
)

// Param describes one control of a scene. Values travel as strings so that
// the CLI (--param k=v), the desktop app and JavaScript share one encoding.
type Param struct {
	Name    string    `json:"name"`
	Label   string    `json:"label"`
	Kind    ParamKind `json:"kind"`
	Options []string  `json:"options,omitempty"`
	Min     float64   `json:"min,omitempty"`
	Max     float64   `json:"max,omitempty"`
	Step    float64   `json:"step,omitempty"`
	Default string    `json:"default"`
	Help    string    `json:"help,omitempty"`
}

// Scene is one visualization. Implementations are not safe for concurrent
// use; make one per goroutine.
type Scene interface {
	// Name is the scene's CLI name, e.g. "explorer".
	Name() string
	// Title is a short human title.
	Title() string
	// Params lists the controls with their defaults.
	Params() []Param
	// Set changes one parameter; an unknown name or a bad value is an error
	// and leaves the scene unchanged.
	Set(name, value string) error
	// Get returns a parameter's current value.
	Get(name string) (string, error)
	// Render draws the scene for the current parameters into dst, filling all
	// of it. Same parameters and size give identical pixels.
	Render(dst *image.RGBA) error
	// Click handles a click at (x, y) in a picture of size (w, h) as last
	// rendered; it reports whether a parameter changed.
	Click(x, y, w, h int) bool
	// Facts returns the numbers the scene shows, computed by the library,
	// keyed by a stable name (e.g. "value": "448"), for explanations beside
	// the picture and for tests.
	Facts() map[string]string
}

var registry = map[string]func() Scene{}

// register adds a scene constructor; each scene's file calls it from init.
func register(name string, fn func() Scene) { registry[name] = fn }

// Names returns the names of all scenes in a stable teaching order.
func Names() []string {
	order := map[string]int{"explorer": 0, "range": 1, "window": 2, "granularity": 3, "hadamard": 4, "dither": 5, "delayed": 6}
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		oi, iok := order[names[i]]
		oj, jok := order[names[j]]
		if iok != jok {
			return iok
		}
		if oi != oj {
			return oi < oj
		}
		return names[i] < names[j]
	})
	return names
}

// New returns a fresh scene with default parameters.
func New(name string) (Scene, error) {
	fn, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("viz: unknown scene %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return fn(), nil
}

// SetAll applies name=value pairs in order and stops at the first error.
func SetAll(s Scene, params map[string]string) error {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := s.Set(k, params[k]); err != nil {
			return err
		}
	}
	return nil
}
