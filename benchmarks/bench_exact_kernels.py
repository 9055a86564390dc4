"""The bit-exact float32 kernels of a small training step, this tree's against another commit's, side by side (#23).

    PYTHONPATH=. python benchmarks/bench_exact_kernels.py [--against REV] [--repeat 15] [--only NAME ...]

Kernels that reproduce PyTorch's float32 bits on the sizes of the playground's small steps (200x8: the 2-8-8-1
tanh MLP's hidden layers on 200 points; 200x1: its logits; 64x256: a batch of 64 through a 256-wide layer):
MKL's tanh (``core._mkl_tanh``), SLEEF's exp (``core._sleef.expf_u10``), the sigmoid loop, the logits loss's
``log1p(exp(-|x|))`` (``log1pf_u10``), and the in-order GEMM of 2 rows that ``core._small_gemm`` keeps for MKL's
order, (2, 10000) @ (10000, 50) (a ``Linear(50, 2)``'s weight gradient), beside NumPy's own op (not bit-exact: the
floor). ``--against REV``: the same kernels from the modules as they were at commit REV (read with ``git show``,
loaded beside this tree's: the modules they import are this tree's), timed in alternation with this tree's in
one process, so that a shared machine's load hits both alike. Each row: the median of ``--repeat`` alternating
runs, in microseconds of this thread's CPU time; the load average is printed at the end.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # read when NumPy loads
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from core import _mkl_tanh, _sleef, _small_gemm  # noqa: E402

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_F32 = np.float32


def _module_at(rev: str, module) -> object:
    """``module`` as it was at commit ``rev``: its source from git, run as a fresh module of another name."""
    path = os.path.relpath(module.__file__, _ROOT)
    source = subprocess.run(["git", "-C", _ROOT, "show", f"{rev}:{path}"], capture_output=True, text=True,
                            check=True).stdout
    name = f"_at_{rev}_{module.__name__.replace('.', '_')}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    old = importlib.util.module_from_spec(spec)
    sys.modules[name] = old
    exec(compile(source, f"{rev}:{path}", "exec"), old.__dict__)  # (this repository's own source)
    return old


def _kernels(tanh, exp, sigmoid, log1p, gemm) -> dict:
    """Name -> (closure, number of calls a run): each kernel (a function of arrays) on the playground's operands."""
    rng = np.random.default_rng(0)
    cases = {}
    for shape in ((200, 8), (200, 1), (64, 256)):
        x = rng.standard_normal(shape).astype(_F32) * _F32(2)
        label = "x".join(map(str, shape))
        calls = 200 if shape[1] < 256 else 40
        cases[f"tanh {label}"] = (lambda x=x: tanh(x), calls)
        cases[f"exp {label}"] = (lambda x=x: exp(x), calls)
        cases[f"sigmoid {label}"] = (lambda x=x: sigmoid(x), calls)
        small = np.exp(-np.abs(x))
        cases[f"log1p(exp(-|x|)) {label}"] = (lambda small=small: log1p(small), calls)
    a = rng.standard_normal((2, 10000)).astype(_F32)
    b = rng.standard_normal((10000, 50)).astype(_F32)
    cases["gemm (2,10000)@(10000,50)"] = (lambda: gemm(a, b), 5)
    return cases


def _cases(tanh, sleef, gemm) -> dict:
    """The bit-exact kernels of ``tanh``, ``sleef`` and ``gemm`` (modules: this tree's or another commit's)."""
    return _kernels(tanh.vtanh, sleef.expf_u10, sleef.loop_sigmoid, sleef.log1pf_u10,
                    lambda a, b: gemm._remainder_rows(a, b, None))


def _floor() -> dict:
    """NumPy's own ops on the same operands: what NumPy alone costs (other bits)."""
    return _kernels(np.tanh, np.exp, lambda x: 1 / (1 + np.exp(-x)), np.log1p, np.matmul)


def _time(fn, calls: int) -> float:
    start = time.thread_time_ns()
    for _ in range(calls):
        fn()
    return (time.thread_time_ns() - start) / calls / 1000


def run(columns: dict, repeat: int, only=None) -> dict:
    """Median µs per call of each case of each column, the columns alternating within every repeat."""
    names = [n for n in next(iter(columns.values())) if not only or any(o in n for o in only)]
    times = {col: {n: [] for n in names} for col in columns}
    for col in columns.values():  # warm-up
        for n in names:
            col[n][0]()
    for r in range(repeat):
        order = list(columns)[r % len(columns):] + list(columns)[:r % len(columns)]
        for n in names:
            for col in order:
                fn, calls = columns[col][n]
                times[col][n].append(_time(fn, calls))
    return {col: {n: statistics.median(t) for n, t in per.items()} for col, per in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", default=None, help="a commit whose kernels run beside this tree's")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--only", nargs="*", default=None, help="cases whose name contains one of these")
    args = parser.parse_args()
    columns = {"core": _cases(_mkl_tanh, _sleef, _small_gemm)}
    if args.against:
        columns[args.against] = _cases(*(_module_at(args.against, m) for m in (_mkl_tanh, _sleef, _small_gemm)))
    columns["numpy"] = _floor()
    med = run(columns, args.repeat, args.only)
    head = f"{'kernel (median µs a call, CPU time)':34}" + "".join(f"{c[:12]:>14}" for c in columns)
    print(head + ("   old/new" if args.against else "") + "   core/numpy")
    for name in med["core"]:
        row = f"{name:34}" + "".join(f"{med[c][name]:14.1f}" for c in columns)
        if args.against:
            row += f"{med[args.against][name] / med['core'][name]:9.2f}x"
        print(row + f"{med['core'][name] / med['numpy'][name]:12.1f}x")
    print("load average", " ".join(f"{v:.2f}" for v in os.getloadavg()))


if __name__ == "__main__":
    main()
