"""``sys.getsizeof`` of a tensor's storage, as PyTorch 2.13's.

torchinfo's summary reports the input size as ``sys.getsizeof(x.untyped_storage())``: PyTorch's
``UntypedStorage.__sizeof__`` is its C object's 32 bytes plus the bytes it holds, ``TypedStorage``'s the Python
object plus its elements' bytes, and both objects carry an instance dict, so ``getsizeof`` adds the same overhead.
"""

import sys
import warnings

import pytest

import core

TENSORS = {
    "float32 2x3x8x8": lambda lib: lib.randn(2, 3, 8, 8),
    "int64 arange": lambda lib: lib.arange(5),
    "a view": lambda lib: lib.randn(4)[1:],
    "float64 empty": lambda lib: lib.zeros(0, dtype=lib.float64),
}


@pytest.mark.parametrize("name", list(TENSORS))
def test_storage_sizes_match_torch(torch, name):
    sizes = []
    for lib in (core, torch):
        t = TENSORS[name](lib)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # TypedStorage's deprecation
            typed = t.storage()
            sizes.append((sys.getsizeof(t.untyped_storage()), t.untyped_storage().__sizeof__(),
                          sys.getsizeof(typed), typed.__sizeof__()))
    assert sizes[0] == sizes[1]
