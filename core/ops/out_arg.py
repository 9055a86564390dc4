"""``out=`` for the torch functions whose op computes a fresh result (``torch.prod(x, 0, out=z)``), in one place.

``accept_out`` wraps such a function: without ``out`` it is the function; with it, the result is computed as
usual and then written into ``out``, which is returned (a tuple ``out=(values, indices)`` for the functions with
several results, returned as the same kind of named tuple). The rules are PyTorch's: ``out`` is a Tensor; an
input that records a graph is refused ("functions with out=... arguments don't support automatic
differentiation"); a result dtype that can't be cast to ``out``'s is refused ("result type Float can't be cast
to the desired output type Long"); an ``out`` that takes part of an input's memory is refused; an ``out`` of
another shape is resized, with PyTorch's deprecation warning when it had elements.

Only the functions of ``torch`` are wrapped (``core.ops``' namespace): Tensor methods keep the unwrapped op and
so keep refusing ``out=`` as PyTorch's do (``core.ops.method_out``).
"""

from __future__ import annotations

import functools
import inspect

from core import _dtype
from core._arg_types import reworded
from core._tensor import Tensor
from core._user_warning import warn_user

__all__ = ["accept_out", "write_into_out", "resize_warning", "install", "OUT_FUNCTIONS", "check_out_dtypes"]

OUT_FUNCTIONS = (  # torch functions that take out= whose op does not (found by tools/out_coverage.py)
    "all", "amax", "amin", "aminmax", "angle", "any", "argmax", "argmin", "argsort", "bucketize", "cholesky",
    "cholesky_inverse", "cholesky_solve", "complex", "conj_physical", "cross", "cummax", "cummin", "cumprod",
    "diag", "diff", "frexp", "gcd", "ger", "hash_tensor", "histc", "histogram", "index_add", "index_copy",
    "index_reduce", "index_select", "inner", "inverse", "isin", "kron", "kthvalue", "lcm", "ldexp", "log_softmax",
    "logaddexp2", "logcumsumexp", "logsumexp", "lu_solve", "lu_unpack", "masked_select", "matrix_power", "median",
    "mode", "msort", "mvlgamma", "nanmean", "nanmedian", "nanquantile", "nansum", "narrow_copy", "nextafter",
    "nonzero", "norm", "outer", "polar", "prod", "quantile", "renorm", "scatter", "scatter_add", "scatter_reduce",
    "searchsorted", "slice_scatter", "softmax", "sort", "std", "take", "take_along_dim", "tensordot", "topk",
    "tril", "triu", "var", "vdot", "view_as_complex_copy", "view_as_real_copy",
)
_DTYPE_FROM_OUT = {"prod", "cumprod", "nansum", "nanmean"}  # out's dtype is the one computed in (their dtype=)
_FLOAT_ONLY = {"nansum", "nanmean"}  # their kernels have no integer form
_BOOL_RESULT = {"all", "any"}  # out holds bool or uint8
_UINT64_RESULT = {"hash_tensor"}  # out must be uint64, as its result
_BOOL_ONLY = {"isin"}  # out holds bool only
_CPP_NAMES = {"uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int",
              "int64": "long int", "float32": "float", "float64": "double"}  # (isin's message names C++ types)
_SILENT_RESIZE = {"narrow_copy"}  # its kernel resizes out without the deprecation warning
_SAME_DTYPE_OUT = {"aminmax"}  # (PyTorch's structured kernels that want out of the result's dtype exactly)
_CPP_TYPE_NAMES = {**_CPP_NAMES, "bool": "bool", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
                   "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def resize_warning(out: Tensor, shape) -> None:
    """PyTorch's deprecation warning for an ``out`` with elements resized to the result's ``shape``."""
    warn_user(f"An output with one or more elements was resized since it had shape {list(out.shape)}, which does "
              f"not match the required output shape {list(shape)}. This behavior is deprecated, and in a future "
              "PyTorch release outputs will not be resized unless they have zero elements. You can explicitly reuse "
              "an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).")


def _check_outs(name: str, result, out) -> tuple:
    """``out`` as a tuple of Tensors matching ``result``'s count, or PyTorch's TypeError."""
    if isinstance(result, tuple):
        if not isinstance(out, (tuple, list)) or not all(isinstance(o, Tensor) for o in out):
            raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not {type(out).__name__}")
        if len(out) != len(result):
            raise TypeError(f"{name}(): argument 'out' must be tuple of {len(result)} Tensors")
        return tuple(out)
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    return (out,)


def write_into_out(name: str, result, out, inputs=(), warn_resize: bool = True):
    """``result`` (a Tensor or a tuple of them) written into ``out`` by PyTorch's rules; returns ``out``."""
    from core.ops.elementwise import _check_cast, check_no_partial_overlap  # (elementwise imports core.ops' parts)
    from core.ops.inplace import copy_

    outs = _check_outs(name, result, out)
    results = tuple(result) if isinstance(result, tuple) else (result,)
    if any(isinstance(r, Tensor) and r.requires_grad for r in results):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    for o, r in zip(outs, results):
        _check_cast(r.dtype, o.dtype)
        for src in inputs:
            check_no_partial_overlap(o, src)
    for o, r in zip(outs, results):
        if o.shape != r.shape:
            if o.numel() and warn_resize:
                resize_warning(o, r.shape)
            o.resize_(r.shape)
        copy_(o, r)
    if not isinstance(result, tuple):
        return out
    return type(result)(*outs) if hasattr(result, "_fields") else outs


def _out_dtype_kwargs(name: str, out, kwargs: dict) -> dict:
    """The reductions whose ``out`` sets the dtype they compute in, as ``dtype=`` does (PyTorch's rule)."""
    if name not in _DTYPE_FROM_OUT or not isinstance(out, Tensor):
        return kwargs
    if name in _FLOAT_ONLY and not (out.dtype.is_floating_point or out.dtype.is_complex):
        raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{_dtype.SCALAR_NAMES[out.dtype.name]}'")
    return kwargs if kwargs.get("dtype") is not None else {**kwargs, "dtype": out.dtype}


def check_out_dtypes(result, out) -> None:
    """Each ``out`` tensor has its result's dtype (PyTorch's structured kernels' check: no casting into out)."""
    results = result if isinstance(result, (tuple, list)) else (result,)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    for r, o in zip(results, outs):
        if isinstance(o, Tensor) and isinstance(r, Tensor) and o.dtype is not r.dtype:
            want, got = (_CPP_TYPE_NAMES.get(t.dtype.name, t.dtype.name) for t in (r, o))
            raise RuntimeError(f"Expected out tensor to have dtype {want}, but got {got} instead")


def _check_bool_out(name: str, out) -> None:
    if isinstance(out, Tensor) and out.dtype not in (_dtype.bool, _dtype.uint8):
        raise RuntimeError(f"{name} only supports bool tensor for result, got: {_dtype.SCALAR_NAMES[out.dtype.name]}")


def accept_out(fn):
    """``fn`` taking ``out=`` as its torch function does (see the module's docstring)."""
    name = fn.__name__

    @functools.wraps(fn)
    def op(*args, out=None, **kwargs):
        if out is None:
            try:  # NOTE: no cost unless it raises
                return fn(*args, **kwargs)
            except TypeError as error:  # torch.std(x, dim=True): worded for the function, not the method
                call = getattr(error, "dim_call", None)
                if call is None or not call[2]:
                    raise
                raise reworded(error, method=False) from None
        if name in _BOOL_RESULT:
            _check_bool_out(name, out)
        if name in _BOOL_ONLY and isinstance(out, Tensor) and out.dtype is not _dtype.bool:
            got = _CPP_NAMES.get(out.dtype.name, out.dtype.name)
            raise RuntimeError(f"Expected out tensor to have dtype bool, but got {got} instead")
        if name in _UINT64_RESULT and isinstance(out, Tensor) and out.dtype is not _dtype.uint64:
            raise RuntimeError(f"Expected result to be of dtype uint64, but got {_dtype.SCALAR_NAMES[out.dtype.name]}")
        result = fn(*args, **_out_dtype_kwargs(name, out, kwargs))
        if name in _SAME_DTYPE_OUT:
            check_out_dtypes(result, out)
        if name == "complex" and isinstance(out, Tensor) and out.dtype is not result.dtype:  # (its older check's words)
            raise RuntimeError(f"Expected object of scalar type {_dtype.SCALAR_NAMES[result.dtype.name]} but got "
                               f"scalar type {_dtype.SCALAR_NAMES[out.dtype.name]} for argument 'out'")
        if name in _BOOL_RESULT:
            result = result.to(out.dtype)
        inputs = tuple(a for a in args if isinstance(a, Tensor)) + tuple(
            v for v in kwargs.values() if isinstance(v, Tensor))
        return write_into_out(name, result, out, inputs, warn_resize=name not in _SILENT_RESIZE)

    try:
        sig = inspect.signature(fn)
        params = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD and p.name != "out"]
        extra = [p for p in sig.parameters.values() if p.kind is p.VAR_KEYWORD]
        out_param = inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None)
        op.__signature__ = sig.replace(parameters=params + [out_param] + extra)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        pass
    return op


def install(namespace: dict, names=OUT_FUNCTIONS) -> None:
    """Replace each of ``names`` in ``namespace`` (``core.ops``', ``core.linalg``'s, ``core.fft``'s globals) by its
    ``accept_out`` form."""
    for name in names:
        namespace[name] = accept_out(namespace[name])
