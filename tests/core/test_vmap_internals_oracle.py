"""``torch._vmap_internals._vmap``, the legacy vmap libraries still import (pytorch-minimize's Hessians and
Jacobians: ``_vmap(lambda v: autograd.grad(g, x, v))(eye)``): the same values as PyTorch's, bit for bit, its
``None`` pass-through, its ``in_dims``/``out_dims`` and the legacy API's own errors; ``vmap`` warns as deprecated."""

import importlib
import warnings

import pytest

import core


def _run(lib, fn):
    return fn(lib, importlib.import_module(lib.__name__ + "._vmap_internals"))


def _same(a, b):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif a is None:
        assert b is None
    else:
        assert a.dtype == getattr(core, str(b.dtype).split(".")[1]) and a.shape == tuple(b.shape)
        assert a.tolist() == b.tolist()


def _hessian(lib, v, dtype="float32"):
    lib.manual_seed(0)
    x = lib.randn(6, dtype=getattr(lib, dtype), requires_grad=True)
    f = 100 * (x[1:] - x[:-1] ** 2).pow(2).sum() + (1 - x[:-1]).pow(2).sum() + x.sin().prod()
    (g,) = lib.autograd.grad(f, x, create_graph=True)
    return v._vmap(lambda r: lib.autograd.grad(g, x, r, retain_graph=True)[0])(lib.eye(6, dtype=x.dtype))


def _jacobian(lib, v):
    lib.manual_seed(1)
    x = lib.randn(4, requires_grad=True)
    y = lib.stack([x.exp().sum(), (x * x[0]).sum(), x.tanh()[2]])
    return v._vmap(lambda r: lib.autograd.grad(y, x, r, retain_graph=True)[0])(lib.eye(3))


def _unused(lib, v):
    lib.manual_seed(2)
    x, unused = lib.randn(3, requires_grad=True), lib.randn(2, requires_grad=True)
    y = x.cos()
    return v._vmap(lambda r: lib.autograd.grad(y, (x, unused), r, retain_graph=True, allow_unused=True),
                   allow_none_pass_through=True)(lib.eye(3))


def _dims(lib, v):
    a, b = lib.arange(6.0).reshape(2, 3), lib.arange(2.0)
    return v._vmap(lambda p, q: (p * q, p - q), in_dims=(1, None), out_dims=(0, 1))(a, b)


@pytest.mark.parametrize("case", [_hessian, lambda lib, v: _hessian(lib, v, "float64"), _jacobian, _unused, _dims],
                         ids=["hessian_f32", "hessian_f64", "jacobian", "none_pass_through", "in_out_dims"])
def test_legacy_vmap_gives_torchs_values(torch, case):
    _same(_run(core, case), _run(torch, case))


@pytest.mark.parametrize("call", [lambda lib, v: v._vmap(lambda a: None)(lib.ones(2)),
                                  lambda lib, v: v._vmap(lambda a: (a, 3))(lib.ones(2)),
                                  lambda lib, v: v._vmap(lambda a: a, out_dims="a")(lib.ones(2)),
                                  lambda lib, v: v._vmap(lambda a: (a, None))(lib.ones(2))],
                         ids=["none", "int_output", "bad_out_dims", "none_without_pass_through"])
def test_legacy_vmap_refuses_as_torch_does(torch, call):
    with pytest.raises(ValueError) as theirs:
        _run(torch, call)
    with pytest.raises(ValueError, match=None) as ours:
        _run(core, call)
    assert str(ours.value) == str(theirs.value)


def test_deprecated_vmap_warns_and_maps(torch):
    for lib in (core, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = importlib.import_module(lib.__name__ + "._vmap_internals").vmap(lib.sum)(lib.ones(2, 3))
        assert out.tolist() == [3.0, 3.0]
        assert [(w.category, str(w.message)) for w in caught] == [
            (FutureWarning, "Please use `torch.vmap` instead of `torch._vmap_internals.vmap`.")]
