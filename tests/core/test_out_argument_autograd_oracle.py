"""``out=`` and autograd, as PyTorch 2.13: a differentiable op given ``out=`` refuses an input that requires grad
while grad mode is on (``<op>(): functions with out=... arguments don't support automatic differentiation``), and
is fine under ``no_grad`` or on a detached input; a non-differentiable op (``eq``) never refuses. ``sum`` takes
``out=`` with a ``dim`` only."""

import pytest

import core
from tests.core.oracle import assert_same, raised

CALLS = {
    "add": lambda lib, w, W: lib.add(w, 1, out=lib.empty(3)),
    "mul": lambda lib, w, W: lib.mul(w, w, out=lib.empty(3)),
    "exp": lambda lib, w, W: lib.exp(w, out=lib.empty(3)),
    "sigmoid": lambda lib, w, W: lib.sigmoid(w, out=lib.empty(3)),
    "neg": lambda lib, w, W: lib.neg(w, out=lib.empty(3)),
    "matmul": lambda lib, w, W: lib.matmul(W, W, out=lib.empty(2, 2)),
    "addmm": lambda lib, w, W: lib.addmm(W, W, W, out=lib.empty(2, 2)),
    "cat": lambda lib, w, W: lib.cat([w, w], out=lib.empty(6)),
    "stack": lambda lib, w, W: lib.stack([w, w], out=lib.empty(2, 3)),
    "clamp": lambda lib, w, W: lib.clamp(w, 0, 1, out=lib.empty(3)),
    "addcmul": lambda lib, w, W: lib.addcmul(w, w, w, out=lib.empty(3)),
    "where": lambda lib, w, W: lib.where(w > 0, w, w, out=lib.empty(3)),
    "cumsum": lambda lib, w, W: lib.cumsum(w, 0, out=lib.empty(3)),
    "mean": lambda lib, w, W: lib.mean(w, out=lib.empty(())),
    "sum over a dim": lambda lib, w, W: lib.sum(W, 0, out=lib.empty(2)),
    "eq": lambda lib, w, W: lib.eq(w, 1, out=lib.empty(3, dtype=lib.bool)),
}


def _inputs(lib):
    return lib.ones(3, requires_grad=True), lib.ones(2, 2, requires_grad=True)


@pytest.mark.parametrize("name", list(CALLS))
def test_out_refuses_inputs_that_require_grad_as_torch(torch, name):
    def fn(lib):
        return raised(lambda: CALLS[name](lib, *_inputs(lib)))

    assert fn(core) == fn(torch)


@pytest.mark.parametrize("name", list(CALLS))
def test_out_under_no_grad_writes_the_result(torch, name):
    def fn(lib):
        with lib.no_grad():
            return CALLS[name](lib, *_inputs(lib))

    assert_same(fn(core), fn(torch))


def test_sum_without_a_dim_takes_no_out(torch):
    def fn(lib):
        error = raised(lambda: lib.sum(lib.ones(3), out=lib.empty(())))
        return error[0]

    assert fn(core) == fn(torch) == "TypeError"
