package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/fp8lab/fp8lab/fp8"
	"github.com/fp8lab/fp8lab/internal/cmdline"
)

// parseNumber reads a number in fp8lab's one grammar (fp8.ParseNumber, which
// the CSV reader shares): a decimal or hexadecimal float ("0x1.8p-3"), or
// nan, inf, +inf, -inf (any case). Values beyond float64's range are errors
// rather than a silent infinity.
func parseNumber(s string) (float64, error) {
	if strings.TrimSpace(s) == "" {
		return 0, fmt.Errorf("empty value")
	}
	v, err := fp8.ParseNumber(s, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is beyond float64's range (write inf for infinity)", s)
	}
	if err != nil {
		return 0, fmt.Errorf("invalid number %q", s)
	}
	return v, nil
}

// parseCode reads a code as decimal, 0x hex or 0b binary, 0..255.
func parseCode(s string) (uint8, error) {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 0, 8)
	if err != nil {
		return 0, fmt.Errorf("invalid code %q: want 0..255, 0x00..0xff or 0b...", s)
	}
	return uint8(v), nil
}

// looksNumeric reports whether an argument starting with '-' is a negative
// number (or -inf/-nan, or beyond float64's range like -1e400) rather than a flag.
func looksNumeric(s string) bool {
	if _, err := parseNumber(s); err == nil {
		return true
	}
	_, err := fp8.ParseText(s)
	return err == nil
}

// parseInterleaved parses flags that may appear before, between or after
// positional arguments, so "encode E4M3FN -1.5 --round zero" works: an
// argument that reads as a number is positional even when it starts with '-'.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && len(a) > 1 && !looksNumeric(a):
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			pos = append(pos, a)
		}
	}
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, cmdline.ErrFlags // the flag package has printed the problem and the usage
	}
	if rest := fs.Args(); len(rest) > 0 {
		pos = append(pos, rest...)
	}
	return pos, nil
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
