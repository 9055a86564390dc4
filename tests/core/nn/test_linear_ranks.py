"""``F.linear`` on inputs of every rank: values, gradients and the ``grad_fn`` torch prints (its ``at::linear``
flattens a contiguous input to one addmm and views it back, so a 3-d layer output shows ``ViewBackward0``)."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import check_grads

SHAPES = [(3,), (4, 2, 3), (2, 2, 2, 3), (0, 2, 3)]


def _x(shape):
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


def _wb():
    rng = np.random.default_rng(1)
    return rng.standard_normal((5, 3)).astype(np.float32), rng.standard_normal(5).astype(np.float32)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("bias", [True, False])
def test_linear_names_its_node_as_torch_does_for_each_input_rank(shape, bias, torch):
    names = []
    for lib in (core, torch):
        w, b = (lib.tensor(a, requires_grad=True) for a in _wb())
        names.append(lib.nn.functional.linear(lib.tensor(_x(shape)), w, b if bias else None).grad_fn.name())
    assert names[0] == names[1]


def test_linear_on_a_transposed_3d_input_adds_the_bias_after_a_matmul_as_torch(torch):
    names = []
    for lib in (core, torch):
        w, b = (lib.tensor(a, requires_grad=True) for a in _wb())
        names.append(lib.nn.functional.linear(lib.tensor(_x((4, 2, 3))).transpose(0, 1), w, b).grad_fn.name())
    assert names == ["AddBackward0", "AddBackward0"]


@pytest.mark.parametrize("shape", SHAPES[:3])
def test_linear_values_and_gradients_match_torch_for_each_input_rank(shape, torch):
    w, b = _wb()
    check_grads(lambda lib, x, w, b: lib.nn.functional.linear(x, w, b), [_x(shape), w, b], torch)


def test_a_linear_layer_on_a_batch_of_sequences_prints_as_torch(torch):
    outs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        layer = lib.nn.Linear(3, 2)
        outs.append(str(layer(lib.ones(2, 2, 3))).replace("core.", "torch."))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("batch, out", [(200, 8), (64, 10), (33, 1), (1000, 32)])
def test_linear_bias_gradient_adds_the_batch_in_torchs_order_bit_for_bit(batch, out, torch):
    # the bias's gradient is the output gradient summed over the batch; NumPy's column sum rounds differently
    rng = np.random.default_rng(batch)
    x, g = rng.standard_normal((batch, 3)).astype(np.float32), rng.standard_normal((batch, out)).astype(np.float32)
    grads = []
    for lib in (core, torch):
        w, b = lib.zeros(out, 3, requires_grad=True), lib.zeros(out, requires_grad=True)
        lib.nn.functional.linear(lib.tensor(x), w, b).backward(lib.tensor(g))
        grads.append(b.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_linear_weight_gradient_of_a_batch_of_one_has_torch_bits_and_layout(dtype, torch):
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal((1, 7)).astype(dtype), rng.standard_normal((5, 7)).astype(dtype)
    grads = []
    for lib in (core, torch):
        wt = lib.tensor(w, requires_grad=True)
        (lib.nn.functional.linear(lib.tensor(x), wt) * lib.arange(5, dtype=wt.dtype)).sum().backward()
        grads.append(wt.grad)
    assert grads[0].stride() == grads[1].stride()
    assert np.array_equal(grads[0].numpy(), grads[1].numpy())


@pytest.mark.parametrize("batch, features", [(4, 12), (64, 128), (64, 256), (17, 40)])  # (one sample: MKL's gemv)
def test_a_small_batchs_layer_adds_its_bias_to_the_transposed_product_made_contiguous(batch, features):
    """A batch of at most half the output features is computed as ``(W @ xᵀ)ᵀ``, made contiguous, then the bias
    added (NOTE: adding it in the same pass as the transposing copy was slower: NumPy's add walks the transposed
    operand less well than its copy); the bits of that form (signed zeros, infs and nans in the bias included),
    whether a graph is recorded or not. (Where ``core._small_gemm`` follows MKL's blocked kernel, 4+ rows and 12+
    outputs on the AMD Zen 4 and Zen 3, the product is that route's, which gives the transposed form's bits on the
    Zen 4 and MKL's, not NumPy's, on the Zen 3: fewer than 4 rows, or fewer than 12 outputs, take MKL's dot kernels'
    order on the AMD CPU; 5..11 rows on two threads MKL's split, ``core._small_gemm._split_blocks``.)"""
    from core import _small_gemm
    from core.nn.functional import misc

    rng = np.random.default_rng(batch)
    x = rng.standard_normal((batch, 30)).astype(np.float32)
    w = rng.standard_normal((features, 30)).astype(np.float32)
    b = rng.standard_normal(features).astype(np.float32)
    b[:4] = [-0.0, np.inf, -np.inf, np.nan][: min(4, features)]
    expected = _small_gemm.mkl_gemm(x, w.T)
    if expected is None:
        expected = np.ascontiguousarray(misc._gemm(w, x.T).T) if 2 * batch <= features else misc._gemm(x, w.T)
    expected += b
    for grad in (True, False):
        out = core.nn.functional.linear(core.tensor(x), core.tensor(w, requires_grad=grad), core.tensor(b))
        out = out.detach().numpy()
        assert out.flags.c_contiguous
        assert out.tobytes() == expected.tobytes()


@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (1, 1), (256, 64), (300, 64), (129, 64), (1000, 7), (64, 1000)])
def test_the_forwards_blocked_transposing_copy_moves_every_value(shape):
    """``_transposed_copy`` (the transposed product made contiguous a block of rows at a time) equals NumPy's copy
    of the transposed view, for blocks that do and do not divide the rows, and empty products."""
    from core.nn.functional import misc

    p = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    out = misc._transposed_copy(p)
    assert out.flags.c_contiguous and out.shape == shape[::-1]
    assert out.tobytes() == np.ascontiguousarray(p.T).tobytes()
