// canvas.js: runs the playground module (ebiten scenes) in this page, which
// the scene pages frame. The scene comes from the URL fragment
// (canvas.html#explorer). globalThis.fp8labReady resolves to the module's
// API once the scene is running; the framing page uses it to drive the
// scene (setParam, currentScene...).
"use strict";

// While the scene shows every change (fp8labSettled), the frame loop of
// ebiten (FPSModeVsyncOffMinimum still asks for an animation frame 60 times
// a second to find nothing to do) is parked here, so an idle scene costs no
// CPU; the module calls fp8labWake when it schedules a frame, and a resize
// wakes it too. Input events reach the game without the loop.
(function () {
  const nativeRAF = window.requestAnimationFrame.bind(window);
  let parked = null;
  window.requestAnimationFrame = (cb) => {
    if (typeof globalThis.fp8labSettled === "function" && globalThis.fp8labSettled()) {
      parked = cb;
      return 0;
    }
    return nativeRAF(cb);
  };
  globalThis.fp8labWake = () => {
    if (parked) {
      const cb = parked;
      parked = null;
      nativeRAF(cb);
    }
  };
  window.addEventListener("resize", () => globalThis.fp8labWake());
})();

(function () {
  // canvas.html#name&k=v&…: the scene, and the link's values to set before
  // the first frame (scene.js).
  const [scene, ...link] = location.hash.replace(/^#/, "").split("&").map(decodeURIComponent);
  const loading = document.getElementById("loading");
  // The size of the download, once the server says it, goes into the
  // loading line here and in the framing page (as {fp8lab: "loading"}).
  const onSize = (bytes) => {
    if (loading) loading.textContent = "Loading the playground (" + FP8Lab.loadingText("fp8lab.wasm", bytes) + ")…";
    if (window.parent !== window) window.parent.postMessage({ fp8lab: "loading", text: FP8Lab.loadingText("fp8lab.wasm", bytes) }, location.origin === "null" ? "*" : location.origin);
  };
  globalThis.fp8labReady = FP8Lab.load("fp8lab.wasm", { args: scene ? [scene, ...link] : [], onSize }).then((api) => {
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
