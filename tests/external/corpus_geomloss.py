"""Drivers for ``recipes_geomloss.py`` (GeomLoss 0.2.6 on core and on torch, tensorized backend, no KeOps).

Each driver builds seeded point clouds (NumPy's generator, the same in both runs), evaluates ``SamplesLoss`` or the
grid solvers and prints values, dual potentials and gradients with every digit (``.tolist()`` reprs).
"""

from __future__ import annotations

import numpy as np
import torch


def show(name, value):
    """``name`` and ``value``'s numbers with every digit."""
    print(name, repr(value.detach().tolist() if isinstance(value, torch.Tensor) else value))


def _clouds(n=12, m=15, d=2, batch=None, dtype=torch.float64, seed=0):
    rng = np.random.RandomState(seed)
    shape = (batch,) if batch else ()
    x = torch.tensor(rng.rand(*shape, n, d), dtype=dtype)
    y = torch.tensor(rng.rand(*shape, m, d) * 0.6 + 0.3, dtype=dtype)
    a = torch.tensor(rng.rand(*shape, n) + 0.5, dtype=dtype)
    b = torch.tensor(rng.rand(*shape, m) + 0.5, dtype=dtype)
    return x, y, a / a.sum(-1, keepdim=True), b / b.sum(-1, keepdim=True)


def samples(label, weighted=False, batch=None, d=2, dtype=torch.float64, **options):
    """``SamplesLoss(**options)`` (tensorized) between two seeded clouds: the value and its gradients with respect
    to the points (and the weights when ``weighted``)."""
    from geomloss import SamplesLoss

    loss = SamplesLoss(backend="tensorized", **options)
    x, y, a, b = _clouds(d=d, batch=batch, dtype=dtype)
    x.requires_grad_(True)
    if weighted:
        a.requires_grad_(True)
        value = loss(a, x, b, y)
    else:
        value = loss(x, y)
    grads = torch.autograd.grad(value.sum(), [x, a] if weighted else [x])
    show(f"{label} value", value)
    for i, g in enumerate(grads):
        show(f"{label} grad[{i}]", g)


def potentials(label, **options):
    """The dual potentials ``F``, ``G`` of ``SamplesLoss(potentials=True, **options)`` on weighted clouds."""
    from geomloss import SamplesLoss

    x, y, a, b = _clouds()
    f, g = SamplesLoss(backend="tensorized", potentials=True, **options)(a, x, b, y)
    show(f"{label} F", f)
    show(f"{label} G", g)


def custom_cost(label):
    """Sinkhorn with a cost given as a function (the L1 distance) and as a KeOps formula string (refused without
    KeOps: the tensorized backend wants a callable)."""

    def l1(x, y):
        return (x[:, :, None, :] - y[:, None, :, :]).abs().sum(-1)

    samples(f"{label} l1", loss="sinkhorn", p=1, blur=0.1, cost=l1)
    try:
        samples(f"{label} formula", loss="sinkhorn", p=1, cost="Norm2(X-Y)")
    except Exception as exc:  # the failure is the output, in both libraries
        print(label, "formula raised", type(exc).__name__, str(exc).splitlines()[0][:120] if str(exc) else "")


def double_backward(label, **options):
    """A Hessian-vector product of the loss with respect to the points (the tensorized solvers' gradients are
    themselves differentiable when the points require it)."""
    from geomloss import SamplesLoss

    x, y, _, _ = _clouds()
    x.requires_grad_(True)
    value = SamplesLoss(backend="tensorized", **options)(x, y)
    (grad,) = torch.autograd.grad(value, x, create_graph=True)
    v = torch.tensor(np.random.RandomState(3).randn(*x.shape))
    (hvp,) = torch.autograd.grad((grad * v).sum(), x)
    show(f"{label} grad", grad)
    show(f"{label} hvp", hvp)


def flow(label, steps=5, lr=0.05, dtype=torch.float64, **options):
    """A gradient flow as the package's examples run it: ``x -= lr * N * grad`` for ``steps`` Euler steps; each
    loss and the points at the end."""
    from geomloss import SamplesLoss

    loss = SamplesLoss(backend="tensorized", **options)
    x, y, _, _ = _clouds(n=20, m=20, dtype=dtype)
    for step in range(steps):
        x.requires_grad_(True)
        value = loss(x, y)
        (grad,) = torch.autograd.grad(value, x)
        show(f"{label} step {step}", value)
        x = (x - lr * len(x) * grad).detach()
    show(f"{label} points", x)


def train(label, steps=6, **options):
    """A small generator (an MLP from seeded noise to 2-D points) fitted to a target cloud with Adam on a
    ``SamplesLoss``; each loss and the last layer's weights."""
    from geomloss import SamplesLoss

    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))
    loss = SamplesLoss(backend="tensorized", **options)
    _, y, _, _ = _clouds(m=24, dtype=torch.float32)
    z = torch.tensor(np.random.RandomState(1).randn(24, 3), dtype=torch.float32)
    opt = torch.optim.SGD(net.parameters(), lr=0.5, momentum=0.5)
    for step in range(steps):
        opt.zero_grad()
        value = loss(net(z), y)
        value.backward()
        opt.step()
        show(f"{label} step {step}", value)
    show(f"{label} weight", net[2].weight)

