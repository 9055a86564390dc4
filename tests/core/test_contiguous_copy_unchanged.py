"""``Tensor.contiguous()`` after the twenty-eighth session's cut copies once and gives the old copy's values.

Before (commit 5a65a8d4) ``Clone.forward`` for ``contiguous_format`` took ``np.ascontiguousarray(x).copy()`` (two
copies of a strided input); now one, and a transposed matrix by blocks of its rows. On random views (permuted,
transposed, sliced, stepped, flipped, size-1 dims, several dtypes): the same bytes, C-contiguous, and a copy that
does not share memory with the input.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core.ops.views import _contiguous_copy


@settings(max_examples=200, deadline=None)
@given(shape=st.lists(st.integers(1, 40), min_size=1, max_size=4), seed=st.integers(0, 2 ** 32 - 1),
       dtype=st.sampled_from([np.float32, np.float64, np.int64, np.float16, np.uint8, np.complex64]),
       view=st.sampled_from(["T", "permute", "step", "slice", "flip"]))
def test_a_contiguous_copy_gives_the_old_copys_bytes(shape, seed, dtype, view):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, int(np.prod(shape)) * np.dtype(dtype).itemsize, dtype=np.uint8).view(dtype).reshape(shape)
    if view == "T":
        x = x.T
    elif view == "permute":
        x = x.transpose(rng.permutation(x.ndim))
    elif view == "step":
        x = x[..., ::2]
    elif view == "slice":
        x = x[..., 1:]
    else:
        x = x[..., ::-1]
    old = np.ascontiguousarray(x).copy()
    new = _contiguous_copy(x, np)
    assert new.dtype == old.dtype and new.shape == old.shape and new.flags.c_contiguous
    assert not np.may_share_memory(new, x)
    assert np.array_equal(old.view(np.uint8), new.view(np.uint8))


def test_contiguous_of_a_transposed_tensor_is_a_new_row_major_copy():
    x = core.arange(600.0).reshape(20, 30)
    y = x.t().contiguous()
    assert y.is_contiguous() and y.stride() == (20, 1) and y.tolist() == x.t().tolist()
    y[0, 0] = -1.0
    assert x[0, 0].item() == 0.0
