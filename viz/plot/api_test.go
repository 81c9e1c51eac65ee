package plot

import (
	"testing"

	"github.com/fp8lab/fp8lab/internal/apitest"
)

// TestAPIOnZeroValues: every exported function and method, called with
// nil, zero, one-element and out-of-range arguments (and on nil and zero
// receivers), returns instead of panicking (issue 26 item 8; see
// internal/apitest).
func TestAPIOnZeroValues(t *testing.T) {
	apitest.Check(t, apitest.API{
		Types: []any{(*Axes)(nil), BandScale{}, (*ColorMap)(nil), Font(0), Insets{}, LinearScale{}, LogScale{}, Marker(0), TextExtent{}},
		Funcs: []any{Categorical, Clear, DashedHLine, DashedLine, DashedPolyline, DashedVLine, DrawColorBar, DrawHeatmap, DrawImagePanel,
			DrawInlineLegend, DrawLegend, DrawMarker, DrawMarkers, DrawText, DrawTextRotated, DrawTitleBar, FillCircle, FillPolygon, FillRect,
			FormatPow10, FormatPow2, FormatTick, GridCells, HLine, Hex, Inset, LightTheme, Line, LinearTicks, MeasureInlineLegend, MeasureText,
			Mix, NewAxes, NewBand, NewCanvas, NewColorMap, NewFace, NewLinear, NewLog10, NewLog2, NiceStep,
			Polyline, Pt, SplitColumns, SplitRows, StrokeCircle, StrokeRect, Superscript, SymmetricRange, TitleBar, UniformInsets, VLine, ValueRange, WithAlpha, WrapText},
	})
}
