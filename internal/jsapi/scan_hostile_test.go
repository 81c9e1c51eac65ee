//go:build !js

package jsapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// tinyBlobJS defines tiny(n, prefix): a Blob of a safetensors file of n F32
// tensors of two values each, built in JavaScript (a file of thousands of
// tensors would be megabytes of source as base64).
const tinyBlobJS = `
function tiny(n, prefix) {
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(JSON.stringify(prefix + i) + ':{"dtype":"F32","shape":[2],"data_offsets":[' + 8 * i + ',' + (8 * i + 8) + ']}');
  const header = new TextEncoder().encode("{" + parts.join(",") + "}");
  const data = new Float32Array(2 * n).fill(1.5);
  const len = new Uint8Array(8);
  new DataView(len.buffer).setUint32(0, header.length, true);
  return new Blob([len, header, new Uint8Array(data.buffer)]);
}
`

// hungBlobJS defines hung(): a Blob whose reads never answer.
const hungBlobJS = `
class Hung extends Blob { slice() { return { arrayBuffer: () => new Promise(() => {}) }; } }
function hung() { return new Hung([new Uint8Array(4096)]); }
`

// scanHostileCases are issue 26's scanFile cases (items 1 and 10): many
// tiny tensors within a stated heap, a Blob that never answers (cancelled,
// and timed out), memory handed back after a job, cancel() after done, and
// a NaN threshold.
func scanHostileCases() []jsCase {
	const heapBudget = 64 << 20 // bytes of Go heap a finished job may leave in use
	return []jsCase{
		{name: "scanFile: 6,000 tiny tensors", code: tinyBlobJS + `
			return api.scanFile(tiny(6000, "t"), {filename: "tiny.safetensors"}).done;`,
			check: func(t *testing.T, v any) {
				o := obj(t, v)
				assert.Equal(t, 6000.0, o["tensors"])
				assert.Nil(t, o["error"])
				t.Logf("Go heap in use after the job: %.1f MiB", o["heapBytes"].(float64)/(1<<20))
				assert.Less(t, o["heapBytes"], float64(heapBudget), "heap in use after the job")
			}},
		{name: "scanFile: a Blob that never answers, cancelled", code: hungBlobJS + `
			const t0 = Date.now();
			const job = api.scanFile(hung(), {filename: "hung.safetensors"});
			setTimeout(() => job.cancel(), 50);
			return job.done.then((r) => Object.assign(r, {ms: Date.now() - t0}));`,
			check: func(t *testing.T, v any) {
				o := obj(t, v)
				assert.Equal(t, true, o["interrupted"])
				assert.Equal(t, 0.0, o["tensors"])
				assert.Nil(t, o["error"])
				assert.Less(t, o["ms"], 1000.0, "cancel ends the wait at once")
			}},
		{name: "scanFile: a Blob that never answers, timed out", code: hungBlobJS + `
			return api.scanFile(hung(), {filename: "hung.safetensors", readTimeoutMs: 100}).done;`,
			wantErr: "reading bytes 0…4096 of the file: no answer within 100ms"},
		{name: "scanFile: bad readTimeoutMs", code: hungBlobJS + `return api.scanFile(hung(), {readTimeoutMs: 0});`,
			wantErr: "options.readTimeoutMs must be a number of milliseconds in 1..3600000, got 0"},
		{name: "scanFile: memory handed back after a refused large header", code: tinyBlobJS + `return (async () => {
			const many = tiny(60000, "model.layers.0.mlp.experts.0.gate_proj.weight.");
			const first = await api.scanFile(many, {filename: "many.safetensors"}).done.then(() => "resolved", (e) => e.message);
			const again = await api.scanFile(many, {filename: "many.safetensors"}).done.then(() => "resolved", (e) => e.message);
			const small = await api.scanFile(tiny(3, "s"), {filename: "s.safetensors"}).done;
			return {first, again, heapBytes: small.heapBytes, size: many.size};
			})();`,
			check: func(t *testing.T, v any) {
				o := obj(t, v)
				assert.Contains(t, o["first"], "60000 tensors to scan, more than the limit of 20000")
				assert.Equal(t, o["first"], o["again"])
				t.Logf("after two %v-byte files: a small job leaves %.1f MiB of heap", o["size"], o["heapBytes"].(float64)/(1<<20))
				assert.Less(t, o["heapBytes"], float64(16<<20), "heap in use after a small job that follows a %v-byte header", o["size"])
			}},
		{name: "scanFile: cancel() after done does nothing", code: tinyBlobJS + `return (async () => {
			const job = api.scanFile(tiny(3, "t"), {filename: "t.safetensors"});
			const r = await job.done;
			const logged = [];
			const orig = console.error;
			console.error = (...a) => logged.push(a.join(" "));
			try { job.cancel(); job.cancel(); } finally { console.error = orig; }
			return {tensors: r.tensors, logged};
			})();`,
			check: func(t *testing.T, v any) {
				o := obj(t, v)
				assert.Equal(t, 3.0, o["tensors"])
				assert.Empty(t, o["logged"], "nothing logged (was: call to released function)")
			}},
		{name: "scanFile: minSQNR NaN", code: tinyBlobJS + `return api.scanFile(tiny(1, "t"), {minSQNR: NaN});`,
			wantErr: "minSQNR must be a positive number of dB, got NaN"},
		{name: "scanFile: minSQNR Infinity", code: tinyBlobJS + `return api.scanFile(tiny(1, "t"), {minSQNR: Infinity});`,
			wantErr: "minSQNR must be a positive number of dB, got +Inf"},
	}
}
