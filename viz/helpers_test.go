package viz

import (
	"image"
	"testing"

	"github.com/fp8lab/fp8lab/viz/plot"
	"github.com/fp8lab/fp8lab/viz/plot/plottest"
	"github.com/stretchr/testify/require"
)

var (
	drawSplitColumns = plot.SplitColumns
	drawGridCells    = plot.GridCells
)

// renderRecorded renders s into a new picture of bounds r for display d,
// requiring no error (msgAndArgs say which setting), and returns the
// picture with every text it drew (plottest.RecordText).
func renderRecorded(t *testing.T, s Scene, r image.Rectangle, d Display, msgAndArgs ...any) (*image.RGBA, []plottest.TextBox) {
	t.Helper()
	img := image.NewRGBA(r)
	var err error
	boxes := plottest.RecordText(img, func() { err = RenderFor(s, img, d) })
	require.NoError(t, err, msgAndArgs...)
	return img, boxes
}
