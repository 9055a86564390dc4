"""Drivers for ``recipes_ekan.py`` (our text): efficient-kan's KAN layers on core.

Each driver builds ``KAN``/``KANLinear`` from seeded weights with float64 as the default dtype unless told (a layer's
``reset_parameters`` fits its initial spline weights to noise with ``torch.linalg.lstsq``, which torch's CPU build
hands to MKL's QR-based ``gelsy`` and core solves through a pseudo-inverse: in float32 the two round differently) and
prints what a user reads, as digests (absolute sum, largest magnitude, first values to 9 significant digits):
the B-spline bases, outputs, gradients, the grid after ``update_grid``, ``curve2coeff``'s least-squares spline
coefficients, the regularization loss, and the losses of a few training steps.
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


class _default:
    """The default dtype set to ``dtype`` inside the block (the layers build their grid and noise in it)."""

    def __init__(self, dtype):
        self.dtype = dtype

    def __enter__(self):
        self.saved = torch.get_default_dtype()
        torch.set_default_dtype(self.dtype)

    def __exit__(self, *exc):
        torch.set_default_dtype(self.saved)


def show(label, value):
    if not isinstance(value, torch.Tensor):
        print(label, repr(value))
        return
    t = value.detach()
    f = t.double()
    head = ", ".join(f"{x:.9g}" for x in f.flatten()[:4].tolist())
    print(label, tuple(t.shape), t.dtype, f"abs-sum {f.abs().sum().item():.9g} max {f.abs().max().item():.9g}",
          f"[{head}]")


def _inputs(shape, seed=1, dtype=torch.float64):
    return torch.rand(*shape, generator=torch.Generator().manual_seed(seed), dtype=dtype) * 2 - 1


def layer(ns, in_features=3, out_features=4, dtype="float64", **kwargs):
    """One ``KANLinear``: its B-spline bases at seeded inputs, the output, the gradients of a squared loss, the
    scaled spline weight, the regularization loss; then ``update_grid`` on inputs wider than the grid and the
    layer's grid, weights and output after it."""
    dtype = getattr(torch, dtype)
    torch.manual_seed(0)
    with _default(dtype):
        kan = ns.KANLinear(in_features, out_features, **kwargs)
    x = _inputs((6, in_features), dtype=dtype)
    show("bases", kan.b_splines(x))
    show("grid", kan.grid)
    y = kan(x)
    show("out", y)
    y.pow(2).sum().backward()
    for name, p in kan.named_parameters():
        show(f"grad {name}", p.grad)
    show("scaled spline weight", kan.scaled_spline_weight)
    show("reg", kan.regularization_loss())
    show("reg activation only", kan.regularization_loss(1.0, 0.0))
    with torch.no_grad():
        wide = _inputs((16, in_features), seed=2, dtype=dtype) * 1.7
        kan.update_grid(wide, margin=0.05)
    show("grid after update", kan.grid)
    show("spline weight after update", kan.spline_weight)
    show("out after update", kan(x))


def coeffs(ns, dtype="float64"):
    """``curve2coeff``: the spline coefficients ``torch.linalg.lstsq`` fits to points of a curve."""
    dtype = getattr(torch, dtype)
    torch.manual_seed(0)
    with _default(dtype):
        kan = ns.KANLinear(2, 3, grid_size=4)
    x = _inputs((20, 2), dtype=dtype)
    y = torch.stack([torch.sin(3 * x), x ** 2, torch.tanh(x)], dim=2)
    c = kan.curve2coeff(x, y)
    show("coeff", c)
    bases = kan.b_splines(x)
    fit = torch.einsum("bik,jik->bij", bases, c) - y
    print("residual norms", [round(v, 12) for v in fit.norm(dim=0).flatten().tolist()])  # (x**2 fits to rounding)


def train(ns, widths=(2, 5, 1), steps=6, opt="adam", dtype="float64", update_every=3, reg=(1.0, 0.5), cast=None,
          **kwargs):
    """A ``KAN`` fitted to (u + v) / (1 + u v) as the package's test does, with Adam, SGD or LBFGS: each step's
    loss and regularization loss, the grid updated every ``update_every`` steps, the final spline weights."""
    dtype = getattr(torch, dtype)
    torch.manual_seed(0)
    with _default(dtype):
        kan = ns.KAN(list(widths), **kwargs)
    if cast:  # built in float64 (its lstsq initialisation), then trained in ``cast``
        dtype = getattr(torch, cast)
        kan = kan.to(dtype)
    params = list(kan.parameters())
    optimizer = {"adam": lambda: torch.optim.Adam(params, lr=0.01),
                 "sgd": lambda: torch.optim.SGD(params, lr=0.05, momentum=0.9),
                 "adamw": lambda: torch.optim.AdamW(params, lr=0.01, weight_decay=1e-4),
                 "lbfgs": lambda: torch.optim.LBFGS(params, lr=1, max_iter=5)}[opt]()
    for step in range(steps):
        x = torch.rand(64, widths[0], dtype=dtype)
        target = ((x[:, 0] + x[:, -1]) / (1 + x[:, 0] * x[:, -1])).unsqueeze(-1).expand(-1, widths[-1])

        def closure(x=x, target=target, step=step):
            optimizer.zero_grad()
            y = kan(x, update_grid=step % update_every == 0)
            loss = F.mse_loss(y, target)
            total = loss + 1e-3 * kan.regularization_loss(*reg)
            total.backward()
            return total

        loss = optimizer.step(closure)
        print(step, f"{loss.item():.12g}", f"{kan.regularization_loss(*reg).item():.12g}")
    for i, lay in enumerate(kan.layers):
        show(f"layer {i} spline", lay.spline_weight)
        show(f"layer {i} base", lay.base_weight)
        show(f"layer {i} grid", lay.grid)


def shapes(ns):
    """KANLinear as a drop-in for nn.Linear: inputs with several leading dimensions, in a Sequential with
    LayerNorm, and its state dict round trip."""
    torch.manual_seed(0)
    with _default(torch.float64):
        net = nn.Sequential(ns.KANLinear(4, 6), nn.LayerNorm(6), ns.KANLinear(6, 2, base_activation=nn.GELU))
    x = _inputs((2, 3, 5, 4))
    y = net(x)
    show("nd out", y)
    y.sum().backward()
    show("grad spline", net[0].spline_weight.grad)
    state = net.state_dict()
    print(list(state))
    torch.manual_seed(5)
    with _default(torch.float64):
        other = nn.Sequential(ns.KANLinear(4, 6), nn.LayerNorm(6), ns.KANLinear(6, 2, base_activation=nn.GELU))
    other.load_state_dict(state)
    print("same", torch.equal(other(x), y.detach()))
