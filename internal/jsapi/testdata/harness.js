// harness.js runs cases against fp8lab's JavaScript API in Node.
//
//   node harness.js WASM_EXEC_JS FP8LAB_JS MODULE.wasm CASES.json
//
// CASES.json is [{"name": ..., "code": "<function body using api>"}] (a
// body that returns a Promise is awaited). The
// harness prints one JSON array: for each case {name, value} or
// {name, error, errorType}, with typed arrays as {type, values} and NaN and
// infinities as the strings "NaN", "+Inf", "-Inf".
"use strict";

const fs = require("fs");
const [wasmExec, loader, wasmFile, casesFile] = process.argv.slice(2);

globalThis.require = require;
globalThis.fs = fs;
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("perf_hooks").performance;
globalThis.crypto ??= require("crypto").webcrypto;

require(wasmExec);
const FP8Lab = require(loader);

function plain(v) {
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "NaN";
    if (v === Infinity) return "+Inf";
    if (v === -Infinity) return "-Inf";
    if (Object.is(v, -0)) return "-0";
    return v;
  }
  if (ArrayBuffer.isView(v)) {
    return { type: v.constructor.name, values: Array.from(v, plain) };
  }
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v)) out[k] = plain(v[k]);
    return out;
  }
  return v === undefined ? null : v;
}

(async () => {
  const api = await FP8Lab.load(fs.readFileSync(wasmFile));
  const cases = JSON.parse(fs.readFileSync(casesFile, "utf8"));
  const results = [];
  for (const c of cases) {
    try {
      const f = new Function("api", "\"use strict\";\n" + c.code);
      results.push({ name: c.name, value: plain(await f(api)) }); // a Promise is awaited
    } catch (e) {
      results.push({ name: c.name, error: String(e && e.message), errorType: e && e.constructor && e.constructor.name });
    }
  }
  // Exit only once the output is flushed: a write to a full pipe finishes
  // asynchronously, and exiting at once would cut the JSON short.
  process.stdout.write(JSON.stringify(results), () => process.exit(0));
})().catch((e) => {
  console.error("harness:", e && e.stack || e);
  process.exit(1);
});
