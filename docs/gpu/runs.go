package gpu

import (
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sync"
)

//go:embed */*.json
var files embed.FS

// Info is fp8lab-gpu info --json: the fields the runs' readers use.
type Info struct {
	Name              string  `json:"name"`               // "NVIDIA H100 80GB HBM3"
	Major             int     `json:"major"`              // compute capability
	Minor             int     `json:"minor"`              //
	SMs               int     `json:"sms"`                // streaming multiprocessors
	MemoryBytes       int64   `json:"memory_bytes"`       //
	PeakGBps          float64 `json:"peak_gbps"`          // theoretical DRAM bandwidth
	Driver            int     `json:"driver"`             // CUDA driver API version, 13000 for 13.0
	ComputeCapability string  `json:"compute_capability"` // "sm_90"
	HardwareFP8       bool    `json:"hardware_fp8"`       // the FP8 conversion instructions
	CUBLASLt          string  `json:"cublaslt"`           // the library's path
	CUBLASLtVersion   int     `json:"cublaslt_version"`   // 130100 for 13.1.0
}

// DriverVersion returns the CUDA version of the driver, "13.0".
func (i Info) DriverVersion() string {
	return fmt.Sprintf("%d.%d", i.Driver/1000, i.Driver%1000/10)
}

// CUBLASLtRelease returns the cuBLASLt release, "13.1", or "" if unknown.
func (i Info) CUBLASLtRelease() string {
	if i.CUBLASLtVersion <= 0 {
		return ""
	}
	return fmt.Sprintf("%d.%d", i.CUBLASLtVersion/10000, i.CUBLASLtVersion/100%100)
}

// Run is one folder of measurements.
type Run struct {
	// Name is the folder, DEVICE-YYYY-MM-DD ("h100-2026-11-22").
	Name string
	// Date is the folder's date, YYYY-MM-DD (UTC, the day of the run).
	Date string
	Info Info
	// The files a run may lack are nil when absent.
	Bench    *Bench
	Accum    *AccumReport
	Emulated *Emulated
	Linear   *LinearReport
}

// runName is how a run's folder is named: lower-case device, date.
var runName = regexp.MustCompile(`^([a-z0-9]+(?:-[a-z0-9]+)*)-(\d{4}-\d{2}-\d{2})$`)

var runs struct {
	once sync.Once
	list []*Run
	err  error
}

// Runs returns every shipped run, oldest first (by date, then name),
// decoded once. The runs are shared: callers must not change them.
func Runs() ([]*Run, error) {
	runs.once.Do(func() { runs.list, runs.err = Load(files) })
	return runs.list, runs.err
}

// Latest returns the newest shipped run, the one the scene shows first.
func Latest() (*Run, error) {
	list, err := Runs()
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errors.New("gpu: no shipped runs")
	}
	return list[len(list)-1], nil
}

// Load reads every run folder at the top of fsys (a folder per run, named
// DEVICE-YYYY-MM-DD, holding info.json and optionally the other files);
// files it does not know are left alone. A folder with a bad name, without
// info.json or with a file that does not decode is an error.
func Load(fsys fs.FS) ([]*Run, error) {
	if fsys == nil {
		return nil, errors.New("gpu: no file system to load runs from")
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var out []*Run
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		m := runName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("gpu: run folder %q is not named DEVICE-YYYY-MM-DD", e.Name())
		}
		r := &Run{Name: e.Name(), Date: m[2]}
		if err := decode(fsys, r.Name, "info.json", &r.Info, true); err != nil {
			return nil, err
		}
		if r.Info.Name == "" {
			return nil, fmt.Errorf("gpu: %s/info.json names no device", r.Name)
		}
		r.Bench, err = optional[Bench](fsys, r.Name, "bench.json")
		if err != nil {
			return nil, err
		}
		if r.Accum, err = optional[AccumReport](fsys, r.Name, "accum.json"); err != nil {
			return nil, err
		}
		if r.Emulated, err = optional[Emulated](fsys, r.Name, "emulated.json"); err != nil {
			return nil, err
		}
		if r.Linear, err = optional[LinearReport](fsys, r.Name, "linear.json"); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b *Run) int {
		if a.Date != b.Date {
			return cmp.Compare(a.Date, b.Date)
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out, nil
}

// initializer is a type that sets its defaults before decoding.
type initializer interface{ init() }

// optional decodes dir/name into a new T, or returns nil if the file is
// absent.
func optional[T any](fsys fs.FS, dir, name string) (*T, error) {
	v := new(T)
	if i, ok := any(v).(initializer); ok {
		i.init()
	}
	if err := decode(fsys, dir, name, v, false); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	return v, nil
}

// decode reads dir/name as JSON into v; unknown fields are allowed (later
// versions of fp8lab-gpu add fields).
func decode(fsys fs.FS, dir, name string, v any, required bool) error {
	b, err := fs.ReadFile(fsys, path.Join(dir, name))
	if err != nil {
		if !required && errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return fmt.Errorf("gpu: %s/%s: %w", dir, name, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("gpu: %s/%s: %w", dir, name, err)
	}
	return nil
}
