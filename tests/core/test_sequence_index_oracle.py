"""Indexing a tensor with any Python sequence, as PyTorch 2.13 reads it.

PyTorch asks ``PySequence_Check`` of an index that is not a tensor: any object whose class has ``__getitem__`` (not
a dict) is a sequence. "Deep Learning with PyTorch Step-by-Step" indexes its tensors with the ``Subset``s that
``random_split`` gives (``x_tensor[train_idx]``). A sequence of 32 items or more, or one holding only numbers, is one
tensor index (floats are truncated to a long index); a shorter one holding tensors, sequences, slices, None or
Ellipsis is a tuple of indices (a str too: a sequence of strs). An out-of-bounds list names the first bad index; more
indices than dims are refused before any is read; NumPy's bool is not an index.
"""

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import raised


class Seq:
    """A sequence that is neither a list nor a tuple: ``__len__`` and ``__getitem__`` only."""

    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class Iterable:
    def __iter__(self):
        return iter([1])


def _cases(lib):
    return {
        "two ints": lambda: Seq([1, 2]),
        "one int": lambda: Seq([0]),
        "two 0-d tensors: a tuple": lambda: Seq([lib.tensor(1), lib.tensor(2)]),
        "an int and a slice: a tuple": lambda: Seq([0, slice(1, 3)]),
        "two lists: a tuple": lambda: Seq([[0, 1], [1, 2]]),
        "a tensor's items: a tuple": lambda: Seq(lib.tensor([0, 2])),
        "40 ints": lambda: Seq([0, 2] * 20),
        "40 0-d tensors": lambda: Seq([lib.tensor(1)] * 40),
        "40 floats": lambda: Seq([1.5, 0.7] * 20),
        "floats in a list": lambda: [1.5, 0.5],
        "a float array": lambda: np.array([1.9, 0.2]),
        "empty": lambda: Seq([]),
        "bools": lambda: Seq([True, False, True]),
        "a range": lambda: range(1, 3),
        "a str in a list: a tuple": lambda: ["ab", 1],
        "an iterable without __getitem__": lambda: Iterable(),
        "a dict": lambda: {1: 2},
        "out of bounds": lambda: Seq(list(range(40))),
        "out of bounds, negative first": lambda: [0, -7, 9],
        "a str of more characters than dims": lambda: "abcdef",
        "a str of two characters": lambda: "ab",
        "bytes": lambda: b"ab",
        "a NumPy bool": lambda: np.True_,
        "a NumPy bool in a tuple": lambda: (0, np.True_),
        "a NumPy float": lambda: np.float64(1.0),
        "too many with a bool mask": lambda: (lib.ones(3, 4, dtype=lib.bool), 0),
        "True after two ints": lambda: (0, 1, True),
    }


def _read(lib, name):
    x = lib.arange(12).view(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecation of a non-tuple sequence as a tuple
        return raised(lambda: x[_cases(lib)[name]()]) or x[_cases(lib)[name]()].tolist()


@pytest.mark.parametrize("name", list(_cases(core)))
def test_a_sequence_index_reads_as_torch_reads_it(torch, name):
    assert _read(core, name) == _read(torch, name)


def test_a_random_split_subset_indexes_a_tensor(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(13)
        train, val = lib.utils.data.random_split(lib.arange(300), [0.8, 0.2])
        x = lib.arange(300) * 10
        x[val] = -1  # and writes through it
        results.append((x[train].tolist(), x.tolist()))
    assert results[0] == results[1]


def test_a_short_subset_of_tensors_is_a_tuple_of_indices(torch):
    errors = []
    for lib in (core, torch):
        lib.manual_seed(0)
        _, val = lib.utils.data.random_split(lib.arange(10), [0.8, 0.2])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            errors.append(raised(lambda lib=lib, val=val: lib.arange(10)[val]))
    assert errors[0] == errors[1] == ("IndexError", "too many indices for tensor of dimension 1")


def test_a_short_list_read_as_a_tuple_warns_in_torchs_words(torch):
    messages = []
    for lib in (core, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.zeros(2, 3)[[0, slice(None)]]
        messages.append(str(caught[0].message).split(" (Triggered internally")[0])
    assert messages[0] == messages[1]
