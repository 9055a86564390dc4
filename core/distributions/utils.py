"""Helpers shared by the distributions, with ``torch.distributions.utils``' names.

``broadcast_all`` turns numbers and tensors into tensors of one broadcast shape, the
logits/probs converters clamp as PyTorch does, and ``lazy_property`` computes a parameter
(``probs`` from ``logits`` or back) once, on first use, with grad mode on.
"""

from __future__ import annotations

from functools import update_wrapper
from numbers import Number

import core

__all__ = ["broadcast_all", "logits_to_probs", "clamp_probs", "probs_to_logits", "lazy_property",
           "euler_constant", "store_probs_or_logits", "expand_probs_or_logits"]

euler_constant = 0.57721566490153286060


def _is_number(value) -> bool:
    return isinstance(value, Number) and not isinstance(value, core.Tensor)


def broadcast_all(*values):
    """Tensors broadcast to one shape; numbers become tensors of the first tensor's dtype and device."""
    if not all(isinstance(v, core.Tensor) or _is_number(v) for v in values):
        raise ValueError("Input arguments must all be instances of Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    if not all(isinstance(v, core.Tensor) for v in values):
        first = next((v for v in values if isinstance(v, core.Tensor)), None)
        options = {"dtype": core.get_default_dtype()} if first is None else \
            {"dtype": first.dtype, "device": first.device}
        values = [v if isinstance(v, core.Tensor) else core.tensor(v, **options) for v in values]
    return core.broadcast_tensors(*values)


def store_probs_or_logits(dist, probs, logits, *others) -> list:
    """torch's two parametrisations of a success probability: exactly one of ``probs``/``logits`` (its
    ValueError otherwise), broadcast with ``others`` and stored under its own name and as ``dist._param`` (the
    other one is derived lazily). Returns the broadcast ``others``."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    name, given = ("probs", probs) if probs is not None else ("logits", logits)
    *rest, param = broadcast_all(*others, given)
    setattr(dist, name, param)
    dist._param = param
    return rest


def expand_probs_or_logits(dist, shape) -> dict:
    """The stored one of ``probs``/``logits`` expanded to ``shape``, by name (for ``Distribution.expand``)."""
    return {name: dist.__dict__[name].expand(shape) for name in ("probs", "logits") if name in dist.__dict__}


def _standard_normal(shape, dtype, device):
    """Standard normal noise drawn as PyTorch draws it (``empty(shape).normal_()``)."""
    return core.empty(tuple(shape), dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim: int):
    """``value`` with its ``dim`` rightmost dims summed out."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:value.dim() - dim]) + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary: bool = False):
    """Probabilities from log-odds (binary) or from unnormalised log-probabilities (last dim)."""
    if is_binary:
        return core.sigmoid(logits)
    return core.softmax(logits, dim=-1)


def clamp_probs(probs):
    """Probabilities clamped into ``[eps, 1 - eps]`` of their dtype."""
    eps = core.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary: bool = False):
    """Log-odds (binary) or log-probabilities of clamped probabilities."""
    clamped = clamp_probs(probs)
    if is_binary:
        return core.log(clamped) - core.log1p(-clamped)
    return core.log(clamped)


class lazy_property:
    """A property computed on first access (with grad mode on) and then stored on the instance."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with core.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value
