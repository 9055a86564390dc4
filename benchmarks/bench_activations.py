"""Transcendental activations, core vs the NumPy floor vs PyTorch, side by side in one process.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_activations.py [--repeat 9]

Rows of issue #23's "faster than PyTorch CPU" table for the kernels that emulate SLEEF, glibc and oneDNN bit for
bit (``core/_sleef.py``, ``core/_glibc.py``, ``core/nn/functional/_gelu_onednn.py``): gelu, sigmoid, softmax and
log_softmax over the last dim, cross_entropy, tanh and exp, each on a 512x512 float32 tensor and on 200
elements (the size of a small full-batch training step, where per-call cost is everything), forward only;
``--dtype float64`` times the same rows in float64.
The NumPy floor is the same formula in plain NumPy float32 (not bit-exact: what NumPy alone costs). Each row is
the median of ``--repeat`` runs that alternate between the three (machine load hits all alike), in
microseconds of this process's CPU time (the fairer figure on a shared machine), with the ratios core/NumPy
and core/torch. torch runs on one thread.
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

_F = np.float32


def _np_softmax(a):
    e = np.exp(a - a.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _np_log_softmax(a):
    s = a - a.max(-1, keepdims=True)
    return s - np.log(np.exp(s).sum(-1, keepdims=True))


_NUMPY = {
    "gelu": lambda a: _F(0.5) * a * (1 + np.tanh(_F(0.7978846) * (a + _F(0.044715) * a * a * a))),  # (the tanh form)
    "sigmoid": lambda a: 1 / (1 + np.exp(-a)),
    "softmax": _np_softmax,
    "log_softmax": _np_log_softmax,
    "cross_entropy": lambda a: -_np_log_softmax(a)[:, 0].mean(),
    "tanh": np.tanh,
    "exp": np.exp,
}


def _lib_ops(lib):
    functional = lib.nn.functional
    return {
        "gelu": functional.gelu,
        "sigmoid": lib.sigmoid,
        "softmax": lambda t: lib.softmax(t, -1),
        "log_softmax": lambda t: lib.log_softmax(t, -1),
        "cross_entropy": lambda t: functional.cross_entropy(t, lib.zeros(t.shape[0], dtype=lib.long)),
        "tanh": lib.tanh,
        "exp": lib.exp,
    }


def _time(fn, arg, loops: int) -> float:
    start = time.process_time()
    for _ in range(loops):
        fn(arg)
    return (time.process_time() - start) / loops * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--dtype", default="float32", choices=["float32", "float64"],
                        help="float64: the SLEEF double kernels (sigmoid, gelu's tanh form, softmax) and MKL's")
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    print(f"{'row':24s} {'core us':>10s} {'numpy us':>10s} {'torch us':>10s} {'core/np':>8s} {'core/torch':>10s}")
    for shape, loops in (((512, 512), 5), ((4, 50), 300)):
        a = rng.standard_normal(shape).astype(args.dtype)
        libs = {"core": (_lib_ops(core), core.tensor(a)), "numpy": (_NUMPY, a)}
        if torch is not None:
            libs["torch"] = (_lib_ops(torch), torch.tensor(a))
        for row in _NUMPY:
            times: dict = {name: [] for name in libs}
            for _ in range(args.repeat):
                for name, (ops, arg) in libs.items():
                    times[name].append(_time(ops[row], arg, loops))
            med = {name: statistics.median(ts) for name, ts in times.items()}
            t_torch = med.get("torch", float("nan"))
            label = f"{row} {'x'.join(map(str, shape)) if a.size > 200 else '200'}"
            print(f"{label:24s} {med['core']:10.1f} {med['numpy']:10.1f} {t_torch:10.1f} "
                  f"{med['core'] / med['numpy']:8.1f} {med['core'] / t_torch:10.1f}")


if __name__ == "__main__":
    main()
