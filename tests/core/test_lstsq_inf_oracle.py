"""linalg.lstsq with an infinity in A or B gives what PyTorch's CPU build gives: LAPACK scales a matrix with an
infinite norm by zero, so an infinity in B makes that batch element's solution NaN (its residuals NaN for the
columns holding it, 0 for the others), gels refuses an infinity in A as rank deficient and gelsd as an illegal
argument. core returned +-inf solutions and solved through the infinity in A."""

import math

import pytest

import core


def _outcome(lib, call):
    try:
        r = call(lib)
    except Exception as exc:  # (the error's type and text are what is compared)
        return type(exc).__name__, str(exc)
    return tuple(t.flatten().tolist() for t in (r.solution, r.residuals, r.rank))


def _same(ours, theirs) -> bool:
    """The same error, or the same NaNs and shapes with values equal to float32 rounding (the finite batch
    elements go through a different solver than MKL's)."""
    if isinstance(ours[0], str) or isinstance(theirs[0], str):
        return ours == theirs
    return all(a == pytest.approx(b, rel=1e-5, abs=1e-6, nan_ok=True) for a, b in zip(ours, theirs))


def _system(lib, a_shape, b_shape, a_inf, b_inf, dtype):
    gen = lib.Generator().manual_seed(5)
    A, B = lib.randn(*a_shape, generator=gen, dtype=dtype), lib.randn(*b_shape, generator=gen, dtype=dtype)
    for index, sign in a_inf:
        A[index] = sign * math.inf
    for index, sign in b_inf:
        B[index] = sign * math.inf
    return A, B


CASES = {  # name: (A shape, B shape, infinities in A, infinities in B)
    "tall, one in B": ((3, 2), (3, 1), [], [((1, 0), 1)]),
    "square, -inf in B": ((3, 3), (3, 1), [], [((2, 0), -1)]),
    "wide, one in B": ((2, 3), (2, 1), [], [((1, 0), 1)]),
    "tall, second of two columns": ((4, 2), (4, 2), [], [((0, 1), 1)]),
    "batch, second element": ((2, 3, 2), (2, 3, 1), [], [((1, 0, 0), 1)]),
    "vector B": ((3, 2), (3,), [], [((2,), -1)]),
    "tall, in A's second column": ((3, 2), (3, 1), [((1, 1), 1)], []),
    "tall, -inf in A's first column": ((3, 2), (3, 1), [((0, 0), -1)], []),
    "square, in A": ((3, 3), (3, 1), [((2, 2), 1)], []),
    "batch, in A's second element": ((2, 3, 2), (2, 3, 1), [((1, 1, 1), 1)], []),
    "in A and B": ((3, 2), (3, 1), [((1, 1), 1)], [((0, 0), 1)]),
}


# NOTE: gelsy and gelss with an infinity in A are left out: MKL's NaNs and zeros there vary between runs of the
# same call in one process (its pivoting and SVD meet NaN norms), so there is no one answer to match.
PAIRS = [(case, driver) for case in CASES for driver in ("gels", "gelsd", "gelsy", "gelss")
         if not (CASES[case][2] and driver in ("gelsy", "gelss"))]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("case", "driver"), PAIRS)
def test_lstsq_with_an_infinity_matches_torch(torch, case, driver, dtype):
    a_shape, b_shape, a_inf, b_inf = CASES[case]

    def call(lib):
        A, B = _system(lib, a_shape, b_shape, a_inf, b_inf, getattr(lib, dtype))
        return lib.linalg.lstsq(A, B, driver=driver)

    assert _same(_outcome(core, call), _outcome(torch, call))


def test_lstsq_wide_gels_with_an_infinity_in_a_gives_nan_as_torch(torch):
    def call(lib):
        A, B = _system(lib, (2, 3), (2, 1), [((0, 1), 1)], [], lib.float64)
        return lib.linalg.lstsq(A, B, driver="gels")

    assert _same(_outcome(core, call), _outcome(torch, call))
