"""Where one step of the 784-256-128-10 MLP (issue #23) spends its time: each kernel of core's replayed
(``core.compile``) step beside the hand-written NumPy floor's line that does the same work, same shapes.

    PYTHONPATH=. python benchmarks/profile_mlp_step.py [--steps 300] [--calls 50]

One BLAS thread (set before NumPy loads, as ``bench_targets.py --only mlp``). Each recorded forward and backward
of the captured plan is wrapped in a timer (the process's CPU time around the call, ~0.5 µs); the optimizer's step and
``zero_grad`` are timed whole, and what is left of the step (the engine's call, gradient accumulation into the
leaves, the replay's own Python) is the rest. The floor's lines are timed one by one in the same way. Every figure
is a median over the steps (and a 10th percentile beside it, what a quieter machine gives), so a step that lost
the CPU to another process does not count. A last table puts each exact kernel (PyTorch's bits) beside the plain NumPy
call on the same operands, with the share of elements each gives that are not torch's (PyTorch needed).
"""

from __future__ import annotations

import argparse
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

_clock = time.process_time  # (CPU time: the machine is shared, and wall time counts the waits)


class _Timings:
    """Seconds per label, one list entry per step (several calls of one label in a step are added)."""

    def __init__(self):
        self.now: dict = {}
        self.steps: list = []

    def add(self, label: str, seconds: float) -> None:
        self.now[label] = self.now.get(label, 0.0) + seconds

    def end_step(self) -> None:
        self.steps.append(self.now)
        self.now = {}

    def medians(self, low: bool = False) -> dict:
        """Each label's median over the steps, or with ``low`` its 10th percentile (what a quieter machine gives)."""
        labels = dict.fromkeys(label for step in self.steps for label in step)
        pick = (lambda t: statistics.quantiles(t, n=10)[0]) if low else statistics.median
        return {label: pick([step.get(label, 0.0) for step in self.steps]) for label in labels}


def _timed(fn, label: str, timings: _Timings):
    """``fn`` with its CPU time added to ``timings`` under ``label`` (a plan's recorded step, the optimizer's)."""
    def call(*args, **kwargs):
        start = _clock()
        try:
            return fn(*args, **kwargs)
        finally:
            timings.add(label, _clock() - start)
    return call


def _labelled(kind: str, node, index: int) -> str:
    """A recorded step's label: its place in the program, forward or backward, and its node's name."""
    return f"{index:2d} {kind} {type(node).__name__.removesuffix('Backward')}"


def core_kernels(steps: int) -> _Timings:
    """Each kernel's seconds in each step of core's replayed step (``_Timings``), with the whole step, the replay's
    whole forward and backward (labels in parentheses: they hold the kernels' times)."""
    case = bench_training.mlp784_case(core, compiled=True)
    loss_of = next(c.cell_contents for c in case.__closure__ if type(c.cell_contents).__name__ == "CompiledFunction")
    opt = next(c.cell_contents for c in case.__closure__ if isinstance(c.cell_contents, core.optim.Optimizer))
    for _ in range(3):
        case()
    plan = loss_of._last
    timings = _Timings()
    plan._steps = tuple((_timed(fwd, _labelled("fwd", node, i), timings), node, a, k, outs)
                        for i, (fwd, node, a, k, outs) in enumerate(plan._steps))
    plan._program = [(node, _timed(bwd, _labelled("bwd", node, i), timings), *rest)
                     for i, (node, bwd, *rest) in enumerate(plan._program)]
    plan._run_forward = plan._run_backward = None
    opt.step = _timed(opt.step, "optimizer.step", timings)
    plan.replay = _timed(plan.replay, "(replay: whole forward)", timings)
    plan.backward = _timed(plan.backward, "(replay: whole backward)", timings)
    opt.zero_grad = _timed(opt.zero_grad, "optimizer.zero_grad", timings)
    for _ in range(100):  # (past GENERATE_AFTER: the generated replay, as a training loop runs)
        case()
    timings.steps.clear()
    for _ in range(steps):
        start = _clock()
        case()
        timings.add("step", _clock() - start)
        timings.end_step()
    return timings


def floor_kernels(steps: int) -> _Timings:
    """Each line's seconds in each step of the NumPy floor (``bench_training.numpy_mlp784``), timed one by one."""
    (w1, b1, w2, b2, w3, b3), x, y = bench_training.numpy_mlp784_data()
    rows, lr = np.arange(64), np.float32(0.01)
    timings = _Timings()
    v: dict = {}

    def line(label, fn):
        start = _clock()
        fn()
        timings.add(label, _clock() - start)

    lines = [
        ("x @ w1 + b1, relu", lambda: v.update(h1=np.maximum(x @ w1 + b1, 0))),
        ("h1 @ w2 + b2, relu", lambda: v.update(h2=np.maximum(v["h1"] @ w2 + b2, 0))),
        ("h2 @ w3 + b3", lambda: v.update(z=v["h2"] @ w3 + b3)),
        ("softmax + loss", lambda: _floor_softmax(v, rows, y)),
        ("gz @ w3.T, relu'", lambda: v.update(gh2=(v["gz"] @ w3.T) * (v["h2"] > 0))),
        ("gh2 @ w2.T, relu'", lambda: v.update(gh1=(v["gh2"] @ w2.T) * (v["h1"] > 0))),
        ("h2.T @ gz", lambda: v.update(g3=v["h2"].T @ v["gz"])),
        ("h1.T @ gh2", lambda: v.update(g2=v["h1"].T @ v["gh2"])),
        ("x.T @ gh1", lambda: v.update(g1=x.T @ v["gh1"])),
        ("bias sums", lambda: v.update(gb=(v["gz"].sum(0), v["gh2"].sum(0), v["gh1"].sum(0)))),
        ("p -= lr * g", lambda: [p.__isub__(lr * g) for p, g in ((w3, v["g3"]), (b3, v["gb"][0]), (w2, v["g2"]),
                                                                (b2, v["gb"][1]), (w1, v["g1"]), (b1, v["gb"][2]))]),
    ]
    for _ in range(steps + 20):
        start = _clock()
        for label, fn in lines:
            line(label, fn)
        timings.add("step", _clock() - start)
        timings.end_step()
    del timings.steps[:20]
    return timings


def _floor_softmax(v, rows, y):
    """The floor's softmax cross-entropy, forward and its gradient ``gz``, as ``bench_training.numpy_mlp784`` has it."""
    z = v["z"]
    z -= z.max(1, keepdims=True)
    e = np.exp(z)
    total = e.sum(1, keepdims=True)
    v["loss"] = np.log(total[:, 0]).sum() - z[rows, y].sum()
    gz = e / total
    gz[rows, y] -= 1
    gz /= np.float32(64)
    v["gz"] = gz


def _best(fn, calls: int = 50) -> float:
    """The least CPU seconds a call of ``fn`` took, over 9 runs of ``calls`` calls (a quiet moment's figure)."""
    fn()
    runs = []
    for _ in range(9):
        start = _clock()
        for _ in range(calls):
            fn()
        runs.append((_clock() - start) / calls)
    return min(runs)


def exact_vs_plain(calls: int = 50) -> list:
    """``(kernel, exact s, plain s, exact's share of elements not torch's, plain's share)`` for the step's GEMMs
    (``core._small_gemm.mkl_gemm``, MKL's order, against NumPy's matmul of the same operands) and its log_softmax
    (SLEEF's exp and log and PyTorch's order of adds, against ``s - log(exp(s).sum())``): what bit-exactness with
    torch costs, and which bits giving it up would change."""
    import torch

    from core import _small_gemm

    torch.set_num_threads(1)
    (w1, b1, w2, b2, w3, b3), x, _ = bench_training.numpy_mlp784_data()
    w1, w2, w3 = (np.ascontiguousarray(w.T) for w in (w1, w2, w3))  # (out, in), as a Linear's weight
    h1 = np.maximum(x @ w1.T + b1, 0)
    h2 = np.maximum(h1 @ w2.T + b2, 0)
    rng = np.random.default_rng(1)
    g3, g2, g1 = (rng.standard_normal((64, n)).astype(np.float32) / 64 for n in (10, 128, 256))
    gemms = [("x @ W1.T + b1", x, w1.T, b1), ("h1 @ W2.T + b2", h1, w2.T, b2), ("h2 @ W3.T + b3", h2, w3.T, b3),
             ("g3 @ W3", g3, w3, None), ("g3.T @ h2", g3.T, h2, None), ("g2 @ W2", g2, w2, None),
             ("g2.T @ h1", g2.T, h1, None), ("g1.T @ x", g1.T, x, None)]
    rows = []
    for name, a, b, c in gemms:
        def plain(a=a, b=b, c=c):
            return a @ b if c is None else a @ b + c
        ta, tb = (torch.from_numpy(p) if p.flags.c_contiguous else torch.from_numpy(p.T).t() for p in (a, b))
        want = (ta @ tb if c is None else torch.addmm(torch.from_numpy(c), ta, tb)).numpy()
        rows.append((f"{name} {a.shape}x{b.shape}", _best(lambda a=a, b=b, c=c: _small_gemm.mkl_gemm(a, b, c), calls),
                     _best(plain, calls), _off(_small_gemm.mkl_gemm(a, b, c), want), _off(plain(), want)))
    z = core.from_numpy(h2 @ w3.T + b3)
    s = z.numpy() - z.numpy().max(1, keepdims=True)

    def plain_log_softmax():
        return s - np.log(np.exp(s).sum(1, keepdims=True))
    want = torch.log_softmax(torch.from_numpy(z.numpy()), 1).numpy()
    with core.no_grad():
        rows.append(("log_softmax (64, 10)", _best(lambda: core.nn.functional.log_softmax(z, 1), calls),
                     _best(plain_log_softmax, calls), _off(core.nn.functional.log_softmax(z, 1).numpy(), want),
                     _off(plain_log_softmax(), want)))
    return rows


def _off(got, want) -> float:
    return float((np.asarray(got, np.float32).view(np.int32) != np.asarray(want, np.float32).view(np.int32)).mean())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--calls", type=int, default=50, help="calls of a kernel a timed run of the last table")
    args = parser.parse_args(argv)
    for title, timings in (("core.compile step (replayed)", core_kernels(args.steps)),
                           ("NumPy floor step", floor_kernels(args.steps))):
        med, low = timings.medians(), timings.medians(low=True)
        step, low_step = med.pop("step"), low.pop("step")
        print(f"\n{title}: step {step * 1e6:.0f} µs median, {low_step * 1e6:.0f} µs 10th percentile")
        for label, seconds in med.items():
            print(f"  {label:<40}{seconds * 1e6:>9.1f}{low[label] * 1e6:>9.1f} µs")
        parts = [label for label in med if not label.startswith("(")]  # (the wholes hold the kernels' times)
        # (the rest of the medians only: percentiles do not add up)
        print(f"  {'(rest: engine, accumulation, Python)':<40}{(step - sum(med[p] for p in parts)) * 1e6:>9.1f}"
              f"{'-':>9} µs")
    print(f"\n{'exact (torch bits) vs plain NumPy, least of 9':<48}{'exact':>9}{'plain':>9}{'exact':>8}{'plain':>8}")
    print(f"{'':<48}{'µs':>9}{'µs':>9}{'!=torch':>8}{'!=torch':>8}")
    for name, exact, plain, exact_off, plain_off in exact_vs_plain(args.calls):
        print(f"  {name:<46}{exact * 1e6:>9.1f}{plain * 1e6:>9.1f}{exact_off:>8.1%}{plain_off:>8.1%}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
