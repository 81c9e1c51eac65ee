package fp8

import (
	"fmt"
	"strings"
)

// mustFormat builds a preset; presets are constants of the package, so a
// failure is a programming error caught by the first test run.
func mustFormat(s Spec) *Format {
	f, err := NewFormat(s)
	if err != nil {
		panic(err)
	}
	return f
}

// The presets. Facts follow OCP OFP8 v1.0 and OCP MX v1.0, and ml_dtypes for
// the IEEE-like E4M3 and E3M4.
var (
	// E4M3FN is OCP FP8 E4M3: max 448, no Inf, NaN = S.1111.111.
	E4M3FN = mustFormat(Spec{Name: "E4M3FN", Signed: true, ExpBits: 4, ManBits: 3, Bias: 7, Specials: FN})
	// E5M2 is OCP FP8 E5M2: IEEE-like, max 57344, with ±Inf and NaN.
	E5M2 = mustFormat(Spec{Name: "E5M2", Signed: true, ExpBits: 5, ManBits: 2, Bias: 15, Specials: IEEE})
	// E4M3FNUZ is the AMD/Graphcore variant: bias 8, max 240, NaN = 0x80, no -0.
	E4M3FNUZ = mustFormat(Spec{Name: "E4M3FNUZ", Signed: true, ExpBits: 4, ManBits: 3, Bias: 8, Specials: FNUZ})
	// E5M2FNUZ is the AMD/Graphcore variant: bias 16, max 57344, NaN = 0x80, no -0.
	E5M2FNUZ = mustFormat(Spec{Name: "E5M2FNUZ", Signed: true, ExpBits: 5, ManBits: 2, Bias: 16, Specials: FNUZ})
	// E4M3 is the IEEE-like E4M3 of ml_dtypes (float8_e4m3): max 240, ±Inf, NaN.
	E4M3 = mustFormat(Spec{Name: "E4M3", Signed: true, ExpBits: 4, ManBits: 3, Bias: 7, Specials: IEEE})
	// E3M4 is ml_dtypes' IEEE-like float8_e3m4: max 15.5.
	E3M4 = mustFormat(Spec{Name: "E3M4", Signed: true, ExpBits: 3, ManBits: 4, Bias: 3, Specials: IEEE})
	// E4M3B11FNUZ is ml_dtypes' float8_e4m3b11fnuz, the E4M3 of Google's TPUs
	// (StableHLO RFC "E4M3B11FNUZ in XLA"): bias 11, no Inf, NaN = 0x80, no -0;
	// max 30, smallest normal 2^-10, smallest subnormal 2^-13.
	E4M3B11FNUZ = mustFormat(Spec{Name: "E4M3B11FNUZ", Signed: true, ExpBits: 4, ManBits: 3, Bias: 11, Specials: FNUZ})
	// E8M0 is the unsigned MX scale (UE8M0): 2^-127..2^127, no zero, 0xFF = NaN.
	E8M0 = mustFormat(Spec{Name: "E8M0", Signed: false, ExpBits: 8, ManBits: 0, Bias: 127, Specials: ExponentOnly})
	// E2M3 is the MX FP6 element type: finite only, max 7.5.
	E2M3 = mustFormat(Spec{Name: "E2M3", Signed: true, ExpBits: 2, ManBits: 3, Bias: 1, Specials: FiniteOnly})
	// E3M2 is the MX FP6 element type: finite only, max 28.
	E3M2 = mustFormat(Spec{Name: "E3M2", Signed: true, ExpBits: 3, ManBits: 2, Bias: 3, Specials: FiniteOnly})
	// E2M1 is the MX/NVFP4 FP4 element type: values 0, .5, 1, 1.5, 2, 3, 4, 6.
	E2M1 = mustFormat(Spec{Name: "E2M1", Signed: true, ExpBits: 2, ManBits: 1, Bias: 1, Specials: FiniteOnly})
)

var presets = []*Format{E4M3FN, E5M2, E4M3FNUZ, E5M2FNUZ, E4M3, E3M4, E4M3B11FNUZ, E8M0, E2M3, E3M2, E2M1}

// aliases maps other common spellings to preset names (upper-cased keys).
var aliases = map[string]string{
	"FLOAT8_E4M3FN":      "E4M3FN",
	"FLOAT8_E5M2":        "E5M2",
	"FLOAT8_E4M3FNUZ":    "E4M3FNUZ",
	"FLOAT8_E5M2FNUZ":    "E5M2FNUZ",
	"FLOAT8_E4M3":        "E4M3",
	"FLOAT8_E3M4":        "E3M4",
	"FLOAT8_E4M3B11FNUZ": "E4M3B11FNUZ",
	"FLOAT8_E8M0FNU":     "E8M0",
	"E8M0FNU":            "E8M0",
	"UE8M0":              "E8M0",
	"FLOAT6_E2M3FN":      "E2M3",
	"FLOAT6_E3M2FN":      "E3M2",
	"FLOAT4_E2M1FN":      "E2M1",
	"E2M3FN":             "E2M3",
	"E3M2FN":             "E3M2",
	"E2M1FN":             "E2M1",
	"FP4":                "E2M1",
	"OFP8_E4M3":          "E4M3FN",
	"OFP8_E5M2":          "E5M2",
}

// Presets returns the built-in formats in a stable order: the FP8 formats,
// the E8M0 scale, then the FP6 and FP4 element types.
func Presets() []*Format {
	return append([]*Format(nil), presets...)
}

// Lookup returns the preset called name, case-insensitively; common aliases
// such as "float8_e4m3fn" (ml_dtypes) and "UE8M0" are accepted. An unknown
// name gives an error wrapping ErrUnknownFormat that lists the known names.
func Lookup(name string) (*Format, error) {
	key := strings.ToUpper(strings.TrimSpace(name))
	if a, ok := aliases[key]; ok {
		key = a
	}
	for _, f := range presets {
		if f.spec.Name == key {
			return f, nil
		}
	}
	return nil, unknownFormat(name, nil)
}

// wideNames maps the spellings of the 16-bit formats (upper-cased) to them:
// IEEE binary16 is also "float16" (NumPy), "half" (C++, PyTorch); bfloat16
// is "bfloat16" (PyTorch, ml_dtypes).
var wideNames = map[string]*Wide{
	"FP16": FP16, "FLOAT16": FP16, "HALF": FP16, "BINARY16": FP16,
	"BF16": BF16, "BFLOAT16": BF16,
}

// LookupAny finds a preset (as Lookup does) or one of the 16-bit formats
// FP16 and BF16 by name, case-insensitively: exactly one of f and w is
// non-nil. An unknown name gives an error wrapping ErrUnknownFormat that
// lists every known name. Programs that show FP16 and BF16 beside the
// minifloats read format names with it.
func LookupAny(name string) (f *Format, w *Wide, err error) {
	if w, ok := wideNames[strings.ToUpper(strings.TrimSpace(name))]; ok {
		return nil, w, nil
	}
	if f, err = Lookup(name); err != nil {
		return nil, nil, unknownFormat(name, []string{FP16.Name(), BF16.Name()})
	}
	return f, nil, nil
}

// unknownFormat is the error of an unknown name, listing the presets and
// the extra names given.
func unknownFormat(name string, extra []string) error {
	names := make([]string, 0, len(presets)+len(extra))
	for _, f := range presets {
		names = append(names, f.spec.Name)
	}
	names = append(names, extra...)
	return fmt.Errorf("%w %q (known: %s)", ErrUnknownFormat, name, strings.Join(names, ", "))
}
