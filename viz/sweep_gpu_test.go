package viz

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func init() {
	sweeps["gpu"] = sweepSpec{short: 0, truth: gpuTruth}
}

// gpuProductRE reads a product's result name: precision, shape, and fast
// accumulation for FP8; gpuDimsRE the shape's sides.
var (
	gpuProductRE = regexp.MustCompile(`^gemm (fp8 e4m3|bf16) (.+) -> bf16(?:, fast accum (on|off))?$`)
	gpuDimsRE    = regexp.MustCompile(`(?:^(\d+)³$)|(?: (\d+)x(\d+)x(\d+)$)`)
)

// gpuTruth recomputes the gpu scene's claims from the shipped run's JSON
// files, read generically: the products by the grammar of their names, the
// kernels against their goals, and the accumulation study beside
// emulated.json.
func gpuTruth(t *testing.T, s Scene) truths {
	run := mustGet(t, s, "run")
	dir := filepath.Join("..", "docs", "gpu", run)
	read := func(name string) map[string]any {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			return nil
		}
		require.NoError(t, err)
		var v map[string]any
		require.NoError(t, json.Unmarshal(b, &v))
		return v
	}
	num := func(m map[string]any, k string) float64 {
		v, _ := m[k].(float64)
		return v
	}
	tr := truths{}
	info, bench, accum, emulated := read("info.json"), read("bench.json"), read("accum.json"), read("emulated.json")
	if bench != nil {
		type prod struct{ fp8, bf16, work float64 }
		prods := map[string]*prod{}
		var order []string // shapes in the order measured: equal work keeps it
		kernels, met, missed := 0, 0, 0
		var worst, best, copyGBps float64 = math.Inf(1), 0, 0
		for _, r := range list(bench["results"]) {
			name := r["name"].(string)
			if name == "copy cuMemcpyDtoD (read + write)" {
				copyGBps = num(r, "gbps")
				continue
			}
			if oc := num(r, "of_copy"); oc > 0 {
				kernels++
				worst, best = math.Min(worst, oc), math.Max(best, oc)
				if g := num(r, "goal"); g > 0 {
					if oc >= g {
						met++
					} else {
						missed++
					}
				}
			}
			m := gpuProductRE.FindStringSubmatch(name)
			if m == nil || num(r, "tflops") <= 0 {
				continue
			}
			d := gpuDimsRE.FindStringSubmatch(m[2])
			if d == nil {
				continue
			}
			w := 0.0
			if d[1] != "" {
				n, _ := strconv.ParseFloat(d[1], 64)
				w = 2 * n * n * n
			} else {
				a, _ := strconv.ParseFloat(d[2], 64)
				b, _ := strconv.ParseFloat(d[3], 64)
				c, _ := strconv.ParseFloat(d[4], 64)
				w = 2 * a * b * c
			}
			p := prods[m[2]]
			if p == nil {
				p = &prod{work: w}
				prods[m[2]] = p
				order = append(order, m[2])
			}
			if m[1] == "bf16" {
				p.bf16 = num(r, "tflops")
			} else {
				p.fp8 = math.Max(p.fp8, num(r, "tflops"))
			}
		}
		var ps []*prod
		for _, name := range order {
			if p := prods[name]; p.fp8 > 0 && p.bf16 > 0 {
				ps = append(ps, p)
			}
		}
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].work < ps[j].work })
		if n := len(ps); n > 0 {
			faster := 0
			for _, p := range ps {
				if p.fp8/p.bf16 >= 1.1 {
					faster++
				}
			}
			lo, hi := ps[0], ps[n-1]
			tr["gpu.shapes"], tr["gpu.faster"] = n, float64(faster)
			tr["gpu.largest_speedup"], tr["gpu.smallest_speedup"] = hi.fp8/hi.bf16, lo.fp8/lo.bf16
			tr["gpu.largest_fp8_tflops"], tr["gpu.largest_bf16_tflops"] = hi.fp8, hi.bf16
			tr["gpu.smallest_speed"] = map[bool]string{true: "faster", false: "as fast"}[lo.fp8/lo.bf16 >= 1.1]
			if lo.fp8/lo.bf16 <= 1/1.1 {
				tr["gpu.smallest_speed"] = "slower"
			}
			tr["gpu.faster_at"] = map[bool]string{true: "all", false: "some"}[faster == n]
			if faster == 0 {
				tr["gpu.faster_at"] = "none"
			}
		}
		tr["gpu.kernels"], tr["gpu.goals"], tr["gpu.goals_met"], tr["gpu.goals_missed"] = kernels, met+missed, met, missed
		tr["gpu.kernel_worst"], tr["gpu.kernel_best"] = worst, best
		tr["gpu.copy_gbps"], tr["gpu.peak_gbps"] = copyGBps, num(info, "peak_gbps")
		tr["gpu.copy_of_peak"] = copyGBps / num(info, "peak_gbps")
	}
	if accum != nil {
		type row struct{ k, on, off, fast, prom float64 }
		byKind := map[string][]row{}
		fit := map[string]float64{"on": 1, "off": 1}
		for _, r := range list(accum["rows"]) {
			kind, k := r["operands"].(string), num(r, "k")
			x := row{k: k, on: num(r["device_fast_accum_on"].(map[string]any), "rel"), off: num(r["device_fast_accum_off"].(map[string]any), "rel")}
			if emulated != nil {
				for _, e := range list(emulated["rows"]) {
					if e["operands"] == kind && num(e, "k") == k {
						x.fast, x.prom = num(e["fast"].(map[string]any), "rel"), num(e["promoted"].(map[string]any), "rel")
					}
				}
				fit["on"] = math.Max(fit["on"], math.Max(x.fast/x.on, x.on/x.fast))
				fit["off"] = math.Max(fit["off"], math.Max(x.prom/x.off, x.off/x.prom))
			}
			byKind[kind] = append(byKind[kind], x)
		}
		for _, rows := range byKind {
			sort.Slice(rows, func(i, j int) bool { return rows[i].k < rows[j].k })
		}
		pos, sig := byKind["positive"], byKind["signed"]
		peak := pos[0]
		lo, hi := pos[0].off, pos[0].off
		for _, r := range pos {
			if r.on > peak.on {
				peak = r
			}
			lo, hi = math.Min(lo, r.off), math.Max(hi, r.off)
		}
		last := pos[len(pos)-1]
		tr["gpu.accum_first"], tr["gpu.accum_first_k"] = pos[0].on, pos[0].k
		tr["gpu.accum_peak"], tr["gpu.accum_peak_k"] = peak.on, peak.k
		tr["gpu.accum_last"], tr["gpu.accum_last_k"] = last.on, last.k
		tr["gpu.stops_growing"] = peak.k < last.k
		tr["gpu.off_lo"], tr["gpu.off_hi"], tr["gpu.off_spread"] = lo, hi, [2]float64{hi, lo}
		if len(sig) > 0 {
			sl := sig[len(sig)-1]
			tr["gpu.signed_last"], tr["gpu.signed_last_k"] = sl.on, sl.k
			tr["gpu.signed_factor"] = math.Max(last.on/sl.on, sl.on/last.on)
			tr["gpu.signed_vs_growing"] = [2]float64{last.on, sl.on}
		}
		if emulated != nil {
			tr["gpu.fit_on"], tr["gpu.fit_off"] = fit["on"], fit["off"]
			split := num(emulated["fast"].(map[string]any), "split_from")
			tr["gpu.split_from"] = split
			tr["gpu.split_reproduced"] = split > 0 && peak.k < last.k
		}
	}
	return tr
}
