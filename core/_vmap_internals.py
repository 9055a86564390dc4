"""``torch._vmap_internals``: the legacy ``vmap`` that ``torch.autograd.functional`` once used and libraries still
import (pytorch-minimize builds Hessians and Jacobians as ``_vmap(lambda v: autograd.grad(g, x, v))(eye)``).

``_vmap(func, in_dims, out_dims, allow_none_pass_through)`` maps ``func`` over its positional arguments as
``core.vmap`` does (the same ``in_dims``/``out_dims`` rules and values), with the legacy API's own checks: ``out_dims``
must be an int or a tuple of ints, and ``func`` must return tensors, or ``None`` in place of one where
``allow_none_pass_through`` is set (``autograd.grad`` of an unused input), which comes back as ``None``. Random ops
are not refused (the legacy API has no ``randomness``). ``vmap`` is the deprecated public name (a FutureWarning).
"""

from __future__ import annotations

import functools
import warnings

import core
from core._vmap import vmap as _functorch_vmap

__all__ = ["vmap"]


def _name(func) -> str:
    return getattr(func, "__name__", None) or repr(func)


def _check_out_dims_is_int_or_int_tuple(out_dims, func) -> None:
    if isinstance(out_dims, int) or isinstance(out_dims, tuple) and all(isinstance(d, int) for d in out_dims):
        return
    raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int or a tuple of int "
                     "representing where in the outputs the vmapped dimension should appear.")


def _validate_outputs(outputs, func, allow_none: bool) -> None:
    if isinstance(outputs, core.Tensor) or allow_none and outputs is None:
        return
    if not isinstance(outputs, tuple):
        raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` must only return Tensors, got type "
                         f"{type(outputs)} as the return.")
    for idx, output in enumerate(outputs):
        if not (isinstance(output, core.Tensor) or allow_none and output is None):
            raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` must only return Tensors, got type "
                             f"{type(output)} for return {idx}.")


def _vmap(func, in_dims=0, out_dims=0, allow_none_pass_through: bool = False):
    """``func`` mapped over a dimension of its positional inputs (the legacy API's checks, ``core.vmap``'s values)."""

    @functools.wraps(func)
    def wrapped(*args):
        _check_out_dims_is_int_or_int_tuple(out_dims, func)
        nones = []  # NOTE: which outputs are None (core.vmap may call func more than once: the same each time)

        def tensors_only(*inner):
            outputs = func(*inner)
            _validate_outputs(outputs, func, allow_none_pass_through)
            if not isinstance(outputs, tuple):
                return outputs
            nones[:] = [o is None for o in outputs]
            return tuple(o for o in outputs if o is not None)

        dims = out_dims
        results = _functorch_vmap(tensors_only, in_dims, dims if not isinstance(dims, tuple) else 0,
                                  randomness="different")(*args)
        if not isinstance(results, tuple):
            return results
        if isinstance(dims, tuple):  # each kept output moved to its own out_dim
            kept = [d for d, none in zip(dims, nones or [False] * len(dims)) if not none]
            results = tuple(r.movedim(0, d) for r, d in zip(results, kept))
        it = iter(results)
        return tuple(None if none else next(it) for none in nones) if nones else results

    return wrapped


def vmap(func, in_dims=0, out_dims=0):
    """Deprecated: ``torch.vmap``."""
    warnings.warn("Please use `torch.vmap` instead of `torch._vmap_internals.vmap`.", FutureWarning, stacklevel=2)
    return _vmap(func, in_dims, out_dims)
