"""Every row of the speed targets (issue #23), core vs PyTorch CPU (and the NumPy floor), with its ratio and target.

    PYTHONPATH=. python benchmarks/bench_targets.py [--repeat 5] [--only small|large|mlp]

Workloads come from the other scripts in this folder, so each is measured the same way there and here.
Two groups run in two child processes, because BLAS reads its thread count once, when NumPy loads:

- ``small`` (``z`` forward+backward, ``a + b`` on shape (4,), the 784-256-128-10 MLP step, 1,000 steps of
  the 2-8-8-1 tanh MLP with SGD and with Adam): one BLAS thread for core, ``torch.set_num_threads(1)``,
  CPU time of the process (the machine is shared; threads do not help either library at these sizes).
- ``large`` (the chapter's conv2d forward+backward, add of 16M float32, a 1024x1024 matmul): every core
  for both libraries, wall time.

``--only mlp`` runs the MLP step's rows alone (eager, ``core.compile`` and the NumPy floor), as ``small`` does.

Each figure is a median over ``--repeat`` runs interleaved between the libraries. The table ends with the
load average, since the ratios move with the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (row, workload key, what the ratio divides by, target)
ROWS = [
    ("conv2d 32x3x224x224 * 64x3x7x7, s2 p3, fwd+bwd", "conv", "torch", 1.0),
    ("SGD step, 784-256-128-10 MLP, batch 64", "mlp784", "torch", 0.7),
    ("  MLP step, core.compile", "mlp784_compiled", "torch", 0.7),
    ("z = (x * w).sum() + b, fwd+bwd", "z", "torch", 0.5),
    ("  z fwd+bwd, core.compile", "z_compiled", "torch", 0.5),
    ("a + b, shape (4,)", "tiny_add", "torch", 0.5),
    ("1000 steps 2-8-8-1 tanh MLP, SGD", "tanh_sgd", "torch", 0.5),
    ("  tanh SGD, core.compile", "tanh_sgd_compiled", "torch", 0.5),
    ("1000 steps 2-8-8-1 tanh MLP, SGD vs NumPy loop", "tanh_sgd", "numpy", 3.0),
    ("  tanh SGD vs NumPy, core.compile", "tanh_sgd_compiled", "numpy", 3.0),
    ("1000 steps 2-8-8-1 tanh MLP, Adam", "tanh_adam", "torch", 0.5),
    ("  tanh Adam, core.compile", "tanh_adam_compiled", "torch", 0.5),
    ("add, 16M float32", "add16m", "numpy", 1.05),
    ("matmul, 1024x1024 float32", "matmul1024", "numpy", 1.05),
]


def _interleaved(cases: dict, repeat: int, clock, pause: float = 0.0) -> dict:
    """Median seconds per library; every repeat runs all of them back to back, the first one rotating.

    ``pause`` seconds of sleep before each timed run let the previous library's idle worker threads stop
    spinning (OpenBLAS's and OpenMP's spin for a while after each call and would slow whoever runs next).
    """
    for fn in cases.values():  # warm-up
        fn()
    times: dict = {name: [] for name in cases}
    names = list(cases)
    for r in range(repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            time.sleep(pause)
            start = clock()
            cases[name]()
            times[name].append(clock() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def _small(repeat: int, only_mlp: bool = False) -> dict:
    import bench_autograd
    import bench_training
    import torch

    import core

    torch.set_num_threads(1)
    cpu = time.process_time
    out: dict = {}
    if only_mlp:
        _mlp784(out, repeat, cpu)
        return out
    leaves = {name: bench_autograd._leaves(lib) for name, lib in (("core", core), ("torch", torch),
                                                                  ("core.compile", core))}
    z_of = core.compile(lambda x, w, b: (x * w).sum() + b)

    def compiled_step(x, w, b):
        z_of(x, w, b).backward()
        x.grad = w.grad = b.grad = None

    iters = 2000
    med = _interleaved({name: (lambda n=name, lib=lib: [bench_autograd.step(lib, *leaves[n]) for _ in range(iters)])
                        for name, lib in (("core", core), ("torch", torch))}
                       | {"core.compile": lambda: [compiled_step(*leaves["core.compile"]) for _ in range(iters)]},
                       repeat, cpu)
    _split(out, "z", {k: v / iters for k, v in med.items()})
    loops = 20000
    pairs = {"core": (core.ones(4), core.ones(4)), "torch": (torch.ones(4), torch.ones(4))}

    def adds(a, b):
        for _ in range(loops):
            a + b
    med = _interleaved({name: (lambda p=p: adds(*p)) for name, p in pairs.items()}, repeat, cpu)
    out["tiny_add"] = {k: v / loops for k, v in med.items()}
    _mlp784(out, repeat, cpu)
    for key, opt in (("tanh_sgd", "SGD"), ("tanh_adam", "Adam")):
        cases = {name: bench_training.tanh1000_case(lib, optimizer=opt) for name, lib in (("core", core),
                                                                                         ("torch", torch))}
        cases["core.compile"] = bench_training.tanh1000_case(core, optimizer=opt, compiled=True)
        if opt == "SGD":
            cases["numpy"] = bench_training.numpy_tanh1000()
        _split(out, key, _interleaved(cases, repeat, cpu))
    return out


def _mlp784(out: dict, repeat: int, cpu) -> None:
    """The 784-256-128-10 MLP step: eager core, core.compile, PyTorch and the hand-written NumPy floor."""
    import bench_training
    import torch

    import core

    k = 20
    steps = {name: bench_training.mlp784_case(lib) for name, lib in (("core", core), ("torch", torch))}
    steps["core.compile"] = bench_training.mlp784_case(core, compiled=True)
    steps["numpy"] = bench_training.numpy_mlp784()
    med = _interleaved({name: (lambda s=s: [s() for _ in range(k)]) for name, s in steps.items()}, repeat, cpu)
    _split(out, "mlp784", {name: v / k for name, v in med.items()})


def _split(out: dict, key: str, med: dict) -> None:
    """``out[key]``: eager core beside the references; ``out[key + "_compiled"]``: core.compile beside them."""
    compiled = med.pop("core.compile")
    out[key] = med
    out[key + "_compiled"] = {**med, "core": compiled}


def _large(repeat: int) -> dict:
    import bench_nn
    import numpy as np
    import torch

    import core

    rng = np.random.default_rng(0)
    xa = rng.standard_normal((32, 3, 224, 224)).astype(np.float32)
    wa = rng.standard_normal((64, 3, 7, 7)).astype(np.float32)
    wall = time.perf_counter
    out = {"conv": _interleaved({
        "core": bench_nn._cases(core, core.tensor(xa), core.tensor(wa))["forward+backward"],
        "torch": bench_nn._cases(torch, torch.from_numpy(xa), torch.from_numpy(wa))["forward+backward"],
        "gemms": _conv_gemm_floor()}, repeat, wall, pause=0.2)}
    big = [rng.standard_normal(16 * 1024 * 1024, dtype=np.float32) for _ in range(2)]
    mats = [rng.standard_normal((1024, 1024), dtype=np.float32) for _ in range(2)]
    for key, op, arrays in (("add16m", lambda a, b: a + b, big), ("matmul1024", lambda a, b: a @ b, mats)):
        ops = {"numpy": arrays, "core": [core.from_numpy(a) for a in arrays],
               "torch": [torch.from_numpy(a) for a in arrays]}
        with core.no_grad(), torch.no_grad():
            out[key] = _interleaved({name: (lambda p=p, op=op: op(*p)) for name, p in ops.items()}, repeat * 3, wall,
                                    pause=0.2)
    out["torch_threads"] = torch.get_num_threads()
    return out


def _conv_gemm_floor():
    """A closure running the chapter's conv2d GEMMs alone (forward, input and weight gradients), one sample at a time
    on cache-hot operands, run by core's own chunk runner (its threads, single-threaded BLAS): the floor that
    im2col, col2im and memory traffic add to."""
    import numpy as np

    from core.nn.functional import _conv

    rng = np.random.default_rng(1)
    n, k, length = 32, 147, 112 * 112
    w = rng.standard_normal((64, k)).astype(np.float32)
    wt = np.ascontiguousarray(w.T)
    gy = rng.standard_normal((n, 64, length)).astype(np.float32)
    y = np.empty((n, 64, length), np.float32)

    def work(slices, flat, matmul):  # (the runner's matmul: split over its threads when there is one chunk)
        cols = flat[:k * length].reshape(k, length)
        cols.fill(0.5)
        for sl in slices:
            for i in range(sl.start, sl.stop):
                matmul(w, cols, out=y[i])
                matmul(wt, gy[i], out=cols)
                np.matmul(gy[i], cols.T)

    def gemms():
        _conv._run_chunks(np, n, k * length, np.dtype(np.float32), work)
    return gemms


def _child(group: str, repeat: int) -> dict:
    """Run one group in a fresh interpreter (small and mlp: one BLAS thread, set before NumPy loads)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, HERE, os.environ.get("PYTHONPATH", "")]))
    if group in ("small", "mlp"):
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env[var] = "1"
    proc = subprocess.run([sys.executable, __file__, "--child", group, "--repeat", str(repeat)], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _fmt(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e3), ("us", 1e6)):
        if seconds * scale >= 1.0 or unit == "us":
            return f"{seconds * scale:.3g} {unit}"
    return ""


def report(results: dict) -> int:
    """Print one line per target row; return how many targets were missed."""
    print(f"{'workload':<50}{'core':>10}{'reference':>18}{'ratio':>8}{'target':>9}")
    missed = 0
    for row, key, ref, target in ROWS:
        res = results.get(key)
        if res is None:
            continue
        ratio = res["core"] / res[ref]
        ok = ratio <= target
        missed += not ok
        print(f"{row:<50}{_fmt(res['core']):>10}{ref + ' ' + _fmt(res[ref]):>18}{ratio:>7.2f}x"
              f"{'<= ' + format(target, '.3g') + 'x':>9}  {'ok' if ok else 'MISSED'}")
    if "numpy" in results.get("mlp784", {}):
        floor = results["mlp784"]["numpy"]
        print(f"MLP step: a hand-written NumPy step takes {_fmt(floor)}, {floor / results['mlp784']['torch']:.2f}x "
              f"PyTorch's; core {results['mlp784']['core'] / floor:.2f}x it, core.compile "
              f"{results['mlp784_compiled']['core'] / floor:.2f}x")
    if "gemms" in results.get("conv", {}):
        floor = results["conv"]["gemms"]
        print(f"conv2d: core takes {results['conv']['core'] / floor:.2f}x the time of its GEMMs alone "
              f"({_fmt(floor)}); PyTorch {results['conv']['torch'] / floor:.2f}x")
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; conv2d and the large ops with "
          f"{results.get('torch_threads', '?')} torch threads, the rest with one")
    return missed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", choices=("small", "large", "mlp"), default=None)
    parser.add_argument("--child", choices=("small", "large", "mlp"), default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run = {"small": _small, "large": _large, "mlp": lambda repeat: _small(repeat, only_mlp=True)}[args.child]
        print(json.dumps(run(args.repeat)))
        return 0
    results: dict = {}
    for group in ("small", "large", "mlp"):
        if args.only == group or (args.only is None and group != "mlp"):
            results.update(_child(group, args.repeat))
    report(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
