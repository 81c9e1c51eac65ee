package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fp8lab/fp8lab/internal/cmdline"
)

func init() {
	commands["site"] = command{"write the playground as static files (-o DIR) for any web server", runSite}
}

func runSite(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("site", "-o DIR", stderr)
	out := fs.String("o", "", "folder to write the site into (created if missing)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *out == "" {
		return cmdline.Usagef("site needs -o DIR, e.g. fp8lab site -o dist")
	}
	if err := checkExportDir(*out); err != nil {
		return err
	}
	ctx, stop := serveContext()
	defer stop()
	s, err := playground(ctx, stderr)
	if err != nil {
		return err
	}
	names, err := s.Export(*out)
	if err != nil {
		return err
	}
	var total int64
	for _, n := range names {
		if st, err := os.Stat(filepath.Join(*out, filepath.FromSlash(n))); err == nil {
			total += st.Size()
		}
	}
	fmt.Fprintf(stdout, "wrote %d files (%.1f MB) to %s\n", len(names), float64(total)/1e6, *out)
	fmt.Fprintf(stdout, "serve it with any static web server, e.g.\n  fp8lab serve --dir %s\n  python3 -m http.server --directory %s\n"+
		"(browsers do not run WebAssembly from file:// pages)\n", *out, *out)
	return nil
}

// checkExportDir refuses a folder that holds files but no fp8lab site, so
// that an export never scatters files over an unrelated folder.
func checkExportDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, "canvas.html")); err == nil {
		return nil // an earlier export: overwrite it
	}
	return fmt.Errorf("%s is not empty and holds no fp8lab site; choose a new or empty folder", dir)
}
