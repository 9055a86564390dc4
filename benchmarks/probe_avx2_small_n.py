"""Probe: MKL's float32 order for few columns past LIMIT and for ``bmm`` (its batched sgemm) on an AVX2 CPU.

    PYTHONPATH=. python benchmarks/probe_avx2_small_n.py [--seed 0] [--count 200]

Each table compares torch's bits, element for element, with candidate orders computed in NumPy (the fraction of equal
elements): ``mm`` the per-matrix ``torch.mm``, ``chain`` each product rounded then added in order of k, ``fma`` the
in-order FMA chain, ``rows`` ``core._small_gemm_chain._remainder_rows`` (the remainder kernel's peeled columns by the
row's index), ``phase`` ``core._small_gemm_zen3.remainder_rows`` at the result's address (the peeled columns by the
output row's address mod 16 bytes), ``route`` core's route, ``numpy`` NumPy's matmul.

What it measured on an AMD EPYC Zen 3 (AVX2, torch 2.13 with MKL 2024.2, 2026-12-07):

1. ``a @ b`` of 5, 6, 7, 9, 10 or 11 columns is the remainder kernel past ``LIMIT`` too (``rows`` 100% up to 42M
   multiply-adds), where core kept NumPy's GEMM (a (100, 100) @ (100, 10) product: 445 of 1000 elements differed).
2. ``torch.bmm`` is not ``torch.mm`` per matrix for those widths (``mm`` 85-95%): matrix j's result starts at j M N
   floats, and the peeled columns follow the row's address (``phase`` 100%: each row of C starting p = 1..3 floats past
   16 bytes takes its first 4 - p columns in blocks of 4 when 4 or more columns are left). One row or one column per
   matrix is that kernel too (``mm`` takes gemv there); M >= 4 with N >= 12 is the blocked FMA kernel on one thread.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import torch

from core import _small_gemm_chain, _small_gemm_zen3


def chain(a, b):
    """Each product rounded, then added in order of k from +0: an (M, N) float32 array."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(a.shape[1]):
        acc = acc + a[:, k, None] * b[k]
    return acc


def fma(a, b):
    """The in-order FMA chain from +0, exactly (float64 products and sums are exact here up to the rounding of each
    step to float32 only when no double rounding occurs: a candidate, not a reference)."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float64)
    for k in range(a.shape[1]):
        acc = (acc + a[:, k, None].astype(np.float64) * b[k]).astype(np.float32).astype(np.float64)
    return acc.astype(np.float32)


def equal(x, y) -> float:
    return float((np.asarray(x).view(np.int32) == np.asarray(y).view(np.int32)).mean())


def past_limit(rng) -> None:
    """``mm`` of few columns past ``LIMIT``: torch against the remainder kernel and NumPy."""
    print("M     K     N   rows  numpy")
    for m, k, n in ((100, 100, 10), (31, 387, 6), (64, 784, 10), (256, 784, 10), (1000, 100, 5), (200, 2000, 7),
                    (64, 3000, 9), (500, 500, 11), (2, 20000, 10), (3000, 50, 6)):
        a, b = (rng.standard_normal(s).astype(np.float32) for s in ((m, k), (k, n)))
        want = (torch.from_numpy(a) @ torch.from_numpy(b)).numpy()
        print(f"{m:<5} {k:<5} {n:<3} {equal(_small_gemm_chain._remainder_rows(a, b, None), want):.2f}  "
              f"{equal(a @ b, want):.2f}")


def batched(rng, count: int) -> None:
    """``bmm`` of random stacks: the candidates, and the worst fraction of core's route over ``count`` stacks."""
    print("B  M   K    N   mm    chain fma   rows  phase route numpy")
    for batch, m, k, n in ((3, 37, 166, 9), (3, 15, 333, 5), (3, 63, 58, 7), (3, 25, 114, 11), (4, 1, 200, 46),
                           (3, 50, 161, 1), (3, 3, 172, 33), (4, 8, 100, 16)):
        a, b = rng.standard_normal((batch, m, k)).astype(np.float32), rng.standard_normal((batch, k, n)).astype(
            np.float32)
        want = torch.bmm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        mm = np.stack([(torch.from_numpy(x) @ torch.from_numpy(y)).numpy() for x, y in zip(a, b)])
        rows = np.stack([_small_gemm_chain._remainder_rows(x, y, None) if m > 1 and n > 4 and n % 4 else chain(x, y)
                     for x, y in zip(a, b)])
        phase = np.stack([_small_gemm_zen3.remainder_rows(x, y, None, j * m * n % 4)
                          for j, (x, y) in enumerate(zip(a, b))])
        row = [equal(mm, want), equal(np.stack([chain(x, y) for x, y in zip(a, b)]), want),
               equal(np.stack([fma(x, y) for x, y in zip(a, b)]), want), equal(rows, want), equal(phase, want),
               equal(_small_gemm_zen3.gemm_batch(a, b), want), equal(a @ b, want)]
        print(f"{batch:<2} {m:<3} {k:<4} {n:<3} " + " ".join(f"{v:.2f} " for v in row))
    worst = 1.0
    for i in range(count):
        m, n, k, batch = (int(rng.integers(1, 65)), int(rng.integers(1, 65)), int(rng.integers(1, 513)),
                          int(rng.integers(2, 5)))
        if m * n * k < 400:
            continue  # (PyTorch's own small loop)
        a, b = rng.standard_normal((batch, m, k)).astype(np.float32), rng.standard_normal((batch, k, n)).astype(
            np.float32)
        if i % 3 == 1:
            a = np.ascontiguousarray(a.transpose(0, 2, 1)).transpose(0, 2, 1)
        elif i % 3 == 2:
            b = np.ascontiguousarray(b.transpose(0, 2, 1)).transpose(0, 2, 1)
        got = _small_gemm_zen3.gemm_batch(a, b)
        worst = min(worst, 0.0 if got is None else equal(got, torch.bmm(torch.from_numpy(a), torch.from_numpy(b))))
    print(f"{count} random stacks, threads {torch.get_num_threads()}: worst fraction equal to the route {worst:.3f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    past_limit(rng)
    for threads in (1, 2):
        torch.set_num_threads(threads)
        batched(rng, args.count)


if __name__ == "__main__":
    sys.exit(main())
