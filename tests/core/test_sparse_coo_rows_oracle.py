"""A sparse COO tensor's rows stay sparse, as PyTorch's (#19): ``select``/``t[i]``/iteration/``unbind`` give COO
tensors (marked coalesced only with fewer than two entries) and ``torch.stack`` of COO tensors is COO, uncoalesced.
sentence-transformers' ``SparseEncoder.encode`` iterates a batch's sparse embeddings and stacks the rows; core gave
dense rows and a dense stack (``is_sparse`` False)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core

DENSE = [[0.0, 1.5, 0.0, 0.0], [2.0, 0.0, 3.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, -1.0, 0.0, 4.0]]


def _coo(t):
    """What a user can read of a COO tensor: layout, shape, coalesced flag, indices, values, dense form."""
    return (t.is_sparse, tuple(t.shape), t.is_coalesced(), t._indices().tolist(), t._values().tolist(),
            t.to_dense().tolist())


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("index", [0, 1, 2, -1])
def test_select_of_sparse_dims(dim, index):
    got = core.tensor(DENSE).to_sparse().select(dim, index)
    want = torch.tensor(DENSE).to_sparse().select(dim, index)
    assert _coo(got) == _coo(want)


def test_rows_by_index_iteration_and_unbind():
    got, want = core.tensor(DENSE).to_sparse(), torch.tensor(DENSE).to_sparse()
    assert _coo(got[1]) == _coo(want[1]) and _coo(got[-1]) == _coo(want[-1])
    assert [_coo(r) for r in got] == [_coo(r) for r in want]
    assert [_coo(r) for r in got.unbind(1)] == [_coo(r) for r in want.unbind(1)]


def test_select_of_a_dense_dim_of_a_hybrid_tensor():
    x = np.zeros((3, 2, 2), np.float32)
    x[1, 0], x[2, 1, 1] = [1.0, 2.0], 5.0
    got, want = core.tensor(x).to_sparse(2), torch.tensor(x).to_sparse(2)
    for dim, index in ((0, 1), (2, 1), (1, 0)):
        assert _coo(got.select(dim, index)) == _coo(want.select(dim, index))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_stack_of_sparse_rows_is_sparse_and_uncoalesced(dim):
    got = core.stack(list(core.tensor(DENSE).to_sparse()), dim)
    want = torch.stack(list(torch.tensor(DENSE).to_sparse()), dim)
    assert _coo(got) == _coo(want)
    assert _coo(got.coalesce()) == _coo(want.coalesce())


def test_select_out_of_range_raises_as_torch():
    for lib in (core, torch):
        with pytest.raises(IndexError, match=r"index 4 out of range for tensor of size \[4, 4\] at dimension 0"):
            lib.tensor(DENSE).to_sparse().select(0, 4)
