"""The ``*_copy`` forms of the view ops and the ``unsafe_`` splits against PyTorch: values, shapes, fresh contiguous
memory, grad_fn names, gradients (twice differentiable) and ``out=``."""

import numpy as np
import pytest

import core

CASES = [("permute_copy", ((2, 0, 1),), {}), ("transpose_copy", (0, 2), {}), ("view_copy", ((6, 4),), {}),
         ("expand_copy", ((2, 2, 3, 4),), {}), ("squeeze_copy", (), {}), ("unsqueeze_copy", (1,), {}),
         ("diagonal_copy", (1, 1, 2), {}), ("select_copy", (2, 1), {}), ("slice_copy", (2, 1, None, 2), {}),
         ("alias_copy", (), {}), ("as_strided_copy", ((3, 2), (1, 3), 2), {}), ("unfold_copy", (2, 2, 1), {})]


def _input(lib):
    return lib.tensor(np.arange(24.0).reshape(2, 3, 4) / 7, requires_grad=True)


@pytest.mark.parametrize("name, args, kw", CASES, ids=[c[0] for c in CASES])
def test_copy_variant_gives_a_fresh_copy_with_torchs_values_and_gradient(name, args, kw, torch):
    results = []
    for lib in (core, torch):
        x = _input(lib)
        y = getattr(lib, name)(x, *args, **kw)
        weights = lib.tensor(np.linspace(-1, 1, y.numel()).reshape(tuple(y.shape)))
        (grad,) = lib.autograd.grad((y * weights).sum(), x)
        results.append((y.detach().numpy(), type(y.grad_fn).__name__, y.is_contiguous(), grad.numpy(),
                        y.data_ptr() != x.data_ptr()))
    ours, theirs = results
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1:3] == theirs[1:3] and ours[4] and theirs[4]
    np.testing.assert_array_equal(ours[3], theirs[3])


def test_t_copy_writes_into_out_as_torch(torch):
    outs = []
    for lib in (core, torch):
        out = lib.empty(3, 2)
        lib.t_copy(lib.arange(6.0).view(2, 3), out=out)
        outs.append(out.numpy())
    np.testing.assert_array_equal(*outs)


@pytest.mark.parametrize("name, args", [("split_copy", (2, 2)), ("split_with_sizes_copy", ([1, 3], 2)),
                                        ("unbind_copy", (1,)), ("unsafe_split", (2, 2)), ("unsafe_chunk", (3, 1)),
                                        ("unsafe_split_with_sizes", ([1, 3], 2))])
def test_splitting_copies_give_torchs_pieces_and_gradient(name, args, torch):
    results = []
    for lib in (core, torch):
        x = _input(lib)
        pieces = getattr(lib, name)(x, *args)
        loss = sum((p * (i + 1)).sum() for i, p in enumerate(pieces))
        (grad,) = lib.autograd.grad(loss, x)
        results.append(([p.detach().numpy() for p in pieces], grad.numpy(), type(pieces).__name__))
    assert len(results[0][0]) == len(results[1][0]) and results[0][2] == results[1][2]
    for a, b in zip(results[0][0], results[1][0]):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(results[0][1], results[1][1])


def test_copy_variants_are_twice_differentiable():
    x = core.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = core.permute_copy(x * x, (1, 0))
    (g,) = core.autograd.grad((y * core.tensor([[1.0, 2.0], [3.0, 4.0]])).sum(), x, create_graph=True)
    (gg,) = core.autograd.grad(g.sum(), x)
    np.testing.assert_array_equal(gg.numpy(), [[2.0, 6.0], [4.0, 8.0]])


def test_detach_copy_and_view_copy_to_a_dtype_carry_no_gradient(torch):
    x = core.ones(2, 2, requires_grad=True)
    assert not core.detach_copy(x).requires_grad
    ours, theirs = core.view_copy(core.ones(2, 2), core.int32), torch.view_copy(torch.ones(2, 2), torch.int32)
    assert str(ours.dtype) == str(theirs.dtype) == "torch.int32" and not ours.requires_grad
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
