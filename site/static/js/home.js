// home.js: fills the home page's numbers, format table, "try it" boxes and
// scene thumbnails from the core module. When everything is in place it
// sets data-ready="1" on <body> (the browser tests wait for it).
"use strict";

(function () {
  const P = FP8Page;

  // fillFacts writes each data-fact="FORMAT.field" span from api.info.
  function fillFacts(api) {
    const infos = {};
    for (const span of document.querySelectorAll("[data-fact]")) {
      const [format, field] = span.dataset.fact.split(".");
      const info = infos[format] || (infos[format] = api.info(format));
      let text;
      switch (field) {
        case "codes":
          text = String(Math.pow(2, info.bits));
          break;
        case "binades":
          text = String(Math.round(info.binades * 10) / 10);
          break;
        case "min_subnormal":
        case "min_normal":
        case "eps":
          text = P.fmtPow2(info[field]);
          break;
        default:
          text = typeof info[field] === "number" ? P.fmt(info[field]) : String(info[field]);
      }
      span.textContent = text;
      span.classList.remove("pending");
    }
  }

  function fillTable(api) {
    const body = document.querySelector("#formats-table tbody");
    body.textContent = "";
    for (const f of api.formats()) {
      const cell = (x) => P.el("td", { text: P.fmtPow2(x, true), title: P.fmt(x) });
      body.append(P.el("tr", {},
        P.el("th", { scope: "row", text: f.name }),
        P.el("td", { text: (f.signed ? "1+" : "") + f.exponent_bits + "+" + f.mantissa_bits }),
        P.el("td", { text: String(f.bias) }),
        cell(f.max),
        cell(f.min_normal),
        f.min_subnormal > 0 ? cell(f.min_subnormal) : P.el("td", { text: "—" }),
        P.el("td", { text: String(f.positive_finite) }),
        P.el("td", { text: f.inf_count > 0 ? "yes" : "no" }),
        P.el("td", { class: "mono", text: P.codeRanges(f.nan_codes || []) || "—" })));
    }
    // Each cell carries its column's heading, shown beside the value where
    // a phone lays the table out as one card per format (style.css).
    const heads = Array.from(document.querySelectorAll("#formats-table thead th"), (th) => th.textContent);
    for (const tr of body.rows) {
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

  // describeCode renders a code's line: hex, bits, value, class.
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

  // thumbnails draws each scene at its card's canvas size, one per frame so
  // that the page stays responsive; titles come from the scenes themselves.
  function thumbnails(api) {
    const known = new Map(api.scenes().map((s) => [s.name, s.title]));
    const cards = Array.from(document.querySelectorAll(".scene-card"));
    return new Promise((resolve) => {
      let i = 0;
      const next = () => {
        if (i >= cards.length) {
          resolve();
          return;
        }
        const card = cards[i++];
        const name = card.dataset.scene;
        if (known.has(name)) {
          card.querySelector("strong").textContent = known.get(name);
          const canvas = card.querySelector("canvas");
          try {
            const px = api.renderScene(name, canvas.width, canvas.height);
            canvas.getContext("2d").putImageData(new ImageData(px, canvas.width, canvas.height), 0, 0);
          } catch (err) {
            console.error("fp8lab: thumbnail of " + name + ":", err.message);
          }
        }
        requestAnimationFrame(next);
      };
      next();
    });
  }

  async function main() {
    let api;
    try {
      api = await P.loadCore();
    } catch (err) {
      P.fail("loading the library", err);
      return;
    }
    try {
      fillFacts(api);
      fillTable(api);
      wireEncode(api);
      wireDecode(api);
      document.getElementById("status").textContent = "";
      document.body.dataset.interactiveMs = String(performance.now());
      await thumbnails(api);
      document.body.dataset.readyMs = String(performance.now());
      document.body.dataset.ready = "1";
    } catch (err) {
      P.fail("filling the page", err);
    }
  }

  main();
})();
