"""Large-vocabulary softmax, log_softmax and cross_entropy (forward and backward), core vs PyTorch in one process.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_softmax.py [--repeat 7] [--profile] [--threads N]

Issue #23's rows for the kernels that reproduce PyTorch's float32 softmax bit for bit (SLEEF's ``expf_u10`` in
NumPy: ``core/_sleef.py``, ``core/_softmax_kernels.py``): logits of a word-level language model (600 x 5291),
of a GPT-2 vocabulary (64 x 50257) and of a character model's batch (32*128 x 65), over the last dim, and issue
#19's 4096 x 4096 (16M elements). Each row is the median of ``--repeat`` runs alternating between core, torch and
plain NumPy (max, subtract, ``np.exp``, sum and divide in float32: the floor, not torch's bits; forward rows only),
in milliseconds of this process's CPU time; torch runs on one thread. ``--threads N``: core and torch on N threads
(core shares SLEEF's exp blocks among them), in milliseconds of wall time instead. ``--profile`` prints
cProfile's top entries for core's cross_entropy forward and backward on each shape.
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

SHAPES = [(600, 5291), (64, 50257), (32 * 128, 65), (4096, 4096)]


def _numpy_cases(logits) -> dict:
    def softmax():
        e = np.exp(logits - logits.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    def log_softmax():
        s = logits - logits.max(-1, keepdims=True)
        return s - np.log(np.exp(s).sum(-1, keepdims=True))

    return {"softmax": softmax, "log_softmax": log_softmax}


def _cases(lib, logits, target):
    functional = lib.nn.functional

    def backward(f):
        def run():
            x = lib.tensor(logits, requires_grad=True)
            f(x).backward()
        return run

    return {
        "softmax": lambda: lib.softmax(lib.tensor(logits), -1),
        "log_softmax": lambda: lib.log_softmax(lib.tensor(logits), -1),
        "cross_entropy": lambda: functional.cross_entropy(lib.tensor(logits), lib.tensor(target)),
        "softmax fwd+bwd": backward(lambda x: (lib.softmax(x, -1) * lib.tensor(logits)).sum()),
        "log_softmax fwd+bwd": backward(lambda x: (lib.log_softmax(x, -1) * lib.tensor(logits)).sum()),
        "cross_entropy fwd+bwd": backward(lambda x: functional.cross_entropy(x, lib.tensor(target))),
    }


def _cpu_ms(fn) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1e3


def _wall_ms(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(args.threads)
    except ImportError:
        torch = None
    core.set_num_threads(args.threads)
    timed = _cpu_ms if args.threads == 1 else _wall_ms
    rng = np.random.default_rng(0)
    print(f"{'op':<24}{'shape':>14}{'core ms':>10}{'torch ms':>10}{'numpy ms':>10}{'/torch':>8}{'/numpy':>8}")
    for shape in SHAPES:
        logits = (rng.standard_normal(shape) * 3).astype(np.float32)
        target = rng.integers(0, shape[1], shape[0])
        if args.profile:
            import cProfile
            import pstats
            cases = _cases(core, logits, target)
            profile = cProfile.Profile()
            profile.runcall(cases["cross_entropy fwd+bwd"])
            print(f"--- cross_entropy fwd+bwd {shape}")
            pstats.Stats(profile).sort_stats("tottime").print_stats(12)
            continue
        ours = _cases(core, logits, target)
        theirs = _cases(torch, logits, target) if torch else {}
        floor = _numpy_cases(logits)
        for name, fn in ours.items():
            runs = [fn] + [cases[name] for cases in (theirs, floor) if name in cases]
            for run in runs:
                run()
            times = [[] for _ in runs]
            for _ in range(args.repeat):
                for run, ms in zip(runs, times):
                    ms.append(timed(run))
            c, t, n = [statistics.median(ms) for ms in times] + [float("nan")] * (3 - len(runs))
            if name not in theirs:  # (no torch: the NumPy column moves up)
                t, n = float("nan"), t
            print(f"{name:<24}{'x'.join(map(str, shape)):>14}{c:>10.1f}{t:>10.1f}{n:>10.1f}{c / t:>8.1f}{c / n:>8.1f}")


if __name__ == "__main__":
    main()
