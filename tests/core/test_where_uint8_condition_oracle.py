"""``torch.where`` takes a uint8 condition (deprecated, with a one-time UserWarning) as PyTorch 2.13 does.

pytorch-crf 0.7.2 (the corpus' ``l3_crf_*``) builds its default mask with ``dtype=torch.uint8`` and selects the
forward algorithm's scores with ``torch.where(mask[i].unsqueeze(1), next_score, score)``; core refused the condition,
so every CRF without a boolean mask failed. Other integer conditions are still refused, as in torch."""

import warnings

import numpy as np
import pytest

import core


def _pair(torch, x, c, y):
    a, b = core.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    return a, b, core.where(core.tensor(c), a, core.tensor(y)), torch.where(torch.tensor(c), b, torch.tensor(y))


def test_a_uint8_condition_selects_and_backpropagates_as_torch(torch):
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((3, 5)).astype(np.float32), rng.standard_normal((3, 5)).astype(np.float32)
    c = rng.integers(0, 3, (3, 1)).astype(np.uint8)  # (2 is true too)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        leaf_ours, leaf_theirs, ours, theirs = _pair(torch, x, c, y)
    assert repr(ours.dtype) == repr(theirs.dtype)
    assert np.array_equal(ours.detach().numpy(), theirs.detach().numpy())
    g = rng.standard_normal((3, 5)).astype(np.float32)
    ours.backward(core.tensor(g))
    theirs.backward(torch.tensor(g))
    assert np.array_equal(leaf_ours.grad.numpy(), leaf_theirs.grad.numpy())


def test_the_uint8_condition_warns_that_it_is_deprecated():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        core.set_warn_always(True)
        try:
            core.where(core.tensor([1, 0], dtype=core.uint8), core.tensor([1.0, 2.0]), core.tensor([3.0, 4.0]))
        finally:
            core.set_warn_always(False)
    assert any("where received a uint8 condition tensor" in str(w.message) for w in caught)


@pytest.mark.parametrize("dtype", ["int8", "int64", "float32"])
def test_other_non_boolean_conditions_are_refused_as_in_torch(torch, dtype):
    with pytest.raises(RuntimeError, match="where expected condition to be a boolean tensor") as ours:
        core.where(core.tensor([1, 0], dtype=getattr(core, dtype)), core.tensor([1.0, 2.0]), core.tensor([3.0, 4.0]))
    with pytest.raises(RuntimeError) as theirs:
        torch.where(torch.tensor([1, 0], dtype=getattr(torch, dtype)), torch.tensor([1.0, 2.0]),
                    torch.tensor([3.0, 4.0]))
    assert str(ours.value).split("dtype")[1] == str(theirs.value).split("dtype")[1]
