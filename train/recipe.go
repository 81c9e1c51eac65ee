package train

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"sort"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/infile"
	"github.com/fp8lab/fp8lab/internal/strictjson"
	"github.com/fp8lab/fp8lab/scaling"
)

// Recipe says how every linear layer's three products are computed:
//
//	Forward     Y  = X·W     operands Input (X) and Weight (W)
//	InputGrad   dX = dY·Wᵀ   operands GradOutput (dY) and Weight
//	WeightGrad  dW = Xᵀ·dY   operands Input and GradOutput
//
// Each operand is quantized (through package scaling) and dequantized, and
// the dequantized operands are multiplied in float32: FP8 tensor cores
// multiply exactly and accumulate in float32, so this is the faithful
// emulation. Only an Accumulator other than float32 changes that: the
// product then runs through scaling.ScaledMatMul, which emulates fast
// accumulation and promotion product by product (much slower).
//
// Granularities are taken with the contraction dimension K along the rows
// of each operand: "row" is one scale per K-vector (per token of X in the
// forward product, per output channel of W, per input channel of X in the
// weight gradient), as torchao's rowwise recipe scales; 1×128 tiles and MX
// or NVFP4 blocks run along K.
type Recipe struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Shows is one line on what training under the recipe shows, for the
	// recipes that exist to show a failure (unscaled, underflow, ...).
	Shows      string  `json:"shows,omitempty"`
	Forward    Product `json:"forward"`
	InputGrad  Product `json:"input_grad"`
	WeightGrad Product `json:"weight_grad"`
	Scaling    Scaling `json:"scaling"`
	// StochasticGrads rounds the GradOutput operands stochastically, with
	// one Philox stream per tensor and step.
	StochasticGrads bool `json:"stochastic_grads,omitempty"`
	// MasterWeights is "fp32" (or empty), "bf16-rtn" or "bf16-sr": the
	// precision the weights are kept in between steps, and how an update
	// is rounded into it. The optimizer state stays float32.
	MasterWeights string `json:"master_weights,omitempty"`
	// QuantizeHead applies the recipe to the output head too; by default it
	// stays float32, as torchao and Transformer Engine leave the head alone.
	QuantizeHead bool `json:"quantize_head,omitempty"`
	// Overflow is what an FP8 cast does with a value beyond the format's
	// largest: "saturate" (or empty) clips it there, as torchao and
	// Transformer Engine cast; "nonsaturating" makes it Inf, or NaN in a
	// format without Inf (E4M3FN), as OCP's non-saturating mode does. The
	// Inf or NaN would then spread through the step, so training stops at
	// the first one with a NonFiniteError that names it.
	Overflow string `json:"overflow,omitempty"`
}

// The overflow modes of Recipe.Overflow.
const (
	OverflowSaturate      = "saturate"
	OverflowNonsaturating = "nonsaturating"
)

// Product configures one of the three matrix products. The operand the
// product does not use must be left empty.
type Product struct {
	Input      Operand `json:"input,omitzero"`
	Weight     Operand `json:"weight,omitzero"`
	GradOutput Operand `json:"grad_output,omitzero"`
	// Accumulator, when set and not plain float32, emulates fast
	// accumulation (scaling.Accumulator: kept mantissa bits, promotion).
	Accumulator *scaling.Accumulator `json:"accumulator,omitempty"`
	// Hadamard is the block size (a power of two) of a random Hadamard
	// rotation applied along K to both operands before quantization, as
	// Transformer Engine's NVFP4 recipe rotates the weight-gradient inputs;
	// 0 means none. It is allowed on the weight gradient only.
	Hadamard int `json:"hadamard,omitempty"`
}

// Operand is how one operand is rounded. Format is "" or "fp32" (left in
// float32), "bf16" (rounded to nearest BF16 elementwise), or an fp8 element
// format name such as "e4m3fn", "e5m2" or "e2m1", quantized with Granularity.
type Operand struct {
	Format      string              `json:"format,omitempty"`
	Granularity scaling.Granularity `json:"granularity,omitzero"`
}

// Scaling is the scale rule of every FP8 operand.
type Scaling struct {
	// None casts every FP8 operand with scale 1, as a plain dtype would be
	// cast (the "bf8" the talk of seed 002 says cannot work): values below
	// the format's smallest subnormal flush to zero, those above its
	// largest clip. Its operands are per tensor, without margin or pow2.
	None bool `json:"none,omitempty"`
	// Delayed uses Transformer Engine's delayed scaling (per-tensor scales
	// from an amax history of earlier steps) instead of current scaling.
	Delayed    bool   `json:"delayed,omitempty"`
	HistoryLen int    `json:"history_len,omitempty"` // 0: scaling.DefaultHistoryLen
	AmaxAlgo   string `json:"amax_algo,omitempty"`   // "max" (default) or "most_recent"
	// Margin divides scales by 2^Margin (current and delayed).
	Margin int `json:"margin,omitempty"`
	// Pow2 rounds current scales to powers of two: "none" (default), "down", "up".
	Pow2 string `json:"pow2,omitempty"`
	// MXRounding is the rule of MX blocks' E8M0 scales: "floor" (default,
	// OCP MX's rule: the block maximum may saturate) or "ceil" (also spelt
	// "rceil": 2^ceil(log2(amax/Max)), cuBLAS's and Blackwell's UE8M0
	// recipe, which never saturates). It needs an MX operand.
	MXRounding string `json:"mx_rounding,omitempty"`
}

// kind of an operand's rounding
type opKind uint8

const (
	opFP32 opKind = iota
	opBF16
	opFP8
)

// kind parses o.Format: the fp8 format for opFP8.
func (o Operand) kind() (opKind, *fp8.Format, error) {
	switch strings.ToLower(o.Format) {
	case "", "fp32", "float32":
		return opFP32, nil, nil
	case "bf16", "bfloat16":
		return opBF16, nil, nil
	}
	f, err := fp8.Lookup(o.Format)
	if err != nil {
		return 0, nil, err
	}
	return opFP8, f, nil
}

// Products returns the three products with their names ("forward",
// "input_grad", "weight_grad").
func (r *Recipe) products() [3]*Product { return [3]*Product{&r.Forward, &r.InputGrad, &r.WeightGrad} }

var productNames = [3]string{"forward", "input_grad", "weight_grad"}

// roles of operands, in the order of Product's fields
var roleNames = [3]string{"input", "weight", "grad_output"}

// uses[product] lists the roles a product multiplies (left, right).
var uses = [3][2]int{{0, 1}, {2, 1}, {0, 2}}

// emulated reports whether the product emulates an accumulator other than
// float32, multiplying K-major codes with scaling.ScaledMatMul.
func (p *Product) emulated() bool {
	return p.Accumulator != nil && *p.Accumulator != scaling.Float32Accumulator
}

func (p *Product) operand(role int) *Operand {
	return [3]*Operand{&p.Input, &p.Weight, &p.GradOutput}[role]
}

// Check reports an inconsistent recipe, naming the product and operand.
func (r *Recipe) Check() error {
	if r == nil {
		return errors.New("train: no recipe")
	}
	rule, err := r.Scaling.rule()
	if err != nil {
		return fmt.Errorf("train: recipe %q: %w", r.Name, err)
	}
	if r.Scaling.HistoryLen < 0 {
		return fmt.Errorf("train: recipe %q: negative history_len", r.Name)
	}
	if _, err := r.Scaling.algo(); err != nil {
		return fmt.Errorf("train: recipe %q: %w", r.Name, err)
	}
	switch r.MasterWeights {
	case "", "fp32", "bf16-rtn", "bf16-sr":
	default:
		return fmt.Errorf("train: recipe %q: master_weights %q (want fp32, bf16-rtn or bf16-sr)", r.Name, r.MasterWeights)
	}
	if _, err := r.overflow(); err != nil {
		return fmt.Errorf("train: recipe %q: %w", r.Name, err)
	}
	mxRounding, err := r.Scaling.mxRounding()
	if err != nil {
		return fmt.Errorf("train: recipe %q: %w", r.Name, err)
	}
	if sc := r.Scaling; sc.None && (sc.Delayed || sc.Margin != 0 || sc.Pow2 != "" || sc.HistoryLen != 0 || sc.AmaxAlgo != "") {
		return fmt.Errorf("train: recipe %q: scaling none casts with scale 1: no delayed scaling, margin, pow2, history_len or amax_algo", r.Name)
	}
	sawMX := false
	one, _ := scaling.NewTensor(1, 32)
	for i := range one.Data {
		one.Data[i] = float32(i + 1)
	}
	for pi, p := range r.products() {
		where := fmt.Sprintf("train: recipe %q: %s", r.Name, productNames[pi])
		var fp8Count, blockAlongK int
		for role := range 3 {
			o := p.operand(role)
			used := role == uses[pi][0] || role == uses[pi][1]
			if !used {
				if *o != (Operand{}) {
					return fmt.Errorf("%s: operand %s is not used by this product", where, roleNames[role])
				}
				continue
			}
			k, f, err := o.kind()
			if err != nil {
				return fmt.Errorf("%s.%s: %w", where, roleNames[role], err)
			}
			if k != opFP8 {
				if o.Granularity != (scaling.Granularity{}) {
					return fmt.Errorf("%s.%s: a granularity needs an fp8 format", where, roleNames[role])
				}
				continue
			}
			fp8Count++
			g := o.Granularity
			if r.Scaling.Delayed && g.Kind != scaling.KindTensor {
				return fmt.Errorf("%s.%s: delayed scaling is per tensor, not %v", where, roleNames[role], g)
			}
			if r.Scaling.None && g.Kind != scaling.KindTensor {
				return fmt.Errorf("%s.%s: scaling none is one scale of 1 per tensor, not %v", where, roleNames[role], g)
			}
			// Per-kind behaviour comes from what the kind's scales are
			// (scaling's table), not from which kind it is.
			if !g.FloatScales() {
				blockAlongK++
			}
			// Let scaling judge the format, granularity and rule together.
			opts := scaling.Options{Rule: rule}
			if !g.FloatScales() {
				opts.Rule = scaling.ScaleRule{}
				if rule != (scaling.ScaleRule{}) {
					return fmt.Errorf("%s.%s: %v has its own scale rule (no margin or pow2)", where, roleNames[role], g)
				}
			}
			if g.Scales() == scaling.ScaleE8M0 {
				opts.MXRounding, sawMX = mxRounding, true
			}
			if _, err := scaling.Quantize(one, f, g, opts); err != nil {
				return fmt.Errorf("%s.%s: %w", where, roleNames[role], err)
			}
		}
		if a := p.Accumulator; a != nil {
			if err := a.Check(); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			if *a != scaling.Float32Accumulator && (fp8Count != 2 || blockAlongK > 0) {
				return fmt.Errorf("%s: emulated accumulation needs both operands in fp8 with tensor, row, tile or block granularity", where)
			}
		}
		if p.Hadamard != 0 {
			if pi != 2 {
				return fmt.Errorf("%s: Hadamard rotation is for the weight gradient only", where)
			}
			if p.Hadamard < 2 || bits.OnesCount(uint(p.Hadamard)) != 1 {
				return fmt.Errorf("%s: Hadamard block %d is not a power of two ≥ 2", where, p.Hadamard)
			}
		}
	}
	if r.Scaling.MXRounding != "" && !sawMX {
		return fmt.Errorf("train: recipe %q: mx_rounding %q needs an operand with E8M0 (MX) scales", r.Name, r.Scaling.MXRounding)
	}
	return nil
}

// overflow returns the element overflow policy of the recipe's FP8 casts.
func (r *Recipe) overflow() (fp8.Overflow, error) {
	switch r.Overflow {
	case "", OverflowSaturate:
		return fp8.Saturate, nil
	case OverflowNonsaturating:
		return fp8.NoSaturate, nil
	}
	return 0, fmt.Errorf("overflow %q (want %s or %s)", r.Overflow, OverflowSaturate, OverflowNonsaturating)
}

// mxRounding returns the rule of MX scales.
func (s Scaling) mxRounding() (fp8.ScaleRounding, error) {
	switch s.MXRounding {
	case "", "floor":
		return fp8.ScaleFloor, nil
	case "ceil", "rceil":
		return fp8.ScaleCeil, nil
	}
	return 0, fmt.Errorf("mx_rounding %q (want floor, or ceil/rceil)", s.MXRounding)
}

// rule returns the current-scaling rule.
func (s Scaling) rule() (scaling.ScaleRule, error) {
	r := scaling.ScaleRule{Margin: s.Margin}
	if s.Pow2 != "" {
		p, err := scaling.ParsePow2(s.Pow2)
		if err != nil {
			return r, err
		}
		r.Pow2 = p
	}
	return r, nil
}

func (s Scaling) algo() (scaling.AmaxAlgo, error) {
	if s.AmaxAlgo == "" {
		return scaling.AmaxMax, nil
	}
	return scaling.ParseAmaxAlgo(s.AmaxAlgo)
}

// ParseRecipe reads a recipe from JSON, at most infile.Recipe.Max bytes.
// The JSON is read strictly (internal/strictjson): null, a key given twice,
// unknown fields and trailing data are errors, and so are inconsistent
// settings; each error says where the problem is.
func ParseRecipe(rd io.Reader) (*Recipe, error) {
	data, err := io.ReadAll(io.LimitReader(rd, infile.Recipe.Max+1))
	if err != nil {
		return nil, fmt.Errorf("train: recipe JSON: %w", err)
	}
	if int64(len(data)) > infile.Recipe.Max {
		return nil, fmt.Errorf("train: recipe JSON of more than %d bytes", infile.Recipe.Max)
	}
	var r Recipe
	if err := strictjson.Decode(data, &r); err != nil {
		return nil, fmt.Errorf("train: recipe JSON: %w", err)
	}
	if err := r.Check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// MarshalIndented returns the recipe as indented JSON that ParseRecipe reads back.
func (r *Recipe) MarshalIndented() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// RecipeNames returns the names of the built-in recipes, sorted.
func RecipeNames() []string {
	names := make([]string, 0, len(recipes))
	for n := range recipes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// RecipeByName returns a fresh copy of a built-in recipe.
func RecipeByName(name string) (*Recipe, error) {
	f, ok := recipes[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("train: unknown recipe %q (known: %s)", name, strings.Join(RecipeNames(), ", "))
	}
	r := f()
	r.Name = strings.ToLower(name)
	return &r, nil
}
