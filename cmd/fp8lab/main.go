// Command fp8lab is the FP8 laboratory: with no arguments it serves the
// browser playground; its subcommands answer questions about formats,
// encode and explain values, quantize tensors, dither images and render the
// visualizations.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/fp8lab/fp8lab/internal/cmdline"
)

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

// commands is filled by the files that implement each subcommand.
var commands = map[string]command{}

// prog names fp8lab in usage lines and error messages.
const prog cmdline.Program = "fp8lab"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit status: 0 on success,
// 1 when the command failed, 2 for a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := "serve"
	switch {
	case len(args) > 0 && (args[0] == "--version" || args[0] == "-version"):
		name, args = "version", args[1:]
	case len(args) > 0 && !strings.HasPrefix(args[0], "-"):
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout)
		return 0
	}
	cmd, ok := commands[name]
	if !ok && name == "serve" && len(args) == 0 {
		usage(stdout) // a build without the playground
		return 0
	}
	if !ok {
		fmt.Fprintf(stderr, "fp8lab: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	return prog.Status(stderr, name, cmd.run(args, stdin, stdout, stderr))
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "fp8lab: understand FP8 by running it.\n\nUsage: fp8lab [command] [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'fp8lab COMMAND -h' for a command's flags. Every command takes --json where it prints data.")
}
