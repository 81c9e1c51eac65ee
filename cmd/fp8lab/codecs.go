package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/cmdline"
)

// codec is a format that encode, decode and table work with: an 8-bit
// fp8.Format, or one of the 16-bit fp8.Wide formats (FP16, BF16) that the
// formats command lists beside them.
type codec struct {
	f    *fp8.Format
	w    *fp8.Wide
	info fp8.Info // of w
}

// lookupCodec finds a preset minifloat, FP16 or BF16 by name.
func lookupCodec(name string) (codec, error) {
	f, w, err := fp8.LookupAny(name)
	if err != nil {
		return codec{}, err
	}
	if w != nil {
		return codec{w: w, info: w.Info()}, nil
	}
	return codec{f: f}, nil
}

// numCodes returns 2^bits.
func (c codec) numCodes() int {
	if c.w != nil {
		return 1 << 16
	}
	return c.f.NumCodes()
}

// hex writes a code with as many hex digits as the format has bits.
func (c codec) hex(code uint32) string {
	if c.w != nil {
		return fmt.Sprintf("0x%04X", code)
	}
	return fmt.Sprintf("0x%02X", code)
}

// encode rounds x in mode m; random is used by stochastic rounding only.
func (c codec) encode(x float64, m fp8.Mode, random uint32) (uint32, error) {
	if c.w != nil {
		v, err := c.w.EncodeMode(x, m, random)
		return uint32(v), err
	}
	var v uint8
	var err error
	if m.Round == fp8.Stochastic {
		v, err = c.f.EncodeStochastic(x, random, m)
	} else {
		v, err = c.f.Encode(x, m)
	}
	return uint32(v), err
}

// parseCode reads a code of the format: decimal, 0x hex or 0b binary.
func (c codec) parseCode(s string) (uint32, error) {
	if c.w == nil {
		v, err := parseCode(s)
		return uint32(v), err
	}
	v, err := strconv.ParseUint(strings.TrimSpace(s), 0, 16)
	if err != nil {
		return 0, fmt.Errorf("invalid code %q: want 0..65535, 0x0000..0xffff or 0b...", s)
	}
	return uint32(v), nil
}

// codeRow describes one code; its JSON is that of fp8.CodeInfo.
type codeRow struct {
	Code     uint32     `json:"code"`
	Bits     string     `json:"bits"`
	Sign     int        `json:"sign"`
	Exponent int        `json:"exponent_field"`
	Mantissa int        `json:"mantissa_field"`
	Power    int        `json:"power"`
	Value    fp8.Number `json:"value"`
	Class    fp8.Class  `json:"class"`
	ULP      fp8.Number `json:"ulp"`
}

// describe returns the fields, value and class of a code.
func (c codec) describe(code uint32) (codeRow, error) {
	if c.w == nil {
		if code > 0xFF {
			return codeRow{}, fmt.Errorf("%w: %#x", fp8.ErrCode, code)
		}
		ci, err := c.f.Describe(uint8(code))
		if err != nil {
			return codeRow{}, err
		}
		return codeRow{uint32(ci.Code), ci.Bits, ci.Sign, ci.Exponent, ci.Mantissa, ci.Power, ci.Value, ci.Class, ci.ULP}, nil
	}
	in := c.info
	e, m := in.ExpBits, in.ManBits
	r := codeRow{
		Code:     code,
		Sign:     int(code >> 15),
		Exponent: int(code>>m) & (1<<e - 1),
		Mantissa: int(code) & (1<<m - 1),
		Value:    fp8.Number(c.w.Decode(uint16(code))),
	}
	bits := fmt.Sprintf("%016b", code)
	r.Bits = bits[:1] + "." + bits[1:1+e] + "." + bits[1+e:]
	r.Power = r.Exponent - in.Bias
	if r.Exponent == 0 {
		r.Power = 1 - in.Bias
	}
	r.ULP = fp8.Number(math.Ldexp(1, r.Power-m))
	v := float64(r.Value)
	switch {
	case math.IsNaN(v):
		r.Class = fp8.ClassNaN
	case math.IsInf(v, 0):
		r.Class = fp8.ClassInf
	case math.Abs(v) == in.Max:
		r.Class = fp8.ClassMax
	case v == 0:
		r.Class = fp8.ClassZero
	case r.Exponent == 0:
		r.Class = fp8.ClassSubnormal
	default:
		r.Class = fp8.ClassNormal
	}
	return r, nil
}

// overflowFlags adds --overflow beside the older --saturate and returns a
// function that resolves them into a policy once the flags are parsed.
func overflowFlags(fs *flag.FlagSet) func() (fp8.Overflow, error) {
	saturate := fs.Bool("saturate", true, "clamp overflow and ±Inf to ±max; false follows OCP (Inf in E5M2, NaN in E4M3FN/FNUZ); see --overflow")
	name := fs.String("overflow", "saturate", "overflow policy: saturate (overflow and ±Inf give ±max), saturate-keep-inf (overflow gives ±max, ±Inf stays Inf/NaN, as ml_dtypes) or no-saturate (OCP: Inf or NaN)")
	return func() (fp8.Overflow, error) {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if set["overflow"] && set["saturate"] {
			return 0, cmdline.Usagef("give --overflow or --saturate, not both")
		}
		if set["overflow"] {
			return fp8.ParseOverflow(*name)
		}
		if !*saturate {
			return fp8.NoSaturate, nil
		}
		return fp8.Saturate, nil
	}
}

// outputFlags adds --json and --jsonl.
func outputFlags(fs *flag.FlagSet, what string) (asJSON, asJSONL *bool) {
	asJSON = fs.Bool("json", false, "print "+what+" as one JSON array")
	asJSONL = fs.Bool("jsonl", false, "print "+what+" as compact JSON, one object per line")
	return asJSON, asJSONL
}

// errorRow is the per-value error object that --keep-going prints in place
// of a result.
type errorRow struct {
	Input string `json:"input"`
	Error string `json:"error"`
}

// failures is the error a --keep-going batch returns when some values failed.
func failures(failed, total int) error {
	if failed == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d values failed", failed, total)
}

// parseRandomWords reads --rand-bits: 32-bit hex words separated by commas or
// spaces, one per value.
func parseRandomWords(s string) ([]uint32, error) {
	var out []uint32
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimPrefix(f, "0x"), "0X"), 16, 32)
		if err != nil {
			return nil, cmdline.Usagef("--rand-bits: %q is not a 32-bit hex word", f)
		}
		out = append(out, uint32(v))
	}
	return out, nil
}
