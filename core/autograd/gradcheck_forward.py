"""``gradcheck(..., check_forward_ad=True)``: forward-mode Jacobians against central finite differences.

As PyTorch's slow mode: for every input that requires grad, each of its elements in turn gets a unit
tangent (the other inputs none) inside a ``dual_level``; the outputs' tangents are one column of the
forward-mode Jacobian, which must be ``allclose`` to the numerical one. An output without a tangent counts as
a zero column.
"""

from __future__ import annotations

import numpy as np

from core import _backend
from core._tensor import new_tensor
from core.autograd import forward_ad

__all__ = ["check_forward_ad"]


def _host(t) -> np.ndarray:
    return _backend.to_numpy_array(t._data).astype(np.float64)


def _unit(x, k: int):
    flat = _backend.xp_of(x._data).zeros(x.numel(), dtype=x._data.dtype)
    flat[k] = 1
    return new_tensor(flat.reshape(x._data.shape))


def forward_jacobians(func, inputs, diff_positions, out_sizes) -> list:
    """``J[input][output]`` of shape (input.numel(), output.numel()), one jvp per input element."""
    jacobians = []
    for pos in diff_positions:
        x = inputs[pos]
        cols = [np.zeros((x.numel(), n)) for n in out_sizes]
        for k in range(x.numel()):
            with forward_ad.dual_level():
                args = list(inputs)
                args[pos] = forward_ad.make_dual(x.detach(), _unit(x, k))
                outs = [o for o in _as_tuple(func(*args)) if hasattr(o, "_data")]
                for j, o in enumerate(outs):
                    tangent = forward_ad.unpack_dual(o).tangent
                    if tangent is not None:
                        cols[j][k] = _host(tangent).reshape(-1)
        jacobians.append(cols)
    return jacobians


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def check_forward_ad(func, inputs, numerical, diff_positions, out_sizes, atol, rtol, mismatch, error) -> None:
    """Raise ``error`` when a forward-mode Jacobian differs from ``numerical[input][output]``."""
    analytical = forward_jacobians(func, inputs, diff_positions, out_sizes)
    for i, (per_in_a, per_in_n) in enumerate(zip(analytical, numerical)):
        for j, (a, n) in enumerate(zip(per_in_a, per_in_n)):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                raise error("Jacobian computed with forward mode " + mismatch(a, n, j, i)[len("Jacobian "):])
