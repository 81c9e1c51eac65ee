package viz

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"testing"

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
			_, img, err := Render(name, nil, goldenW, goldenH)
			require.NoError(t, err)
			path := filepath.Join("testdata", name+".png")
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
			msg := fmt.Sprintf("%s differs from %s in %d pixels (largest channel difference %d, first at %v); render it with 'fp8lab render %s --width %d --height %d -o /tmp/%s.png' and regenerate with -update if the change is intended",
				name, path, n, worst, first, name, goldenW, goldenH, name)
			if runtime.GOARCH == goldenArch {
				t.Fatal(msg)
			}
			// Elsewhere: a few faint edge pixels may move.
			if n > goldenW*goldenH/500 || worst > 48 {
				t.Fatal(msg)
			}
			t.Logf("tolerated on %s: %s", runtime.GOARCH, msg)
		})
	}
}
