"""Print ``core/_mkl_vml.py``'s ``_RSQRTPS``: this CPU's ``rsqrtps`` estimates of 1/sqrt(x), packed.

MKL's float32 vector sqrt on an AMD CPU starts from the SSE instruction ``rsqrtps`` (``core/_mkl_vml.py``), whose
result is not specified to the bit: each CPU design has its own table. On an AMD EPYC Zen 4 it depends on the
exponent's parity and the top 12 mantissa bits of x only, and has 12 mantissa bits, so its 8192 results for x in
[1, 4) (each with exponent -1) give it for every positive normal x by scaling with 2^-k for x = 4^k x0.

This script compiles a small C program (gcc, SSE intrinsics), runs the instruction on every float of [1, 4),
checks that each of the 8192 cells holds one value, and prints the first mantissa of each half ([1, 2) then
[2, 4); 4095 and 1696 on Zen 4) and the packed string: the zlib-compressed, base64-encoded bytes of each half's
successive drops (0, 1 or 2), 8190 bytes.
Run it on the CPU whose table you want::

    python tools/gen_rsqrtps_table.py
"""

from __future__ import annotations

import base64
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np

_C = r"""
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    for (uint32_t b = 0x3f800000u; b < 0x40800000u; b += 4) {
        uint32_t in[4] = {b, b + 1, b + 2, b + 3}, out[4];
        float x[4], r[4];
        memcpy(x, in, 16);
        _mm_storeu_ps(r, _mm_rsqrt_ps(_mm_loadu_ps(x)));
        memcpy(out, r, 16);
        fwrite(out, 4, 4, stdout);
    }
    return 0;
}
"""


def measure() -> np.ndarray:
    """``rsqrtps`` of every float32 in [1, 4), as uint32 bits."""
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = Path(tmp) / "rsqrtps.c", Path(tmp) / "rsqrtps"
        src.write_text(_C)
        subprocess.run(["gcc", "-O1", "-msse", str(src), "-o", str(exe)], check=True)
        raw = subprocess.run([str(exe)], check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint32)


def main() -> None:
    bits = measure()
    cells = bits.reshape(8192, 2048)
    if not (cells == cells[:, :1]).all():
        sys.exit("this CPU's rsqrtps depends on more than the top 12 mantissa bits: the packed form does not hold")
    if ((cells[:, 0] >> 23) != 126).any() or (cells[:, 0] & 0x7FF).any():
        sys.exit("this CPU's rsqrtps has another exponent or more than 12 mantissa bits in [1, 4)")
    mant = (cells[:, 0] & 0x7FFFFF).astype(np.int64) >> 11
    halves = mant[:4096], mant[4096:]
    drops = np.concatenate([-np.diff(h) for h in halves])
    if drops.min() < 0 or drops.max() > 255:
        sys.exit("this CPU's rsqrtps is not monotonic in x")
    print("first mantissas:", halves[0][0], halves[1][0])
    print(base64.b64encode(zlib.compress(drops.astype(np.uint8).tobytes(), 9)).decode())


if __name__ == "__main__":
    main()
