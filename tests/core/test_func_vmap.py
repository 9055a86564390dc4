"""``torch.func.vmap`` against torch: nested ``in_dims``/``out_dims``, randomness modes and argument errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same


def _x(lib):
    return lib.arange(6.0).reshape(2, 3)


@pytest.mark.parametrize("case", [
    lambda lib: lib.func.vmap(lambda a, bc: a + bc[0] * bc[1], in_dims=(0, (0, None)))(_x(lib), (_x(lib), lib.ones(3))),
    lambda lib: lib.func.vmap(lambda d: d["a"] - d["b"], in_dims=({"a": 0, "b": 1},))({"a": _x(lib), "b": _x(lib).T}),
    lambda lib: lib.func.vmap(lambda a: (a * 2, a.sum()), out_dims=(1, 0))(_x(lib)),
    lambda lib: lib.func.vmap(lambda a: a.sum(), in_dims=-1)(_x(lib)),
    lambda lib: lib.func.vmap(lib.func.vmap(lambda a: a ** 2, in_dims=0), in_dims=1)(_x(lib)),
    lambda lib: lib.func.vmap(lambda a, *, s: a * s)(_x(lib), s=3),
    lambda lib: lib.func.vmap(lib.func.grad(lambda a: (a ** 3).sum()))(_x(lib)),
], ids=["nested-tuple-in-dims", "dict-in-dims", "tuple-out-dims", "negative-in-dim", "nested-vmap", "keyword",
        "grad"])
def test_vmap_maps_like_torch(torch, case):
    ours, theirs = case(core), case(torch)
    if isinstance(ours, tuple):
        for o, t in zip(ours, theirs):
            assert_same(o, t)
    else:
        assert_same(ours, theirs)


def test_an_output_with_out_dim_none_is_returned_as_it_is(torch):
    for lib in (core, torch):
        out, label = lib.func.vmap(lambda a: (a * 2, "label"), out_dims=(0, None))(_x(lib))
        assert label == "label" and tuple(out.shape) == (2, 3)


def test_random_ops_under_the_default_randomness_raise_torchs_error(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="vmap: called random operation while in randomness error mode"):
            lib.func.vmap(lambda a, lib=lib: a + lib.rand(3))(_x(lib))
        lib.rand(1)  # drawing works again after the error


@pytest.mark.parametrize("randomness, draw", [("same", "randn"), ("different", "rand")])
def test_random_ops_draw_torchs_numbers_in_same_and_different_modes(torch, randomness, draw):
    def run(lib):
        lib.manual_seed(0)
        out = lib.func.vmap(lambda a: a * getattr(lib, draw)(2), randomness=randomness)(lib.ones(3, 2))
        return out, lib.rand(2)  # the generator's state after the call matches too

    for ours, theirs in zip(run(core), run(torch)):
        assert np.array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("call, error, message", [
    (lambda lib: lib.func.vmap(lambda a: a, in_dims=2)(_x(lib)), ValueError,
     r"in_dims=2, \.\.\.\)\(<inputs>\): Got in_dim=2 for some input, but that input is a Tensor of dimensionality 2 "
     r"so expected in_dim to satisfy -2 <= in_dim < 2"),
    (lambda lib: lib.func.vmap(lambda a: a, in_dims=(0, 0))(_x(lib)), ValueError,
     "in_dims is not compatible with the structure of `inputs`"),
    (lambda lib: lib.func.vmap(lambda a: a, in_dims="x")(_x(lib)), ValueError,
     "expected `in_dims` to be int or a \\(potentially nested\\) tuple matching the structure of inputs"),
    (lambda lib: lib.func.vmap(lambda a, b: a + b)(_x(lib), lib.ones(3, 3)), ValueError,
     r"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes \[2, 3\]"),
    (lambda lib: lib.func.vmap(lambda a: 1.0)(_x(lib)), ValueError,
     "vmap\\(<lambda>, \\.\\.\\.\\): `<lambda>` must only return Tensors, got type <class 'float'>"),
    (lambda lib: lib.func.vmap(lambda a: a, in_dims=(None,))(_x(lib)), ValueError,
     "vmap: Expected at least one Tensor to vmap over"),
    (lambda lib: lib.func.vmap(lambda a: a, in_dims=None)(_x(lib)), ValueError,
     "in_dims=None, .*expected `in_dims` to be int or a \\(potentially nested\\) tuple"),
    (lambda lib: lib.func.vmap(lambda a: a, randomness="x"), RuntimeError,
     "Only allowed values for randomness are 'error', 'different', or 'same'. Got x"),
], ids=["in-dim-range", "in-dims-structure", "in-dims-type", "sizes", "non-tensor", "nothing-mapped", "in-dims-none",
        "randomness"])
def test_vmap_refuses_what_torch_refuses(torch, call, error, message):
    for lib in (core, torch):
        with pytest.raises(error, match=message):
            call(lib)
