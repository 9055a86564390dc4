"""Graphs PyTorch records for two composites: circular ``F.pad`` (ATen's ``_pad_circular`` copies the input into an
empty output, then its wrapped parts from the output itself: ``CopySlices`` over ``SliceBackward0`` nodes) and
``tensordot`` over every dim (a ``dot`` of the flattened operands, or, where flattening one would copy, the sum of
the squeezed operands' product). Values and gradients bit for bit; an in-place copy between two views of one
tensor keeps the source's ``SliceBackward0`` edge, as ATen collects edges before the write."""

import numpy as np
import pytest

import core


def _graph(fn, depth=0):
    if fn is None:
        return None
    if "AccumulateGrad" in fn.name() or depth > 30:
        return fn.name()
    return fn.name(), tuple(_graph(f, depth + 1) for f, _ in fn.next_functions)


PADS = [((2, 3, 7), (1, 2)), ((2, 3, 7), (3, 0)), ((1, 2, 5, 6), (1, 2, 2, 1)), ((2, 5, 6), (2, 2, 1, 0)),
        ((1, 2, 3, 4, 5), (1, 1, 2, 0, 1, 3)), ((2, 3, 7), (-2, 3)), ((1, 2, 5, 6), (2, -1, 0, 3))]


@pytest.mark.parametrize("shape,pad", PADS, ids=str)
def test_circular_pad_records_torch_copy_slices_and_its_gradient(torch, shape, pad):
    x_np = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
    results = []
    for lib in (core, torch):
        x = lib.tensor(x_np, requires_grad=True)
        y = lib.nn.functional.pad(x, pad, mode="circular")
        g = lib.tensor(np.random.default_rng(7).standard_normal(tuple(y.shape)).astype(np.float32))
        y.backward(g)
        results.append((_graph(y.grad_fn), y.detach().numpy().tobytes(), x.grad.numpy().tobytes(), y.stride()))
    assert results[0] == results[1]


def test_circular_pad_without_grad_gives_the_same_values(torch):
    x_np = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    with core.no_grad():
        ours = core.nn.functional.pad(core.tensor(x_np, requires_grad=True), (1, 2, 3, 1), mode="circular")
    theirs = torch.nn.functional.pad(torch.tensor(x_np), (1, 2, 3, 1), mode="circular")
    assert ours.grad_fn is None
    assert ours.numpy().tobytes() == theirs.numpy().tobytes()


CONTRACTIONS = [((2, 3), (2, 3), 2), ((6,), (6,), 1), ((1, 5), (5, 1), 2), ((2, 3), (2, 3), ([1, 0], [1, 0])),
                ((2, 3, 4), (2, 3, 4), 3), ((2, 3), (3, 2), ([0, 1], [1, 0])), ((0,), (0,), 1),
                ((2, 1, 3), (3, 1, 2), ([0, 1, 2], [2, 1, 0])), ((64, 50), (50, 64), ([0, 1], [1, 0])),
                ((64, 50), (64, 50), 2), ((300,), (300,), 1), ((40, 30, 5), (5, 30, 40), ([0, 1, 2], [2, 1, 0])),
                ((2, 3), (3, 4), 1), ((3, 1), (1, 4), 1)]


@pytest.mark.parametrize("sa,sb,dims", CONTRACTIONS, ids=str)
def test_tensordot_records_torch_graph_and_values(torch, sa, sb, dims):
    results = []
    for lib in (core, torch):
        a = lib.tensor(np.random.default_rng(0).standard_normal(sa).astype(np.float32), requires_grad=True)
        b = lib.tensor(np.random.default_rng(1).standard_normal(sb).astype(np.float32), requires_grad=True)
        t = lib.tensordot(a, b, dims)
        t.backward(lib.ones_like(t))
        results.append((_graph(t.grad_fn), tuple(t.shape), t.detach().numpy().tobytes(), a.grad.numpy().tobytes(),
                        b.grad.numpy().tobytes()))
    assert results[0] == results[1]


def test_in_place_copy_between_views_keeps_the_source_slice_edge(torch):
    graphs = []
    for lib in (core, torch):
        x = lib.arange(4.0).requires_grad_()
        out = x.new_empty(6)
        out.narrow(0, 1, 4).copy_(x)
        target, source = out.narrow(0, 0, 1), out.narrow(0, 4, 1)
        target.copy_(source)
        graphs.append((_graph(out.grad_fn), source.grad_fn.name(), target.grad_fn.name()))
    assert graphs[0] == graphs[1]
