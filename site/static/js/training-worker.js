// training-worker.js: trains the Training scene's live run for its page
// (training-live.js), off the page's thread, in the core module (the same
// Go code as the scene, so the same losses). While it trains, the page's
// thread only draws, and its timers and controls answer on time.
//
// Messages from the page: {type: "plan", plan} (the scene's trainingPlan(),
// a JSON string). To the page: {type: "ready"}, {type: "loadError",
// message}, {type: "update", key, update} (a JSON string for the scene's
// feedTraining), {type: "failed", key, message}.
"use strict";

importScripts("../wasm_exec.js", "fp8lab.js");

// slice is how long the worker trains between updates, in milliseconds:
// each update makes the page draw the scene once, so updates a few times a
// second keep the page's thread mostly idle while the curves still grow
// smoothly.
const slice = 200;

let api = null;
let plan = null;   // the plan being trained: {key, train, ...}
let running = false; // the training loop is under way
let pending = null;  // a plan that came before the module was ready

const message = (err) => ((err && err.message) || String(err)).replace(/^fp8lab\.\w+: /, "");

FP8Lab.load("../fp8core.wasm").then((a) => {
  api = a;
  postMessage({ type: "ready" });
  if (pending) take(pending);
}, (err) => postMessage({ type: "loadError", message: message(err) }));

// take adopts a plan: a new key builds a new run (its trainers and their
// step-0 validation losses), the same key only pauses or resumes.
function take(text) {
  if (!api) {
    pending = text;
    return;
  }
  const p = JSON.parse(text);
  if (!p.key) {
    plan = null; // a scene that shows shipped runs: nothing to train
    return;
  }
  if (!plan || plan.key !== p.key) {
    try {
      api.trainingStart(text);
    } catch (err) {
      plan = null;
      postMessage({ type: "failed", key: p.key, message: message(err) });
      return;
    }
  }
  plan = p;
  if (plan.train && !running) loop();
}

// loop trains a slice at a time, posting each slice's steps, and lets the
// page's messages (a new plan, a pause) in between.
async function loop() {
  running = true;
  try {
    while (plan && plan.train) {
      const key = plan.key;
      let r;
      try {
        r = api.trainingAdvance(slice);
      } catch (err) {
        postMessage({ type: "failed", key, message: message(err) });
        break;
      }
      postMessage({ type: "update", key: r.key, update: r.update });
      if (r.done) {
        if (plan && plan.key === key) plan.train = false;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } finally {
    running = false;
  }
}

self.addEventListener("message", (ev) => {
  if (ev.data && ev.data.type === "plan") take(ev.data.plan);
});
