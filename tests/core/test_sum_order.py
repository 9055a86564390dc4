"""Sums over a batch (``x.sum(0)``, a bias's gradient) add in PyTorch's order, bit for bit with torch."""

from __future__ import annotations

import numpy as np
import pytest

import core
from core._cascade_sum import batch_sums, column_sums

# rows: fewer than 4, leftovers after the groups of 4, one cascade level, two, three; columns: fewer than 4, the
# 4-column block, the 8-column groups, the 32-column blocks with columns left over, a wide layer
SHAPES = [(3, 5), (6, 1), (33, 8), (64, 10), (200, 1), (200, 8), (257, 37), (1000, 4), (4099, 3), (64, 256)]


def _data(shape, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 5, shape)).astype(np.float32)


@pytest.mark.parametrize("shape", SHAPES)
def test_sum_over_the_batch_equals_torchs_bit_for_bit(torch, shape):
    x = _data(shape)
    np.testing.assert_array_equal(core.tensor(x).sum(0).numpy(), torch.tensor(x).sum(0).numpy())


@pytest.mark.parametrize("shape", [(200, 8), (64, 10), (257, 37)])
def test_bias_gradient_of_a_layer_over_a_batch_equals_torchs_bit_for_bit(torch, shape):
    x, g = _data((shape[0], 3), 1), _data(shape, 2)
    grads = []
    for lib in (core, torch):
        layer = lib.nn.Linear(3, shape[1])
        layer(lib.tensor(x)).backward(lib.tensor(g))
        grads.append(layer.bias.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])


def test_the_batch_route_gives_the_general_column_route_values_on_every_branch():
    rng = np.random.default_rng(3)
    for rows in [1, 2, 4, 5, 15, 16, 63, 64, 65, 129, 1024, 1031]:
        for cols in [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 40, 64, 70]:
            x = (rng.standard_normal((rows, cols)) * 10.0 ** rng.integers(-3, 5, (rows, cols))).astype(np.float32)
            np.testing.assert_array_equal(batch_sums(x), column_sums(x.reshape(1, rows, cols))[0],
                                          err_msg=f"{rows}x{cols}")


@pytest.mark.parametrize("shape", [(1, 5), (2, 1), (3, 1), (5, 1), (200, 1), (40000, 1), (2, 3), (200, 8), (64, 256)])
def test_a_bias_gradients_sum_takes_the_general_orders_values(shape):
    from core._batch_sum import sum_over_batch
    from core._cascade_sum import ordered_sum

    x = _data(shape, 4)
    ours, general = sum_over_batch(x), ordered_sum(x, (0,), False)
    assert ours.shape == general.shape == (shape[1],)
    np.testing.assert_array_equal(ours, general)


# each branch of a small batch's plan (``_batch_plan``): whole rows in the cascade (4 columns, 32), groups of 4 rows
# with and without leftover rows, no full block of 16 items, one, several, and the last two-level size (255 items)
PLANNED = [(2, 4), (17, 4), (300, 32), (5, 8), (66, 8), (200, 8), (1023, 9), (1020, 2), (70, 3), (8, 1), (511, 1)]


@pytest.mark.parametrize("shape", PLANNED)
def test_a_small_batchs_planned_sum_equals_torchs_bit_for_bit_signed_zeros_too(torch, shape):
    x = _data(shape, 5)
    x[:, ::2] = -0.0  # a column of negative zeros sums to +0 in torch (its output starts at 0)
    x[1::3, 1::2] = 0.0
    from core._batch_sum import sum_over_batch  # (a bias's gradient: Linear's backward calls it)

    theirs = torch.tensor(x).sum(0).numpy()
    for ours in (core.tensor(x).sum(0).numpy(), sum_over_batch(x)):
        assert (ours.view(np.uint32) == theirs.view(np.uint32)).all()


@pytest.mark.parametrize("shape", [(200, 1), (3, 8, 5), (64,)])
def test_a_mean_of_every_element_equals_torchs_bit_for_bit(torch, shape):
    x = _data(shape, 6)
    for lib_x in (x, np.full(shape, -0.0, np.float32)):
        ours, theirs = core.tensor(lib_x).mean().numpy(), torch.tensor(lib_x).mean().numpy()
        assert ours.tobytes() == theirs.tobytes()
