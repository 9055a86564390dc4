"""Large random initialisation and Adam on large tensors, core vs PyTorch CPU, side by side in one process.

    PYTHONPATH=. python benchmarks/bench_init.py [--repeat 5] [--threads 1]

Times building AlexNet (61M parameters), ``nn.Embedding(50000, 300)`` (``normal_`` on 15M float32),
``nn.Linear(4096, 4096)`` (``kaiming_uniform_``: ``uniform_`` on 16.7M), ``nn.Conv2d(256, 512, 3)``, ``trunc_normal_``
(``erfinv_`` on 2.4M, ViT and timm initialisation) and one Adam step on 4M float32 parameters and on 5.9M in 110
tensors, as medians over ``--repeat`` runs that alternate between
the two libraries so that machine load hits both alike. Prints wall seconds and core/torch ratios.
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

import core


def _adam(lib, sizes):
    """A function doing one Adam step on parameters of ``sizes`` (after a first step made the state)."""
    lib.manual_seed(0)
    params = [lib.nn.Parameter(lib.randn(s)) for s in sizes]
    for p in params:
        p.grad = lib.randn(p.shape)
    opt = lib.optim.Adam(params, lr=1e-3)
    opt.step()
    return opt.step


def _alexnet(nn):
    """AlexNet's layers (61M parameters), as torchvision and TorchLeet build them."""
    return nn.Sequential(
        nn.Conv2d(3, 64, 11, stride=4, padding=2), nn.ReLU(), nn.MaxPool2d(3, 2),
        nn.Conv2d(64, 192, 5, padding=2), nn.ReLU(), nn.MaxPool2d(3, 2),
        nn.Conv2d(192, 384, 3, padding=1), nn.ReLU(), nn.Conv2d(384, 256, 3, padding=1), nn.ReLU(),
        nn.Conv2d(256, 256, 3, padding=1), nn.ReLU(), nn.MaxPool2d(3, 2), nn.Flatten(),
        nn.Dropout(), nn.Linear(256 * 6 * 6, 4096), nn.ReLU(), nn.Dropout(), nn.Linear(4096, 4096), nn.ReLU(),
        nn.Linear(4096, 1000))


def _cases(lib):
    nn = lib.nn
    return {
        "AlexNet (61M parameters)": lambda: _alexnet(nn),
        "nn.Embedding(50000, 300) (normal_, 15M)": lambda: nn.Embedding(50000, 300),
        "nn.Linear(4096, 4096) (uniform_, 16.7M)": lambda: nn.Linear(4096, 4096),
        "nn.Conv2d(256, 512, 3) (uniform_, 1.2M)": lambda: nn.Conv2d(256, 512, 3),
        "trunc_normal_, ViT-B MLP (erfinv_, 2.4M)": lambda: lib.nn.init.trunc_normal_(
            lib.empty(3072, 768), std=0.02),
        "Adam step, 4M float32 in one tensor": _adam(lib, [(4_000_000,)]),
        "Adam step, 5.9M float32 in 110 tensors": _adam(lib, [(53_700,)] * 110),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    libs = {"core": core, "torch": torch}
    cases = {name: _cases(lib) for name, lib in libs.items()}
    for label in cases["core"]:
        times = {name: [] for name in libs}
        for _ in range(args.repeat):
            for name in libs:
                start = time.perf_counter()
                cases[name][label]()
                times[name].append(time.perf_counter() - start)
        ours, theirs = (statistics.median(times[name]) for name in libs)
        print(f"{label:42s} core {ours * 1e3:8.1f} ms   torch {theirs * 1e3:8.1f} ms   {ours / theirs:5.2f}x")


if __name__ == "__main__":
    main()
