"""MKL's float32 vector sqrt, exp, log, sin and cos as core reproduces them, vs NumPy and the correctly rounded
functions core takes elsewhere, and vs PyTorch, in one process.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_mkl_vml.py [--repeat 15]

``core._mkl_vml.vsqrt``/``vexp``/``vlog`` and ``core._mkl_trig.vsin``/``vcos`` (the steps of MKL's kernels, a dozen
or two NumPy calls per block of 16384 elements) against ``np.sqrt`` and ``core._precise``'s float64 ``exp``/``log``/
``sin``/``cos`` (core's route where ``core._cpu.mkl_vml_sse()`` does not hold, and its sin/cos before MKL's), and
``sin32`` against NumPy's own float32 ``sin`` (SIMD, not torch's bits), on 10^6 and on 200 float32 elements. Each
row is the median of ``--repeat`` runs that alternate between the functions (machine load hits all alike), in
microseconds of this process's CPU time, with the ratio to the NumPy/precise route. torch runs on one thread. The
functions run on any CPU (their bits are torch's only on the CPUs ``core._cpu`` names).
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # read when NumPy loads
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from core import _mkl_trig, _mkl_vml  # noqa: E402
from core._precise import precise  # noqa: E402


def _cpu_us(f, number: int) -> float:
    start = time.process_time()
    for _ in range(number):
        f()
    return (time.process_time() - start) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    repeat = parser.parse_args().repeat
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    for n in (10 ** 6, 200):
        positive = rng.uniform(0.1, 10, n).astype(np.float32)
        signed = rng.uniform(-10, 10, n).astype(np.float32)
        number = 3 if n > 10 ** 5 else 2000
        rows = {
            "sqrt": (positive, np.sqrt, _mkl_vml.vsqrt, "sqrt"),
            "exp": (signed, lambda v: precise(np.exp, v), _mkl_vml.vexp, "exp"),
            "log": (positive, lambda v: precise(np.log, v), _mkl_vml.vlog, "log"),
            "sin": (signed, lambda v: precise(np.sin, v), _mkl_trig.vsin, "sin"),
            "cos": (signed, lambda v: precise(np.cos, v), _mkl_trig.vcos, "cos"),
            "sin32": (signed, np.sin, _mkl_trig.vsin, "sin"),
        }
        for name, (x, base, ours, op) in rows.items():
            t = torch.from_numpy(x) if torch is not None else None
            calls = {"numpy/precise": functools.partial(base, x), "core MKL steps": functools.partial(ours, x)}
            if t is not None:
                calls["torch"] = functools.partial(getattr(torch, op), t)
            times = {k: [] for k in calls}
            for _ in range(repeat):
                for k, f in calls.items():
                    times[k].append(_cpu_us(f, number))
            med = {k: statistics.median(v) for k, v in times.items()}
            cells = "  ".join(f"{k} {v:9.1f} us" for k, v in med.items())
            print(f"{name:4s} n={n:>7}  {cells}  ratio {med['core MKL steps'] / med['numpy/precise']:.1f}x")


if __name__ == "__main__":
    main()
