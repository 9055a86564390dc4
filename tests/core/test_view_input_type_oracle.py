"""``torch.unsqueeze(x, 0)`` and the other one-tensor view and movement functions refuse an ``x`` that is not a
tensor with PyTorch 2.13's argument-parser TypeError (``unsqueeze(): argument 'input' (position 1) must be Tensor,
not ...``): "Programming PyTorch for Deep Learning" hands ``torch.unsqueeze`` the result of a transform that did not
make a tensor. A tensor-like with ``__torch_function__`` is still handed to it."""

import numpy as np
import pytest

import core
from tests.core.oracle import raised


class NotATensor:
    pass


def _calls(lib, x):
    return {
        "unsqueeze": lambda: lib.unsqueeze(x, 0),
        "squeeze": lambda: lib.squeeze(x),
        "flatten": lambda: lib.flatten(x),
        "transpose": lambda: lib.transpose(x, 0, 1),
        "reshape": lambda: lib.reshape(x, (1,)),
        "permute": lambda: lib.permute(x, (0,)),
        "select": lambda: lib.select(x, 0, 0),
        "t": lambda: lib.t(x),
        "unbind": lambda: lib.unbind(x),
        "chunk": lambda: lib.chunk(x, 2),
        "flip": lambda: lib.flip(x, (0,)),
    }


@pytest.mark.parametrize("value", [NotATensor(), np.zeros(2), [1.0, 2.0], None],
                         ids=["object", "ndarray", "list", "None"])
@pytest.mark.parametrize("name", list(_calls(core, None)))
def test_a_value_that_is_not_a_tensor_raises_torchs_type_error(torch, name, value):
    assert raised(_calls(core, value)[name]) == raised(_calls(torch, value)[name])


def test_a_tensor_like_is_handed_to_its_torch_function(torch):
    from tests.core.tensor_likes import TensorLike
    core.add(TensorLike(), 1)  # (core's dispatch turns on at its first elementwise call: README, "Still missing")
    assert core.unsqueeze(TensorLike(), 0) == torch.unsqueeze(TensorLike(), 0) == "handled"
