// common.js: helpers shared by the pages (formatting numbers the way the
// CLI prints them, loading the core module, reporting errors on the page).
"use strict";

(function () {
  // fmt prints a number exactly as Go's strconv.FormatFloat(x, 'g', -1, 64)
  // does (and so the CLI): the shortest digits that read back exactly, in
  // exponent form when the exponent is below -4 or at least 6: 448, 57344,
  // 0.001953125, 1.52587890625e-05, 1e+06.
  function fmt(x) {
    if (Number.isNaN(x)) return "NaN";
    if (x === Infinity) return "+Inf";
    if (x === -Infinity) return "-Inf";
    if (x === 0) return Object.is(x, -0) ? "-0" : "0";
    const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(x.toExponential());
    const sign = m[1], digits = m[2] + (m[3] || ""), exp = parseInt(m[4], 10);
    if (exp < -4 || exp >= 6) {
      const mant = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
      const e = Math.abs(exp) < 10 ? "0" + Math.abs(exp) : String(Math.abs(exp));
      return sign + mant + "e" + (exp < 0 ? "-" : "+") + e;
    }
    if (exp < 0) return sign + "0." + "0".repeat(-exp - 1) + digits;
    if (digits.length <= exp + 1) return sign + digits + "0".repeat(exp + 1 - digits.length);
    return sign + digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
  }

  // count prints a whole number in full, however large: 1048576 values,
  // never 1.048576e+06 (which fmt writes, as Go's %g does).
  function count(n) {
    if (!Number.isFinite(n)) return fmt(n);
    return Number.isSafeInteger(n) ? String(n) : BigInt(Math.trunc(n)).toString();
  }

  // pow2 returns k when x is exactly 2^k, else null.
  function pow2(x) {
    if (!(x > 0) || !Number.isFinite(x)) return null;
    const k = Math.round(Math.log2(x));
    return Math.pow(2, k) === x ? k : null;
  }

  const SUP = { "-": "\u207b", 0: "\u2070", 1: "\u00b9", 2: "\u00b2", 3: "\u00b3", 4: "\u2074",
    5: "\u2075", 6: "\u2076", 7: "\u2077", 8: "\u2078", 9: "\u2079" };

  // power writes 2^k with superscript digits: 2⁻⁹.
  function power(k) {
    return "2" + String(k).split("").map((c) => SUP[c]).join("");
  }

  // fmtPow2 prints small and huge powers of two as 2^k, followed by the
  // decimal value unless compact: "2⁻⁹ (0.001953125)".
  function fmtPow2(x, compact) {
    const k = pow2(x);
    if (k !== null && (k < -3 || k > 20)) {
      return compact ? power(k) : power(k) + " (" + fmt(x) + ")";
    }
    return fmt(x);
  }

  // codeRanges lists codes compactly: "0x7F 0xFF", "0x79–0x7F 0xF9–0xFF".
  function codeRanges(codes) {
    const out = [];
    for (let i = 0; i < codes.length; ) {
      let j = i;
      while (j + 1 < codes.length && codes[j + 1] === codes[j] + 1) j++;
      out.push(j > i ? hex(codes[i]) + "\u2013" + hex(codes[j]) : hex(codes[i]));
      i = j + 1;
    }
    return out.join(" ");
  }

  function hex(c) {
    return "0x" + c.toString(16).toUpperCase().padStart(2, "0");
  }

  // parseCode reads 0x7E, 126 or 0b01111110.
  function parseCode(s) {
    const t = String(s).trim().toLowerCase();
    let v = NaN;
    if (/^0x[0-9a-f]+$/.test(t)) v = parseInt(t.slice(2), 16);
    else if (/^0b[01]+$/.test(t)) v = parseInt(t.slice(2), 2);
    else if (/^[0-9]+$/.test(t)) v = parseInt(t, 10);
    if (!(v >= 0 && v <= 255)) {
      throw new Error("a code is 0..255, 0x00..0xFF or 0b…, not “" + s + "”");
    }
    return v;
  }

  // parseNumber reads a decimal or 0x hex float, or inf, -inf, nan.
  function parseNumber(s) {
    const t = String(s).trim().toLowerCase();
    if (t === "nan") return NaN;
    if (t === "inf" || t === "+inf" || t === "infinity") return Infinity;
    if (t === "-inf" || t === "-infinity") return -Infinity;
    if (t === "" || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) {
      throw new Error("“" + s + "” is not a number");
    }
    return Number(t);
  }

  // loadCore loads the core module (no ebiten) once per page; onText, if
  // given, learns its name and download size once the server says it.
  let core = null;
  function loadCore(onText) {
    if (!core) {
      core = FP8Lab.load("fp8core.wasm", {
        onSize: (bytes) => { if (onText) onText(FP8Lab.loadingText("fp8core.wasm", bytes)); },
      });
    }
    return core;
  }

  // fail shows an error in the page's status line and the console.
  function fail(where, err) {
    const status = document.getElementById("status");
    const msg = (err && err.message) || String(err);
    if (status) {
      status.textContent = where + ": " + msg;
      status.className = "alert";
    }
    console.error("fp8lab " + where + ":", msg);
  }

  // el creates an element with attributes and children.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children) {
      if (c !== null && c !== undefined) e.append(c);
    }
    return e;
  }

  // The Scan page hands one tensor to a scene page through IndexedDB: one
  // record {tensor, file, bytes} (bytes: the tensor as a float32 .npy
  // file), replaced by the next. The scene page finds it from its URL
  // (scene.html?name=window&from=scan&scanned=NAME).
  function handoffDB() {
    return new Promise((resolve, reject) => {
      const req = indexedDB.open("fp8lab", 1);
      req.addEventListener("upgradeneeded", () => req.result.createObjectStore("handoff"));
      req.addEventListener("success", () => resolve(req.result));
      req.addEventListener("error", () => reject(req.error));
    });
  }

  async function handoff(mode, record) {
    const db = await handoffDB();
    try {
      return await new Promise((resolve, reject) => {
        const tx = db.transaction("handoff", mode);
        const store = tx.objectStore("handoff");
        const req = record ? store.put(record, "tensor") : store.get("tensor");
        tx.addEventListener("complete", () => resolve(req.result));
        tx.addEventListener("error", () => reject(tx.error));
      });
    } finally {
      db.close();
    }
  }

  // putHandoff stores the tensor for a scene page; getHandoff reads it back
  // (undefined when there is none).
  const putHandoff = (record) => handoff("readwrite", record);
  const getHandoff = () => handoff("readonly");

  // The navigation collapses behind a Menu button where it would take
  // more than a line (style.css): the button opens and closes it, Escape
  // closes it. Without scripts the list stays open.
  function navMenu() {
    const header = document.querySelector(".site-header");
    const button = header && header.querySelector(".nav-toggle");
    if (!button) return;
    document.documentElement.classList.add("js");
    const open = (on) => {
      header.classList.toggle("open", on);
      button.setAttribute("aria-expanded", String(on));
    };
    button.addEventListener("click", () => open(!header.classList.contains("open")));
    header.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && header.classList.contains("open")) {
        open(false);
        button.focus();
      }
    });
  }
  navMenu();

  globalThis.FP8Page = Object.freeze({ fmt, count, fmtPow2, pow2, power, codeRanges, hex, parseCode, parseNumber, loadCore, fail, el,
    putHandoff, getHandoff });
})();
