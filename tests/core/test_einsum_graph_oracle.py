"""einsum under autograd is PyTorch's own lowering, against torch: recorded, a contraction of two or more operands
is the ops aten's einsum runs (operands unsqueezed and permuted, a bmm between reshapes, its result viewed and
permuted back; a mul for an outer product), so ``y.grad_fn`` and every ``next_functions`` below it carry torch's
names (``ViewBackward0`` over ``PermuteBackward0`` over ``BmmBackward0``...), and the gradients are bmm's products,
bit for bit in float32 where core's bmm is. Without grad the same steps give the same value bit for bit.
"""

import numpy as np
import pytest

import core
from core import _small_gemm
from tests.core.oracle import assert_float32_bits

RNG = np.random.default_rng(19)

EQUATIONS = {  # the contractions transformer and einops code writes
    "attention_scores": ("bhid,bhjd->bhij", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    "attention_output": ("bhij,bhjd->bhid", [(2, 3, 4, 6), (2, 3, 6, 5)]),
    "codebook_distances": ("... i d, j d -> ... i j", [(6, 1, 8), (16, 8)]),
    "rowwise_dot": ("bn,bn->b", [(4, 5), (4, 5)]),
    "matmul": ("ij,jk->ik", [(3, 4), (4, 5)]),
    "outer_product": ("i,j->ij", [(3,), (4,)]),
    "batched_scores_with_spaces": ("b i d, b j d -> b i j", [(2, 3, 4), (2, 5, 4)]),
    "three_operands": ("abc,cd,de->eab", [(2, 3, 4), (4, 5), (5, 6)]),
    "channels_mix": ("bchw,co->bohw", [(2, 3, 4, 5), (3, 4)]),
    "broadcast_batch": ("bij,jk->bik", [(1, 3, 4), (4, 8)]),
}


def _graph(node, depth=0):
    if node is None:
        return []
    return [(depth, node.name())] + [n for child, _ in node.next_functions for n in _graph(child, depth + 1)]


def _run(lib, equation, arrays, grad_output):
    leaves = [lib.tensor(a, requires_grad=True) for a in arrays]
    y = lib.einsum(equation, *leaves)
    y.backward(lib.tensor(grad_output))
    return y, [t.grad for t in leaves]


def _same_bits(ours, theirs):
    """Equal float32 bits where core follows MKL's GEMM order (the CPU core._small_gemm measured), else close."""
    ours, theirs = ours.detach().numpy(), theirs.detach().numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    if _small_gemm.FMA_BLOCKS:
        assert_float32_bits(ours, theirs)


def _data(shapes):
    return [RNG.standard_normal(s).astype(np.float32) for s in shapes]


@pytest.mark.parametrize("name", sorted(EQUATIONS))
def test_einsum_graph_value_and_gradients_are_torchs(name, torch):
    equation, shapes = EQUATIONS[name]
    arrays = _data(shapes)
    ty = torch.einsum(equation, *[torch.tensor(a) for a in arrays])
    grad_output = RNG.standard_normal(tuple(ty.shape)).astype(np.float32)
    expected, expected_grads = _run(torch, equation, arrays, grad_output)
    ours, grads = _run(core, equation, arrays, grad_output)
    assert _graph(ours.grad_fn) == _graph(expected.grad_fn)
    assert tuple(ours.stride()) == tuple(expected.stride())
    _same_bits(ours, expected)
    for g, want in zip(grads, expected_grads):
        _same_bits(g, want)


@pytest.mark.parametrize("name", ["attention_scores", "codebook_distances", "three_operands"])
def test_einsum_without_grad_gives_the_recorded_value(name, torch):
    equation, shapes = EQUATIONS[name]
    arrays = _data(shapes)
    with core.no_grad():
        ours = core.einsum(equation, *[core.tensor(a, requires_grad=True) for a in arrays])
    assert ours.grad_fn is None
    _same_bits(ours, torch.einsum(equation, *[torch.tensor(a) for a in arrays]))


def _second_derivative(lib, arrays):
    a, b = (lib.tensor(x, dtype=lib.float64, requires_grad=True) for x in arrays)
    y = lib.einsum("bi,bj->b", a.sin(), b)
    (ga,) = lib.autograd.grad(y.pow(2).sum(), a, create_graph=True)
    (gb,) = lib.autograd.grad(ga.sum(), b)
    return ga.grad_fn.name(), gb.numpy()


def test_einsum_gradient_is_differentiable_again(torch):
    arrays = _data([(3, 4), (3, 5)])
    ours, theirs = _second_derivative(core, arrays), _second_derivative(torch, arrays)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)


def test_large_codebook_distances_have_torchs_graph_and_close_gradients(torch):
    # NOTE: lucid_vq_lfq's (48, 1, 8) x (256, 8): the left gradient is a (48, 256) @ (256, 8) GEMM whose MKL order
    # core does not reproduce (core._small_gemm), so its bits may differ; the graph and the value are torch's
    arrays = _data([(48, 1, 8), (256, 8)])
    grad_output = RNG.standard_normal((48, 1, 256)).astype(np.float32)
    expected, expected_grads = _run(torch, "... i d, j d -> ... i j", arrays, grad_output)
    ours, grads = _run(core, "... i d, j d -> ... i j", arrays, grad_output)
    assert _graph(ours.grad_fn) == _graph(expected.grad_fn)
    _same_bits(ours, expected)
    for g, want in zip(grads, expected_grads):
        np.testing.assert_allclose(g.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)
