"""Where a ``core.compile`` training step's time goes, kernel by kernel, beside the NumPy floor's lines (issue #23).

    PYTHONPATH=. python benchmarks/profile_replay.py [--steps 300] [--only mlp|tanh|phases] [--optimizer SGD|Adam]

One BLAS thread. ``mlp``: the 784-256-128-10 MLP step of ``bench_training.mlp784_case`` through ``core.compile``;
each replayed forward kernel (``F``), each backward node of the replayed program (``B``), the optimizer's
float32 updates, ``zero_grad`` and the whole step are timed inside the running step (``perf_counter_ns`` around
each call: medians over ``--steps`` steps, so a shared machine's spikes drop out), then the hand-written NumPy
step (``bench_training.numpy_mlp784``) line by line the same way. ``tanh``: the 2-8-8-1 tanh step the same way
(``--optimizer``: SGD or Adam), the kernels a replay runs, and the calls a step makes (``sys.setprofile``: Python
functions, and C calls: NumPy methods, builtins; ufunc calls are not seen). The timers cost ~0.1 µs a call, which
the tiny kernels of ``tanh`` feel. ``phases``: the MLP step eager and through ``core.compile`` side by side (runs
alternating between the two), each phase (``zero_grad``, the forward, ``backward()``, ``optimizer.step()``) and
the numeric kernels inside them (``KERNELS``: GEMMs, SLEEF's exp and log, the sums in torch's orders, ReLU's
gradient mask, the SGD updates), summed per step; what the phases take beyond their kernels is Python (dispatch,
autograd, the replay) and the small NumPy calls around the kernels; then the NumPy floor's step the same way (its
GEMMs timed, the rest of its lines counted as small calls; ``-`` where it has no such row).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import statistics
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # read when NumPy loads
    os.environ[_var] = "1"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_training  # noqa: E402
import numpy as np  # noqa: E402

import core  # noqa: E402
from core.autograd import capture_codegen  # noqa: E402

_clock = time.perf_counter_ns


def _run_timed(step, times: dict, steps: int, warmup: int) -> None:
    """Warm ``step`` up, forget what the warm-up recorded, then time ``steps`` whole steps beside the parts."""
    for _ in range(warmup):
        step()
    times.clear()
    for _ in range(steps):
        start = _clock()
        step()
        times["[the whole step]"].append(_clock() - start)


def _timed(times: dict, name: str, fn, only_when=None):
    """``fn`` with a timer; ``only_when(result)``: record only the calls whose result passes it."""
    def timed(*args, **kwargs):
        start = _clock()
        out = fn(*args, **kwargs)
        if only_when is None or only_when(out):
            times[name].append(_clock() - start)
        return out
    return timed


def _instrument(plan, times: dict) -> None:
    """Wrap each of the plan's forward kernels and backward nodes in a timer; the generated replay is rebuilt
    around the wrapped functions (the same calls in the same order)."""
    plan._steps = tuple((_timed(times, f"F{i} {type(node).__name__}", fwd), node, a, k, outs)
                        for i, (fwd, node, a, k, outs) in enumerate(plan._steps))
    plan._run_forward = None
    plan._program = [(n, _timed(times, f"B{i} {type(n).__name__}", bwd), first, count, routes)
                     for i, (n, bwd, first, count, routes) in enumerate(plan._program)]
    plan._run_backward = capture_codegen.backward_function(plan._program, plan._n_slots, plan._all_slots,
                                                           plan._seeds, plan._checked)


def _profile_step(opt, loss_of, x, y, steps: int) -> dict:
    times: dict = collections.defaultdict(list)

    def step():
        opt.zero_grad()
        loss_of(x, y).backward()
        opt.step()

    for _ in range(100):  # past capture_codegen.GENERATE_AFTER: the generated replay
        step()
    _instrument(next(iter(loss_of._plans.values())), times)
    import core.optim.sgd as sgd

    saved = sgd.scaled_add_f32_, sgd._small_group
    def update(x, y, alpha):  # (timed per parameter size)
        return _timed(times, f"SGD: update of a {'x'.join(map(str, x.shape))} parameter", saved[0])(x, y, alpha)

    sgd.scaled_add_f32_ = update
    sgd._small_group = _timed(times, "SGD: the small parameters end to end", saved[1], bool)  # (False: not taken)
    zero_grad, opt_step = opt.zero_grad, opt.step
    opt.zero_grad, opt.step = _timed(times, "zero_grad", zero_grad), _timed(times, "optimizer.step", opt_step)
    try:
        _run_timed(step, times, steps, warmup=20)
    finally:
        sgd.scaled_add_f32_, sgd._small_group = saved
        opt.zero_grad, opt.step = zero_grad, opt_step
    return times


def _print(title: str, times: dict, steps: int) -> None:
    print(title)
    for name, v in times.items():
        per_step = len(v) / steps
        print(f"  {name:<48}{statistics.median(v) / 1000:9.1f} µs  x{per_step:g} a step")


def mlp(steps: int) -> None:
    nn = core.nn
    core.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = core.optim.SGD(model.parameters(), lr=0.01)
    rng = np.random.default_rng(0)
    x = core.tensor(rng.standard_normal((64, 784)).astype(np.float32))
    y = core.tensor(rng.integers(0, 10, 64))
    loss_of = core.compile(lambda x, y: nn.functional.cross_entropy(model(x), y))
    _print("core.compile, 784-256-128-10 MLP step (median µs per call):", _profile_step(opt, loss_of, x, y, steps),
           steps)
    _print("the NumPy floor (bench_training.numpy_mlp784), line by line:", _numpy_mlp_lines(steps), steps)


def _numpy_mlp_lines(steps: int) -> dict:
    """``bench_training.numpy_mlp784``'s step with a timer between its lines."""
    params, x, y = bench_training.numpy_mlp784_data(0)
    w1, b1, w2, b2, w3, b3 = params
    rows, lr = np.arange(64), np.float32(0.01)
    times: dict = collections.defaultdict(list)

    def lap(name, start):
        now = _clock()
        times[name].append(now - start)
        return now

    def step():
        t = _clock()
        h1 = np.maximum(x @ w1 + b1, 0)
        t = lap("layer 1: x @ w1 + b1, relu", t)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        t = lap("layer 2", t)
        z = h2 @ w3 + b3
        t = lap("layer 3", t)
        z -= z.max(1, keepdims=True)
        e = np.exp(z)
        total = e.sum(1, keepdims=True)
        loss = np.log(total[:, 0]).sum() - z[rows, y].sum()  # noqa: F841
        gz = e / total
        gz[rows, y] -= 1
        gz /= np.float32(64)
        t = lap("softmax cross-entropy, forward and backward", t)
        gh2 = (gz @ w3.T) * (h2 > 0)
        t = lap("layer 3 input gradient, relu backward", t)
        gh1 = (gh2 @ w2.T) * (h1 > 0)
        t = lap("layer 2 input gradient, relu backward", t)
        for name, p, grad in (("w3", w3, lambda: h2.T @ gz), ("b3", b3, lambda: gz.sum(0)),
                              ("w2", w2, lambda: h1.T @ gh2), ("b2", b2, lambda: gh2.sum(0)),
                              ("w1", w1, lambda: x.T @ gh1), ("b1", b1, lambda: gh1.sum(0))):
            g = grad()
            t = lap(f"{name}'s gradient", t)
            p -= lr * g
            t = lap(f"{name}'s update", t)

    _run_timed(step, times, steps, warmup=50)
    return times


# (module, function, group): the numeric kernels ``phases`` times, by the module attribute its callers look up
KERNELS = [
    ("core.nn.functional.misc", "_gemm", "GEMMs (OpenBLAS, one thread)"),
    # (core's own: MKL's FMA blocks and dot kernels in core._small_gemm, NumPy's GEMMs inside)
    ("core.nn.functional.misc", "mkl_gemm", "GEMMs in MKL's order (core._small_gemm)"),
    ("core.nn.functional.misc", "_transposed_copy", "transposed product made contiguous"),
    ("core._softmax_kernels", "expf_u10", "SLEEF exp (log_softmax forward and backward)"),
    ("core._softmax_kernels", "logf_u10", "SLEEF log (log_softmax forward)"),
    ("core.ops.softmax_ops", "softmax_sum", "row sums in torch's order (log_softmax)"),
    ("core._softmax_kernels", "lane_row_sum", "row sums in torch's order (log_softmax)"),
    ("core.nn.functional._loss_primitives", "nll_total", "nll_loss's cascade sum"),
    ("core.nn.functional.misc", "sum_over_batch", "bias gradients' sums in torch's order"),
    ("core.ops.math_unary", "Relu.raw", "ReLU backward mask"),
    ("core.optim.sgd", "scaled_add_f32_", "SGD updates (saxpy)"),
    ("core.optim.sgd", "_small_group", "SGD updates (saxpy)"),
]
# NOTE: not the engine's ``_accumulate``: a wrapper's reference to the gradient stops ``grad_adopt`` from adopting it
# (a copy of every weight gradient instead)


@contextlib.contextmanager
def _kernels_timed(kernels: list, add):
    """Each ``(module, function, group)`` of ``kernels`` wrapped in a timer that calls ``add(group, ns)``, restored
    on exit (a class attribute such as ``Relu.raw`` through its class)."""
    import importlib

    saved = []
    for module, path, group in kernels:
        mod = importlib.import_module(module)
        *owner, attr = path.split(".")
        for name in owner:  # (a class attribute: ``Relu.raw``)
            mod = getattr(mod, name)
        fn = getattr(mod, attr)
        saved.append((mod, attr, fn))

        def timed(*args, _fn=fn, _group=group, **kwargs):
            start = _clock()
            out = _fn(*args, **kwargs)
            add(_group, _clock() - start)
            return out
        setattr(mod, attr, timed)
    try:
        yield
    finally:
        for mod, attr, fn in saved:
            setattr(mod, attr, fn)


def _phase_rows(runs: dict, kernels: list, steps: int, block: int = 50) -> dict:
    """``runs``: name -> ``(zero_grad, loss_of, optimizer_step, args)``, run alternating in blocks of ``block`` steps;
    per run, each phase's and each kernel group's ns per step (lists, one entry a step; the first two blocks warm
    up, past ``capture_codegen.GENERATE_AFTER``)."""
    current: dict = {}  # the running step's sums, by row

    def add(row, ns):
        current[row] = current.get(row, 0) + ns
    rows: dict = {name: collections.defaultdict(list) for name in runs}
    with _kernels_timed(kernels, add):
        for rep in range(steps // block + 2):
            for name, (zero_grad, loss_of, opt_step, args) in runs.items():
                for _ in range(block):
                    current.clear()
                    t0 = _clock()
                    zero_grad()
                    t1 = _clock()
                    loss = loss_of(*args)
                    t2 = _clock()
                    loss.backward()
                    t3 = _clock()
                    opt_step()
                    t4 = _clock()
                    if rep < 2:
                        continue
                    kernels_ns = sum(current.values())
                    for row, ns in (("zero_grad", t1 - t0), ("forward", t2 - t1), ("backward()", t3 - t2),
                                    ("optimizer.step()", t4 - t3), ("[the whole step]", t4 - t0),
                                    ("[Python and small NumPy calls around the kernels]", t4 - t0 - kernels_ns),
                                    *current.items()):
                        rows[name][row].append(ns)
    return rows


def _print_rows(title: str, rows: dict) -> None:
    names = list(rows)
    print(title)
    print(f"  {'':<56}" + "".join(f"{n:>14}" for n in names))
    order = list(dict.fromkeys([r for n in names for r in rows[n]]))
    for row in order:
        print(f"  {row:<56}" + "".join(f"{statistics.median(rows[n][row]) / 1000:14.1f}" if rows[n].get(row)
                                         else f"{'-':>14}" for n in names))


def phases(steps: int) -> None:
    """The MLP step eager and compiled: phases and kernels, µs per step (medians of per-step sums)."""
    nn = core.nn
    rng = np.random.default_rng(0)
    x = core.tensor(rng.standard_normal((64, 784)).astype(np.float32))
    y = core.tensor(rng.integers(0, 10, 64))
    runs = {}
    for name in ("eager", "core.compile"):
        core.manual_seed(0)
        model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
        opt = core.optim.SGD(model.parameters(), lr=0.01)

        def loss_of(x, y, model=model):
            return nn.functional.cross_entropy(model(x), y)
        runs[name] = (opt.zero_grad, core.compile(loss_of) if name == "core.compile" else loss_of, opt.step, (x, y))
    rows = _phase_rows(runs, KERNELS, steps)
    rows["NumPy floor"] = _floor_phases(steps)
    _print_rows("784-256-128-10 MLP step, eager, core.compile and the NumPy floor: median µs per step", rows)


# the tanh step's numeric kernels (``tanh_phases``), by the module attribute its callers look up
TANH_KERNELS = [
    ("core.nn.functional.misc", "mkl_gemm", "GEMMs in MKL's order (core._small_gemm)"),
    ("core.nn.functional.misc", "_gemm", "GEMMs (OpenBLAS, one thread)"),
    ("core.nn.functional.misc", "_short_gemm_bias", "layer 1's 2-feature product + bias (float64 fma)"),
    ("core._mkl_tanh", "vtanh", "tanh forward: MKL's vsTanh steps (core._mkl_tanh)"),
    ("core.ops.math_unary", "Tanh.raw", "tanh backward: g (1 - o^2), rounded once"),
    ("core.nn.functional._loss_primitives", "exp_neg_abs_and_neg", "BCE forward: SLEEF exp of -|x| and -x (2 x 200)"),
    ("core.nn.functional._loss_primitives", "log1pf_u10", "BCE forward: SLEEF log1p of exp(-|x|) (200)"),
    ("core.nn.functional._loss_primitives", "ordered_sum", "BCE mean: 200 losses in torch's order"),
    ("core.nn.functional._loss_primitives", "loop_sigmoid", "BCE backward: sigmoid of the kept exp (glibc's last 8)"),
    ("core.nn.functional.misc", "sum_over_batch", "bias gradients: 200 rows in torch's order"),
    ("core.optim.sgd", "_small_group", "optimizer: the flat update"),
    ("core.optim._flat_adam", "_update", "optimizer: the flat update"),
]


def tanh_phases(steps: int, optimizer: str = "SGD") -> None:
    """The 2-8-8-1 tanh step eager and compiled beside the hand-written NumPy loop (SGD: ``bench_training``'s own
    floor; Adam: the same loop with a NumPy Adam update): phases and kernels, µs per step (medians)."""
    nn = core.nn
    pts, labels = bench_training._spiral_points()
    x, y = core.tensor(pts), core.tensor(labels)
    runs = {}
    for name in ("eager", "core.compile"):
        core.manual_seed(0)
        model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
        opt = getattr(core.optim, optimizer)(model.parameters(), lr=0.1 if optimizer == "SGD" else 0.01)

        def loss_of(x, y, model=model):
            return nn.functional.binary_cross_entropy_with_logits(model(x), y)
        runs[name] = (opt.zero_grad, core.compile(loss_of) if name == "core.compile" else loss_of, opt.step, (x, y))
    rows = _phase_rows(runs, TANH_KERNELS, steps)
    rows["NumPy loop"] = _numpy_tanh_phases(steps, optimizer)
    _print_rows(f"2-8-8-1 tanh MLP step ({optimizer}), eager, core.compile and the NumPy loop: median µs per step",
                rows)


def _timed_matmul():
    """``mm(a, b)``: ``a @ b`` that adds its time to ``gemm_ns[0]``, and that one-element list."""
    gemm_ns = [0]

    def mm(a, b):
        start = _clock()
        out = a @ b
        gemm_ns[0] += _clock() - start
        return out
    return mm, gemm_ns


def _record_floor_phases(out: dict, clocks: tuple, gemm: int) -> None:
    """One NumPy step's phases (its clock at the start, after the forward, the gradients and the update)."""
    t0, t1, t2, t3 = clocks
    for row, ns in (("forward", t1 - t0), ("backward()", t2 - t1), ("optimizer.step()", t3 - t2),
                    ("[the whole step]", t3 - t0),
                    ("[Python and small NumPy calls around the kernels]", t3 - t0 - gemm),
                    ("GEMMs (OpenBLAS, one thread)", gemm)):
        out[row].append(ns)


def _numpy_tanh_phases(steps: int, optimizer: str) -> dict:
    """``bench_training.numpy_tanh1000``'s step (with Adam: its gradients into a plain NumPy Adam update) timed as
    ``_phase_rows`` times core's: the forward (to the loss's logits), the gradients, the update, and its GEMMs."""
    pts, y, params = bench_training.numpy_tanh_data(0)
    w1, b1, w2, b2, w3, b3 = params
    lr, n = np.float32(0.1 if optimizer == "SGD" else 0.01), np.float32(len(pts))
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    mm, gemm_ns = _timed_matmul()
    out: dict = collections.defaultdict(list)
    for rep in range(steps + 50):
        gemm_ns[0] = 0
        t0 = _clock()
        h1 = np.tanh(mm(pts, w1) + b1)
        h2 = np.tanh(mm(h1, w2) + b2)
        z = mm(h2, w3) + b3
        t1 = _clock()
        gz = (1 / (1 + np.exp(-z)) - y) / n
        gh2 = mm(gz, w3.T) * (1 - h2 * h2)
        gh1 = mm(gh2, w2.T) * (1 - h1 * h1)
        grads = [mm(pts.T, gh1), gh1.sum(0), mm(h1.T, gh2), gh2.sum(0), mm(h2.T, gz), gz.sum(0)]
        t2 = _clock()
        if optimizer == "SGD":
            for p, g in zip(params, grads):
                p -= lr * g
        else:
            k = rep + 1
            for p, g, (m, v) in zip(params, grads, moments):
                m += np.float32(0.1) * (g - m)
                v *= np.float32(0.999)
                v += np.float32(0.001) * g * g
                p -= (lr / np.float32(1 - 0.9 ** k)) * m / (np.sqrt(v) / np.float32((1 - 0.999 ** k) ** 0.5)
                                                         + np.float32(1e-8))
        t3 = _clock()
        if rep < 50:
            continue
        _record_floor_phases(out, (t0, t1, t2, t3), gemm_ns[0])
    return out


def z_phases(steps: int) -> None:
    """``z = (x * w).sum() + b`` on 2-element leaves (``bench_autograd``), eager and compiled: the forward, the
    backward and the three ``.grad = None``, µs per call (medians), and the Python calls each makes."""
    def leaves():
        return (core.tensor([2.0, 3.0], requires_grad=True), core.tensor([1.5, -0.5], requires_grad=True),
                core.tensor(0.1, requires_grad=True))
    z_of = core.compile(lambda x, w, b: (x * w).sum() + b)
    runs = {"eager": (lambda x, w, b: (x * w).sum() + b, leaves()), "core.compile": (z_of, leaves())}
    rows: dict = {name: collections.defaultdict(list) for name in runs}
    for rep in range(steps // 200 + 2):
        for name, (fn, (x, w, b)) in runs.items():
            for _ in range(200):
                t0 = _clock()
                z = fn(x, w, b)
                t1 = _clock()
                z.backward()
                t2 = _clock()
                x.grad = w.grad = b.grad = None
                t3 = _clock()
                if rep >= 2:
                    for row, ns in (("forward", t1 - t0), ("backward()", t2 - t1), ("three .grad = None", t3 - t2),
                                    ("[the whole step]", t3 - t0)):
                        rows[name][row].append(ns)
    _print_rows("z = (x * w).sum() + b, forward + backward: median µs per step", rows)
    for name, (fn, (x, w, b)) in runs.items():
        functions: collections.Counter = collections.Counter()

        def count(frame, event, arg, functions=functions):
            if event == "call":
                functions[f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_code.co_name}"] += 1
        sys.setprofile(count)
        for _ in range(10):
            fn(x, w, b).backward()
            x.grad = w.grad = b.grad = None
        sys.setprofile(None)
        print(f"  {name}: {sum(functions.values()) / 10:g} Python function calls a step; the most frequent: "
              + ", ".join(f"{k} {v / 10:g}" for k, v in functions.most_common(6)))


def _floor_phases(steps: int) -> dict:
    """``bench_training.numpy_mlp784``'s step timed as ``phases`` times core's: the forward (to the loss), the
    gradients, the updates, and its GEMMs (each ``@`` through a timer)."""
    params, x, y = bench_training.numpy_mlp784_data(0)
    w1, b1, w2, b2, w3, b3 = params
    rows_, lr = np.arange(64), np.float32(0.01)
    mm, gemm_ns = _timed_matmul()
    out: dict = collections.defaultdict(list)
    for rep in range(steps + 50):
        gemm_ns[0] = 0
        t0 = _clock()
        h1 = np.maximum(mm(x, w1) + b1, 0)
        h2 = np.maximum(mm(h1, w2) + b2, 0)
        z = mm(h2, w3) + b3
        z -= z.max(1, keepdims=True)
        e = np.exp(z)
        total = e.sum(1, keepdims=True)
        loss = np.log(total[:, 0]).sum() - z[rows_, y].sum()  # noqa: F841
        t1 = _clock()
        gz = e / total
        gz[rows_, y] -= 1
        gz /= np.float32(64)
        gh2 = mm(gz, w3.T) * (h2 > 0)
        gh1 = mm(gh2, w2.T) * (h1 > 0)
        grads = [mm(h2.T, gz), gz.sum(0), mm(h1.T, gh2), gh2.sum(0), mm(x.T, gh1), gh1.sum(0)]
        t2 = _clock()
        for p, g in zip((w3, b3, w2, b2, w1, b1), grads):
            p -= lr * g
        t3 = _clock()
        if rep < 50:
            continue
        _record_floor_phases(out, (t0, t1, t2, t3), gemm_ns[0])
    return out


def tanh(steps: int, optimizer: str = "SGD") -> None:
    nn = core.nn
    core.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = getattr(core.optim, optimizer)(model.parameters(), lr=0.1 if optimizer == "SGD" else 0.01)
    pts, labels = bench_training._spiral_points()
    x, y = core.tensor(pts), core.tensor(labels)
    loss_fn = nn.functional.binary_cross_entropy_with_logits
    loss_of = core.compile(lambda x, y: loss_fn(model(x), y))
    calls: collections.Counter = collections.Counter()
    functions: collections.Counter = collections.Counter()

    def count(frame, event, arg):
        if event == "c_call":
            calls[getattr(arg, "__qualname__", repr(arg))] += 1
        elif event == "call":
            code = frame.f_code
            functions[f"{os.path.basename(code.co_filename)}:{code.co_name}"] += 1

    for _ in range(100):  # (the generated replay, before any timer is put in)
        opt.zero_grad()
        loss_of(x, y).backward()
        opt.step()
    plan = next(iter(loss_of._plans.values()))
    sys.setprofile(count)
    for _ in range(10):
        opt.zero_grad()
        loss_of(x, y).backward()
        opt.step()
    sys.setprofile(None)
    _print(f"core.compile, 2-8-8-1 tanh MLP step, {optimizer} (median µs per call):",
           _profile_step(opt, loss_of, x, y, steps), steps)
    print(f"replayed kernels a step: {len(plan._steps) - len(plan._fixed_views)} forward ({len(plan._fixed_views)} "
          f"views of parameters kept from the last replay), {len(plan._program)} backward nodes")
    print(f"Python function calls a step, without the timers: {sum(functions.values()) / 10:g}; the most frequent:")
    for name, n in functions.most_common(12):
        print(f"  {name:<48}{n / 10:g}")
    print(f"C-level calls a step, without the timers (ufunc calls not seen): {sum(calls.values()) / 10:g}; the most "
          "frequent:")
    for name, n in calls.most_common(12):
        print(f"  {name:<40}{n / 10:g}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--only", choices=("mlp", "tanh", "phases", "tanh-phases", "z"), default=None)
    parser.add_argument("--optimizer", choices=("SGD", "Adam"), default="SGD", help="the tanh step's optimizer")
    args = parser.parse_args(argv)
    if args.only in (None, "mlp"):
        mlp(args.steps)
    if args.only in (None, "tanh"):
        tanh(args.steps * 3, args.optimizer)
    if args.only in (None, "phases"):
        phases(args.steps)
    if args.only in (None, "tanh-phases"):
        tanh_phases(args.steps * 3, args.optimizer)
    if args.only in (None, "z"):
        z_phases(args.steps * 10)
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
