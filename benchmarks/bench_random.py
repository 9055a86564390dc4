"""Random number generation on large tensors: core vs NumPy's generator vs PyTorch, side by side in one process.

    PYTHONPATH=. python benchmarks/bench_random.py [--repeat 7] [--sizes 10000,100000,1000000,10000000]
                                                   [--only randperm] [--cpu]

Times ``randperm(n)`` (from 1e4: a small dataset's ``DataLoader`` shuffle, which core draws in closed form below
2**16), ``rand(n)``, ``randn(n)`` (float32 and float64), ``empty(n).normal_()``,
``empty(n).uniform_()`` and ``randint(0, 10, (n,))`` for each size: core (PyTorch's values bit for bit), NumPy's
``Generator(MT19937)`` doing the nearest thing (its own algorithms, so other values: the floor of a vectorised
NumPy sampler) and PyTorch on one thread. The libraries alternate within each repeat, so that machine load hits
them alike; medians are printed with core/torch ratios and the target of issue #19/#23 (2x, randperm 3x).
``--cpu`` times the process's CPU time instead of wall time (every library runs on one thread here), which a
machine busy with other work disturbs much less.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import core


def _workloads(lib, n: int) -> dict:
    """The timed calls for ``lib`` (core or torch) at size ``n``."""
    return {
        "randperm": lambda: lib.randperm(n),
        "rand float32": lambda: lib.rand(n),
        "randn float32": lambda: lib.randn(n),
        "randn float64": lambda: lib.randn(n, dtype=lib.float64),
        "empty(n).normal_()": lambda: lib.empty(n).normal_(),
        "empty(n).uniform_()": lambda: lib.empty(n).uniform_(),
        "randint(0, 10, (n,))": lambda: lib.randint(0, 10, (n,)),
    }


def _numpy_workloads(n: int) -> dict:
    """NumPy's nearest equivalents, with an MT19937 bit generator like PyTorch's."""
    rng = np.random.Generator(np.random.MT19937(0))
    return {
        "randperm": lambda: rng.permutation(n),
        "rand float32": lambda: rng.random(n, dtype=np.float32),
        "randn float32": lambda: rng.standard_normal(n, dtype=np.float32),
        "randn float64": lambda: rng.standard_normal(n),
        "empty(n).normal_()": lambda: rng.standard_normal(n, dtype=np.float32),
        "empty(n).uniform_()": lambda: rng.random(n, dtype=np.float32),
        "randint(0, 10, (n,))": lambda: rng.integers(0, 10, n),
    }


_TARGET = {"randperm": 3.0}  # else 2.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--sizes", default="10000,100000,1000000,10000000")
    parser.add_argument("--only", default=None, help="run only the workloads whose name contains this")
    parser.add_argument("--cpu", action="store_true", help="CPU time of the process instead of wall time")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    import torch

    torch.set_num_threads(1)
    print(f"load average {os.getloadavg()[0]:.1f}; medians of {args.repeat} interleaved runs, ms of "
          f"{'CPU' if args.cpu else 'wall'} time")
    print(f"{'workload':24s} {'n':>9s} {'core':>9s} {'NumPy':>9s} {'torch':>9s} {'core/torch':>10s}  target")
    for n in (int(s) for s in args.sizes.split(",")):
        libs = {"core": _workloads(core, n), "NumPy": _numpy_workloads(n), "torch": _workloads(torch, n)}
        for label in libs["core"]:
            if args.only and args.only not in label:
                continue
            times: dict = {name: [] for name in libs}
            for _ in range(args.repeat):
                for name, calls in libs.items():
                    start = clock()
                    calls[label]()
                    times[name].append(clock() - start)
            ours, floor, theirs = (statistics.median(times[name]) * 1e3 for name in libs)
            target = _TARGET.get(label, 2.0)
            verdict = "ok" if ours <= target * theirs else "MISSED"
            print(f"{label:24s} {n:9d} {ours:9.2f} {floor:9.2f} {theirs:9.2f} {ours / theirs:9.2f}x  "
                  f"{target:.0f}x {verdict}")


if __name__ == "__main__":
    main()
