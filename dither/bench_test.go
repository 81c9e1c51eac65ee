package dither

import (
	"runtime"
	"testing"

	"github.com/fp8lab/fp8lab/fp8"
)

// BenchmarkDitherFrame times one 512×512 frame per method on one core (the
// browser goal is under 8 ms), onto 2 uniform levels and onto E4M3FN.
func BenchmarkDitherFrame(b *testing.B) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	img, err := Mystery(512, 512)
	if err != nil {
		b.Fatal(err)
	}
	out, _ := NewGray(512, 512)
	for _, target := range []struct {
		name string
		opts Options
	}{{"levels2", Options{Levels: 2}}, {"E4M3FN", Options{Format: fp8.E4M3FN}}} {
		for _, m := range Methods() {
			opts := target.opts
			opts.Method = m
			q, err := NewQuantizer(opts)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(target.name+"/"+m.String(), func(b *testing.B) {
				f := uint64(0)
				for b.Loop() {
					if err := q.Frame(out, img, f); err != nil {
						b.Fatal(err)
					}
					f++
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/frame")
			})
		}
	}
}
