"""F.multilabel_margin_loss and nn.MultiLabelMarginLoss give PyTorch's losses, gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import check_grads

X = np.random.default_rng(0).standard_normal((3, 4))
Y = np.array([[3, 0, -1, 1], [1, 1, 2, -1], [0, 1, 2, 3]])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_loss_and_gradient_match_torch(torch, reduction):
    check_grads(lambda lib, x, y: lib.nn.MultiLabelMarginLoss(reduction=reduction)(x, y), [X, Y], torch)


def test_a_single_sample_and_the_node_name_match_torch(torch):
    check_grads(lambda lib, x, y: lib.nn.functional.multilabel_margin_loss(x, y), [X[0], Y[0]], torch)
    names = [lib.nn.functional.multilabel_margin_loss(lib.tensor(X, requires_grad=True), lib.tensor(Y)).grad_fn.name()
             for lib in (core, torch)]
    assert names[0] == names[1] == "MultilabelMarginLossBackward0"


@pytest.mark.parametrize(("x_shape", "target"), [((3, 4), [[4, 0, -1, 1]] * 3), ((3, 4), [[1, 0, -1]] * 3),
                                                 ((3, 4), [[0.0, 1, 2, 3]] * 3), ((2, 3, 4), None)],
                         ids=["out-of-range", "target-size", "float-target", "3d-input"])
def test_bad_input_or_target_raises_torchs_runtime_error(torch, x_shape, target):
    messages = []
    for lib in (core, torch):
        y = lib.zeros(x_shape, dtype=lib.long) if target is None else lib.tensor(target)
        with pytest.raises(RuntimeError) as info:
            lib.nn.functional.multilabel_margin_loss(lib.randn(*x_shape), y)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
