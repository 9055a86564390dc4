"""core._numpy_c.data_address: an array's first element's address without ``__array_interface__``'s dict.

The MKL-order dot and gemv kernels (``core._small_gemm``) choose their order by a row's address mod 16 bytes, so the
cheaper read must give exactly the interface's address for every array they can meet."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._numpy_c import data_address


def _interface(a):
    return a.__array_interface__["data"][0]


@settings(max_examples=200, deadline=None)
@given(rows=st.integers(0, 9), cols=st.integers(0, 9), start=st.integers(0, 7), step=st.integers(1, 3),
       transposed=st.booleans(), read_only=st.booleans(), dtype=st.sampled_from(["float32", "float64", "int8"]))
def test_data_address_is_the_array_interfaces_address_for_any_view(rows, cols, start, step, transposed, read_only,
                                                                   dtype):
    base = np.zeros(rows * cols * step + start + 16, dtype)
    flat = base[start:start + rows * cols * step:step]
    a = flat.reshape(rows, cols)  # (a view at the offset, contiguous or strided)
    a = a.T if transposed else a
    a.flags.writeable = not read_only
    assert data_address(a) == _interface(a)


def test_data_address_of_zero_dimensional_and_empty_arrays():
    for a in (np.float32(1.5) * np.ones(()), np.ones((0, 3), np.float32), np.ones(5, np.float32)[2:2]):
        assert data_address(a) == _interface(a)
