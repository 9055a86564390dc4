"""Small einsums as einops-based models call them in every layer, core vs PyTorch vs NumPy in one process.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_einsum.py [--repeat 7] [--calls 200] [--profile]

Issue #19's rows: attention scores and weighted values of a small transformer (``bhid,bhjd->bhij``,
``bhij,bhjd->bhid``), a per-token projection (``bnd,de->bne``), an outer product (``i,j->ij``), a batched
trace/diagonal (``bii->b``), a transpose (``bij->bji``) and a three-operand contraction (``ij,jk,kl->il``). Each
row is the median over ``--repeat`` runs, alternating between the libraries, of ``--calls`` calls, in µs of this
process's CPU time per call; torch runs on one thread; NumPy is ``np.einsum`` on the same arrays (no autograd, no
PyTorch strides or sums: the floor). ``--profile`` prints cProfile's top entries for core's first row.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # read when NumPy loads
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import core  # noqa: E402

CASES = [
    ("bhid,bhjd->bhij", [(8, 4, 16, 32), (8, 4, 16, 32)]),
    ("bhij,bhjd->bhid", [(8, 4, 16, 16), (8, 4, 16, 32)]),
    ("bnd,de->bne", [(8, 16, 64), (64, 64)]),
    ("i,j->ij", [(64,), (64,)]),
    ("bii->b", [(8, 16, 16)]),
    ("bij->bji", [(8, 16, 32)]),
    ("ij,jk,kl->il", [(16, 32), (32, 32), (32, 16)]),
]


def _runs(equation: str, arrays: list, torch) -> dict:
    """One call of each library's einsum on ``arrays`` (core also on leaves that require grad: the graph too)."""
    ours = [core.tensor(a) for a in arrays]
    grads = [core.tensor(a, requires_grad=True) for a in arrays]
    runs = {"core": lambda: core.einsum(equation, *ours), "grad": lambda: core.einsum(equation, *grads),
            "numpy": lambda: np.einsum(equation, *arrays)}
    if torch is not None:
        theirs = [torch.tensor(a) for a in arrays]
        runs["torch"] = lambda: torch.einsum(equation, *theirs)
    return runs


def _cpu_us(fn, calls: int) -> float:
    start = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    print(f"{'equation':<18}{'core µs':>10}{'grad µs':>10}{'torch µs':>10}{'numpy µs':>10}{'/torch':>8}{'/numpy':>8}")
    for equation, shapes in CASES:
        arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        runs = _runs(equation, arrays, torch)
        if args.profile:
            import cProfile
            import pstats
            profile = cProfile.Profile()
            profile.runcall(_cpu_us, runs["core"], args.calls)
            print(f"--- {equation}")
            pstats.Stats(profile).sort_stats("tottime").print_stats(15)
            return
        times = {name: [] for name in runs}
        for fn in runs.values():
            fn()
        for _ in range(args.repeat):
            for name, fn in runs.items():
                times[name].append(_cpu_us(fn, args.calls))
        med = {name: statistics.median(t) for name, t in times.items()}
        t = med.get("torch", float("nan"))
        print(f"{equation:<18}{med['core']:>10.1f}{med['grad']:>10.1f}{t:>10.1f}{med['numpy']:>10.1f}"
              f"{med['core'] / t:>8.1f}{med['core'] / med['numpy']:>8.1f}")


if __name__ == "__main__":
    main()
