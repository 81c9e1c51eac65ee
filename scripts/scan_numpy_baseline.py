"""The numpy baseline of fp8lab scan's speed (issue 27): one recipe,
tensorwise E4M3FN, its whole-tensor SQNR, for every BF16/F32 tensor of a
safetensors file, written as a numpy user would (vectorized, float32
arrays, float64 sums). BENCHMARKS.md compares fp8lab scan's five recipes
against it in CPU time (BenchmarkScanVsNumpy runs both in one process).

Usage: python3 scan_numpy_baseline.py FILE.safetensors
Prints one line per tensor: name and SQNR in dB.
"""
import json
import struct
import sys

import numpy as np

E4M3_MAX = 448.0


def e4m3(v):
    """Round float32 v (already scaled into ±448) to E4M3FN, nearest, ties
    to even, saturating at ±448, with integer arithmetic on the float32
    bits, the fastest plain-numpy way: normals keep 3 of the 23 mantissa
    bits (add half an ULP of the kept bits, plus one for a tie to an odd
    kept bit, then clear the dropped bits); below 2^-6, subnormals are
    multiples of 2^-9, rounded by adding and subtracting 2^14 in float32."""
    bits = v.view(np.uint32) & np.uint32(0x7FFFFFFF)
    r = bits + np.uint32(0x7FFFF) + ((bits >> np.uint32(20)) & np.uint32(1))
    r &= np.uint32(0xFFF00000)
    a = r.view(np.float32)
    small = bits < np.uint32(0x3C800000)  # |v| < 2^-6
    absv = bits.view(np.float32)
    a[small] = (absv[small] + np.float32(2.0 ** 14)) - np.float32(2.0 ** 14)
    np.minimum(a, np.float32(E4M3_MAX), out=a)
    return np.copysign(a, v)


def main(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + n)
    for name, t in header.items():
        if name == "__metadata__" or t["dtype"] not in ("BF16", "F32"):
            continue
        b, e = t["data_offsets"]
        raw = data[b:e]
        if t["dtype"] == "BF16":
            x = (raw.view("<u2").astype(np.uint32) << 16).view(np.float32)
        else:
            x = raw.view("<f4").astype(np.float32)
        amax = float(np.max(np.abs(x)))
        scale = np.float32(E4M3_MAX / max(amax, 1e-12))
        y = e4m3(x * scale) / scale
        sig = np.dot(x.astype(np.float64), x.astype(np.float64))
        err = (x - y).astype(np.float64)
        noise = np.dot(err, err)
        print(name, 10 * np.log10(sig / noise) if noise > 0 else float("inf"))


if __name__ == "__main__":
    main(sys.argv[1])
