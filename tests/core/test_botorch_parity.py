"""Oracle tests for what the BoTorch corpus batch (recipes_botorch.py) found core doing differently.

BoTorch's ``safe_math.log_softplus`` calls ``softplus(x, beta=1 / tau, threshold=...)`` with ``tau`` a 0-d tensor:
PyTorch's argument parser takes a 0-d tensor for a ``Number`` argument (its value), core multiplied the NumPy data by
the tensor and failed. ``hardtanh`` and ``threshold`` take their bounds the same way.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import core
import core.nn.functional as CF

CALLS = {
    "softplus beta keyword": lambda F, x, t: F.softplus(x, beta=1 / t(0.5), threshold=32),
    "softplus positional": lambda F, x, t: F.softplus(x, t(2.0), t(1.0)),
    "softplus int tensor": lambda F, x, t: F.softplus(x, t(2).long()),
    "hardtanh": lambda F, x, t: F.hardtanh(x, t(-0.5), t(0.5)),
    "threshold": lambda F, x, t: F.threshold(x, t(0.0), t(-2.0)),
}


def _run(lib, F, name, dtype):
    x = lib.tensor([-8.0, -1.0, 0.25, 0.5, 3.0, 40.0], dtype=dtype, requires_grad=True)

    def t(v):
        return lib.tensor(v, dtype=lib.float64)

    y = CALLS[name](F, x, t)
    (grad,) = lib.autograd.grad(y.sum(), x)
    return y.detach().numpy(), grad.numpy(), y.dtype, type(y.grad_fn).__name__


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CALLS))
def test_number_arguments_take_a_zero_dim_tensor(name, dtype):
    ours = _run(core, CF, name, getattr(core, dtype))
    theirs = _run(torch, TF, name, getattr(torch, dtype))
    assert ours[0].tolist() == theirs[0].tolist()
    assert ours[1].tolist() == theirs[1].tolist()
    assert str(ours[2]) == str(theirs[2])
    assert ours[3] == theirs[3]


@pytest.mark.parametrize("value", ["tensor([2.0])", "tensor([1.0, 2.0])", "'a'"])
def test_softplus_refuses_a_tensor_with_dimensions_or_a_string(value):
    def message(lib, F):
        beta = eval(value, {"tensor": lib.tensor})
        with pytest.raises(TypeError) as info:
            F.softplus(lib.ones(3), beta)
        return str(info.value)

    assert message(core, CF) == message(torch, TF)


def test_softplus_module_with_a_tensor_beta():
    x = [-2.0, 0.0, 1.5]
    ours = core.nn.Softplus(beta=core.tensor(0.5, dtype=core.float64))(core.tensor(x, dtype=core.float64))
    theirs = torch.nn.Softplus(beta=torch.tensor(0.5, dtype=torch.float64))(torch.tensor(x, dtype=torch.float64))
    assert ours.tolist() == theirs.tolist()


INDEXINGS = ["P[..., T([0, 5])]", "P[:, T([1]), T([7])]", "P[T([0]), :, T([9])]", "P[1, T([0]), T([4])]",
             "P[T([True, False]), T([5])]", "P[:, :, T([-5])]", "P[None, :, T([7])]", "P[..., R + 3, C]",
             "P[..., R, C + 4]"]


@pytest.mark.parametrize("expression", INDEXINGS)
def test_advanced_index_out_of_bounds_names_the_index_tensors_position(expression):
    """BoTorch's interaction_features indexes ``[..., rows, cols]`` and its test matches the message: PyTorch names
    the position of the bad index tensor among the indexing tensors, not the dimension it indexes."""
    def message(lib):
        P = lib.arange(24, dtype=lib.float).reshape(2, 3, 4)
        R, C = lib.triu_indices(2, 2, offset=1)
        with pytest.raises(IndexError) as info:
            eval(expression, {"P": P, "T": lib.tensor, "R": R, "C": C})
        return str(info.value)

    assert message(core) == message(torch)


def test_advanced_index_put_out_of_bounds_message():
    def message(lib):
        P = lib.zeros(2, 3, 4)
        with pytest.raises(IndexError) as info:
            P[:, lib.tensor([1]), lib.tensor([7])] = 1.0
        return str(info.value)

    assert message(core) == message(torch)


@pytest.mark.parametrize("call", ["x.view(S([]), 2, 3)", "x.view(S([2]), 3)", "x.reshape(S([2]), 3)",
                                  "ones(2, S([3]))", "x.view(2, S([3]))", "ones(2, F(3.0))"])
def test_argument_errors_name_a_size_torch_size(call):
    """BoTorch's NEHVI ``view(batch_sample_shape, *shape)`` fails alike in both: the parser names ``torch.Size``."""
    def message(lib):
        with pytest.raises(TypeError) as info:
            eval(call, {"x": lib.zeros(6), "S": lib.Size, "ones": lib.ones, "F": np.float32})
        return str(info.value)

    assert message(core) == message(torch)
