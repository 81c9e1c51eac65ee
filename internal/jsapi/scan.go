package jsapi

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"regexp"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/scan"
	"github.com/fp8lab/fp8lab/scan/report"
	"github.com/fp8lab/fp8lab/tensorio"
)

// ScanMaxBytes is the largest file scanFile reads: the file is read a
// tensor (or a chunk) at a time, so memory is bounded by the largest
// tensor (MaxElements values), not by the file (the CLI's scan bounds it
// the same way).
const ScanMaxBytes int64 = 1 << 40

// scanLimits are the limits of the files scanFile and extractTensor read.
var scanLimits = tensorio.Limits{MaxBytes: ScanMaxBytes, MaxElements: MaxElements}

// ScanRequest is what the Scan page asks for, as fp8lab scan's flags:
// comma-separated recipes ("" the defaults, "all") and formats ("" E4M3FN),
// a regular expression over tensor names, the weight layout ("" torch, or
// tf), and the SQNR threshold in dB (0: scan.DefaultMinSQNR).
type ScanRequest struct {
	Recipes, Formats, Filter, Layout string
	MinSQNR                          float64
}

// ScanResult is a finished scan as the page shows it.
type ScanResult struct {
	// HTML is report.Body of the report: the heatmap, summary, table and
	// histograms of fp8lab scan --html.
	HTML string
	// JSON is the report as fp8lab scan --json writes it.
	JSON []byte
	// Tensors is how many tensors the report holds; Interrupted is set
	// when the scan was cancelled.
	Tensors     int
	Interrupted bool
}

// options turns the request into scan.Options, with the CLI's errors.
func (q ScanRequest) options() (scan.Options, error) {
	var opts scan.Options
	var err error
	if math.IsNaN(q.MinSQNR) || math.IsInf(q.MinSQNR, 0) || q.MinSQNR < 0 {
		return opts, fmt.Errorf("minSQNR must be a positive number of dB, got %v", q.MinSQNR)
	}
	opts.MinSQNR = q.MinSQNR
	if opts.Recipes, err = scan.ParseRecipes(q.Recipes); err != nil {
		return opts, err
	}
	if opts.Formats, err = scan.ParseFormats(q.Formats); err != nil {
		return opts, err
	}
	if opts.Layout, err = scan.ParseLayout(q.Layout); err != nil {
		return opts, err
	}
	if q.Filter != "" {
		if opts.Filter, err = regexp.Compile(q.Filter); err != nil {
			return opts, fmt.Errorf("filter: %w", err)
		}
	}
	return opts, nil
}

// Scan scans the file of size bytes read through r (a safetensors file,
// an .npz or an .npy, told apart by content; name prefixes errors as the
// CLI's file path does) under the request's recipes, calling progress
// after each tensor. A file that cannot be opened gives an error and no
// result; a tensor that cannot be read gives the result of the tensors
// before it and the error; cancelling ctx (even while the file is being
// opened) gives the tensors done so far with Interrupted set.
func Scan(ctx context.Context, r io.ReaderAt, size int64, name string, q ScanRequest, progress func(scan.Progress)) (*ScanResult, error) {
	opts, err := q.options()
	if err != nil {
		return nil, err
	}
	opts.Progress = progress
	a, err := tensorio.Open(r, size, name, scanLimits)
	archives := []*tensorio.Archive{a}
	if err != nil {
		if ctx.Err() == nil {
			return nil, err
		}
		archives = nil // cancelled while the file was being opened
	}
	rep, scanErr := scan.Run(ctx, archives, opts)
	if rep != nil && ctx.Err() != nil {
		// Cancelled: a read the cancel cut short is no error of the file.
		rep.Interrupted, scanErr = true, nil
	}
	if rep == nil {
		return nil, scanErr // nothing scanned: too many tensors
	}
	var js bytes.Buffer
	if err := cmdline.WriteJSON(&js, rep); err != nil {
		return nil, err
	}
	return &ScanResult{HTML: report.Body(rep), JSON: js.Bytes(), Tensors: len(rep.Tensors), Interrupted: rep.Interrupted}, scanErr
}

// ExtractNPY reads the tensor of that name from the file read through r
// and writes it as a float32 .npy file: the Scan page hands it to a scene
// (loadTensor) without the scene page reading the whole checkpoint.
func ExtractNPY(r io.ReaderAt, size int64, name, tensor string) ([]byte, error) {
	a, err := tensorio.Open(r, size, name, scanLimits)
	if err != nil {
		return nil, err
	}
	t, err := tensorio.Select([]*tensorio.Archive{a}, tensor)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := tensorio.WriteNPY(&b, t); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
