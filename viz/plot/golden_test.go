package plot_test

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden PNG files in testdata/ from the examples")

// out is where the examples write their PNG: nowhere when they run as
// examples, a buffer when a golden test runs them.
var out io.Writer = io.Discard

// plotTypes names each example's plot type and its golden file,
// testdata/NAME.png.
var plotTypes = []struct {
	name    string // the golden file's name, without .png
	what    string // the plot type, for messages
	example func()
}{
	{"line", "line plot (Axes.Line)", ExampleAxes_Line},
	{"step", "step plot (Axes.Step)", ExampleAxes_Step},
	{"scatter", "scatter plot (Axes.Scatter)", ExampleAxes_Scatter},
	{"histogram", "histogram (Axes.Histogram)", ExampleAxes_Histogram},
	{"bars", "bar chart (Axes.Bars)", ExampleAxes_Bars},
	{"heatmap", "heatmap (Axes.Heatmap)", ExampleAxes_Heatmap},
	{"colorbar", "colour bars (DrawColorBar)", ExampleDrawColorBar},
	{"legend", "boxed legends (DrawLegend)", ExampleDrawLegend},
	{"inline_legend", "inline legend (DrawInlineLegend)", ExampleDrawInlineLegend},
	{"bands_markers", "bands and markers (Axes.VBand, HBand, VMarker, HMarker, Text)", ExampleAxes_VBand},
	{"image_panel", "image panels (DrawImagePanel)", ExampleDrawImagePanel},
	{"title_bar", "title bar and grid layout (DrawTitleBar, GridCells)", ExampleDrawTitleBar},
}

// TestExampleGoldens runs every example and compares the picture it draws
// with its golden file. On a mismatch it writes the picture it got next to
// the golden file, as NAME.got.png, and names the plot type, the number of
// differing pixels and their bounding box.
func TestExampleGoldens(t *testing.T) {
	for _, pt := range plotTypes {
		t.Run(pt.name, func(t *testing.T) {
			got := runExample(t, pt.example)
			again := runExample(t, pt.example)
			require.Equal(t, got.Pix, again.Pix, "%s: two runs draw different pictures", pt.what)

			path := filepath.Join("testdata", pt.name+".png")
			gotPath := filepath.Join("testdata", pt.name+".got.png")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, encodePNG(t, got), 0o644))
				_ = os.Remove(gotPath)
				t.Logf("wrote %s", path)
				return
			}
			data, err := os.ReadFile(path)
			require.NoError(t, err, "%s: golden file missing; run go test ./viz/plot -run TestExampleGoldens -update", pt.what)
			want := decodeRGBA(t, data)
			n, box := diffPixels(want, got)
			if n == 0 {
				_ = os.Remove(gotPath)
				return
			}
			require.NoError(t, os.WriteFile(gotPath, encodePNG(t, got), 0o644))
			t.Fatalf("%s differs from %s: %d pixels differ within %v (golden %v, got %v); the picture drawn is in %s; "+
				"regenerate with go test ./viz/plot -run TestExampleGoldens -update if the change is intended",
				pt.what, path, n, box, want.Rect, got.Rect, gotPath)
		})
	}
}

// runExample runs an example with out captured (and its printed output
// discarded) and returns the picture it wrote.
func runExample(t *testing.T, example func()) *image.RGBA {
	t.Helper()
	var buf bytes.Buffer
	out = &buf
	stdout := os.Stdout
	devNull, err := os.Open(os.DevNull)
	require.NoError(t, err)
	os.Stdout = devNull
	defer func() {
		out, os.Stdout = io.Discard, stdout
		devNull.Close()
	}()
	example()
	require.NotZero(t, buf.Len(), "the example wrote no picture")
	return decodeRGBA(t, buf.Bytes())
}

// diffPixels counts the pixels that differ between a and b and returns
// their bounding box; pictures of different sizes differ everywhere.
func diffPixels(a, b *image.RGBA) (int, image.Rectangle) {
	if a.Rect != b.Rect {
		return a.Rect.Union(b.Rect).Dx() * a.Rect.Union(b.Rect).Dy(), a.Rect.Union(b.Rect)
	}
	n, box := 0, image.Rectangle{}
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		for x := a.Rect.Min.X; x < a.Rect.Max.X; x++ {
			if a.RGBAAt(x, y) != b.RGBAAt(x, y) {
				n++
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return n, box
}

func TestDiffPixels(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 10, 8))
	b := image.NewRGBA(image.Rect(0, 0, 10, 8))
	n, box := diffPixels(a, b)
	require.Zero(t, n)
	require.True(t, box.Empty())
	b.Pix[b.PixOffset(2, 3)] = 1
	b.Pix[b.PixOffset(6, 5)+3] = 9
	n, box = diffPixels(a, b)
	require.Equal(t, 2, n)
	require.Equal(t, image.Rect(2, 3, 7, 6), box)
	n, _ = diffPixels(a, image.NewRGBA(image.Rect(0, 0, 10, 9)))
	require.Equal(t, 90, n)
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img))
	return buf.Bytes()
}

func decodeRGBA(t *testing.T, data []byte) *image.RGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err, fmt.Sprintf("%d bytes of PNG", len(data)))
	if rgba, ok := img.(*image.RGBA); ok {
		return rgba
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, draw.Src)
	return rgba
}
