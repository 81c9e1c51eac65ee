// scene.js: one scene page (scene.html?name=explorer&code=126). The scene
// runs in the framed canvas.html; this page builds HTML controls from the
// scene's parameters, sends their changes to it through the playground's
// API (setParam), and shows the explanation with the numbers the scene
// reports (its facts). Parameters other than the defaults are kept in the
// URL, so a view can be bookmarked or shared. When the scene is on screen
// and the controls are built, <body> gets data-ready="1".
//
// Above the canvas, the takeaway is the explanation's first paragraph, in
// the same words as below it.
//
// Presentation mode (the key P, the Present button or ?present=1): the
// canvas fills the window above a compact strip of the same controls
// (with the button that leaves), and the scene draws larger type; P or Esc
// leaves it. The key P inside the canvas toggles it too (the canvas
// reports it with its change message).
//
// A scene that can show a tensor (info.tensorInput) gets a file picker, and
// the tensor the Scan page hands over (scene.html?name=window&from=scan&
// scanned=NAME, see loadScanned).
"use strict";

(function () {
  const P = FP8Page;
  const query = new URLSearchParams(location.search);
  const name = query.get("name") || "explorer";
  const frame = document.getElementById("canvas");
  const form = document.getElementById("controls");
  const status = document.getElementById("status");
  let api = null;
  let defaults = {};
  let presenting = query.get("present") === "1";
  const presentButton = document.getElementById("present");

  const side = document.querySelector(".side");
  const stageHead = document.querySelector(".stage-head");
  const actions = document.querySelector(".side .actions");

  // present turns presentation mode on or off, here and in the canvas. The
  // button that leaves it goes into the strip of controls, the only part
  // of the page besides the canvas on screen then.
  function present(on) {
    presenting = on;
    document.body.classList.toggle("present", on);
    presentButton.setAttribute("aria-pressed", String(on));
    presentButton.textContent = on ? "Leave presentation (P, Esc)" : "Present (P)";
    if (on) actions.append(presentButton);
    else stageHead.append(presentButton);
    fitStrip();
    fitFrame();
    const set = frame.contentWindow && frame.contentWindow.fp8labSetPresentation;
    if (typeof set === "function") set(on);
    if (api) update(api.currentScene());
  }

  // fitStrip gives the canvas of presentation mode the window's height less
  // the strip's (--strip-h), measured whenever the strip changes height.
  function fitStrip() {
    const h = presenting ? Math.ceil(side.getBoundingClientRect().height) : 0;
    document.documentElement.style.setProperty("--strip-h", h + "px");
  }
  new ResizeObserver(fitStrip).observe(side);
  presentButton.addEventListener("click", () => present(!presenting));
  if (presenting) present(true);
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target.closest && ev.target.closest("input, select, textarea, [contenteditable]")) return;
    if (ev.key === "p" || ev.key === "P") {
      ev.preventDefault();
      present(!presenting);
    } else if (ev.key === "Escape" && presenting) {
      present(false);
    }
  });

  for (const a of document.querySelectorAll(".site-nav a")) {
    if (a.getAttribute("href") === "scene.html?name=" + name) a.setAttribute("aria-current", "page");
  }

  const id = (param) => "p-" + param;

  // errors holds, for each control showing an error, the scene's value of
  // its parameter when the error was shown. An error goes when that value
  // changes by any route (another control, a click in the canvas, Reset, a
  // file) or when the page replaces the refused text by the scene's value:
  // no error stays beside a value that is valid.
  const errors = new Map();

  function clearError(param) {
    errors.delete(param);
    const err = document.getElementById(id(param) + "-error");
    if (err) err.textContent = "";
    for (const input of form.querySelectorAll("[data-param='" + param + "']")) input.removeAttribute("aria-invalid");
  }

  // showError shows why a value was refused beside its control and scrolls
  // the control into view (an upload error on a phone is far below the
  // canvas). It returns false when the scene has no such control.
  function showError(param, err) {
    const box = document.getElementById(id(param) + "-error");
    const msg = ((err && err.message) || String(err)).replace(/^fp8lab\.\w+: /, "").replace(/^viz: bad parameter: /, "");
    if (!box) return false;
    box.textContent = msg;
    errors.set(param, api ? valueOf(api.currentScene(), param) : undefined);
    for (const input of form.querySelectorAll("[data-param='" + param + "']")) input.setAttribute("aria-invalid", "true");
    const control = box.closest(".control");
    if (control && control.scrollIntoView) control.scrollIntoView({ block: "nearest" });
    return true;
  }

  // problems holds the controls showing a problem: a value that a change of
  // another control left unusable (a typed -3 after the format became the
  // unsigned E8M0). The scene says which (sceneInfo's problems); a problem
  // stands beside its own control and goes as soon as the scene no longer
  // reports it, whichever control fixed it.
  const problems = new Set();

  function showProblem(param, msg) {
    if (!msg) {
      if (problems.delete(param) && !errors.has(param)) clearError(param);
      return;
    }
    if (errors.has(param)) return; // the refusal of a value just typed says more
    const box = document.getElementById(id(param) + "-error");
    if (!box) return;
    problems.add(param);
    box.textContent = msg;
    for (const input of form.querySelectorAll("[data-param='" + param + "']")) input.setAttribute("aria-invalid", "true");
  }

  // valueOf returns a parameter's value in a sceneInfo.
  function valueOf(info, param) {
    const p = info.params.find((q) => q.name === param);
    return p ? p.value : undefined;
  }

  // set sends one parameter to the scene and refreshes the page from the
  // scene's answer; a refused value is shown next to its control, and the
  // control goes back to the scene's value unless it is a text box (whose
  // text the user may want to correct).
  function set(param, value) {
    try {
      const info = api.setParam(param, value);
      clearError(param);
      update(info);
      return null;
    } catch (err) {
      showError(param, err);
      const info = api.currentScene();
      for (const input of form.querySelectorAll("select[data-param='" + param + "'], input[type=checkbox][data-param='" + param + "'], input[type=range][data-param='" + param + "']")) {
        if (input.type === "checkbox") input.checked = valueOf(info, param) === "true";
        else input.value = valueOf(info, param);
      }
      if (value === "loaded" && info.tensorInput) wantFile();
      return err;
    }
  }

  // wantFile points at the file picker when a tensor option needs a file
  // that has not been loaded yet: the Tensor control says why it cannot
  // show "loaded", and the picker is scrolled into view and focused.
  function wantFile() {
    const file = document.getElementById(id("file"));
    if (!file) return;
    file.closest(".control").scrollIntoView({ block: "nearest" });
    file.focus();
  }

  // loadFile reads the chosen file and hands its bytes to the scene. Only
  // the latest choice is shown (a slow read of an earlier file does not
  // replace it). The picker is emptied when clicked (see build), so that
  // choosing the same file again (after editing it) fires a change and
  // loads it again.
  let uploads = 0;
  async function loadFile(param, input) {
    const f = input.files && input.files[0];
    if (!f) return;
    const mine = ++uploads;
    const shown = document.getElementById(id(param) + "-shown");
    try {
      const bytes = new Uint8Array(await f.arrayBuffer());
      if (mine !== uploads) return;
      const info = api.loadTensor(bytes, f.name);
      clearError(param);
      if (shown) {
        // The file's count, and the scene's when it shows part of it.
        const n = info.loaded.values, used = Number(info.facts.elements);
        let what = " (" + P.count(n) + " values";
        if (Number.isInteger(used) && used !== n) what += "; the scene shows " + P.count(used);
        shown.textContent = "loaded " + f.name + what + ")";
      }
      update(info);
    } catch (err) {
      if (mine === uploads) showError(param, err);
    }
  }

  // build makes one control per parameter.
  function build(info) {
    form.textContent = "";
    for (const p of info.params) {
      const help = p.help ? P.el("span", { class: "help", id: id(p.name) + "-help", text: p.help }) : null;
      const error = P.el("span", { class: "error", id: id(p.name) + "-error", "aria-live": "polite" });
      const described = (help ? id(p.name) + "-help " : "") + id(p.name) + "-error";
      const label = P.el("label", { for: id(p.name), text: p.label || p.name });
      let body;
      switch (p.kind) {
        case "choice": {
          const sel = P.el("select", { id: id(p.name), "data-param": p.name, "aria-describedby": described });
          for (const o of p.options || []) sel.append(P.el("option", { value: o, text: o }));
          sel.addEventListener("change", () => set(p.name, sel.value));
          body = sel;
          break;
        }
        case "number":
        case "int": {
          const step = p.step > 0 ? p.step : (p.kind === "int" ? 1 : "any");
          const range = P.el("input", { type: "range", id: id(p.name), "data-param": p.name, min: p.min, max: p.max, step: step,
            "aria-describedby": described });
          const num = P.el("input", { type: "number", id: id(p.name) + "-num", "data-param": p.name, min: p.min, max: p.max, step: step,
            "aria-label": (p.label || p.name) + " (exact value)", "aria-describedby": described });
          let pending = null;
          // While dragging, send at most one value per frame; on release
          // (or a key press, which also fires change) send it at once.
          range.addEventListener("input", () => {
            num.value = range.value;
            if (pending === null) {
              pending = requestAnimationFrame(() => { pending = null; set(p.name, range.value); });
            }
          });
          range.addEventListener("change", () => {
            if (pending !== null) {
              cancelAnimationFrame(pending);
              pending = null;
            }
            set(p.name, range.value);
          });
          num.addEventListener("change", () => { range.value = num.value; set(p.name, num.value); });
          body = P.el("div", { class: "pair" }, range, num);
          break;
        }
        case "bool": {
          const box = P.el("input", { type: "checkbox", id: id(p.name), "data-param": p.name, "aria-describedby": described });
          box.addEventListener("change", () => set(p.name, box.checked ? "true" : "false"));
          form.append(P.el("div", { class: "control bool" }, P.el("label", { for: id(p.name) }, box, p.label || p.name), help, error));
          continue;
        }
        default: {
          const text = P.el("input", { type: "text", id: id(p.name), "data-param": p.name, "aria-describedby": described,
            placeholder: p.default ? "" : "type and press Enter", spellcheck: "false", autocomplete: "off" });
          text.addEventListener("change", () => set(p.name, text.value));
          body = text;
        }
      }
      form.append(P.el("div", { class: "control" }, label, body, help, error));
    }
    if (info.tensorInput) {
      // The scene can show a tensor from a file. Scenes take no paths (a
      // browser cannot open one anyway): pick a file, and its bytes go to
      // the scene through loadTensor.
      const help = P.el("span", { class: "help", id: id("file") + "-help",
        text: "a tensor from your computer (.npy, .npz, .safetensors or CSV); it stays in this browser" });
      const error = P.el("span", { class: "error", id: id("file") + "-error", "aria-live": "polite" });
      const shown = P.el("span", { class: "help shown", id: id("file") + "-shown", "aria-live": "polite" });
      const file = P.el("input", { type: "file", id: id("file"), "data-param": "file", accept: ".npy,.csv,.txt,.safetensors,.npz",
        "aria-describedby": id("file") + "-help " + id("file") + "-shown " + id("file") + "-error" });
      file.addEventListener("click", () => { file.value = ""; });
      file.addEventListener("change", () => loadFile("file", file));
      form.append(P.el("div", { class: "control file" }, P.el("label", { for: id("file"), text: "Load a tensor file" }), file, shown, help, error));
    }
  }

  // update shows the scene's state: control values (except a text box
  // being edited, or holding a refused text while the scene's value has not
  // moved since the refusal: the text and its error stay for the user to
  // correct), facts, explanation, and the URL.
  function update(info) {
    for (const p of info.params) {
      // Help may name the current value (the explorer's code).
      const help = document.getElementById(id(p.name) + "-help");
      if (help && p.help && help.textContent !== p.help) help.textContent = p.help;
      const refused = errors.has(p.name) && errors.get(p.name) === p.value;
      let replaced = false;
      for (const input of form.querySelectorAll("[data-param='" + p.name + "']")) {
        if (input.type === "file") continue;
        if (input.type === "checkbox") input.checked = p.value === "true";
        else if (!(input.type === "text" && (document.activeElement === input || refused))) {
          replaced = replaced || (input.tagName === "INPUT" && input.value !== p.value);
          input.value = p.value;
        }
      }
      if (errors.has(p.name) && (errors.get(p.name) !== p.value || replaced)) clearError(p.name);
      showProblem(p.name, (info.problems || {})[p.name]);
    }
    document.getElementById("scene-title").textContent = info.title;
    document.title = info.title + " · fp8lab";
    const facts = document.getElementById("facts");
    facts.textContent = "";
    const keys = Object.keys(info.facts).filter(shown).sort();
    for (const k of keys) {
      const v = info.facts[k];
      facts.append(P.el("dt", { text: k.replace(/_/g, " ") }),
        P.el("dd", { "data-fact": k, "data-value": v, title: v, text: FP8Explain.readable(v) }));
    }
    document.getElementById("facts-count").textContent = String(keys.length);
    if (!opened) {
      document.getElementById("facts-box").open = keys.length <= 14;
      opened = true;
    }
    const box = document.getElementById("explanation");
    box.textContent = "";
    for (const para of info.explanation || []) box.append(P.el("p", { text: para }));
    showTakeaway((info.explanation || [])[0] || "");
    // The address reopens what is on screen: a value the scene is moving by
    // itself (movedBy, dither's growing N) is left out, so that the link
    // opens it moving rather than stopped where it was copied.
    const q = new URLSearchParams({ name: info.name });
    for (const p of info.params) {
      if (p.movedBy && valueOf(info, p.movedBy) === "true") continue;
      if (p.value !== defaults[p.name]) q.set(p.name, p.value);
    }
    if (presenting) q.set("present", "1");
    if (scanned !== null) {
      q.set("from", "scan");
      q.set("scanned", scanned);
    }
    keepURL("?" + q.toString());
  }

  let opened = false;

  // showTakeaway puts the explanation's first paragraph above the canvas.
  // Its box is two lines high (three on a phone); a longer paragraph ends
  // in an ellipsis, and the link to the whole text shows.
  const takeaway = document.getElementById("takeaway");
  const more = document.getElementById("takeaway-more");
  function showTakeaway(text) {
    if (takeaway.textContent !== text) takeaway.textContent = text;
    more.hidden = !(takeaway.scrollHeight > takeaway.clientHeight + 1);
  }
  new ResizeObserver(() => showTakeaway(takeaway.textContent)).observe(takeaway);

  // shown leaves out the facts that are screen positions (keys ending in
  // _x or _y), which tests use and readers do not need.
  function shown(key) {
    return !/_[xy]$/.test(key);
  }

  // keepURL puts the view in the address bar at most once a second (an
  // animated scene changes a parameter at every step).
  let urlTimer = null;
  let nextURL = null;
  function keepURL(search) {
    nextURL = search;
    if (urlTimer !== null) return;
    urlTimer = setTimeout(() => {
      urlTimer = null;
      if (nextURL !== location.search) history.replaceState(null, "", nextURL);
    }, 1000);
  }

  // refresh reads the scene again, at most every 200 ms.
  let refreshTimer = null;
  function refresh() {
    if (!api || refreshTimer !== null) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      update(api.currentScene());
    }, 200);
  }

  // applyLink sets every parameter the URL names (a shared view or a
  // workshop link), in the scene's order of parameters, then again those
  // refused, as long as that helps: a value may be valid only after another
  // parameter is set (an MX granularity after an MX format). It returns
  // what still fails, for linkErrors.
  function applyLink(info) {
    const order = info.params.map((p) => p.name);
    let pending = [...query].filter(([k]) => !["name", "present", "from", "scanned"].includes(k));
    pending.sort((a, b) => rank(order, a[0]) - rank(order, b[0]));
    let failed = [];
    for (;;) {
      failed = [];
      for (const [k, v] of pending) {
        let err = null;
        try {
          api.setParam(k, v);
        } catch (e) {
          err = e;
        }
        if (err) failed.push([k, v, err]);
      }
      if (failed.length === 0 || failed.length === pending.length) break;
      pending = failed.map(([k, v]) => [k, v]);
    }
    return failed;
  }

  // linkErrors shows the link's refused values beside their controls (the
  // controls hold the scene's values), those of parameters the scene does
  // not have in the status line, and reports all on the console: a wrong
  // link in a worksheet is found by the first student who opens it.
  function linkErrors(failed) {
    const unknown = [];
    for (const [k, v, err] of failed) {
      const msg = err.message.replace(/^fp8lab\.\w+: /, "").replace(/^viz: bad parameter: /, "");
      console.error("fp8lab link: " + k + "=" + v + " was not applied: " + msg);
      if (!showError(k, new Error("the link's " + k + "=" + v + " was not applied: " + msg))) unknown.push(k + "=" + v + " (" + msg + ")");
    }
    status.textContent = unknown.length ? "This link asks for what the scene does not have: " + unknown.join("; ") : "";
  }

  // rank orders parameters as the scene lists them, unknown ones last.
  function rank(order, k) {
    const i = order.indexOf(k);
    return i < 0 ? order.length : i;
  }

  // scanned names the tensor the Scan page handed over
  // (scene.html?name=window&from=scan&scanned=NAME), kept in the URL.
  const scanned = query.get("from") === "scan" ? query.get("scanned") : null;

  // loadScanned shows the tensor the Scan page stored (FP8Page.putHandoff)
  // and returns its record; the error, when it is gone or is another
  // tensor, goes next to the file picker.
  async function loadScanned() {
    try {
      const rec = await P.getHandoff();
      if (!rec || rec.tensor !== scanned) {
        throw new Error("the tensor " + scanned + " from the Scan page is no longer here: scan the file again and click it");
      }
      update(api.loadTensor(rec.bytes, rec.tensor));
      clearError("file");
      return rec;
    } catch (err) {
      if (document.getElementById(id("file") + "-error")) showError("file", err);
      else P.fail("showing the tensor from the Scan page", err);
      return null;
    }
  }

  async function start() {
    let ready;
    try {
      ready = frame.contentWindow.fp8labReady;
      if (!ready) throw new Error("the canvas page did not start the playground");
      api = await ready;
    } catch (err) {
      P.fail("starting the playground", err);
      return;
    }
    try {
      const info = api.currentScene();
      defaults = {};
      for (const p of info.params) defaults[p.name] = p.default;
      build(info);
      if (presenting) present(true);
      const fromScan = scanned !== null && await loadScanned();
      const failed = applyLink(info);
      update(api.currentScene());
      if (nextURL !== null) history.replaceState(null, "", nextURL);
      linkErrors(failed);
      if (fromScan && !status.textContent) status.textContent = "Showing " + fromScan.tensor + " of " + fromScan.file + ", from the Scan page.";
      document.body.dataset.readyMs = String(performance.now());
      document.body.dataset.ready = "1";
    } catch (err) {
      P.fail("building the controls", err);
    }
  }

  let canvasPresent = null; // the mode the canvas reported last
  window.addEventListener("message", (ev) => {
    if (ev.source !== frame.contentWindow || !ev.data) return;
    if (ev.data.fp8lab === "loading") {
      // The size of the download, from the canvas page (FP8Lab.loadingText).
      if (!api && !status.classList.contains("alert")) status.textContent = "Loading the playground (" + String(ev.data.text) + ")…";
      return;
    }
    if (ev.data.fp8lab !== "change") return;
    // The canvas reports its mode with every change. Only a report that
    // differs from its previous one is the key P pressed in the canvas:
    // reports still queued from before the page set the mode are not.
    if (typeof ev.data.present === "boolean") {
      const toggled = canvasPresent !== null && ev.data.present !== canvasPresent;
      canvasPresent = ev.data.present;
      if (toggled && ev.data.present !== presenting) present(ev.data.present);
    }
    refresh();
  });
  // Reset sets every parameter back to its default, in the scene's order.
  document.getElementById("reset").addEventListener("click", () => {
    if (!api) return;
    for (const p of api.currentScene().params) {
      clearError(p.name);
      try {
        api.setParam(p.name, p.default);
      } catch (err) {
        showError(p.name, err);
      }
    }
    refresh();
  });
  // The canvas and the controls beside it end just above the foot of the
  // window (see --frame-top in style.css), measured again whenever what lies above it changes height
  // (the header wrapping) and on resize. The status line right above it
  // does not count: while it shows (loading, a message) the canvas moves
  // down by its height rather than change size, so that the scene is not
  // drawn again when the loading line goes.
  function fitFrame() {
    // Where the canvas starts with the status line hidden: the top of the
    // line's margin box.
    const top = scrollY + (status.offsetHeight > 0 ?
      status.getBoundingClientRect().top - parseFloat(getComputedStyle(status).marginTop) :
      frame.getBoundingClientRect().top);
    document.documentElement.style.setProperty("--frame-top", Math.ceil(top) + "px");
    if (!presenting) document.documentElement.style.setProperty("--side-top", Math.ceil(side.getBoundingClientRect().top + scrollY) + "px");
  }
  const above = new ResizeObserver(fitFrame);
  for (const el of [document.querySelector(".site-header"), stageHead, document.querySelector(".takeaway-row")]) {
    if (el) above.observe(el);
  }
  window.addEventListener("resize", fitFrame);
  fitFrame();
  frame.addEventListener("load", start, { once: true });
  // The link's values go to the canvas too, which sets them before its
  // first frame: an animation the link stops takes no step first.
  const link = [...query].filter(([k]) => !["name", "present", "from", "scanned"].includes(k)).map(([k, v]) => "&" + encodeURIComponent(k + "=" + v));
  frame.src = "canvas.html#" + encodeURIComponent(name) + link.join("");
})();
