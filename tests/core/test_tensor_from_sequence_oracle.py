"""``torch.tensor`` and the legacy constructors read any Python sequence (PySequence_Check), not only lists and
tuples: a ``collections.deque`` (pytorch/examples' REINFORCE builds its returns in one), an ``array.array``, a
user's class with ``__len__`` and ``__getitem__``, nested or not; mappings and strings stay refused."""

import array
import collections

import pytest

import core
from tests.core.oracle import check, check_error


class Pair:
    """A minimal sequence: __len__ and __getitem__ only."""

    def __len__(self):
        return 2

    def __getitem__(self, i):
        if i >= 2:
            raise IndexError(i)
        return i * 1.5


DATA = {
    "deque_floats": lambda: collections.deque([1.0, 2.5, -3.0]),
    "deque_ints": lambda: collections.deque([1, 2, 3]),
    "deque_of_deques": lambda: collections.deque([collections.deque([1, 2]), collections.deque([3, 4])]),
    "list_of_deques": lambda: [collections.deque([1.0, 2.0]), collections.deque([3.0, 4.0])],
    "array_double": lambda: array.array("d", [1.0, 2.0, 0.5]),
    "array_int": lambda: array.array("i", [4, 5]),
    "user_sequence": Pair,
    "empty_deque": lambda: collections.deque(),
    "bytearray": lambda: bytearray(b"ab"),
    "memoryview": lambda: memoryview(b"ab"),
}


@pytest.mark.parametrize("name", sorted(DATA))
def test_tensor_reads_sequence(name, torch):
    check(lambda lib: lib.tensor(DATA[name]()), [], torch)


@pytest.mark.parametrize("name", ["deque_floats", "deque_of_deques", "array_double"])
def test_as_tensor_and_legacy_constructors(name, torch):
    check(lambda lib: lib.as_tensor(DATA[name]()), [], torch)
    check(lambda lib: lib.Tensor(DATA[name]()), [], torch)
    check(lambda lib: lib.FloatTensor(DATA[name]()), [], torch)
    check(lambda lib: lib.LongTensor(DATA["deque_ints"]()), [], torch)


def test_tensor_of_deque_with_dtype(torch):
    check(lambda lib: lib.tensor(collections.deque([1, 2]), dtype=lib.float64), [], torch)


def test_ragged_deque_is_refused(torch):
    check_error(lambda lib: lib.tensor(collections.deque([[1, 2], [3]])), [], torch)


@pytest.mark.parametrize("data", [b"ab", {1: 2}.keys(), "ab"])
def test_bytes_keys_and_str_are_refused(data, torch):
    check_error(lambda lib: lib.tensor(data), [], torch)


def test_dict_is_refused(torch):
    check_error(lambda lib: lib.tensor({1: 2}), [], torch)


def test_deque_returns_normalised_as_in_reinforce(torch):
    def run(lib):
        returns = collections.deque()
        r = 0.0
        for reward in [1.0, 1.0, 1.0, 1.0]:
            r = reward + 0.99 * r
            returns.appendleft(r)
        t = lib.tensor(returns)
        return (t - t.mean()) / (t.std() + 1e-7)

    check(run, [], torch)


def test_dtype_of_int_deque(torch):
    assert core.tensor(collections.deque([1])).dtype == core.int64
    assert torch.tensor(collections.deque([1])).dtype == torch.int64
