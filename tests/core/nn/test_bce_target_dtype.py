"""Binary cross-entropy refuses a target of another dtype as PyTorch's kernels do (``torch.full((n,), 1)`` labels)."""

from __future__ import annotations

import pytest

import core


def same_error(fn, torch):
    """Both libraries raise the same type with the same message."""
    errors = []
    for lib in (torch, core):
        with pytest.raises(Exception) as info:
            fn(lib)
        errors.append(info.value)
    assert type(errors[1]) is type(errors[0]) and str(errors[1]) == str(errors[0]), errors


def bce(lib, target_dtype, input_dtype="float32"):
    x = lib.rand(4, dtype=getattr(lib, input_dtype), requires_grad=True)
    return lib.nn.BCELoss()(x, lib.ones(4, dtype=getattr(lib, target_dtype)))


def bce_logits(lib, target_dtype):
    return lib.nn.BCEWithLogitsLoss()(lib.randn(4, requires_grad=True), lib.ones(4, dtype=getattr(lib, target_dtype)))


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool", "float64"])
def test_bce_with_a_target_of_another_dtype_raises_torchs_runtime_error(torch, dtype):
    same_error(lambda lib: bce(lib, dtype), torch)


def test_bce_with_a_float32_target_on_float64_input_raises_torchs_runtime_error(torch):
    same_error(lambda lib: bce(lib, "float32", "float64"), torch)


@pytest.mark.parametrize("dtype", ["int64", "int32", "bool"])
def test_bce_with_logits_and_an_integer_or_bool_target_raises_torchs_runtime_error(torch, dtype):
    same_error(lambda lib: bce_logits(lib, dtype), torch)


def test_bce_with_logits_promotes_a_float64_target_as_torch_does(torch):
    assert bce_logits(core, "float64").dtype == core.float64
    assert bce_logits(torch, "float64").dtype == torch.float64
