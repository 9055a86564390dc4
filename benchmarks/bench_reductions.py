"""Reductions that add in PyTorch's order (issue #23): core vs NumPy's own sum vs PyTorch, side by side.

    PYTHONPATH=. python benchmarks/bench_reductions.py [--repeat 9] [--threads 1]

Each row times one call as the median of ``--repeat`` rounds that alternate between core, the NumPy floor
(the same reduction in NumPy's pairwise order, which core may not use: it differs from torch's in the last
bits) and torch (when installed), so machine load hits all three alike. core's sums equal torch's bit for bit
(``core._cascade_sum``, ``core._norm_order``); the ratios say what that order costs on top of NumPy's sum.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

_THREADS = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv else "1"
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # read when NumPy loads
    os.environ.setdefault(_var, _THREADS)

import numpy as np  # noqa: E402

import core  # noqa: E402


def _cases():
    """(name, input shape, op on a tensor library, the NumPy floor on an array[, dtype: float32 by default])."""
    return [
        ("x.sum()", (512, 512), lambda L, x: x.sum(), lambda a: a.sum()),
        ("x.sum(-1)", (512, 512), lambda L, x: x.sum(-1), lambda a: a.sum(-1)),
        ("x.mean(-1)", (512, 512), lambda L, x: x.mean(-1), lambda a: a.mean(-1)),
        ("x.norm()", (512, 512), lambda L, x: x.norm(), lambda a: np.sqrt(np.dot(a.ravel(), a.ravel()))),
        ("x.sum(0)", (512, 512), lambda L, x: x.sum(0), lambda a: a.sum(0)),
        ("x.sum((0, 2))", (64, 64, 64), lambda L, x: x.sum((0, 2)), lambda a: a.sum((0, 2))),
        ("layer_norm", (512, 512), lambda L, x: L.nn.functional.layer_norm(x, (512,)),
         lambda a: (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-5)),
        ("mse_loss", (512, 512), lambda L, x: L.nn.functional.mse_loss(x, x * 0.5),
         lambda a: np.mean((a - a * 0.5) ** 2)),
        ("x.sum() 4M", (1 << 22,), lambda L, x: x.sum(), lambda a: a.sum()),
        ("x.sum() 200", (200,), lambda L, x: x.sum(), lambda a: a.sum()),
        ("x.mean() 64", (64,), lambda L, x: x.mean(), lambda a: a.mean()),
        ("x.sum(0) 200x8", (200, 8), lambda L, x: x.sum(0), lambda a: a.sum(0)),
        ("x.sum(-1) 64x33", (64, 33), lambda L, x: x.sum(-1), lambda a: a.sum(-1)),
        ("x.sum() float64", (512, 512), lambda L, x: x.sum(), lambda a: a.sum(), np.float64),
        ("x.sum(0) float16", (512, 512), lambda L, x: x.sum(0), lambda a: a.sum(0), np.float16),
        ("norm(-1) 1Mx3 f64", (1 << 20, 3), lambda L, x: x.norm(dim=-1), lambda a: np.sqrt((a * a).sum(-1)),
         np.float64),  # all fused multiply-adds: core._norm_order._square_plus
        ("cdist 1000x1000x3", (2000, 3),
         lambda L, x: L.cdist(x[:1000], x[1000:], compute_mode="donot_use_mm_for_euclid_dist"),
         lambda a: np.sqrt(((a[:1000, None] - a[None, 1000:]) ** 2).sum(-1)), np.float64),
        ("x.norm() 1M f64", (1 << 20,), lambda L, x: x.norm(), lambda a: np.sqrt(np.dot(a, a)), np.float64),
        ("softmax(-1)", (512, 512), lambda L, x: L.softmax(x, -1),
         lambda a: np.exp(a - a.max(-1, keepdims=True)) / np.exp(a - a.max(-1, keepdims=True)).sum(-1, keepdims=True)),
    ]


def _per_call(fn, budget: float = 0.02) -> float:
    """Seconds per call of ``fn``, over as many calls as fit in about ``budget`` seconds."""
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    n = max(1, int(budget / once))
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n


def main() -> None:
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 9
    try:
        import torch
        torch.set_num_threads(int(_THREADS))
    except ImportError:
        torch = None
    core.set_num_threads(int(_THREADS))
    rng = np.random.default_rng(0)
    print(f"{'case':18s} {'core ms':>9s} {'numpy ms':>9s} {'torch ms':>9s} {'core/numpy':>11s} {'core/torch':>11s}")
    for name, shape, op, floor, *dtype in _cases():
        a = rng.standard_normal(shape).astype(dtype[0] if dtype else np.float32)
        runs = {"core": lambda op=op, t=core.tensor(a): op(core, t), "numpy": lambda floor=floor, a=a: floor(a)}
        if torch is not None:
            runs["torch"] = lambda op=op, t=torch.tensor(a): op(torch, t)
        times: dict[str, list[float]] = {k: [] for k in runs}
        for _ in range(repeat):
            for key, fn in runs.items():
                times[key].append(_per_call(fn))
        med = {k: statistics.median(v) for k, v in times.items()}
        t = med.get("torch", float("nan"))
        print(f"{name:18s} {med['core'] * 1e3:9.3f} {med['numpy'] * 1e3:9.3f} {t * 1e3:9.3f} "
              f"{med['core'] / med['numpy']:10.1f}x {med['core'] / t:10.1f}x")


if __name__ == "__main__":
    main()
