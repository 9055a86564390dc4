"""Batch norm under ``create_graph=True`` records PyTorch's one ``NativeBatchNormBackwardBackward0`` node in training
and in evaluation mode, with affine parameters or without, float32 or float64 (evaluation mode recorded a Mul/View
composite before), and evaluation mode's double backward is ``batchnorm_double_backward``'s running-statistics
branch. Evaluation-mode gradients take the CPU kernel's arithmetic (``(dy * invstd) * w``, its sums; float32 and
float64), so first- and second-order values are torch's bit for bit."""

import numpy as np
import pytest

import core

SHAPES = [(4, 3, 2), (8, 5, 7, 3), (16, 4), (2, 3, 4, 4, 4)]


def _run(lib, dtype, training, affine, shape, wrt_grad_out=False):
    """First-order gradients under create_graph, the names of their nodes, and the second-order gradients of
    ``sum(g * g)`` (or, with ``wrt_grad_out``, of the gradients against fixed vectors, also towards grad_out)."""
    rng = np.random.default_rng(sum(shape))
    draw = lambda *s: lib.tensor(rng.standard_normal(s).astype(dtype))  # noqa: E731
    x = draw(*shape).requires_grad_()
    w, b = (draw(shape[1]).requires_grad_(), draw(shape[1]).requires_grad_()) if affine else (None, None)
    running_mean, running_var = draw(shape[1]), lib.tensor((rng.random(shape[1]) + 0.5).astype(dtype))
    y = lib.nn.functional.batch_norm(x, running_mean, running_var, w, b, training=training)
    gy = draw(*shape).requires_grad_(wrt_grad_out)
    wrt = [x, w, b] if affine else [x]
    first = lib.autograd.grad((y * gy).sum(), wrt, create_graph=True)
    names = [None if g.grad_fn is None else g.grad_fn.name() for g in first]
    edges = [[None if n is None else n.name() for n, _ in g.grad_fn.next_functions] for g in first if g.grad_fn]
    if wrt_grad_out:
        second = lib.autograd.grad(first, wrt + [gy], [draw(*g.shape) for g in first], allow_unused=True)
    else:
        second = lib.autograd.grad(sum((g * g).sum() for g in first), wrt, allow_unused=True)
    values = [g.detach().numpy() for g in first], [None if g is None else g.numpy() for g in second]
    return names, edges, values


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("training", [True, False], ids=["train", "eval"])
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_batch_norm_under_create_graph_records_torchs_node(torch, dtype, training, affine):
    (names, edges, _), (their_names, their_edges, _) = (_run(lib, dtype, training, affine, (4, 3, 2))
                                                         for lib in (core, torch))
    assert names == their_names
    assert edges == their_edges


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_eval_batch_norm_first_and_second_order_match_torch_bitwise(torch, shape, affine, dtype):
    (_, _, (first, second)), (_, _, (their_first, their_second)) = (_run(lib, dtype, False, affine, shape)
                                                                    for lib in (core, torch))
    for ours, theirs in zip(first + second, their_first + their_second, strict=True):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            assert ours.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_eval_double_backward_towards_input_weight_and_grad_out_matches_torch(torch, dtype, shape):
    """Given the same incoming gradients, evaluation mode's double backward rounds as torch's in both dtypes
    (float64's first-order values are the composite's, within an ulp or two of the kernel's)."""
    (_, _, (_, second)), (_, _, (_, theirs)) = (_run(lib, dtype, False, True, shape, wrt_grad_out=True)
                                                for lib in (core, torch))
    for ours, want in zip(second, theirs, strict=True):
        assert (ours is None) == (want is None)
        if ours is not None:
            assert ours.tobytes() == want.tobytes()

