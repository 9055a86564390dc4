"""Autograd overhead: forward + backward of the chapter's ``z = (x * w).sum() + b`` on 2-element tensors.

Times ``core`` and (when installed) PyTorch side by side in one process and prints µs per
iteration (the median of several interleaved repeats) and the ratio. Time is this process's CPU
time (both libraries run single-threaded), so other load on a shared machine skews it less
than wall-clock time. Target: core at most 2x PyTorch.
Run: ``PYTHONPATH=. python benchmarks/bench_autograd.py [iterations] [repeats]``.
"""

from __future__ import annotations

import statistics
import sys
import time

import core


def step(lib, x, w, b) -> None:
    """One training-style iteration: forward, backward, and clearing the gradients."""
    z = (x * w).sum() + b
    z.backward()
    x.grad = None
    w.grad = None
    b.grad = None


def _leaves(lib):
    return (lib.tensor([2.0, 3.0], requires_grad=True), lib.tensor([1.5, -0.5], requires_grad=True),
            lib.tensor(0.1, requires_grad=True))


def _time_once(lib, leaves, iterations: int) -> float:
    start = time.process_time()
    for _ in range(iterations):
        step(lib, *leaves)
    return (time.process_time() - start) / iterations * 1e6


def time_libs(libs: dict, iterations: int, repeats: int) -> dict:
    """Median µs per iteration for each library; repeats are interleaved so load hits all alike."""
    leaves = {name: _leaves(lib) for name, lib in libs.items()}
    for name, lib in libs.items():
        _time_once(lib, leaves[name], min(iterations, 200))
    runs: dict = {name: [] for name in libs}
    for _ in range(repeats):
        for name, lib in libs.items():
            runs[name].append(_time_once(lib, leaves[name], iterations))
    return {name: statistics.median(r) for name, r in runs.items()}


def main(argv=None) -> dict:
    argv = sys.argv[1:] if argv is None else argv
    iterations = int(argv[0]) if argv else 2000
    repeats = int(argv[1]) if len(argv) > 1 else 9
    libs = {"core": core}
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        torch.set_num_threads(1)
        libs["torch"] = torch
    results = time_libs(libs, iterations, repeats)
    print("forward + backward of z = (x * w).sum() + b on 2-element tensors")
    print(f"{'library':<8} {'µs/iter':>9}")
    for name, us in results.items():
        print(f"{name:<8} {us:9.2f}")
    if "torch" in results:
        ratio = results["core"] / results["torch"]
        print(f"core / torch = {ratio:.2f}x (target <= 2x) {'ok' if ratio <= 2 else 'MISSED'}")
    return results


if __name__ == "__main__":
    main()
