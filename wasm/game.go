//go:build js && wasm

package main

import "github.com/fp8lab/fp8lab/viz/app"

// newGame returns viz/app's ebiten game showing the named scene, without its
// tab bar and control panel: the scene page's HTML controls replace them.
// The canvas's pointer events feed its clicks (see listen); every frame
// it schedules restarts the page's frame loop (wakeLoop).
func newGame(name string) (game, error) {
	return app.NewWithOptions(name, app.Options{HidePanel: true, ExternalPointer: true, Wake: wakeLoop})
}
