// training-live.js: on the Training scene's page (scene.html?name=training),
// trains the live run in a Web Worker (training-worker.js) instead of in
// the canvas's frames, so that the page's thread only draws: its timers
// and controls answer on time while the model trains. The scene says what
// to train (trainingPlan(), read after every change it reports) and takes
// the steps the worker trains (feedTraining). Without workers, the scene
// trains in its frames as before. document.body gets data-training-worker
// ="on" once the worker trains for the scene.
"use strict";

(function () {
  const query = new URLSearchParams(location.search);
  if ((query.get("name") || "") !== "training" || typeof Worker !== "function") return;
  const frame = document.getElementById("canvas");
  let api = null;
  let worker = null;
  let sent = null; // the last plan posted: its JSON text

  // sync posts the scene's plan to the worker when it changed.
  function sync() {
    if (!api || !worker) return;
    let plan;
    try {
      plan = api.trainingPlan();
    } catch (err) {
      console.error("fp8lab training:", err.message);
      return;
    }
    if (plan !== null && plan !== sent) {
      sent = plan;
      worker.postMessage({ type: "plan", plan });
    }
  }

  function begin(a) {
    api = a;
    worker = new Worker("js/training-worker.js");
    worker.addEventListener("message", (ev) => {
      const m = ev.data;
      switch (m.type) {
        case "ready":
          try {
            api.trainElsewhere();
          } catch (err) {
            console.error("fp8lab training:", err.message);
            worker.terminate();
            return;
          }
          document.body.dataset.trainingWorker = "on";
          sync();
          break;
        case "update":
          try {
            api.feedTraining(m.update); // false: the plan changed meanwhile
          } catch (err) {
            console.error("fp8lab training: an update was refused: " + err.message);
          }
          break;
        case "failed":
          console.error("fp8lab training: the worker stopped: " + m.message);
          break;
        case "loadError":
          // The scene keeps training in its frames.
          console.error("fp8lab training: no worker (" + m.message + "); training in the page");
          break;
      }
    });
  }

  window.addEventListener("message", (ev) => {
    if (ev.source === frame.contentWindow && ev.data && ev.data.fp8lab === "change") sync();
  });
  frame.addEventListener("load", () => {
    const ready = frame.contentWindow && frame.contentWindow.fp8labReady;
    if (ready) ready.then(begin, () => {});
  }, { once: true });
})();
