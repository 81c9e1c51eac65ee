// scene.js: one scene page (scene.html?name=explorer&code=126). The scene
// runs in the framed canvas.html; this page builds HTML controls from the
// scene's parameters, sends their changes to it through the playground's
// API (setParam), and shows the explanation with the numbers the scene
// reports (its facts). Parameters other than the defaults are kept in the
// URL, so a view can be bookmarked or shared. When the scene is on screen
// and the controls are built, <body> gets data-ready="1".
//
// Presentation mode (the key P, the Present button or ?present=1): the
// canvas fills the window, the controls are collapsed and the scene draws
// larger type; P or Esc leaves it. The key P inside the canvas toggles it
// too (the canvas reports it with its change message).
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

  // present turns presentation mode on or off, here and in the canvas.
  function present(on) {
    presenting = on;
    document.body.classList.toggle("present", on);
    presentButton.setAttribute("aria-pressed", String(on));
    presentButton.textContent = on ? "Leave presentation (P)" : "Present (P)";
    const set = frame.contentWindow && frame.contentWindow.fp8labSetPresentation;
    if (typeof set === "function") set(on);
    if (api) update(api.currentScene());
  }
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

  function clearError(param) {
    const err = document.getElementById(id(param) + "-error");
    if (err) err.textContent = "";
    for (const input of form.querySelectorAll("[data-param='" + param + "']")) input.removeAttribute("aria-invalid");
  }

  function showError(param, err) {
    const box = document.getElementById(id(param) + "-error");
    const msg = err.message.replace(/^fp8lab\.\w+: /, "").replace(/^viz: bad parameter: /, "");
    if (box) box.textContent = msg;
    for (const input of form.querySelectorAll("[data-param='" + param + "']")) input.setAttribute("aria-invalid", "true");
  }

  // set sends one parameter to the scene and refreshes the page from the
  // scene's answer; a refused value is shown next to its control.
  function set(param, value) {
    try {
      const info = api.setParam(param, value);
      clearError(param);
      update(info);
    } catch (err) {
      showError(param, err);
    }
  }

  // loadFile reads the chosen file and hands its bytes to the scene.
  async function loadFile(param, input) {
    const f = input.files && input.files[0];
    if (!f) return;
    try {
      const bytes = new Uint8Array(await f.arrayBuffer());
      const info = api.loadTensor(bytes, f.name);
      clearError(param);
      update(info);
    } catch (err) {
      showError(param, err);
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
        text: "a .npy (float32 or float64, 1-D or 2-D) or CSV tensor from your computer; it stays in this browser" });
      const error = P.el("span", { class: "error", id: id("file") + "-error", "aria-live": "polite" });
      const file = P.el("input", { type: "file", id: id("file"), "data-param": "file", accept: ".npy,.csv,.txt",
        "aria-describedby": id("file") + "-help " + id("file") + "-error" });
      file.addEventListener("change", () => loadFile("file", file));
      form.append(P.el("div", { class: "control" }, P.el("label", { for: id("file"), text: "Load a tensor file" }), file, help, error));
    }
  }

  // update shows the scene's state: control values (except a text box
  // being edited), facts, explanation, and the URL.
  function update(info) {
    for (const p of info.params) {
      // Help may name the current value (the explorer's code).
      const help = document.getElementById(id(p.name) + "-help");
      if (help && p.help && help.textContent !== p.help) help.textContent = p.help;
      for (const input of form.querySelectorAll("[data-param='" + p.name + "']")) {
        if (input.type === "file") continue;
        if (input.type === "checkbox") input.checked = p.value === "true";
        else if (!(input.type === "text" && document.activeElement === input)) input.value = p.value;
      }
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
    const q = new URLSearchParams({ name: info.name });
    for (const p of info.params) {
      if (p.value !== defaults[p.name]) q.set(p.name, p.value);
    }
    if (presenting) q.set("present", "1");
    keepURL("?" + q.toString());
  }

  let opened = false;

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
      for (const [k, v] of query) {
        if (k === "name" || k === "file" || k === "present") continue;
        set(k, v);
      }
      update(api.currentScene());
      if (nextURL !== null) history.replaceState(null, "", nextURL);
      status.textContent = "";
      document.body.dataset.readyMs = String(performance.now());
      document.body.dataset.ready = "1";
    } catch (err) {
      P.fail("building the controls", err);
    }
  }

  window.addEventListener("message", (ev) => {
    if (ev.source !== frame.contentWindow || !ev.data || ev.data.fp8lab !== "change") return;
    if (typeof ev.data.present === "boolean" && ev.data.present !== presenting) present(ev.data.present);
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
  frame.addEventListener("load", start, { once: true });
  frame.src = "canvas.html#" + encodeURIComponent(name);
})();
