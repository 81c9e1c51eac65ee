package draw

import (
	"bytes"
	"flag"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	update  = flag.Bool("update", false, "rewrite the golden PNG files in testdata/")
	demoOut = flag.String("demo-out", "", "also write the demo figure to this PNG path (e.g. /tmp/draw-demo.png)")
)

const demoGolden = "testdata/demo.png"

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img))
	return buf.Bytes()
}

func decodeRGBA(t *testing.T, data []byte) *image.RGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	if rgba, ok := img.(*image.RGBA); ok {
		return rgba
	}
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	return out
}

func TestDemoGolden(t *testing.T) {
	img, err := renderDemo(1280, 720)
	require.NoError(t, err)
	if *demoOut != "" {
		require.NoError(t, os.WriteFile(*demoOut, encodePNG(t, img), 0o644))
	}
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(demoGolden), 0o755))
		require.NoError(t, os.WriteFile(demoGolden, encodePNG(t, img), 0o644))
		t.Logf("wrote %s", demoGolden)
	}
	data, err := os.ReadFile(demoGolden)
	require.NoError(t, err, "golden file missing; run go test ./viz/draw/ -run TestDemoGolden -update")
	want := decodeRGBA(t, data)
	require.Equal(t, want.Rect, img.Rect)
	if !bytes.Equal(want.Pix, img.Pix) {
		diff, first := 0, -1
		for i := 0; i < len(img.Pix); i += 4 {
			if !bytes.Equal(want.Pix[i:i+4], img.Pix[i:i+4]) {
				diff++
				if first < 0 {
					first = i / 4
				}
			}
		}
		w := img.Rect.Dx()
		t.Fatalf("demo figure differs from %s in %d pixels (first at x=%d y=%d); inspect with -demo-out and regenerate with -update if the change is intended",
			demoGolden, diff, first%w, first/w)
	}
}

func TestDemoIsDeterministic(t *testing.T) {
	a, err := renderDemo(640, 400)
	require.NoError(t, err)
	b, err := renderDemo(640, 400)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(a.Pix, b.Pix), "two renders of the same figure differ")
}

func TestBenchFigureIsDeterministic(t *testing.T) {
	xs, ys, grid := benchData()
	a := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	b := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	require.NoError(t, renderBenchFigure(a, xs, ys, grid))
	require.NoError(t, renderBenchFigure(b, xs, ys, grid))
	assert.True(t, bytes.Equal(a.Pix, b.Pix))
}

func benchData() (xs, ys []float64, grid [][]float64) {
	xs = make([]float64, 1000)
	ys = make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(i)
		ys[i] = math.Sin(float64(i)/40) + 0.3*math.Sin(float64(i)*0.9)
	}
	grid = make([][]float64, 64)
	for i := range grid {
		grid[i] = make([]float64, 64)
		for j := range grid[i] {
			grid[i][j] = math.Sin(float64(i)/7) * math.Cos(float64(j)/5)
		}
	}
	return xs, ys, grid
}

func BenchmarkFigure1280x720(b *testing.B) {
	xs, ys, grid := benchData()
	img := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	b.ReportAllocs()
	for b.Loop() {
		if err := renderBenchFigure(img, xs, ys, grid); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
}
