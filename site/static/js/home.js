// home.js: the home page. Its numbers, format table and scene pictures are
// written into the page when it is generated (site/home.go); this script
// labels the table's cells for the phone's card layout and runs the "Try
// it" boxes, whose core module (fp8core.wasm) it loads only when they come
// into view or are used, so that reading the page downloads no
// WebAssembly. <body> gets data-ready="1" once the page is wired and its
// pictures are in, and data-core="1" once the boxes run (the browser tests
// wait for them).
"use strict";

(function () {
  const P = FP8Page;

  // labelCells gives each cell of the formats table its column's heading,
  // shown beside the value where a phone lays the table out as one card
  // per format (style.css).
  function labelCells() {
    const heads = Array.from(document.querySelectorAll("#formats-table thead th"), (th) => th.textContent);
    for (const tr of document.querySelectorAll("#formats-table tbody tr")) {
      Array.from(tr.cells).forEach((c, i) => { c.dataset.label = heads[i]; });
    }
  }

  function fillSelect(select, api, preferred) {
    for (const f of api.formats()) {
      select.append(P.el("option", { value: f.name, text: f.name, selected: f.name === preferred }));
    }
  }

  // approx shows an error to 4 significant digits (the exact value is in
  // the library's explain; these are for reading).
  function approx(x) {
    if (x === 0 || !Number.isFinite(x)) return P.fmt(x);
    return "≈ " + P.fmt(Number(x.toPrecision(4)));
  }

  // codeLine renders a code's line: hex, bits, value, class.
  function codeLine(ci) {
    return P.hex(ci.code) + " = " + ci.bits + " (" + ci.class + ")";
  }

  // wireTryIt wires one "try it" box: show(format, text) returns the nodes
  // to display for the input, or throws; the error is shown instead.
  function wireTryIt(api, ids, show) {
    const form = document.getElementById(ids.form);
    const format = document.getElementById(ids.format);
    const input = document.getElementById(ids.input);
    const out = document.getElementById(ids.out);
    fillSelect(format, api, "E4M3FN");
    const run = () => {
      out.textContent = "";
      try {
        const nodes = show(format.value, input.value);
        input.removeAttribute("aria-invalid");
        out.append(...nodes);
      } catch (err) {
        input.setAttribute("aria-invalid", "true");
        out.append(P.el("span", { class: "alert", text: err.message.replace(/^fp8lab\.\w+: /, "") }));
      }
    };
    form.addEventListener("submit", (ev) => { ev.preventDefault(); run(); });
    format.addEventListener("change", run);
    run();
  }

  function wireEncode(api) {
    wireTryIt(api, { form: "encode-form", format: "enc-format", input: "enc-value", out: "enc-out" }, (format, text) => {
      const e = api.explain(format, P.parseNumber(text));
      return [P.el("span", { class: "big", text: P.fmt(e.result.value) }), " ",
        P.el("span", { class: "mono", text: codeLine(e.result) }), P.el("br"),
        "between " + P.fmt(e.lower) + " and " + P.fmt(e.upper) + "; error " + approx(e.abs_error) +
        (Number.isFinite(e.rel_error) && e.abs_error !== 0 ? " (" + approx(e.rel_error * 100) + "%)" : "") +
        (e.overflow ? "; overflow: saturated to the maximum" : "") +
        (e.underflow ? "; underflow: flushed to zero" : "")];
    });
  }

  function wireDecode(api) {
    wireTryIt(api, { form: "decode-form", format: "dec-format", input: "dec-code", out: "dec-out" }, (format, text) => {
      const ci = api.describe(format, P.parseCode(text));
      return [P.el("span", { class: "big", id: "dec-value", text: P.fmt(ci.value) }), " ",
        P.el("span", { class: "mono", text: codeLine(ci) }), P.el("br"),
        Number.isFinite(ci.value) ? "values around it are " + P.fmt(ci.ulp) + " apart" : "a special code, not a number"];
    });
  }

  // tryIt loads the core module once and wires the boxes to it.
  let loading = null;
  function tryIt() {
    if (loading) return loading;
    const status = document.getElementById("status");
    status.textContent = "Loading the library (fp8core.wasm)…";
    loading = P.loadCore((text) => { status.textContent = "Loading the library (" + text + ")…"; }).then((api) => {
      wireEncode(api);
      wireDecode(api);
      status.textContent = "";
      document.body.dataset.coreMs = String(performance.now());
      document.body.dataset.core = "1";
    }, (err) => P.fail("loading the library", err));
    return loading;
  }

  function main() {
    labelCells();
    const section = document.getElementById("tryit-section");
    // Forms submitted before the module is in wait for it (their
    // handlers are added once it is).
    for (const f of section.querySelectorAll("form")) {
      f.addEventListener("submit", (ev) => { if (!document.body.dataset.core) { ev.preventDefault(); tryIt(); } });
    }
    section.addEventListener("focusin", tryIt);
    section.addEventListener("pointerdown", tryIt);
    new IntersectionObserver((entries, obs) => {
      if (entries.some((e) => e.isIntersecting)) {
        obs.disconnect();
        tryIt();
      }
    }, { rootMargin: "200px" }).observe(section);
    document.body.dataset.interactiveMs = String(performance.now());
    const pictures = Array.from(document.querySelectorAll(".scene-card img"), (img) => img.decode().catch(() => {
      console.error("fp8lab: the picture " + img.getAttribute("src") + " did not load");
    }));
    Promise.all(pictures).then(() => {
      document.body.dataset.readyMs = String(performance.now());
      document.body.dataset.ready = "1";
    });
  }

  main();
})();
