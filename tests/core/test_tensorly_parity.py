"""What TensorLy's examples on its PyTorch backend (tests/external/recipes_tensorly.py) need to behave as in torch:
``Tensor.type`` refuses a dtype's name as a string (only legacy names such as 'torch.DoubleTensor' cast), and
``torch.norm`` of a NumPy array fails as torch.functional.norm does, reading ``input.layout``."""

import numpy as np
import pytest

import core
from tests.core.oracle import raised


@pytest.mark.parametrize("name", ["float64", "int64", "bool", "torch.float64", "torch.int64", "torch.bool", "float",
                                  "x.float64", "DoubleTensor", "torch.FloatStorage"])
def test_tensor_type_refuses_a_dtype_name_as_torch(name, torch):
    assert raised(lambda: core.tensor([1.0]).type(name)) == raised(lambda: torch.tensor([1.0]).type(name))
    assert raised(lambda: core.tensor([1.0]).type(name))[0] == "ValueError"


@pytest.mark.parametrize("name", ["torch.DoubleTensor", "torch.LongTensor", "torch.BoolTensor"])
def test_tensor_type_casts_to_a_legacy_name_as_torch(name, torch):
    ours, theirs = core.tensor([1.5, 0.0]).type(name), torch.tensor([1.5, 0.0]).type(name)
    assert str(ours.dtype) == str(theirs.dtype) and ours.tolist() == theirs.tolist()


@pytest.mark.parametrize("value", [np.ones((2, 3)), [1.0, 2.0]], ids=["ndarray", "list"])
def test_norm_of_a_non_tensor_raises_as_torch(value, torch):
    assert raised(lambda: core.norm(value)) == raised(lambda: torch.norm(value))
    assert raised(lambda: core.norm(value, dim=1)) == raised(lambda: torch.norm(value, dim=1))
