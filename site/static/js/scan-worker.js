// scan-worker.js: runs the core module's scanFile and extractTensor for the
// Scan page (scan.js), off the page's main thread so that the page stays
// responsive while a large file is scanned. The File itself is posted here
// (a reference, not a copy); the Go side reads it a window at a time through
// Blob.slice().arrayBuffer().
//
// Messages from the page: {type: "scan", file, options}, {type: "cancel"},
// {type: "extract", file, tensor}. To the page: {type: "loading", text}
// (the module's name and download size), {type: "ready"},
// {type: "loadError", message}, {type: "progress", progress},
// {type: "done", result}, {type: "failed", message},
// {type: "extracted", tensor, bytes}, {type: "extractFailed", message}.
"use strict";

importScripts("../wasm_exec.js", "fp8lab.js");

let api = null;
let job = null; // the scan in progress: {done, cancel}

// message strips the API's "fp8lab.NAME: " prefix: the page shows what the
// CLI would print after "fp8lab scan: ".
const message = (err) => ((err && err.message) || String(err)).replace(/^fp8lab\.\w+: /, "");

FP8Lab.load("../fp8core.wasm", {
  onSize: (bytes) => postMessage({ type: "loading", text: FP8Lab.loadingText("fp8core.wasm", bytes) }),
}).then((a) => {
  api = a;
  postMessage({ type: "ready" });
}, (err) => postMessage({ type: "loadError", message: message(err) }));

self.addEventListener("message", async (ev) => {
  const m = ev.data;
  switch (m.type) {
    case "scan":
      try {
        job = api.scanFile(m.file, Object.assign({}, m.options, {
          onProgress: (p) => postMessage({ type: "progress", progress: p }),
        }));
        const result = await job.done;
        postMessage({ type: "done", result });
      } catch (err) {
        postMessage({ type: "failed", message: message(err) });
      } finally {
        job = null;
      }
      break;
    case "cancel":
      if (job) job.cancel();
      break;
    case "extract":
      try {
        const bytes = await api.extractTensor(m.file, m.tensor);
        postMessage({ type: "extracted", tensor: m.tensor, bytes }, [bytes.buffer]);
      } catch (err) {
        postMessage({ type: "extractFailed", message: message(err) });
      }
      break;
  }
});
