//go:build cuda

// Command fp8lab-gpu runs fp8lab's operations on an NVIDIA GPU: it reports
// the device (info), proves that the GPU computes the same arithmetic as
// the Go core (parity) and measures the kernels and the FP8 and BF16
// matrix products (bench).
//
// Build it with the CUDA headers and the libcuda stub, which need no GPU
// (scripts/cuda-headers.sh prints the flags):
//
//	CGO_CFLAGS=-I$HOME/.cache/fp8lab/cuda/usr/include \
//	CGO_LDFLAGS=-L$HOME/.cache/fp8lab/cuda/lib \
//	go build -tags cuda ./cmd/fp8lab-gpu
//
// and run it where the GPU is (`fp8lab gpu ...` finds it next to fp8lab or
// on PATH). It needs the NVIDIA driver (libcuda.so.1); the products need
// cuBLASLt (libcublasLt.so.13, .12 or .11, or $FP8LAB_CUBLASLT), opened at run
// time. On a machine without a usable GPU it prints one line and exits
// with status 2.
//
// Usage:
//
//	fp8lab-gpu info  [--device N] [--json]
//	fp8lab-gpu parity [--device N] [--short] [--seed N] [--filter TEXT] [--codec both|software|hardware] [--json]
//	fp8lab-gpu bench [--device N] [--elements N] [--iters N] [--gemm 4096,8192|none] [--train-shapes reference|classroom|none] [--strict] [--json]
//	fp8lab-gpu accum [--device N] [--ks 512,1024,...] [--json]
//	fp8lab-gpu linear [--device N] [--sizes 4096,8192,16384] [--iters N] [--json]
//	fp8lab-gpu dump DIR [--device N] [--seed N]
//
// Exit status: 0 success; 1 a parity mismatch, an error, or (bench --strict)
// a missed goal; 2 bad usage or no usable GPU.
//
// The binaries need glibc 2.34 or later. As first written, this command had
// only been compiled: see native/README.md for what was verified where.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/docs/gpu"
	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/native"
	"github.com/fp8lab/fp8lab/native/accum"
	"github.com/fp8lab/fp8lab/native/cuda"
	"github.com/fp8lab/fp8lab/native/parity"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/train"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usageText = `Usage: fp8lab-gpu COMMAND [flags]

Commands:
  info    the GPU, its driver, compute capability and cuBLASLt
  parity  run every operation on the CPU and the GPU and compare the results
  bench   copy bandwidth, kernel bandwidths and FP8/BF16 GEMM TFLOPS
  accum   the error of cuBLASLt's fast accumulation against K, and the
          emulated accumulator (scaling.Accumulator) that matches it
  linear  one linear layer's forward and backward under three plans (BF16,
          naive FP8, fused FP8), checked against the CPU, every kernel timed
  dump    write inputs and GPU outputs as .npy for scripts/gpu/torch_oracle.py

Run 'fp8lab-gpu COMMAND -h' for a command's flags.
`

// prog names fp8lab-gpu in usage lines and error messages.
const prog cmdline.Program = "fp8lab-gpu"

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usageText)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmds := map[string]func([]string, io.Writer, io.Writer) error{"info": runInfo, "parity": runParity, "bench": runBench, "accum": runAccum, "linear": runLinear, "dump": runDump}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "fp8lab-gpu: unknown command %q\n\n%s", args[0], usageText)
		return 2
	}
	return prog.Status(stderr, args[0], cmd(args[1:], stdout, stderr))
}

// deviceFlags adds the flags every command takes: --device and --json.
func deviceFlags(fs *flag.FlagSet) (dev *int, asJSON *bool) {
	return fs.Int("device", 0, "GPU ordinal"), fs.Bool("json", false, "print JSON")
}

// info is what runInfo reports.
type info struct {
	cuda.Properties
	ComputeCapability string `json:"compute_capability"`
	HardwareFP8       bool   `json:"hardware_fp8"`
	CUBLASLt          string `json:"cublaslt"`
	CUBLASLtVersion   int    `json:"cublaslt_version,omitempty"`
}

func runInfo(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("info", "[--device N] [--json]", stderr)
	dev, asJSON := deviceFlags(fs)
	if err := cmdline.Parse(fs, args); err != nil {
		return err
	}
	d, err := cuda.Open(*dev)
	if err != nil {
		return err
	}
	defer d.Close()
	p := d.Properties()
	in := info{Properties: p, ComputeCapability: p.ComputeCapability(), HardwareFP8: d.Info().HardwareFP8}
	path, version, lerr := d.CUBLASLt()
	if lerr != nil {
		in.CUBLASLt = "not available: " + lerr.Error()
	} else {
		in.CUBLASLt, in.CUBLASLtVersion = path, version
	}
	if *asJSON {
		return cmdline.WriteJSON(stdout, in)
	}
	fmt.Fprintf(stdout, "device:             %d of %d: %s\n", p.Ordinal, p.Devices, p.Name)
	fmt.Fprintf(stdout, "compute capability: %s (%d.%d), %d SMs\n", p.ComputeCapability(), p.Major, p.Minor, p.SMs)
	fmt.Fprintf(stdout, "memory:             %.1f GiB, %d-bit bus, %.0f GB/s theoretical\n", float64(p.MemoryBytes)/(1<<30), p.BusWidthBits, p.PeakGBps)
	fmt.Fprintf(stdout, "driver:             CUDA %s (%d)\n", p.DriverString(), p.Driver)
	hw := "no (software codec only; cvt.rn.satfinite.e4m3x2 needs sm_90, or sm_89 with a driver for PTX ISA 8.1)"
	if in.HardwareFP8 {
		hw = "yes (cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32)"
	}
	fmt.Fprintf(stdout, "hardware FP8 cvt:   %s\n", hw)
	if lerr != nil {
		fmt.Fprintf(stdout, "cuBLASLt:           %s\n", in.CUBLASLt)
	} else {
		fmt.Fprintf(stdout, "cuBLASLt:           %s (version %d)\n", path, version)
	}
	return nil
}

func runParity(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("parity", "[--device N] [--short] [--seed N] [--filter TEXT] [--codec both|software|hardware] [--json]", stderr)
	dev, asJSON := deviceFlags(fs)
	short := fs.Bool("short", false, "smaller tensors and fewer cases")
	seed := fs.Uint64("seed", 1, "seed of every input tensor")
	filter := fs.String("filter", "", "run only the cases whose name contains this text")
	codec := fs.String("codec", "both", "GPU codecs to check: both (hardware where available), software, hardware")
	if err := cmdline.Parse(fs, args); err != nil {
		return err
	}
	var codecs []native.Codec
	switch *codec {
	case "both":
	case "software", "sw":
		codecs = []native.Codec{native.CodecSoftware}
	case "hardware", "hw":
		codecs = []native.Codec{native.CodecHardware}
	default:
		return cmdline.Usagef("--codec %q (both, software, hardware)", *codec)
	}
	d, err := cuda.Open(*dev)
	if err != nil {
		return err
	}
	defer d.Close()
	cfg := parity.Config{Seed: *seed, Short: *short, Filter: *filter, Codecs: codecs, Log: stdout}
	if *asJSON {
		cfg.Log = stderr // progress lines; the report goes to stdout
	}
	fmt.Fprintf(cfg.Log, "parity: reference %s; device %s\n", native.NewCPU().Info().Device, d.Info().Device)
	if path, version, err := d.CUBLASLt(); err != nil {
		fmt.Fprintf(cfg.Log, "parity: cuBLASLt not available, the products fail as unexpected skips: %v\n", err)
	} else {
		fmt.Fprintf(cfg.Log, "parity: cuBLASLt %s (version %d)\n", path, version)
	}
	rep, err := parity.Run(native.NewCPU(), d, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		if err := cmdline.WriteJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "parity: %d ok, %d failed, %d skipped (codes, scales, stochastic roundings, amax, dequantize and FWHT bit-identical; GEMM within %.3g (FP8) and %.3g (BF16) of Σ|a||b|)\n",
			rep.OK, rep.Failed, rep.Skipped, native.GEMMTolFP8, native.GEMMTolBF16)
	}
	return rep.Err()
}

func runBench(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("bench", "[--device N] [--elements N] [--iters N] [--gemm 4096,8192|none] [--train-shapes reference|classroom|none] [--strict] [--json]", stderr)
	dev, asJSON := deviceFlags(fs)
	elements := fs.Int("elements", 1<<28, fmt.Sprintf("float32 elements of the bandwidth tests (a multiple of %d)", cuda.BenchElementsMultiple))
	iters := fs.Int("iters", 20, "timed repetitions per measurement")
	gemm := fs.String("gemm", "4096,8192", "square GEMM sizes, comma-separated, or none")
	strict := fs.Bool("strict", false, "exit with status 1 when a goal is missed")
	trainShapes := fs.String("train-shapes", "reference", "also measure the matrix products of this training-lab configuration, or none")
	if err := cmdline.Parse(fs, args); err != nil {
		return err
	}
	var shapes []cuda.BenchShape
	if *trainShapes != "none" {
		cfg, err := train.ConfigByName(*trainShapes)
		if err != nil {
			return cmdline.Usagef("--train-shapes: %v", err)
		}
		for _, p := range cfg.LinearProducts() {
			shapes = append(shapes, cuda.BenchShape{Name: gpu.TrainShape(cfg.Name, p.Layer, p.Pass, p.M, p.K, p.N), M: p.M, N: p.N, K: p.K})
		}
	}
	sizes := []int{}
	if *gemm != "none" && *gemm != "" {
		for _, s := range strings.Split(*gemm, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 16 || n%16 != 0 {
				return cmdline.Usagef("--gemm %q: sizes are multiples of 16", *gemm)
			}
			sizes = append(sizes, n)
		}
	}
	if *elements <= 0 || *elements%cuda.BenchElementsMultiple != 0 || *iters < 1 {
		return cmdline.Usagef("--elements must be a positive multiple of %d (the largest Hadamard block) and --iters positive", cuda.BenchElementsMultiple)
	}
	d, err := cuda.Open(*dev)
	if err != nil {
		return err
	}
	defer d.Close()
	cfg := cuda.BenchConfig{Elements: *elements, Iters: *iters, GEMM: sizes, Shapes: shapes, Log: stdout}
	if *asJSON {
		cfg.Log = stderr // progress lines; the report goes to stdout
	}
	rep, err := d.Bench(cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		if err := cmdline.WriteJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "bench: %d measurements, %d goals missed, %d failed\n", len(rep.Results), rep.Missed, rep.Failed)
	}
	if rep.Failed > 0 {
		return fmt.Errorf("%d measurements failed", rep.Failed)
	}
	if *strict && rep.Missed > 0 {
		return fmt.Errorf("%d goals missed", rep.Missed)
	}
	return nil
}

func runAccum(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("accum", "[--device N] [--ks 512,1024,...] [--json]", stderr)
	dev, asJSON := deviceFlags(fs)
	ks := fs.String("ks", "512,1024,2048,4096,8192,16384", "contraction lengths K, comma-separated multiples of 16")
	seed := fs.Uint64("seed", 1, "seed of the operands")
	if err := cmdline.Parse(fs, args); err != nil {
		return err
	}
	cfg := accum.Config{Seed: *seed, Log: stdout}
	for _, f := range strings.Split(*ks, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 16 || k%16 != 0 {
			return cmdline.Usagef("--ks %q: lengths are multiples of 16", *ks)
		}
		cfg.Ks = append(cfg.Ks, k)
	}
	if *asJSON {
		cfg.Log = stderr // progress lines; the report goes to stdout
	}
	d, err := cuda.Open(*dev)
	if err != nil {
		return err
	}
	defer d.Close()
	rep, err := accum.Study(func(a, b *scaling.Quantized, fast bool) (*scaling.Tensor, error) {
		return d.ScaledMatMulAccum(a, b, native.OutputFloat32, fast)
	}, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return cmdline.WriteJSON(stdout, rep)
	}
	return nil
}

func runLinear(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("linear", "[--device N] [--sizes 4096,8192,16384] [--iters N] [--json]", stderr)
	dev, asJSON := deviceFlags(fs)
	sizes := fs.String("sizes", "4096,8192,16384", "layer sizes n (tokens = in = out = n), comma-separated multiples of 16")
	iters := fs.Int("iters", 10, "timed runs of each plan")
	if err := cmdline.Parse(fs, args); err != nil {
		return err
	}
	cfg := cuda.LinearConfig{Iters: *iters, Log: stdout}
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 16 || n%16 != 0 || n > 1<<17 {
			return cmdline.Usagef("--sizes %q: sizes are multiples of 16 up to 131072", *sizes)
		}
		cfg.Sizes = append(cfg.Sizes, n)
	}
	if *iters < 1 {
		return cmdline.Usagef("--iters must be positive")
	}
	if *asJSON {
		cfg.Log = stderr // progress lines; the report goes to stdout
	}
	d, err := cuda.Open(*dev)
	if err != nil {
		return err
	}
	defer d.Close()
	rep, err := d.Linear(cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return cmdline.WriteJSON(stdout, rep)
	}
	return nil
}

// runDump writes parity.Dump's cases, run on the GPU, into a new directory
// for scripts/gpu/torch_oracle.py.
func runDump(args []string, stdout, stderr io.Writer) error {
	fs := prog.Flags("dump", "DIR [--device N] [--seed N]", stderr)
	dev := fs.Int("device", 0, "GPU ordinal")
	seed := fs.Uint64("seed", 1, "seed of every input tensor")
	var dir string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		dir, args = args[0], args[1:] // DIR first, flags after it
	}
	if err := cmdline.Parse(fs, args); err != nil {
		return err
	}
	if dir == "" {
		return cmdline.Usagef("dump needs a directory first: dump DIR [--device N] [--seed N]")
	}
	d, err := cuda.Open(*dev)
	if err != nil {
		return err
	}
	defer d.Close()
	m, err := parity.Dump(d, dir, parity.DumpConfig{Seed: *seed, Log: stderr})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "dump: %s: %d cases (%d ok, %d skipped, %d failed), %.1f MiB; check it with scripts/gpu/torch_oracle.py %s\n",
		dir, len(m.Cases), m.OK, m.Skipped, m.Failed, float64(m.Bytes)/(1<<20), dir)
	return m.Err()
}
