package gpu

// LinearReport is fp8lab-gpu linear --json: the forward and backward of one
// linear layer (Y = X·W, dX = dY·Wᵀ, dW = Xᵀ·dY) under each plan of
// native.LinearPlans, every launch timed on its own, at several shapes.
type LinearReport struct {
	Iters int `json:"iters"`
	// Verified lists the plans and the shape at which the run compared the
	// GPU's results with the CPU's before timing them (all matched, or the
	// run stopped).
	Verified []string      `json:"verified"`
	Shapes   []LinearShape `json:"shapes"`
}

// LinearShape is one layer shape: X is Tokens×In, W is In×Out.
type LinearShape struct {
	Tokens int          `json:"tokens"`
	In     int          `json:"in"`
	Out    int          `json:"out"`
	Plans  []LinearPlan `json:"plans"`
}

// LinearPlan is one plan's launches at one shape. Millis is the whole
// plan timed as one sequence (the launches overlap a little, so it may be
// below the sum of Steps).
type LinearPlan struct {
	Plan   string       `json:"plan"` // native.LinearPlan's name: "bf16", "fp8-naive", "fp8-fused"
	Millis float64      `json:"ms"`
	Steps  []LinearStep `json:"steps"`
}

// The roles of a plan's launches.
const (
	RoleProduce       = "produce"        // writes a matrix the layer reads (the kernel before the layer)
	RoleProduceAmax   = "produce+amax"   // the same, folding the matrix's amax in as it writes
	RoleAmax          = "amax"           // a pass that reads a matrix for its amax
	RoleScale         = "scale"          // turns amaxes into scales
	RoleCast          = "cast"           // rounds a matrix to FP8 (or BF16)
	RoleTranspose     = "transpose"      // copies FP8 codes transposed
	RoleCastTranspose = "cast+transpose" // rounds to FP8 and writes both layouts at once
	RoleGEMM          = "gemm"           // a matrix product
)

// LinearStep is one launch of a plan: what it does (Name) and the role it
// plays (Role*), with its time.
type LinearStep struct {
	Name   string  `json:"name"`
	Role   string  `json:"role"`
	Millis float64 `json:"ms"`
}

// RoleMillis returns the summed time of the plan's steps of role.
func (p LinearPlan) RoleMillis(role string) float64 {
	var ms float64
	for _, s := range p.Steps {
		if s.Role == role {
			ms += s.Millis
		}
	}
	return ms
}

// StepMillis returns the sum of the plan's step times.
func (p LinearPlan) StepMillis() float64 {
	var ms float64
	for _, s := range p.Steps {
		ms += s.Millis
	}
	return ms
}

// Plan returns the shape's plan of that name, or nil.
func (s *LinearShape) Plan(name string) *LinearPlan {
	if s == nil {
		return nil
	}
	for i := range s.Plans {
		if s.Plans[i].Plan == name {
			return &s.Plans[i]
		}
	}
	return nil
}
