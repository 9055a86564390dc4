"""Drivers for entmax's scripts (``recipes_entmax.py``): its mappings, losses and bisection solvers on seeded inputs,
values and gradients printed with every digit, and a small classifier trained a few steps under each loss."""

from __future__ import annotations

import torch


def _show(name, t):
    print(name, tuple(t.shape), [float(v) for v in t.detach().reshape(-1)[:12].tolist()])


def mappings(entmax, dtype=torch.float64):
    """sparsemax/entmax15 (sort and top-k), the bisection forms (entmax at several alpha, normmax, budget): outputs,
    their support sizes and the gradients of a weighted sum, along each dim."""
    torch.manual_seed(0)
    x = (torch.randn(3, 5, 7, dtype=dtype) * 2).requires_grad_()
    w = torch.randn(3, 5, 7, dtype=dtype)
    calls = [("sparsemax", lambda x, d: entmax.sparsemax(x, dim=d)),
             ("sparsemax_k3", lambda x, d: entmax.sparsemax(x, dim=d, k=3)),
             ("entmax15", lambda x, d: entmax.entmax15(x, dim=d)),
             ("entmax15_k2", lambda x, d: entmax.entmax15(x, dim=d, k=2)),
             ("sparsemax_bisect", lambda x, d: entmax.sparsemax_bisect(x, dim=d)),
             ("entmax_bisect_1.25", lambda x, d: entmax.entmax_bisect(x, alpha=1.25, dim=d)),
             ("entmax_bisect_3", lambda x, d: entmax.entmax_bisect(x, alpha=3.0, dim=d, n_iter=30)),
             ("normmax", lambda x, d: entmax.normmax_bisect(x, alpha=2, dim=d)),
             ("budget", lambda x, d: entmax.budget_bisect(x, budget=2, dim=d))]
    for name, f in calls:
        for d in (-1, 0, 1):
            y = f(x, d)
            (g,) = torch.autograd.grad((y * w).sum(), x)
            _show(f"{name} dim {d}", y)
            print("  support", (y > 0).sum(d).reshape(-1).tolist(), "sum", float(y.sum()))
            _show("  grad", g)


def learned_alpha(entmax):
    """entmax_bisect with a learned alpha per row (EntmaxBisect's alpha gradient)."""
    torch.manual_seed(1)
    x = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
    alpha = torch.full((4, 1), 1.4, dtype=torch.float64, requires_grad=True)
    y = entmax.EntmaxBisect(alpha=alpha, dim=-1)(x)
    gx, ga = torch.autograd.grad((y ** 2).sum(), (x, alpha))
    _show("learned alpha y", y)
    _show("grad x", gx)
    _show("grad alpha", ga)


def losses(entmax, dtype=torch.float64):
    """Each loss with each reduction and an ignored index: values and input gradients."""
    torch.manual_seed(2)
    x = torch.randn(6, 5, dtype=dtype, requires_grad=True)
    y = torch.tensor([0, 3, 1, 4, 2, 3])
    for loss in (entmax.SparsemaxLoss(), entmax.SparsemaxLoss(k=2), entmax.Entmax15Loss(),
                 entmax.Entmax15Loss(k=2), entmax.SparsemaxBisectLoss(), entmax.EntmaxBisectLoss(alpha=1.3),
                 entmax.NormmaxBisectLoss(), entmax.Entmax15Loss(reduction="sum", ignore_index=3),
                 entmax.SparsemaxLoss(reduction="none")):
        value = loss(x, y)
        (g,) = torch.autograd.grad(value.sum(), x)
        _show(type(loss).__name__ + " " + loss.reduction, value.reshape(-1))
        _show("  grad", g)


def train(entmax, steps=5):
    """A 2-layer classifier on seeded blobs trained by Adam under each loss, with an entmax15 attention-like
    mixing layer: the losses per step and the final predictions' probabilities."""
    for name in ("sparsemax", "entmax15", "entmax_bisect"):
        torch.manual_seed(3)
        x = torch.randn(32, 4)
        target = (x[:, 0] + 2 * x[:, 1] > 0).long() + (x[:, 2] > 1).long()
        net = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))
        loss_fn = {"sparsemax": entmax.SparsemaxLoss(), "entmax15": entmax.Entmax15Loss(),
                   "entmax_bisect": entmax.EntmaxBisectLoss(alpha=1.5, n_iter=30)}[name]
        opt = torch.optim.Adam(net.parameters(), lr=0.05)
        for step in range(steps):
            opt.zero_grad()
            loss = loss_fn(net(x), target)
            loss.backward()
            opt.step()
            print(name, step, float(loss))
        mapping = {"sparsemax": entmax.sparsemax, "entmax15": entmax.entmax15,
                   "entmax_bisect": entmax.entmax_bisect}[name]
        _show(name + " probabilities", mapping(net(x[:4]), dim=-1))
