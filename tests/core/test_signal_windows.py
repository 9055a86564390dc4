"""torch.signal.windows against PyTorch: every window, symmetric and periodic, float32 and float64, lengths 0 to
17 (to rounding: PyTorch's sin/cos/exp/i0 kernels round differently in the last bit), and the argument checks."""

import numpy as np
import pytest

import core

WINDOWS = [("bartlett", {}), ("blackman", {}), ("cosine", {}), ("exponential", {}), ("exponential", {"tau": 0.5}),
           ("gaussian", {"std": 0.9}), ("general_cosine", {"a": [0.46, 0.23, 0.31]}),
           ("general_hamming", {"alpha": 0.6}), ("hamming", {}), ("hann", {}), ("kaiser", {}),
           ("kaiser", {"beta": 0.9}), ("nuttall", {})]


@pytest.mark.parametrize("name, kw", WINDOWS, ids=[f"{n}-{kw}" for n, kw in WINDOWS])
def test_window_matches_torch_for_every_length_symmetry_and_dtype(name, kw, torch):
    for M in (0, 1, 2, 5, 10, 17):
        for sym in (True, False):
            for dtype, tol in (("float32", dict(rtol=2e-6, atol=1e-7)), ("float64", dict(rtol=1e-13, atol=1e-15))):
                ours = getattr(core.signal.windows, name)(M, sym=sym, dtype=getattr(core, dtype), **kw)
                theirs = getattr(torch.signal.windows, name)(M, sym=sym, dtype=getattr(torch, dtype), **kw)
                assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
                np.testing.assert_allclose(ours.numpy(), theirs.numpy(), **tol)


def test_window_takes_the_default_dtype_and_requires_grad_as_torch(torch):
    for lib in (core, torch):
        w = lib.signal.windows.hann(4, requires_grad=True)
        assert str(w.dtype) == "torch.float32" and w.requires_grad


@pytest.mark.parametrize("call, error, message", [
    (lambda lib: lib.signal.windows.hann(-1), ValueError, "general_cosine requires non-negative window length"),
    (lambda lib: lib.signal.windows.bartlett(3, dtype=lib.int64), ValueError, "bartlett expects float32 or float64"),
    (lambda lib: lib.signal.windows.gaussian(3, std=0.0), ValueError, "Standard deviation must be positive"),
    (lambda lib: lib.signal.windows.exponential(3, center=1.0), ValueError, "Center must be None for symmetric"),
    (lambda lib: lib.signal.windows.kaiser(3, beta=-1.0), ValueError, "beta must be non-negative"),
    (lambda lib: lib.signal.windows.general_cosine(3, a=[]), ValueError, "Coefficients cannot be empty")])
def test_window_refuses_bad_arguments_as_torch(call, error, message, torch):
    for lib in (core, torch):
        with pytest.raises(error, match=message):
            call(lib)
