"""Drivers for the third-party library and model modules of ``recipes_libraries2.py`` (our text).

A recipe fetches one module (a vit-pytorch model file, a torchdiffeq solver, a metric-learning loss...) as its
script, with its support packages (einops) beside it, and appends one call to a driver here. The drivers build a
small seeded model, run forward, backward and a few optimizer steps, and print what a user of the library sees:
the output's shape and values, the losses, the parameter count and the ``state_dict``'s keys and shapes.
``import torch`` resolves to core in core's run, so einops (which picks its backend from ``sys.modules['torch']``)
runs on core there.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def _keys(model, *, limit=12):
    """The state_dict's size, its first and last keys with shapes (a deep model has hundreds)."""
    state = model.state_dict()
    items = [f"{k}{tuple(v.shape)}" for k, v in state.items()]
    shown = items if len(items) <= 2 * limit else [*items[:limit], "...", *items[-limit:]]
    print("state_dict:", len(items), "entries,", sum(v.numel() for v in state.values()), "numbers")
    print("  " + "\n  ".join(shown))


def _values(t):
    """The first values to 5 decimals (fixed, not significant, digits: a logit near 0 is rounding noise)."""
    return [f"{v:.5f}" for v in t.detach().flatten()[:6].tolist()]


def _optimizer(params, lr, sgd):
    """Adam, or SGD with momentum where a conv's bias feeds a BatchNorm: that bias's gradient is rounding noise
    (the batch mean removes it), which Adam's first step would turn into a full learning-rate step."""
    return torch.optim.SGD(params, lr=lr * 50, momentum=0.9) if sgd else torch.optim.Adam(params, lr=lr)


def classifier(make, shape, *, classes, steps=3, lr=1e-3, batch=2, train_mode=True, sgd=False):
    """``make()`` (seeded) on a ``(batch, *shape)`` input: logits, cross-entropy for ``steps`` steps, eval logits."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    _keys(model)
    x = torch.randn(batch, *shape)
    y = torch.randint(0, classes, (batch,))
    opt = _optimizer(model.parameters(), lr, sgd)
    model.train(train_mode)
    for step in range(steps):
        opt.zero_grad()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)
        opt.step()
        print(step, tuple(logits.shape), f"loss {loss.item():.6g}", f"grad norm {norm.item():.6g}")
    print("no grad:", [n for n, p in model.named_parameters() if p.grad is None])
    model.eval()
    with torch.no_grad():
        out = model(x)
    print("eval", tuple(out.shape), _values(out))
    return model


def trainer(make, batch, *, steps=3, lr=1e-3):
    """A self-supervised wrapper (MAE, SimMIM, Dino...) whose ``model(batch)`` is the loss: Adam for ``steps``."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters() if p.requires_grad))
    _keys(model)
    x = batch()
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr)
    for step in range(steps):
        opt.zero_grad()
        loss = model(x)
        loss.backward()
        opt.step()
        print(step, f"loss {loss.item():.6g}")
    return model


def features(make, *inputs, steps=2, lr=1e-3):
    """A module whose output is a tensor (or tuple of tensors) of features: shapes, values, a mean-square fit."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    _keys(model)
    args = [f() for f in inputs]
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(steps):
        opt.zero_grad()
        out = model(*args)
        outs = out if isinstance(out, (tuple, list)) else [out]
        for o in outs:
            print(step, "output", tuple(o.shape), _values(o))
        loss = sum(o.float().square().mean() for o in outs if o.is_floating_point())
        loss.backward()
        opt.step()
        print(step, f"loss {loss.item():.6g}")
    return model
