"""``torch.masked``'s reductions and normalizations on strided tensors, ported from PyTorch's ``_ops.py``.

Masked-out elements are replaced by the operation's identity (0 for sum, 1 for prod, -inf or the dtype's minimum
for amax/argmax/logsumexp/logaddexp/softmax, +inf or the maximum for amin/argmin/softmin, NaN for median) and the
ordinary operation runs; mean, var and std divide by the count of unmasked elements. Fully masked-out results
are whatever that gives (the identity, or NaN). Sparse layouts and MaskedTensor are not supported.
"""

from __future__ import annotations

import builtins
import math

import core

__all__ = ["sum", "prod", "cumsum", "cumprod", "amax", "amin", "argmax", "argmin", "mean", "median", "logsumexp",
           "logaddexp", "norm", "var", "std", "softmax", "log_softmax", "softmin", "normalize"]

_SMALL_INTS = ("uint8", "bool", "int8", "int16", "int32")


def _reduction_identity(op_name: str, input, *args):
    dtype, device = input.dtype, input.device
    if op_name in ("sum", "cumsum"):
        return core.tensor(0, dtype=dtype, device=device)
    if op_name in ("prod", "cumprod"):
        return core.tensor(1, dtype=dtype, device=device)
    if op_name in ("amax", "argmax", "logaddexp", "logsumexp"):
        if input.is_floating_point():
            return core.tensor(-math.inf, dtype=dtype, device=device)
        if op_name == "logsumexp" and input.is_complex():
            return core.tensor(complex(-math.inf, 0), dtype=dtype, device=device)
        if input.is_signed() or dtype is core.uint8:
            return core.tensor(core.iinfo(dtype).min, dtype=dtype, device=device)
    elif op_name in ("amin", "argmin"):
        if input.is_floating_point():
            return core.tensor(math.inf, dtype=dtype, device=device)
        if input.is_signed() or dtype is core.uint8:
            return core.tensor(core.iinfo(dtype).max, dtype=dtype, device=device)
    elif op_name == "norm":
        order = args[0] if args else 2
        if order == -math.inf:
            if not input.is_floating_point():
                raise AssertionError(f"input must be floating point, got {input.dtype}")
            return core.tensor(math.inf, dtype=dtype, device=device)
        return core.tensor(0, dtype=dtype, device=device)
    elif op_name == "median":
        return core.tensor(math.nan, dtype=dtype if input.is_floating_point() else core.float32, device=device)
    raise NotImplementedError(f"identity of {op_name} on {dtype} input")


def _canonical_dim(dim, ndim: int) -> tuple:
    if dim == () or dim is None:
        return tuple(range(ndim))
    ndim = builtins.max(ndim, 1)
    dims: list = []
    for d in (dim,) if isinstance(dim, int) else dim:
        if d in dims:
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        if d >= ndim or d < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {d})")
        dims.append(d % ndim)
    return tuple(sorted(dims))


def _input_mask(input, mask):
    if mask is None:
        raise ValueError("_input_mask requires explicit mask")
    if mask.shape != input.shape:
        if mask.ndim > input.ndim:
            raise IndexError("_input_mask expected broadcastable mask (got mask dimensionality higher than of the "
                             "input)")
        mask = core.broadcast_to(mask.clone(), input.shape)
    return mask.to(dtype=core.bool)


def _combine(op_name: str, input, mask, *args):
    """``input`` with its masked-out elements replaced by the identity of ``op_name``."""
    if mask is None:
        return input
    return core.where(_input_mask(input, mask), input, _reduction_identity(op_name, input, *args))


def _sum_dtype(input, dtype):
    if dtype is None:
        dtype = core.int64 if input.dtype.name in _SMALL_INTS else input.dtype
    return dtype


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = _sum_dtype(input, dtype)
    return core.sum(_combine("sum", input, mask), _canonical_dim(dim, input.ndim), bool(keepdim), dtype=dtype)


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    result = _combine("prod", input, mask).to(dtype=_sum_dtype(input, dtype))
    for d in reversed(_canonical_dim(dim, input.ndim)):
        result = result.prod(dim=d, keepdim=bool(keepdim))
    return result


def cumsum(input, dim, *, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    return core.cumsum(_combine("sum", input, mask), _canonical_dim(dim, input.ndim)[0], dtype=dtype).to(dtype=dtype)


def cumprod(input, dim, *, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    return core.cumprod(_combine("prod", input, mask), _canonical_dim(dim, input.ndim)[0], dtype=dtype).to(dtype=dtype)


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    masked = _combine("amax", input, mask)
    return core.amax(masked, _canonical_dim(dim, masked.ndim), bool(keepdim)).to(dtype=dtype or input.dtype)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    masked = _combine("amin", input, mask)
    return core.amin(masked, _canonical_dim(dim, masked.ndim), bool(keepdim)).to(dtype=dtype or input.dtype)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    return core.argmax(_combine("argmax", input, mask), dim, bool(keepdim)).to(dtype=dtype or input.dtype)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    return core.argmin(_combine("argmin", input, mask), dim, bool(keepdim)).to(dtype=dtype or input.dtype)


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    source = "Optional" if dtype is not None else "Input"
    dtype = input.dtype if dtype is None else dtype
    if not (dtype.is_floating_point or dtype.is_complex):
        raise ValueError(f"mean(): Could not infer output dtype. {source} dtype must be either a floating point or "
                         f"complex dtype. Got: {dtype}")
    if mask is None:
        count = sum(core.ones(input.shape, dtype=core.int64, device=input.device), dim, keepdim=keepdim)
        total = sum(input, dim, keepdim=keepdim, dtype=dtype)
    else:
        inmask = _input_mask(input, mask)
        count = inmask.sum(dim=dim, keepdim=bool(keepdim))
        total = sum(input, dim, keepdim=keepdim, dtype=dtype, mask=inmask)
    return total / count


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    d = _canonical_dim(dim, input.ndim)[0]
    is_float = input.is_floating_point()
    if not is_float:
        input = input.to(dtype=core.float32)
    output = core.nanmedian(_combine("median", input, mask), d, keepdim).values
    if is_float:
        return output
    if not core.isnan(output).any():
        return output.to(dtype=dtype)
    raise ValueError("masked median expects no fully masked out rows if dtype is not floating point")


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dim_ = _canonical_dim(dim, input.ndim)
    return core.logsumexp(_combine("logsumexp", input, mask), dim_, keepdim=keepdim).to(dtype=dtype or input.dtype)


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):
    dtype = input.dtype if dtype is None else dtype
    return core.logaddexp(_combine("logaddexp", input, input_mask),
                          _combine("logaddexp", other, other_mask)).to(dtype=dtype)


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    masked = _combine("norm", input, mask, ord)
    return core.linalg.vector_norm(masked, ord, _canonical_dim(dim, input.ndim), bool(keepdim), dtype=dtype)


def _std_var(input, dim, unbiased, *, correction_opt, keepdim, dtype, mask, take_sqrt):
    if unbiased is not None and correction_opt is not None:
        raise AssertionError("Only one of unbiased and correction may be given")
    correction = 1.0
    if unbiased is not None:
        correction = 1.0 if unbiased else 0.0
    if correction_opt is not None:
        correction = float(correction_opt)
    if dtype is None:
        dtype = input.dtype
        if not (dtype.is_floating_point or dtype.is_complex):
            dtype = core.float32
    compute = dtype if dtype.is_floating_point or dtype.is_complex else core.float32
    if mask is None:
        count = sum(core.ones(input.shape, dtype=core.int64, device=input.device), dim, keepdim=True)
        sample_total = sum(input, dim, keepdim=True, dtype=dtype)
        inmask = None
    else:
        inmask = _input_mask(input, mask)
        count = inmask.sum(dim=dim, keepdim=True)
        sample_total = sum(input, dim, keepdim=True, dtype=dtype, mask=inmask)
    x = core.subtract(input, core.divide(sample_total, count))
    total = sum(x * x.conj(), dim, keepdim=keepdim, dtype=compute, mask=inmask)
    if not keepdim:
        count = count.reshape(total.shape)
    if correction != 0:
        count = count.to(compute.to_real() if compute.is_complex else compute)
        count = core.subtract(count, correction)
        count = core.maximum(count, count.new_zeros([]))
    output = core.divide(total, count).to(dtype=dtype)
    return core.sqrt(output) if take_sqrt else output


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    return _std_var(input, dim, unbiased, correction_opt=correction, keepdim=keepdim, dtype=dtype, mask=mask,
                    take_sqrt=False)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    return _std_var(input, dim, unbiased, correction_opt=correction, keepdim=keepdim, dtype=dtype, mask=mask,
                    take_sqrt=True)


def softmax(input, dim, *, dtype=None, mask=None):
    d = _canonical_dim(dim, input.ndim)[0]
    return core.nn.functional.softmax(_combine("amax", input, mask), d, dtype=dtype or input.dtype)


def log_softmax(input, dim, *, dtype=None, mask=None):
    d = _canonical_dim(dim, input.ndim)[0]
    return core.nn.functional.log_softmax(_combine("amax", input, mask), d, dtype=dtype or input.dtype)


def softmin(input, dim, *, dtype=None, mask=None):
    d = _canonical_dim(dim, input.ndim)[0]
    return core.nn.functional.softmin(_combine("amin", input, mask), d, dtype=dtype or input.dtype)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    nrm = norm(input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    return core.divide(_combine("sum", input, mask), core.maximum(nrm, nrm.new_full([], eps)))
