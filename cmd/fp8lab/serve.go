package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/fp8lab/fp8lab/internal/cmdline"
	"github.com/fp8lab/fp8lab/internal/wasmbuild"
	"github.com/fp8lab/fp8lab/internal/webserve"
	"github.com/fp8lab/fp8lab/site"
)

func init() {
	commands["serve"] = command{"serve the browser playground (the default command)", runServe}
}

// serveContext returns the context that ends the server: SIGINT or SIGTERM.
// Tests replace it.
var serveContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// serveStarted is called with the URL once the server accepts requests.
// Tests replace it.
var serveStarted = func(url string) {}

// playgroundFiles are the files an exported site must hold besides the
// embedded pages.
var playgroundFiles = []string{wasmbuild.Playground.File, wasmbuild.Core.File, wasmbuild.WasmExec}

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := prog.Flags("serve", "[--addr HOST:PORT] [--dir DIR]", stderr)
	addr := fs.String("addr", webserve.DefaultAddr, "address to listen on; the default accepts connections from this machine only")
	dir := fs.String("dir", "", "serve a site written by 'fp8lab site -o DIR' instead of building the playground from source")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cmdline.Usagef("serve takes no arguments (did you mean --addr %s?)", pos[0])
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return cmdline.Usagef("--addr wants HOST:PORT, e.g. %s or 0.0.0.0:8080, not %q", webserve.DefaultAddr, *addr)
	}
	ctx, stop := serveContext()
	defer stop()

	// Listen first: a taken port is reported before a minute of building.
	ln, err := webserve.Listen(*addr)
	if err != nil {
		return err
	}
	defer ln.Close()

	var h http.Handler
	if *dir != "" {
		d, err := exportedSite(*dir)
		if err != nil {
			return err
		}
		defer d.Close()
		h = d
	} else {
		s, err := playground(ctx, stderr)
		if err != nil {
			return err
		}
		go s.Warm()
		h = s
	}

	url := webserve.URL(ln.Addr())
	fmt.Fprintf(stdout, "fp8lab playground: %s\n", url)
	if w := webserve.ExposureWarning(ln.Addr()); w != "" {
		fmt.Fprintln(stdout, w)
	}
	fmt.Fprintln(stdout, "Press Ctrl+C to stop.")
	serveStarted(url)
	if err := webserve.Serve(ctx, ln, h); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "fp8lab playground: stopped")
	return nil
}

// playground builds (or finds in the cache) the WebAssembly modules and
// returns the site with them. An fp8lab installed with go install builds
// them from its own module version in the module cache, from any working
// directory; one built from a checkout (go run ./cmd/fp8lab) builds them
// from the checkout around the working directory.
func playground(ctx context.Context, progress io.Writer) (*webserve.Site, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	bi, _ := debug.ReadBuildInfo()
	src, err := wasmbuild.FindSource(ctx, "", wd, bi)
	if err != nil {
		return nil, err
	}
	res, err := wasmbuild.Ensure(ctx, wasmbuild.Options{Root: src.Root, ModuleVersion: src.Version, Progress: progress})
	if err != nil {
		return nil, err
	}
	s, err := webserve.New(site.FS())
	if err != nil {
		return nil, err
	}
	if err := s.AddFiles(res.Files); err != nil {
		return nil, err
	}
	return s, nil
}

// exportedSite opens a folder written by fp8lab site, checking first that
// it holds the site's files; the files are read from disk when requested.
func exportedSite(dir string) (*webserve.Dir, error) {
	d, err := webserve.OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s is not an fp8lab site: %w", dir, err)
	}
	for _, name := range playgroundFiles {
		if !d.Has(name) {
			d.Close()
			return nil, fmt.Errorf("%s has no %s: write the site with fp8lab site -o %s", dir, name, dir)
		}
	}
	return d, nil
}
