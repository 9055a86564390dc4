"""``torch.tensor([t])`` / ``torch.Tensor([t])`` with one-element tensors that require grad, as PyTorch reads them.

PyTorch converts each one-element tensor of the data to a number (the result does not require grad) and warns
once per process that a tensor requiring grad became a scalar; ``float(t)`` and ``complex(t)`` warn the same
way, ``int(t)`` and ``item()`` do not. Core's fast path handed the list to NumPy, whose ``__array__`` call refused
the tensor ("Can't call numpy() on Tensor that requires grad"): deeplearningzerotoall's Visdom lab logs its
loss with ``torch.Tensor([avg_cost])``.
"""

from __future__ import annotations

import subprocess
import sys
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


_GRAD_OFF_SCRIPT = """
import warnings, {lib} as L
t = L.ones(1, requires_grad=True)
def told(fn):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        fn()
    return sum("requires_grad=True to a scalar" in str(w.message) for w in seen)
with {mode}:
    off = told(lambda: {convert})
print(off, told(lambda: {convert}))
"""


@pytest.mark.parametrize("mode", ["L.no_grad()", "L.inference_mode()", "L.set_grad_enabled(False)"])
@pytest.mark.parametrize("convert", ["float(t)", "complex(t)", "L.tensor([t])"])
def test_no_warning_while_grad_mode_is_off_and_the_one_warning_is_kept(torch, mode, convert):
    """LBFGS converts its loss with ``float()`` inside ``no_grad``: torch neither warns there nor spends its
    once-per-process warning, so the first conversion with grad on still warns (each library in a fresh process)."""
    def run(lib):
        script = _GRAD_OFF_SCRIPT.format(lib=lib, mode=mode, convert=convert)
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
        return done.stdout.split()
    assert run("core") == run("torch") == ["0", "1"]
