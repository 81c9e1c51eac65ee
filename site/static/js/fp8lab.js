// fp8lab.js: loads one of fp8lab's WebAssembly modules and returns its
// JavaScript API. It needs Go's wasm_exec.js (loaded first) and works in
// browsers and in Node.
//
//   const api = await FP8Lab.load("fp8core.wasm");
//   api.encode("E4M3FN", 0.3952);           // 51 (0x33)
//   api.decode("E4M3FN", 0x7e);             // 448
//
// Every API function throws an Error (message "fp8lab.NAME: ...") when its
// arguments are bad; the Go runtime keeps running.
"use strict";

(function () {
  // Go's wasm_exec.js turns the number -0 into +0 in both directions, so -0
  // travels as this string (internal/jsapi.NegZero).
  const NEG_ZERO = "fp8lab:-0";

  function toGo(a) {
    return Object.is(a, -0) ? NEG_ZERO : a;
  }

  // fromGo restores -0 in a result: the value itself, or inside plain
  // objects and arrays (typed arrays carry -0 unharmed).
  function fromGo(v) {
    if (v === NEG_ZERO) {
      return -0;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        v[i] = fromGo(v[i]);
      }
    } else if (v !== null && typeof v === "object" && !ArrayBuffer.isView(v) && !(v instanceof Error)) {
      for (const k of Object.keys(v)) {
        v[k] = fromGo(v[k]);
      }
    }
    return v;
  }

  // wrap turns the Go functions, which return an Error object instead of
  // throwing, into functions that throw it.
  function wrap(raw, go) {
    const api = {};
    for (const name of Object.keys(raw)) {
      const f = raw[name];
      if (typeof f !== "function") {
        api[name] = f;
        continue;
      }
      api[name] = function (...args) {
        if (go.exited) {
          throw new Error("fp8lab." + name + ": the WebAssembly module has stopped; reload the page");
        }
        const result = f(...args.map(toGo));
        if (result instanceof Error) {
          throw result;
        }
        return fromGo(result);
      };
    }
    return Object.freeze(api);
  }

  // instantiate compiles the module from a URL (streaming when the server
  // sends application/wasm) or from bytes. onSize, if given, learns the
  // size of the download (the Content-Length the server sent: the
  // compressed size when it compresses) as soon as the response starts.
  async function instantiate(source, importObject, onSize) {
    if (typeof source !== "string") {
      return (await WebAssembly.instantiate(source, importObject)).instance;
    }
    const response = await fetch(source);
    if (!response.ok) {
      throw new Error("fp8lab: cannot fetch " + source + ": HTTP " + response.status);
    }
    const size = Number(response.headers.get("Content-Length"));
    if (typeof onSize === "function" && size > 0) onSize(size);
    const type = response.headers.get("Content-Type") || "";
    if (WebAssembly.instantiateStreaming && type.startsWith("application/wasm")) {
      return (await WebAssembly.instantiateStreaming(response, importObject)).instance;
    }
    return (await WebAssembly.instantiate(await response.arrayBuffer(), importObject)).instance;
  }

  // load starts a module and resolves to its API once the Go side has
  // registered it. source: a URL or the module's bytes. options.args: the
  // program's arguments (os.Args[1:]); options.onSize(bytes): called with
  // the size of the download once it is known (see instantiate).
  async function load(source, options) {
    if (typeof Go !== "function") {
      throw new Error("fp8lab: load wasm_exec.js before fp8lab.js");
    }
    const go = new Go();
    go.argv = ["fp8lab"].concat((options && options.args) || []);
    let resolveReady;
    const ready = new Promise((resolve) => { resolveReady = resolve; });
    globalThis.__fp8labReady = (raw) => resolveReady(raw);
    const instance = await instantiate(source, go.importObject, options && options.onSize);
    const exited = go.run(instance).then(() => {
      throw new Error("fp8lab: the WebAssembly module exited before it was ready");
    });
    exited.catch(() => {}); // after ready, a stop is reported by every call (go.exited)
    const raw = await Promise.race([ready, exited]);
    delete globalThis.__fp8labReady;
    if (raw instanceof Error) {
      throw raw;
    }
    return wrap(raw, go);
  }

  // loadingText names a module being downloaded and its size:
  // "fp8lab.wasm, 4.4 MB".
  function loadingText(file, bytes) {
    return file + ", " + (bytes / 1e6).toFixed(1) + " MB";
  }

  const FP8Lab = Object.freeze({ load, loadingText });
  globalThis.FP8Lab = FP8Lab;
  if (typeof module === "object" && module.exports) {
    module.exports = FP8Lab;
  }
})();
