package ui

import (
	"image"
	"strconv"

	"github.com/fp8lab/fp8lab/viz"
)

// ControlPoint returns a point of the window whose click changes the
// parameter name of the current scene to another value (an option other
// than the current one that can be chosen now, a slider position away from
// the knob, the switch of a bool, the box of a text parameter), so that a
// test can drive the panel as a user would. It reports false when the
// panel is hidden or the parameter is unknown, scrolled out of view or has
// no other value that can be chosen now.
func (g *Shell) ControlPoint(name string) (image.Point, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.opts.HidePanel {
		return image.Point{}, false
	}
	L := g.layout()
	for _, w := range L.widgets {
		if w.p.Name != name {
			continue
		}
		var pt image.Point
		switch w.p.Kind {
		case viz.ParamChoice:
			for i, r := range w.opts {
				if w.p.Options[i] != w.value && !w.isOff(i) {
					pt = center(r)
					break
				}
			}
		case viz.ParamNumber, viz.ParamInt:
			// A fifth of the way in from the end farther from the knob.
			t := w.track
			mid := (t.Min.Y + t.Max.Y) / 2
			v, _ := strconv.ParseFloat(w.value, 64)
			pt = image.Pt(t.Max.X-t.Dx()/5, mid)
			if v > (w.p.Min+w.p.Max)/2 {
				pt = image.Pt(t.Min.X+t.Dx()/5, mid)
			}
		case viz.ParamBool:
			pt = center(w.toggle)
		default:
			pt = center(w.box)
		}
		return pt, L.shown(w) && pt.In(L.view) // only whole controls show, and take clicks
	}
	return image.Point{}, false
}

// TabPoint returns the centre of the tab of the scene called name.
func (g *Shell) TabPoint(name string) (image.Point, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.opts.HidePanel {
		return image.Point{}, false
	}
	for i, r := range tabRects(g.names, g.w) {
		if g.names[i] == name {
			return center(r), true
		}
	}
	return image.Point{}, false
}

func center(r image.Rectangle) image.Point {
	return image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
}
