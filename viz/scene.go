package viz

import (
	"fmt"
	"image"
	"sort"
	"strings"

	"github.com/fp8lab/fp8lab/viz/claim"
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
	// MovedBy names the bool parameter while which is "true" the scene
	// changes this one by itself (an Animator's animation): a link to the
	// scene leaves this one out then, so that it reopens moving, as seen,
	// rather than stopped at the value the link was copied at.
	MovedBy string `json:"movedBy,omitempty"`
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
	// Explain returns the explanation shown beside the picture: paragraphs
	// built from typed claims decided on the scene's facts, the first of
	// them a one-sentence takeaway (see package claim).
	Explain() claim.Explanation
}

// ParamProblems is implemented by scenes whose controls can hold a value
// that a change of another control left unusable (a typed -3 after the
// format became the unsigned E8M0). Problems maps such a control to why
// its value is not used now; the surfaces show it beside that control, and
// it goes when either control changes to something that fits.
type ParamProblems interface {
	Problems() map[string]string
}

// Problems returns s's control problems, none for a scene that has no
// ParamProblems.
func Problems(s Scene) map[string]string {
	if p, ok := s.(ParamProblems); ok {
		return p.Problems()
	}
	return nil
}

// Info describes a scene for every surface that lists the scenes: the
// site's navigation, home-page cards and scene page, the desktop tabs, the
// CLI's help and the tests all derive from Scenes. A scene's title is its
// Title method.
type Info struct {
	// Name is the scene's CLI name, as Scene.Name returns it.
	Name string `json:"name"`
	// Label is a short name for navigation bars and tabs.
	Label string `json:"label"`
	// Summary says in one sentence what the scene shows.
	Summary string `json:"summary"`
}

// catalog is the one list of scenes, in teaching order. Adding a scene is
// adding its line here; every surface follows.
var catalog = []struct {
	info Info
	make func() Scene
}{
	{Info{"explorer", "Explorer",
		"Every code of a format, its bits and its value; where a number rounds."}, newExplorer},
	{Info{"range", "Range",
		"Where the values of each format lie on a log scale, and how far apart they are."}, newRange},
	{Info{"window", "Window",
		"A tensor's values against the format's window: what overflows, what underflows, what a scale changes."}, newWindow},
	{Info{"granularity", "Granularity",
		"One scale per tensor, row, tile, block or 32 values (MX): what each does to small values."}, newGranularity},
	{Info{"hadamard", "Hadamard",
		"How a rotation spreads an outlier across a block before quantization."}, newHadamard},
	{Info{"dither", "Dither",
		"Dithering a picture: detail that rounding to nearest erases comes back on average."}, newDither},
	{Info{"delayed", "Delayed scaling",
		"Scales from an amax history, and what a sudden spike does to them."}, newDelayed},
	{Info{"stochastic", "Stochastic rounding",
		"Rounding one value up or down at random: the exact odds, the bias of few random bits, and many draws."}, newStochastic},
	{Info{"training", "Training",
		"A small GPT trained live under up to three FP8 recipes: loss curves, per-layer amax and underflow."}, newTraining},
	{Info{"gpu", "GPU",
		"Measured on a real GPU: FP8 against BF16 products, kernel bandwidth, and fast accumulation beside its emulation."}, newGPU},
}

// Scenes returns the description of every scene in teaching order.
func Scenes() []Info {
	out := make([]Info, len(catalog))
	for i, c := range catalog {
		out[i] = c.info
	}
	return out
}

// Names returns the names of all scenes in teaching order.
func Names() []string {
	names := make([]string, len(catalog))
	for i, c := range catalog {
		names[i] = c.info.Name
	}
	return names
}

// New returns a fresh scene with default parameters.
func New(name string) (Scene, error) {
	for _, c := range catalog {
		if c.info.Name == name {
			return c.make(), nil
		}
	}
	return nil, fmt.Errorf("viz: unknown scene %q (known: %s)", name, strings.Join(Names(), ", "))
}

// SetAll applies name=value pairs in order and stops at the first error.
func SetAll(s Scene, params map[string]string) error {
	if s == nil {
		return fmt.Errorf("viz: SetAll needs a scene")
	}
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
