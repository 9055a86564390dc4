"""Write ``core/_sobol_directions.npz``: Joe & Kuo's Sobol' direction numbers, bit-packed.

``core.quasirandom.SobolEngine`` draws with the primitive polynomials and initial direction
numbers m_1..m_s of S. Joe and F. Y. Kuo's published table ``new-joe-kuo-6.21201`` (search
criterion D(6), 21201 dimensions), as PyTorch does. The first dimension is the van der Corput
sequence (every direction number 1) and is not in the table. This script packs the table into
the fewest bits that hold it:

- ``degree``: the degree s of each dimension's polynomial (0 for the first dimension);
- ``bits``: for each dimension in turn, the s-1 inner coefficients a of its polynomial
  x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1 (most significant first), then for i = 2..s the
  i-1 bits of (m_i - 1) / 2 (every m_i is odd and below 2^i, and m_1 is always 1).

``core/quasirandom.py`` unpacks it. Input: the published text file (columns ``d s a m_i``), or
an ``.npz`` holding the same table as arrays ``poly`` (21201) and ``vinit`` (21201 x 18), as SciPy
ships it in ``scipy/stats/_sobol_direction_numbers.npz``::

    python tools/gen_sobol_table.py new-joe-kuo-6.21201
    python tools/gen_sobol_table.py path/to/_sobol_direction_numbers.npz
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "core" / "_sobol_directions.npz"


def read_table(path: Path) -> tuple[list[int], list[list[int]]]:
    """The polynomials (as integers with their top and bottom bits) and m_1..m_s, dimension 1 first."""
    if path.suffix == ".npz":
        with np.load(path) as data:
            poly, vinit = data["poly"], data["vinit"]
        polys = [int(p) for p in poly]
        inits = [[int(m) for m in vinit[d, : polys[d].bit_length() - 1]] for d in range(len(polys))]
        return polys, inits
    polys, inits = [1], [[]]
    for line in path.read_text().splitlines()[1:]:
        if not line.strip():
            continue
        _, s, a, *m = (int(word) for word in line.split())
        polys.append((1 << s) | (a << 1) | 1)
        inits.append(m[:s])
    return polys, inits


def pack(polys: list[int], inits: list[list[int]]) -> dict[str, np.ndarray]:
    degree = np.array([p.bit_length() - 1 for p in polys], dtype=np.uint8)
    bits: list[int] = []
    for p, s, m in zip(polys, degree.tolist(), inits):
        assert len(m) == s and (s == 0 or m[0] == 1), "m_1 is 1"
        assert all(v % 2 == 1 and v < 2 ** (i + 1) for i, v in enumerate(m)), "m_i is odd and below 2^i"
        bits += [(p >> (s - 1 - k)) & 1 for k in range(s - 1)]
        for i in range(1, s):
            bits += [((m[i] >> 1) >> (i - 1 - k)) & 1 for k in range(i)]
    return {"degree": degree, "bits": np.packbits(np.array(bits, dtype=np.uint8))}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    tables = pack(*read_table(Path(argv[0])))
    np.savez_compressed(OUT, **tables)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(tables['degree'])} dimensions)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
