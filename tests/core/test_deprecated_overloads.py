"""The deprecated scalar-first overloads (``p.data.add_(-lr, grad)``) compute and warn as PyTorch's do."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from core import _warn_once
from tests.core.oracle import assert_same

X, G, H = np.ones((2, 3)), np.arange(6.0).reshape(2, 3), np.arange(1.0, 7.0).reshape(2, 3)
M = np.arange(4.0).reshape(2, 2)

CALLS = {
    "add_": lambda lib, x, g, h: x.clone().add_(-0.5, g),
    "add": lambda lib, x, g, h: x.add(2, g),
    "torch.add": lambda lib, x, g, h: lib.add(x, 2, g),
    "sub_": lambda lib, x, g, h: x.clone().sub_(2, g),
    "sub": lambda lib, x, g, h: x.sub(2, g),
    "torch.sub": lambda lib, x, g, h: lib.sub(x, 2, g),
    "add_ two numbers": lambda lib, x, g, h: x.clone().add_(2, 3),
    "addcmul_": lambda lib, x, g, h: x.clone().addcmul_(0.5, g, h),
    "addcmul": lambda lib, x, g, h: x.addcmul(0.5, g, h),
    "torch.addcmul": lambda lib, x, g, h: lib.addcmul(x, 0.5, g, h),
    "addcdiv_": lambda lib, x, g, h: x.clone().addcdiv_(0.5, g, h),
    "addcdiv": lambda lib, x, g, h: x.addcdiv(0.5, g, h),
    "torch.addcdiv": lambda lib, x, g, h: lib.addcdiv(x, 0.5, g, h),
}

ADDMM = {
    "beta": lambda lib, m: m.addmm(0.5, m, m),
    "beta alpha": lambda lib, m: m.addmm(0.5, 2, m, m),
    "torch beta": lambda lib, m: lib.addmm(0.5, m, m, m),
    "torch beta alpha": lambda lib, m: lib.addmm(0.5, m, 2, m, m),
    "in place": lambda lib, m: m.clone().addmm_(0.5, 2, m, m),
}


@pytest.fixture(autouse=True)
def fresh_warning(monkeypatch):
    """PyTorch warns for the first deprecated call of a process only: each test starts as a fresh process."""
    monkeypatch.setattr(_warn_once, "_warned", set())


def both(torch, fn, *arrays):
    with pytest.warns(UserWarning, match="deprecated"):
        ours = fn(core, *[core.tensor(a) for a in arrays])
    with warnings.catch_warnings():  # torch warns once per process: only its first such call in the session does
        warnings.simplefilter("ignore", UserWarning)
        theirs = fn(torch, *[torch.tensor(a) for a in arrays])
    return ours, theirs


@pytest.mark.parametrize("call", CALLS, ids=list(CALLS))
def test_scalar_first_overload_computes_torchs_result(torch, call):
    ours, theirs = both(torch, CALLS[call], X, G, H)
    assert_same(ours, theirs)


@pytest.mark.parametrize("call", ADDMM, ids=list(ADDMM))
def test_addmm_with_beta_and_alpha_first_computes_torchs_result(torch, call):
    ours, theirs = both(torch, ADDMM[call], M)
    assert_same(ours, theirs)


def test_only_the_first_deprecated_call_warns_with_torchs_message(recwarn):
    x, g = core.ones(3), core.arange(3.0)
    x.add_(-0.5, g)
    x.sub_(1, g)
    x.addcmul_(0.5, g, g)
    messages = [str(w.message) for w in recwarn if issubclass(w.category, UserWarning)]
    assert messages == [  # torch's text, less its "(Triggered internally at ...)" tail
                        "This overload of add_ is deprecated:\n\tadd_(Number alpha, Tensor other)\nConsider using "
                        "one of the following signatures instead:\n\tadd_(Tensor other, *, Number alpha = 1)"]


def test_scalar_first_update_keeps_gradients_flowing():
    w = core.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning):
        y = core.zeros(2).add(3, w)
    y.sum().backward()
    assert w.grad.tolist() == [3.0, 3.0]


def test_alpha_keyword_with_the_old_order_raises_type_error_as_torch(torch):
    for lib in (core, torch):
        with pytest.raises(TypeError, match="alpha"):
            lib.ones(3).add(2, lib.ones(3), alpha=3)
