"""``torch.signal.windows``: the window functions of signal processing, computed as PyTorch computes them
(``linspace`` of the sample positions, then the window's formula in the requested dtype, float32 or float64).

``sym=True`` gives the symmetric window of filter design; ``sym=False`` the periodic one of spectral analysis
(the symmetric window one sample longer, its last sample dropped).
"""

import math as _math
from collections.abc import Iterable as _Iterable

import core as _core

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine", "general_hamming",
           "hamming", "hann", "kaiser", "nuttall"]


def _checks(name: str, M: int, dtype, layout) -> None:
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not _core.strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (_core.float32, _core.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")


def _trivial(M: int, dtype, device, requires_grad):
    """The empty window (M == 0) and the one-sample window (M == 1), or None."""
    if M == 0:
        return _core.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    if M == 1:
        return _core.ones((1,), dtype=dtype, device=device, requires_grad=requires_grad)
    return None


def _positions(start, step, M, dtype, device, requires_grad):
    return _core.linspace(start, start + (M - 1) * step, M, dtype=dtype, device=device, requires_grad=requires_grad)


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=_core.strided, device=None,
                requires_grad=False):
    dtype = dtype or _core.get_default_dtype()
    _checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _core.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    k = _positions(-center / tau, 1 / tau, M, dtype, device, requires_grad)
    return _core.exp(-_core.abs(k))


def cosine(M, *, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    dtype = dtype or _core.get_default_dtype()
    _checks("cosine", M, dtype, layout)
    if M == 0:
        return _core.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    step = _math.pi / (M + 1 if not sym and M > 1 else M)
    return _core.sin(_positions(0.5 * step, step, M, dtype, device, requires_grad))


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    dtype = dtype or _core.get_default_dtype()
    _checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _core.empty((0,), dtype=dtype, device=device, requires_grad=requires_grad)
    step = 1 / (std * _math.sqrt(2))
    k = _positions(-(M if not sym and M > 1 else M - 1) / 2.0 * step, step, M, dtype, device, requires_grad)
    return _core.exp(-(k ** 2))


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    dtype = dtype or _core.get_default_dtype()
    _checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    b = _core.tensor(beta, dtype=dtype, device=device)
    step = 2.0 * b / (M if not sym else M - 1)
    end = _core.minimum(-b + (M - 1) * step, b)  # NOTE: rounding may overshoot beta, where sqrt would give NaN
    k = _core.linspace(float(-b), float(end), M, dtype=dtype, device=device, requires_grad=requires_grad)
    return _core.i0(_core.sqrt(b * b - _core.pow(k, 2))) / _core.i0(b)


def general_cosine(M, *, a: _Iterable, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    dtype = dtype or _core.get_default_dtype()
    _checks("general_cosine", M, dtype, layout)
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    if not isinstance(a, _Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    k = _positions(0, 2 * _math.pi / (M if not sym else M - 1), M, dtype, device, requires_grad)
    a_i = _core.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype, device=device,
                      requires_grad=requires_grad)
    i = _core.arange(a_i.shape[0], dtype=dtype, device=device)
    return (a_i.unsqueeze(-1) * _core.cos(i.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    dtype = dtype or _core.get_default_dtype()
    _checks("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    dtype = dtype or _core.get_default_dtype()
    _checks("bartlett", M, dtype, layout)
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    return 1 - _core.abs(_positions(-1, 2 / (M if not sym else M - 1), M, dtype, device, requires_grad))


def nuttall(M, *, sym=True, dtype=None, layout=_core.strided, device=None, requires_grad=False):
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)
