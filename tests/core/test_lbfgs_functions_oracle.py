"""``torch.optim.lbfgs._strong_wolfe`` and ``_cubic_interpolate``, which libraries import (pytorch-minimize's BFGS,
L-BFGS and CG line searches): on the same functions, starts and directions, the steps, losses, gradients and
evaluation counts equal PyTorch's bit for bit, the same code run on both."""

import importlib

import pytest

import core


def _lbfgs(lib):
    return importlib.import_module(lib.__name__ + ".optim.lbfgs")


def _rosen(lib, x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def _search(lib, dtype, start, scale, **kw):
    """A search from ``start`` along minus the gradient (scaled), as pytorch-minimize calls it."""
    x = lib.tensor(start, dtype=getattr(lib, dtype))

    def obj_func(x, t, d):
        y = (x + t * d).detach().requires_grad_()
        f = _rosen(lib, y)
        (g,) = lib.autograd.grad(f, y)
        return float(f), g

    f0, g0 = obj_func(x, 0.0, lib.zeros_like(x))
    d = -scale * g0
    f, g, t, evals = _lbfgs(lib)._strong_wolfe(obj_func, x, 1.0, d, f0, g0, g0.dot(d), **kw)
    return [f, g.tolist(), float(t), evals, type(t).__name__ == "float"]


CASES = [("float32", [-1.2, 1.0], 1.0, {}), ("float32", [-1.2, 1.0], 1e-3, {}), ("float64", [0.0, 0.0, 0.0], 0.1, {}),
         ("float32", [1.5, 2.0, -0.5], 0.01, {"c2": 0.1}), ("float64", [-1.2, 1.0], 5.0, {"max_ls": 3}),
         ("float32", [2.0, -1.0, 0.3, 0.7], 1.0, {"tolerance_change": 1e-3})]


@pytest.mark.parametrize(("dtype", "start", "scale", "kw"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_strong_wolfe_steps_equal_torchs(torch, dtype, start, scale, kw):
    assert _search(core, dtype, start, scale, **kw) == _search(torch, dtype, start, scale, **kw)


@pytest.mark.parametrize("args", [(0.0, 1.0, -2.0, 1.0, 0.5, 0.3, None), (1.0, 0.5, 0.3, 0.0, 1.0, -2.0, None),
                                  (0.0, 1.0, -2.0, 1.0, 0.5, 0.3, (0.2, 0.4)), (0.0, 1.0, 1.0, 1.0, 0.0, 1.0, None)],
                         ids=["forward", "reversed", "bounded", "no_minimum"])
def test_cubic_interpolate_equals_torchs(torch, args):
    results = []
    for lib in (core, torch):
        x1, f1, g1, x2, f2, g2, bounds = args
        f1, g1, f2, g2 = (lib.tensor(v) for v in (f1, g1, f2, g2))  # the slopes and losses as 0-d tensors
        results.append(float(_lbfgs(lib)._cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=bounds)))
    assert results[0] == results[1]
