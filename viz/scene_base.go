package viz

import "image"

// sceneBase is what every scene shares, embedded in each: its name and
// title, its parameters (Params and Get; Set stays the scene's, since it
// recomputes what the parameter changes) and Render, which draws through
// the scene's render for the default display. RenderFor passes other
// displays to render directly, so that a picture is a function of the
// scene's parameters, its size and the display alone.
type sceneBase struct {
	name, title string
	ps          *paramSet
	draw        func(dst *image.RGBA, d Display) error
}

// sceneDrawer is a scene as newScene completes it.
type sceneDrawer interface {
	base() *sceneBase
	render(dst *image.RGBA, d Display) error
}

// newScene ties s's Render to its render and returns s.
func newScene[S sceneDrawer](s S) S {
	s.base().draw = s.render
	return s
}

func (b *sceneBase) base() *sceneBase { return b }

// Name returns the scene's CLI name, e.g. "explorer".
func (b *sceneBase) Name() string { return b.name }

// Title returns the scene's short human title.
func (b *sceneBase) Title() string { return b.title }

// Params returns the scene's controls with their defaults.
func (b *sceneBase) Params() []Param { return b.ps.Params() }

// Get returns a parameter's current value.
func (b *sceneBase) Get(name string) (string, error) { return b.ps.Get(name) }

// Render draws the scene into dst for the default display (Display{}).
func (b *sceneBase) Render(dst *image.RGBA) error { return b.draw(dst, Display{}) }

// renderFor draws the scene into dst for display d.
func (b *sceneBase) renderFor(dst *image.RGBA, d Display) error { return b.draw(dst, d) }
