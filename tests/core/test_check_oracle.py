"""``torch._check`` and its siblings: nothing when the condition holds; torch's error type and default message
when it fails, the message callable's text when one is given; a non-bool condition (an int, a Tensor) refused
with torch's TypeError."""

import pytest
import torch

import core

pytestmark = pytest.mark.cpu_only

NAMES = ["_check", "_check_index", "_check_value", "_check_type", "_check_not_implemented"]


def _outcome(lib, name, *args):
    try:
        return "ok", getattr(lib, name)(*args)
    except Exception as exc:  # the error is the outcome compared
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("args", [(True,), (False,), (False, lambda: "boom"), (1,), (False, "not callable")],
                         ids=["true", "false", "message", "int", "string_message"])
def test_check_raises_as_torch(name, args):
    assert _outcome(core, name, *args) == _outcome(torch, name, *args)


def test_check_refuses_a_tensor_condition_as_torch():
    assert _outcome(core, "_check", core.tensor(True)) == _outcome(torch, "_check", torch.tensor(True))


@pytest.mark.parametrize("args", [(KeyError, False, None), (KeyError, False), (KeyError, True, None),
                                  (UserWarning, False, None)], ids=["key_error", "no_message", "true", "warning"])
def test_check_with_raises_the_given_error_type(args):
    assert _outcome(core, "_check_with", *args) == _outcome(torch, "_check_with", *args)
