"""``core.linalg.eig``/``eigvals`` against torch: complex results of torch's dtypes, ``A V = V diag(L)`` with
unit-norm columns (eigenvectors are fixed only up to a phase, so they are compared through that identity and
through phase-free quantities), and gradients of phase-invariant losses for real and complex inputs."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.complex_oracle import check_real_loss_grads, complex_array
from tests.core.oracle import check_error

REAL = np.random.default_rng(0).standard_normal((3, 3))  # real eigenvalues
ROTATION = np.array([[0.0, -1.0, 0.2], [1.0, 0.0, 0.3], [0.1, 0.0, 2.0]], np.float32)  # a complex pair


@pytest.mark.parametrize("data", [REAL, ROTATION, complex_array((4, 4)), np.stack([REAL, REAL.T])],
                         ids=["float64", "float32_complex_pair", "complex64", "batch"])
def test_eig_satisfies_av_equals_v_diag_l_with_unit_columns_and_torch_dtypes(torch, data):
    w, v = core.linalg.eig(core.tensor(data))
    tw, tv = torch.linalg.eig(torch.tensor(data))
    assert (str(w.dtype), str(v.dtype)) == (str(tw.dtype), str(tv.dtype))
    a = data.astype(v.numpy().dtype)
    assert np.allclose(a @ v.numpy(), v.numpy() * w.numpy()[..., None, :], atol=1e-5)
    assert np.allclose(np.linalg.norm(v.numpy(), axis=-2), 1, atol=1e-5)
    key = lambda x: np.sort_complex(np.round(x, 4))  # noqa: E731
    assert np.allclose(key(w.numpy()), key(tw.numpy()), atol=1e-4)
    assert np.allclose(core.linalg.eigvals(core.tensor(data)).numpy(), w.numpy())


def test_eig_result_has_named_fields_and_prints_like_torch(torch):
    ours, theirs = core.linalg.eig(core.tensor(REAL)), torch.linalg.eig(torch.tensor(REAL))
    assert ours.eigenvalues is ours[0] and ours.eigenvectors is ours[1]
    assert repr(ours).split("(")[0] == repr(theirs).split("(")[0]


@pytest.mark.parametrize("data", [REAL, ROTATION.astype(np.float64), complex_array((3, 3), np.complex128)],
                         ids=["real_eigenvalues", "complex_pair", "complex_input"])
def test_phase_invariant_losses_of_eig_give_torch_gradients(torch, data):
    def fn(lib, a):
        w, v = lib.linalg.eig(a)
        weights = lib.arange(1.0, 1.0 + v.shape[-1], dtype=v.real.dtype)
        return w.abs() + (v.abs() ** 3 * weights).sum(-2) + w.real
    check_real_loss_grads(fn, [data], torch, rtol=1e-6, atol=1e-8)


def test_a_loss_depending_on_eigenvector_phase_raises_like_torch(torch):
    def fn(lib, a):
        return lib.linalg.eig(a)[1].imag.sum()
    for lib in (core, torch):
        a = lib.tensor(ROTATION.astype(np.float64), requires_grad=True)
        with pytest.raises(RuntimeError, match="specified up to multiplication by e"):
            fn(lib, a).backward()


def test_eig_of_an_integer_or_non_square_matrix_raises_like_torch(torch):
    check_error(lambda L, a: L.linalg.eig(a), [np.eye(2, dtype=np.int64)], torch, match="floating point or complex")
    check_error(lambda L, a: L.linalg.eig(a), [np.ones((2, 3))], torch)


def test_solve_and_inv_of_complex_matrices_give_torch_values_and_gradients(torch):
    m = REAL + 1j * REAL.T
    b = (REAL[0] + 0j)
    check_real_loss_grads(lambda L, a, y: L.linalg.solve(a, y) + L.linalg.inv(a).sum(0) + L.linalg.det(a),
                          [m, b], torch, rtol=1e-6, atol=1e-8)
