//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
)

// listen connects the page to the player: the canvas's pointer events
// queue clicks (in screen pixels: the canvas's backing store, which the
// game's layout matches), a resize schedules a frame, and
// globalThis.fp8labSetPresentation(on) sets presentation mode;
// globalThis.fp8labSettled() reports whether the canvas shows every change
// made so far (for tests: no frame is drawn while nothing changes).
func listen(p *player) {
	doc := js.Global().Get("document")
	canvas := doc.Call("querySelector", "canvas")
	if canvas.Truthy() {
		button := func(down bool) js.Func {
			return js.FuncOf(func(this js.Value, args []js.Value) any {
				ev := args[0]
				if ev.Get("button").Int() != 0 {
					return nil
				}
				r := canvas.Call("getBoundingClientRect")
				rw, rh := r.Get("width").Float(), r.Get("height").Float()
				if rw <= 0 || rh <= 0 {
					return nil
				}
				x := (ev.Get("clientX").Float() - r.Get("left").Float()) * canvas.Get("width").Float() / rw
				y := (ev.Get("clientY").Float() - r.Get("top").Float()) * canvas.Get("height").Float() / rh
				p.QueueButton(int(x), int(y), down)
				return nil
			})
		}
		canvas.Call("addEventListener", "pointerdown", button(true))
		js.Global().Call("addEventListener", "pointerup", button(false))
	}
	js.Global().Call("addEventListener", "resize", js.FuncOf(func(js.Value, []js.Value) any {
		ebiten.ScheduleFrame()
		return nil
	}))
	js.Global().Set("fp8labSetPresentation", js.FuncOf(func(this js.Value, args []js.Value) any {
		p.SetPresentation(len(args) > 0 && args[0].Truthy())
		return nil
	}))
	js.Global().Set("fp8labSettled", js.FuncOf(func(js.Value, []js.Value) any {
		return p.Settled() && p.Frames() > 0
	}))
}

// wakeLoop calls globalThis.fp8labWake (site/static/js/canvas.js): while
// the canvas shows every change, the page parks ebiten's
// requestAnimationFrame loop, so that an idle scene costs no frames at all;
// a scheduled frame restarts it.
func wakeLoop() {
	if w := js.Global().Get("fp8labWake"); w.Type() == js.TypeFunction {
		w.Invoke()
	}
}
