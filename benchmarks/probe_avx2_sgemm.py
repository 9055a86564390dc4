"""Probe: the order MKL's float32 sgemm adds in (torch.mm, M >= 4, N >= 12) and whether NumPy's GEMM can give it.

    PYTHONPATH=. python benchmarks/probe_avx2_sgemm.py [--seed 0] [--random 200]

Every candidate order is computed exactly in NumPy (``chain_fma``: each step ``a * b + acc`` rounded once, from
float64 products and a round-to-odd float64 sum; ``chain_mul``: each product rounded, then added) and compared with
``torch.mm`` / ``torch.addmm`` element for element; the tables print the fraction of equal elements.

What it measured on an AMD EPYC Zen 3 (AVX2, torch 2.13 with MKL 2024.2, NumPy 2.4 with OpenBLAS 0.3.31 (Haswell
kernels), 2026-12-07):

1. **MKL's order is the Zen 4's** (``core._small_gemm._fma_blocks``): each output an in-order FMA chain over a block
   of k from +0, K <= 192 one block, 192 < K <= 384 two halves of K // 2 (an odd K's last product rounded and added
   after them), K > 384 blocks of 192; the blocks added in order, from addmm's bias. 100% of elements for every
   shape below, the three layouts (``a @ b``, ``x @ W.T``, ``g.T @ x``), with and without a bias, one and two
   threads. Ruled out (each under 60% of elements for K >= 8): the chain without FMA; 2, 4 or 8 interleaved FMA
   accumulators added in order, in halves or in pairs; blocks of 128, 256, 384 or 512. So "6x16 micro-tiles whose
   edge tiles add in another order" (the previous lead) was NumPy's side, not MKL's.
2. **NumPy's OpenBLAS is not every block's chain here**: its Haswell sgemm kernel (``sgemm_kernel_8x4_haswell_2.c``)
   keeps two accumulators (even and odd k, added at the end) in its 8-column edge tiles: ``COMPUTE_H_m8n6`` (the first
   8 columns of the first 6 rows of each 12), ``COMPUTE_T_m8n6`` (the last 8 columns of one half) and
   ``COMPUTE_m8n4`` (rows in groups of 4 past the 12s), within panels of ``SGEMM_DEFAULT_P`` = 320 columns; its
   other tiles (16x6, and 8, 4, 2, 1 columns by 12) are the chain. The table's ``numpy`` column shows it (the
   rows' and columns' map for one shape with ``--map``). ``core._openblas_chains`` pads the operands so that those
   tiles hold zeros: its column is 100% on one thread (OpenBLAS's threads cut their own panels).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import torch

from core import _openblas_chains


def chain_fma(a, b, ks, start=None):
    """In-order FMA chains over the k in ``ks`` from ``start`` (or +0), exactly: an (M, N) float32 array."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float64) if start is None else \
        np.array(np.broadcast_to(start, (a.shape[0], b.shape[1])), np.float64)
    for k in ks:
        p = a[:, k, None].astype(np.float64) * b[k].astype(np.float64)
        s = p + acc
        back = s - p
        err = (p - (s - back)) + (acc - back)
        bits = s.view(np.int64)
        even = (err != 0) & ((bits & 1) == 0)
        acc = np.where(even, bits + np.where((err > 0) == (s > 0), 1, -1), bits).view(np.float64)
        acc = acc.astype(np.float32).astype(np.float64)
    return acc.astype(np.float32)


def chain_mul(a, b, ks):
    """Each product rounded, then added in order of k from +0."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in ks:
        acc = acc + a[:, k, None] * b[k]
    return acc


def lanes(a, b, count, fold):
    """``count`` interleaved FMA accumulators (k mod count), added in order ("seq") or in halves ("half")."""
    parts = [chain_fma(a, b, range(j, a.shape[1], count)) for j in range(count)]
    while len(parts) > 1:
        parts = [parts[0] + parts[1]] + parts[2:] if fold == "seq" else \
            [parts[i] + parts[i + len(parts) // 2] for i in range(len(parts) // 2)]
    return parts[0]


def blocked(a, b, size, bias=None):
    """FMA chains over blocks of ``size`` k from k = 0, added in order to ``bias`` (or the first block)."""
    out = None if bias is None else np.broadcast_to(bias, (a.shape[0], b.shape[1])).astype(np.float32)
    for s in range(0, a.shape[1], size):
        part = chain_fma(a, b, range(s, min(s + size, a.shape[1])))
        out = part if out is None else out + part
    return out


def mkl_rule(a, b, bias=None):
    """``core._small_gemm._fma_blocks``'s order (module docstring), computed exactly."""
    k = a.shape[1]
    if k <= 192:
        blocks, last = [(0, k)], None
    elif k <= 384:
        blocks, last = [(0, k // 2), (k // 2, k // 2 * 2)], (k - 1 if k % 2 else None)
    else:
        blocks, last = [(s, min(s + 192, k)) for s in range(0, k, 192)], None
    out = None if bias is None else np.broadcast_to(bias, (a.shape[0], b.shape[1])).astype(np.float32)
    for s, e in blocks:
        part = chain_fma(a, b, range(s, e))
        out = part if out is None else out + part
    if last is not None:
        out = out + a[:, last, None] * b[last]
    return out


def equal(x, y) -> float:
    return float((np.asarray(x).view(np.int32) == np.asarray(y).view(np.int32)).mean())


def operands(rng, m, k, n, layout):
    """float32 ``a`` (M, K) and ``b`` (K, N) laid out as torch's GEMM sees them for ``layout``."""
    a = rng.standard_normal((k, m) if layout == "g.T @ x" else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if layout == "x @ W.T" else (k, n)).astype(np.float32)
    return (a.T if layout == "g.T @ x" else a), (b.T if layout == "x @ W.T" else b)


def torch_product(a, b, bias=None):
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    return (ta @ tb if bias is None else torch.addmm(torch.from_numpy(bias), ta, tb)).numpy()


def candidates_table(rng) -> None:
    """One variable at a time: K across the block edges, M and N around the kernels' tile sizes."""
    print("M    K     N    mkl_rule fma   mul   2seq  4half 8seq  blk128 blk256 numpy padded")
    shapes = [(6, k, 16) for k in (2, 5, 8, 17, 64, 100, 191, 192, 193, 256, 257, 300, 384, 385, 512, 1000)]
    shapes += [(m, 100, n) for m, n in ((4, 12), (5, 12), (7, 17), (8, 24), (12, 48), (13, 33), (64, 256))]
    for m, k, n in shapes:
        a, b = operands(rng, m, k, n, "a @ b")
        want = torch_product(a, b)
        row = [equal(mkl_rule(a, b), want), equal(chain_fma(a, b, range(k)), want), equal(chain_mul(a, b, range(k)),
               want), equal(lanes(a, b, 2, "seq"), want), equal(lanes(a, b, 4, "half"), want),
               equal(lanes(a, b, 8, "seq"), want), equal(blocked(a, b, 128), want), equal(blocked(a, b, 256), want)]
        one = chain_fma(a, b, range(min(k, 192)))  # (NumPy's GEMM and the padded route against one block's chain)
        row += [equal(np.asfortranarray(a[:, :192]) @ b[:192], one),
                equal(_openblas_chains.fma_blocks(a[:, :192], b[:192], None, [(0, min(k, 192))], None), one)]
        print(f"{m:<4} {k:<5} {n:<4} " + " ".join(f"{v:5.2f} " for v in row))


def random_products(rng, count: int, threads: int) -> None:
    """``count`` random products against ``mkl_rule``: the three layouts, with and without a bias."""
    torch.set_num_threads(threads)
    worst, layouts = 1.0, ["a @ b", "x @ W.T", "g.T @ x"]
    for i in range(count):
        m, n, k = int(rng.integers(4, 40)), int(rng.integers(12, 80)), int(rng.integers(1, 900))
        if threads > 1 and 4 < m < 12 and m % 4:
            m = 12  # (two threads: MKL hands such rows to its few-row kernels, core._small_gemm._split_blocks)
        a, b = operands(rng, m, k, n, layouts[i % 3])
        bias = rng.standard_normal(n).astype(np.float32) if i % 2 else None
        worst = min(worst, equal(mkl_rule(a, b, bias), torch_product(a, b, bias)))
    print(f"{count} random products on {threads} thread(s): worst fraction equal to the rule {worst:.3f}")


def tile_map(rng, m=24, n=24, k=64) -> None:
    """Which elements of NumPy's product are the chain (1), two even/odd accumulators (2), both (3) or neither (0)."""
    a, b = operands(rng, m, k, n, "a @ b")
    got = (np.asfortranarray(a) @ b).view(np.int32)
    one = chain_fma(a, b, range(k)).view(np.int32)
    two = (chain_fma(a, b, range(0, k, 2)) + chain_fma(a, b, range(1, k, 2))).view(np.int32)
    print(f"NumPy's ({m}, {k}) @ ({k}, {n}): 1 chain, 2 even + odd accumulators")
    print((got == one) * 1 + (got == two) * 2)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random", type=int, default=200)
    parser.add_argument("--map", action="store_true", help="print NumPy's tile map of one product")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    np.set_printoptions(linewidth=200)
    torch.set_num_threads(1)
    candidates_table(rng)
    for threads in (1, 2):
        random_products(rng, args.random, threads)
    if args.map:
        tile_map(rng)


if __name__ == "__main__":
    sys.exit(main())
