"""Oracle tests for what the fifth books-and-courses corpus batch (recipes_books5.py) found core doing differently.

ML2021 Spring's PyTorch tutorial calls ``torch.max(x, 0, False, p)`` (``out`` passed positionally) and
``torch.max(x, True)`` to show the errors: PyTorch's parser refuses both (a bool is no ``int dim``), core took the
bool as dim 1 and reported its own signature's argument count.
"""

from __future__ import annotations

import pytest
import torch

import core


def _error(lib, call):
    with pytest.raises(TypeError) as info:
        call(lib)
    return str(info.value)


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("dim", [True, False, 1.0, 0.5])
def test_max_min_refuse_a_bool_or_float_dim(name, dim):
    x = torch.randn(3, 4)
    ours = _error(core, lambda lib: getattr(lib, name)(core.tensor(x.numpy()), dim))
    theirs = _error(torch, lambda lib: getattr(lib, name)(x, dim))
    assert ours == theirs


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_refuse_a_positional_out(name):
    x = torch.randn(3, 4)
    out = (torch.empty(0), torch.empty(0, dtype=torch.long))
    ours_out = (core.empty(0), core.empty(0, dtype=core.long))
    ours = _error(core, lambda lib: getattr(lib, name)(core.tensor(x.numpy()), 0, False, ours_out))
    theirs = _error(torch, lambda lib: getattr(lib, name)(x, 0, False, out))
    assert ours == theirs


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_overloads_still_answer(name):
    """An int dim (with keepdim), a tensor ``other`` (a bool tensor included), keyword ``out``: as before."""
    x = torch.randn(3, 4)
    y = torch.randn(3, 4)
    cx, cy = core.tensor(x.numpy()), core.tensor(y.numpy())
    f, g = getattr(torch, name), getattr(core, name)
    for args, cargs in (((1,), (1,)), ((0, True), (0, True)), ((y,), (cy,))):
        expected, got = f(x, *args), g(cx, *cargs)
        if isinstance(expected, torch.Tensor):
            assert got.tolist() == expected.tolist()
        else:
            assert got.values.tolist() == expected.values.tolist()
            assert got.indices.tolist() == expected.indices.tolist()
    assert g(cx, core.tensor(True)).tolist() == f(x, torch.tensor(True)).tolist()
    values, indices = core.empty(0), core.empty(0, dtype=core.long)
    g(cx, 1, out=(values, indices))
    assert values.tolist() == f(x, 1).values.tolist()
    assert indices.tolist() == f(x, 1).indices.tolist()


@pytest.mark.parametrize("name", ["argmax", "argmin", "amax", "amin", "sum", "mean", "prod", "nansum"])
@pytest.mark.parametrize("dim", [True, False, 1.0])
def test_reductions_refuse_a_bool_or_float_dim(name, dim):
    """The same parser rule for the other reductions over a dim: each with PyTorch's own message ("must be int",
    "must be tuple of ints" or its overloads)."""
    x = torch.randn(3, 4)
    ours = _error(core, lambda lib: getattr(lib, name)(core.tensor(x.numpy()), dim))
    theirs = _error(torch, lambda lib: getattr(lib, name)(x, dim))
    assert ours == theirs


@pytest.mark.parametrize("name", ["argmax", "argmin", "amax", "amin", "sum", "mean", "prod", "nansum"])
def test_reductions_over_an_int_dim_still_answer(name):
    x = torch.randn(3, 4)
    cx = core.tensor(x.numpy())
    for args in ((1,), (0, True)):
        expected, got = getattr(torch, name)(x, *args), getattr(core, name)(cx, *args)
        assert got.shape == expected.shape
        assert torch.allclose(torch.tensor(got.numpy()), expected, rtol=1e-6)


@pytest.mark.parametrize(("name", "dim"), [("cumsum", True), ("cumsum", 1.0), ("cumprod", False),
                                           ("logsumexp", True), ("logsumexp", 1.0)])
def test_cumulative_and_logsumexp_refuse_a_bool_or_float_dim(name, dim):
    x = torch.randn(3, 4)
    ours = _error(core, lambda lib: getattr(lib, name)(core.tensor(x.numpy()), dim))
    theirs = _error(torch, lambda lib: getattr(lib, name)(x, dim))
    assert ours == theirs
    got = getattr(core, name)(core.tensor(x.numpy()), 1)
    assert torch.allclose(torch.tensor(got.numpy()), getattr(torch, name)(x, 1))
