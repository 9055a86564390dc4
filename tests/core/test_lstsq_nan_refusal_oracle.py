"""linalg.lstsq refuses a NaN in A or B as PyTorch's CPU build does (MKL's LAPACK calls it an illegal argument):
efficient-kan's grid update on a NaN activation fails so in torch, and core failed with NumPy's 'SVD did not
converge' (a LinAlgError) instead."""

import math

import pytest

import core


def _error(lib, call):
    with pytest.raises(Exception) as info:
        call(lib)
    return type(info.value).__name__, str(info.value)


def _with_nan(lib, shape, index, seed):
    gen = lib.Generator().manual_seed(seed)
    t = lib.randn(*shape, generator=gen)
    t[index] = math.nan
    return t


@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss"])
@pytest.mark.parametrize("where", ["A", "B", "both"])
def test_lstsq_names_the_argument_and_batch_element_holding_a_nan(torch, driver, where):
    def call(lib):
        gen = lib.Generator().manual_seed(0)
        A, B = lib.randn(3, 6, 4, generator=gen), lib.randn(3, 6, 2, generator=gen)
        if where in ("A", "both"):
            A = _with_nan(lib, (3, 6, 4), (1, 2, 1), 1)
        if where in ("B", "both"):
            B = _with_nan(lib, (3, 6, 2), (2 if where == "B" else 0, 0, 0), 2)
        return lib.linalg.lstsq(A, B, driver=driver)

    assert _error(core, call) == _error(torch, call)


@pytest.mark.parametrize("shapes", [((3, 3), (3,)), ((4, 3), (4, 2)), ((2, 3, 4), (2, 3, 1)), ((1, 3, 2), (2, 3, 2)),
                                    ((2, 3, 2), (1, 3, 2)), ((2, 3, 2), (2, 3))])
def test_lstsq_nan_refusal_for_matrices_vectors_and_broadcast_batches(torch, shapes):
    a_shape, b_shape = shapes

    def call(lib):
        A = _with_nan(lib, a_shape, (0,) * len(a_shape), 3) if len(a_shape) == 2 else lib.randn(
            *a_shape, generator=lib.Generator().manual_seed(3))
        B = _with_nan(lib, b_shape, (-1,) * len(b_shape), 4)
        return lib.linalg.lstsq(A, B)

    assert _error(core, call) == _error(torch, call)


def test_lstsq_without_nan_still_solves_as_torch(torch):
    values = []
    for lib in (core, torch):
        gen = lib.Generator().manual_seed(0)
        A, B = lib.randn(2, 6, 3, dtype=lib.float64, generator=gen), lib.randn(2, 6, 2, dtype=lib.float64,
                                                                               generator=gen)
        values.append(lib.linalg.lstsq(A, B).solution.tolist())
    assert core.tensor(values[0]).allclose(core.tensor(values[1]), rtol=1e-12, atol=0)
