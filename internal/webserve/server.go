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
// for an unspecified host (0.0.0.0 or ::), brackets for IPv6 ("" for nil).
func URL(a net.Addr) string {
	if a == nil {
		return ""
	}
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

// ExposureWarning returns the warning to print for a listener that other
// machines can reach, or "" for a loopback one. A wildcard listener says
// which protocols it takes: Go listens on "0.0.0.0:8080" and ":8080" with
// one dual-stack IPv6 socket where the system has IPv6, which accepts IPv6
// connections as well as IPv4 ones.
func ExposureWarning(a net.Addr) string {
	if !Exposed(a) {
		return ""
	}
	tcp, ok := a.(*net.TCPAddr)
	if ok && tcp.IP.IsUnspecified() {
		which := "IPv4 only"
		if tcp.IP.To4() == nil {
			which = "IPv4 and IPv6"
		}
		return fmt.Sprintf("warning: listening on every network interface (%s, port %d), so other machines on the network can open it; "+
			"--addr 127.0.0.1:%d keeps it on this machine", which, tcp.Port, tcp.Port)
	}
	return fmt.Sprintf("warning: listening on %s, so other machines on the network can open it", a)
}

// Server limits. A client that sends its headers slowly, or stops reading
// the response, loses its connection instead of holding it (and the buffer
// of a large file) for ever; Serve waits shutdownGrace for open requests
// when it is stopped, then closes what is left.
var (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 2 * time.Minute // a 10 MB module on a slow workshop network
	idleTimeout       = 2 * time.Minute
	shutdownGrace     = 3 * time.Second
)

// maxHeaderBytes bounds a request's header (the site needs a few hundred
// bytes).
const maxHeaderBytes = 64 << 10

// Serve serves h on ln until ctx is done, then shuts down, giving open
// requests a few seconds before closing their connections. It returns nil
// after a shutdown asked for by ctx. Connections have read, write and idle
// timeouts. On a loopback listener, requests whose Host header is not a
// loopback name or address get 421 Misdirected Request: a page on another
// site that rebinds its DNS name to 127.0.0.1 cannot read the playground.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	if ln == nil || h == nil {
		return errors.New("webserve: Serve needs a listener and a handler")
	}
	if !Exposed(ln.Addr()) {
		h = loopbackHosts(h)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			_ = srv.Close() // requests still open after the grace period
		}
		if e := <-errc; e != nil && !errors.Is(e, http.ErrServerClosed) {
			return e
		}
		return nil
	}
}

// loopbackHosts answers 421 to requests whose Host is not "localhost" (or a
// name under .localhost, which browsers resolve to loopback themselves) or
// a loopback IP address.
func loopbackHosts(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			SetHeaders(w.Header())
			http.Error(w, fmt.Sprintf("fp8lab answers only requests for localhost, 127.0.0.1 or [::1], not Host %q", r.Host),
				http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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
