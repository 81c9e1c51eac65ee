package gpu

import (
	"fmt"
	"strconv"
	"strings"
)

// BenchResult is one measurement of fp8lab-gpu bench (native/cuda's Bench
// writes them). Bandwidths count the bytes a kernel must move at least
// (read the input once, write the output once); OfCopy compares them with
// the device-to-device copy measured first.
type BenchResult struct {
	Name   string  `json:"name"`
	Bytes  int64   `json:"bytes,omitempty"`
	Millis float64 `json:"ms,omitempty"`
	GBps   float64 `json:"gbps,omitempty"`
	OfCopy float64 `json:"of_copy,omitempty"`
	TFLOPS float64 `json:"tflops,omitempty"`
	Ratio  float64 `json:"ratio,omitempty"`
	Goal   float64 `json:"goal,omitempty"` // a fraction of copy, TFLOPS or a ratio
	Status string  `json:"status,omitempty"`
	Note   string  `json:"note,omitempty"`
}

// Bench is fp8lab-gpu bench --json, as the runs' readers use it (the
// device is in info.json).
type Bench struct {
	CUBLASLt string        `json:"cublaslt"`
	Elements int           `json:"elements"`
	Iters    int           `json:"iters"`
	Results  []BenchResult `json:"results"`
}

// CopyName is the name of the copy that kernel bandwidths are compared with.
const CopyName = "copy cuMemcpyDtoD (read + write)"

// Names of the products' results: bench.go in native/cuda writes them with
// these functions and Products reads them back.

// SquareShape names an n×n×n product, "8192³".
func SquareShape(n int) string { return fmt.Sprintf("%d³", n) }

// TrainShape names a training-lab product: configuration, layer, pass and
// M×K×N, "reference qkv.forward 1024x64x192".
func TrainShape(config, layer, pass string, m, k, n int) string {
	return fmt.Sprintf("%s %s.%s %dx%dx%d", config, layer, pass, m, k, n)
}

// FP8GEMMName names the E4M3 product of shape, fast accumulation on or off.
func FP8GEMMName(shape string, fast bool) string {
	return fmt.Sprintf("gemm fp8 e4m3 %s -> bf16, fast accum %s", shape, map[bool]string{false: "off", true: "on"}[fast])
}

// BF16GEMMName names the BF16 product of shape.
func BF16GEMMName(shape string) string { return fmt.Sprintf("gemm bf16 %s -> bf16", shape) }

// FP8BestName names the better of the two FP8 products of shape.
func FP8BestName(shape string) string { return fmt.Sprintf("gemm fp8 %s best of the two", shape) }

// RatioName names FP8 (the better) over BF16 at shape.
func RatioName(shape string) string { return fmt.Sprintf("ratio fp8 (best) / bf16 at %s", shape) }

// Product is one product shape of a bench run.
type Product struct {
	Shape   string // as named in the results
	M, K, N int
	// FP8Off and FP8On are E4M3 with fast accumulation off and on, BF16
	// the BF16 product; zero where the run lacks one.
	FP8Off, FP8On, BF16 BenchResult
}

// FP8 returns the faster FP8 product's TFLOPS.
func (p Product) FP8() float64 { return max(p.FP8Off.TFLOPS, p.FP8On.TFLOPS) }

// Speedup returns FP8 (the faster) over BF16, or 0 without both.
func (p Product) Speedup() float64 {
	if p.BF16.TFLOPS <= 0 || p.FP8() <= 0 {
		return 0
	}
	return p.FP8() / p.BF16.TFLOPS
}

// Square reports whether the product is n×n×n.
func (p Product) Square() bool { return p.M == p.K && p.K == p.N }

// Products returns the run's product shapes in the order measured, each
// with its FP8 and BF16 results; shapes whose dimensions cannot be read
// from the name are left out.
func (b *Bench) Products() []Product {
	if b == nil {
		return nil
	}
	var out []Product
	index := map[string]int{}
	at := func(shape string) *Product {
		i, ok := index[shape]
		if !ok {
			m, k, n, ok := parseShape(shape)
			if !ok {
				return nil
			}
			i = len(out)
			index[shape] = i
			out = append(out, Product{Shape: shape, M: m, K: k, N: n})
		}
		return &out[i]
	}
	for _, r := range b.Results {
		if r.TFLOPS <= 0 {
			continue
		}
		switch shape, kind := parseGEMMName(r.Name); kind {
		case "off", "on", "bf16":
			p := at(shape)
			if p == nil {
				continue
			}
			switch kind {
			case "off":
				p.FP8Off = r
			case "on":
				p.FP8On = r
			default:
				p.BF16 = r
			}
		}
	}
	return out
}

// parseGEMMName returns the shape and kind ("off", "on", "bf16") of a
// product's result name, or "" as the kind.
func parseGEMMName(name string) (shape, kind string) {
	if s, ok := strings.CutPrefix(name, "gemm fp8 e4m3 "); ok {
		for _, k := range []string{"off", "on"} {
			if sh, ok := strings.CutSuffix(s, " -> bf16, fast accum "+k); ok {
				return sh, k
			}
		}
	}
	if s, ok := strings.CutPrefix(name, "gemm bf16 "); ok {
		if sh, ok := strings.CutSuffix(s, " -> bf16"); ok {
			return sh, "bf16"
		}
	}
	return "", ""
}

// parseShape reads M, K and N from "8192³" or a name ending in "MxKxN".
func parseShape(shape string) (m, k, n int, ok bool) {
	if s, cut := strings.CutSuffix(shape, "³"); cut {
		v, err := strconv.Atoi(s)
		return v, v, v, err == nil && v > 0
	}
	dims := strings.Split(shape[strings.LastIndexByte(shape, ' ')+1:], "x")
	if len(dims) != 3 {
		return 0, 0, 0, false
	}
	var v [3]int
	for i, d := range dims {
		x, err := strconv.Atoi(d)
		if err != nil || x <= 0 {
			return 0, 0, 0, false
		}
		v[i] = x
	}
	return v[0], v[1], v[2], true
}

// Kernels returns the measurements compared with the copy (OfCopy > 0),
// the copy itself left out, in the order measured.
func (b *Bench) Kernels() []BenchResult {
	if b == nil {
		return nil
	}
	var out []BenchResult
	for _, r := range b.Results {
		if r.OfCopy > 0 && r.Name != CopyName {
			out = append(out, r)
		}
	}
	return out
}

// Copy returns the copy measurement, or false if the run has none.
func (b *Bench) Copy() (BenchResult, bool) {
	if b == nil {
		return BenchResult{}, false
	}
	for _, r := range b.Results {
		if r.Name == CopyName {
			return r, true
		}
	}
	return BenchResult{}, false
}
