"""A real PyTorch tensor handed to a core function (and a core tensor handed to torch) is refused with a TypeError
as PyTorch refuses a foreign type, instead of a RecursionError: torch.Tensor's default ``__torch_function__`` runs
the function under torch's own DisableTorchFunctionSubclass, which core never saw, so the call came straight back
to the handler (``core.add(torch_t, torch_t)``, ``core_t + torch_t``)."""

import operator

import numpy as np
import pytest

import core

CORE_CALLS = {
    "add": (lambda a, b: core.add(a, b), "add(): argument 'input' (position 1) must be Tensor, not"),
    "mul by a number": (lambda a, b: core.mul(a, 2), "mul(): argument 'input' (position 1) must be Tensor, not"),
    "exp": (lambda a, b: core.exp(a), "exp(): argument 'input' (position 1) must be Tensor, not"),
    "matmul": (lambda a, b: core.matmul(a, b), "matmul(): argument 'input' (position 1) must be Tensor, not"),
    "relu": (lambda a, b: core.nn.functional.relu(a), "relu(): argument 'input' (position 1) must be Tensor, not"),
    "core tensor plus torch tensor": (lambda a, b: core.add(core.ones(2, 2), b),
                                      "add(): argument 'other' (position 2) must be Tensor, not"),
}


@pytest.mark.parametrize("name", list(CORE_CALLS))
def test_a_torch_tensor_given_to_core_raises_torchs_type_error(torch, name):
    call, message = CORE_CALLS[name]
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call(torch.ones(2, 2), torch.ones(2, 2))
    # (as torch itself answers a NumPy array: the same words)
    with pytest.raises(TypeError, match=r"must be Tensor, not numpy.ndarray"):
        torch.add(np.ones(2), np.ones(2))


def test_a_torch_parameter_given_to_core_raises_a_type_error(torch):
    with pytest.raises(TypeError, match=r"add\(\): argument 'input' \(position 1\) must be Tensor, not Parameter"):
        core.add(torch.nn.Parameter(torch.ones(2)), 1)


@pytest.mark.parametrize("op", [operator.add, operator.mul])
def test_mixing_core_and_torch_tensors_in_an_operator_raises_pythons_type_error(torch, op):
    """As ``torch_t + object()``: Python's unsupported-operand TypeError, whichever side is core's."""
    for pair in ((core.ones(2), torch.ones(2)), (torch.ones(2), core.ones(2))):
        with pytest.raises(TypeError, match=r"unsupported operand type\(s\)"):
            op(*pair)


def test_a_core_tensor_given_to_a_torch_function_raises_torchs_type_error(torch):
    with pytest.raises(TypeError, match="torch.add"):
        torch.add(torch.ones(2), core.ones(2))
