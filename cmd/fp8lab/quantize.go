package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/rng"
	"github.com/fp8lab/fp8lab/scaling"
	"github.com/fp8lab/fp8lab/tensorio"
)

func init() {
	commands["quantize"] = command{"quantize a matrix (.npy, CSV, or one tensor of a safetensors or .npz file) and report its scales and errors", runQuantize}
}

func runQuantize(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	names, shapes := granularityNames()
	fs := prog.Flags("quantize", "--format F --granularity "+strings.Join(names, "|")+" [--tensor NAME] [--json] FILE", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	formatName := fs.String("format", "E4M3FN", "element format")
	granName := fs.String("granularity", "tensor", strings.Join(names, ", ")+" (also "+strings.Join(shapes, ", ")+")")
	roundName := fs.String("round", "nearest", "element rounding: nearest, zero, away or stochastic")
	saturate := fs.Bool("saturate", true, "clamp overflow to ±max; false follows OCP")
	seed := fs.Uint64("seed", 0, "stochastic rounding: Philox seed (element i uses word i of stream 0)")
	rbits := fs.Int("rbits", 16, "stochastic rounding: random bits per element, 1..32")
	mxRound := fs.String("mx-rounding", "floor", "MX shared exponent: floor (OCP), ceil or nearest")
	maxBytes := maxBytesFlag(fs)
	tensorName := fs.String("tensor", "", "the tensor to quantize, by name, from a file of several (safetensors, .npz)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cmdline.Usagef("quantize needs one FILE (.npy, CSV, safetensors or .npz; --tensor NAME picks a tensor of several)")
	}
	f, err := fp8.Lookup(*formatName)
	if err != nil {
		return err
	}
	g, err := scaling.ParseGranularity(*granName)
	if err != nil {
		return err
	}
	round, err := fp8.ParseRounding(*roundName)
	if err != nil {
		return err
	}
	t, err := readTensor(pos[0], *maxBytes, *tensorName)
	if err != nil {
		return err
	}
	opts := scaling.Options{Mode: fp8.Mode{Round: round}}
	if !*saturate {
		opts.Mode.Overflow = fp8.NoSaturate
	}
	if round == fp8.Stochastic {
		opts.Mode.RandomBits = *rbits
		opts.Random = make([]uint32, len(t.Data))
		rng.Fill(opts.Random, *seed, 0, 0)
	}
	if g.Scales() == scaling.ScaleE8M0 {
		if opts.MXRounding, err = fp8.ParseScaleRounding(*mxRound); err != nil {
			return err
		}
	}
	res, err := evaluate(t, f, g, opts)
	if err != nil {
		return err
	}
	if *asJSON {
		return cmdline.WriteJSON(stdout, res)
	}
	return printQuantize(stdout, pos[0], res)
}

// maxBytesFlag adds --max-bytes, the largest tensor file read.
func maxBytesFlag(fs *flag.FlagSet) *int64 {
	return fs.Int64("max-bytes", tensorio.DefaultMaxBytes, "largest tensor file read, in bytes")
}

// readTensor reads one tensor of a tensor file (.npy, CSV, safetensors or
// a shard index, .npz; told apart by content) of at most maxBytes bytes:
// the one named name, or the only one when name is empty (see
// tensorio.Select). Only that tensor is read.
func readTensor(path string, maxBytes int64, name string) (*scaling.Tensor, error) {
	if maxBytes <= 0 {
		return nil, cmdline.Usagef("--max-bytes must be positive")
	}
	as, closeFiles, err := tensorio.OpenFile(path, tensorio.Limits{MaxBytes: maxBytes})
	var t *scaling.Tensor
	if err == nil {
		t, err = tensorio.Select(as, name)
		if cerr := closeFiles(); err == nil {
			err = cerr
		}
	}
	if errors.Is(err, tensorio.ErrNoTensor) && name == "" {
		err = fmt.Errorf("%w (--tensor NAME picks one)", err)
	}
	if errors.Is(err, tensorio.ErrTooLarge) {
		return nil, fmt.Errorf("%w (--max-bytes raises the byte limit)", err)
	}
	return t, err
}

func printQuantize(w io.Writer, path string, r *quantizeResult) error {
	m := r.Metrics
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "input\t%s (%d×%d)\n", path, r.Rows, r.Cols)
	fmt.Fprintf(tw, "quantized\t%s, %s scaling (blocks %d×%d, %d scale(s)), %s, %s\n",
		r.Format, r.Granularity, r.BlockRows, r.BlockCols, len(r.Scales), r.Rounding, r.Overflow)
	if r.ScaleFormat != "" {
		fmt.Fprintf(tw, "scale format\t%s\n", r.ScaleFormat)
	}
	if r.TensorScale != 0 {
		fmt.Fprintf(tw, "tensor scale\t%g\n", r.TensorScale)
	}
	fmt.Fprintf(tw, "scales\t%s\n", summarizeScales(r.Scales))
	fmt.Fprintf(tw, "SQNR\t%.2f dB (whole tensor)\n", m.SQNR)
	fmt.Fprintf(tw, "row SQNR\tmean %.2f dB, worst %.2f dB (row %d)\n", m.Rows.Mean, m.Rows.Worst, m.Rows.WorstIndex)
	fmt.Fprintf(tw, "block SQNR\tmean %.2f dB, worst %.2f dB (%d×%d blocks)\n", m.Blocks.Mean, m.Blocks.Worst, m.BlockRows, m.BlockCols)
	fmt.Fprintf(tw, "MSE\t%g\n", m.MSE)
	fmt.Fprintf(tw, "max error\tabsolute %g, relative %g\n", m.MaxAbsError, m.MaxRelError)
	fmt.Fprintf(tw, "overflow\t%d of %d elements clipped\n", m.Overflow, m.Elements)
	fmt.Fprintf(tw, "underflow\t%d nonzero elements flushed to zero\n", m.Underflow)
	fmt.Fprintf(tw, "subnormal\t%.2f%% of elements\n", 100*m.FractionSubnormal)
	fmt.Fprintf(tw, "codes used\t%d distinct\n", m.DistinctCodes)
	if m.NonFinite > 0 {
		fmt.Fprintf(tw, "non-finite\t%d NaN/Inf inputs left out of the metrics\n", m.NonFinite)
	}
	return tw.Flush()
}

// summarizeScales prints a few scales, or their range when there are many.
func summarizeScales(s []float32) string {
	if len(s) <= 8 {
		parts := make([]string, len(s))
		for i, v := range s {
			parts[i] = fmt.Sprintf("%g", v)
		}
		return strings.Join(parts, " ")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range s {
		lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
	}
	return fmt.Sprintf("%d scales from %g to %g (--json lists them all)", len(s), lo, hi)
}

// granularityNames returns the names of scaling's standard granularities
// (tensor, row, ..., tile1x128, ...) and the patterns of the other block
// shapes they take (tile1xN, ...), both in the table's order.
func granularityNames() (names, shapes []string) {
	for _, g := range scaling.Granularities() {
		names = append(names, g.String())
		if s := g.Syntax(); s != g.String() {
			shapes = append(shapes, s)
		}
	}
	return names, shapes
}
