"""Oracle helpers for complex results and complex leaves (``oracle.check_grads`` makes only float leaves).

A complex output is compared through ``view_as_real``; a real loss is built from it with fixed random
weights, so every real and imaginary part's gradient matters, and each leaf's ``.grad`` is compared.
PyTorch's lazily conjugated tensors are resolved before reading them.
"""

from __future__ import annotations

import numpy as np

import core
from tests.core.oracle import assert_same

__all__ = ["complex_array", "real_view", "check_real_loss_grads"]


def complex_array(shape, dtype=np.complex64, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def real_view(lib, t):
    """A real tensor with the same numbers: complex ones as (..., 2) real/imaginary pairs."""
    return lib.view_as_real(t.resolve_conj()) if t.is_complex() else t


def _leaves(lib, arrays):
    out = []
    for a in arrays:
        t = lib.tensor(a.copy()) if isinstance(a, np.ndarray) else a
        if isinstance(a, np.ndarray) and a.dtype.kind in "fc":
            t.requires_grad_(True)
        out.append(t)
    return out


def check_real_loss_grads(fn, arrays, torch, rtol=1e-4, atol=1e-5):
    """``fn(lib, *leaves)`` in both libraries: outputs equal, and the leaves' gradients of a real weighted sum."""
    results = []
    for lib in (core, torch):
        leaves = _leaves(lib, arrays)
        out = real_view(lib, fn(lib, *leaves))
        w = np.random.default_rng(7).standard_normal(tuple(out.shape))
        (out * lib.tensor(w, dtype=out.dtype)).sum().backward()
        grads = [real_view(lib, t.grad) if hasattr(t, "grad") and t.grad is not None else None for t in leaves]
        results.append((out, grads))
    (co, cg), (to, tg) = results
    assert_same(co, to, rtol=rtol, atol=atol, path="output")
    for i, (a, b) in enumerate(zip(cg, tg)):
        assert (a is None) == (b is None), f"grad of input {i}: core {a is not None}, torch {b is not None}"
        if a is not None:
            assert_same(a, b, rtol=rtol, atol=atol, path=f"grad of input {i}")
