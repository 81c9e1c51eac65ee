// scan.js: the Scan page. A dropped or chosen file (safetensors, .npz or
// .npy) goes, by reference, to a Web Worker (scan-worker.js) that runs the
// core module's scanFile: the same Go code as fp8lab scan, reading the file
// a window at a time, so the page stays responsive and the file never
// leaves the browser. The page shows progress (tensors, bytes, ETA), can
// cancel, and shows the report that scan/report renders (the heatmap,
// summary, table and histograms of fp8lab scan --html), or the error the
// CLI would print. A click on a tensor's row offers the scenes that can
// show a tensor; the worker extracts that tensor as a .npy file, which the
// scene page picks up (FP8Page.putHandoff). "Scan a sample" scans the
// training lab's small GPT (site/sample.go).
//
// <body> gets data-ready="1" once the worker is ready, and data-scan set to
// "running", "done", "cancelled" or "failed" (the browser tests wait on
// them).
"use strict";

(function () {
  const P = FP8Page;
  const $ = (id) => document.getElementById(id);
  const status = $("status");
  const input = $("scan-file");
  const drop = $("drop");
  const progressBox = $("progress-box");
  const bar = $("scan-progress");
  const progressText = $("progress-text");
  const cancelButton = $("cancel");
  const errorBox = $("scan-error");
  const results = $("results");
  const reportBox = $("report");
  const openBar = $("open-bar");
  const openStatus = $("open-status");
  const download = $("download-json");
  const sampleButton = $("scan-sample");
  let worker = null;
  let scanning = false;
  let file = null; // the file of the report on screen
  let selected = null; // the tensor picked in the report
  let started = 0; // performance.now() when the scan in progress started
  let reports = 0; // reports shown so far (a report still being moved in stops when the next one starts)

  const mb = (bytes) => (bytes / 1e6).toFixed(1);

  function state(s) {
    document.body.dataset.scan = s;
  }

  function showError(msg) {
    errorBox.textContent = msg;
    errorBox.hidden = !msg;
  }

  // options reads the form as scanFile's options (fp8lab scan's flags).
  function options() {
    const recipes = Array.from(document.querySelectorAll("input[name=recipe]:checked"), (c) => c.value);
    const o = { recipes: recipes.join(","), formats: $("scan-formats").value.trim(), filter: $("scan-filter").value, layout: $("scan-layout").value };
    const min = Number($("scan-min-sqnr").value);
    if ($("scan-min-sqnr").value.trim() !== "" && Number.isFinite(min)) o.minSQNR = min;
    return o;
  }

  function start(f) {
    if (!f || scanning || !worker) return;
    if (options().recipes === "") {
      showError("Choose at least one recipe.");
      return;
    }
    scanning = true;
    started = performance.now();
    file = f;
    selected = null;
    openBar.hidden = true;
    showError("");
    results.hidden = true;
    reports++;
    reportBox.textContent = "";
    progressBox.hidden = false;
    bar.removeAttribute("value"); // indeterminate until the first tensor is done
    progressText.textContent = "Reading " + f.name + " (" + mb(f.size) + " MB)…";
    cancelButton.disabled = false;
    state("running");
    worker.postMessage({ type: "scan", file: f, options: options() });
  }

  function progress(p) {
    bar.value = p.size > 0 ? p.bytes / p.size : p.tensors / Math.max(p.total, 1);
    progressText.textContent = p.tensors + " of " + p.total + " tensors, " + mb(p.bytes) + " of " + mb(p.size) + " MB (" +
      p.text.replace(/^\d+\/\d+ tensors, /, "") + ")";
  }

  // finish shows the report that scan/report rendered (names escaped
  // there). It is parsed off the page and moved in a piece per animation
  // frame (the account, the heatmap, the summary, the table, then each
  // histogram), so that the first layout of a long report never stalls
  // the page at once.
  function finish(result) {
    scanning = false;
    const ms = performance.now() - started;
    document.body.dataset.scanMs = String(ms);
    progressBox.hidden = true;
    const parsed = document.createElement("template");
    parsed.innerHTML = result.html;
    const source = parsed.content.firstElementChild;
    const shown = source.cloneNode(false);
    reportBox.replaceChildren(shown);
    $("scan-time").textContent = mb(file.size) + " MB scanned in " + (ms / 1000).toFixed(1) + " s.";
    // A data: URL rather than a blob: one, which the site's
    // Content-Security-Policy (connect-src 'self') would keep from scripts.
    download.href = "data:application/json;charset=utf-8," + encodeURIComponent(result.json);
    download.download = file.name.replace(/\.[^.]*$/, "") + ".scan.json";
    $("results-heading").textContent = "Results: " + file.name;
    results.hidden = false;
    if (result.error) {
      showError(result.error + " (the report covers the " + result.tensors + " tensors before it)");
    } else if (result.interrupted) {
      status.textContent = "Cancelled: the report covers the " + result.tensors + " tensors scanned.";
    } else {
      status.textContent = "";
    }
    const generation = ++reports;
    const step = () => {
      if (generation !== reports) return; // another scan started
      const node = source.firstChild;
      if (node) {
        shown.append(node);
        if (node.nodeType === Node.ELEMENT_NODE) {
          // The heatmap's rows (one per tensor) are reachable from the keyboard.
          for (const tr of node.querySelectorAll("table.heatmap tr[data-tensor]")) tr.tabIndex = 0;
          requestAnimationFrame(step);
        } else {
          step();
        }
        return;
      }
      state(result.error ? "failed" : result.interrupted ? "cancelled" : "done");
    };
    step();
  }

  function failed(msg) {
    scanning = false;
    progressBox.hidden = true;
    showError(msg);
    state("failed");
  }

  // select marks a tensor's rows and offers the scenes that can show it.
  function select(name) {
    selected = name;
    for (const tr of reportBox.querySelectorAll("tr[data-tensor]")) tr.classList.toggle("selected", tr.dataset.tensor === name);
    $("open-name").textContent = name;
    openStatus.textContent = "";
    openBar.hidden = false;
  }

  let opening = null; // the scene to open once the tensor is extracted
  function open(scene) {
    if (!selected || !file || opening) return;
    opening = scene;
    openStatus.textContent = "Reading " + selected + "…";
    worker.postMessage({ type: "extract", file, tensor: selected });
  }

  async function extracted(tensor, bytes) {
    const scene = opening;
    try {
      await P.putHandoff({ tensor, file: file.name, bytes });
      location.href = "scene.html?" + new URLSearchParams({ name: scene, from: "scan", scanned: tensor });
    } catch (err) {
      openStatus.textContent = "Could not hand the tensor over: " + ((err && err.message) || err);
    } finally {
      opening = null;
    }
  }

  function onMessage(ev) {
    const m = ev.data;
    switch (m.type) {
      case "loading":
        if (!status.classList.contains("alert")) status.textContent = "Loading the library (" + String(m.text) + ")…";
        break;
      case "ready":
        status.textContent = "";
        sampleButton.disabled = false;
        document.body.dataset.ready = "1";
        if (input.files && input.files[0]) start(input.files[0]);
        break;
      case "loadError":
        P.fail("loading the library", new Error(m.message));
        break;
      case "progress":
        progress(m.progress);
        break;
      case "done":
        finish(m.result);
        break;
      case "failed":
        failed(m.message);
        break;
      case "extracted":
        extracted(m.tensor, m.bytes);
        break;
      case "extractFailed":
        opening = null;
        openStatus.textContent = m.message;
        break;
    }
  }

  input.addEventListener("change", () => start(input.files && input.files[0]));
  // The sample checkpoint (site/sample.go) is fetched from the site and
  // scanned as a dropped file would be.
  sampleButton.addEventListener("click", async () => {
    if (scanning) return;
    sampleButton.disabled = true;
    try {
      const r = await fetch(sampleButton.dataset.sample);
      if (!r.ok) throw new Error("HTTP " + r.status);
      start(new File([await r.blob()], sampleButton.dataset.file));
    } catch (err) {
      showError("The sample could not be read: " + ((err && err.message) || err));
    } finally {
      sampleButton.disabled = false;
    }
  });
  for (const t of ["dragenter", "dragover"]) {
    drop.addEventListener(t, (ev) => {
      ev.preventDefault();
      drop.classList.add("over");
    });
  }
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (ev) => {
    ev.preventDefault();
    drop.classList.remove("over");
    const f = ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0];
    if (f) start(f);
  });
  cancelButton.addEventListener("click", () => {
    if (!scanning) return;
    cancelButton.disabled = true;
    progressText.textContent += " Cancelling after the tensor in progress…";
    worker.postMessage({ type: "cancel" });
  });
  reportBox.addEventListener("click", (ev) => {
    const tr = ev.target.closest && ev.target.closest("tr[data-tensor]");
    if (tr) select(tr.dataset.tensor);
  });
  reportBox.addEventListener("keydown", (ev) => {
    const tr = ev.target.closest && ev.target.closest("tr[data-tensor]");
    if (tr && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      select(tr.dataset.tensor);
    }
  });
  for (const b of openBar.querySelectorAll("button[data-scene]")) b.addEventListener("click", () => open(b.dataset.scene));

  try {
    worker = new Worker("js/scan-worker.js");
    worker.addEventListener("message", onMessage);
    worker.addEventListener("error", (ev) => P.fail("the scan worker", new Error(ev.message || "it stopped")));
  } catch (err) {
    P.fail("starting the scan worker", err);
  }
})();
