package webserve

import (
	"context"
	"crypto/rand"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serveFor starts Serve on addr with h and returns the listener's address
// and a stop function that reports how long the shutdown took.
func serveFor(t *testing.T, addr string, h http.Handler) (string, func() time.Duration) {
	t.Helper()
	ln, err := Listen(addr)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h) }()
	return ln.Addr().String(), func() time.Duration {
		start := time.Now()
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatal("Serve did not return")
		}
		return time.Since(start)
	}
}

// rawGet sends one request with the given Host header and returns the
// status line.
func rawGet(t *testing.T, addr, host string) string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET / HTTP/1.1\r\nHost: "+host+"\r\nConnection: close\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	reply, _ := io.ReadAll(conn)
	line, _, _ := strings.Cut(string(reply), "\r\n")
	return line
}

// TestHostCheckOnLoopback: a page whose DNS name was rebound to 127.0.0.1
// sends its own name as Host; the loopback server refuses it with 421
// (issue 12 item 10).
func TestHostCheckOnLoopback(t *testing.T) {
	addr, stop := serveFor(t, "127.0.0.1:0", testSite(t))
	defer stop()
	_, port, _ := net.SplitHostPort(addr)
	for _, host := range []string{addr, "localhost", "localhost:" + port, "LOCALHOST.", "app.localhost:" + port,
		"127.0.0.1", "127.8.9.10:" + port, "[::1]:" + port, "[::1]"} {
		assert.Equal(t, "HTTP/1.1 200 OK", rawGet(t, addr, host), host)
	}
	for _, host := range []string{"evil.example", "evil.example:" + port, "127.0.0.1.evil.example", "localhost.evil.example",
		"192.168.1.10:" + port, "[::ffff:8.8.8.8]", "0.0.0.0:" + port} {
		assert.Equal(t, "HTTP/1.1 421 Misdirected Request", rawGet(t, addr, host), host)
	}
	assert.True(t, strings.HasPrefix(rawGet(t, addr, ""), "HTTP/1.1 4"), "an empty Host is refused")
}

// TestNoHostCheckWhenExposed: on every interface the server answers any
// Host (other machines use its LAN name or address).
func TestNoHostCheckWhenExposed(t *testing.T) {
	addr, stop := serveFor(t, "0.0.0.0:0", testSite(t))
	defer stop()
	_, port, _ := net.SplitHostPort(addr)
	assert.Equal(t, "HTTP/1.1 200 OK", rawGet(t, "127.0.0.1:"+port, "laptop.lan:"+port))
}

// TestExposureWarningSaysIPv6: "0.0.0.0:PORT" and ":PORT" listen on a
// dual-stack socket where the system has IPv6; the warning says so.
func TestExposureWarningSaysIPv6(t *testing.T) {
	assert.Empty(t, ExposureWarning(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}))
	assert.Empty(t, ExposureWarning(&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}))
	w := ExposureWarning(&net.TCPAddr{IP: net.IPv6unspecified, Port: 8080})
	assert.Contains(t, w, "IPv4 and IPv6")
	assert.Contains(t, w, "127.0.0.1:8080")
	assert.Contains(t, ExposureWarning(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}), "IPv4 only")
	assert.Contains(t, ExposureWarning(&net.TCPAddr{IP: net.IPv4(192, 168, 1, 2), Port: 8080}), "192.168.1.2:8080")
	for _, addr := range []string{"0.0.0.0:0", ":0"} {
		ln, err := Listen(addr)
		require.NoError(t, err)
		w := ExposureWarning(ln.Addr())
		ln.Close()
		if ln.Addr().(*net.TCPAddr).IP.To4() == nil {
			assert.Contains(t, w, "IPv4 and IPv6", addr)
		} else {
			assert.Contains(t, w, "IPv4 only", addr)
		}
	}
}

// TestClientThatNeverReads: a client that asks for a large file and never
// reads makes the write time out, so the handler returns and the server
// drops the connection instead of holding it (and the file's buffer) for
// ever; a shutdown does not wait for such clients beyond the grace period
// (issue 12 item 10).
func TestClientThatNeverReads(t *testing.T) {
	oldW, oldG := writeTimeout, shutdownGrace
	writeTimeout, shutdownGrace = 300*time.Millisecond, 300*time.Millisecond
	defer func() { writeTimeout, shutdownGrace = oldW, oldG }()

	big := make([]byte, 32<<20) // incompressible: sent as is
	_, _ = rand.Read(big)
	s, err := New(fstest.MapFS{"index.html": {Data: []byte("home")}, "big.png": {Data: big}})
	require.NoError(t, err)
	returned := make(chan struct{}, 4)
	addr, stop := serveFor(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.ServeHTTP(w, r)
		returned <- struct{}{}
	}))

	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		require.NoError(t, tc.SetReadBuffer(4096))
	}
	_, err = io.WriteString(conn, "GET /big.png HTTP/1.1\r\nHost: localhost\r\n\r\n")
	require.NoError(t, err)
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler is still writing to a client that does not read")
	}

	// A second stuck client does not delay the shutdown past the grace period.
	conn2, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn2.Close()
	_, err = io.WriteString(conn2, "GET /big.png HTTP/1.1\r\nHost: localhost\r\n\r\n")
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	assert.Less(t, stop(), 5*time.Second)
}
