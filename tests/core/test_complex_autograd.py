"""Gradients through complex values against torch (conjugate Wirtinger calculus: a complex leaf's ``.grad`` is
dL/dx + i dL/dy; a real leaf feeding complex ops gets the real part), for every complex op core implements."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.complex_oracle import check_real_loss_grads, complex_array

Z = complex_array((3, 4))
W = complex_array((4, 2), seed=5)
X = np.random.default_rng(4).standard_normal((3, 4)).astype(np.float32)

UNARY = {
    "real": lambda L, z: z.real, "imag": lambda L, z: z.imag, "abs": lambda L, z: z.abs(),
    "angle": lambda L, z: z.angle(), "conj": lambda L, z: z.conj(), "conj_physical": lambda L, z: z.conj_physical(),
    "view_as_real": lambda L, z: L.view_as_real(z), "exp": lambda L, z: z.exp(), "log": lambda L, z: z.log(),
    "sqrt": lambda L, z: z.sqrt(), "sin": lambda L, z: z.sin(), "cos": lambda L, z: z.cos(),
    "tanh": lambda L, z: z.tanh(), "sigmoid": lambda L, z: z.sigmoid(), "reciprocal": lambda L, z: z.reciprocal(),
    "square_by_mul": lambda L, z: z * z, "pow_scalar": lambda L, z: z ** 3,
    "pow_complex_exponent": lambda L, z: z ** 1j,
    "div_by_scalar": lambda L, z: z / (2 - 1j), "sum": lambda L, z: z.sum(0), "mean": lambda L, z: z.mean(1),
    "var": lambda L, z: z.var(0), "norm": lambda L, z: z.norm(), "transpose_view": lambda L, z: z.T.real,
    "mH": lambda L, z: z.mH, "indexing": lambda L, z: z[1:, ::2], "cat": lambda L, z: L.cat([z, 2 * z]),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_gradient_of_a_real_loss_through_a_complex_op_matches_torch(torch, name):
    check_real_loss_grads(UNARY[name], [Z], torch)


@pytest.mark.parametrize("name, fn", [
    ("mul", lambda L, a, b: a * b), ("div", lambda L, a, b: a / b), ("add", lambda L, a, b: a + 2 * b),
    ("sub", lambda L, a, b: a - b), ("pow", lambda L, a, b: a ** b),
])
def test_binary_complex_ops_give_torch_gradients_to_both_leaves(torch, name, fn):
    check_real_loss_grads(fn, [Z, complex_array((3, 4), seed=9)], torch)


def test_matmul_and_einsum_of_complex_operands_give_torch_gradients(torch):
    check_real_loss_grads(lambda L, a, b: a @ b, [Z, W], torch)
    check_real_loss_grads(lambda L, a, b: a @ b[:, 0], [Z, W], torch)
    check_real_loss_grads(lambda L, a, b: L.einsum("ij,jk->ik", a, b), [Z, W], torch)
    check_real_loss_grads(lambda L, a, b: L.einsum("bix,iox->box", a, b),
                          [complex_array((5, 2, 4)), complex_array((2, 3, 4), seed=1)], torch)


def test_real_leaves_through_complex_intermediates_get_real_gradients_like_torch(torch):
    check_real_loss_grads(lambda L, x: (x * 1j).abs(), [X], torch)
    check_real_loss_grads(lambda L, x: L.view_as_real(x * (1 + 2j)).pow(2), [X], torch)
    check_real_loss_grads(lambda L, x, z: (x * z).imag + (z.conj() * x).real, [X, Z], torch)
    check_real_loss_grads(lambda L, x: x.to(L.complex64).exp().angle(), [X], torch)


def test_building_complex_tensors_from_real_leaves_gives_torch_gradients(torch):
    r, th = np.abs(X) + 0.1, X[::-1].copy()
    check_real_loss_grads(lambda L, a, b: L.complex(a, b) ** 2, [r, th], torch)
    check_real_loss_grads(lambda L, a, b: L.polar(a, b) * (1 - 1j), [r, th], torch)
    check_real_loss_grads(lambda L, x: L.view_as_complex(x.reshape(3, 2, 2)).exp(), [X], torch)


def test_the_chapter_style_real_loss_from_complex_leaf_matches_torch(torch):
    grads = []
    for lib in (core, torch):
        z = lib.tensor(Z, requires_grad=True)
        loss = (z * z.conj()).real.sum() + z.abs().sum()
        loss.backward()
        grads.append(lib.view_as_real(z.grad).detach().numpy())
    assert np.allclose(grads[0], grads[1], atol=1e-6)


def test_a_complex_leaf_gradient_prints_like_torch(torch):
    texts = []
    for lib in (core, torch):
        z = lib.tensor([1 + 2j, -1j], requires_grad=True)
        z.abs().sum().backward()
        texts.append(repr(z.grad))
    assert texts[0] == texts[1]


def test_sgn_of_complex_values_has_torchs_gradient_and_real_sgn_has_none(torch):
    z = Z.copy()
    z[0, 0] = 0
    check_real_loss_grads(lambda L, t: t.sgn() * (1 + 1j), [z], torch)
    check_real_loss_grads(lambda L, t: t.sgn() + t, [X], torch)
