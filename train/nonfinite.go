package train

import (
	"fmt"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/scaling"
)

// NonFiniteError is a training step that met an Inf or a NaN: an FP8
// operand that a non-saturating cast (or a delayed scale, or scale 1)
// turned non-finite, a non-finite loss, or a non-finite gradient. An Inf
// or a NaN spreads through every product after it, so training stops at
// the first one, and the error says where it arose.
type NonFiniteError struct {
	Step int `json:"step"` // the 1-based step it happened in
	// Layer is the linear layer ("h0.fcproj", "head") or, for a gradient
	// of a parameter outside the linear layers, the parameter ("h0.ln1.w",
	// "wte"); empty for the loss.
	Layer string `json:"layer,omitempty"`
	// Product (forward, input_grad, weight_grad) and Operand (input,
	// weight, grad_output; what the gradient is of) name the tensor.
	Product string `json:"product,omitempty"`
	Operand string `json:"operand,omitempty"`
	// What is "operand", "loss" or "gradient".
	What string `json:"what"`
	// Count of Elements are not finite (operands and gradients).
	Count    int `json:"count,omitempty"`
	Elements int `json:"elements,omitempty"`
	// Format, Max, Scale and Amax describe an operand's cast: the element
	// format and its largest finite value, the scale it was multiplied by
	// and its largest |x| before.
	Format string  `json:"format,omitempty"`
	Max    float64 `json:"max,omitempty"`
	Scale  float32 `json:"scale,omitempty"`
	Amax   float32 `json:"amax,omitempty"`
	// Saturating is set when the cast saturates: the Inf or NaN came into
	// it rather than from it.
	Saturating bool `json:"saturating,omitempty"`
	// Loss is the non-finite loss (What "loss"), as "NaN", "+Inf" or
	// "-Inf": JSON has no such numbers.
	Loss string `json:"loss,omitempty"`
	// Validation is set when it happened computing the validation loss
	// after Step steps.
	Validation bool `json:"validation,omitempty"`
}

// Error implements error: it names the step, the layer, the product and
// the operand.
func (e *NonFiniteError) Error() string {
	if e == nil {
		return "train: a non-finite value"
	}
	var b strings.Builder
	if e.Validation {
		fmt.Fprintf(&b, "train: validation after step %d: ", e.Step)
	} else {
		fmt.Fprintf(&b, "train: step %d: ", e.Step)
	}
	switch e.What {
	case "loss":
		fmt.Fprintf(&b, "the loss is %s", e.Loss)
	case "gradient":
		fmt.Fprintf(&b, "%s %s, gradient of %s: %d of %d elements are Inf or NaN", e.Layer, e.Product, e.Operand, e.Count, e.Elements)
	default:
		fmt.Fprintf(&b, "%s %s, operand %s: %d of %d elements are Inf or NaN after the cast to %s", e.Layer, e.Product,
			e.Operand, e.Count, e.Elements, e.Format)
		if e.Saturating {
			b.WriteString(" (they were Inf or NaN before it)")
		} else {
			fmt.Fprintf(&b, " (a non-saturating cast: x·scale rounded beyond ±%g; scale %.4g, largest |x| %.4g)", e.Max, e.Scale, e.Amax)
		}
	}
	b.WriteString("; training stops")
	return b.String()
}

// unitScale is the one scale of Scaling.None: a plain cast.
var unitScale = [1]float32{1}

// nonFinite describes an operand whose cast gave bad Inf or NaN elements
// out of n (Trainer.Step adds the step).
func (e *linearEngine) nonFinite(site, product, role int, q *scaling.Quantized, bad, n int) *NonFiniteError {
	err := &NonFiniteError{What: "operand", Layer: siteName(e.cfg, site), Product: productNames[product],
		Operand: roleNames[role], Count: bad, Elements: n, Format: q.Format.Name(), Max: q.Format.Max(),
		Saturating: e.overflow != fp8.NoSaturate}
	for _, a := range q.Amax {
		err.Amax = max(err.Amax, a)
	}
	if len(q.Scales) > 0 {
		err.Scale = q.Scales[0]
	}
	return err
}

// countNonFinite returns how many of v are Inf or NaN.
func countNonFinite(v []float32) int {
	n := 0
	for _, x := range v {
		if x-x != 0 { // NaN - NaN and Inf - Inf are NaN
			n++
		}
	}
	return n
}

// gradientError returns a NonFiniteError for the first parameter tensor
// whose gradient holds an Inf or a NaN, or nil. A linear layer's weight
// and bias gradients are named by the layer and the weight_grad product.
func (m *gpt) gradientError() *NonFiniteError {
	if countNonFinite(m.grads) == 0 {
		return nil
	}
	off := 0
	for _, s := range m.specs {
		g := m.grads[off : off+s.Rows*s.Cols]
		off += len(g)
		n := countNonFinite(g)
		if n == 0 {
			continue
		}
		e := &NonFiniteError{What: "gradient", Layer: s.Name, Count: n, Elements: len(g)}
		if base, part, ok := cutLast(s.Name); ok {
			switch {
			case strings.HasSuffix(base, ".qkv"), strings.HasSuffix(base, ".attproj"),
				strings.HasSuffix(base, ".fc"), strings.HasSuffix(base, ".fcproj"):
				e.Layer, e.Product = base, "weight_grad"
				e.Operand = map[string]string{"w": "the weight (dW)", "b": "the bias"}[part]
				return e
			}
		}
		e.Product, e.Operand = "backward", "the parameter"
		return e
	}
	return nil
}

// cutLast splits "h0.fc.w" into "h0.fc" and "w".
func cutLast(name string) (string, string, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return name, "", false
	}
	return name[:i], name[i+1:], true
}
