"""An optimizer's state as PyTorch keeps it: its scalar state (``step``, NAdam's ``mu_product``, ASGD's ``eta``)
is float32, or float64 under a float64 default dtype (PyTorch's ``_get_scalar_dtype``), and Adagrad makes its
``step`` and ``sum`` in its constructor, so a state dict saved before the first step lists them."""

from __future__ import annotations

import pytest

import core

NAMES = ["Adam", "AdamW", "Adagrad", "RMSprop", "NAdam", "RAdam", "Adamax", "ASGD", "Adadelta", "Rprop"]


def _state_after_two_steps(lib, name, default):
    lib.set_default_dtype(getattr(lib, default))
    try:
        p = lib.nn.Parameter(lib.zeros(2))
        p.grad = lib.ones(2)
        opt = getattr(lib.optim, name)([p])
        before = repr(opt.state_dict()["state"])
        opt.step()
        opt.step()
        return before, [(key, str(value.dtype), value.tolist()) for key, value in opt.state[p].items()]
    finally:
        lib.set_default_dtype(lib.float32)


@pytest.mark.parametrize("default", ["float32", "float64"])
@pytest.mark.parametrize("name", NAMES)
def test_optimizer_state_keys_dtypes_and_values_are_torchs(torch, name, default):
    ours_before, ours = _state_after_two_steps(core, name, default)
    theirs_before, theirs = _state_after_two_steps(torch, name, default)
    assert ours_before == theirs_before
    assert [(k, d) for k, d, _ in ours] == [(k, d) for k, d, _ in theirs]
    for (_, _, a), (_, _, b) in zip(ours, theirs):
        assert a == pytest.approx(b, rel=1e-15)
