"""Large-vocabulary softmax, log_softmax and cross_entropy (forward and backward), core vs PyTorch in one process.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_softmax.py [--repeat 7] [--profile]

Issue #23's rows for the kernels that reproduce PyTorch's float32 softmax bit for bit (SLEEF's ``expf_u10`` in
NumPy: ``core/_sleef.py``, ``core/_softmax_kernels.py``): logits of a word-level language model (600 x 5291),
of a GPT-2 vocabulary (64 x 50257) and of a character model's batch (32*128 x 65), over the last dim. Each row
is the median of ``--repeat`` runs alternating between core and torch (machine load hits both alike), in
milliseconds of this process's CPU time; torch runs on one thread. ``--profile`` prints cProfile's top entries
for core's cross_entropy forward and backward on each shape.
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

SHAPES = [(600, 5291), (64, 50257), (32 * 128, 65)]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    print(f"{'op':<24}{'shape':>14}{'core ms':>10}{'torch ms':>10}{'ratio':>8}")
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
        for name, fn in ours.items():
            fn()
            if name in theirs:
                theirs[name]()
            core_ms, torch_ms = [], []
            for _ in range(args.repeat):
                core_ms.append(_cpu_ms(fn))
                if name in theirs:
                    torch_ms.append(_cpu_ms(theirs[name]))
            c = statistics.median(core_ms)
            t = statistics.median(torch_ms) if torch_ms else float("nan")
            print(f"{name:<24}{'x'.join(map(str, shape)):>14}{c:>10.1f}{t:>10.1f}{c / t:>8.1f}")


if __name__ == "__main__":
    main()
