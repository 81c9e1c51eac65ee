//go:build js && wasm

// Command core is fp8lab's small WebAssembly module: the JavaScript API over
// fp8, scaling, dither and the viz scenes (rendered to pixel arrays), without
// ebiten. The pages' own scripts load it (site/static/js/fp8lab.js) to fill
// their explanations with numbers computed by the library; the Node tests of
// the API run it too. Its live scene is headless.
package main

import (
	"fmt"
	"os"
	"syscall/js"

	"github.com/fp8lab/fp8lab/internal/jsapi"
	"github.com/fp8lab/fp8lab/viz"
)

func main() {
	var live jsapi.Live
	if names := viz.Names(); len(names) > 0 {
		h, err := jsapi.NewHeadless(names[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, "fp8lab core:", err)
			os.Exit(1)
		}
		live = h
	}
	api := js.Global().Get("Object").New()
	jsapi.Register(api, live)
	api.Set("module", "core")
	jsapi.Ready(api)
	select {} // keep the Go runtime alive for the callbacks
}
