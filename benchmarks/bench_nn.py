"""The chapter's conv2d, core vs PyTorch CPU, side by side in one process.

    PYTHONPATH=. python benchmarks/bench_nn.py [--repeat 5] [--batch 32] [--threads 1]

Times ``conv2d(randn(N,3,224,224), randn(64,3,7,7), stride=2, padding=3)`` forward, and forward plus
backward (input and weight gradients), as medians over ``--repeat`` runs that alternate between the
two libraries so that machine load hits both alike. Prints wall and CPU seconds and core/torch ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

if "--threads" in sys.argv:  # BLAS reads its thread count at import: set it before NumPy loads
    _n = sys.argv[sys.argv.index("--threads") + 1]
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = _n

import numpy as np

import core


def _time(fn) -> tuple:
    """(wall seconds, CPU seconds of this process): on a shared machine the CPU time is the fairer figure."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def _cases(lib, x, w):
    f = lib.nn.functional

    def forward():
        with lib.no_grad():
            f.conv2d(x, w, stride=2, padding=3)

    def forward_backward():
        xs = x.detach().requires_grad_(True)
        ws = w.detach().requires_grad_(True)
        f.conv2d(xs, ws, stride=2, padding=3).sum().backward()

    return {"forward": forward, "forward+backward": forward_backward}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--threads", type=int, default=None,
                        help="BLAS/OpenMP threads for both libraries (1 is the fair choice on a loaded machine, "
                             "where spinning BLAS threads inflate the timings)")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    xa = rng.standard_normal((args.batch, 3, 224, 224)).astype(np.float32)
    wa = rng.standard_normal((64, 3, 7, 7)).astype(np.float32)
    libs = {"core": _cases(core, core.tensor(xa), core.tensor(wa))}
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        if args.threads:
            torch.set_num_threads(args.threads)
        libs["torch"] = _cases(torch, torch.from_numpy(xa), torch.from_numpy(wa))
        print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    print(f"conv2d(randn({args.batch},3,224,224), randn(64,3,7,7), stride=2, padding=3), median of {args.repeat}")
    for case in ("forward", "forward+backward"):
        times = {name: [] for name in libs}
        for name in libs:  # warm-up
            libs[name][case]()
        for _ in range(args.repeat):
            for name in libs:
                times[name].append(_time(libs[name][case]))
        for kind, k in (("wall", 0), ("cpu", 1)):
            med = {name: statistics.median(t[k] for t in ts) for name, ts in times.items()}
            line = f"{case:>17} ({kind:>4}): core {med['core']:.3f} s"
            if "torch" in med:
                line += f"   torch {med['torch']:.3f} s   ratio {med['core'] / med['torch']:.2f}x"
            print(line)


if __name__ == "__main__":
    main()
