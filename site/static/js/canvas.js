// canvas.js: runs the playground module (ebiten scenes) in this page, which
// the scene pages frame. The scene comes from the URL fragment
// (canvas.html#explorer). globalThis.fp8labReady resolves to the module's
// API once the scene is running; the framing page uses it to drive the
// scene (setParam, currentScene...).
"use strict";

(function () {
  const scene = decodeURIComponent(location.hash.replace(/^#/, ""));
  const loading = document.getElementById("loading");
  globalThis.fp8labReady = FP8Lab.load("fp8lab.wasm", { args: scene ? [scene] : [] }).then((api) => {
    if (loading) loading.remove();
    return api;
  }, (err) => {
    if (loading) {
      loading.textContent = "The playground could not start: " + err.message;
    }
    console.error("fp8lab canvas:", err.message);
    throw err;
  });
  // The promise's failure is shown above; do not report it twice.
  globalThis.fp8labReady.catch(() => {});
})();
