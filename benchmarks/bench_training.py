"""Training steps, core vs PyTorch side by side in one process.

    PYTHONPATH=. python benchmarks/bench_training.py [--repeat 7] [--threads 1]

Two workloads, each timed as the median of ``--repeat`` runs that alternate between the libraries
(so machine load hits both alike), as CPU time of this process (the fairer figure on a shared
machine; both libraries run with ``--threads`` BLAS/OpenMP threads):

- ``mlp784``: one SGD training step (zero_grad, forward, cross-entropy, backward, step) of a
  784-256-128-10 ReLU MLP at batch 64, float32. Target: core within 1.5x PyTorch (a hand-written NumPy
  step is shown as the floor).
- ``tanh1000``: 1,000 full-batch SGD steps of a 2-8-8-1 tanh MLP on 200 points with
  ``binary_cross_entropy_with_logits``, float32. Target: core faster than PyTorch (at this size
  per-op overhead is everything; a hand-written NumPy loop is shown as the floor).

Prints ``ok`` or ``MISSED`` for each target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

_THREADS = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv else "1"
if __name__ == "__main__":  # (imported by tests and other benchmarks, it must leave their environment alone)
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # read when NumPy loads
        os.environ.setdefault(_var, _THREADS)

import numpy as np  # noqa: E402

import core  # noqa: E402

TARGETS = {"mlp784": 1.5, "tanh1000": 1.0}


def _cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def mlp784_case(lib, seed: int = 0, compiled: bool = False):
    """A closure running one training step of the 784-256-128-10 MLP on a fixed batch (the loss through
    ``lib.compile`` with ``compiled``: core's captured step)."""
    nn = lib.nn
    lib.manual_seed(seed)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = lib.optim.SGD(model.parameters(), lr=0.01)
    rng = np.random.default_rng(seed)
    x = lib.tensor(rng.standard_normal((64, 784)).astype(np.float32))
    y = lib.tensor(rng.integers(0, 10, 64))
    loss_of = _loss_of(lib, model, lib.nn.functional.cross_entropy, compiled)

    def step():
        opt.zero_grad()
        loss = loss_of(x, y)
        loss.backward()
        opt.step()

    return step


def _uniform_layers(rng, sizes) -> list:
    """Each layer's float32 weight (stored (in, out)) and bias, uniform in +-1/sqrt(fan_in) as torch's Linear."""
    params = []
    for fan_in, fan_out in sizes:
        bound = np.float32(1 / np.sqrt(fan_in))
        params += [rng.uniform(-bound, bound, (fan_in, fan_out)).astype(np.float32),
                   rng.uniform(-bound, bound, fan_out).astype(np.float32)]
    return params


def numpy_mlp784_data(seed: int = 0):
    """The NumPy floor's weights (stored (in, out), so every GEMM takes contiguous operands), batch and labels."""
    rng = np.random.default_rng(seed)
    params = _uniform_layers(rng, ((784, 256), (256, 128), (128, 10)))
    x = rng.standard_normal((64, 784)).astype(np.float32)
    return params, x, rng.integers(0, 10, 64)


def numpy_mlp784(seed: int = 0):
    """The floor: one step of the same 784-256-128-10 ReLU MLP written by hand in NumPy (forward, softmax
    cross-entropy, backward, ``p -= lr * g``)."""
    params, x, y = numpy_mlp784_data(seed)
    w1, b1, w2, b2, w3, b3 = params
    rows, lr = np.arange(64), np.float32(0.01)

    def step():
        h1 = np.maximum(x @ w1 + b1, 0)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        z = h2 @ w3 + b3
        z -= z.max(1, keepdims=True)
        e = np.exp(z)
        total = e.sum(1, keepdims=True)
        loss = np.log(total[:, 0]).sum() - z[rows, y].sum()  # noqa: F841 - computed, as the libraries do
        gz = e / total
        gz[rows, y] -= 1
        gz /= np.float32(64)
        gh2 = (gz @ w3.T) * (h2 > 0)
        gh1 = (gh2 @ w2.T) * (h1 > 0)
        for p, g in ((w3, h2.T @ gz), (b3, gz.sum(0)), (w2, h1.T @ gh2), (b2, gh2.sum(0)),
                     (w1, x.T @ gh1), (b1, gh1.sum(0))):
            p -= lr * g

    return step


def _spiral_points(n: int = 200, seed: int = 0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0.0, 1.0, n)
    label = rng.integers(0, 2, n)
    r = 0.2 + 0.8 * t
    angle = 2.5 * np.pi * t + np.pi * label
    pts = np.stack([r * np.cos(angle), r * np.sin(angle)], 1) + rng.normal(0, 0.02, (n, 2))
    return pts.astype(np.float32), label.astype(np.float32)[:, None]


def _loss_of(lib, model, loss_fn, compiled: bool):
    """``loss_of(x, y)``: the model's loss, through ``lib.compile`` when ``compiled``."""
    def loss_of(x, y):
        return loss_fn(model(x), y)
    return lib.compile(loss_of) if compiled else loss_of


def tanh1000_case(lib, steps: int = 1000, seed: int = 0, optimizer: str = "SGD", compiled: bool = False):
    """A closure running ``steps`` full-batch steps of the 2-8-8-1 tanh MLP (SGD at lr 0.1, or Adam at 0.01);
    ``compiled`` sends the loss through ``lib.compile`` (core's captured step)."""
    nn = lib.nn
    lib.manual_seed(seed)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = getattr(lib.optim, optimizer)(model.parameters(), lr=0.1 if optimizer == "SGD" else 0.01)
    pts, labels = _spiral_points(seed=seed)
    x, y = lib.tensor(pts), lib.tensor(labels)
    loss_fn = lib.nn.functional.binary_cross_entropy_with_logits
    loss_of = _loss_of(lib, model, loss_fn, compiled)

    def train():
        for _ in range(steps):
            opt.zero_grad()
            loss = loss_of(x, y)
            loss.backward()
            opt.step()

    def current_loss() -> float:
        with lib.no_grad():
            return loss_fn(model(x), y).item()

    train.loss = current_loss
    return train


def numpy_tanh_data(seed: int = 0):
    """The NumPy loop's points, labels and 2-8-8-1 weights."""
    pts, y = _spiral_points(seed=seed)
    return pts, y, _uniform_layers(np.random.default_rng(seed), ((2, 8), (8, 8), (8, 1)))


def numpy_tanh1000(steps: int = 1000, seed: int = 0):
    """The floor: the same 2-8-8-1 training written by hand in NumPy (forward, backward, update)."""
    pts, y, params = numpy_tanh_data(seed)
    w1, b1, w2, b2, w3, b3 = params
    lr, n = np.float32(0.1), np.float32(len(pts))

    def train():
        for _ in range(steps):
            h1 = np.tanh(pts @ w1 + b1)
            h2 = np.tanh(h1 @ w2 + b2)
            z = h2 @ w3 + b3
            gz = (1 / (1 + np.exp(-z)) - y) / n
            gh2 = (gz @ w3.T) * (1 - h2 * h2)
            gh1 = (gh2 @ w2.T) * (1 - h1 * h1)
            for p, g in ((w3, h2.T @ gz), (b3, gz.sum(0)), (w2, h1.T @ gh2), (b2, gh2.sum(0)),
                         (w1, pts.T @ gh1), (b1, gh1.sum(0))):
                p -= lr * g

    return train


def run(cases: dict, repeat: int) -> dict:
    """Median CPU seconds per library, runs interleaved across libraries."""
    for fn in cases.values():  # warm-up
        fn()
    times: dict = {name: [] for name in cases}
    for _ in range(repeat):
        for name, fn in cases.items():
            times[name].append(_cpu(fn))
    return {name: statistics.median(t) for name, t in times.items()}


def _report(title: str, key: str, med: dict, unit: float, unit_name: str) -> None:
    print(title)
    for name, sec in med.items():
        print(f"  {name:<6} {sec * unit:10.2f} {unit_name}")
    if "torch" in med:
        ratio = med["core"] / med["torch"]
        target = TARGETS[key]
        verdict = "ok" if ratio <= target else "MISSED"
        print(f"  core / torch = {ratio:.2f}x (target <= {target}x) {verdict}")


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP threads for both libraries")
    parser.add_argument("--steps", type=int, default=1000, help="steps of the tanh workload")
    parser.add_argument("--mlp-steps", type=int, default=20, help="steps per timed run of the 784 MLP")
    args = parser.parse_args(argv)
    libs = {"core": core}
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        torch.set_num_threads(args.threads)
        libs["torch"] = torch
        print(f"torch {torch.__version__}, {args.threads} thread(s); load average {os.getloadavg()[0]:.2f}")

    def repeated(step, k):
        def go():
            for _ in range(k):
                step()
        return go

    mlp_cases = {name: repeated(mlp784_case(lib), args.mlp_steps) for name, lib in libs.items()}
    mlp_cases["numpy"] = repeated(numpy_mlp784(), args.mlp_steps)
    mlp = run(mlp_cases, args.repeat)
    _report("784-256-128-10 MLP, batch 64, cross-entropy + SGD step (median CPU time per step)", "mlp784",
            {k: v / args.mlp_steps for k, v in mlp.items()}, 1e3, "ms")
    cases = {name: tanh1000_case(lib, args.steps) for name, lib in libs.items()}
    cases["numpy"] = numpy_tanh1000(args.steps)
    tanh = run(cases, args.repeat)
    _report(f"2-8-8-1 tanh MLP, {args.steps} full-batch SGD steps on 200 points (median CPU time)", "tanh1000",
            tanh, 1.0, "s")
    return {"mlp784": mlp, "tanh1000": tanh}


if __name__ == "__main__":
    main()
