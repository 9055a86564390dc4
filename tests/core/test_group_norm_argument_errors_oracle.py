"""F.group_norm refuses what PyTorch refuses, with its error type and message, in its order: the batch-size check
on the grouped shape (``_verify_batch_size``), then ATen's ``check_group_norm_inputs`` (groups above 0, channels
divisible, weight and bias vectors of one value per channel; ATen's bias message shows the weight's shape). Core
reshaped a wrong-sized weight and raised NumPy's ValueError, or normalised with a (3, 4) weight: xLSTM's
MultiHeadLayerNorm given the wrong head count (found by corpus helper s28 SEQ)."""

import pytest

import core

CASES = [  # input shape, num_groups, weight shape, bias shape
    ((4, 12), 3, (8,), None), ((4, 12), 3, None, (8,)), ((4, 12), 3, (12,), (5,)), ((4, 12), 3, (3, 4), None),
    ((4, 12), 3, (3, 4), (3, 4)), ((1, 4), 4, None, None), ((1, 4, 1), 2, None, None), ((2, 6), 0, None, None),
    ((2, 6), -2, None, None), ((2, 6, 3), 4, None, None), ((2, 6, 3), 3, (6,), (6,)), ((1, 6, 1, 1), 6, None, None),
]


def _outcome(lib, shape, groups, ws, bs):
    try:
        lib.manual_seed(0)
        out = lib.nn.functional.group_norm(lib.randn(shape), groups, None if ws is None else lib.ones(ws),
                                           None if bs is None else lib.zeros(bs))
        return "ok", tuple(out.shape), out.sum().item()
    except Exception as e:  # (the error is the outcome compared)
        return type(e).__name__, str(e)


@pytest.mark.parametrize("shape, groups, ws, bs", CASES)
def test_group_norm_arguments_are_refused_or_taken_as_torch_does(torch, shape, groups, ws, bs):
    ours, theirs = (_outcome(lib, shape, groups, ws, bs) for lib in (core, torch))
    assert ours[:2] == theirs[:2]
    if ours[0] == "ok":
        assert ours[2] == pytest.approx(theirs[2], abs=1e-5)


def test_the_group_norm_module_refuses_a_single_value_per_group_as_torch_does(torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match=r"Expected more than 1 value per channel when training, got input size "
                                             r"\[1, 4\]"):
            lib.nn.GroupNorm(4, 4)(lib.ones(1, 4))
