"""The split kernels on core's kept thread pool (``core._pool``) against an executor started per call, as they were.

    PYTHONPATH=. python benchmarks/bench_pool.py [--repeat 21] [--threads 2]

Each kernel that shares its work among ``core.get_num_threads()`` threads, just over its threading threshold
(where starting threads weighs most) and at a larger size: the old way (a ``ThreadPoolExecutor`` made and joined
in the call) and the kept pool, timed in alternation in one process so that a shared machine's load hits both
alike. Each row: the median wall time of ``--repeat`` runs in milliseconds, and whether both ways gave the same
bits. The load average is printed at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import core
from core import _pool, _sleef, _var_all
from core.nn.functional import _activation_f32, _conv
from core.ops import _stack_products

_USERS = (_var_all, _sleef, _activation_f32, _conv, _stack_products)


def _per_call_map(fn, items) -> list:
    """The old way: an executor of one thread an item, started and joined in the call."""
    items = list(items)
    with ThreadPoolExecutor(len(items)) as pool:
        return list(pool.map(fn, items))


def _use(pool_map) -> None:
    for module in _USERS:
        module.pool_map = pool_map


def _cases() -> list:
    rng = np.random.default_rng(0)
    f32 = np.float32
    a18, a20 = (rng.standard_normal(n).astype(f32) for n in (1 << 18, 1 << 20))
    x16, x64 = (rng.standard_normal(16 * 16384 * k).astype(f32) for k in (1, 4))
    q, k = rng.standard_normal((64, 64, 32)).astype(f32), rng.standard_normal((64, 32, 64)).astype(f32)
    img = core.randn(8, 64, 56, 56)
    w = core.randn(64, 64, 3, 3)
    return [("var_all 2^18", lambda: _var_all.var_all(a18, 1.0)),
            ("var_all 2^20", lambda: _var_all.var_all(a20, 1.0)),
            ("expf_u10 2^18", lambda: _sleef.expf_u10(x16)),
            ("expf_u10 2^20", lambda: _sleef.expf_u10(x64)),
            ("silu f32 2^18", lambda: _activation_f32.silu_forward(x16)[0]),
            ("bmm 64x(64x32@32x64)", lambda: _stack_products._stacked_matmul(q, k)),
            ("conv2d 8x64x56x56 3x3", lambda: core.nn.functional.conv2d(img, w, padding=1).numpy())]


def _median_ms(fn, repeat: int, pool_map) -> tuple:
    _use(pool_map)
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3, np.asarray(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    core.set_num_threads(args.threads)
    kept = _pool.pool_map
    print(f"{'kernel':24} {'per call ms':>12} {'kept pool ms':>13} {'speed-up':>9}  same bits")
    for name, fn in _cases():
        old, new, old_out, new_out = [], [], None, None
        for _ in range(3):  # alternating rounds: load spikes hit both ways
            t, old_out = _median_ms(fn, args.repeat // 3 or 1, _per_call_map)
            old.append(t)
            t, new_out = _median_ms(fn, args.repeat // 3 or 1, kept)
            new.append(t)
        o, n = statistics.median(old), statistics.median(new)
        same = old_out.tobytes() == new_out.tobytes()
        print(f"{name:24} {o:12.3f} {n:13.3f} {o / n:8.2f}x  {same}")
    _use(kept)
    print("load average:", os.getloadavg())


if __name__ == "__main__":
    main()
