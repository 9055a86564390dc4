"""Oracle tests of ``gradcheck``/``gradgradcheck`` on complex inputs and outputs and on single precision: the
verdict, the warnings and the failure message's first lines are torch's.

A complex128 input is double precision for torch (no "not a double precision floating point or complex" warning,
no NumPy "discards the imaginary part" warning); a complex output is checked imaginary part first, and its
mismatch says so; a complex input's Jacobian has the imaginary direction too, so a backward wrong only there is
caught; gradgradcheck draws complex grad_outputs for complex outputs.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core

RNG = np.random.default_rng(19)
Z = RNG.standard_normal(4) + 1j * RNG.standard_normal(4)
W = RNG.standard_normal(4) + 1j * RNG.standard_normal(4)
X = RNG.standard_normal(4)

CASES = {  # fn(lib, *inputs), inputs as (array, dtype name)
    "scale": (lambda lib, z: z * 2, [(Z, "complex128")]),
    "abs": (lambda lib, z: z.abs(), [(Z, "complex128")]),
    "exp": (lambda lib, z: z.exp(), [(Z, "complex128")]),
    "sum": (lambda lib, z: z.sum(), [(Z, "complex128")]),
    "times_conj_real": (lambda lib, z: (z * z.conj()).real, [(Z, "complex128")]),
    "product": (lambda lib, z, w: z * w, [(Z, "complex128"), (W, "complex128")]),
    "real_to_complex": (lambda lib, x: lib.polar(x.abs() + 1, x), [(X, "float64")]),
    "complex64_scale": (lambda lib, z: z * 2, [(Z, "complex64")]),
    "float32_scale": (lambda lib, x: x * 2, [(X, "float32")]),
    "wrong_imaginary": (lambda lib, z: _wrong_imaginary(lib).apply(z), [(Z, "complex128")]),
}


def _wrong_imaginary(lib):
    """z * 3 whose backward drops the gradient's imaginary part: right along real directions only."""
    class WrongImaginary(lib.autograd.Function):
        @staticmethod
        def forward(ctx, z):
            return z * 3

        @staticmethod
        def backward(ctx, g):
            return (g * 3).real.to(g.dtype)

    return WrongImaginary


def _run(lib, name, check, **kwargs):
    """(verdict or exception type, its message's first line, the warnings' texts) of ``check`` in ``lib``."""
    fn, specs = CASES[name]
    inputs = [lib.tensor(a.astype(np.dtype(d)) if d != "float32" else a.astype(np.float32),
                         dtype=getattr(lib, d), requires_grad=True) for a, d in specs]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            verdict = (getattr(lib.autograd, check)(lambda *args: fn(lib, *args), tuple(inputs), **kwargs), "")
        except Exception as error:  # (the type is what is compared)
            verdict = (type(error).__name__, str(error).split("\n")[0])
    return verdict, sorted({str(w.message) for w in seen})


@pytest.mark.parametrize("fast_mode", [False, True])
@pytest.mark.parametrize("name", sorted(CASES))
def test_gradcheck_on_complex_and_single_precision_inputs_matches_torch(name, fast_mode, torch):
    if fast_mode and "float32" in name:  # (a verdict decided by float32 noise along each library's own random u)
        name = "complex64_scale"
    ours = _run(core, name, "gradcheck", fast_mode=fast_mode, atol=1e-2 if "float32" in name else 1e-5)
    theirs = _run(torch, name, "gradcheck", fast_mode=fast_mode, atol=1e-2 if "float32" in name else 1e-5)
    assert ours == theirs


@pytest.mark.parametrize("name", ["scale", "exp", "product", "times_conj_real", "real_to_complex"])
def test_gradgradcheck_on_complex_inputs_matches_torch(name, torch):
    assert _run(core, name, "gradgradcheck") == _run(torch, name, "gradgradcheck")
