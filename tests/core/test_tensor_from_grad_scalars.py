"""``torch.tensor([t])`` / ``torch.Tensor([t])`` with one-element tensors that require grad, as PyTorch reads them.

PyTorch converts each one-element tensor of the data to a number (the result does not require grad) and warns
once per process that a tensor requiring grad became a scalar; ``float(t)`` and ``complex(t)`` warn the same
way, ``int(t)`` and ``item()`` do not. Core's fast path handed the list to NumPy, whose ``__array__`` call refused
the tensor ("Can't call numpy() on Tensor that requires grad"): deeplearningzerotoall's Visdom lab logs its
loss with ``torch.Tensor([avg_cost])``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from core import _warn_once
from tests.core.oracle import raised

CASES = ["L.Tensor([a])", "L.FloatTensor([a, a])", "L.tensor([a])", "L.tensor([a, 1.0])", "L.tensor([[a], [a]])",
         "L.as_tensor([a])", "L.tensor([a, L.tensor(3.0)])", "L.tensor([a], dtype=L.float64)",
         "L.tensor([b, b])", "L.Tensor([b, b])", "L.LongTensor([a])"]


def _value(lib, expr):
    a = lib.tensor(2.5, requires_grad=True) * 2
    b = lib.ones(2, requires_grad=True) * 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval(expr, {"L": lib, "a": a, "b": b})


@pytest.mark.parametrize("expr", CASES)
def test_lists_of_tensors_that_require_grad_read_as_torch_does(torch, expr):
    ours, theirs = raised(lambda: _value(core, expr)), raised(lambda: _value(torch, expr))
    assert ours == theirs
    if ours is None:
        x, y = _value(core, expr), _value(torch, expr)
        assert str(x.dtype) == str(y.dtype) and tuple(x.shape) == tuple(y.shape)
        assert not x.requires_grad and not y.requires_grad
        np.testing.assert_array_equal(x.numpy(), y.numpy())


@pytest.mark.parametrize("how, warns", [("float", True), ("complex", True), ("int", False), ("item", False),
                                        ("list", True)])
def test_a_scalar_from_a_tensor_that_requires_grad_warns_once(how, warns, monkeypatch):
    monkeypatch.setattr(_warn_once, "_warned", set())  # (as in a fresh process)
    a = core.tensor(2.0, requires_grad=True)
    convert = {"float": float, "complex": complex, "int": int, "item": lambda t: t.item(),
               "list": lambda t: core.tensor([t])}[how]
    for _ in range(2):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            convert(a)
        messages = [str(w.message) for w in seen if "requires_grad=True to a scalar" in str(w.message)]
        assert len(messages) == (1 if warns and _ == 0 else 0)
