package plot

import (
	"errors"
	"image/color"
)

// Errors returned for bad input. Functions wrap them with details; test with
// errors.Is.
var (
	ErrEmptyData      = errors.New("empty data")
	ErrLengthMismatch = errors.New("mismatched lengths")
	ErrBadDomain      = errors.New("bad domain")
	ErrBadArgument    = errors.New("bad argument")
	ErrTooSmall       = errors.New("area too small")
	ErrNilImage       = errors.New("nil destination image")
)

// Theme holds the colours and text sizes shared by axes, legends and
// panels.
type Theme struct {
	Background     color.RGBA // Canvas behind everything.
	PlotBackground color.RGBA // Inside the plot area.
	Foreground     color.RGBA // Text, ticks and default series colour.
	MutedText      color.RGBA // Secondary text: captions, marker labels.
	Grid           color.RGBA // Grid lines.
	Frame          color.RGBA // Plot frame and tick marks.
	LegendFill     color.RGBA // Legend box fill (may be translucent).

	TickSize  float64 // Tick labels, legend entries.
	LabelSize float64 // Axis labels.
	TitleSize float64 // Titles (bold).
	LineWidth float64 // Default series line width in pixels.
}

// LightTheme returns the default light theme, tuned for legibility on a
// projector: white background, near-black text, light grey grid, and text
// sizes for a 1280x720 canvas.
func LightTheme() Theme {
	return Theme{
		Background:     color.RGBA{0xff, 0xff, 0xff, 0xff},
		PlotBackground: color.RGBA{0xff, 0xff, 0xff, 0xff},
		Foreground:     color.RGBA{0x1a, 0x1a, 0x1a, 0xff},
		MutedText:      color.RGBA{0x55, 0x55, 0x55, 0xff},
		Grid:           color.RGBA{0xe3, 0xe3, 0xe3, 0xff},
		Frame:          color.RGBA{0x40, 0x40, 0x40, 0xff},
		LegendFill:     WithAlpha(color.RGBA{0xff, 0xff, 0xff, 0xff}, 0xe6),
		TickSize:       14,
		LabelSize:      16,
		TitleSize:      18,
		LineWidth:      2,
	}
}

// themeOrDefault returns *t, or LightTheme when t is nil.
func themeOrDefault(t *Theme) Theme {
	if t == nil {
		return LightTheme()
	}
	return *t
}

func (t Theme) tickStyle() TextStyle {
	return TextStyle{Font: FontRegular, Size: t.TickSize, Color: t.Foreground}
}

func (t Theme) labelStyle() TextStyle {
	return TextStyle{Font: FontRegular, Size: t.LabelSize, Color: t.Foreground}
}

func (t Theme) titleStyle() TextStyle {
	return TextStyle{Font: FontBold, Size: t.TitleSize, Color: t.Foreground}
}
