// Package plot holds the deterministic 2-D plotting primitives that the
// fp8lab visualisation scenes are built from.
//
// Everything renders into an *image.RGBA with pure Go code (no cgo, no
// ebiten), so the same calls work in tests, in the CLI, in the desktop app and
// in the browser (GOOS=js). Rendering is deterministic: the same inputs give
// the same pixels, byte for byte, on the same platform.
//
// The package is organised in layers:
//
//   - palette.go, theme.go: Okabe–Ito categorical colours, the viridis and
//     blue–white–red colour maps, and the light projector theme.
//   - font.go: text measurement and drawing with the Go fonts, including text
//     rotated by 90° for y-axis labels.
//   - raster.go, vector.go, marker.go: filled and stroked rectangles, crisp
//     pixel lines, anti-aliased lines, polylines, dashes, polygons, circles and
//     markers.
//   - scale.go, ticks.go: data-to-pixel scales (linear, log2, log10, band) and
//     "nice" tick generation and formatting.
//   - axes.go, series.go, marks.go, heatmap.go, colorbar.go, image.go,
//     legend.go: an [Axes] helper that draws the frame, grid, ticks and
//     labels, and the plot types drawn inside it and beside it.
//   - occupancy.go: the pixels of the plot area that hold data, recorded by
//     every mark an [Axes] draws, so that [Axes.Legend], the labels of
//     markers and bands and [Axes.Note] hide none of them (declared legends
//     go in a strip above the plot, see AxesOptions).
//   - layout.go: splitting a canvas into panels.
//   - observed.go: what the drawing tells the observers of
//     internal/observe, which viz/plot/plottest installs in tests (the texts
//     drawn into a picture, every Axes drawn, every legend and label placed).
//     It changes no pixel, and with nobody listening costs an atomic load.
//
// Clipping works through sub-images: every primitive draws only inside
// dst.Bounds(), so drawing into dst.SubImage(r) clips to r. [Axes.Clip] gives
// the sub-image of the plot area.
//
// Each plot type has an example (example_test.go) whose picture is kept in
// testdata/ and checked by TestExampleGoldens; regenerate the pictures with
// go test -run TestExampleGoldens -update.
//
// Colours are color.RGBA values, which are alpha-premultiplied; use
// [WithAlpha] to make a translucent colour from an opaque one.
package plot
