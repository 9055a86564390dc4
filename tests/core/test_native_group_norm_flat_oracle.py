"""``native_group_norm`` of an input not shaped (N, C, ...) (a flat (N, C * HxW) one, as a functorch or
decomposition user hands it): ATen reads it as (N, C, HxW) inside the op, so its output's ``grad_fn`` is the
``NativeGroupNormBackward0`` that the mean and rstd share, with no view node before or after it. Values, first-
and second-order gradients are torch's, bit for bit."""

import numpy as np
import pytest

import core


def _graph(fn):
    if fn is None:
        return None
    return fn.name(), tuple(_graph(child) for child, _ in fn.next_functions)


def _run(lib, x, dtype, affine, create_graph):
    t = lib.tensor(x.astype(dtype), requires_grad=True)
    w = lib.tensor(np.linspace(0.5, 1.5, 6).astype(dtype), requires_grad=True) if affine else None
    b = lib.tensor(np.linspace(-0.2, 0.3, 6).astype(dtype), requires_grad=True) if affine else None
    out, mean, rstd = lib.native_group_norm(t, w, b, x.shape[0], 6, x.size // x.shape[0] // 6, 3, 1e-5)
    loss = (out * out * out).sum() + mean.sum() * 2 + rstd.sum() * 1e-3
    wrt = (t, w, b) if affine else (t,)
    grads = lib.autograd.grad(loss, wrt, create_graph=create_graph)
    seen = [_graph(out.grad_fn), out.grad_fn is mean.grad_fn is rstd.grad_fn, tuple(out.shape), out.stride()]
    seen += [a.detach().numpy().tobytes() for a in (out, mean, rstd, *grads)]
    if create_graph:
        seen.append(_graph(grads[0].grad_fn))
        second = lib.autograd.grad(sum((g * g).sum() for g in grads), t)[0]
        seen.append(second.numpy().tobytes())
    return seen


@pytest.mark.parametrize("shape", [(2, 12), (3, 6), (2, 3, 8)], ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("affine", [False, True])
def test_native_group_norm_of_a_flat_input_records_no_view(torch, shape, dtype, affine):
    x = np.random.default_rng(len(shape) + shape[1]).standard_normal(shape)
    assert _run(core, x, dtype, affine, False) == _run(torch, x, dtype, affine, False)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_native_group_norm_of_a_flat_input_differentiates_twice_as_torch(torch, dtype):
    """The first-order gradient's graph (torch's formula reads the flat X as (N, G, D, HxW): one view) and the
    second-order gradient's bits."""
    x = np.random.default_rng(7).standard_normal((2, 12))
    assert _run(core, x, dtype, True, True) == _run(torch, x, dtype, True, True)
