"""AlexNet's and VGG's conv and max-pool layers on one 224x224 image, core vs PyTorch in one process.

    PYTHONPATH=. python benchmarks/bench_conv_layers.py [--repeat 5] [--core-only]

Each layer runs three ways: forward under ``no_grad``, forward with the weight requiring grad, and
backward (the forward's graph, gradient of the sum). Columns: core with its defaults, PyTorch on one
thread, PyTorch on every thread; medians of ``--repeat`` interleaved wall-clock runs after one warm-up.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import core

LAYERS = [  # name, input shape, module builder
    ("conv 11x11 s4 3->96 @224", (1, 3, 224, 224), lambda nn: nn.Conv2d(3, 96, 11, stride=4, padding=1)),
    ("conv 5x5 96->256 @26", (1, 96, 26, 26), lambda nn: nn.Conv2d(96, 256, 5, padding=2)),
    ("conv 3x3 3->64 @224", (1, 3, 224, 224), lambda nn: nn.Conv2d(3, 64, 3, padding=1)),
    ("conv 3x3 64->64 @224", (1, 64, 224, 224), lambda nn: nn.Conv2d(64, 64, 3, padding=1)),
    ("conv 3x3 64->128 @112", (1, 64, 112, 112), lambda nn: nn.Conv2d(64, 128, 3, padding=1)),
    ("conv 3x3 128->256 @56", (1, 128, 56, 56), lambda nn: nn.Conv2d(128, 256, 3, padding=1)),
    ("conv 3x3 256->512 @28", (1, 256, 28, 28), lambda nn: nn.Conv2d(256, 512, 3, padding=1)),
    ("conv 3x3 512->512 @14", (1, 512, 14, 14), lambda nn: nn.Conv2d(512, 512, 3, padding=1)),
    ("maxpool 3 s2 96ch @54", (1, 96, 54, 54), lambda nn: nn.MaxPool2d(3, 2)),
    ("maxpool 2 s2 64ch @224", (1, 64, 224, 224), lambda nn: nn.MaxPool2d(2, 2)),
]


def _case(lib, shape, build):
    lib.manual_seed(0)
    layer = build(lib.nn)
    x = lib.tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32), requires_grad=True)

    def no_grad():
        with lib.no_grad():
            layer(x)

    def forward():
        return layer(x)

    out = forward().sum()
    return {"no_grad": no_grad, "forward": forward, "backward": lambda: out.backward(retain_graph=True)}


def _wall(fn, torch=None, threads=None) -> float:
    if torch is not None:
        torch.set_num_threads(threads)
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--core-only", action="store_true")
    args = parser.parse_args()
    torch = None
    if not args.core_only:
        import torch
    all_threads = torch.get_num_threads() if torch else 0
    print(f"{'layer':<24} {'pass':<9} {'core ms':>8} {'torch 1t':>9} {'torch Nt':>9} {'core/1t':>8} {'core/Nt':>8}")
    for name, shape, build in LAYERS:
        runs = {"core": (_case(core, shape, build), {})}
        if torch:
            t = _case(torch, shape, build)
            runs["1t"], runs["Nt"] = (t, {"torch": torch, "threads": 1}), (t, {"torch": torch, "threads": all_threads})
        for kind in ("no_grad", "forward", "backward"):
            times = {label: [] for label in runs}
            for fns, kw in runs.values():  # warm-up
                _wall(fns[kind], **kw)
            for _ in range(args.repeat):
                for label, (fns, kw) in runs.items():
                    times[label].append(_wall(fns[kind], **kw))
            med = [statistics.median(times[label]) * 1e3 for label in runs]
            line = f"{name:<24} {kind:<9} {med[0]:8.1f}"
            if torch:
                line += f" {med[1]:9.1f} {med[2]:9.1f} {med[0] / med[1]:8.2f} {med[0] / med[2]:8.2f}"
            print(line, flush=True)
    if torch:
        torch.set_num_threads(all_threads)


if __name__ == "__main__":
    main()
