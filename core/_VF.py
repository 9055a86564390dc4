"""``torch._VF``: torch's native functions (``torch._C._VariableFunctions``) under their native signatures.

Code that copies ``nn.LSTM``'s forward, and ``torch.functional``'s own code, writes ``from torch import _VF`` and
calls ``_VF.lstm(input, hx, flat_weights, ...)``, ``_VF.einsum(equation, [a, b])``, ``_VF.unique_dim(...)``.
``_VF.<name>`` answers the names of torch's list (``_vf_names.txt.gz``, ``tools/gen_vf_names.py``) with core's
top-level function, or, where torch's Python wrapper reads its arguments otherwise than the native function (a
list instead of ``*tensors``, ``compute_mode`` as an int, ``unique_dim``'s three results), with a native form
below. Any other name raises torch's AttributeError.
"""

from __future__ import annotations

import functools
import gzip
import types
from pathlib import Path

import core
from core import _aten_forms

# NOTE: beside this file, not importlib.resources: a `torch` import alias (tests/external) replaces core's __spec__
_NAMES = Path(__file__).resolve().with_name("_vf_names.txt.gz")
_CDIST_MODES = {None: "use_mm_for_euclid_dist_if_necessary", 0: "use_mm_for_euclid_dist_if_necessary",
                1: "use_mm_for_euclid_dist", 2: "donot_use_mm_for_euclid_dist"}


@functools.cache
def _names() -> frozenset:
    return frozenset(gzip.decompress(_NAMES.read_bytes()).decode().split())


def _broadcast_tensors(tensors):
    return core.broadcast_tensors(*tensors)


def _block_diag(tensors):
    return core.block_diag(*tensors)


def _cartesian_prod(tensors):
    return core.cartesian_prod(*tensors)


def _chain_matmul(matrices, *, out=None):
    return core.chain_matmul(*matrices, out=out)


def _einsum(equation, tensors, *, path=None):
    """``path`` (torch's contraction order from opt_einsum) only orders the products; core picks its own."""
    return core.einsum(equation, *tensors)


def _cdist(x1, x2, p=2.0, compute_mode=None):
    if compute_mode not in _CDIST_MODES:
        raise RuntimeError(f"{compute_mode} is not a valid value for compute_mode")
    return core.cdist(x1, x2, p, _CDIST_MODES[compute_mode])


def _tensordot(a, b, dims_a, dims_b, *, out=None):
    result = _aten_forms._tensordot(a, b, dims_a, dims_b)
    return result if out is None else out.resize_(result.shape).copy_(result)


def _unique_dim(input, dim, sorted=True, return_inverse=False, return_counts=False):
    """Always the three results (torch computes the inverse and the counts whatever the flags say)."""
    return core.unique(input, sorted=True, return_inverse=True, return_counts=True, dim=dim)


_NATIVE = {
    "broadcast_tensors": _broadcast_tensors,
    "block_diag": _block_diag,
    "cartesian_prod": _cartesian_prod,
    "chain_matmul": _chain_matmul,
    "einsum": _einsum,
    "cdist": _cdist,
    "tensordot": _tensordot,
    "unique_dim": _unique_dim,
    "stft": _aten_forms._stft,
}


def __getattr__(name: str):
    if name in _names():
        if name in _NATIVE:
            return _NATIVE[name]
        value = getattr(core, name, None)
        if callable(value) and not isinstance(value, (type, types.ModuleType)):
            return value
    raise AttributeError(f"'torch._C._VariableFunctionsClass' object has no attribute '{name}'")

