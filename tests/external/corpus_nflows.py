"""Drivers for ``recipes_nflows.py`` (our text): nflows' flows, transforms and distributions on core.

``run_tests(namespace)`` runs a test file's ``unittest`` classes (``corpus_labml.run_tests``, each outcome printed);
``run_module(name)`` does so for a test module imported from the script's folder (the spline tests, which have no
``unittest.main()`` of their own). The drivers build flows from seeded weights in float64 (the transforms' float32
matrix products and log-determinants round differently under OpenBLAS and MKL) and print, to 9 significant digits,
what a user reads: transformed values and log-determinants, inverses, ``log_prob``, samples (the base distribution
draws from torch's generator, which core reproduces), and each step's loss in a few steps of training.
"""

from __future__ import annotations

import torch
from corpus_labml import run_tests  # noqa: F401  (the recipes call it on a test file's globals)


def run_module(name):
    """The ``unittest`` classes of the module ``name`` (imported from the script's folder), each test's outcome."""
    import importlib
    import unittest

    module = importlib.import_module(name)
    cases = sorted((v for v in vars(module).values() if isinstance(v, type) and issubclass(v, unittest.TestCase)
                    and v.__module__ == name), key=lambda c: c.__name__)
    counts = {"ok": 0, "FAIL": 0, "ERROR": 0, "skip": 0}
    for test in [t for case in cases for t in unittest.defaultTestLoader.loadTestsFromTestCase(case)]:
        result = unittest.TestResult()
        test.run(result)
        outcome, detail = "ok", ""
        for kind, found in (("FAIL", result.failures), ("ERROR", result.errors)):
            if found:
                outcome, detail = kind, found[0][1].strip().splitlines()[-1]
        if result.skipped:
            outcome, detail = "skip", result.skipped[0][1]
        counts[outcome] += 1
        print(f"{type(test).__name__}.{test._testMethodName}: {outcome} {detail}".rstrip())
    print(counts)


def show(label, value):
    """A tensor's digest; magnitudes below 1e-12 print as 0: they are float64 rounding left where terms cancel (the
    log-determinant of an orthogonal weight, a shift's gradient), whose last bits follow LAPACK's and BLAS's orders."""
    if not isinstance(value, torch.Tensor):  # (DiagonalNormal's mean in this release: a method, not a tensor)
        print(label, type(value).__name__)
        return
    t = value.detach()
    f = t.double()
    f = torch.where(f.abs() < 1e-12, torch.zeros_like(f), f)
    head = ", ".join(f"{x:.9g}" for x in f.flatten()[:4].tolist())
    print(label, tuple(t.shape), t.dtype, f"abs-sum {f.abs().sum().item():.9g} max {f.abs().max().item():.9g}",
          f"[{head}]")


class _default:
    """The default dtype set to ``dtype`` inside the block (nflows builds its buffers and base distributions in it)."""

    def __init__(self, dtype=torch.float64):
        self.dtype = dtype

    def __enter__(self):
        self.saved = torch.get_default_dtype()
        torch.set_default_dtype(self.dtype)

    def __exit__(self, *exc):
        torch.set_default_dtype(self.saved)


def _inputs(n, features, seed=1):
    return torch.randn(n, features, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def _moons(n, seed=3):
    """Two interleaved half circles with noise (the nflows moons notebook's data, drawn here from a seeded torch
    generator instead of scikit-learn's)."""
    g = torch.Generator().manual_seed(seed)
    t = torch.rand(n, generator=g, dtype=torch.float64) * torch.pi
    upper = torch.rand(n, generator=g, dtype=torch.float64) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + 0.1 * torch.randn(n, 2, generator=g, dtype=torch.float64)


def transform(nf, build, features=4, n=5, context=None, inverse=True, dtype="float64"):
    """A transform built by ``build(nf)``: forward values and log-determinants, the inverse's, and the gradients of
    the log-determinant's sum with respect to the transform's parameters. ``dtype`` "float32": for the elementwise
    transforms (no matrix product to round in BLAS's order)."""
    torch.manual_seed(0)
    with _default(getattr(torch, dtype)):
        t = build(nf)
        x = _inputs(n, features).to(torch.get_default_dtype())
        ctx = _inputs(n, context, seed=2).to(x.dtype) if context else None
        y, logdet = t(x, context=ctx)
        show("y", y)
        show("logdet", logdet)
        if inverse:
            x2, logdet2 = t.inverse(y.detach(), context=ctx)
            show("x back", x2)
            show("logdet back", logdet2)
            print("round trip", f"{(x2 - x).abs().max().item():.3g}" if (x2 - x).abs().max().item() > 1e-9 else "ok")
        params = [(name, p) for name, p in t.named_parameters() if p.requires_grad]
        if params:
            (logdet.sum() + y.pow(2).sum()).backward()
            for name, p in params[:6]:
                if p.grad is not None:
                    show(f"grad {name}", p.grad)


def flow(nf, build, features=2, steps=5, lr=1e-3, context=None, samples=4):
    """A flow built by ``build(nf)`` trained with Adam on seeded moons (``-log_prob`` as the loss, as nflows' moons
    notebook does): each step's loss, then ``log_prob`` of a grid of points, samples, and
    ``sample_and_log_prob``/``transform_to_noise``."""
    torch.manual_seed(0)
    with _default():
        f = build(nf)
        opt = torch.optim.SGD(f.parameters(), lr=lr * 10, momentum=0.9)
        data = _moons(64)
        ctx = _inputs(64, context, seed=4) if context else None
        for step in range(steps):
            opt.zero_grad()
            loss = -f.log_prob(inputs=data, context=ctx).mean()
            loss.backward()
            opt.step()
            print(step, f"{loss.item():.12g}")
        f.eval()
        with torch.no_grad():
            grid = torch.stack(torch.meshgrid(torch.linspace(-1, 2, 4, dtype=torch.float64),
                                              torch.linspace(-0.5, 1, 3, dtype=torch.float64), indexing="ij"), -1)
            grid = grid.reshape(-1, 2)
            show("log_prob grid", f.log_prob(grid, context=ctx[:12] if context else None))
            torch.manual_seed(7)
            if context:
                show("samples", f.sample(samples, context=ctx[:2]))
                s, lp = f.sample_and_log_prob(samples, context=ctx[:2])
            else:
                show("samples", f.sample(samples))
                s, lp = f.sample_and_log_prob(samples)
            show("sample_and_log_prob", s)
            show("its log_prob", lp)
            show("noise", f.transform_to_noise(data[:6], context=ctx[:6] if context else None))


def distributions(nf):
    """nflows' base distributions: standard and diagonal normals (with and without context), uniform, the
    conditional mean-and-log-std normal, and the discrete ConditionalIndependentBernoulli: log_prob, samples, mean."""
    torch.manual_seed(0)
    with _default():
        x = _inputs(5, 3)
        for name, d, ctx in (("standard", nf.distributions.StandardNormal([3]), None),
                             ("diag", nf.distributions.DiagonalNormal([3]), None),
                             ("conditional", nf.distributions.ConditionalDiagonalNormal(
                                 [3], context_encoder=torch.nn.Linear(2, 6)), _inputs(5, 2, seed=2))):
            torch.manual_seed(3)
            for what, call in (("log_prob", lambda d=d, ctx=ctx: d.log_prob(x, context=ctx)),
                               ("sample", lambda d=d, ctx=ctx: d.sample(2, context=ctx)),
                               ("mean", lambda d=d, ctx=ctx: d.mean(context=ctx))):
                try:
                    show(f"{name} {what}", call())
                except NotImplementedError:  # (DiagonalNormal has neither _sample nor _mean in this release)
                    print(f"{name} {what}: NotImplementedError")
        bern = nf.distributions.ConditionalIndependentBernoulli([3], context_encoder=torch.nn.Linear(2, 3))
        ctx = _inputs(5, 2, seed=2)
        show("bernoulli log_prob", bern.log_prob((x > 0).double(), context=ctx))
        torch.manual_seed(3)
        show("bernoulli sample", bern.sample(2, context=ctx))
        show("bernoulli mean", bern.mean(context=ctx))
