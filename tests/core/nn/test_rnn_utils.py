"""nn.utils.rnn pads, packs and unpacks sequences as PyTorch does, and gradients flow through packing."""

from __future__ import annotations

import numpy as np
import pytest

import core
from core.nn.utils import rnn
from tests.core.oracle import assert_same, check, check_error, check_grads, to_numpy


def randn(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def packed_fields(p) -> list:
    return [p.data, p.batch_sizes, p.sorted_indices, p.unsorted_indices]


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_sequence_matches_torch(torch, batch_first, side):
    seqs = [randn(3, 2), randn(1, 2, seed=1), randn(4, 2, seed=2)]
    check(lambda lib, *s: lib.nn.utils.rnn.pad_sequence(list(s), batch_first=batch_first, padding_value=-7.0,
                                                         padding_side=side), seqs, torch)


def test_pad_sequence_keeps_the_first_sequences_dtype_and_casts_the_padding_value(torch):
    seqs = [np.array([1, 2]), np.array([3, 4, 5]).astype(np.int32)]
    check(lambda lib, a, b: lib.nn.utils.rnn.pad_sequence([a, b], padding_value=1.5), seqs, torch)


def test_pad_sequence_passes_gradients_to_each_sequence(torch):
    check_grads(lambda lib, a, b: lib.nn.utils.rnn.pad_sequence([a, b], batch_first=True, padding_side="left"),
                [randn(2, 3), randn(4, 3, seed=1)], torch)


@pytest.mark.parametrize("fn", [
    lambda lib: lib.nn.utils.rnn.pad_sequence([]),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.ones(2, 3), lib.ones(3, 2)]),
    lambda lib: lib.nn.utils.rnn.pad_sequence([lib.ones(2)], padding_side="middle"),
    lambda lib: lib.nn.utils.rnn.pad_sequence(5),
], ids=["empty", "trailing-shapes", "padding-side", "not-iterable"])
def test_pad_sequence_errors_are_torchs(torch, fn):
    check_error(lambda lib: fn(lib), [], torch)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize(("lengths", "enforce_sorted"), [([4, 2, 1], True), ([1, 4, 2], False), ([2, 3, 2], False)])
def test_pack_padded_sequence_matches_torch(torch, batch_first, lengths, enforce_sorted):
    x = randn(3, 4, 2) if batch_first else randn(4, 3, 2)
    check(lambda lib, t: packed_fields(lib.nn.utils.rnn.pack_padded_sequence(
        t, lengths, batch_first=batch_first, enforce_sorted=enforce_sorted)), [x], torch)


def test_pack_padded_sequence_takes_lengths_as_a_tensor(torch):
    check(lambda lib, t: packed_fields(lib.nn.utils.rnn.pack_padded_sequence(
        t, lib.tensor([1, 3, 2]), enforce_sorted=False)), [randn(3, 3, 2)], torch)


def test_packing_and_padding_back_passes_gradients_to_the_padded_input(torch):
    def fn(lib, x):
        utils = lib.nn.utils.rnn
        packed = utils.pack_padded_sequence(x, [2, 4, 1], batch_first=True, enforce_sorted=False)
        return utils.pad_packed_sequence(packed, batch_first=True, padding_value=3.0, total_length=5)[0]
    check_grads(fn, [randn(3, 4, 2)], torch)


@pytest.mark.parametrize("batch_first", [False, True])
def test_pad_packed_sequence_matches_torch_with_lengths_in_the_original_order(torch, batch_first):
    def fn(lib, x):
        utils = lib.nn.utils.rnn
        packed = utils.pack_padded_sequence(x, [2, 3, 1], enforce_sorted=False)
        return list(utils.pad_packed_sequence(packed, batch_first=batch_first, padding_value=-1.0))
    check(fn, [randn(3, 3, 2)], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, x: lib.nn.utils.rnn.pack_padded_sequence(x, [2, 3, 1]),
    lambda lib, x: lib.nn.utils.rnn.pack_padded_sequence(x, [3, 2, 0]),
    lambda lib, x: lib.nn.utils.rnn.pack_padded_sequence(x, [3, 2]),
    lambda lib, x: lib.nn.utils.rnn.pack_padded_sequence(x, lib.tensor([[3, 2, 1]])),
    lambda lib, x: lib.nn.utils.rnn.pad_packed_sequence(lib.nn.utils.rnn.pack_padded_sequence(x, [3, 2, 1]),
                                                        total_length=2),
], ids=["unsorted", "zero-length", "count", "2-d-lengths", "total-length"])
def test_packing_errors_are_torchs(torch, fn):
    err = check_error(fn, [randn(4, 3, 2)], torch)
    try:
        fn(torch, torch.tensor(randn(4, 3, 2)))
    except Exception as theirs:  # comparing messages
        assert str(err) == str(theirs)


def test_pack_sequence_and_unpack_sequence_round_trip_like_torch(torch):
    seqs = [randn(3), randn(1, seed=1), randn(2, seed=2)]

    def fn(lib, *s):
        packed = lib.nn.utils.rnn.pack_sequence(list(s), enforce_sorted=False)
        return packed_fields(packed) + lib.nn.utils.rnn.unpack_sequence(packed)
    check(fn, seqs, torch)


def test_unpad_sequence_cuts_each_sequence_to_its_length(torch):
    check(lambda lib, x: lib.nn.utils.rnn.unpad_sequence(x, lib.tensor([2, 4, 1])), [randn(4, 3, 2)], torch)


def test_packed_sequence_is_a_named_tuple_of_data_sizes_and_permutations():
    p = rnn.pack_sequence([core.ones(3), core.ones(1), core.ones(2)], enforce_sorted=False)
    data, batch_sizes, sorted_indices, unsorted_indices = p
    assert p._fields == ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    assert batch_sizes.tolist() == [3, 2, 1] and batch_sizes.dtype is core.int64
    assert sorted_indices.tolist() == [0, 2, 1] and unsorted_indices.tolist() == [0, 2, 1]
    assert data is p.data and not p.is_cuda


def test_packed_sequence_to_casts_the_data_and_keeps_batch_sizes():
    p = rnn.pack_sequence([core.ones(2), core.ones(1)])
    q = p.double()
    assert q.data.dtype is core.float64 and q.batch_sizes is p.batch_sizes and q.sorted_indices is None
    assert p.to(core.float32) is p


def test_packed_sequence_accepts_data_and_batch_sizes_as_one_pair(torch):
    p = rnn.PackedSequence((core.ones(3), core.tensor([2, 1])))
    assert to_numpy(p.batch_sizes).tolist() == [2, 1] and p.unsorted_indices is None
    with pytest.raises(AssertionError, match="list or tuple of length 2"):
        rnn.PackedSequence(core.ones(3))


def test_invert_permutation_undoes_a_permutation(torch):
    perm = np.array([2, 0, 3, 1])
    assert_same(rnn.invert_permutation(core.tensor(perm)),
                torch.nn.utils.rnn.invert_permutation(torch.tensor(perm)))
    assert rnn.invert_permutation(None) is None
