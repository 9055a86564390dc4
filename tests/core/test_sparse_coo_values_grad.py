"""Gradients through ``torch.sparse_coo_tensor``'s values (peft's SHiRA adapter trains a sparse weight delta so):
the node's name, the values' gradient through a dense update and through ``to_dense``, duplicates included."""

from __future__ import annotations

import copy
import warnings

import numpy as np

import core


def _run(lib):
    lib.manual_seed(0)
    w = lib.nn.Parameter(lib.randn(5))
    idx = lib.tensor([[0, 1, 2, 2, 0], [1, 0, 3, 3, 2]])  # (2, 3) twice: duplicates add up
    base = lib.nn.Parameter(lib.randn(3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's one-time note about sparse invariant checks
        delta = lib.sparse_coo_tensor(idx, w * 2.0, (3, 4))
    weight = copy.deepcopy(base.data)
    weight += delta
    x = lib.randn(2, 4)
    lib.nn.functional.linear(x, weight).square().sum().backward()
    first = w.grad.clone()
    w.grad = None
    (lib.sparse_coo_tensor(idx, w, (3, 4)).to_dense() * lib.arange(12.0).view(3, 4)).sum().backward()
    with lib.no_grad():
        frozen = lib.sparse_coo_tensor(idx, w, (3, 4)).requires_grad
    return (delta.requires_grad, type(delta.grad_fn).__name__, delta.is_sparse, weight.requires_grad,
            first.numpy(), w.grad.numpy(), frozen)


def test_values_get_the_gradient_at_their_index_as_torch(torch):
    got, want = _run(core), _run(torch)
    assert got[:4] == want[:4] and got[6] == want[6]
    np.testing.assert_allclose(got[4], want[4], rtol=1e-6)
    np.testing.assert_array_equal(got[5], want[5])
