"""Parity with torch for what open_clip 3.3.0's own code needs (#19, the open_clip corpus, recipes_openclip.py)."""

from __future__ import annotations

import pytest

import core

LEAVES = ["TensorType", "IntType", "FloatType", "BoolType", "StringType", "NoneType", "NumberType", "AnyType",
          "DeviceObjType", "ComplexType"]


def _containers(lib):
    return [lib.ListType(lib.IntType.get()), lib.OptionalType(lib.TensorType.get()),
            lib.TupleType([lib.IntType.get(), lib.FloatType.get()]),
            lib.DictType(lib.StringType.get(), lib.TensorType.get()), lib.ListType.ofTensors(),
            lib.OptionalType.ofTensor(), lib.ListType(lib.OptionalType(lib.ListType(lib.FloatType.get()))),
            lib.TupleType([]), lib.OptionalType(lib.NumberType.get())]


def _describe(t):
    return (repr(t), str(t), t.kind(), t.annotation_str, t.str(), [repr(c) for c in t.containedTypes()])


@pytest.mark.parametrize("name", LEAVES)
def test_jit_leaf_types_are_torchs_singletons(torch, name):
    """open_clip's hf_model imports ``from torch import TensorType`` for its poolers' annotations."""
    ours, theirs = getattr(core, name), getattr(torch, name)
    assert ours.__name__ == theirs.__name__ and getattr(core._C, name) is ours
    assert _describe(ours.get()) == _describe(theirs.get())
    assert ours.get() is ours.get() and ours.get() == ours.get()
    assert isinstance(ours.get(), core.Type) and issubclass(ours, core.Type)
    with pytest.raises(TypeError, match="No constructor defined"):
        theirs()
    with pytest.raises(TypeError, match="No constructor defined"):
        ours()
    with pytest.raises(TypeError, match="unhashable"):
        hash(theirs.get())
    with pytest.raises(TypeError, match="unhashable"):
        hash(ours.get())


def test_jit_container_types_print_and_compare_as_torchs(torch):
    ours, theirs = _containers(core), _containers(torch)
    assert [_describe(t) for t in ours] == [_describe(t) for t in theirs]
    assert [[a == b for b in ours] for a in ours] == [[a == b for b in theirs] for a in theirs]
    assert ours[0].getElementType() is core.IntType.get()
    assert repr(ours[3].getKeyType()) == repr(theirs[3].getKeyType())
    assert repr(ours[3].getValueType()) == repr(theirs[3].getValueType())
    assert [repr(e) for e in ours[2].elements()] == [repr(e) for e in theirs[2].elements()]


def test_jit_types_subtyping_is_torchs(torch):
    def table(lib):
        types = [getattr(lib, n).get() for n in LEAVES] + _containers(lib) + [
            lib.OptionalType(lib.IntType.get()), lib.TupleType([lib.IntType.get(), lib.IntType.get()]),
            lib.TupleType([lib.NumberType.get(), lib.FloatType.get()]), lib.ListType(lib.NumberType.get())]
        return [[a.isSubtypeOf(b) for b in types] for a in types]

    assert table(core) == table(torch)


@pytest.mark.parametrize("descending", [False, True])
def test_unstable_sort_of_a_long_row_of_ties_orders_them_as_torch(torch, descending):
    """Hugging Face's top-p warper (CoCa's ``generate``) sorts each row of 49408 logits, most of them -inf, without
    ``stable``: core replays std::sort for rows with ties, and a vocabulary's row took seconds there."""
    import numpy as np

    rng = np.random.default_rng(0)
    rows = rng.standard_normal((2, 49408)).astype(np.float32)
    rows[rng.random(rows.shape) < 0.9] = -np.inf
    rows[0, :300] = 0.5
    rows[1, rng.random(49408) < 0.02] = np.nan
    ours = core.sort(core.tensor(rows), dim=-1, descending=descending)
    theirs = torch.sort(torch.tensor(rows), dim=-1, descending=descending)
    assert np.array_equal(ours.indices.numpy(), theirs.indices.numpy())
    assert np.array_equal(ours.values.numpy(), theirs.values.numpy(), equal_nan=True)
    assert np.array_equal(core.argsort(core.tensor(rows[:, ::7].copy()), descending=descending).numpy(),
                          torch.argsort(torch.tensor(rows[:, ::7].copy()), descending=descending).numpy())


def _traced_two_methods(lib):
    class Towers(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = lib.nn.Linear(3, 2)

        def forward(self, x):
            return self.proj(x)

        def encode(self, x):
            return self.proj(x).tanh()

        def untraced(self, x):
            return x

    lib.manual_seed(0)
    example = lib.ones(2, 3)
    return lib.jit.trace_module(Towers(), {"forward": (example,), "encode": (example,)}), example


def test_trace_module_keeps_each_traced_method(torch):
    """open_clip's ``trace_model`` traces forward, encode_text and encode_image with ``jit.trace_module`` and calls
    ``encode_text`` on the result: each traced method is a ``ScriptMethod`` of the traced module."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, x = _traced_two_methods(core)
        theirs, y = _traced_two_methods(torch)
    assert type(ours).__name__ == type(theirs).__name__ == "TopLevelTracedModule"
    assert type(ours.encode).__name__ == type(theirs.encode).__name__ == "ScriptMethod"
    assert ours.encode.name == theirs.encode.name == "encode"
    assert repr(ours.encode).startswith("<torch.ScriptMethod object at ")
    assert repr(theirs.encode).startswith("<torch.ScriptMethod object at ")
    assert ours.encode(x * 2).detach().numpy().tolist() == theirs.encode(y * 2).detach().numpy().tolist()
    assert ours(x).detach().numpy().tolist() == theirs(y).detach().numpy().tolist()
    for traced in (ours, theirs):
        with pytest.raises(AttributeError, match="'RecursiveScriptModule' object has no attribute 'untraced'"):
            traced.untraced  # noqa: B018 (the lookup raises)
