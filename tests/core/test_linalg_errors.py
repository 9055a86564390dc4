"""A singular or indefinite matrix fails with PyTorch's message: which batch element, and LAPACK's position
(the first zero diagonal element of U for ``inv``, the first leading minor without a factor for Cholesky), so a
learner's traceback points at the same matrix and row."""

from __future__ import annotations

import warnings

import pytest

import core
from tests.core.oracle import raised

CASES = {
    "inv of a singular matrix": lambda T: T.linalg.inv(T.tensor([[1.0, 2.0], [2.0, 4.0]])),
    "inv of a zero matrix": lambda T: T.linalg.inv(T.zeros(2, 2, dtype=T.float64)),
    "inv of a batch with one singular matrix": lambda T: T.linalg.inv(T.stack([T.eye(2), T.zeros(2, 2)])),
    "inverse, the tensor method": lambda T: T.tensor([[1.0, 2.0], [2.0, 4.0]]).inverse(),
    "cholesky of an indefinite matrix": lambda T: T.linalg.cholesky(T.tensor([[1.0, 2.0], [2.0, 1.0]])),
    "cholesky of a negative definite matrix": lambda T: T.linalg.cholesky(-T.eye(3)),
    "cholesky of a batch": lambda T: T.linalg.cholesky(T.stack([T.eye(2), T.eye(2), -T.eye(2)])),
    "the deprecated torch.cholesky": lambda T: T.cholesky(-T.eye(2)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_linalg_failure_message_is_torchs(torch, name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.cholesky's deprecation
        assert raised(lambda: CASES[name](core)) == raised(lambda: CASES[name](torch))
