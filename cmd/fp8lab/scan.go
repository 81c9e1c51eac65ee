package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"text/tabwriter"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/outfile"
	"github.com/fp8lab/fp8lab/internal/safetext"
	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/scan/report"
	"github.com/fp8lab/fp8lab/tensorio"
)

func init() {
	commands["scan"] = command{"report what each FP8 recipe would do to every tensor of a checkpoint", runScan}
}

// scanMaxBytes is scan's default input limit: the files are read one tensor
// at a time, so only the largest tensor (tensorio's element limit) bounds
// memory.
const scanMaxBytes int64 = 1 << 40

// scanInterrupt is the context a scan stops on; tests replace it.
var scanInterrupt = func() (context.Context, func()) {
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

func runScan(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("scan", "PATH... [--layout torch|tf] [--recipes LIST|all] [--formats LIST] [--filter REGEX] [--json|--csv] [--html FILE] [--min-sqnr DB]", stderr)
	layout := fs.String("layout", "torch", "how the checkpoint stores weights, which decides the matrix each tensor is scanned as (printed per tensor as its view): "+
		"torch (PyTorch, Hugging Face safetensors): rows = dim 0, the output channels of [out, in] and [out, in/groups, kh, kw], row = the rest; "+
		"tf (TensorFlow, Keras): rows = the last dim, of [in, out] and [kh, kw, in, out], row = the rest, and for a kernel whose name contains depthwise ([kh, kw, C, multiplier]) rows = C·multiplier, row = kh·kw. "+
		"Rowwise is one scale per row; blocks run along the row")
	recipes := fs.String("recipes", "", "comma-separated recipes (tensorwise, rowwise, deepseek, mxfp8, nvfp4, each also NAME-hadamard) or all; default the five without Hadamard")
	formats := fs.String("formats", "E4M3FN", "comma-separated element formats (nvfp4 always uses E2M1)")
	filter := fs.String("filter", "", "scan only the tensors whose name matches this regular expression")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	asCSV := fs.Bool("csv", false, "print one CSV row per tensor × recipe × format")
	html := fs.String("html", "", "also write a self-contained HTML report to this file")
	minSQNR := fs.Float64("min-sqnr", scan.DefaultMinSQNR, "SQNR threshold (dB) below which a tensor should stay in BF16")
	maxBytes := fs.Int64("max-bytes", scanMaxBytes, "largest file read, in bytes")
	maxTensors := fs.Int("max-tensors", scan.DefaultMaxTensors, "most tensors scanned (after --filter)")
	progress := fs.Bool("progress", false, "show progress on stderr even when it is not a terminal")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return cmdline.Usagef("scan needs at least one PATH (safetensors, model.safetensors.index.json, .npz, .npy or CSV)")
	}
	if *asJSON && *asCSV {
		return cmdline.Usagef("--json and --csv exclude each other")
	}
	switch {
	case !(*minSQNR > 0) || math.IsInf(*minSQNR, 0):
		return cmdline.Usagef("--min-sqnr %v: want a positive number of dB", *minSQNR)
	case *maxBytes < 1:
		return cmdline.Usagef("--max-bytes %d: want a positive number of bytes", *maxBytes)
	case *maxTensors < 1:
		return cmdline.Usagef("--max-tensors %d: want at least 1", *maxTensors)
	}
	opts := scan.Options{MinSQNR: *minSQNR, MaxTensors: *maxTensors}
	if opts.Layout, err = scan.ParseLayout(*layout); err != nil {
		return cmdline.Usagef("--layout: %v", err)
	}
	if opts.Recipes, err = scan.ParseRecipes(*recipes); err != nil {
		return cmdline.Usagef("%v", err)
	}
	if opts.Formats, err = scan.ParseFormats(*formats); err != nil {
		return cmdline.Usagef("%v", err)
	}
	if *filter != "" {
		if opts.Filter, err = regexp.Compile(*filter); err != nil {
			return cmdline.Usagef("--filter: %v", err)
		}
	}
	if *html != "" {
		if err := outfile.Check(*html); err != nil {
			return err
		}
	}
	var archives []*tensorio.Archive
	for _, p := range paths {
		as, closeFiles, err := tensorio.OpenFile(p, tensorio.Limits{MaxBytes: *maxBytes})
		defer closeFiles()
		if err != nil {
			return err
		}
		archives = append(archives, as...)
	}
	if *progress || isTerminal(stderr) {
		opts.Progress = func(p scan.Progress) { fmt.Fprintf(stderr, "\rscan: %s   ", p) }
	}
	ctx, stop := scanInterrupt()
	defer stop()
	rep, scanErr := scan.Run(ctx, archives, opts)
	if errors.Is(scanErr, scan.ErrTooMany) {
		return fmt.Errorf("%w (--filter picks fewer, --max-tensors raises the limit)", scanErr)
	}
	if rep == nil {
		return scanErr
	}
	if opts.Progress != nil {
		fmt.Fprintln(stderr)
	}
	if scanErr != nil {
		// Nothing on stdout: a partial report read as a whole one would
		// mislead, and a script sees only the error.
		return scanErr
	}
	if rep.Interrupted {
		fmt.Fprintf(stderr, "fp8lab scan: interrupted: the report covers the %d tensors scanned\n", len(rep.Tensors))
	}
	switch {
	case *asJSON:
		err = writeScanJSON(stdout, rep)
	case *asCSV:
		err = writeScanCSV(stdout, rep)
	default:
		err = writeScanText(stdout, rep)
	}
	if err == nil && *html != "" {
		err = outfile.WriteFile(*html, report.Page(rep))
	}
	return err
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// g formats a float exactly enough to be read back to the same float64.
func g(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// writeScanJSON writes rep as cmdline.WriteJSON does, byte for byte, but
// one tensor at a time: the JSON of 20,000 tiny tensors (the default
// --max-tensors) is 63 MB, and built as one buffer it took 1.7 GB of
// address space, which ran the scan out of memory under a 1 GiB limit.
func writeScanJSON(w io.Writer, rep *scan.Report) error {
	shell := *rep
	shell.Tensors = []scan.TensorStats{}
	var b bytes.Buffer
	if err := cmdline.WriteJSON(&b, &shell); err != nil {
		return err
	}
	// The empty list, written where the tensors go; a quote inside a
	// string is escaped, so this is the field and nothing else.
	const empty = `"tensors": []`
	head, tail, ok := bytes.Cut(b.Bytes(), []byte(empty))
	if !ok || len(rep.Tensors) == 0 {
		return cmdline.WriteJSON(w, rep)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head)
	bw.WriteString(`"tensors": [`)
	for i := range rep.Tensors {
		t, err := json.MarshalIndent(&rep.Tensors[i], "    ", "  ")
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		bw.Write(t)
	}
	bw.WriteString("\n  ]")
	bw.Write(tail)
	return bw.Flush()
}

func writeScanCSV(w io.Writer, rep *scan.Report) error {
	cw := csv.NewWriter(w)
	cw.Write(report.Columns)
	for _, t := range rep.Tensors {
		cell := safetext.CSVCell
		head := []string{cell(t.File), cell(t.Name), cell(t.DType), report.Shape(t.Shape), cell(t.View), g(t.Amax), g(t.MinNonZero), g(t.DynamicRange), g(t.Zeros),
			strconv.Itoa(t.NaN), strconv.Itoa(t.Inf), g(t.Outlier)}
		if len(t.Results) == 0 {
			row := append(append([]string{}, head...), make([]string, len(report.Columns)-len(head))...)
			row[len(row)-1] = cell(t.Skipped)
			cw.Write(row)
		}
		for _, r := range t.Results {
			cw.Write(append(append([]string{}, head...), cell(r.Recipe), cell(r.Format), g(r.ScaleInvMin), g(r.ScaleInvMax), g(r.Overflow),
				g(r.OverflowEnergy), g(r.Underflow), g(r.UnderflowEnergy), g(r.Subnormal), g(r.MSE), g(r.SQNR), g(r.WorstRowSQNR), strconv.Itoa(r.WorstRow),
				g(r.WorstBlockSQNR), strconv.Itoa(r.WorstBlock), cell(r.Skipped)))
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeScanText prints the report for a reader: every name from the file
// goes through safetext.Text, so that none can act on the terminal. The
// sentences are report's, which the HTML page shows too.
func writeScanText(w io.Writer, rep *scan.Report) error {
	text := safetext.Text
	fmt.Fprintf(w, "%s.\n\n", report.LayoutLine(rep.Layout))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, t := range rep.Tensors {
		fmt.Fprintf(w, "%s  %s %s  view %s", text(t.Name), text(t.DType), report.Shape(t.Shape), text(t.View))
		if t.Skipped != "" {
			fmt.Fprintf(w, "  skipped: %s\n\n", text(t.Skipped))
			continue
		}
		fmt.Fprintf(w, "\n  amax %.4g  min|x|>0 %.4g  range %.1f binades  zeros %.2f%%  max/rms %.1f (rows %v)",
			t.Amax, t.MinNonZero, t.DynamicRange, 100*t.Zeros, t.Outlier, t.OutlierRows)
		if t.NaN+t.Inf > 0 {
			fmt.Fprintf(w, "  NaN %d  Inf %d", t.NaN, t.Inf)
		}
		fmt.Fprintln(w)
		fmt.Fprintln(tw, "recipe\tformat\tSQNR dB\tworst row dB\tworst block dB\toverflow %\tunderflow %\tflushed energy %\tsubnormal %\tMSE\tscale_inv min\tscale_inv max\t")
		for _, r := range t.Results {
			if r.Skipped != "" {
				fmt.Fprintf(tw, "%s\t%s\tskipped: %s\t\t\t\t\t\t\t\t\t\t\n", r.Recipe, r.Format, text(r.Skipped))
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%.2f\t%.2f\t%.2f\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t\n", r.Recipe, r.Format, r.SQNR, r.WorstRowSQNR,
				r.WorstBlockSQNR, r.Overflow, r.Underflow, r.UnderflowEnergy, r.Subnormal, r.MSE, r.ScaleInvMin, r.ScaleInvMax)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Summary (%s; %s)\n", report.Tensors(len(rep.Tensors)), report.Threshold(rep.MinSQNR))
	risky := false
	for _, s := range rep.Summary {
		fmt.Fprintf(w, "  %s %s: %s; %s\n", s.Recipe, s.Format, report.WorstText(s.Worst, text), report.KeepText(s.KeepBF16, rep.MinSQNR, text))
		risky = risky || len(s.Flushed)+len(s.Clipped) > 0
	}
	if risky {
		fmt.Fprintf(w, "\n%s\n", report.RiskIntro())
		for _, s := range rep.Summary {
			for _, l := range []string{report.RiskText("flushed", s.Flushed, text), report.RiskText("clipped", s.Clipped, text)} {
				if l != "" {
					fmt.Fprintf(w, "  %s %s: %s\n", s.Recipe, s.Format, l)
				}
			}
		}
	}
	if rep.Interrupted {
		fmt.Fprintln(w, "(interrupted: partial report)")
	}
	fmt.Fprintln(w, "\nLegend")
	for _, term := range report.Legend() {
		fmt.Fprintf(w, "  %s: %s\n", term.Name, term.Meaning)
	}
	return nil
}
