"""nn.init's old names without the trailing underscore: PyTorch's FutureWarning, then the in-place initialiser."""

import numpy as np
import pytest

import core
from core.nn import init

CASES = [("normal", (4, 5), ()), ("uniform", (4, 5), (-2.0, 3.0)), ("constant", (4, 5), (0.25,)),
         ("xavier_uniform", (4, 5), ()), ("xavier_normal", (4, 5), (2.0,)), ("kaiming_uniform", (6, 3), ()),
         ("kaiming_normal", (6, 3), ()), ("orthogonal", (5, 3), ()), ("sparse", (6, 4), (0.5,)),
         ("dirac", (2, 2, 3), ()), ("eye", (3, 4), ())]


@pytest.mark.parametrize(("name", "shape", "args"), CASES)
def test_old_init_name_warns_like_torch_and_fills_like_the_new_one(torch, name, shape, args):
    message = f"`nn.init.{name}` is now deprecated in favor of `nn.init.{name}_`."
    core.manual_seed(3)
    torch.manual_seed(3)
    ours, theirs = core.empty(shape), torch.empty(shape)
    with pytest.warns(FutureWarning) as ours_caught:
        result = getattr(init, name)(ours, *args)
    with pytest.warns(FutureWarning) as theirs_caught:
        getattr(torch.nn.init, name)(theirs, *args)
    assert [str(w.message) for w in ours_caught] == [str(w.message) for w in theirs_caught] == [message]
    assert result is ours
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-5, atol=1e-6)


def test_old_init_names_carry_the_old_name_and_point_at_the_new_one():
    assert init.xavier_uniform.__name__ == "xavier_uniform"
    assert "xavier_uniform_" in init.xavier_uniform.__doc__
