// Package site holds the static files of the fp8lab playground: the home
// page, the scene pages, the canvas page that runs the ebiten scenes, the
// style sheet and the scripts. The WebAssembly modules and Go's
// wasm_exec.js are not here: `fp8lab serve` builds them (see
// internal/wasmbuild) and serves them next to these files.
package site

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// FS returns the site's files, rooted at the folder that holds index.html,
// with the pages that list the scenes (Pages) generated from viz's catalog.
func FS() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil { // impossible: "static" is a valid, embedded folder
		return static
	}
	pagesOnce.Do(func() { pages, pagesErr = renderPages(sub) })
	return overlay{FS: sub, files: pages, err: pagesErr}
}
