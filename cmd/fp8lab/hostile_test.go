//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Limits the hostile inputs run under: the address space of the process
// (prlimit --as or ulimit -v, where available), the Go heap target and the
// wall clock. A command that tries to load a huge input dies or errors
// within them instead of passing.
const (
	hostileAddressSpace = 1 << 30 // bytes
	hostileGoMemLimit   = "384MiB"
	hostileTimeout      = 60 * time.Second
)

// hostileCase is one command line run through the real binary. Arguments
// may contain {dir}, a fresh folder that is also the working directory;
// setup prepares files in it. code is the exit status wanted: 1 or 2 with
// stderr one line starting "fp8lab " and containing stderr (and not
// stderrLacks), or 0 with check looking at the result. within, when set,
// bounds the command's wall time (a named pipe must be refused at once).
// The integrator adds cases by appending to hostileCases.
type hostileCase struct {
	name        string
	setup       func(t *testing.T, dir string)
	args        []string
	code        int
	stderr      string
	stderrLacks string
	within      time.Duration
	check       func(t *testing.T, dir string, stdout []byte)
}

// hostileCases are the inputs of issue 12 that crashed, hung or blew up.
func hostileCases() []hostileCase {
	return append([]hostileCase{
		// Item 3: block sides near math.MaxInt.
		{name: "block side near MaxInt", setup: writeCSV("t.csv"),
			args: []string{"quantize", "--granularity", "block9223372036854775807x1", "t.csv"}, code: 1, stderr: "bad granularity"},
		{name: "block rows near MaxInt", setup: writeCSV("t.csv"),
			args: []string{"quantize", "--granularity", "block9223372036854775807x128", "t.csv"}, code: 1, stderr: "bad granularity"},
		// Item 6: one output rule for every command.
		{name: "dither to /dev/zero", args: []string{"dither", "--size", "16", "-o", "/dev/zero"}, code: 1, stderr: "not a regular file",
			check: stillDevice("/dev/zero")},
		{name: "dither to /dev/null", args: []string{"dither", "--size", "16", "-o", "/dev/null"}, code: 1, stderr: "not a regular file",
			check: stillDevice("/dev/null")},
		{name: "render to /dev/zero", args: []string{"render", "explorer", "-o", "/dev/zero"}, code: 1, stderr: "not a regular file",
			check: stillDevice("/dev/zero")},
		{name: "render to a fifo", setup: func(t *testing.T, dir string) { require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644)) },
			args: []string{"render", "explorer", "-o", "{dir}/fifo"}, code: 1, stderr: "a named pipe"},
		{name: "dither to a folder", args: []string{"dither", "--size", "16", "-o", "{dir}"}, code: 1, stderr: "a directory"},
		{name: "dither through a symlink", setup: symlinkTo("out.png", "real.png"),
			args: []string{"dither", "--size", "16", "-o", "out.png"}, check: writtenThrough("out.png", "real.png")},
		{name: "render through a symlink", setup: symlinkTo("out.png", "real.png"),
			args: []string{"render", "explorer", "--width", "480", "--height", "270", "-o", "{dir}/out.png"}, check: writtenThrough("out.png", "real.png")},
		{name: "dither -o - is stdout", args: []string{"dither", "--size", "16", "-o", "-"}, check: pngOnStdout},
		{name: "render -o - is stdout", args: []string{"render", "explorer", "--width", "480", "--height", "270", "-o", "-"}, check: pngOnStdout},
		// Items 7 and 9: empty and oversized images.
		{name: "dither zero-size mystery", args: []string{"dither", "--size", "0", "-o", "x.png"}, code: 1, stderr: "0x0"},
		{name: "dither a 0x0 PNG", setup: writePNGHeader("zero.png", 0, 0),
			args: []string{"dither", "-i", "zero.png", "-o", "x.png"}, code: 1, stderr: "zero.png"},
		{name: "dither a PNG claiming 8192x8192 16-bit", setup: writePNGHeader("huge.png", 8192, 8192),
			args: []string{"dither", "-i", "huge.png", "-o", "x.png"}, code: 1, stderr: "over the limit of 16777216 pixels"},
		{name: "dither a PNG claiming 2^31 pixels a side", setup: writePNGHeader("wide.png", 1<<31-1, 1),
			args: []string{"dither", "-i", "wide.png", "--max-pixels", "67108864", "-o", "x.png"}, code: 1, stderr: "wide.png"},
		{name: "dither --max-pixels 0", setup: writePNGHeader("huge.png", 64, 64),
			args: []string{"dither", "-i", "huge.png", "--max-pixels", "0", "-o", "x.png"}, code: 1, stderr: "pixel limit 0"},
		// Item 8: sizes from the command line.
		{name: "render huge width", args: []string{"render", "explorer", "--width", "1099511627776", "-o", "x.png"}, code: 1, stderr: "size 1099511627776x720"},
		{name: "render huge height", args: []string{"render", "window", "--height", "9223372036854775807", "-o", "x.png"}, code: 1, stderr: "want 480..8192"},
		{name: "render zero size", args: []string{"render", "dither", "--width", "0", "--height", "0", "-o", "x.png"}, code: 1, stderr: "size 0x0"},
		// Item 5: serve --dir checks index.html before reading anything.
		{name: "serve a huge tree without index.html", setup: sparseFile("big.bin", 8<<30),
			args: []string{"serve", "--dir", "{dir}", "--addr", "127.0.0.1:0"}, code: 1, stderr: "no index.html"},
	}, append(tensorHostileCases(), fileHostileCases()...)...)
}

// TestHostileInputs runs hostileCases through the real binary, built once,
// under a memory limit and a time limit: each must end with the wanted
// status and a clear one-line error, never a panic.
func TestHostileInputs(t *testing.T) {
	bin := buildBinary(t)
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.setup != nil {
				c.setup(t, dir)
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "{dir}", dir)
			}
			ctx, cancel := context.WithTimeout(context.Background(), hostileTimeout)
			defer cancel()
			cmd := limited(ctx, bin, args...)
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			require.NoError(t, ctx.Err(), "%v did not finish within %v", args, hostileTimeout)
			if c.within > 0 {
				assert.Less(t, took, c.within, "%v must end at once", args)
			}
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else {
				require.NoError(t, err)
			}
			errText := stderr.String()
			assert.NotContains(t, errText, "panic:")
			assert.NotContains(t, errText, "goroutine ")
			assert.NotContains(t, errText, "fatal error")
			require.Equal(t, c.code, code, "exit status of %v; stderr: %s", args, errText)
			if c.code != 0 {
				line := strings.TrimSuffix(errText, "\n")
				assert.NotContains(t, line, "\n", "one line on stderr")
				assert.True(t, strings.HasPrefix(line, "fp8lab "), "the error names the command: %s", line)
				assert.Contains(t, line, c.stderr)
				if c.stderrLacks != "" {
					assert.NotContains(t, line, c.stderrLacks)
				}
			}
			if c.check != nil {
				c.check(t, dir, stdout.Bytes())
			}
		})
	}
	t.Run("serve refuses a foreign Host and stops on SIGINT", func(t *testing.T) { hostileServe(t, bin) })
	t.Run("serve stops on SIGTERM", func(t *testing.T) { serveStopsOn(t, bin, syscall.SIGTERM) })
}

// serveStopsOn serves a site and stops it with sig: serve must exit 0
// within a few seconds (issue 26 item 5: it ignored SIGINT and SIGTERM
// while it hung).
func serveStopsOn(t *testing.T, bin string, sig os.Signal) {
	ctx, cancel := context.WithTimeout(context.Background(), hostileTimeout)
	defer cancel()
	cmd := limited(ctx, bin, "serve", "--dir", fakeExport(t), "--addr", "127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := bufio.NewScanner(out)
	started := false
	for !started && lines.Scan() {
		started = strings.HasPrefix(lines.Text(), "fp8lab playground: ")
	}
	if !started {
		noURL(t, cmd, &stderr)
	}
	go io.Copy(io.Discard, out)
	start := time.Now()
	require.NoError(t, cmd.Process.Signal(sig))
	assert.NoError(t, cmd.Wait(), "serve exits 0 on %v; stderr: %s", sig, stderr.String())
	assert.Less(t, time.Since(start), 10*time.Second, "%v stops the server promptly", sig)
}

// hostileServe serves a site beside an 8 GB sparse file under the memory
// limit, checks the Host header and the lazy reads, and stops it with
// SIGINT.
func hostileServe(t *testing.T, bin string) {
	dir := fakeExport(t)
	sparseFile("big.bin", 8<<30)(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), hostileTimeout)
	defer cancel()
	cmd := limited(ctx, bin, "serve", "--dir", dir, "--addr", "127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := bufio.NewScanner(out)
	var url string
	for lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "fp8lab playground: "); ok {
			url = u
			break
		}
	}
	if url == "" {
		noURL(t, cmd, &stderr)
	}
	go io.Copy(io.Discard, out)
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")

	assert.Equal(t, "HTTP/1.1 421 Misdirected Request", statusLine(t, addr, "GET / HTTP/1.1\r\nHost: evil.example\r\n"))
	assert.Equal(t, "HTTP/1.1 421 Misdirected Request", statusLine(t, addr, "GET / HTTP/1.1\r\nHost: evil.example:"+strings.Split(addr, ":")[1]+"\r\n"))
	assert.Equal(t, "HTTP/1.1 200 OK", statusLine(t, addr, "GET / HTTP/1.1\r\nHost: "+addr+"\r\n"))
	assert.Equal(t, "HTTP/1.1 206 Partial Content", statusLine(t, addr, "GET /big.bin HTTP/1.1\r\nHost: localhost\r\nRange: bytes=4000000000-4000000009\r\n"))
	resp, err := http.Get(url + "index.html")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	start := time.Now()
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	err = cmd.Wait()
	assert.NoError(t, err, "serve exits 0 on SIGINT; stderr: %s", stderr.String())
	assert.Less(t, time.Since(start), 10*time.Second, "SIGINT stops the server promptly")
	assert.NotContains(t, stderr.String(), "panic:")
	assert.NotContains(t, stderr.String(), "goroutine ")
}

// noURL fails the test of a serve that closed its output without printing
// its URL, with what it said on stderr, read once it has ended (reading it
// while serve runs races with the copy into it).
func noURL(t *testing.T, cmd *exec.Cmd, stderr *bytes.Buffer) {
	t.Helper()
	cmd.Wait()
	t.Fatalf("serve printed no URL; stderr: %s", stderr.String())
}

// statusLine sends a raw request (Connection: close added) and returns the
// reply's status line.
func statusLine(t *testing.T, addr, request string) string {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(20*time.Second)))
	_, err = io.WriteString(conn, request+"Connection: close\r\n\r\n")
	require.NoError(t, err)
	line, err := bufio.NewReader(conn).ReadString('\n')
	require.NoError(t, err)
	return strings.TrimSuffix(line, "\r\n")
}

// buildBinary builds fp8lab into the test's temporary folder.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fp8lab")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// limited returns the command under the memory limits: prlimit --as where
// it exists, else ulimit -v in bash, else GOMEMLIMIT alone.
func limited(ctx context.Context, bin string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if p, err := exec.LookPath("prlimit"); err == nil {
		cmd = exec.CommandContext(ctx, p, append([]string{"--as=" + strconv.Itoa(hostileAddressSpace), bin}, args...)...)
	} else if sh, err := exec.LookPath("bash"); err == nil {
		script := "ulimit -v " + strconv.Itoa(hostileAddressSpace/1024) + ` 2>/dev/null; exec "$0" "$@"`
		cmd = exec.CommandContext(ctx, sh, append([]string{"-c", script, bin}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, bin, args...)
	}
	cmd.Env = append(os.Environ(), "GOMEMLIMIT="+hostileGoMemLimit, "GOTRACEBACK=all")
	return cmd
}

// writeCSV writes a small 2×2 tensor.
func writeCSV(name string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("1,2\n3,4\n"), 0o644))
	}
}

// writePNGHeader writes a 16-bit gray PNG whose header claims w×h pixels
// (the data is that of a 1×1 image, so only the header is big).
func writePNGHeader(name string, w, h uint32) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		var buf bytes.Buffer
		require.NoError(t, png.Encode(&buf, image.NewGray16(image.Rect(0, 0, 1, 1))))
		data := buf.Bytes()
		// IHDR: length (4) "IHDR" (4) width (4) height (4) ... CRC over type+data.
		binary.BigEndian.PutUint32(data[16:], w)
		binary.BigEndian.PutUint32(data[20:], h)
		binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
}

// sparseFile makes a file of the given size that takes no disk space.
func sparseFile(name string, size int64) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		f, err := os.Create(filepath.Join(dir, name))
		require.NoError(t, err)
		require.NoError(t, f.Truncate(size))
		require.NoError(t, f.Close())
	}
}

// symlinkTo makes link point at target (which exists, mode 0600).
func symlinkTo(link, target string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, target), nil, 0o600))
		require.NoError(t, os.Symlink(target, filepath.Join(dir, link)))
	}
}

// writtenThrough checks that link is still a link and target holds a PNG
// with its mode kept.
func writtenThrough(link, target string) func(*testing.T, string, []byte) {
	return func(t *testing.T, dir string, _ []byte) {
		fi, err := os.Lstat(filepath.Join(dir, link))
		require.NoError(t, err)
		assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is still a link")
		data, err := os.ReadFile(filepath.Join(dir, target))
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(data, []byte("\x89PNG")), "the target holds the PNG")
		st, err := os.Stat(filepath.Join(dir, target))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	}
}

// pngOnStdout checks that stdout holds a PNG and no file "-" was made.
func pngOnStdout(t *testing.T, dir string, stdout []byte) {
	assert.True(t, bytes.HasPrefix(stdout, []byte("\x89PNG")), "stdout holds the PNG")
	assert.NoFileExists(t, filepath.Join(dir, "-"))
}

// stillDevice checks that a device node was not replaced.
func stillDevice(path string) func(*testing.T, string, []byte) {
	return func(t *testing.T, _ string, _ []byte) {
		fi, err := os.Stat(path)
		require.NoError(t, err)
		assert.NotZero(t, fi.Mode()&os.ModeCharDevice, "%s is still a character device", path)
	}
}
