package gpu

import "github.com/fp8lab/fp8lab/scaling"

// AccumError is the error of one product against the exact (float64) one:
// Rel is the relative error ‖D − R‖₂ / ‖R‖₂ over the whole output, Norm the
// mean of |d − r| / Σ|a||b| over its elements (the measure of
// native.GEMMTolFP8), and MaxNorm the largest such element error.
type AccumError struct {
	Rel     float64 `json:"rel"`
	Norm    float64 `json:"norm"`
	MaxNorm float64 `json:"max_norm"`
}

// AccumRow is one (operands, K) measurement of native/accum's Study: the
// device with fast accumulation off and on, and scaling.Accumulator's
// emulations of it.
type AccumRow struct {
	Operands string     `json:"operands"` // "positive" or "signed"
	K        int        `json:"k"`
	Off      AccumError `json:"device_fast_accum_off"`
	On       AccumError `json:"device_fast_accum_on"`
	Float32  AccumError `json:"emulated_float32"`
	Shipped  AccumError `json:"emulated_shipped"` // AccumReport.Shipped
	Fitted   AccumError `json:"emulated_fitted"`  // AccumReport.Fit
	// Promoted is AccumReport.Promoted against Off; absent in runs made
	// before fp8lab-gpu reported it.
	Promoted *AccumError `json:"emulated_promoted,omitempty"`
}

// AccumReport is fp8lab-gpu accum --json (native/accum's Study): M×K by K×N
// E4M3FN operands with scale 1, K from Rows, rebuilt from Seed+K.
type AccumReport struct {
	M int `json:"m"`
	N int `json:"n"`
	// Seed seeds the operands of K as Seed+K. Runs made before the field
	// existed used fp8lab-gpu accum's default, 1, which the reader assumes
	// when it is absent.
	Seed uint64     `json:"seed"`
	Rows []AccumRow `json:"rows"`
	// Fit is the candidate accumulator whose relative errors are closest to
	// the device's with fast accumulation on (least squares of the log
	// ratio over every row), and FitSpread the largest factor between its
	// error and the device's in any row (1 is a perfect fit).
	Fit       scaling.Accumulator `json:"fit"`
	FitSpread float64             `json:"fit_spread"`
	// Shipped is scaling.FastAccumulator when the run was made, and
	// ShippedSpread its spread against fast accumulation on.
	Shipped       scaling.Accumulator `json:"shipped"`
	ShippedSpread float64             `json:"shipped_spread"`
	// Promoted is scaling.PromotedAccumulator when the run was made, and
	// PromotedSpread its spread against fast accumulation off; nil in runs
	// made before fp8lab-gpu reported it.
	Promoted       *scaling.Accumulator `json:"promoted,omitempty"`
	PromotedSpread float64              `json:"promoted_spread,omitempty"`
}

func (r *AccumReport) init() { r.Seed = 1 }

// Emulated is emulated.json: what the emulator of this fp8lab gives on a
// run's accumulation operands (rebuilt from AccumReport's M, N and Seed),
// so that the emulation shown beside old measurements is the current one.
// native/accum's TestAccumulatorFitsShippedRuns checks it against the
// code and rewrites it with -update.
type Emulated struct {
	// Fast and Promoted are scaling.FastAccumulator and
	// scaling.PromotedAccumulator as they were when the file was written.
	Fast     scaling.Accumulator `json:"fast"`
	Promoted scaling.Accumulator `json:"promoted"`
	Rows     []EmulatedRow       `json:"rows"`
}

// EmulatedRow is one (operands, K) of Emulated: Fast's error, to compare
// with fast accumulation on, and Promoted's, to compare with it off.
type EmulatedRow struct {
	Operands string     `json:"operands"`
	K        int        `json:"k"`
	Fast     AccumError `json:"fast"`
	Promoted AccumError `json:"promoted"`
}

// Row returns the row of (operands, k), or nil.
func (e *Emulated) Row(operands string, k int) *EmulatedRow {
	if e == nil {
		return nil
	}
	for i := range e.Rows {
		if e.Rows[i].Operands == operands && e.Rows[i].K == k {
			return &e.Rows[i]
		}
	}
	return nil
}
