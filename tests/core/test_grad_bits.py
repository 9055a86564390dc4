"""Gradients of the common ops bit for bit as PyTorch's CPU kernels round them.

A training loop prints losses whose last digits carry every one-ulp difference of a backward pass, so
these ops reproduce the order of operations and roundings of PyTorch's CPU kernels, forward and backward.
Each test runs the same code in ``core`` and ``torch`` on the same data and compares the output and every
input's gradient with ``assert_array_equal``, over shapes below, at and above the kernels' vector width
and not multiples of it.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from core import _softmax_kernels as softmax_kernels

SHAPES = [(3, 5), (4, 16), (2, 37), (64, 10), (8, 64), (2, 3, 70)]


def _data(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _run(lib, fn, arrays, grad_seed):
    ts = [lib.tensor(a, requires_grad=True) for a in arrays]
    y = fn(lib, *ts)
    g = np.random.default_rng(grad_seed).standard_normal(tuple(y.shape)).astype(arrays[0].dtype)
    y.backward(lib.tensor(g))
    return [y.detach().numpy()] + [t.grad.numpy() for t in ts]


def assert_bits(torch, fn, shapes, dtype=np.float32, seed=0, output=True):
    """``fn(lib, *tensors)``'s input gradients (and output, unless ``output`` is False) are equal bit for bit
    in core and torch."""
    arrays = [_data(s, dtype, seed + i) for i, s in enumerate(shapes)]
    ours, theirs = _run(core, fn, arrays, seed + 99), _run(torch, fn, arrays, seed + 99)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if i == 0 and not output:
            continue
        np.testing.assert_array_equal(a, b, err_msg=f"item {i} (0 = output, then input gradients)")


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", SHAPES)
def test_mse_loss_gradients_match_torch_bit_for_bit(torch, shape, reduction):
    assert_bits(torch, lambda L, x, t: L.nn.functional.mse_loss(x, t, reduction=reduction), [shape, shape])


def test_mse_loss_float64_gradients_match_torch_bit_for_bit(torch):
    assert_bits(torch, lambda L, x, t: L.nn.functional.mse_loss(x, t), [(7, 9), (7, 9)], np.float64,
                output=False)  # (a float64 sum keeps NumPy's order)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_over_the_last_dim_and_its_gradient_match_torch_bit_for_bit(torch, op, shape):
    assert_bits(torch, lambda L, x: getattr(L, op)(x, -1), [shape])


@pytest.mark.parametrize("shape, dim", [((10, 37), 0), ((7, 3, 20), 1), ((5, 16), 0), ((4, 50, 3), 1),
                                        ((3, 5, 40), 0), ((1, 2100, 40), 1)])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_gradient_over_another_dim_matches_torch_bit_for_bit(torch, op, shape, dim):
    # the kernel alone, from torch's output
    y = getattr(torch, op)(torch.tensor(_data(shape, np.float32, 3)), dim).numpy()
    g = _data(shape, np.float32, 4)
    backward = {"softmax": torch._softmax_backward_data, "log_softmax": torch._log_softmax_backward_data}[op]
    expected = backward(torch.tensor(g), torch.tensor(y), dim, torch.float32).numpy()
    ours = getattr(softmax_kernels, f"{op}_backward")(g, y, dim)
    np.testing.assert_array_equal(ours, expected)


@pytest.mark.parametrize("shape, dim", [((2, 3, 32, 32), 1), ((10, 37), 0), ((2, 5, 37), 1), ((1, 3, 12000), 1),
                                        ((4, 3, 17, 2), 2), ((64, 10, 1, 1), 1)])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_softmax_over_another_dim_and_its_gradient_match_torch_bit_for_bit(torch, op, shape, dim):
    """The forward's exps over a non-last dim: SLEEF's on whole vectors of inner positions (softmax's per row,
    log_softmax's per 128 KiB chunk: (1, 3, 12000) has both cuts), glibc's expf on the rest (DTU's CIFAR-10
    notebook prints softmax(1) of an NCHW output); on one thread in both (softmax's split of the positions among
    threads changes which take the vector branch: tests/core/test_softmax_other_dim_oracle.py)."""
    threads = torch.get_num_threads(), core.get_num_threads()
    torch.set_num_threads(1)
    core.set_num_threads(1)
    try:
        assert_bits(torch, lambda L, x: getattr(L, op)(x, dim), [shape])
    finally:
        torch.set_num_threads(threads[0])
        core.set_num_threads(threads[1])


@pytest.mark.parametrize("shape", [(64, 10), (5, 3), (8, 40)])
def test_cross_entropy_gradient_matches_torch_bit_for_bit(torch, shape):
    target = np.arange(shape[0]) % shape[1]
    assert_bits(torch, lambda L, x: L.nn.functional.cross_entropy(x, L.tensor(target)), [shape])


def test_softmax_double_backward_still_records_a_graph():
    x = core.tensor(_data((3, 5), np.float32, 5), requires_grad=True)
    (g,) = core.autograd.grad(core.log_softmax(x, -1)[:, 0].sum(), x, create_graph=True)
    assert g.grad_fn is not None
    (gg,) = core.autograd.grad((g * g).sum(), x)
    assert gg.shape == (3, 5) and bool(core.isfinite(gg).all())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_gradient_with_weights_and_ignored_samples_matches_torch_bit_for_bit(torch, reduction):
    target = np.array([0, 2, 1, 2, 2, 0, 1])
    weight = np.array([0.3, 1.7, 0.9], np.float32)

    def loss(L, x):
        return L.nn.functional.nll_loss(L.log_softmax(x, 1), L.tensor(target), weight=L.tensor(weight),
                                        ignore_index=1, reduction=reduction)
    assert_bits(torch, loss, [(7, 3)])


def test_sleef_exp_matches_torch_kernels_exp_at_the_edges_of_its_range(torch):
    from core._sleef import expf_u10

    y = np.array([0, -200, -104.5, -103.9, -87.5, -50, -1e-30, 1e-30, 50, 88, 88.8, 95, 100.5], np.float32)
    y = np.concatenate([y, _data((51,), np.float32, 6) * 10])
    g = np.zeros_like(y)
    g[0] = 1  # log_softmax's backward is then g - exp(y): -exp(y) for every element but the first
    expected = -torch._log_softmax_backward_data(torch.tensor(g), torch.tensor(y), 0, torch.float32).numpy()[1:]
    np.testing.assert_array_equal(expf_u10(y)[1:], expected)


@pytest.mark.parametrize("shape", [(7,), (31,), (32,), (47,), (8, 64), (200, 8), (3, 5, 13)])
def test_sigmoid_and_its_gradient_match_torch_bit_for_bit(torch, shape):
    assert_bits(torch, lambda L, x: L.sigmoid(x * 3), [shape])


def test_sigmoid_of_a_transposed_input_matches_torch_bit_for_bit(torch):
    assert_bits(torch, lambda L, x: L.sigmoid(x.t() * 3), [(40, 9)])


@pytest.mark.parametrize("shape, dim", [((64, 10), 0), ((64, 10), 1), ((7, 37), None), ((3, 5, 20), 2),
                                        ((3, 5, 20), (1, 2))])
@pytest.mark.parametrize("op", ["var", "std"])
def test_var_and_std_gradients_match_torch_bit_for_bit(torch, op, shape, dim):
    assert_bits(torch, lambda L, x: getattr(x, op)(dim), [shape])


def test_var_mean_gradient_matches_torch_bit_for_bit(torch):
    assert_bits(torch, lambda L, x: L.var_mean(x, 0)[0], [(64, 10)])


@pytest.fixture
def same_threads(torch):
    """core on PyTorch's thread count for the test: a batch's statistics (and so every gradient) are summed in
    blocks that follow the thread count, so the bits match only when both libraries use the same number (another
    test, or a machine whose defaults differ, may have left them apart)."""
    before = core.get_num_threads()
    core.set_num_threads(torch.get_num_threads())
    yield
    core.set_num_threads(before)


@pytest.mark.usefixtures("same_threads")
@pytest.mark.parametrize("shape", [(16, 8), (64, 10), (5, 33), (200, 7), (9, 17), (2, 3, 4, 4), (4, 5, 3, 7),
                                   (3, 2, 40), (2, 4, 9, 9), (3, 3, 5)])
def test_batch_norm_training_gradients_match_torch_bit_for_bit(torch, shape):
    channels = shape[1]
    weight = _data((channels,), np.float32, 7)
    bias = _data((channels,), np.float32, 8)

    def norm(L, x, w, b):
        return L.nn.functional.batch_norm(x, None, None, w, b, training=True)
    ours = _run(core, norm, [_data(shape, np.float32, 9), weight, bias], 10)
    theirs = _run(torch, norm, [_data(shape, np.float32, 9), weight, bias], 10)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_array_equal(a, b, err_msg=f"item {i} (0 = output, then input gradients)")


@pytest.mark.usefixtures("same_threads")
def test_batch_norm_without_affine_parameters_has_torchs_input_gradient(torch):
    assert_bits(torch, lambda L, x: L.nn.functional.batch_norm(x, None, None, training=True), [(16, 8)])


@pytest.mark.usefixtures("same_threads")
@pytest.mark.parametrize("shape,order", [((8, 16, 5, 5), (0, 2, 3, 1)), ((4, 6, 7, 7), (1, 0, 2, 3)),
                                         ((2, 3, 10, 10), (0, 1, 3, 2)), ((32, 12, 4, 4), (0, 2, 3, 1)),
                                         ((64, 10), (1, 0)), ((4, 3, 9), (2, 0, 1))])
def test_batch_norm_gradients_of_a_permuted_incoming_gradient_match_torch_bit_for_bit(torch, shape, order):
    """A gradient laid out otherwise than the input (einsum's backward hands a permuted one, a channels-last
    gradient): PyTorch takes its generic loop, not the vectorised kernel (corpus lucid2_lambda_global)."""
    channels = shape[1]
    arrays = [_data(shape, np.float32, 12), _data((channels,), np.float32, 13), _data((channels,), np.float32, 14)]
    g = _data(tuple(shape[d] for d in order), np.float32, 15)
    inverse = tuple(int(i) for i in np.argsort(order))

    def grads(L):
        ts = [L.tensor(a, requires_grad=True) for a in arrays]
        y = L.nn.functional.batch_norm(ts[0], None, None, ts[1], ts[2], training=True)
        incoming = L.tensor(g).permute(*inverse)
        assert not incoming.is_contiguous()
        y.backward(incoming)
        return [t.grad.numpy() for t in ts]

    for i, (a, b) in enumerate(zip(grads(core), grads(torch))):
        np.testing.assert_array_equal(a, b, err_msg=f"gradient {i} (input, weight, bias)")


def test_batch_norm_double_backward_still_records_a_graph():
    x = core.tensor(_data((6, 3), np.float32, 11), requires_grad=True)
    (g,) = core.autograd.grad((core.nn.functional.batch_norm(x, None, None, training=True) ** 3).sum(), x,
                              create_graph=True)
    assert g.grad_fn is not None
    (gg,) = core.autograd.grad(g.sum(), x)
    assert gg.shape == (6, 3) and bool(core.isfinite(gg).all())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(64, 1), (8, 40), (5, 7)])
def test_bce_with_logits_input_gradient_matches_torch_bit_for_bit(torch, shape, reduction):
    target = (np.random.default_rng(12).random(shape) > 0.5).astype(np.float32)

    def loss(L, x):
        return L.nn.functional.binary_cross_entropy_with_logits(x, L.tensor(target), reduction=reduction)
    assert_bits(torch, loss, [shape], output=False)  # (the loss itself: another formula, not reproduced)


def test_bce_with_logits_weighted_input_gradient_matches_torch_bit_for_bit(torch):
    target = (np.random.default_rng(13).random((6, 5)) > 0.5).astype(np.float32)
    weight, pos_weight = _data((5,), np.float32, 14) ** 2, _data((5,), np.float32, 15) ** 2

    def loss(L, x):
        return L.nn.functional.binary_cross_entropy_with_logits(x, L.tensor(target), weight=L.tensor(weight),
                                                                pos_weight=L.tensor(pos_weight))
    assert_bits(torch, loss, [(6, 5)], output=False)


def test_a_float64_gradient_of_a_float32_output_is_rounded_to_float32_first_as_in_torch(torch):
    seen = {}
    for lib in (core, torch):
        x = lib.tensor(_data((64, 10), np.float32, 16), requires_grad=True)
        loss = lib.nn.functional.cross_entropy(x, lib.tensor(np.arange(64) % 10))
        loss.register_hook(lambda g, lib=lib: seen.update({lib.__name__: str(g.dtype)}))
        loss.backward(lib.tensor(np.float64(-0.63)))
        seen[lib.__name__ + " grad"] = x.grad.numpy()
    assert seen["core"] == seen["torch"] == "torch.float32"
    np.testing.assert_array_equal(seen["core grad"], seen["torch grad"])


def test_sleef_log_matches_the_log_of_torchs_log_softmax_kernel(torch):
    from core._lane_sum import lane_row_sum
    from core._sleef import expf_u10, logf_u10

    x = _data((3000, 37), np.float32, 17)
    x[:, 0] = x.max(1) + 0.5  # the row's max first: log_softmax's first column is then -log(sum of exps)
    expected = -torch.log_softmax(torch.tensor(x), -1).numpy()[:, 0]
    np.testing.assert_array_equal(logf_u10(lane_row_sum(expf_u10(x - x[:, :1]))[:, 0]), expected)


@pytest.mark.parametrize("cols", [2, 3, 10, 37, 1000, 100000])
def test_sleef_log_of_many_row_sums_matches_torchs_log_softmax_kernel(torch, cols):
    """``logf_u10``'s shortcuts (its ``e ln 2`` table, the exact two-sums and residuals) give the kernel's bits on
    row sums from 1 to 100000: rows of spread logits, and rows of equal logits (sums of whole numbers)."""
    rng = np.random.default_rng(cols)
    rows = max(4, 400000 // cols)
    x = (rng.standard_normal((rows, cols)) * rng.uniform(0, 8, (rows, 1))).astype(np.float32)
    x[: rows // 4] = np.round(x[: rows // 4] * 0)  # equal logits: the sum is the count of columns
    x[rows // 4: rows // 2, : cols // 2] = -np.inf  # half the row out of play
    np.testing.assert_array_equal(core.log_softmax(core.tensor(x), -1).numpy(),
                                  torch.log_softmax(torch.tensor(x), -1).numpy())


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("n", [1, 2, 5, 10, 15, 16, 20])
def test_softmax_gradients_of_signed_zero_rows_match_torch(torch, op, n):
    """A row shorter than a vector is summed left to right from its first element: a row of -0 gradients sums to
    -0, which sets the sign of the zeros the backward gives (core's sum started from +0 and differed)."""
    x = _data((6, n), np.float32, n)
    g = _data((6, n), np.float32, n + 1)
    g[:3] = -0.0
    g[3, :] = 0.0
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        getattr(lib, op)(t, -1).backward(lib.tensor(g))
        grads.append(t.grad.numpy())
    np.testing.assert_array_equal(grads[0].view(np.uint32), grads[1].view(np.uint32))


@pytest.mark.parametrize("shape", [(1, 3), (64, 10), (7, 100), (3, 4, 5)])
def test_log_softmax_backward_of_one_block_equals_the_block_loop(monkeypatch, shape):
    """log_softmax's backward over the last dim takes a single block's rows in one go; the block loop (forced with
    one row a block) gives the same bits, on gradients with signed zeros, infs and nans and outputs of -inf."""
    rng = np.random.default_rng(len(shape))
    g = rng.standard_normal(shape).astype(np.float32)
    y = -np.abs(rng.standard_normal(shape) * 5).astype(np.float32)
    g.reshape(-1)[:4] = [-0.0, np.inf, np.nan, 0.0][: g.size]
    y.reshape(-1)[-2:] = [-np.inf, -0.0]
    one = softmax_kernels.log_softmax_backward(g, y, -1)
    monkeypatch.setattr(softmax_kernels, "_ROWS_BLOCK", 1)
    assert one.tobytes() == softmax_kernels.log_softmax_backward(g, y, -1).tobytes()


def test_sleef_log_of_edge_values_is_numpys():
    from core._sleef import logf_u10

    d = np.array([0, -1, np.inf, np.nan, 1, 3e38, 3.4e38, 1e-40, 0.75, 1.5], np.float32)
    np.testing.assert_array_equal(logf_u10(d), np.log(d.astype(np.float64)).astype(np.float32))


@pytest.mark.parametrize("shape", [(64, 10), (500, 37), (40, 5)])
def test_log_softmax_rows_over_the_last_dim_match_torch_bit_for_bit(torch, shape):
    x = _data(shape, np.float32, 18) * 3
    np.testing.assert_array_equal(core.log_softmax(core.tensor(x), -1).numpy(),
                                  torch.log_softmax(torch.tensor(x), -1).numpy())


@pytest.mark.parametrize("shape", [(64, 1), (256, 1), (32, 10), (64, 64)])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy_of_sigmoid_outputs_matches_torch_bit_for_bit(torch, shape, reduction):
    """PyTorch's BCE kernel is a scalar loop over the C library's logf and log1pf (a binary classifier's
    ``BCELoss`` on sigmoid outputs: log1pf differs from the rounded double log1p on ~7% of them)."""
    rng = np.random.default_rng(len(shape) + shape[0])
    for _ in range(5):
        p = (1 / (1 + np.exp(-3 * rng.standard_normal(shape)))).astype(np.float32)
        target = (rng.random(shape) < 0.5).astype(np.float32)
        ours = core.nn.functional.binary_cross_entropy(core.tensor(p), core.tensor(target), reduction=reduction)
        theirs = torch.nn.functional.binary_cross_entropy(torch.tensor(p), torch.tensor(target), reduction=reduction)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
