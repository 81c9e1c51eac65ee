// Package viz holds the visualizations of fp8lab as deterministic
// renderers: each Scene is a pure function of its parameters to an
// *image.RGBA, testable without a display and exportable as PNG. The ebiten
// shell in viz/app and the browser playground drive the same Scenes.
//
// # Files
//
// A scene NAME of the catalog lives in NAME.go (the scene), NAME_draw.go
// (drawing past a few hundred lines), NAME_explain.go (its Explain) and,
// where one concept of it needs a file of its own, NAME_PART.go
// (range_lanes.go, training_ref.go). Its tests are NAME_test.go and
// sweep_NAME_test.go. Every other file is shared by the scenes and listed
// here (TestFilesFollowTheNamingRule keeps this list and the directory in
// step):
//
//	scene.go       the Scene interface, its parameters and the catalog
//	scene_base.go  the embedded base: Name, Title, Params, Get
//	params.go      parsing and storing parameter values
//	tensors.go     the synthetic and loaded tensors scenes show
//	frame.go       the sizes a scene lays out at, the title bar, error panels
//	style.go       text and stroke sizes of one render, panels and axes
//	display.go     the display drawn for: pixel ratio, presentation, RenderFor
//	render.go      rendering by name, size limits, PNG output
//	explain.go     reading Facts and joining words for explanations
//	numbers.go     how numbers are written on the picture and in sentences
//	tickscale.go   an axis scale with given ticks
package viz
