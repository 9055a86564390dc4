"""``torch.linalg.solve(A, B, left=False)`` (``X @ A = B``) against torch: a vector ``B`` (one dim, or A's batch
of vectors) is read as a column, which ``XA = B`` never fits, so torch refuses it; a matrix ``B`` is solved from the
right; the checks come in torch's order (dtypes, square ``A``, a 0-d ``B``, shapes) for either side."""

from __future__ import annotations

import pytest

import core

A = [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]
B_SHAPES = [(3,), (2,), (2, 3), (1, 3), (3, 2), (3, 3), (4, 2, 3), ()]


def _solve(lib, a_batch, b_shape, left, b_dtype=None):
    a = lib.tensor(A, dtype=lib.float64).expand(*a_batch, 3, 3)
    b = (lib.arange(int(lib.tensor(b_shape).prod().item())) + 1.0).to(b_dtype or lib.float64).reshape(b_shape)
    try:
        x = lib.linalg.solve(a, b, left=left)
    except RuntimeError as error:
        return str(error)
    return tuple(x.shape), [round(v, 10) for v in x.reshape(-1).tolist()]


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("b_shape", B_SHAPES)
@pytest.mark.parametrize("a_batch", [(), (2,)])
def test_solve_from_either_side_matches_torch(torch, a_batch, b_shape, left):
    assert _solve(core, a_batch, b_shape, left) == _solve(torch, a_batch, b_shape, left)


@pytest.mark.parametrize("left", [True, False])
def test_a_dtype_mismatch_is_reported_before_the_shapes(torch, left):
    assert _solve(core, (), (2,), left, core.float32) == _solve(torch, (), (2,), left, torch.float32)


def test_solve_from_the_right_has_torchs_gradients(torch):
    grads = []
    for lib in (core, torch):
        a = lib.tensor(A, dtype=lib.float64, requires_grad=True)
        b = lib.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 2.0]], dtype=lib.float64, requires_grad=True)
        lib.linalg.solve(a, b, left=False).pow(2).sum().backward()
        grads.append([[round(v, 10) for v in t.grad.reshape(-1).tolist()] for t in (a, b)])
    assert grads[0] == grads[1]
