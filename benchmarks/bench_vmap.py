"""``torch.func.vmap`` at real sizes: core's loop vs core's batched path vs PyTorch, medians in seconds.

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_vmap.py [--repeat 3] [--loop-repeat 1]

Cases (issue #19): ``jacrev`` of a 2048x2048 tanh layer w.r.t. its input (the jacobians_hessians tutorial's
sizes: PyTorch's jacrev is vmap over the vjp, 2048 rows), per-sample gradients of a small MLP (784-128-10) over
64 samples (``vmap(grad(loss), in_dims=(None, 0, 0))`` with ``functional_call``), and an attention-mask build as
Hugging Face transformers writes it (nested vmap of an index function over batch, head, query and key
positions). "loop" forces core's per-sample loop (the fallback, and what vmap was before the batched path; for
jacrev, one backward pass per row); "batched" is the default. Every figure is the median of the runs' wall-clock
times, all libraries on one thread; the machine may be shared, so compare rows of one run.
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
from core import _vmap_batched, func  # noqa: E402


def _jacrev_case(lib, rng):
    d = 2048
    w = lib.tensor(rng.standard_normal((d, d)).astype(np.float32) / d ** 0.5)
    b = lib.tensor(rng.standard_normal(d).astype(np.float32))
    x = lib.tensor(rng.standard_normal(d).astype(np.float32))
    return lambda: lib.func.jacrev(lambda w, b, x: lib.tanh(lib.nn.functional.linear(x, w, b)), argnums=2)(w, b, x)


def _per_sample_case(lib, rng):
    model = lib.nn.Sequential(lib.nn.Linear(784, 128), lib.nn.ReLU(), lib.nn.Linear(128, 10))
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = lib.tensor(rng.standard_normal((64, 784)).astype(np.float32))
    y = lib.tensor(rng.integers(0, 10, 64))

    def loss(p, xi, yi):
        out = lib.func.functional_call(model, p, (xi.unsqueeze(0),))
        return lib.nn.functional.cross_entropy(out, yi.unsqueeze(0))

    return lambda: lib.func.vmap(lib.func.grad(loss), in_dims=(None, 0, 0))(params, x, y)


def _mask_case(lib, rng):
    batch, heads, q_len, kv_len = 2, 4, 128, 128
    padding = lib.tensor(rng.integers(0, 2, (batch, kv_len)).astype(bool))

    def allowed(b, h, q, k):  # causal and not padding, as transformers' masking_utils composes them
        return (k <= q) & padding[b, k]

    inner = lib.vmap(lib.vmap(allowed, in_dims=(None, None, None, 0)), in_dims=(None, None, 0, None))
    mask = lib.vmap(lib.vmap(inner, in_dims=(None, 0, None, None)), in_dims=(0, None, None, None))
    idx = [lib.arange(n) for n in (batch, heads, q_len, kv_len)]
    return lambda: mask(*idx)


CASES = {"jacrev tanh layer 2048x2048": _jacrev_case, "per-sample grads MLP, 64 samples": _per_sample_case,
         "HF attention mask 2x4x128x128": _mask_case}


class _Loop:
    """Forces core's loop: the batched path refuses every call, and jacrev computes one backward pass per row."""

    def __enter__(self):
        self._saved = (_vmap_batched.call, func._batched_blocks)

        def refuse(*args, **kwargs):
            raise _vmap_batched.Unbatchable("benchmark: the loop")
        _vmap_batched.call = refuse
        func._batched_blocks = lambda *args, **kwargs: None
        return self

    def __exit__(self, *exc):
        _vmap_batched.call, func._batched_blocks = self._saved


def _median(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--loop-repeat", type=int, default=1, help="runs of core's loop (slow at these sizes)")
    parser.add_argument("--no-torch", action="store_true")
    args = parser.parse_args()
    torch = None
    if not args.no_torch:
        try:
            import torch
            torch.set_num_threads(1)
        except ImportError:
            torch = None
    print(f"{'case':36s} {'core loop':>10s} {'core batched':>13s} {'torch':>8s} {'loop/batched':>13s} "
          f"{'batched/torch':>14s}")
    for name, make in CASES.items():
        run = make(core, np.random.default_rng(0))
        run()  # warm: activates the dispatch, fills caches
        batched = _median(run, args.repeat)
        with _Loop():
            loop = _median(run, args.loop_repeat)
        theirs = float("nan")
        if torch is not None:
            torch_run = make(torch, np.random.default_rng(0))
            torch_run()
            theirs = _median(torch_run, args.repeat)
        print(f"{name:36s} {loop:10.4f} {batched:13.4f} {theirs:8.4f} {loop / batched:13.1f} "
              f"{batched / theirs:14.2f}")


if __name__ == "__main__":
    main()
