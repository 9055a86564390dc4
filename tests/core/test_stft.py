"""``core.stft``/``core.istft`` against torch: spectra and round trips with windows, hops, window lengths,
centring and pad modes, normalisation and one-/two-sided output, their gradients, and torch's warnings and
errors (a real input needs ``return_complex``; a window whose overlap-add vanishes can't be inverted)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from tests.core.complex_oracle import check_real_loss_grads

SIG = np.random.default_rng(0).standard_normal(40).astype(np.float32)
BATCH = np.random.default_rng(1).standard_normal((2, 33))


def _hann(L, n, x):
    return L.hann_window(n, dtype=x.dtype)


CASES = {
    "rectangular_default": (lambda L, x: L.stft(x, 8, window=L.ones(8), return_complex=True), SIG),
    "hann_with_hop": (lambda L, x: L.stft(x, 16, hop_length=5, window=_hann(L, 16, x), return_complex=True), SIG),
    "short_window_padded_to_n_fft": (lambda L, x: L.stft(x, 16, win_length=10, window=_hann(L, 10, x),
                                                         return_complex=True), BATCH),
    "not_centred_normalized": (lambda L, x: L.stft(x, 8, hop_length=3, center=False, normalized=True,
                                                   window=L.ones(8), return_complex=True), SIG),
    "constant_pad_two_sided": (lambda L, x: L.stft(x, 8, pad_mode="constant", onesided=False, window=L.ones(8),
                                                   return_complex=True), BATCH),
    "istft_round_trip": (lambda L, x: L.istft(L.stft(x, 16, hop_length=4, window=_hann(L, 16, x),
                                                     return_complex=True), 16, hop_length=4,
                                              window=_hann(L, 16, x), length=40), SIG),
    "istft_without_length": (lambda L, x: L.istft(L.stft(x, 8, window=_hann(L, 8, x), return_complex=True), 8,
                                                  window=_hann(L, 8, x)), BATCH),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_stft_and_istft_values_and_gradients_match_torch(torch, name):
    fn, data = CASES[name]
    check_real_loss_grads(fn, [data], torch)


@pytest.fixture
def warn_always(torch):
    """stft's notes are warned once a process in both libraries (TORCH_WARN_ONCE): every time, for these tests."""
    for lib in (core, torch):
        lib.set_warn_always(True)
    yield
    for lib in (core, torch):
        lib.set_warn_always(False)


@pytest.mark.usefixtures("warn_always")
def test_istft_to_a_longer_length_warns_and_zero_pads_like_torch(torch):
    def fn(lib, x):
        with pytest.warns(UserWarning, match="Result is being padded with zeros in the tail"):
            return lib.istft(lib.stft(x, 8, window=_hann(lib, 8, x), return_complex=True), 8,
                             window=_hann(lib, 8, x), length=50)
    check_real_loss_grads(fn, [SIG], torch)


def test_istft_inverts_stft_with_a_hann_window():
    x = core.tensor(SIG)
    w = core.hann_window(16)
    back = core.istft(core.stft(x, 16, hop_length=4, window=w, return_complex=True), 16, hop_length=4, window=w,
                      length=40)
    assert np.allclose(back.numpy(), SIG, atol=1e-5)


def test_stft_of_a_real_input_needs_return_complex_like_torch(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="stft requires the return_complex parameter"):
            lib.stft(lib.tensor(SIG), 8, window=lib.ones(8))


@pytest.mark.usefixtures("warn_always")
def test_return_complex_false_warns_and_gives_the_real_view_like_torch(torch):
    shapes = []
    for lib in (core, torch):
        with pytest.warns(UserWarning, match="return_complex=False is deprecated"):
            shapes.append(tuple(lib.stft(lib.tensor(SIG), 8, window=lib.ones(8), return_complex=False).shape))
    assert shapes[0] == shapes[1]


@pytest.mark.usefixtures("warn_always")
def test_a_missing_window_warns_like_torch(torch):
    for lib in (core, torch):
        with pytest.warns(UserWarning, match="A window was not provided"):
            spec = lib.stft(lib.tensor(SIG), 8, return_complex=True)
        with pytest.warns(UserWarning, match="A window was not provided"):
            lib.istft(spec, 8)


def test_istft_refuses_a_window_whose_overlap_add_vanishes_like_torch(torch):
    for lib in (core, torch):
        w = lib.hann_window(8)
        with warnings.catch_warnings():
            spec = lib.stft(lib.tensor(SIG), 8, hop_length=2, center=False, window=w, return_complex=True)
        with pytest.raises(RuntimeError, match="window overlap add min"):
            lib.istft(spec, 8, hop_length=2, center=False, window=w)
