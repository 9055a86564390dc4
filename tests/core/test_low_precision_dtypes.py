"""bfloat16, the float8 types and uint16/32/64 as dtype objects: their descriptions, ``finfo``/``iinfo``, type
promotion (including the pairs PyTorch refuses), printing, conversions and the arithmetic torch allows, each
compared with torch."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import core

NEW_DTYPES = ["bfloat16", "float8_e4m3fn", "float8_e5m2", "uint16", "uint32", "uint64"]
FLOATS = ["bfloat16", "float8_e4m3fn", "float8_e5m2", "float16"]


@pytest.mark.parametrize("name", NEW_DTYPES)
def test_each_new_dtype_describes_itself_as_torchs(torch, name):
    ours, theirs = getattr(core, name), getattr(torch, name)
    assert repr(ours) == repr(theirs)
    assert (ours.is_floating_point, ours.is_complex, ours.is_signed, ours.itemsize) == \
        (theirs.is_floating_point, theirs.is_complex, theirs.is_signed, theirs.itemsize)
    assert pickle.loads(pickle.dumps(ours)) is ours


@pytest.mark.parametrize("name", FLOATS)
def test_finfo_of_reduced_precision_floats_is_torchs_field_for_field(torch, name):
    ours, theirs = core.finfo(getattr(core, name)), torch.finfo(getattr(torch, name))
    fields = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution")
    assert [getattr(ours, f) for f in fields] == [getattr(theirs, f) for f in fields]
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("name", ["uint16", "uint32", "uint64"])
def test_iinfo_of_the_unsigned_types_is_torchs(torch, name):
    ours, theirs = core.iinfo(getattr(core, name)), torch.iinfo(getattr(torch, name))
    assert (ours.bits, ours.min, ours.max, repr(ours)) == (theirs.bits, theirs.min, theirs.max, repr(theirs))


PAIRS = [("bfloat16", "float16"), ("bfloat16", "float32"), ("bfloat16", "float64"), ("bfloat16", "int64"),
         ("bfloat16", "bool"), ("bfloat16", "uint8"), ("uint16", "float32"), ("uint32", "bfloat16"),
         ("uint64", "uint64"), ("float8_e4m3fn", "float8_e4m3fn")]


@pytest.mark.parametrize("a, b", PAIRS)
def test_promote_types_with_the_new_dtypes_is_torchs(torch, a, b):
    assert repr(core.promote_types(getattr(core, a), getattr(core, b))) == \
        repr(torch.promote_types(getattr(torch, a), getattr(torch, b)))
    assert repr(core.promote_types(getattr(core, b), getattr(core, a))) == \
        repr(torch.promote_types(getattr(torch, b), getattr(torch, a)))


REFUSED = [("uint16", "int8"), ("uint16", "uint8"), ("uint32", "int64"), ("uint64", "bool"), ("uint16", "uint32"),
           ("float8_e4m3fn", "float32"), ("float8_e5m2", "float8_e4m3fn"), ("float8_e5m2", "int64")]


@pytest.mark.parametrize("a, b", REFUSED)
def test_promoting_pairs_torch_refuses_raises_its_runtime_error(torch, a, b):
    with pytest.raises(RuntimeError) as theirs:
        torch.promote_types(getattr(torch, a), getattr(torch, b))
    with pytest.raises(RuntimeError) as ours:
        core.promote_types(getattr(core, a), getattr(core, b))
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("name, values", [
    ("bfloat16", [1.0, 2.5]), ("bfloat16", [1e10, 1e-3, -7.0]), ("bfloat16", [[0.1, 3.0], [2.0, 1.0]]),
    ("bfloat16", 2.5), ("float8_e4m3fn", [1.5, 2.25, 3.3]), ("float8_e5m2", [0.1, -2.0, 100.0]),
    ("uint16", [1, 2, 7000]), ("uint32", [3]), ("uint64", [2**40, 5]),
])
def test_tensors_of_the_new_dtypes_print_as_torchs(torch, name, values):
    assert repr(core.tensor(values, dtype=getattr(core, name))) == \
        repr(torch.tensor(values, dtype=getattr(torch, name)))


CONVERSIONS = {
    "float32_to_e4m3fn": lambda lib: lib.tensor([0.1, 1.7, -300.0]).to(lib.float8_e4m3fn),
    "float32_to_e5m2": lambda lib: lib.tensor([0.1, 1.7, -300.0, 70000.0]).to(lib.float8_e5m2),
    "e4m3fn_back_to_float32": lambda lib: lib.tensor([0.1, 1.7, -300.0]).to(lib.float8_e4m3fn).float(),
    "e5m2_to_bfloat16": lambda lib: lib.tensor([0.1, 1.7, -300.0]).to(lib.float8_e5m2).to(lib.bfloat16),
    "ones_e5m2": lambda lib: lib.ones(2, 2, dtype=lib.float8_e5m2),
    "int64_to_uint16": lambda lib: lib.tensor([1, 2, 300]).to(lib.uint16),
    "uint32_to_float32": lambda lib: lib.tensor([1, 2, 300], dtype=lib.uint32).float(),
    "uint16_times_int": lambda lib: lib.tensor([1, 2, 300], dtype=lib.uint16) * 2,
    "uint16_plus_float": lambda lib: lib.tensor([1, 2, 300], dtype=lib.uint16) + 1.5,
    "uint16_sum_is_int64": lambda lib: lib.tensor([1, 2, 300], dtype=lib.uint16).sum(),
    "uint64_zeros": lambda lib: lib.zeros(3, dtype=lib.uint64),
    "float8_is_floating_point": lambda lib: lib.zeros(2, dtype=lib.float8_e4m3fn).is_floating_point(),
}


@pytest.mark.parametrize("name", list(CONVERSIONS))
def test_float8_and_unsigned_conversions_and_arithmetic_match_torch(torch, name):
    assert repr(CONVERSIONS[name](core)) == repr(CONVERSIONS[name](torch))


def test_numpy_unsigned_arrays_become_unsigned_tensors_as_in_torch(torch):
    arr = np.array([1, 2, 65535], dtype=np.uint16)
    assert repr(core.from_numpy(arr)) == repr(torch.from_numpy(arr))
    assert repr(core.tensor(arr.astype(np.uint32))) == repr(torch.tensor(arr.astype(np.uint32)))
