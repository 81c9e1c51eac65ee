package viz

import "github.com/fp8lab/fp8lab/viz/draw"

var (
	drawSplitColumns = draw.SplitColumns
	drawGridCells    = draw.GridCells
)
