// explain.js: the short explanation beside each scene. Each paragraph is a
// template whose {placeholders} are the scene's facts, the numbers the
// library computed for what is on screen; a paragraph is shown only when
// every fact it names is present, so no number here is ever typed by hand.
"use strict";

(function () {
  const texts = {
    explorer: [
      "Code {code} of {format} is {bits}: sign {sign}, exponent field {exponent_field}, mantissa field {mantissa_field}. " +
        "It is a {class} value, {value}.",
      "Around it the values are {ulp} apart: the next codes down and up are {lower} and {upper}. " +
        "The spacing doubles with every power of two, so the relative precision stays about the same.",
      "{format} reaches {max}; its smallest normal value is {min_normal} and its smallest subnormal {min_subnormal} (bias {bias}).",
      "You typed {input}: it rounds ({mode}) to {result}, code {result_code}, between {bracket_lower} and {bracket_upper}. " +
        "The error is {abs_error|r}, relative {rel_error|pct}. Overflow: {overflow}; underflow: {underflow}.",
      "Click a bit in the picture to flip it, or a cell of the grid to pick a code; the keyboard works on the controls.",
    ],
    range: [
      "Each row is a format; every tick is one of its positive values on a log scale. " +
        "The ticks are evenly spread within a power of two and double their spacing at the next one.",
      "E4M3FN runs from {E4M3FN.min_subnormal} to {E4M3FN.max} ({E4M3FN.positive_values} positive values, " +
        "{E4M3FN.binades} powers of two); E5M2 from {E5M2.min_subnormal} to {E5M2.max} ({E5M2.positive_values} values, " +
        "{E5M2.binades} powers of two).",
      "Between 1 and 2, E4M3FN steps by {E4M3FN.eps} and E5M2 by {E5M2.eps}: one more exponent bit buys range " +
        "and costs half the precision.",
    ],
    window: [
      "The histogram shows the {elements} values of a {tensor} tensor on a log scale. The shaded band is the window of " +
        "{format}: from {window_low}, its smallest subnormal, to {window_high}, its maximum, after multiplying by the scale {scale}.",
      "With this scale {underflow_fraction|pct} of the values fall below the window and become zero, " +
        "{subnormal_fraction|pct} land among the subnormals, where precision is lower, and {overflow_fraction|pct} are clipped " +
        "at the maximum. The signal-to-noise ratio is {sqnr_db|db}.",
      "Current scaling would multiply by about 2^{current_scale_log2|r} (the tensor's amax is {amax|r}), which puts the largest " +
        "value at the top of the window. Raise the scale to slide the window left, or click the histogram to put the maximum there.",
    ],
    granularity: [
      "The same {rows}×{cols} matrix, with outlier rows, quantized to {format}; each column of the picture is one " +
        "granularity, that is, which elements share a scale.",
      "One scale for the whole tensor gives a whole-tensor SQNR of {tensor.sqnr_db|db}, yet {tensor.underflow} values " +
        "become zero and the worst row is at {tensor.worst_row_db|db}: the outliers choose the scale and the small rows vanish.",
      "One scale per row ({row.scales} scales): {row.underflow} values lost, worst row {row.worst_row_db|db}. " +
        "1×128 tiles ({tile1x128.scales} scales): worst row {tile1x128.worst_row_db|db}. " +
        "128×128 blocks ({block128.scales} scales): {block128.underflow} values lost, worst row {block128.worst_row_db|db}.",
      "MX, a power-of-two scale per 32 values ({mx.scales} scales): worst row {mx.worst_row_db|db}. " +
        "NVFP4, {nvfp4.format} elements with a scale per 16 ({nvfp4.scales} scales): worst row {nvfp4.worst_row_db|db}.",
      "The whole-tensor SQNR is dominated by the outliers and hardly moves; compare the worst rows.",
    ],
    hadamard: [
      "{elements} values with outliers of size {amax_before}, quantized to {format} with one scale, directly and " +
        "after a Hadamard rotation of blocks of {block}.",
      "Quantized directly, the outliers choose the scale: {plain_underflow} of the {elements} values become zero and " +
        "the rest of the values (without the outliers) keep an SQNR of only {plain_bulk_sqnr_db|db}.",
      "After the rotation the largest magnitude is {amax_after|r}: each outlier is spread over its block. Only " +
        "{rotated_underflow} values become zero and the rest reach {rotated_bulk_sqnr_db|db} (all values: " +
        "{plain_sqnr_db|db} directly, {rotated_sqnr_db|db} rotated). The rotation is orthogonal, so it is undone after the " +
        "matrix product: (A·H)(Hᵀ·B) = A·B.",
    ],
    dither: [
      "The picture is quantized to {levels} grey levels. Rounding to nearest gives a PSNR of {psnr_nearest_db|db}; " +
        "one stochastically rounded frame ({random_bits} random bits) only {psnr_stochastic_1_db|db}, but the mean of " +
        "{frames} such frames reaches {psnr_average_db|db}. Each pixel's expected value is the original, so detail that " +
        "rounding to nearest erases comes back on average.",
      "In one frame, ordered (Bayer) dithering gives {psnr_bayer_db|db} and Floyd–Steinberg error diffusion {psnr_floyd_db|db}.",
      "The tiny-update chart adds a small update many times to a weight that starts at {tiny_start}. The exact sum reaches " +
        "{tiny_exact_final}; rounding to nearest stays at {tiny_nearest_final}, because every update is less than half a step " +
        "and is lost; stochastic rounding ends at {tiny_stochastic_final}.",
    ],
    delayed: [
      "{steps} training steps of a tensor, one of them a spike, quantized to {format}. Delayed scaling takes each " +
        "step's scale from the amax history of earlier steps, as Transformer Engine does, so the scale lags behind the data.",
      "{overflow_steps} steps overflow ({overflow_values} values clipped; the first at step {first_overflow_step}): " +
        "whenever the amax grows, and at the spike, the new values arrive before the history knows them. " +
        "The worst step's SQNR is {worst_sqnr_db|db}.",
      "Over all steps the mean SQNR is {mean_sqnr_db|db}, against {mean_current_sqnr_db|db} for current scaling, " +
        "which computes the scale from the step itself. The final scale is {final_scale|r}.",
    ],
    stochastic: [
      "In {format}, {x} lies between the neighbouring values {lower} and {upper}, {step} apart (the two are the same " +
        "when x is a value of the format, or beyond its largest value, where it saturates). Ideal stochastic rounding picks " +
        "{upper} with probability {up_probability_ideal|r}, the position of x between them, so the mean of many roundings is x itself.",
      "A machine draws {random_bits} random bits, not a real number: x has {dropped_bits} bits below the last bit {format} keeps, " +
        "and {random_bits} bits {bits_cover} them. Under the {rule} rule {upper} comes with probability {up_probability}, " +
        "so the mean of the rounded values is {expected|r}: {bias_direction} (bias {bias|r}, {bias_steps|pct} of a step).",
      "The two rules side by side, with {random_bits} bits: floor (add the bits below the last kept bit and truncate, as fp8lab " +
        "and the GPU kernels do) goes up with probability {floor_up_probability} and is {floor_bias_direction} ({floor_bias|r}); " +
        "nearest (round the position to {random_bits} bits first, as gfloat does) goes up with probability " +
        "{nearest_up_probability} and is {nearest_bias_direction} ({nearest_bias|r}). The right plot shows both for every r.",
      "{draws} draws from the Philox stream of seed {seed} went up {ups} times, a frequency of {up_frequency|r} against the " +
        "exact {up_probability} ({frequency_sigmas|r} standard deviations off); their mean is {mean|r}. " +
        "Click the number line to move x.",
    ],
  };

  const fallback = [
    "The numbers below are computed by the library for the picture on the left; change a control and they follow.",
  ];

  // readable shows a fact for reading: a power of two as 2^k with its exact
  // value, a long computed decimal (more than 12 significant digits, such as
  // a PSNR) to 4 significant digits; anything else as the library wrote it.
  function readable(v) {
    if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(v)) return v;
    const x = Number(v);
    if (x > 0 && FP8Page.pow2(x) !== null && (Math.abs(Math.log2(x)) > 3)) return FP8Page.fmtPow2(x);
    const digits = v.replace(/^-/, "").replace(/e.*$/i, "").replace(".", "").replace(/^0+/, "");
    if (digits.length > 12) return "\u2248 " + FP8Page.fmt(Number(x.toPrecision(4)));
    return v;
  }

  // filters format a fact for a sentence: {key|db} a level in decibels,
  // {key|pct} a fraction as a percentage, {key|r} 4 significant digits.
  const filters = {
    db: (v) => Number.isFinite(Number(v)) ? Number(v).toFixed(1) + " dB" : v,
    pct: (v) => {
      const x = Number(v) * 100;
      if (!Number.isFinite(x)) return v;
      return (x === 0 ? "0" : x >= 99.95 || x < 0.05 ? FP8Page.fmt(Number(x.toPrecision(3))) : x.toFixed(1)) + "%";
    },
    r: (v) => Number.isFinite(Number(v)) ? FP8Page.fmt(Number(Number(v).toPrecision(4))) : v,
  };

  // fill turns a template into text and <strong> nodes, or null when a
  // fact it needs is missing.
  function fill(template, facts) {
    const out = [];
    const re = /\{([^}|]+)(?:\|(\w+))?\}/g;
    let last = 0;
    let m;
    while ((m = re.exec(template)) !== null) {
      if (!(m[1] in facts)) return null;
      out.push(template.slice(last, m.index));
      const strong = document.createElement("strong");
      strong.className = "fact";
      const f = m[2] && filters[m[2]];
      strong.textContent = f ? f(facts[m[1]]) : readable(facts[m[1]]);
      out.push(strong);
      last = re.lastIndex;
    }
    out.push(template.slice(last));
    return out;
  }

  // paragraphs returns the explanation of a scene as arrays of nodes.
  function paragraphs(info) {
    const out = [];
    for (const t of texts[info.name] || fallback) {
      const p = fill(t, info.facts || {});
      if (p) out.push(p);
    }
    return out;
  }

  globalThis.FP8Explain = Object.freeze({ paragraphs, readable, texts });
})();
