"""Tensor-op timings, side by side in one process: core vs the NumPy floor vs PyTorch (when installed).

    python benchmarks/bench_tensor_ops.py [--repeats 7] [--tiny-loops 10000]

Four workloads: elementwise add of 16M float32, a 1024x1024 float32 matmul, ``randn`` of 1M
float32 (core draws PyTorch's numbers; NumPy's column is ``standard_normal``), and a loop of
``a + b`` on shape-(4,) tensors (per-op overhead). Each is timed ``--repeats`` times and the
median is reported, with the ratios core/NumPy and core/torch. Targets: large ops within 1.15x of
NumPy; ``randn`` within 3x of NumPy; per-op overhead on tiny tensors at most 2x PyTorch's. core and NumPy share the same
BLAS in this process; PyTorch brings its own, so its matmul column compares libraries, not just overhead.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import core

try:
    import torch
except ImportError:  # the torch column is left out
    torch = None

TARGETS = {"large": 1.15, "randn": 3.0, "tiny_vs_torch": 2.0}


def interleaved_medians(contenders: dict, repeats: int, inner: int = 1) -> dict:
    """Median seconds per call of each contender; every repeat times all of them back to back.

    Interleaving keeps a noisy, shared machine from favouring whichever library ran first.
    """
    times = {name: [] for name in contenders}
    for fn in contenders.values():  # warm-up (allocator, BLAS threads, caches)
        fn()
    for r in range(repeats):
        names = list(contenders)
        names = names[r % len(names):] + names[:r % len(names)]
        for name in names:
            fn = contenders[name]
            start = time.perf_counter()
            for _ in range(inner):
                fn()
            times[name].append((time.perf_counter() - start) / inner)
    return {name: statistics.median(ts) for name, ts in times.items()}


def _loop(add, a, b, loops: int):
    def run():
        for _ in range(loops):
            add(a, b)
    return run


def _add(x, y):
    return x + y


def _contenders(make):
    """``make(lib_name)`` -> a zero-argument callable, for numpy, core and (if installed) torch."""
    names = ["numpy", "core"] + (["torch"] if torch is not None else [])
    return {name: make(name) for name in names}


def bench_large(op, x, y, repeats: int) -> dict:
    wrap = {"numpy": lambda a: a, "core": core.from_numpy, "torch": lambda a: torch.from_numpy(a)}

    def make(name):
        a, b = wrap[name](x), wrap[name](y)
        return lambda: op(a, b)
    return interleaved_medians(_contenders(make), repeats)


def bench_randn(n: int, repeats: int) -> dict:
    """``randn(n)`` in core and torch (the same numbers after the same seed) against NumPy's ``standard_normal``."""
    rng = np.random.default_rng(0)
    make = {"numpy": lambda: lambda: rng.standard_normal(n, dtype=np.float32),
            "core": lambda: lambda: core.randn(n), "torch": lambda: lambda: torch.randn(n)}
    return interleaved_medians(_contenders(lambda name: make[name]()), repeats)


def bench_tiny(loops: int, repeats: int) -> dict:
    x = np.arange(4, dtype=np.float32)
    y = np.ones(4, dtype=np.float32)
    make_pair = {"numpy": lambda: (np.add, x.copy(), y.copy()),
                 "core": lambda: (_add, core.tensor(x), core.tensor(y)),
                 "torch": lambda: (_add, torch.tensor(x), torch.tensor(y))}

    def make(name):
        return _loop(*make_pair[name](), loops)
    per_run = interleaved_medians(_contenders(make), repeats)
    return {name: t / loops for name, t in per_run.items()}


def _fmt(seconds: float | None, unit: str) -> str:
    if seconds is None:
        return "-"
    scale = {"ms": 1e3, "us": 1e6}[unit]
    return f"{seconds * scale:.3f} {unit}" if unit == "us" else f"{seconds * scale:.2f} {unit}"


def report(results: dict) -> list:
    """Print the table; return (workload, ratio name, value, target) for every ratio that has a target."""
    has_torch = torch is not None
    head = f"{'workload':<34}{'core':>14}{'numpy':>14}" + (f"{'torch':>14}" if has_torch else "") + \
        f"{'core/numpy':>12}" + (f"{'core/torch':>12}" if has_torch else "")
    print(head)
    print("-" * len(head))
    checks = []
    for name, (res, unit, target_key) in results.items():
        row = f"{name:<34}{_fmt(res['core'], unit):>14}{_fmt(res['numpy'], unit):>14}"
        if has_torch:
            row += f"{_fmt(res.get('torch'), unit):>14}"
        r_np = res["core"] / res["numpy"]
        row += f"{r_np:>11.2f}x"
        if has_torch:
            r_t = res["core"] / res["torch"]
            row += f"{r_t:>11.2f}x"
        print(row)
        if target_key in ("large", "randn"):
            checks.append((name, "core/numpy", r_np, TARGETS[target_key]))
        elif has_torch:
            checks.append((name, "core/torch", res["core"] / res["torch"], TARGETS["tiny_vs_torch"]))
    return checks


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed runs per workload (median reported)")
    parser.add_argument("--tiny-loops", type=int, default=10_000, help="a + b calls per tiny-tensor run")
    parser.add_argument("--torch-threads", type=int, default=None,
                        help="torch.set_num_threads for the torch column (default: PyTorch's own)")
    args = parser.parse_args(argv)
    if torch is not None and args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    print(f"core vs NumPy {np.__version__}" + (f" vs PyTorch {torch.__version__}" if torch else " (PyTorch not "
          "installed: its column is skipped)") + f"; median of {args.repeats} runs\n")
    with core.no_grad():
        rng = np.random.default_rng(0)
        big = [rng.standard_normal(16 * 1024 * 1024, dtype=np.float32) for _ in range(2)]
        mats = [rng.standard_normal((1024, 1024), dtype=np.float32) for _ in range(2)]
        results = {
            "add, 16M float32": (bench_large(lambda a, b: a + b, *big, args.repeats), "ms", "large"),
            "matmul, 1024x1024 float32": (bench_large(lambda a, b: a @ b, *mats, args.repeats), "ms", "large"),
            "randn, 1M float32": (bench_randn(1_000_000, args.repeats), "ms", "randn"),
            f"a + b, shape (4,), per op (x{args.tiny_loops})": (bench_tiny(args.tiny_loops, args.repeats), "us",
                                                                "tiny"),
        }
    checks = report(results)
    print()
    for name, what, value, target in checks:
        verdict = "ok" if value <= target else "MISSED"
        print(f"{verdict:>6}  {name}: {what} = {value:.2f}x (target <= {target:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
