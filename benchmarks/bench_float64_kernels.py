"""float64 transcendental ops that carry torch's bits (SLEEF's and MKL's kernels ported to NumPy), core vs NumPy.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_float64_kernels.py [--repeat 7]

Issue #23 and users' time: a float64 tutorial (``dtype=torch.float64``, ``set_default_dtype(torch.float64)``) pays
these on every op. Rows: sigmoid (SLEEF's ``expd_u10``), tanh (MKL's ``vmdTanh``), tanh's gradient (its fma
``1 - o²``), gelu (SLEEF's ``erfd_u10``), gelu's tanh form (SLEEF's ``tanhd_u10``), mish, ``x ** 2.5`` and
``pow(x, y)`` (SLEEF's ``pow_u10``), each at 200 elements, 10,000 and 512x512. The NumPy column is NumPy's own
formula (not torch's bits: what NumPy alone costs). Medians of ``--repeat`` runs alternating core and NumPy, in
microseconds of this process's CPU time (the fairer figure on a shared machine). To compare two trees, run this
file with each on ``PYTHONPATH`` in turn, a few times, on the same machine.
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
import core.nn.functional as F  # noqa: E402

_SHAPES = {"200": (25, 8), "10k": (100, 100), "512x512": (512, 512)}


def _rows(x, y, g):
    xt, yt, gt = (core.tensor(v) for v in (x, y, g))
    leaf = core.tensor(x, requires_grad=True)
    out = core.tanh(leaf)
    ax = np.abs(x) + 0.1
    axt = core.tensor(ax)
    return {
        "sigmoid": (lambda: core.sigmoid(xt), lambda: 1 / (1 + np.exp(-x))),
        "tanh": (lambda: core.tanh(xt), lambda: np.tanh(x)),
        "tanh backward": (lambda: core.autograd.grad(out, leaf, gt, retain_graph=True), lambda: g * (1 - x * x)),
        "gelu": (lambda: F.gelu(xt), lambda: 0.5 * x * (1 + np.tanh(x))),
        "gelu tanh": (lambda: F.gelu(xt, approximate="tanh"), lambda: 0.5 * x * (1 + np.tanh(x))),
        "mish": (lambda: F.mish(xt), lambda: x * np.tanh(np.log1p(np.exp(x)))),
        "x ** 2.5": (lambda: axt ** 2.5, lambda: ax ** 2.5),
        "pow(x, y)": (lambda: core.pow(axt, yt), lambda: ax ** y),
    }


def _cpu_us(f) -> float:
    start = time.process_time()
    f()
    return (time.process_time() - start) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'op':<14}{'size':>9}{'core us':>12}{'NumPy us':>11}{'ratio':>8}")
    for size, shape in _SHAPES.items():
        x, y, g = (rng.standard_normal(shape) for _ in range(3))
        reps = args.repeat * (5 if size == "200" else 1)
        for name, (ours, numpy_form) in _rows(x, y, g).items():
            ours(), numpy_form()  # (warm: first-use tables, the BLAS's probe)
            a, b = [], []
            for _ in range(reps):
                a.append(_cpu_us(ours))
                b.append(_cpu_us(numpy_form))
            mine, floor = statistics.median(a), statistics.median(b)
            print(f"{name:<14}{size:>9}{mine:>12.1f}{floor:>11.1f}{mine / floor:>7.1f}x")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
