"""Sparse COO tensors: made by ``to_sparse`` and ``sparse_coo_tensor``, printed, coalesced and multiplied as
PyTorch's (pytorch/examples' GCN and GAT build their normalised adjacency matrix this way)."""

import warnings

import numpy as np
import pytest

import core

DIAG = np.array([1.0, 2.0, 0.0, 3.0], dtype=np.float32)


def _both(torch, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's one-time note that sparse invariant checks are off
        return fn(core), fn(torch)


def test_to_sparse_prints_indices_values_size_and_nnz_as_torch(torch):
    for make in (lambda lib: lib.diag(lib.tensor(DIAG)).to_sparse(),
                 lambda lib: lib.tensor([[0, 1], [2, 0]]).to_sparse(),
                 lambda lib: lib.zeros(0, 2).to_sparse(),
                 lambda lib: lib.tensor([[0.0, 1.5], [0.0, 0.0], [2.0, 0.0]], dtype=lib.float64).to_sparse(1)):
        ours, theirs = _both(torch, make)
        assert repr(ours) == repr(theirs)
        assert (ours.layout.__repr__(), ours.is_sparse, ours._nnz()) == (repr(theirs.layout), True, theirs._nnz())
        assert (ours.sparse_dim(), ours.dense_dim(), ours.is_coalesced()) == (
            theirs.sparse_dim(), theirs.dense_dim(), theirs.is_coalesced())


def test_sparse_coo_tensor_keeps_duplicates_until_coalesce(torch):
    def make(lib):
        return lib.sparse_coo_tensor([[1, 0, 1], [0, 1, 0]], [1.0, 2.0, 3.0], (2, 3))

    ours, theirs = _both(torch, make)
    assert repr(ours) == repr(theirs) and ours.is_coalesced() is theirs.is_coalesced() is False
    with pytest.raises(RuntimeError, match="uncoalesced tensor, please call .coalesce"):
        ours.indices()
    assert repr(ours.coalesce()) == repr(theirs.coalesce())
    assert np.array_equal(ours.to_dense().numpy(), theirs.to_dense().numpy())


def test_sparse_coo_tensor_infers_the_size_and_takes_a_dtype(torch):
    ours, theirs = _both(torch, lambda lib: lib.sparse_coo_tensor(lib.tensor([[0, 2]]), lib.ones(2, 2),
                                                                   dtype=lib.int64))
    assert repr(ours) == repr(theirs) and ours.shape == theirs.shape


def test_sparse_times_dense_and_dense_plus_sparse_give_torchs_dense_results(torch):
    def run(lib):
        adj = lib.sparse_coo_tensor([[0, 1, 1, 2], [1, 0, 2, 1]], lib.ones(4), (3, 3), dtype=lib.int64)
        adj = lib.eye(3) + adj
        deg = lib.diag(lib.sqrt(1 / lib.sum(adj, dim=1))).to_sparse()
        norm = deg @ adj @ deg
        x = lib.arange(6.0).reshape(3, 2)
        return norm, lib.spmm(norm.to_sparse(), x), lib.sparse.mm(deg, x), lib.mm(deg, x)

    for ours, theirs in zip(*_both(torch, run)):
        assert ours.layout is core.strided and theirs.layout is torch.strided
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_a_dense_weight_gets_its_gradient_through_a_sparse_product(torch):
    def run(lib):
        w = lib.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
        x = lib.tensor([[0.0, 2.0], [1.0, 0.0], [0.0, 0.0]]).to_sparse()
        lib.mm(x, w).pow(2).sum().backward()
        return w.grad

    ours, theirs = _both(torch, run)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())


def test_to_dense_of_a_strided_tensor_is_itself(torch):
    x = core.ones(2)
    assert x.to_dense() is x and torch.ones(2).to_dense().layout is torch.strided


def test_legacy_sparse_float_tensor_constructor_and_sparse_sum_match_torch(torch):
    def run(lib):
        s = lib.sparse.FloatTensor(lib.LongTensor([[0, 1, 1], [1, 0, 2]]), lib.FloatTensor([1.0, 2.0, 4.0]),
                                   lib.Size([2, 3]))
        return s, lib.sparse.sum(s), lib.sparse.sum(s, dim=0), lib.sparse.sum(s, dim=1), lib.sparse.sum(s, (0, 1))

    for ours, theirs in zip(*_both(torch, run)):
        assert repr(ours) == repr(theirs)


def test_transpose_and_scalar_arithmetic_keep_a_sparse_tensor_sparse(torch):
    def run(lib):
        s = lib.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]]).to_sparse()
        u = lib.sparse_coo_tensor([[0, 0], [1, 1]], [1, 2], (2, 2))
        return s.t(), s.transpose(0, 1), s * 2, 2 * s, s / 2, -s, u * 2, u * 0.5, s * lib.tensor(3.0)

    for ours, theirs in zip(*_both(torch, run)):
        assert repr(ours) == repr(theirs)
        assert ours.is_coalesced() is theirs.is_coalesced()


def test_save_load_clone_and_deepcopy_keep_a_sparse_tensor_sparse(torch, tmp_path):
    import copy

    def run(lib):
        s = lib.sparse_coo_tensor([[1, 0, 1], [0, 1, 0]], [1.0, 2.0, 3.0], (2, 3))
        lib.save({"adj": s}, tmp_path / f"{lib.__name__}.pt")
        return lib.load(tmp_path / f"{lib.__name__}.pt")["adj"], s.clone(), copy.deepcopy(s)

    for ours, theirs in zip(*_both(torch, run)):
        assert repr(ours) == repr(theirs) and ours.is_coalesced() is theirs.is_coalesced()


@pytest.mark.parametrize("indices", [[[0, 2], [1, 0]], [[0, -1], [1, 5]], [[0, 1], [1, 3]], [[1, 1], [0, 1]]])
def test_sparse_coo_tensor_checks_index_bounds_when_asked_as_torch(torch, indices):
    """``check_invariants=True`` (or the process-wide ``check_sparse_tensor_invariants``) refuses an index outside
    ``size`` with torch's message, negative ones first. (Unchecked, torch builds a tensor that may crash later;
    core's dense mirror cannot hold it, so core refuses it with the same message.)"""
    errors = []
    for lib in (core, torch):
        try:
            lib.sparse_coo_tensor(indices, [1.0, 2.0], (2, 2), check_invariants=True)
            errors.append(None)
        except RuntimeError as e:
            errors.append(str(e))
        with lib.sparse.check_sparse_tensor_invariants():
            try:
                lib.sparse_coo_tensor(indices, [1.0, 2.0], (2, 2))
                errors.append(None)
            except RuntimeError as e:
                errors.append(str(e))
    assert errors[:2] == errors[2:]
    assert errors[0] == errors[1]


def test_sparse_coo_tensor_notes_implicit_invariant_checks_as_torch(torch):
    """Built with ``check_invariants`` left unset and no process-wide choice, the constructor notes (once a process,
    each time under ``set_warn_always``) that invariant checks are off; given explicitly, it is quiet."""
    seen = []
    for lib in (core, torch):
        lib.set_warn_always(True)
        try:
            for kwargs in ({}, {"check_invariants": False}):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    lib.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2), **kwargs)
                seen.append([str(w.message)[:48] for w in caught])
        finally:
            lib.set_warn_always(False)
    assert seen[:2] == seen[2:]
    assert seen[1] == []
