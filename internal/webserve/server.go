package webserve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fp8lab/fp8lab/internal/outfile"
)

// DefaultAddr is where the playground listens unless told otherwise: the
// loopback interface only, so a workshop laptop does not expose it.
const DefaultAddr = "127.0.0.1:8080"

// ErrAddrInUse is wrapped by Listen's error when the port is taken.
var ErrAddrInUse = errors.New("address already in use")

// Listen opens a TCP listener on addr (HOST:PORT). A taken port gives an
// error wrapping ErrAddrInUse that names the address and suggests --addr.
func Listen(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("bad address %q: want HOST:PORT, e.g. %s", addr, DefaultAddr)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return nil, fmt.Errorf("bad port in %q: %v", addr, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("%w: %s is taken (is another fp8lab serve running?); choose another port with --addr %s",
				ErrAddrInUse, addr, suggest(host, port))
		}
		return nil, fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	return ln, nil
}

// suggest proposes the next port on the same host.
func suggest(host, port string) string {
	p, err := net.LookupPort("tcp", port)
	if err != nil || p >= 65535 || p == 0 {
		return net.JoinHostPort(host, "8081")
	}
	return net.JoinHostPort(host, fmt.Sprint(p+1))
}

// URL returns the address a browser should open for a listener: loopback
// for an unspecified host (0.0.0.0 or ::), brackets for IPv6.
func URL(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String() + "/"
	}
	host := tcp.IP.String()
	if tcp.IP == nil || tcp.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port)) + "/"
}

// Exposed reports whether a listener accepts connections from other machines
// (it is not bound to a loopback address).
func Exposed(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && !tcp.IP.IsLoopback()
}

// Serve serves h on ln until ctx is done, then shuts down gracefully, giving
// open requests up to five seconds. It returns nil after a shutdown asked for
// by ctx.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(sctx)
		if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) && err == nil {
			err = e
		}
		return err
	}
}

// Export writes every file of the site under dir, creating folders as
// needed, and returns the written names. Files already in dir that the site
// does not have are left alone.
func (s *Site) Export(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	names := s.Names()
	for _, name := range names {
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if !strings.HasPrefix(dst, filepath.Clean(dir)+string(filepath.Separator)) {
			return nil, fmt.Errorf("webserve: refusing to write %q outside %s", name, dir)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := outfile.WriteFile(dst, s.files[name].data); err != nil {
			return nil, err
		}
	}
	return names, nil
}
