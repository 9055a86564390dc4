"""The argument checks of core's matrix products (mm, bmm, mv, dot, matmul and the linalg siblings), with PyTorch's
messages: tensors only, one device, one dtype, no bool kernel, and each product's shape mismatch in the words of
the kernel PyTorch's dispatch reaches (``_check_matmul_shapes``); and the C type names those messages use."""

from __future__ import annotations

import math

import numpy as np

from core import _dtype
from core._tensor import Tensor
from core.ops._util import broadcast_shapes, check_same_device
from core.overrides import has_torch_function_variadic

_C_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double", "int8": "signed char",
            "int16": "short int", "int32": "int", "int64": "long int", "uint8": "unsigned char", "bool": "bool",
            "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}
_TYPE_NAMES = _dtype.SCALAR_NAMES


def _type_name(t: Tensor) -> str:
    return _TYPE_NAMES[t.dtype.name]


def _dims(shape) -> str:
    return "x".join(str(s) for s in shape)


def _check_tensors(name: str, *args) -> None:
    for i, (arg_name, a) in enumerate(args):
        if not isinstance(a, Tensor):
            raise TypeError(f"{name}(): argument '{arg_name}' (position {i + 1}) must be Tensor, "
                            f"not {type(a).__name__}")
    check_same_device(*(a for _, a in args))


def _tensor_like(a, b) -> bool:
    """An argument that is no Tensor but overrides ``__torch_function__`` (GPyTorch's LinearOperator): torch's
    argument parser hands the call to it instead of refusing the argument."""
    return not (isinstance(a, Tensor) and isinstance(b, Tensor)) and has_torch_function_variadic(a, b)


def _check_same_dtype(a: Tensor, b: Tensor) -> None:
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_C_NAMES[a.dtype.name]} != "
                           f"{_C_NAMES[b.dtype.name]}")
    if a._data.dtype == np.bool_:
        raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")


def _no_bool_kernel(kernel: str, t: Tensor) -> None:
    """PyTorch's CPU products (BLAS or its own loops) have no bool kernel."""
    if t._data.dtype == np.bool_:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def _check_mm_shapes(sa, sb) -> None:
    if sa[1] != sb[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_dims(sa)} and {_dims(sb)})")


def _check_mv_shapes(sa, sv) -> None:
    if sa[1] != sv[0]:
        raise RuntimeError(f"size mismatch, got input ({sa[0]}), mat ({_dims(sa)}), vec ({sv[0]})")


def _check_dot_shapes(sa, sb) -> None:
    if sa[0] != sb[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{sa[0]}] and src [{sb[0]}] to have the "
                           f"same number of elements, but got {sa[0]} and {sb[0]} elements respectively")


def _check_bmm_shapes(batch, n_k, m_p) -> None:
    if n_k[1] != m_p[0]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, {n_k[1]}] "
                           f"but got: [{batch}, {m_p[0]}].")


def _check_matmul_shapes(sa, sb) -> None:
    """PyTorch's message for each of matmul's dispatch paths."""
    da, db = len(sa), len(sb)
    if da == 1 and db == 1:
        _check_dot_shapes(sa, sb)
    elif db == 1 and da >= 2:
        _check_mv_shapes((math.prod(sa[:-1]), sa[-1]), sb)
    elif da == 1 and db == 2:
        _check_mm_shapes((1, sa[0]), sb)
    elif db == 2 and da >= 2:
        _check_mm_shapes((math.prod(sa[:-1]), sa[-1]), sb)
    else:
        batch = broadcast_shapes(sa[:-2], sb[:-2])
        _check_bmm_shapes(math.prod(batch), sa[-2:] if da > 1 else (1, sa[0]), sb[-2:])
