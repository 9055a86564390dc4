"""isclose/allclose on complex tensors compare the complex values (|a - b| <= atol + rtol * |b|, NaN in either
part equal with ``equal_nan``): core cast both to the default float dtype first, so only the real parts were
compared (1+1j and 1+2j were "close") and NumPy warned that it discarded the imaginary parts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core

NAN, INF = float("nan"), float("inf")
A = [1 + 1j, 1 + 1j, complex(NAN, 0), complex(0, NAN), complex(INF, 1), 1 + 1e-9j, 0j, complex(1, INF), 2 + 3j]
B = [1 + 2j, 1 + 1j, complex(NAN, 0), complex(NAN, 0), complex(INF, 1), 1 + 0j, 1e-9j, complex(1, INF), 2 - 3j]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("kwargs", [{}, {"equal_nan": True}, {"rtol": 0, "atol": 1e-8}, {"rtol": 0.5}])
def test_isclose_of_complex_tensors_matches_torch(dtype, kwargs, torch):
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        ours = core.isclose(core.tensor(A, dtype=getattr(core, dtype)), core.tensor(B, dtype=getattr(core, dtype)),
                            **kwargs).tolist()
    theirs = torch.isclose(torch.tensor(A, dtype=getattr(torch, dtype)), torch.tensor(B, dtype=getattr(torch, dtype)),
                           **kwargs).tolist()
    assert ours == theirs


def test_allclose_sees_the_imaginary_parts(torch):
    a, b = [1 + 1j, 2 + 0j], [1 - 1j, 2 + 0j]
    assert core.allclose(core.tensor(a), core.tensor(b)) is torch.allclose(torch.tensor(a), torch.tensor(b)) is False
