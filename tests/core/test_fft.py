"""``core.fft`` against ``torch.fft``: values, dtypes and shapes of every transform, with n/s, dim and each
norm, their gradients for real and complex inputs, and the frequency and shift helpers."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.complex_oracle import check_real_loss_grads, complex_array
from tests.core.oracle import check, check_error

REAL = np.random.default_rng(1).standard_normal((4, 6)).astype(np.float32)
ODD = np.random.default_rng(2).standard_normal((3, 5))  # float64, odd last dim
CPLX = complex_array((4, 5))

CASES = {
    "fft": (lambda L, t, norm: L.fft.fft(t, norm=norm), REAL),
    "fft_padded_along_dim0": (lambda L, t, norm: L.fft.fft(t, n=8, dim=0, norm=norm), REAL),
    "fft_trimmed_complex": (lambda L, t, norm: L.fft.fft(t, n=3, norm=norm), CPLX),
    "ifft": (lambda L, t, norm: L.fft.ifft(t, norm=norm), CPLX),
    "rfft": (lambda L, t, norm: L.fft.rfft(t, norm=norm), REAL),
    "rfft_odd_length_float64": (lambda L, t, norm: L.fft.rfft(t, norm=norm), ODD),
    "irfft": (lambda L, t, norm: L.fft.irfft(t, norm=norm), CPLX),
    "irfft_odd_n": (lambda L, t, norm: L.fft.irfft(t, n=9, norm=norm), CPLX),
    "irfft_short_n_along_dim0": (lambda L, t, norm: L.fft.irfft(t, n=4, dim=0, norm=norm), CPLX),
    "hfft": (lambda L, t, norm: L.fft.hfft(t, norm=norm), CPLX),
    "ihfft": (lambda L, t, norm: L.fft.ihfft(t, norm=norm), ODD),
    "fft2": (lambda L, t, norm: L.fft.fft2(t, norm=norm), CPLX),
    "ifft2_with_s": (lambda L, t, norm: L.fft.ifft2(t, s=(3, 7), norm=norm), REAL),
    "rfft2": (lambda L, t, norm: L.fft.rfft2(t, norm=norm), REAL),
    "irfft2": (lambda L, t, norm: L.fft.irfft2(t, norm=norm), CPLX),
    "rfftn_with_s": (lambda L, t, norm: L.fft.rfftn(t, s=(5, 4), norm=norm), ODD),
    "irfftn_with_s": (lambda L, t, norm: L.fft.irfftn(t, s=(4, 7), norm=norm), CPLX),
    "fftn_one_dim": (lambda L, t, norm: L.fft.fftn(t, dim=(0,), norm=norm), ODD),
    "ifftn": (lambda L, t, norm: L.fft.ifftn(t, norm=norm), CPLX),
    "hfft2": (lambda L, t, norm: L.fft.hfft2(t, norm=norm), CPLX),
    "ihfft2": (lambda L, t, norm: L.fft.ihfft2(t, norm=norm), REAL),
}


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_transform_values_dtypes_and_gradients_match_torch(torch, name, norm):
    fn, data = CASES[name]
    check_real_loss_grads(lambda L, t: fn(L, t, norm), [data], torch)


def test_a_real_loss_of_rfft_magnitudes_gives_torch_gradient(torch):
    check_real_loss_grads(lambda L, t: L.fft.rfft(t).abs().sum(-1, keepdim=True), [REAL], torch)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_fft_of_real_and_integer_inputs_has_torch_complex_dtype(torch, dtype):
    data = np.arange(6).astype(dtype)
    check(lambda L, t: L.fft.fft(t), [data], torch)
    check(lambda L, t: L.fft.rfft(t), [data], torch)


def test_fft_of_float16_raises_on_cpu_like_torch(torch):
    check_error(lambda L, t: L.fft.fft(t), [np.ones(4, np.float16)], torch)


def test_rfft_of_a_complex_input_raises_like_torch(torch):
    check_error(lambda L, t: L.fft.rfft(t), [CPLX], torch, match="real input")


def test_an_unknown_norm_raises_like_torch(torch):
    check_error(lambda L, t: L.fft.fft(t, norm="sideways"), [REAL], torch, match="Invalid normalization mode")


def test_a_nonpositive_n_raises_like_torch(torch):
    check_error(lambda L, t: L.fft.fft(t, n=0), [REAL], torch, match="Invalid number of data points")


@pytest.mark.parametrize("n, d", [(5, 1.0), (8, 0.1), (1, 2.0)])
def test_fftfreq_and_rfftfreq_match_torch(torch, n, d):
    for name in ("fftfreq", "rfftfreq"):
        for dtype in (None, "float64"):
            kw = {} if dtype is None else {"dtype": getattr(core, dtype)}
            tkw = {} if dtype is None else {"dtype": getattr(torch, dtype)}
            ours, theirs = getattr(core.fft, name)(n, d, **kw), getattr(torch.fft, name)(n, d, **tkw)
            assert ours.dtype.name == str(theirs.dtype)[6:]
            assert np.array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("dim", [None, 1, (0, 1)])
def test_fftshift_and_ifftshift_match_torch_and_undo_each_other(torch, dim):
    check_real_loss_grads(lambda L, t: L.fft.fftshift(t, dim=dim), [ODD], torch)
    check_real_loss_grads(lambda L, t: L.fft.ifftshift(t, dim=dim), [ODD], torch)
    x = core.tensor(ODD)
    assert core.equal(core.fft.ifftshift(core.fft.fftshift(x, dim=dim), dim=dim), x)


def test_irfft_inverts_rfft_for_odd_lengths_given_n():
    x = core.tensor(ODD)
    back = core.fft.irfft(core.fft.rfft(x), n=5)
    assert np.allclose(back.numpy(), ODD)
