"""Composed ops end in the grad_fn PyTorch's fused kernels give (tutorials print these results), with torch's values.

``embedding_bag`` ends in ``EmbeddingBagBackward0``, ``pdist`` in ``PdistBackward0``, and ``pad_packed_sequence``
builds its output as PyTorch does (``CopySlices``, a transposed view for ``batch_first``, ``index_select`` for
unsorted input), with the same strides.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

W = np.random.default_rng(0).standard_normal((10, 3)).astype(np.float32)


def name(t):
    """The node's name without torch's C++ namespace (``torch::autograd::CopySlices``), as core names it."""
    return None if t.grad_fn is None else t.grad_fn.name().replace("torch::autograd::", "")


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_output_ends_in_torchs_node_with_torchs_values_and_gradient(torch, mode):
    results = []
    for lib in (core, torch):
        bag = lib.nn.EmbeddingBag(10, 3, mode=mode)
        bag.weight.data.copy_(lib.tensor(W))
        out = bag(lib.tensor([1, 2, 4, 5, 4, 3]), lib.tensor([0, 4]))
        (out * lib.arange(6.0).view(2, 3)).sum().backward()
        results.append((name(out), out, bag.weight.grad))
    assert results[0][0] == results[1][0] == "EmbeddingBagBackward0"
    assert_same(results[0][1:], results[1][1:])


def test_embedding_bag_without_grad_mode_has_no_grad_fn(torch):
    for lib in (core, torch):
        with lib.no_grad():
            assert lib.nn.EmbeddingBag(10, 3)(lib.tensor([[1, 2]])).grad_fn is None


def test_pdist_ends_in_torchs_node(torch):
    outs = [lib.nn.functional.pdist(lib.tensor(W[:4], requires_grad=True)) for lib in (core, torch)]
    assert name(outs[0]) == name(outs[1]) == "PdistBackward0"
    assert_same(outs[0], outs[1])


@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("lengths", [[3, 2, 2], [2, 3, 1]], ids=["sorted", "unsorted"])
def test_pad_packed_sequence_builds_torchs_output_node_strides_and_gradient(torch, batch_first, lengths):
    x = np.random.default_rng(1).standard_normal((3, 3, 2)).astype(np.float32)
    results = []
    for lib in (core, torch):
        leaf = lib.tensor(x, requires_grad=True)
        packed = lib.nn.utils.rnn.pack_padded_sequence(leaf if batch_first else leaf.transpose(0, 1), lengths,
                                                       batch_first=batch_first, enforce_sorted=lengths == [3, 2, 2])
        padded, out_lengths = lib.nn.utils.rnn.pad_packed_sequence(packed, batch_first=batch_first, total_length=4)
        (padded * padded).sum().backward()
        results.append((name(padded), padded.stride(), padded, out_lengths, leaf.grad))
    assert results[0][:2] == results[1][:2]
    assert_same(results[0][2:], results[1][2:])
