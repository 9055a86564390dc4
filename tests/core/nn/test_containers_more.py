"""Container operators and dict methods against torch: Sequential's +=, * and *=, ParameterDict's dict methods and its
update order (a plain mapping's keys sorted), and the containers' dir()."""

from __future__ import annotations

import pytest

import core
from tests.core.oracle import module_dir

CONTAINERS = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _seq(lib):
    return lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU())


def _layout(seq):
    """Each child's name and which of the original modules it is."""
    originals = {}
    return [(name, originals.setdefault(id(m), len(originals))) for name, m in seq.named_children()] + \
        [len(list(seq.parameters()))]


@pytest.mark.parametrize("name", CONTAINERS)
def test_containers_list_what_torchs_list(torch, name):
    assert module_dir(getattr(core.nn, name)()) == module_dir(getattr(torch.nn, name)())


@pytest.mark.parametrize("op", [lambda s: s * 3, lambda s: 2 * s, lambda s: s * 1])
def test_multiplying_a_sequential_repeats_the_same_modules(torch, op):
    ours, theirs = op(_seq(core)), op(_seq(torch))
    assert type(ours).__name__ == "Sequential"
    assert _layout(ours) == _layout(theirs)
    assert all(module is ours[i % 2] for i, module in enumerate(ours))


def test_in_place_multiplication_and_addition_extend_the_sequential_itself(torch):
    for lib in (core, torch):
        seq = _seq(lib)
        same = seq
        seq *= 2
        seq += lib.nn.Sequential(lib.nn.Tanh())
        assert seq is same
    ours, theirs = _seq(core), _seq(torch)
    ours *= 3
    theirs *= 3
    assert _layout(ours) == _layout(theirs)
    ours += _seq(core)
    theirs += _seq(torch)
    assert _layout(ours) == _layout(theirs)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("op, error", [(lambda s: s * 0, ValueError), (lambda s: s * 1.5, TypeError),
                                       (lambda s: s.__imul__(-1), ValueError), (lambda s: s.__iadd__(3), ValueError)])
def test_sequential_refuses_bad_factors_and_operands_as_torch_does(torch, op, error):
    with pytest.raises(error) as theirs:
        op(_seq(torch))
    with pytest.raises(error) as ours:
        op(_seq(core))
    assert str(ours.value).replace("core.nn.modules.container", "torch.nn.modules.container") == str(theirs.value)


def test_indexing_helpers_count_from_either_end(torch):
    for lib in (core, torch):
        seq = _seq(lib)
        assert seq._get_item_by_idx(iter(seq), -1) is seq[1]
        assert lib.nn.ModuleList([lib.nn.ReLU()] * 3)._get_abs_string_index(-1) == "2"
        with pytest.raises(IndexError, match="index 2 is out of range"):
            seq._get_item_by_idx(iter(seq), 2)


def _pdict(lib, data):
    return lib.nn.ParameterDict({k: lib.nn.Parameter(lib.ones(v)) for k, v in data})


def test_a_parameter_dict_from_a_plain_dict_orders_its_keys_as_torch_does(torch):
    data = [("zeta", 1), ("alpha", 2), ("mid", 3)]
    ours, theirs = _pdict(core, data), _pdict(torch, data)
    assert list(ours.keys()) == list(theirs.keys()) == ["alpha", "mid", "zeta"]
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert repr(ours).replace("core", "torch") == repr(theirs)


def test_parameter_dict_has_the_dict_methods(torch):
    for lib in (core, torch):
        d = _pdict(lib, [("b", 1), ("a", 2)])
        assert d.get("a") is d["a"] and d.get("x") is None
        assert d.setdefault("c", lib.nn.Parameter(lib.zeros(1))) is d["c"]
        assert list(reversed(d)) == ["c", "b", "a"]
        assert d.popitem()[0] == "c"
        merged = d | _pdict(lib, [("z", 1)])
        assert list(merged.keys()) == ["a", "b", "z"] and list(d.keys()) == ["a", "b"]
        d |= _pdict(lib, [("y", 1)])
        assert list(d.copy().keys()) == ["a", "b", "y"]
        assert list(d.fromkeys(["p", "q"]).keys()) == ["p", "q"]
        d.clear()
        assert len(d) == 0


@pytest.mark.parametrize("call", [lambda lib, d: d.update(3), lambda lib, d: d.update([("a",)]),
                                  lambda lib, d: d.__setitem__(1, lib.ones(1))])
def test_parameter_dict_refuses_what_torch_refuses(torch, call):
    with pytest.raises(Exception) as theirs:
        call(torch, torch.nn.ParameterDict())
    with pytest.raises(Exception) as ours:
        call(core, core.nn.ParameterDict())
    assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))
