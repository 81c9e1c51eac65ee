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
	// Layout says which dimensions of a tensor are its output channels
	// (the zero value: Torch); see View.
	Layout Layout
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
	// Layout names the Layout the tensors were viewed in.
	Layout  string        `json:"layout"`
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
	// threshold (or that the recipe could not quantize), in scan order,
	// each with the reason.
	KeepBF16 []Keep `json:"keep_bf16"`
	// Flushed lists the tensors of which the recipe flushes at least
	// FlushRisk percent of the values to zero, and Clipped those of which
	// it clips any, most values first, each with the share of the
	// tensor's energy (Σx²) those values carry: a share of values says
	// how many are lost, the share of energy how much of the signal.
	Flushed []Risk `json:"flushed"`
	Clipped []Risk `json:"clipped"`
}

// Keep is a tensor a recipe should leave in BF16, and why: its worst 1×32
// block's SQNR (WorstBlockSQNR, at WorstBlock) is below Report.MinSQNR,
// or the recipe could not quantize it (Skipped says why; the SQNR is then
// 0).
type Keep struct {
	Tensor         string  `json:"tensor"`
	WorstBlockSQNR float64 `json:"worst_block_sqnr_db"`
	WorstBlock     int     `json:"worst_block"`
	Skipped        string  `json:"skipped,omitempty"`
}

// Risk is a tensor of which a recipe flushes or clips values: Values is
// the percentage of its elements, Energy the percentage of its Σx² they
// carry.
type Risk struct {
	Tensor string  `json:"tensor"`
	Values float64 `json:"values_pct"`
	Energy float64 `json:"energy_pct"`
}

// FlushRisk is the share of a tensor's values (percent) that a recipe
// must flush to zero for Summary.Flushed to name it. Gaussian weights
// lose far less under the 8-bit recipes (E4M3's window spans 17 binades)
// but about 1 value in 14 under nvfp4, whose E2M1 elements flush what
// lies below a 24th of the block's amax (TestFlushRiskOnGaussian): 10%
// names what a recipe loses beyond that.
const FlushRisk = 10.0

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
	case o.Layout != Torch && o.Layout != TF:
		return fmt.Errorf("scan: unknown layout %v", o.Layout)
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
	rep := &Report{Layout: opts.Layout.String(), MinSQNR: opts.MinSQNR, Tensors: []TensorStats{}}
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
	var bufs buffers
	for _, j := range jobs {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		in := j.a.Tensors[j.i]
		var st TensorStats
		st, err = scanOne(j.a, j.i, opts, &bufs)
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

// buffers are the storage a Run reuses from tensor to tensor: the decoded
// values (see Archive.TensorInto) and their transpose for a TF view.
type buffers struct{ decoded, view []float32 }

// scanOne reads tensor i of a into bufs and measures it in its view.
func scanOne(a *tensorio.Archive, i int, opts Options, bufs *buffers) (TensorStats, error) {
	in := a.Tensors[i]
	v := opts.Layout.View(in.Name, in.Shape)
	base := TensorStats{Name: in.Name, File: in.File, DType: in.DType, Shape: in.Shape, View: v.String(), Results: []Result{}, OutlierRows: []int{},
		Histogram: Histogram{Counts: []int{}}, Windows: []Window{}}
	if !in.Decoded {
		base.Skipped = "dtype " + in.DType + " is not a floating-point type fp8lab decodes"
		return base, nil
	}
	if in.Len() == 0 {
		base.Skipped = "empty tensor"
		return base, nil
	}
	t, err := a.TensorInto(i, bufs.decoded)
	if err != nil {
		return base, err
	}
	bufs.decoded = t.Data
	t, bufs.view = v.apply(t, bufs.view)
	st := Describe(t)
	st.Name, st.File, st.DType, st.Shape, st.View, st.Results = base.Name, base.File, base.DType, base.Shape, base.View, []Result{}
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
	return st, err
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
		s := Summary{Recipe: k.recipe, Format: k.format, Worst: []string{}, KeepBF16: []Keep{}, Flushed: []Risk{}, Clipped: []Risk{}}
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
			name := rep.Tensors[idx[i]].Name
			switch {
			case r.Skipped != "":
				s.KeepBF16 = append(s.KeepBF16, Keep{Tensor: name, WorstBlock: -1, Skipped: r.Skipped})
				continue
			case r.WorstBlockSQNR < opts.MinSQNR:
				s.KeepBF16 = append(s.KeepBF16, Keep{Tensor: name, WorstBlockSQNR: r.WorstBlockSQNR, WorstBlock: r.WorstBlock})
			}
			if r.Underflow >= FlushRisk {
				s.Flushed = append(s.Flushed, Risk{name, r.Underflow, r.UnderflowEnergy})
			}
			if r.Overflow > 0 {
				s.Clipped = append(s.Clipped, Risk{name, r.Overflow, r.OverflowEnergy})
			}
		}
		for _, l := range [][]Risk{s.Flushed, s.Clipped} {
			sort.SliceStable(l, func(a, b int) bool { return l[a].Values > l[b].Values })
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
