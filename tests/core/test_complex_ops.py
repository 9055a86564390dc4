"""Complex tensors' ops against torch: real/imag and view_as_real/view_as_complex as views (writes show
through, strides and offsets as torch's), conjugation, angle, abs, sgn, complex/polar, and arithmetic,
transcendental functions, reductions and matmul on complex values."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.complex_oracle import complex_array
from tests.core.oracle import check

Z = complex_array((3, 4))
Z64 = complex_array((2, 3), np.complex128, seed=1)


def test_real_and_imag_are_views_whose_writes_show_through(torch):
    def fn(lib, z):
        re, im = z.real, z.imag
        re[0, 0] = 7.0
        im[1] += 1.0
        z.imag = lib.zeros(4)  # the property's setter writes into the view (broadcast)
        return z, re, im, (re.stride(), im.stride(), im.storage_offset(), z[1].imag.storage_offset())
    check(fn, [Z], torch)


def test_views_of_the_parts_read_the_right_memory(torch):
    check(lambda L, z: (z.diagonal().real.unsqueeze(0), z.T.imag.contiguous(), z[:, 1:].real.flatten()), [Z], torch)


def test_view_as_real_and_view_as_complex_share_memory_like_torch(torch):
    def fn(lib, z, x):
        r = lib.view_as_real(z)
        r[0, 0, 1] = -5.0
        c = lib.view_as_complex(x[:, 2:])
        c[0] = 9j
        return z, r, r.stride(), x, c, c.stride(), c.storage_offset()
    check(fn, [Z, np.arange(12.0, dtype=np.float32).reshape(3, 4)], torch)


def test_real_of_a_real_tensor_is_the_tensor_itself(torch):
    for lib in (core, torch):
        x = lib.ones(2)
        assert x.real is x


@pytest.mark.parametrize("name", ["conj", "conj_physical", "resolve_conj", "angle", "abs", "sgn", "isreal",
                                  "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "reciprocal", "neg",
                                  "sum", "mean", "prod", "var", "std", "norm", "cumsum", "flip"])
def test_unary_ops_on_complex_tensors_match_torch(torch, name):
    def fn(lib, z):
        t = getattr(z, name)(0) if name in ("cumsum", "flip") else getattr(z, name)()
        return t.resolve_conj() if hasattr(t, "resolve_conj") else t
    check(fn, [Z], torch, rtol=1e-5, atol=1e-6)
    check(fn, [Z64], torch, rtol=1e-12, atol=1e-12)


def test_angle_of_real_tensors_is_zero_or_pi_in_a_float_dtype(torch):
    check(lambda L, x: (x.angle(), x.long().angle()), [np.array([-2.0, 0.0, 3.0, float("nan")], np.float32)], torch)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "pow", "matmul", "eq", "ne"])
def test_binary_ops_promote_and_compute_like_torch(torch, op):
    a, b = complex_array((3, 3), seed=2), complex_array((3, 3), seed=3)
    real = np.arange(1.0, 10.0).reshape(3, 3)  # float64: with complex64 it promotes to complex128
    check(lambda L, x, y: getattr(L, op)(x, y), [a, b], torch, rtol=1e-5, atol=1e-5)
    if op != "matmul":
        check(lambda L, x, y: getattr(L, op)(x, y), [a, real], torch, rtol=1e-5, atol=1e-5)
        check(lambda L, x: (getattr(L, op)(x, 2j), getattr(L, op)(x, 1.5)), [a], torch, rtol=1e-5, atol=1e-5)


def test_scalars_and_real_tensors_times_1j_become_complex_like_torch(torch):
    check(lambda L, x, y: (x * 1j, y * 1j, 2j * x, x + 1j, x.double() * 1j), [np.arange(3.0, dtype=np.float32),
                                                                         np.arange(3)], torch)


def test_complex_and_polar_build_complex_tensors_like_torch(torch):
    r, th = np.array([1.0, 2.0], np.float32), np.array([0.5, -1.0], np.float32)
    check(lambda L, a, b: (L.complex(a, b), L.polar(a, b), L.complex(a.double(), b.double())), [r, th], torch)


def test_conjugate_transposes_of_complex_matrices_match_torch(torch):
    check(lambda L, z: (z.mH.resolve_conj(), z[:2, :2].H.resolve_conj(), z.adjoint().resolve_conj()), [Z], torch)


def test_complex_leaves_can_require_grad_like_float_ones():
    z = core.tensor([1j], requires_grad=True)
    assert z.requires_grad and z.is_leaf
