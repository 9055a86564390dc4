"""What the scientific packages of ``recipes_torchode.py`` and ``recipes_kymatio.py`` import and is not installed
here (our text).

- ``torchtyping``: torchode's ``typing`` module subclasses ``TensorType["batch", "feature", is_float]`` to document
  tensor shapes (the classes only annotate); as torchtyping's own ``TensorType[...]`` (an ``Annotated`` alias whose
  class is ``torch.Tensor``), the stand-in's subscript is the running library's ``Tensor`` class.
- ``scipy.fft``: kymatio builds its Morlet filter banks in NumPy with SciPy's FFTs (``ifft``, ``fft2``,
  ``ifft2``, ``fft``); the stand-in is NumPy's pocketfft, with SciPy's precision rule (single in, single out).
  The same filters go to both runs, so they agree whatever its last bits.
- ``scipy.special``: kymatio's 3D solid harmonics read ``sph_harm`` and ``factorial``; the spherical harmonic is
  computed here from the associated Legendre recurrence in float64 (only integer degrees and orders, as kymatio
  calls it), the factorial from ``math.factorial``.
- ``scipy.io``, ``scipy.integrate``: imported by kymatio's datasets and torchdiffeq's SciPy wrapper, never called.
"""

from __future__ import annotations

import math
import sys

import numpy as np
from fake_stand_ins import module as _module


class TensorType:
    """torchtyping's ``TensorType[dims...]``: the running library's ``torch.Tensor`` (annotations only)."""

    def __class_getitem__(cls, item):
        return sys.modules["torch"].Tensor


is_float = type("is_float", (), {})  # (a marker in ``TensorType[...]``'s dimensions)


def _single(x, result):
    """SciPy's FFTs keep single precision: complex64 out for float32/complex64 in."""
    return result.astype(np.complex64) if np.asarray(x).dtype in (np.float32, np.complex64) else result


def _fft_function(name):
    numpy_function = getattr(np.fft, name)

    def fft_function(x, *args, **kwargs):
        for unsupported in ("workers", "overwrite_x", "plan"):
            if kwargs.pop(unsupported, None) not in (None, False):
                raise NotImplementedError(f"fake scipy.fft.{name}: {unsupported}")
        return _single(x, numpy_function(x, *args, **kwargs))

    fft_function.__name__ = name
    return fft_function


def sph_harm(m, n, theta, phi):
    """SciPy's ``sph_harm(m, n, theta, phi)`` (theta azimuthal, phi polar) for integer ``n >= 0`` and ``|m| <= n``:
    the orthonormal spherical harmonic with the Condon-Shortley phase, as SciPy's."""
    m, n = int(m), int(n)
    if n < 0 or abs(m) > n:
        raise NotImplementedError("fake scipy.special.sph_harm: only integer 0 <= |m| <= n")
    theta, phi = np.asarray(theta, dtype=np.float64), np.asarray(phi, dtype=np.float64)
    am = abs(m)
    x = np.cos(phi)
    p = np.ones_like(x)  # P_m^m, with the Condon-Shortley phase
    if am:
        s = np.sqrt((1 - x) * (1 + x))
        fact = 1.0
        for _ in range(am):
            p = -p * fact * s
            fact += 2.0
    if n > am:
        p_prev, p = p, x * (2 * am + 1) * p
        for ell in range(am + 2, n + 1):
            p_prev, p = p, ((2 * ell - 1) * x * p - (ell + am - 1) * p_prev) / (ell - am)
    norm = math.sqrt((2 * n + 1) / (4 * math.pi) * math.factorial(n - am) / math.factorial(n + am))
    y = norm * p * np.exp(1j * am * theta)
    if m < 0:
        y = (-1) ** am * np.conj(y)
    return y


def factorial(n, exact=False):
    """SciPy's ``factorial`` of non-negative integers (as floats, or exact ints with ``exact=True``)."""
    if exact:
        return math.factorial(int(n))
    values = np.vectorize(lambda k: float(math.factorial(int(k))) if k >= 0 else 0.0, otypes=[np.float64])(n)
    return values if np.ndim(n) else float(values)


def _refuse(name):
    def refused(*args, **kwargs):
        raise NotImplementedError(f"fake {name} is not implemented")

    return refused


def modules() -> dict:
    """The stand-in modules by name."""
    fft = _module("scipy.fft", **{name: _fft_function(name) for name in (
        "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "fftfreq", "fftshift", "ifftshift")})
    special = _module("scipy.special", sph_harm=sph_harm, factorial=factorial)
    io = _module("scipy.io", loadmat=_refuse("scipy.io.loadmat"))
    integrate = _module("scipy.integrate", solve_ivp=_refuse("scipy.integrate.solve_ivp"))
    scipy = _module("scipy", fft=fft, special=special, io=io, integrate=integrate)
    torchtyping = _module("torchtyping", TensorType=TensorType, is_float=is_float)
    return {"torchtyping": torchtyping, "scipy": scipy, "scipy.fft": fft, "scipy.special": special, "scipy.io": io,
            "scipy.integrate": integrate}
