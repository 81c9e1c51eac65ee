package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/fp8lab/fp8lab/fp8"
)

// outcome is what one input becomes under the four modes the example compares.
type outcome struct {
	X          float64
	Nearest    float64 // round to nearest even, saturating
	TowardZero float64 // truncate, saturating
	NoSat      float64 // round to nearest even, non-saturating (OCP): NaN on overflow
}

// result gathers the table and the double-rounding trap.
type result struct {
	Rows []outcome
	// Trap is the float64 input, Direct its E4M3FN value rounded once and
	// ViaF32 the value after rounding through float32 first.
	Trap, Direct, ViaF32 float64
}

func decodeIn(f *fp8.Format, x float64, m fp8.Mode) (float64, error) {
	c, err := f.Encode(x, m)
	if err != nil {
		return 0, err
	}
	return f.Decode(c), nil
}

// run prints the comparison and returns it.
func run(w io.Writer) (*result, error) {
	f := fp8.E4M3FN
	inputs := []float64{0.3952, 4.25, 4.75, 17, 240, 447, 456, 464, 465, 500, 1e6, math.Inf(1)}
	res := &result{}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "x\tnearest (sat)\ttoward zero\tnearest (no sat)\t")
	for _, x := range inputs {
		var o outcome
		var err error
		o.X = x
		if o.Nearest, err = decodeIn(f, x, fp8.Mode{}); err != nil {
			return nil, err
		}
		if o.TowardZero, err = decodeIn(f, x, fp8.Mode{Round: fp8.TowardZero}); err != nil {
			return nil, err
		}
		if o.NoSat, err = decodeIn(f, x, fp8.Mode{Overflow: fp8.NoSaturate}); err != nil {
			return nil, err
		}
		res.Rows = append(res.Rows, o)
		fmt.Fprintf(tw, "%g\t%g\t%g\t%g\t\n", o.X, o.Nearest, o.TowardZero, o.NoSat)
	}
	if err := tw.Flush(); err != nil {
		return nil, err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "464 lies halfway between 448 and the next step, 480, whose code S.1111.111 is NaN:")
	fmt.Fprintln(w, "the tie goes to the even code, 448. Anything above 464 rounds past Max: saturating")
	fmt.Fprintln(w, "mode clamps it to 448, OCP's non-saturating mode gives NaN.")

	// The double-rounding trap: float32(x) rounds -431.99999999999994 to -432,
	// exactly halfway between -416 and -448; the tie then goes to -448.
	res.Trap = -431.99999999999994
	var err error
	if res.Direct, err = decodeIn(f, res.Trap, fp8.Mode{}); err != nil {
		return nil, err
	}
	if res.ViaF32, err = decodeIn(f, float64(float32(res.Trap)), fp8.Mode{}); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "\ndouble rounding: x = %.17g\n", res.Trap)
	fmt.Fprintf(w, "  rounded once, from float64:        %g\n", res.Direct)
	fmt.Fprintf(w, "  rounded to float32 (%g) first:    %g\n", float32(res.Trap), res.ViaF32)
	return res, nil
}
