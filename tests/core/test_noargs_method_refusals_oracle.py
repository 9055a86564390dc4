"""A Tensor method PyTorch defines in C without arguments refuses arguments in PyTorch's words (#19):
``t.data_ptr(1)`` is "TensorBase.data_ptr() takes no arguments (1 given)", ``t.exp(x=1)`` "... takes no keyword
arguments" (core/_noargs_methods.py). The list of such methods is asked of torch itself."""

from __future__ import annotations

import warnings

import pytest

import core
from core._noargs_methods import KEYWORDS_ONLY, NO_ARGUMENTS


def _refusal(tensor, name: str, *args, **kwargs) -> str:
    """What ``tensor.name(*args, **kwargs)`` raises, written as a user writes it (torch's text names TensorBase
    for a method call; a bound method taken with getattr first would name the tensor's class)."""
    call = ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
    try:
        eval(f"t.{name}({call})", {"t": tensor})  # (the test's own text)
    except TypeError as e:
        return str(e)
    return "accepted"


def _refuses_any_argument(tensor, name: str) -> bool:
    try:
        return "takes no arguments" in _refusal(tensor, name, *range(9))
    except Exception:  # (another refusal: a method that takes arguments)
        return False


def test_the_no_argument_list_is_torchs(torch):
    """Every method torch refuses with "takes no arguments" is in the list, and only those."""
    t = torch.ones(2)
    warnings.simplefilter("ignore")  # (torch's own deprecation warnings of methods called wrongly on purpose)
    names = [name for name in dir(torch.Tensor) if not name.startswith("__")
             and name not in ("backward", "register_hook") and callable(getattr(torch.Tensor, name, None))]
    assert sorted(name for name in names if _refuses_any_argument(t, name)) == sorted(NO_ARGUMENTS)


@pytest.mark.parametrize("name", NO_ARGUMENTS)
def test_a_no_argument_method_refuses_arguments_as_torch(name, torch):
    a, b = core.ones(2), torch.ones(2)
    assert _refusal(a, name, 1) == _refusal(b, name, 1)
    assert _refusal(a, name, 1, 2) == _refusal(b, name, 1, 2)
    assert _refusal(a, name, x=1) == _refusal(b, name, x=1)


def test_a_no_argument_method_still_answers_without_arguments():
    t = core.zeros(2, 3)
    assert (t.dim(), t.numel(), t.t().shape, t.exp().tolist()[0][0], t.sum().item()) == (2, 6, (3, 2), 1.0, 0.0)


@pytest.mark.parametrize("name", KEYWORDS_ONLY)
def test_a_keyword_only_method_refuses_positional_arguments_as_torch(name, torch):
    a, b = core.ones(2), torch.ones(2)
    assert _refusal(a, name, 1) == _refusal(b, name, 1)
    assert _refusal(a, name, 1, 2) == _refusal(b, name, 1, 2)


def test_keyword_only_methods_still_take_their_keywords():
    t = core.ones(1, 2, 2, 2)
    fmt = core.channels_last
    assert t.contiguous(memory_format=fmt).is_contiguous(memory_format=fmt)
    assert t.clone(memory_format=fmt).stride() == (8, 1, 4, 2) and t.cpu() is t and t.numpy().shape == (1, 2, 2, 2)
