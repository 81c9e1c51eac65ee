package viz

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fp8lab/fp8lab/internal/testenv"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden PNG files in testdata/")

// Golden pictures are small (640×360) to keep the repository light; they
// are rendered with each scene's default parameters.
const goldenW, goldenH = 640, 360

// goldenArch is where the golden files are made. Rendering is pure Go and
// deterministic, but other architectures may fuse multiply-adds in the
// rasterizer and move a few anti-aliased edge pixels by a level or two:
// there the comparison allows small differences.
const goldenArch = "amd64"

func decodePNG(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err, "golden file missing; run go test ./viz -run TestGolden -update")
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	return out
}

// pixelDiff counts the pixels that differ, and the largest difference of
// one channel.
func pixelDiff(a, b *image.RGBA) (n int, worst int, first image.Point) {
	first = image.Pt(-1, -1)
	for i := 0; i+3 < len(a.Pix); i += 4 {
		d := 0
		for c := 0; c < 4; c++ {
			d = max(d, abs(int(a.Pix[i+c])-int(b.Pix[i+c])))
		}
		if d > 0 {
			if n == 0 {
				first = image.Pt(i/4%a.Rect.Dx(), i/4/a.Rect.Dx())
			}
			n++
			worst = max(worst, d)
		}
	}
	return n, worst, first
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestGolden(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			checkPicture(t, name, nil, filepath.Join("testdata", name+".png"), goldenW, goldenH,
				"regenerate with -update if the change is intended")
		})
	}
}

// The slides-ready figures of docs/figures are 1280×720 renders with
// default parameters, made by `go tool task figures`.
const figureW, figureH = 1280, 720

// TestFiguresAreCurrent checks that every scene's figure in docs/figures
// is what the scene draws today: a figure left behind by a change to the
// scene shows the workshop a picture the product no longer makes.
func TestFiguresAreCurrent(t *testing.T) {
	if *update {
		t.Skip("figures are written by go tool task figures, not -update")
	}
	b, err := os.ReadFile(filepath.Join("..", "docs", "figures", "settings.json"))
	require.NoError(t, err)
	var settings map[string]map[string]string
	require.NoError(t, json.Unmarshal(b, &settings))
	for name := range settings {
		assert.Contains(t, Names(), name, "docs/figures/settings.json names a scene that is not in the catalog")
	}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			checkPicture(t, name, settings[name], filepath.Join("..", "docs", "figures", name+".png"), figureW, figureH,
				"regenerate with go tool task figures ("+testenv.Step("Add a scene", 8)+")")
		})
	}
}

// checkPicture compares the scene's w×h render with params (default
// parameters otherwise) to the PNG at path (rewriting it under -update when it is a golden of
// testdata), exactly on goldenArch and up to a few faint edge pixels
// elsewhere; fix says how to bring the file up to date.
func checkPicture(t *testing.T, name string, params map[string]string, path string, w, h int, fix string) {
	_, img, err := Render(name, params, w, h)
	require.NoError(t, err)
	if *update {
		var buf bytes.Buffer
		require.NoError(t, WritePNG(&buf, img))
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		t.Logf("wrote %s (%d bytes)", path, buf.Len())
		return
	}
	want := decodePNG(t, path)
	require.Equal(t, want.Rect, img.Rect)
	n, worst, first := pixelDiff(want, img)
	if n == 0 {
		return
	}
	msg := fmt.Sprintf("%s differs from %s in %d pixels (largest channel difference %d, first at %v); render it with 'fp8lab render %s --width %d --height %d -o /tmp/%s.png' and %s",
		name, path, n, worst, first, name, w, h, name, fix)
	if runtime.GOARCH == goldenArch {
		t.Fatal(msg)
	}
	// Elsewhere: a few faint edge pixels may move.
	if n > w*h/500 || worst > 48 {
		t.Fatal(msg)
	}
	t.Logf("tolerated on %s: %s", runtime.GOARCH, msg)
}
