package scan

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"time"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/parallel"
	"github.com/fp8lab/fp8lab/tensorio"
)

// Options configures Run. The zero value scans every tensor under the
// default recipes for E4M3FN with the default SQNR threshold.
type Options struct {
	Recipes []Recipe      // nil: DefaultRecipes
	Formats []*fp8.Format // nil: E4M3FN
	// Filter, when set, keeps the tensors whose name it matches.
	Filter *regexp.Regexp
	// MinSQNR is the threshold (dB) of Summary.KeepBF16; 0 means
	// DefaultMinSQNR. It must be positive and finite.
	MinSQNR float64
	// MaxTensors bounds the tensors a Run scans (after the filter); 0
	// means DefaultMaxTensors.
	MaxTensors int
	// Progress, when set, is called after each tensor.
	Progress func(Progress)
}

// Progress is how far a Run has come.
type Progress struct {
	Tensors, Total int   // tensors done, of the tensors to scan
	Bytes, Size    int64 // bytes of tensor data read, of the total
	Elapsed        time.Duration
}

// Report is the result of a scan.
type Report struct {
	Recipes []string      `json:"recipes"`
	Formats []string      `json:"formats"`
	MinSQNR float64       `json:"min_sqnr_db"`
	Tensors []TensorStats `json:"tensors"`
	Summary []Summary     `json:"summary"`
	// Interrupted is set when the context was cancelled: the report holds
	// the tensors scanned until then.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Summary ranks the tensors under one recipe and format.
type Summary struct {
	Recipe string `json:"recipe"`
	Format string `json:"format"`
	// Worst lists up to WorstTensors tensors, lowest worst-block SQNR
	// first. The ranking is by the worst 1×32 block, not the whole tensor
	// or row: those sums are dominated by their largest values and hide
	// the small values a coarse scale flushes to zero, whether they sit in
	// other rows (an outlier row under tensorwise) or beside a spike in the
	// same row (under rowwise); see scaling/metrics.go.
	Worst []string `json:"worst"`
	// KeepBF16 lists the tensors whose worst-block SQNR is below the
	// threshold (or that the recipe could not quantize), in scan order.
	KeepBF16 []string `json:"keep_bf16"`
}

// WorstTensors is how many tensors a Summary ranks.
const WorstTensors = 5

// DefaultMaxTensors is how many tensors a Run scans unless Options say
// otherwise. A report holds about 1 KB a tensor under the default recipes
// (more with more recipes and formats), and writing it as JSON several
// times that: 20,000 tensors keep a scan well under 1 GiB. Checkpoints of
// dense models hold hundreds to a few thousand tensors; the largest
// mixture-of-experts ones, tens of thousands (a filter picks a part).
const DefaultMaxTensors = 20_000

// ErrTooMany reports more tensors to scan than Options.MaxTensors.
var ErrTooMany = errors.New("scan: too many tensors")

// check refuses options Run cannot honour, and fills in the defaults.
func (o *Options) check() error {
	switch {
	case math.IsNaN(o.MinSQNR) || math.IsInf(o.MinSQNR, 0) || o.MinSQNR < 0:
		return fmt.Errorf("scan: SQNR threshold %v dB: want a positive finite number", o.MinSQNR)
	case o.MaxTensors < 0:
		return fmt.Errorf("scan: tensor limit %d: want a positive number (or 0 for %d)", o.MaxTensors, DefaultMaxTensors)
	}
	if o.Recipes == nil {
		o.Recipes = DefaultRecipes()
	}
	if o.Formats == nil {
		o.Formats = []*fp8.Format{fp8.E4M3FN}
	}
	if o.MinSQNR == 0 {
		o.MinSQNR = DefaultMinSQNR
	}
	if o.MaxTensors == 0 {
		o.MaxTensors = DefaultMaxTensors
	}
	return nil
}

// Run scans every tensor of the archives (in order) whose name passes the
// filter. Tensors of dtypes tensorio does not decode are listed with
// Skipped set. Bad options (a NaN threshold) and more tensors than
// Options.MaxTensors (ErrTooMany) are errors with no report, before
// anything is read. A tensor that cannot be read ends the scan with an
// error naming the file and tensor; the report returned with it holds what
// was done. Cancelling ctx stops after the tensor in progress, with
// Report.Interrupted set and no error.
func Run(ctx context.Context, archives []*tensorio.Archive, opts Options) (*Report, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	rep := &Report{MinSQNR: opts.MinSQNR, Tensors: []TensorStats{}}
	for _, f := range opts.Formats {
		rep.Formats = append(rep.Formats, f.Name())
	}
	for _, r := range opts.Recipes {
		rep.Recipes = append(rep.Recipes, r.Name)
	}
	type job struct {
		a *tensorio.Archive
		i int
	}
	var jobs []job
	var p Progress
	for _, a := range archives {
		if a == nil {
			continue
		}
		for i, in := range a.Tensors {
			if opts.Filter == nil || opts.Filter.MatchString(in.Name) {
				jobs = append(jobs, job{a, i})
				p.Size += in.Bytes
			}
		}
	}
	if len(jobs) > opts.MaxTensors {
		return nil, fmt.Errorf("%w: %d tensors to scan, more than the limit of %d", ErrTooMany, len(jobs), opts.MaxTensors)
	}
	p.Total = len(jobs)
	start := time.Now()
	var err error
	var buf []float32 // the values of the tensor in hand, reused
	for _, j := range jobs {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		in := j.a.Tensors[j.i]
		var st TensorStats
		st, buf, err = scanOne(j.a, j.i, opts, buf)
		rep.Tensors = append(rep.Tensors, st)
		if err != nil {
			rep.Tensors = rep.Tensors[:len(rep.Tensors)-1]
			break
		}
		p.Tensors++
		p.Bytes += in.Bytes
		p.Elapsed = time.Since(start)
		if opts.Progress != nil {
			opts.Progress(p)
		}
	}
	rep.summarize(opts)
	return rep, err
}

// scanOne reads tensor i of a into buf (see Archive.TensorInto) and
// measures it; it returns the buffer to use for the next tensor.
func scanOne(a *tensorio.Archive, i int, opts Options, buf []float32) (TensorStats, []float32, error) {
	in := a.Tensors[i]
	base := TensorStats{Name: in.Name, File: in.File, DType: in.DType, Shape: in.Shape, Results: []Result{}, OutlierRows: []int{},
		Histogram: Histogram{Counts: []int{}}, Windows: []Window{}}
	if !in.Decoded {
		base.Skipped = "dtype " + in.DType + " is not a floating-point type fp8lab decodes"
		return base, buf, nil
	}
	if in.Len() == 0 {
		base.Skipped = "empty tensor"
		return base, buf, nil
	}
	t, err := a.TensorInto(i, buf)
	if err != nil {
		return base, buf, err
	}
	st := Describe(t)
	st.Name, st.File, st.DType, st.Shape, st.Results = base.Name, base.File, base.DType, base.Shape, []Result{}
	st.Windows = []Window{}
	for _, f := range opts.Formats {
		if w, ok := TensorWindow(st.Amax, f); ok {
			st.Windows = append(st.Windows, w)
		}
	}
	type job struct {
		r Recipe
		f *fp8.Format
	}
	var jobs []job
	for _, r := range opts.Recipes {
		if r.Format != nil {
			jobs = append(jobs, job{r, nil})
			continue
		}
		for _, f := range opts.Formats {
			jobs = append(jobs, job{r, f})
		}
	}
	// The recipes run side by side (each also splits its own work): every
	// one writes its own slot, so the order of the results is the jobs'.
	st.Results = make([]Result, len(jobs))
	err = parallel.Chunks(len(jobs), 1, len(jobs)*t.Len(), func(lo, hi int) error {
		for k := lo; k < hi; k++ {
			st.Results[k] = Measure(t, jobs[k].r, jobs[k].f)
		}
		return nil
	})
	return st, t.Data, err
}

// summarize ranks the tensors under each recipe and format.
func (rep *Report) summarize(opts Options) {
	type key struct{ recipe, format string }
	var order []key
	byKey := map[key][]int{} // indices into rep.Tensors
	results := map[key][]Result{}
	for ti, t := range rep.Tensors {
		for _, r := range t.Results {
			k := key{r.Recipe, r.Format}
			if _, ok := byKey[k]; !ok {
				order = append(order, k)
			}
			byKey[k] = append(byKey[k], ti)
			results[k] = append(results[k], r)
		}
	}
	rep.Summary = []Summary{}
	for _, k := range order {
		s := Summary{Recipe: k.recipe, Format: k.format, Worst: []string{}, KeepBF16: []string{}}
		idx, res := byKey[k], results[k]
		perm := make([]int, len(idx))
		for i := range perm {
			perm[i] = i
		}
		sort.SliceStable(perm, func(a, b int) bool { return rank(res[perm[a]]) < rank(res[perm[b]]) })
		for _, p := range perm {
			if rank(res[p]) == math.Inf(1) || len(s.Worst) == WorstTensors {
				break
			}
			s.Worst = append(s.Worst, rep.Tensors[idx[p]].Name)
		}
		for i, r := range res {
			if r.Skipped != "" || r.WorstBlockSQNR < opts.MinSQNR {
				s.KeepBF16 = append(s.KeepBF16, rep.Tensors[idx[i]].Name)
			}
		}
		rep.Summary = append(rep.Summary, s)
	}
}

// rank orders results worst first: skipped, then by worst-block SQNR;
// all-zero tensors (NaN) and exact ones last.
func rank(r Result) float64 {
	switch {
	case r.Skipped != "":
		return math.Inf(-1)
	case r.WorstBlockSQNR != r.WorstBlockSQNR:
		return math.Inf(1)
	}
	return r.WorstBlockSQNR
}

// ErrNothing reports a scan that matched no tensor.
var ErrNothing = errors.New("scan: no tensor to scan")

// String is a one-line account of p for a progress display.
func (p Progress) String() string {
	rate := float64(p.Bytes) / max(p.Elapsed.Seconds(), 1e-9)
	eta := "?"
	if p.Bytes > 0 {
		eta = time.Duration(float64(p.Size-p.Bytes) / rate * float64(time.Second)).Round(time.Second).String()
	}
	return fmt.Sprintf("%d/%d tensors, %.1f MB/s, ETA %s", p.Tensors, p.Total, rate/1e6, eta)
}
