package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/cmdline"
)

// The commands about formats: their list, their codes, and encoding,
// decoding and explaining values (codecs.go reads their names).
func init() {
	commands["formats"] = command{"list every format with its range and precision", runFormats}
	commands["table"] = command{"list every code of a format: bits, value, class", runTable}
	commands["encode"] = command{"encode values (arguments or one per line on stdin)", runEncode}
	commands["decode"] = command{"decode codes to values", runDecode}
	commands["explain"] = command{"explain how one value is rounded", runExplain}
}

func runFormats(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("formats", "[--json]", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return cmdline.Usagef("formats takes no arguments")
	}
	var infos []fp8.Info
	for _, f := range fp8.Presets() {
		infos = append(infos, f.Info())
	}
	infos = append(infos, fp8.FP16.Info(), fp8.BF16.Info())
	if *asJSON {
		return cmdline.WriteJSON(stdout, infos)
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
	fs := prog.Flags("table", "FORMAT [--json|--jsonl]", stderr)
	asJSON, asJSONL := outputFlags(fs, "the codes")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cmdline.Usagef("table needs one FORMAT, e.g. fp8lab table E4M3FN")
	}
	f, err := lookupCodec(pos[0])
	if err != nil {
		return err
	}
	rows := make([]codeRow, 0, f.numCodes())
	for c := 0; c < f.numCodes(); c++ {
		r, err := f.describe(uint32(c))
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	switch {
	case *asJSONL:
		return cmdline.WriteJSONL(stdout, rows)
	case *asJSON:
		return cmdline.WriteJSON(stdout, rows)
	}
	return printCodes(stdout, f, rows)
}

// encodeResult is one line of `fp8lab encode --json`.
type encodeResult struct {
	Input string     `json:"input"`
	Code  int        `json:"code"`
	Hex   string     `json:"hex"`
	Bits  string     `json:"bits"`
	Value fp8.Number `json:"value"`
	Class fp8.Class  `json:"class"`
	// Random is the 32-bit random word stochastic rounding used (hex), and
	// RandomBits how many of its low bits: with --rand-bits they reproduce
	// the result anywhere.
	Random     string `json:"random,omitempty"`
	RandomBits int    `json:"random_bits,omitempty"`
}

func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("encode", "FORMAT [--round nearest|zero|away|stochastic] [--overflow saturate|saturate-keep-inf|no-saturate] [--seed N --rbits R | --rand-bits HEX,...] [--sr-rule floor|nearest] [--keep-going] [--json|--jsonl] [VALUE...]", stderr)
	asJSON, asJSONL := outputFlags(fs, "the results")
	roundName := fs.String("round", "nearest", "rounding: nearest (ties to even), zero, away or stochastic")
	overflow := overflowFlags(fs)
	seed := fs.Uint64("seed", 0, "stochastic rounding: Philox seed (the i-th value uses random word i of this seed)")
	rbits := fs.Int("rbits", 16, "stochastic rounding: number of random bits, 1..32")
	randWords := fs.String("rand-bits", "", "stochastic rounding: the random words to use, hex, one per value (as printed in the random column), instead of --seed")
	srRule := fs.String("sr-rule", "floor", "stochastic rounding: floor (truncate the dropped fraction to r bits, fp8lab and GPU kernels) or nearest (round it to nearest first, as gfloat)")
	keepGoing := fs.Bool("keep-going", false, "report a bad value as an error line (or JSON error object) and go on; the exit status is 1 if any failed")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 1 {
		return cmdline.Usagef("encode needs a FORMAT, e.g. fp8lab encode E4M3FN 0.3952")
	}
	f, err := lookupCodec(pos[0])
	if err != nil {
		return err
	}
	round, err := fp8.ParseRounding(*roundName)
	if err != nil {
		return err
	}
	mode := fp8.Mode{Round: round, RandomBits: *rbits}
	if mode.Overflow, err = overflow(); err != nil {
		return err
	}
	if mode.SRRule, err = fp8.ParseStochasticRule(*srRule); err != nil {
		return err
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
	if *randWords != "" {
		words, err := parseRandomWords(*randWords)
		if err != nil {
			return err
		}
		if round != fp8.Stochastic || len(words) != len(inputs) {
			return cmdline.Usagef("--rand-bits needs --round stochastic and one word per value (%d words, %d values)", len(words), len(inputs))
		}
		rnd = func(i uint64) uint32 { return words[i] }
	}
	results := make([]any, 0, len(inputs))
	failed := 0
	for i, text := range inputs {
		r, err := encodeOne(f, text, mode, rnd(uint64(i)))
		if err != nil {
			err = fmt.Errorf("%s (%s): %v", label(i), text, err)
			if !*keepGoing {
				return err
			}
			failed++
			results = append(results, errorRow{Input: text, Error: err.Error()})
			continue
		}
		results = append(results, r)
	}
	// Everything is computed before anything is printed: without
	// --keep-going, a bad line prints nothing.
	switch {
	case *asJSONL:
		err = cmdline.WriteJSONL(stdout, results)
	case *asJSON:
		err = cmdline.WriteJSON(stdout, results)
	default:
		err = printEncoded(stdout, results, round == fp8.Stochastic)
	}
	if err != nil {
		return err
	}
	return failures(failed, len(inputs))
}

// encodeOne parses and encodes one value. Text is rounded once, from its
// exact value (fp8.ParseText), never through float64 first.
func encodeOne(f codec, text string, mode fp8.Mode, random uint32) (encodeResult, error) {
	x, err := fp8.ParseText(text)
	if err != nil {
		return encodeResult{}, err
	}
	c, err := f.encode(x, mode, random)
	if err != nil {
		return encodeResult{}, err
	}
	ci, err := f.describe(c)
	if err != nil {
		return encodeResult{}, err
	}
	r := encodeResult{Input: text, Code: int(c), Hex: f.hex(c), Bits: ci.Bits, Value: ci.Value, Class: ci.Class}
	if mode.Round == fp8.Stochastic {
		r.Random, r.RandomBits = fmt.Sprintf("0x%08X", random), mode.RandomBits
	}
	return r, nil
}

// printEncoded writes the encode results as a table; errors take a line each.
func printEncoded(w io.Writer, results []any, stochastic bool) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	head := "input\tcode\tbits\tvalue\tclass"
	if stochastic {
		head += "\trandom"
	}
	fmt.Fprintln(tw, head)
	for _, x := range results {
		switch r := x.(type) {
		case encodeResult:
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s", r.Input, r.Hex, r.Bits, r.Value, r.Class)
			if stochastic {
				fmt.Fprintf(tw, "\t%s", r.Random)
			}
			fmt.Fprintln(tw)
		case errorRow:
			fmt.Fprintf(tw, "%s\terror: %s\n", r.Input, r.Error)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
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
	fs := prog.Flags("decode", "FORMAT CODE... [--keep-going] [--json|--jsonl]", stderr)
	asJSON, asJSONL := outputFlags(fs, "the codes")
	keepGoing := fs.Bool("keep-going", false, "report a bad code as an error line (or JSON error object) and go on; the exit status is 1 if any failed")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return cmdline.Usagef("decode needs a FORMAT and codes, e.g. fp8lab decode E4M3FN 0x7E")
	}
	f, err := lookupCodec(pos[0])
	if err != nil {
		return err
	}
	var rows []any
	var codes []codeRow
	failed := 0
	for i, s := range pos[1:] {
		r, err := decodeOne(f, s)
		if err != nil {
			err = fmt.Errorf("argument %d: %v", i+2, err)
			if !*keepGoing {
				return err
			}
			failed++
			rows = append(rows, errorRow{Input: s, Error: err.Error()})
			continue
		}
		rows = append(rows, r)
		codes = append(codes, r)
	}
	switch {
	case *asJSONL:
		err = cmdline.WriteJSONL(stdout, rows)
	case *asJSON:
		err = cmdline.WriteJSON(stdout, rows)
	case failed == 0:
		err = printCodes(stdout, f, codes)
	default:
		err = printMixed(stdout, f, rows)
	}
	if err != nil {
		return err
	}
	return failures(failed, len(pos)-1)
}

func decodeOne(f codec, s string) (codeRow, error) {
	c, err := f.parseCode(s)
	if err != nil {
		return codeRow{}, err
	}
	return f.describe(c)
}

// printMixed writes decoded codes and error lines in input order.
func printMixed(w io.Writer, f codec, rows []any) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "code\tbits\tvalue\tclass")
	for _, x := range rows {
		switch r := x.(type) {
		case codeRow:
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.hex(r.Code), r.Bits, r.Value, r.Class)
		case errorRow:
			fmt.Fprintf(tw, "%s\terror: %s\n", r.Input, r.Error)
		}
	}
	return tw.Flush()
}

func runExplain(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("explain", "FORMAT VALUE [--round nearest|zero|away] [--overflow saturate|saturate-keep-inf|no-saturate] [--json|--jsonl]", stderr)
	asJSON, asJSONL := outputFlags(fs, "the explanation")
	roundName := fs.String("round", "nearest", "rounding: nearest, zero or away")
	overflow := overflowFlags(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return cmdline.Usagef("explain needs a FORMAT and one VALUE, e.g. fp8lab explain E4M3FN 0.3952")
	}
	f, err := fp8.Lookup(pos[0])
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
	if mode.Overflow, err = overflow(); err != nil {
		return err
	}
	ex, err := f.Explain(x, mode)
	if err != nil {
		return err
	}
	switch {
	case *asJSONL:
		return cmdline.WriteJSONL(stdout, []fp8.Explanation{ex})
	case *asJSON:
		return cmdline.WriteJSON(stdout, ex)
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
func printCodes(w io.Writer, f codec, rows []codeRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "code\tbits\tvalue\tclass")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.hex(r.Code), r.Bits, r.Value, r.Class)
	}
	return tw.Flush()
}
