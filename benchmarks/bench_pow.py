"""float64 and float32 ``pow``, core vs NumPy's power vs PyTorch, side by side in one process.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_pow.py [--repeat 5]

core's ``pow`` is PyTorch's bit for bit: SLEEF's ``pow_u10`` / ``powf_u10`` emulated in NumPy in the vector steps
(``core/_sleef_powd.py``, ``core/_sleef_pow.py``: double-double or double-float steps, each fused multiply-add
rounded once), the C library's ``pow`` in the scalar ones. NumPy's power is the floor (one ufunc call, not
PyTorch's bits). Rows: ``tensor ** 1.7``, ``pow(tensor, tensor)`` and ``2 ** tensor`` on 512x512 elements and on
200, forward only. Each row is the median of ``--repeat`` runs alternating between the three, in microseconds of
this process's CPU time, with the ratios core/NumPy and core/torch. torch runs on one thread.
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

_ROWS = {
    "x ** 1.7": (lambda lib, a, b: a ** 1.7, lambda a, b: np.power(a, a.dtype.type(1.7))),
    "pow(x, y)": (lambda lib, a, b: lib.pow(a, b), np.power),
    "2 ** y": (lambda lib, a, b: 2.0 ** b, lambda a, b: np.power(b.dtype.type(2), b)),
}


def _time(fn, loops: int) -> float:
    start = time.process_time()
    for _ in range(loops):
        fn()
    return (time.process_time() - start) / loops * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    rng = np.random.default_rng(0)
    print(f"{'row':28s} {'core us':>10s} {'numpy us':>10s} {'torch us':>10s} {'core/np':>8s} {'core/torch':>10s}")
    for dtype in (np.float64, np.float32):
        for shape, loops in (((512, 512), 1), ((4, 50), 100)):
            a = rng.uniform(0.1, 10, shape).astype(dtype)
            b = rng.uniform(-3, 3, shape).astype(dtype)
            for row, (lib_fn, np_fn) in _ROWS.items():
                ca, cb = core.tensor(a), core.tensor(b)
                runs = {"core": lambda f=lib_fn, x=ca, y=cb: f(core, x, y), "numpy": lambda f=np_fn, x=a, y=b: f(x, y)}
                if torch is not None:
                    ta, tb = torch.tensor(a), torch.tensor(b)
                    runs["torch"] = lambda f=lib_fn, x=ta, y=tb: f(torch, x, y)
                times: dict = {name: [] for name in runs}
                for _ in range(args.repeat):
                    for name, fn in runs.items():
                        times[name].append(_time(fn, loops))
                med = {name: statistics.median(ts) for name, ts in times.items()}
                t_torch = med.get("torch", float("nan"))
                label = f"{np.dtype(dtype).name} {row} {'512x512' if a.size > 200 else '200'}"
                print(f"{label:28s} {med['core']:10.1f} {med['numpy']:10.1f} {t_torch:10.1f} "
                      f"{med['core'] / med['numpy']:8.1f} {med['core'] / t_torch:10.1f}")


if __name__ == "__main__":
    main()
