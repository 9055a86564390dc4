"""``core._select.where`` (the twenty-eighth session's branch-free select) gives ``np.where``'s bits.

Activations and ``torch.where`` took ``np.where``, which branches on each element (~6x slower on a random mask);
``core._select.where`` selects by the operands' bits instead. Each case runs both on the same random bits (NaN
payloads, signaling NaNs, signed zeros, subnormals: any pattern), broadcast shapes and NumPy scalars included,
and compares dtype, shape, layout and every byte, with the size threshold lowered so small cases take the select.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _select

_DTYPES = [np.float16, np.float32, np.float64, np.int16, np.int32, np.int64, np.uint32, np.complex64]


def _bits(rng, shape, dtype):
    raw = rng.integers(0, 256, int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)


def _operand(rng, shape, dtype, form):
    if form == "scalar":
        return _bits(rng, (1,), dtype)[0]
    if form == "0-d":
        return _bits(rng, (), dtype)
    if form == "row":
        return _bits(rng, shape[-1:], dtype)
    return _bits(rng, shape, dtype)


@settings(max_examples=300, deadline=None)
@given(shape=st.lists(st.integers(1, 7), min_size=0, max_size=3), dtype=st.sampled_from(_DTYPES),
       forms=st.lists(st.sampled_from(["full", "row", "0-d", "scalar"]), min_size=2, max_size=2),
       density=st.sampled_from([0.0, 0.5, 1.0, 0.1]), seed=st.integers(0, 2 ** 32 - 1), small=st.booleans(),
       mask_row=st.booleans())
def test_select_gives_np_wheres_bits(shape, dtype, forms, density, seed, small, mask_row):
    rng = np.random.default_rng(seed)
    shape = tuple(shape)
    mask = rng.random(shape[-1:] if mask_row else shape) < density
    a, b = (_operand(rng, shape or (1,), dtype, f) for f in forms)
    if not shape:
        a, b = (v.reshape(()) if isinstance(v, np.ndarray) else v for v in (a, b))
    size = _select._MIN_SIZE
    _select._MIN_SIZE = 0 if small else size
    try:
        new = _select.where(mask, a, b)
    finally:
        _select._MIN_SIZE = size
    old = np.where(mask, a, b)
    assert new.dtype == old.dtype and new.shape == old.shape and new.flags.c_contiguous == old.flags.c_contiguous
    assert np.array_equal(np.ascontiguousarray(new).view(np.uint8), np.ascontiguousarray(old).view(np.uint8))


def test_mixed_dtypes_and_python_numbers_take_np_where():
    mask = np.arange(5000) % 3 == 0
    x = np.linspace(-1, 1, 5000, dtype=np.float32)
    for a, b in [(x, 0.5), (x, x.astype(np.float64)), (x, np.float16(2)), (x.astype(np.int32), 7)]:
        old, new = np.where(mask, a, b), _select.where(mask, a, b)
        assert new.dtype == old.dtype and np.array_equal(new, old)
