package viz

import (
	"image"
	"strconv"
	"testing"
	"time"

	"github.com/fp8lab/fp8lab/internal/testenv"
)

// benchW×benchH is the frame size the desktop app targets.
const benchW, benchH = 1280, 720

// BenchmarkRender measures one frame of each scene at 1280×720 with
// unchanged parameters: what a frame costs when the picture has to be
// drawn again (a resize, a scene switch) but the numbers are cached.
func BenchmarkRender(b *testing.B) {
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			s, err := New(name)
			if err != nil {
				b.Fatal(err)
			}
			img := image.NewRGBA(image.Rect(0, 0, benchW, benchH))
			if err := s.Render(img); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			c0 := testenv.ProcessCPU()
			for range b.N {
				if err := s.Render(img); err != nil {
					b.Fatal(err)
				}
			}
			reportFrame(b, c0)
		})
	}
}

// sliders is, for each scene, the parameter a user drags and two values
// it moves between: every frame of BenchmarkRenderChanging recomputes what
// that parameter changes, as dragging a slider does.
var sliders = map[string][3]string{
	"explorer":    {"code", "125", "126"},
	"range":       {"focus", "E5M2", "none"},
	"window":      {"scale", "1", "0"},
	"granularity": {"outlier_rows", "4", "3"},
	"hadamard":    {"outlier", "7", "6"},
	"dither":      {"frames", "", ""}, // grows by one frame per frame, as animated
	"delayed":     {"spike_at", "81", "80"},
	"stochastic":  {"x", "1.1", "1.05"},
	"gpu":         {"operands", "positive", "signed"},
	"training":    {"inspect", "3", "2"},
}

// BenchmarkRenderChanging measures a frame at 1280×720 when a parameter
// changed since the last one: the cost of one frame while a slider moves.
func BenchmarkRenderChanging(b *testing.B) {
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			s, err := New(name)
			if err != nil {
				b.Fatal(err)
			}
			img := image.NewRGBA(image.Rect(0, 0, benchW, benchH))
			if err := s.Render(img); err != nil {
				b.Fatal(err)
			}
			sl := sliders[name]
			b.ReportAllocs()
			b.ResetTimer()
			c0 := testenv.ProcessCPU()
			for i := range b.N {
				v := sl[1+i%2]
				if name == "dither" {
					v = strconv.Itoa(1 + i%ditherMaxFrames)
				}
				if err := s.Set(sl[0], v); err != nil {
					b.Fatal(err)
				}
				if err := s.Render(img); err != nil {
					b.Fatal(err)
				}
			}
			reportFrame(b, c0)
		})
	}
}

// reportFrame reports the wall time per frame, and the CPU time per frame
// (all threads), which a busy shared machine inflates much less.
func reportFrame(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
	if c := testenv.ProcessCPU() - c0; c > 0 {
		b.ReportMetric(float64(c.Microseconds())/1000/float64(b.N), "cpu-ms/frame")
	}
}
