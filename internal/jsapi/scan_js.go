//go:build js && wasm

package jsapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"syscall/js"
	"time"

	"github.com/fp8lab/fp8lab/scan"
)

// blobWindow is how much of a Blob one read fetches ahead: the readers ask
// for a few KB (headers, zip records) or ChunkValues at a time, and every
// fetch is a round trip through a Promise.
const blobWindow = 4 << 20

var (
	jsBlob    = js.Global().Get("Blob")
	jsPromise = js.Global().Get("Promise")
)

// blobReader is an io.ReaderAt over a JavaScript Blob (a File): each fetch
// is Blob.slice(off, end).arrayBuffer(), awaited on the calling goroutine,
// which must not be a js.FuncOf callback (scanFile runs it on its own). It
// keeps the last window fetched, never the whole file.
type blobReader struct {
	blob    js.Value
	size    int64
	off     int64  // where buf starts in the file
	buf     []byte // the last window read
	fetches int
	// ctx ends a read that waits (the job's cancel); timeout bounds each
	// fetch (a Blob whose Promise never settles hung scanFile for ever).
	ctx     context.Context
	timeout time.Duration
}

// DefaultReadTimeout bounds one read of a Blob unless scanFile's options
// say otherwise: a window of a local file takes milliseconds.
const DefaultReadTimeout = 30 * time.Second

// ReadAt implements io.ReaderAt.
func (b *blobReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("blob: negative offset")
	}
	n := 0
	for len(p) > 0 {
		if off >= b.size {
			return n, io.EOF
		}
		if off < b.off || off >= b.off+int64(len(b.buf)) {
			end := min(b.size, off+max(int64(len(p)), blobWindow))
			if err := b.fetch(off, end); err != nil {
				return n, err
			}
		}
		k := copy(p, b.buf[off-b.off:])
		p, off, n = p[k:], off+int64(k), n+k
	}
	return n, nil
}

// fetch reads [lo, hi) of the blob into b.buf.
func (b *blobReader) fetch(lo, hi int64) error {
	v, err := await(b.ctx, b.blob.Call("slice", lo, hi).Call("arrayBuffer"), b.timeout)
	if err != nil {
		return fmt.Errorf("reading bytes %d…%d of the file: %w", lo, hi, err)
	}
	if cap(b.buf) < int(hi-lo) {
		b.buf = make([]byte, hi-lo)
	}
	b.buf = b.buf[:hi-lo]
	if got := js.CopyBytesToGo(b.buf, jsUint8Array.New(v)); got != len(b.buf) {
		return fmt.Errorf("reading bytes %d…%d of the file: got %d bytes", lo, hi, got)
	}
	b.off = lo
	b.fetches++
	return nil
}

// errCancelled is what a read waiting when the job is cancelled returns.
var errCancelled = errors.New("cancelled")

// await waits for a Promise on the calling goroutine (never a callback's),
// at most timeout, and no longer than ctx lasts. The two callbacks release
// themselves when the Promise settles; a Promise that never does keeps
// them (two small entries), which is what it costs to give up on it.
func await(ctx context.Context, p js.Value, timeout time.Duration) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var ok, fail js.Func
	settle := func(r result) {
		ch <- r
		ok.Release()
		fail.Release()
	}
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any { settle(result{v: arg(args, 0)}); return nil })
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		settle(result{err: errors.New(jsString.Invoke(arg(args, 0)).String())})
		return nil
	})
	p.Call("then", ok, fail)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		return js.Value{}, errCancelled
	case <-timer.C:
		return js.Value{}, fmt.Errorf("no answer within %v", timeout)
	}
}

// argBlob reads argument i as a Blob (a File is one) and its size.
func argBlob(args []js.Value, i int, name string) (*blobReader, error) {
	v := arg(args, i)
	if typeOf(v) != js.TypeObject || !v.InstanceOf(jsBlob) {
		return nil, fmt.Errorf("argument %d (%s) must be a Blob or File, got %s", i+1, name, kind(v))
	}
	size := get(v, "size")
	if typeOf(size) != js.TypeNumber || size.Float() < 0 {
		return nil, fmt.Errorf("argument %d (%s) has no valid size", i+1, name)
	}
	return &blobReader{blob: v, size: int64(size.Float()), ctx: context.Background(), timeout: DefaultReadTimeout}, nil
}

// argName reads argument i as a file name: a string, or the Blob's own
// name (a File has one) when undefined.
func argName(args []js.Value, i int, blob js.Value) (string, error) {
	v := arg(args, i)
	switch typeOf(v) {
	case js.TypeString:
		return v.String(), nil
	case js.TypeUndefined, js.TypeNull:
		if n := get(blob, "name"); typeOf(n) == js.TypeString {
			return n.String(), nil
		}
		return "", nil
	}
	return "", fmt.Errorf("argument %d (filename) must be a string, got %s", i+1, kind(v))
}

// promise returns a Promise settled by work, which runs on its own
// goroutine (so that it may await other Promises): a value resolves it, an
// error rejects it with an Error whose message starts with "fp8lab.NAME: ".
func promise(name string, work func() (any, error)) js.Value {
	var exec js.Func
	exec = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer func() {
				if r := recover(); r != nil {
					reject.Invoke(jsError.New(fmt.Sprintf("fp8lab.%s: internal error: %v", name, r)))
				}
			}()
			v, err := work()
			if err != nil {
				reject.Invoke(jsError.New("fp8lab." + name + ": " + err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	p := jsPromise.New(exec)
	exec.Release()
	return p
}

// scanFile(file, options?) -> {done, cancel}: scans a Blob or File (a
// safetensors file, an .npz or an .npy) as fp8lab scan does, reading it a
// window at a time. options: recipes, formats, filter, layout (strings as
// the CLI's flags), minSQNR (dB, positive), filename (default the File's
// name), readTimeoutMs (how long one read of the file may take, default
// 30000), and onProgress, called after each tensor with {tensors, total,
// bytes, size, elapsedMs, text}. done resolves to {html, json, tensors,
// interrupted, error, fetches, heapBytes}: error is the message of a
// tensor that could not be read (the report then holds the tensors before
// it) or null; heapBytes is the Go heap in use once the job has returned
// its memory. A file that cannot be opened, or a read that times out
// before any tensor, rejects done. cancel() stops after the tensor in
// progress, or at once when a read is waiting; after done it does
// nothing.
func apiScanFile(args []js.Value) (any, error) {
	br, err := argBlob(args, 0, "file")
	if err != nil {
		return nil, err
	}
	o := arg(args, 1)
	var progress js.Value
	var q ScanRequest
	name := ""
	if t := typeOf(o); t != js.TypeUndefined && t != js.TypeNull {
		if t != js.TypeObject {
			return nil, fmt.Errorf("argument 2 (options) must be an object, got %s", kind(o))
		}
		progress = get(o, "onProgress")
		if t := typeOf(progress); t != js.TypeFunction && t != js.TypeUndefined {
			return nil, fmt.Errorf("options.onProgress must be a function, got %s", kind(progress))
		}
		rest := jsObject.Call("assign", jsObject.New(), o)
		rest.Delete("onProgress")
		opts, err := argOpts([]js.Value{rest}, 0, "recipes", "formats", "filter", "layout", "minSQNR", "filename", "readTimeoutMs")
		if err != nil {
			return nil, err
		}
		for _, k := range []string{"recipes", "formats", "filter", "layout", "filename"} {
			if _, ok := opts[k]; ok {
				s, ok := opts[k].(string)
				if !ok {
					return nil, fmt.Errorf("options.%s must be a string", k)
				}
				switch k {
				case "recipes":
					q.Recipes = s
				case "formats":
					q.Formats = s
				case "filter":
					q.Filter = s
				case "layout":
					q.Layout = s
				case "filename":
					name = s
				}
			}
		}
		if v, ok := opts["minSQNR"]; ok {
			f, ok := v.(float64)
			if !ok {
				return nil, fmt.Errorf("options.minSQNR must be a number")
			}
			q.MinSQNR = f
		}
		if v, ok := opts["readTimeoutMs"]; ok {
			ms, ok := v.(float64)
			if !ok || !(ms >= 1 && ms <= 3.6e6) {
				return nil, fmt.Errorf("options.readTimeoutMs must be a number of milliseconds in 1..3600000, got %v", v)
			}
			br.timeout = time.Duration(ms * float64(time.Millisecond))
		}
	}
	if name == "" {
		name, _ = argName(nil, 0, br.blob)
	}
	if _, err := q.options(); err != nil { // refuse bad options now, not in the Promise
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	br.ctx = ctx
	id := scanJobs.add(cancel)
	var onProgress func(scan.Progress)
	if progress.Type() == js.TypeFunction {
		onProgress = func(p scan.Progress) {
			progress.Invoke(map[string]any{"tensors": p.Tensors, "total": p.Total, "bytes": float64(p.Bytes),
				"size": float64(p.Size), "elapsedMs": float64(p.Elapsed.Milliseconds()), "text": p.String()})
		}
	}
	job := func() (map[string]any, error) {
		res, err := Scan(ctx, br, br.size, name, q, onProgress)
		if res == nil {
			return nil, err
		}
		out := map[string]any{"html": res.HTML, "json": string(res.JSON), "tensors": res.Tensors,
			"interrupted": res.Interrupted, "error": nil, "fetches": br.fetches}
		if err != nil {
			out["error"] = err.Error()
		}
		return out, nil
	}
	done := promise("scanFile", func() (any, error) {
		out, err := job()
		scanJobs.done(id)
		br.buf = nil // the last window read goes with the job
		returnMemory()
		if err != nil {
			return nil, err
		}
		out["heapBytes"] = float64(heapInUse())
		return out, nil
	})
	return map[string]any{"done": done, "cancel": scanJobs.cancelFunc(id)}, nil
}

// jobs are the scans in progress, by id: each job's cancel() is the one
// long-lived cancelJob function bound to its id, so that it needs no
// js.Func of its own and calling it after done does nothing (a released
// js.Func logged "call to released function").
type jobs struct {
	mu      sync.Mutex
	next    int
	cancels map[int]context.CancelFunc
	fn      js.Func // cancelJob(id)
}

var scanJobs jobs

// add registers a job's cancel function and returns its id.
func (j *jobs) add(cancel context.CancelFunc) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.cancels == nil {
		j.cancels = map[int]context.CancelFunc{}
		j.fn = js.FuncOf(func(_ js.Value, args []js.Value) any {
			j.mu.Lock()
			c := j.cancels[arg(args, 0).Int()]
			j.mu.Unlock()
			if c != nil {
				c()
			}
			return nil
		})
	}
	j.next++
	j.cancels[j.next] = cancel
	return j.next
}

// done ends job id: its context is cancelled and its cancel() forgotten.
func (j *jobs) done(id int) {
	j.mu.Lock()
	c := j.cancels[id]
	delete(j.cancels, id)
	j.mu.Unlock()
	c()
}

// cancelFunc is the JavaScript function that cancels job id.
func (j *jobs) cancelFunc(id int) js.Value {
	return j.fn.Call("bind", js.Null(), id)
}

// returnMemory collects what the job left and hands the free pages back
// to the runtime, so that the next job starts from a small heap (after one
// scan of a file with a 99 MB header the next one ran out of memory).
func returnMemory() {
	debug.FreeOSMemory()
}

// heapInUse is the Go heap in use now, in bytes.
func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// extractTensor(file, tensorName, filename?) -> Promise of a Uint8Array:
// the named tensor of a Blob or File as a float32 .npy file, for a scene's
// loadTensor. Only that tensor is read.
func apiExtractTensor(args []js.Value) (any, error) {
	br, err := argBlob(args, 0, "file")
	if err != nil {
		return nil, err
	}
	tensor, err := argString(args, 1, "tensorName")
	if err != nil {
		return nil, err
	}
	name, err := argName(args, 2, br.blob)
	if err != nil {
		return nil, err
	}
	return promise("extractTensor", func() (any, error) {
		b, err := ExtractNPY(br, br.size, name, tensor)
		if err != nil {
			return nil, err
		}
		return toJS(jsUint8Array, b), nil
	}), nil
}
