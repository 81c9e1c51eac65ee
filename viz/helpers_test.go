package viz

import "github.com/fp8lab/fp8lab/viz/plot"

var (
	drawSplitColumns = plot.SplitColumns
	drawGridCells    = plot.GridCells
)
