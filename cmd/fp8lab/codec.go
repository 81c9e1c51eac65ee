package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fp8lab/fp8lab/fp8"
)

func init() {
	commands["formats"] = command{"list every format with its range and precision", runFormats}
	commands["table"] = command{"list every code of a format: bits, value, class", runTable}
	commands["encode"] = command{"encode values (arguments or one per line on stdin)", runEncode}
	commands["decode"] = command{"decode codes to values", runDecode}
	commands["explain"] = command{"explain how one value is rounded", runExplain}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func lookupFormat(name string) (*fp8.Format, error) {
	return fp8.Lookup(name)
}

func runFormats(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("formats", "[--json]", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return usageError("formats takes no arguments")
	}
	var infos []fp8.Info
	for _, f := range fp8.Presets() {
		infos = append(infos, f.Info())
	}
	infos = append(infos, fp8.FP16.Info(), fp8.BF16.Info())
	if *asJSON {
		return writeJSON(stdout, infos)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "format\tbits\tE\tM\tbias\tmax\tmin normal\tmin subnormal\teps\tpositive values\tbinades\tInf\tNaN codes\t")
	for _, in := range infos {
		sub := "—"
		if in.MinSubnormal > 0 {
			sub = fmt.Sprint(in.MinSubnormal)
		}
		inf := "no"
		if in.InfCount > 0 {
			inf = "yes"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%v\t%v\t%s\t%v\t%d\t%.1f\t%s\t%d\t\n",
			in.Name, in.Bits, in.ExpBits, in.ManBits, in.Bias, in.Max, in.MinNormal, sub, in.Eps,
			in.PositiveFinite, in.Binades, inf, in.NaNCount)
	}
	return tw.Flush()
}

func runTable(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("table", "FORMAT [--json]", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("table needs one FORMAT, e.g. fp8lab table E4M3FN")
	}
	f, err := lookupFormat(pos[0])
	if err != nil {
		return err
	}
	rows := make([]fp8.CodeInfo, 0, f.NumCodes())
	for c := 0; c < f.NumCodes(); c++ {
		ci, err := f.Describe(uint8(c))
		if err != nil {
			return err
		}
		rows = append(rows, ci)
	}
	if *asJSON {
		return writeJSON(stdout, rows)
	}
	return printCodes(stdout, rows)
}

// encodeResult is one line of `fp8lab encode --json`.
type encodeResult struct {
	Input string     `json:"input"`
	Code  int        `json:"code"`
	Hex   string     `json:"hex"`
	Bits  string     `json:"bits"`
	Value fp8.Number `json:"value"`
	Class fp8.Class  `json:"class"`
}

func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("encode", "FORMAT [--round nearest|zero|away|stochastic] [--saturate=true|false] [--seed N --rbits R] [--json] [VALUE...]", stderr)
	asJSON := fs.Bool("json", false, "print a JSON array")
	roundName := fs.String("round", "nearest", "rounding: nearest (ties to even), zero, away or stochastic")
	saturate := fs.Bool("saturate", true, "clamp overflow and ±Inf to ±max; false follows OCP (Inf in E5M2, NaN in E4M3FN/FNUZ)")
	seed := fs.Uint64("seed", 0, "stochastic rounding: Philox seed (the i-th value uses random word i of this seed)")
	rbits := fs.Int("rbits", 16, "stochastic rounding: number of random bits, 1..32")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 1 {
		return usageError("encode needs a FORMAT, e.g. fp8lab encode E4M3FN 0.3952")
	}
	f, err := lookupFormat(pos[0])
	if err != nil {
		return err
	}
	round, err := fp8.ParseRounding(*roundName)
	if err != nil {
		return err
	}
	mode := fp8.Mode{Round: round, RandomBits: *rbits}
	if !*saturate {
		mode.Overflow = fp8.NoSaturate
	}
	inputs := pos[1:]
	label := func(i int) string { return fmt.Sprintf("argument %d", i+2) }
	if len(inputs) == 0 {
		if inputs, err = readLines(stdin); err != nil {
			return err
		}
		label = func(i int) string { return fmt.Sprintf("line %d", i+1) }
	}
	rnd := stochasticSource(*seed)
	results := make([]encodeResult, 0, len(inputs))
	for i, text := range inputs {
		// Text is rounded once, from its exact value (not through float64).
		x, err := fp8.ParseText(text)
		if err != nil {
			return fmt.Errorf("%s: %v", label(i), err)
		}
		var c uint8
		if round == fp8.Stochastic {
			c, err = f.EncodeStochastic(x, rnd(uint64(i)), mode)
		} else {
			c, err = f.Encode(x, mode)
		}
		if err != nil {
			return fmt.Errorf("%s (%s): %v", label(i), text, err)
		}
		ci, err := f.Describe(c)
		if err != nil {
			return err
		}
		results = append(results, encodeResult{Input: text, Code: int(c), Hex: fmt.Sprintf("0x%02X", c), Bits: ci.Bits, Value: ci.Value, Class: ci.Class})
	}
	// Everything is computed before anything is printed: a bad line prints nothing.
	if *asJSON {
		return writeJSON(stdout, results)
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "input\tcode\tbits\tvalue\tclass")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Input, r.Hex, r.Bits, r.Value, r.Class)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

// readLines returns the non-empty lines of r, trimmed.
func readLines(r io.Reader) ([]string, error) {
	var lines []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	// Drop trailing empty lines only; an empty line in the middle is an error
	// that names its line.
	for len(lines) > 0 && len(bytes.TrimSpace([]byte(lines[len(lines)-1]))) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("no values: give VALUE arguments or one value per line on stdin")
	}
	return lines, nil
}

func runDecode(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("decode", "FORMAT CODE... [--json]", stderr)
	asJSON := fs.Bool("json", false, "print a JSON array")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usageError("decode needs a FORMAT and codes, e.g. fp8lab decode E4M3FN 0x7E")
	}
	f, err := lookupFormat(pos[0])
	if err != nil {
		return err
	}
	var rows []fp8.CodeInfo
	for i, s := range pos[1:] {
		c, err := parseCode(s)
		if err != nil {
			return fmt.Errorf("argument %d: %v", i+2, err)
		}
		ci, err := f.Describe(c)
		if err != nil {
			return fmt.Errorf("argument %d: %v", i+2, err)
		}
		rows = append(rows, ci)
	}
	if *asJSON {
		return writeJSON(stdout, rows)
	}
	return printCodes(stdout, rows)
}

func runExplain(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("explain", "FORMAT VALUE [--round nearest|zero|away] [--saturate=true|false] [--json]", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	roundName := fs.String("round", "nearest", "rounding: nearest, zero or away")
	saturate := fs.Bool("saturate", true, "clamp overflow to ±max")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError("explain needs a FORMAT and one VALUE, e.g. fp8lab explain E4M3FN 0.3952")
	}
	f, err := lookupFormat(pos[0])
	if err != nil {
		return err
	}
	x, err := fp8.ParseText(pos[1])
	if err != nil {
		return err
	}
	round, err := fp8.ParseRounding(*roundName)
	if err != nil {
		return err
	}
	mode := fp8.Mode{Round: round}
	if !*saturate {
		mode.Overflow = fp8.NoSaturate
	}
	ex, err := fp8.Explain(f, x, mode)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, ex)
	}
	r := ex.Result
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "input\t%s\n", pos[1])
	fmt.Fprintf(tw, "format\t%s (%s)\n", ex.Format, ex.Mode)
	fmt.Fprintf(tw, "code\t0x%02X  bits %s  (sign %d, exponent field %d, mantissa field %d)\n", r.Code, r.Bits, r.Sign, r.Exponent, r.Mantissa)
	fmt.Fprintf(tw, "value\t%s  (%s, binade 2^%d, ULP %s)\n", r.Value, r.Class, r.Power, r.ULP)
	fmt.Fprintf(tw, "between\t%s and %s\n", ex.Lower, ex.Upper)
	fmt.Fprintf(tw, "error\tabsolute %s, relative %s\n", ex.AbsError, ex.RelError)
	fmt.Fprintf(tw, "stochastic\trounds away from zero with probability %.4g\n", ex.UpProbability)
	switch {
	case ex.Overflow:
		fmt.Fprintf(tw, "note\tOVERFLOW: beyond the largest finite value %v\n", f.Max())
	case ex.Underflow:
		fmt.Fprintln(tw, "note\tUNDERFLOW: the value was flushed to zero")
	}
	return tw.Flush()
}

// printCodes writes one line per code: hex code, bit fields, value, class.
func printCodes(w io.Writer, rows []fp8.CodeInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "code\tbits\tvalue\tclass")
	for _, r := range rows {
		fmt.Fprintf(tw, "0x%02X\t%s\t%s\t%s\n", r.Code, r.Bits, r.Value, r.Class)
	}
	return tw.Flush()
}
