// explain.js: how a fact is shown for reading. The explanation beside each
// scene is computed in Go (viz.Scene.Explain) from the same facts as the
// picture and arrives in sceneInfo's "explanation"; scene.js shows it.
"use strict";

(function () {
  // readable shows a fact for reading: a whole number as written (counts:
  // 1048576, not 1.048576e+06), a power of two as 2^k with its exact value,
  // a long computed decimal (more than 12 significant digits, such as a
  // PSNR) to 4 significant digits; anything else as the library wrote it.
  function readable(v) {
    if (/^-?\d+$/.test(v)) return v;
    if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(v)) return v;
    const x = Number(v);
    if (x > 0 && FP8Page.pow2(x) !== null && (Math.abs(Math.log2(x)) > 3)) return FP8Page.fmtPow2(x);
    const digits = v.replace(/^-/, "").replace(/e.*$/i, "").replace(".", "").replace(/^0+/, "");
    if (digits.length > 12) return "\u2248 " + FP8Page.fmt(Number(x.toPrecision(4)));
    return v;
  }

  globalThis.FP8Explain = Object.freeze({ readable });
})();
