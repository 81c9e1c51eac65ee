// Package cmdline holds what fp8lab's command-line programs (cmd/fp8lab and
// cmd/fp8lab-gpu) share: flag sets, usage errors, exit statuses, JSON
// output, and where the Go distribution is (GoRoot, the training corpus).
package cmdline

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// ErrUsage marks an error whose message is a usage text; the command exits
// with status 2.
var ErrUsage = errors.New("usage")

// ErrFlags reports flags the flag package has already complained about,
// with the usage text; the command exits with status 2.
var ErrFlags = errors.New("bad flags")

// Usagef returns an ErrUsage error with the formatted message.
func Usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, args...))
}

// Program is the name of a command-line program, such as "fp8lab"; it
// prefixes usage lines and error messages.
type Program string

// Flags makes the flag set of the subcommand cmd: its errors are returned
// rather than exiting, and its usage text, "Usage: PROGRAM CMD SYNOPSIS"
// followed by the flags, goes to stderr.
func (p Program) Flags(cmd, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(string(p)+" "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s %s %s\n", p, cmd, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// Status reports the error err of subcommand cmd on stderr and returns the
// exit status: 0 for nil and flag.ErrHelp, 2 for ErrFlags (nothing more is
// printed) and ErrUsage, and 1 for any other error.
func (p Program) Status(stderr io.Writer, cmd string, err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrFlags):
		return 2
	case errors.Is(err, ErrUsage):
		fmt.Fprintf(stderr, "%s %s: %s\n", p, cmd, strings.TrimPrefix(err.Error(), ErrUsage.Error()+": "))
		return 2
	}
	fmt.Fprintf(stderr, "%s %s: %v\n", p, cmd, err)
	return 1
}

// Parse parses args with fs for a command that takes no positional
// arguments: flag errors give ErrFlags (the flag package has printed them),
// -h gives flag.ErrHelp, and a positional argument gives ErrUsage.
func Parse(fs *flag.FlagSet, args []string) error {
	if fs == nil {
		return errors.New("cmdline: no flag set")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return ErrFlags
	}
	if fs.NArg() > 0 {
		return Usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// WriteJSON writes v to w as JSON indented by two spaces, with a final
// newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteJSONL writes each row as one compact JSON line (JSON Lines).
func WriteJSONL[T any](w io.Writer, rows []T) error {
	var b strings.Builder
	for _, r := range rows {
		j, err := json.Marshal(r)
		if err != nil {
			return err
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
