#!/usr/bin/env python3
"""Check an fp8lab dump (`fp8lab-gpu dump DIR`, native/parity's Dump) independently of fp8lab's Go code.

Usage: torch_oracle.py [--no-torch] [--verbose] DIR

DIR holds manifest.json and the .npy files it names. Every case is recomputed here with numpy
(float64 where the rule is float64) and, unless --no-torch, PyTorch's float8 casts:

  quantize    codes == torch cast of x_scaled (and == this script's own round-to-nearest-even),
              where x_scaled = float32(x) * float32(scale) (one float32 multiply, as fp8lab's
              scaling.Quantize does), clamped to +-Max first because fp8lab saturates and
              PyTorch's casts do not; NaN keeps its sign: E4M3FN S.1111.111 (torch writes the same),
              E5M2 S.11111.10 (torch writes S.11111.11; the oracle maps torch's NaN to fp8lab's).
              Scales: amax per block recomputed in float64, then the manifest's rule
              (scale = Max / max(amax, eps) / 2^margin in float64, optional power of two, clamped
              to [2^-126, FLT_MAX] or [2^-126, 2^127], stored as float32) or the MX E8M0 exponent
              (floor: floor(log2 amax) - emax; ceil / nearest-even of amax / Max), clamped to
              [-127, 127]; scales.npy must be 2^(127-c) bit for bit.
  stochastic  every code is one of the two neighbours of x_scaled, and the rounding is unbiased:
              |sum(|dec(code)| - |x_scaled|)| <= 6*sqrt(sum p(1-p) ulp^2) + sum ulp * 2^-bits, where
              p = (|x_scaled| - lo) / ulp; and calibrated: in each tenth of p (100+ elements), the
              count rounded up is sum p within 6*sqrt(sum p(1-p)) + count * 2^-bits + 1.
  amax        per block, float64 max |x| (NaN if the block holds a NaN), bit for bit.
  dequantize  dec(code) via torch's float8 -> float32 (or this script's table), divided by the
              float32 scale (float scales) or times 2^(c-127) (MX), in float32, bit for bit.
  fwht        against a float64 Walsh-Hadamard transform (Sylvester order, 1/sqrt(n)):
              |y - ref| <= (log2(n) + 2) * 2^-24 * sum_block |x| / sqrt(n).
  products    against a float64 matmul of the dequantized (FP8) or BF16-rounded operands:
              |d - ref| <= tol * sum_k |a_ik| |b_kj|, tol read from the manifest.

Prints one line per case group and a final verdict line. Exit status: 0 all ok, 1 a mismatch,
a case the backend failed or skipped, 2 bad input (no manifest, missing files) or no torch
without --no-torch.
"""

import argparse
import json
import math
import os
import sys

try:
    import numpy as np
except ImportError:
    print("torch oracle: numpy is required (pip install numpy, or apt-get install python3-numpy)", file=sys.stderr)
    sys.exit(2)

F32_MAX = float(np.finfo(np.float32).max)
Z_LIMIT = 6.0  # standard deviations allowed for the stochastic bias


class BadInput(Exception):
    """The dump is unreadable: exit status 2."""


class Fmt:
    """An FP8 format decoded from its bit layout (OCP OFP8 v1.0), independently of fp8lab."""

    def __init__(self, name, exp, man, bias, fn):
        self.name, self.man = name, man
        vals = np.empty(256, dtype=np.float64)
        for c in range(256):
            s, e, m = c >> 7, (c >> man) & ((1 << exp) - 1), c & ((1 << man) - 1)
            if fn and e == (1 << exp) - 1 and m == (1 << man) - 1:
                v = math.nan  # E4M3FN: only S.1111.111 is NaN, no infinities
            elif not fn and e == (1 << exp) - 1:
                v = math.inf if m == 0 else math.nan
            elif e == 0:
                v = m * 2.0 ** (1 - bias - man)
            else:
                v = (1 + m / 2.0**man) * 2.0 ** (e - bias)
            vals[c] = -v if s else v
        self.table = vals
        pos = [(vals[c], c) for c in range(128) if np.isfinite(vals[c])]
        pos.sort()
        self.pos_vals = np.array([v for v, _ in pos])
        self.pos_codes = np.array([c for _, c in pos], dtype=np.uint8)
        self.max = float(self.pos_vals[-1])
        # fp8lab's NaN: the quiet NaN with the top mantissa bit, sign kept.
        self.nan_code = 0x7F if fn else 0x7E

    def nearest(self, x):
        """Round-to-nearest-even codes of float32 x, saturating; NaN -> nan_code with its sign."""
        x64 = x.astype(np.float64)
        nan = np.isnan(x64)
        a = np.minimum(np.abs(np.where(nan, 0, x64)), self.max)
        hi = np.searchsorted(self.pos_vals, a, side="left")
        hi = np.minimum(hi, len(self.pos_vals) - 1)
        lo = np.maximum(hi - 1, 0)
        dl, dh = a - self.pos_vals[lo], self.pos_vals[hi] - a
        even_hi = (self.pos_codes[hi] & 1) == 0
        pick_hi = (dh < dl) | ((dh == dl) & even_hi) | (dh == 0)
        mag = np.where(pick_hi, self.pos_codes[hi], self.pos_codes[lo])
        sign = np.signbit(x).astype(np.uint8) << 7
        return np.where(nan, self.nan_code, mag).astype(np.uint8) | sign

    def neighbours(self, a):
        """The finite magnitudes below and above |a| (equal when a is a value)."""
        hi = np.minimum(np.searchsorted(self.pos_vals, a, side="left"), len(self.pos_vals) - 1)
        lo = np.where(self.pos_vals[hi] == a, hi, np.maximum(hi - 1, 0))
        return self.pos_vals[lo], self.pos_vals[hi]


FORMATS = {"E4M3FN": Fmt("E4M3FN", 4, 3, 7, True), "E5M2": Fmt("E5M2", 5, 2, 15, False)}


class Torch:
    """PyTorch's float8 casts, or None parts when torch is left out."""

    def __init__(self):
        import torch

        self.torch = torch
        self.dtypes = {"E4M3FN": torch.float8_e4m3fn, "E5M2": torch.float8_e5m2}

    def encode(self, name, x):
        return self.torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32)).to(self.dtypes[name]).view(self.torch.uint8).numpy()

    def decode(self, name, codes):
        t = self.torch.from_numpy(np.ascontiguousarray(codes, dtype=np.uint8)).view(self.dtypes[name])
        return t.to(self.torch.float32).numpy()

    def bf16(self, x):
        return self.torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32)).to(self.torch.bfloat16).to(self.torch.float32).numpy()


def bf16_numpy(x):
    """float32 -> BF16 (nearest even) -> float32 on the bits; inputs are finite."""
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16 << 16
    return b.astype(np.uint32).view(np.float32)


def same_bits(a, b):
    """Indices where float32 arrays differ in bits (NaN payloads aside)."""
    a, b = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    if a.shape != b.shape:
        raise AssertionError(f"shape {b.shape}, expected {a.shape}")
    diff = (a.view(np.uint32) != b.view(np.uint32)) & ~(np.isnan(a) & np.isnan(b))
    return np.argwhere(diff)


def expand(scales, g, rows, cols):
    """One scale per element from a ScaleRows x ScaleCols grid."""
    s = np.repeat(np.repeat(scales, g["block_rows"], axis=0), g["block_cols"], axis=1)
    return s[:rows, :cols]


def block_amax(x, g):
    """float64 amax of every block (NaN when a block holds one), as float32."""
    br, bc, gr, gc = g["block_rows"], g["block_cols"], g["scale_rows"], g["scale_cols"]
    p = np.zeros((gr * br, gc * bc), dtype=np.float64)
    p[: x.shape[0], : x.shape[1]] = np.abs(x.astype(np.float64))
    return p.reshape(gr, br, gc, bc).max(axis=(1, 3)).astype(np.float32)


def rule_scale(amax, rule, fmax):
    """ScaleRule: Max / max(amax, eps) / 2^margin in float64, pow2, clamp, float32."""
    s = math.ldexp(fmax / max(amax, rule["eps"]), -rule["margin"])
    pow2 = rule["pow2"]
    if pow2 != 0:
        frac, e = math.frexp(s)
        if frac != 0.5:
            s = math.ldexp(1, e - 1) if pow2 == 1 else math.ldexp(1, e)
    hi = 2.0**127 if pow2 != 0 else F32_MAX
    return np.float32(min(max(s, 2.0**-126), hi))


def mx_code(amax, fmax, emax, rounding):
    """E8M0 code of an MX block's shared scale."""
    if amax == 0:
        return 0
    if rounding == "floor":
        k = math.frexp(amax)[1] - 1 - emax
    else:
        frac, e = math.frexp(amax / fmax)  # v = 2*frac * 2^(e-1), 2*frac in [1, 2)
        if frac == 0.5:
            k = e - 1
        elif rounding == "ceil":
            k = e
        elif rounding == "nearest-even":
            m = 2 * frac
            k = e - 1 if m < 1.5 else e if m > 1.5 else (e - 1 if (e - 1 + 127) % 2 == 0 else e)
        else:
            raise BadInput(f"unknown MX rounding {rounding!r}")
    return min(max(k, -127), 127) + 127


class Oracle:
    def __init__(self, root, man, torch):
        self.root, self.man, self.torch = root, man, torch

    def load(self, case, role):
        name = case.get("files", {}).get(role)
        if not name:
            raise BadInput(f"{case['name']}: no {role} file in the manifest")
        path = os.path.join(self.root, name)
        if os.path.dirname(os.path.normpath(name)) or not os.path.isfile(path):
            raise BadInput(f"{case['name']}: {role} file {name!r} is missing")
        return np.load(path, allow_pickle=False)

    def fmt(self, name):
        if name not in FORMATS:
            raise BadInput(f"unknown format {name!r}")
        return FORMATS[name]

    def decode(self, f, codes):
        if self.torch:
            return self.torch.decode(f.name, codes)
        return f.table[codes].astype(np.float32)

    def check_scales(self, c, x, scales):
        """Recompute the scales (or E8M0 codes) from float64 amaxes."""
        f, g = self.fmt(c["format"]), c["granularity"]
        amax = block_amax(x, g)
        if c["scale_source"] == "rule":
            want = np.array([[rule_scale(float(a), c["scale_rule"], f.max) for a in row] for row in amax], dtype=np.float32)
            bad = same_bits(want, scales)
            if len(bad):
                i = tuple(bad[0])
                return f"scale of block {i}: {scales[i]!r}, expected {want[i]!r} (amax {amax[i]!r})"
        elif c["scale_source"] == "mx":
            sc = self.load(c, "scale_codes")
            want = np.array([[mx_code(float(a), f.max, c["mx_emax"], c["mx_rounding"]) for a in row] for row in amax], dtype=np.uint8)
            bad = np.argwhere(want != sc)
            if len(bad):
                i = tuple(bad[0])
                return f"E8M0 code of block {i}: {sc[i]:#04x}, expected {want[i]:#04x} (amax {amax[i]!r})"
            pw = np.array([[np.float32(2.0 ** (127 - int(k))) for k in row] for row in sc], dtype=np.float32)
            bad = same_bits(pw, scales)
            if len(bad):
                return f"scale of block {tuple(bad[0])} is not 2^(127-c)"
        elif not np.all((scales > 0) & np.isfinite(scales)):
            return "a given scale is not positive and finite"
        return ""

    def quantize(self, c):
        f, g = self.fmt(c["format"]), c["granularity"]
        if not c.get("saturating"):
            raise BadInput(f"{c['name']}: only saturating quantization is checked")
        x, codes, scales = self.load(c, "x"), self.load(c, "codes"), self.load(c, "scales")
        if codes.shape != x.shape or scales.shape != (g["scale_rows"], g["scale_cols"]):
            return f"shapes: codes {codes.shape}, scales {scales.shape}, input {x.shape}"
        msg = self.check_scales(c, x, scales)
        if msg:
            return msg
        xs = x.astype(np.float32) * expand(scales, g, *x.shape).astype(np.float32)  # one float32 multiply
        nan = np.isnan(xs)
        xc = np.where(nan, xs, np.clip(xs, -f.max, f.max)).astype(np.float32)  # fp8lab saturates
        if c["rounding"] == "stochastic":
            return self.stochastic(c, f, xc, codes)
        want = f.nearest(xc)
        if self.torch:
            t = self.torch.encode(f.name, xc)
            t = np.where(nan, (t & 0x80) | f.nan_code, t)  # torch's NaN codes -> fp8lab's (sign kept)
            bad = np.argwhere(t != want)
            if len(bad):
                i = tuple(bad[0])
                return f"oracle disagrees with torch at {i}: x_scaled {xc[i]!r}: numpy {want[i]:#04x}, torch {t[i]:#04x}"
        bad = np.argwhere(codes != want)
        if len(bad):
            i = tuple(bad[0])
            return (f"code {i}: {codes[i]:#04x}, expected {want[i]:#04x} for x {x[i]!r} * scale = {xc[i]!r} "
                    f"({len(bad)} codes differ)")
        return ""

    def stochastic(self, c, f, xc, codes):
        d = self.decode(f, codes).astype(np.float64)
        a = np.abs(xc.astype(np.float64))
        lo, hi = f.neighbours(a)
        mag = np.abs(d)
        sign_ok = (np.signbit(d) == np.signbit(xc)) | (mag == 0)
        bad = np.argwhere(~(((mag == lo) | (mag == hi)) & sign_ok))
        if len(bad):
            i = tuple(bad[0])
            return f"code {i}: {codes[i]:#04x} ({d[i]!r}) is not a neighbour of {xc[i]!r} ({lo[i]!r}, {hi[i]!r})"
        ulp = hi - lo
        p = np.divide(a - lo, ulp, out=np.zeros_like(a), where=ulp > 0)
        bias = float(np.sum(mag - a))  # magnitudes: rounding toward zero cannot cancel out across signs
        bound = Z_LIMIT * math.sqrt(float(np.sum(p * (1 - p) * ulp * ulp))) + float(np.sum(ulp)) * 2.0 ** -c["random_bits"]
        inexact = int(np.count_nonzero(ulp > 0))
        if inexact == 0:
            return "no inexact element: the case checks nothing"
        if abs(bias) > bound:
            return f"biased: sum(|dec| - |x|) = {bias:.6g} over {inexact} inexact elements, bound {bound:.6g}"
        # Calibration: in each tenth of p, the share rounded up must be p (nearest rounding is not).
        up = (mag == hi) & (ulp > 0)
        for k in range(10):
            sel = (ulp > 0) & (p >= k / 10) & (p < (k + 1) / 10)
            cnt = int(np.count_nonzero(sel))
            if cnt < 100:
                continue
            ups, want = int(np.count_nonzero(up & sel)), float(np.sum(p[sel]))
            tol = Z_LIMIT * math.sqrt(float(np.sum(p[sel] * (1 - p[sel])))) + cnt * 2.0 ** -c["random_bits"] + 1
            if abs(ups - want) > tol:
                return f"rounds up {ups} of {cnt} elements with p in [{k / 10:.1f}, {(k + 1) / 10:.1f}), expected {want:.1f} +- {tol:.1f}"
        return ""

    def amax(self, c):
        x, got = self.load(c, "x"), self.load(c, "amax")
        want = block_amax(x, c["granularity"])
        bad = same_bits(want, got)
        if len(bad):
            i = tuple(bad[0])
            return f"amax of block {i}: {got[i]!r}, expected {want[i]!r}"
        return ""

    def dequantize(self, c):
        f, g = self.fmt(c["format"]), c["granularity"]
        codes, out = self.load(c, "codes"), self.load(c, "out")
        v = self.decode(f, codes).astype(np.float32)
        if c["scale_source"] == "mx":
            sc = self.load(c, "scale_codes").astype(np.int64)
            x = np.array([[np.float32(2.0 ** (k - 127)) for k in row] for row in sc], dtype=np.float32)
            want = v * expand(x, g, *v.shape)
        else:
            want = v / expand(self.load(c, "scales"), g, *v.shape).astype(np.float32)
        bad = same_bits(want.astype(np.float32), out)
        if len(bad):
            i = tuple(bad[0])
            return f"element {i}: {out[i]!r}, expected {want[i]!r} (code {codes[i]:#04x})"
        return ""

    def fwht(self, c):
        x, out, n = self.load(c, "x"), self.load(c, "out"), c["block"]
        y = x.astype(np.float64).reshape(-1, n)
        h = 1
        while h < n:
            y = y.reshape(y.shape[0], -1, 2, h)
            y = np.concatenate([y[:, :, 0] + y[:, :, 1], y[:, :, 0] - y[:, :, 1]], axis=2).reshape(y.shape[0], n)
            h *= 2
        ref = y / math.sqrt(n)
        tol = (math.log2(n) + 2) * 2.0**-24 * np.abs(x.astype(np.float64)).reshape(-1, n).sum(axis=1, keepdims=True) / math.sqrt(n)
        err = np.abs(out.astype(np.float64).reshape(-1, n) - ref)
        bad = np.argwhere(~(err <= tol))
        if len(bad):
            i = tuple(bad[0])
            return f"element {i}: {out.reshape(-1, n)[i]!r}, float64 {ref[i]!r}, error {err[i]:.3g} > {tol[i[0], 0]:.3g}"
        return ""

    def operand(self, c, role, fmt_key, gran_key):
        f, g = self.fmt(c[fmt_key]), c[gran_key]
        codes, scales = self.load(c, role + "codes"), self.load(c, role + "scales")
        return self.decode(f, codes).astype(np.float64) / expand(scales.astype(np.float64), g, *codes.shape)

    def product(self, c, a, b, tol):
        out = self.load(c, "out").astype(np.float64)
        if out.shape != (c["m"], c["n"]):
            return f"result is {out.shape}, expected ({c['m']}, {c['n']})"
        ref, mag = a @ b, np.abs(a) @ np.abs(b)
        err = np.abs(out - ref)
        bad = np.argwhere(~(err <= tol * mag))
        if len(bad):
            i = tuple(bad[0])
            return f"element {i}: {out[i]!r}, float64 {ref[i]!r}, error {err[i]:.3g} > {tol:.3g} * {mag[i]:.3g}"
        return ""

    def scaled_matmul(self, c):
        a = self.operand(c, "a_", "format", "granularity")
        b = self.operand(c, "b_", "format_b", "granularity_b")
        return self.product(c, a, b, self.man["gemm_tol_fp8"])

    def matmul_bf16(self, c):
        a, b = self.load(c, "a"), self.load(c, "b")
        r = self.torch.bf16 if self.torch else bf16_numpy
        return self.product(c, r(a).astype(np.float64), r(b).astype(np.float64), self.man["gemm_tol_bf16"])


def group(c):
    if c["op"] == "quantize":
        if c.get("scale_source") == "given":
            return "quantize (given scales)"
        return f"quantize ({c.get('rounding', '?')})"
    return c["op"]


def main(argv):
    ap = argparse.ArgumentParser(description="Check an fp8lab dump against numpy and PyTorch.")
    ap.add_argument("dir", help="the dump directory (manifest.json and .npy files)")
    ap.add_argument("--no-torch", action="store_true", help="run only the checks that need numpy alone")
    ap.add_argument("--verbose", action="store_true", help="print every failure, not only the first of a group")
    args = ap.parse_args(argv)
    torch = None
    if not args.no_torch:
        try:
            torch = Torch()
        except ImportError:
            print("torch oracle: PyTorch is not installed; install it, or pass --no-torch for the numpy-only checks", file=sys.stderr)
            return 2
    try:
        with open(os.path.join(args.dir, "manifest.json")) as fh:
            man = json.load(fh)
        if man.get("version") != 1 or not isinstance(man.get("cases"), list):
            raise BadInput(f"manifest version {man.get('version')!r}, expected 1 with a list of cases")
    except (OSError, ValueError, BadInput) as e:
        print(f"torch oracle: bad dump {args.dir}: {e}", file=sys.stderr)
        return 2
    print(f"torch oracle: {args.dir}: {len(man['cases'])} cases from {man.get('backend', {}).get('name')} "
          f"({man.get('backend', {}).get('device')})")
    if torch is None:
        print("torch oracle: --no-torch leaves out: codes against torch.float8 casts, the decode table against "
              "torch's float8 -> float32, BF16 rounding by torch (numpy's own RNE encoder, decode table and BF16 rounding are used)")
    else:
        for name, f in FORMATS.items():
            t = torch.decode(name, np.arange(256, dtype=np.uint8)).astype(np.float64)
            if len(same_bits(t.astype(np.float32), f.table.astype(np.float32))):
                print(f"torch oracle: {name}: torch's float8 -> float32 differs from the OCP decode table", file=sys.stderr)
                return 1
    np.seterr(all="ignore")  # NaN, Inf and overflow are inputs here, not accidents
    oracle = Oracle(args.dir, man, torch)
    counts, first = {}, {}
    for c in man["cases"]:
        key = group(c)
        n = counts.setdefault(key, {"ok": 0, "failed": 0, "skipped": 0})
        try:
            if c.get("status") == "skipped":
                n["skipped"] += 1
                msg = None
            elif c.get("status") != "ok":
                msg = f"the backend failed: {c.get('reason')}"
            else:
                check = getattr(oracle, c["op"], None)
                if check is None:
                    raise BadInput(f"unknown op {c['op']!r}")
                msg = check(c)
        except (BadInput, KeyError) as e:
            print(f"torch oracle: bad dump {args.dir}: {c.get('name')}: {e!r}", file=sys.stderr)
            return 2
        if msg is None:
            continue
        if msg:
            n["failed"] += 1
            if args.verbose or key not in first:
                first.setdefault(key, [])
                first[key].append(f"  FAIL {c['name']}: {msg}")
        else:
            n["ok"] += 1
    tot = {"ok": 0, "failed": 0, "skipped": 0}
    for key, n in counts.items():
        print(f"{key:26s} {n['ok']:4d} ok, {n['failed']} failed, {n['skipped']} skipped")
        for line in first.get(key, []):
            print(line)
        for k in tot:
            tot[k] += n[k]
    print(f"torch oracle: {tot['ok']} cases ok, {tot['failed']} failed, {tot['skipped']} skipped"
          + (" (numpy only: --no-torch)" if torch is None else ""))
    return 1 if tot["failed"] or tot["skipped"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
