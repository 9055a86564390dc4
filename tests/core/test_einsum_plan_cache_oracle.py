"""``einsum`` caches its parsed equation and its plan per (equation, operand shapes) (issue #19: einops-based
models call the same einsum in every layer). One equation called on operands of other ranks, sizes (size-1 dims
that broadcast), dtypes and layouts in turn must give torch's values, dtypes and strides each time, and a bad
call must raise torch's error every time, not only the first."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import check, raised

RNG = np.random.default_rng(19)

CALLS = [  # the same equations again and again, as a model's layers call them
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)], np.float32),
    ("...ij,...jk->...ik", [(3, 4), (2, 1, 4, 5)], np.float32),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)], np.float64),
    ("bhid,bhjd->bhij", [(2, 3, 4, 5), (2, 3, 6, 5)], np.float32),
    ("bhid,bhjd->bhij", [(2, 1, 4, 5), (2, 3, 6, 5)], np.float32),
    ("bhid,bhjd->bhij", [(1, 3, 4, 5), (2, 3, 1, 5)], np.float32),
    ("bii->b", [(2, 3, 3)], np.int64),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], np.float32),
    ("ij,jk,kl->il", [(2, 1), (1, 4), (4, 5)], np.float32),
    ("i,j", [(3,), (4,)], np.complex64),
]


@pytest.mark.parametrize("sweep", [0, 1])
def test_one_equation_on_changing_operands_matches_torch_every_call(torch, sweep):
    for equation, shapes, dtype in CALLS[::-1] if sweep else CALLS:
        arrays = [(RNG.standard_normal(s) * 4).astype(dtype) for s in shapes]
        check(lambda lib, *ts, eq=equation: lib.einsum(eq, *ts), arrays, torch, check_stride=True, rtol=1e-5,
              atol=1e-5)


def test_transposed_operands_give_torchs_values_and_strides(torch):
    a, b = RNG.standard_normal((4, 3)).astype(np.float32), RNG.standard_normal((5, 4)).astype(np.float32)
    for _ in range(2):  # (a transposed view's strides, then the plan cached for its shapes)
        check(lambda lib, x, y: lib.einsum("ij,jk->ik", x.t(), y.t()), [a, b], torch, check_stride=True, rtol=1e-5,
              atol=1e-5)


@pytest.mark.parametrize(("equation", "shapes"), [("ij,jk->ik", [(2, 3), (4, 5)]), ("ij,jk->ik", [(2, 3)]),
                                                  ("iij->j", [(2, 3, 4)]), ("ij->ii", [(2, 2)])])
def test_a_bad_call_raises_torchs_error_every_time(torch, equation, shapes):
    arrays = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    for _ in range(3):
        ours = raised(lambda: core.einsum(equation, *[core.tensor(a) for a in arrays]))
        theirs = raised(lambda: torch.einsum(equation, *[torch.tensor(a) for a in arrays]))
        assert ours == theirs and theirs is not None

