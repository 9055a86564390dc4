"""``t.sum()`` against torch: the method's shortcut for a float tensor without arguments
(``core.ops._fastpath.whole_sum``) and the general route for everything else give torch's values, bits, dtypes,
graph and errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

RNG = np.random.default_rng(23)
VALUES = RNG.standard_normal((37, 29)).astype(np.float32)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64", "complex64", "int32", "uint8",
                                   "bool"])
def test_whole_sum_value_and_dtype_match_torch(torch, dtype):
    ours = core.tensor(VALUES * 3).to(getattr(core, dtype)).sum()
    theirs = torch.tensor(VALUES * 3).to(getattr(torch, dtype)).sum()
    assert ours.dtype == getattr(core, str(theirs.dtype).split(".")[1])
    if dtype == "bfloat16":  # (torch's .numpy() takes no bfloat16)
        ours, theirs = ours.float(), theirs.float()
    assert_same(ours, theirs, rtol=1e-2 if dtype in ("float16", "bfloat16") else 1e-5)


@pytest.mark.parametrize("make", [lambda lib: lib.tensor(VALUES), lambda lib: lib.tensor(VALUES).t(),
                                  lambda lib: lib.tensor(VALUES)[::2, 3:], lambda lib: lib.tensor(VALUES.ravel()),
                                  lambda lib: lib.tensor(2.5), lambda lib: lib.zeros(0, 3)],
                         ids=["contiguous", "transposed", "strided", "long vector", "0-d", "empty"])
def test_float32_whole_sum_has_torchs_bits(torch, make):
    ours, theirs = make(core).sum(), make(torch).sum()
    assert ours.shape == theirs.shape == ()
    assert np.array_equal(ours.numpy().view(np.int32), theirs.numpy().view(np.int32))


@pytest.mark.parametrize("kind", ["tensor", "parameter", "non-leaf"])
def test_whole_sum_records_torchs_node_and_gradient(torch, kind):
    def run(lib):
        if kind == "parameter":
            x = lib.nn.Parameter(lib.tensor(VALUES))
            y = x
        else:
            x = lib.tensor(VALUES, requires_grad=True)
            y = x * 2 if kind == "non-leaf" else x
        s = y.sum()
        name = type(s.grad_fn).__name__
        s.backward()
        return s, name, x.grad

    (s, name, g), (ts, tname, tg) = run(core), run(torch)
    assert_same(s, ts)
    assert name == tname == "SumBackward0"
    assert_same(g, tg)


def test_whole_sum_under_no_grad_records_nothing(torch):
    x, tx = core.tensor(VALUES, requires_grad=True), torch.tensor(VALUES, requires_grad=True)
    with core.no_grad():
        s = x.sum()
    with torch.no_grad():
        ts = tx.sum()
    assert (s.grad_fn, s.requires_grad) == (ts.grad_fn, ts.requires_grad) == (None, False)


def test_a_subclass_keeps_its_type_as_in_torch(torch):
    class Ours(core.Tensor):
        pass

    class Theirs(torch.Tensor):
        pass

    ours, theirs = core.tensor(VALUES).as_subclass(Ours).sum(), torch.tensor(VALUES).as_subclass(Theirs).sum()
    assert type(ours) is Ours and type(theirs) is Theirs
    assert_same(ours.as_subclass(core.Tensor), theirs.as_subclass(torch.Tensor))


@pytest.mark.parametrize("call", [lambda t: t.sum(0), lambda t: t.sum(dim=1), lambda t: t.sum(axis=0),
                                  lambda t: t.sum((0, 1), keepdim=True), lambda t: t.sum(dtype=t.new_ones(0).dtype),
                                  lambda t: t.sum(None)],
                         ids=["dim", "dim keyword", "numpy axis", "keepdim", "dtype", "dim None"])
def test_sum_with_arguments_takes_the_general_route_as_torch(torch, call):
    x, tx = core.tensor(VALUES, requires_grad=True), torch.tensor(VALUES, requires_grad=True)
    ours, theirs = call(x), call(tx)
    assert_same(ours, theirs)
    assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__


def test_sum_refuses_out_and_a_bool_dim_as_torch(torch):
    for lib in (core, torch):
        x = lib.tensor(VALUES)
        with pytest.raises(TypeError):  # (the overload without dim takes no out=)
            x.sum(out=lib.zeros(()))
        with pytest.raises(TypeError, match="invalid combination of arguments"):
            x.sum(True)
