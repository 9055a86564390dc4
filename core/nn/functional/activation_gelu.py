"""``gelu``: PyTorch's CPU GELU (erf and tanh forms) and its gradient, on the kernel PyTorch picks for the input.

A contiguous float32 tensor goes through oneDNN's ``eltwise_gelu_erf`` (``_gelu_onednn``); other float32 tensors
through GeluKernel's vector and scalar forms (``vector_loop``: SLEEF's functions for whole vectors, the C
library's for the tail); a half type not handed to oneDNN through its vector loop on float32 values; float64 on
ATen's AVX-512 build through ``_gelu_double``; anything else is composed from core ops. The gradient takes the
matching backward kernel where nothing is recorded, and PyTorch's formula (recorded) under ``create_graph``.
"""

from __future__ import annotations

import math

import numpy as np

import core
from core import _cpu
from core import _fused as fused
from core import _glibc as glibc
from core._sleef import _f32fma, expf_u10, tanhf_u10, vector_loop
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.nn.functional import _activation_grads as grads
from core.nn.functional._activation_checks import _float_check, _plain_float32
from core.nn.functional._gelu_double import (
    gelu_erf_double,
    gelu_erf_grad_double,
    gelu_tanh_double,
    gelu_tanh_grad_double,
)
from core.nn.functional._gelu_onednn import gelu_erf_grad_f32, gelu_erf_onednn_f32
from core.ops import _special
from core.ops._float32_compute import computes_in_float32
from core.ops._saved_attrs import kept

__all__ = ["gelu"]


@computes_in_float32
class Gelu(Function):
    node_name = "GeluBackward0"
    saved_names = ("self",)
    _saved_approximate = kept("approximate")

    @staticmethod
    def forward(ctx, x, *, approximate, onednn=False, half_step=0):
        ctx.save_for_backward(x)
        ctx.approximate, ctx.onednn, ctx.half_step = approximate, onednn, half_step
        if onednn:  # PyTorch's route for a contiguous float32 CPU tensor (see _gelu_onednn)
            return gelu_erf_onednn_f32(x._data)
        if half_step:  # a half type's GeluKernel (float32 values here; see _gelu_half_step)
            return vector_loop(x._data, _gelu_erf_vec, _gelu_erf_scalar, pair=half_step)
        if approximate == "none" and x._data.dtype == np.float32 and type(x._data) is np.ndarray:
            # NOTE: a float32 tensor PyTorch keeps from oneDNN (a view: GEGLU's gate, x.chunk(2, -1)[1]) takes
            # GeluKernel's vector form (Vectorized<float>::erf) and the C library's erff for each row's tail
            return vector_loop(x._data, _gelu_erf_vec, _gelu_erf_scalar)
        if approximate == "tanh" and x._data.dtype == np.float32 and type(x._data) is np.ndarray:
            return vector_loop(x._data, _gelu_tanh_form(tanhf_u10), _gelu_tanh_form(glibc.tanhf))
        if approximate == "tanh" and _double_avx512(x._data):
            return gelu_tanh_double(x._data)  # (SLEEF's tanhd_u10, glibc's tanh: core.nn.functional._gelu_double)
        if approximate == "none" and _double_avx512(x._data):
            return gelu_erf_double(x._data)  # (SLEEF's erfd_u10, glibc's erf: core.nn.functional._gelu_double)
        return _gelu(x, approximate)._data

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        return grads.recorded(_GELU_GRAD, _gelu_grad, grads.gelu_double, g, x, ctx.approximate, ctx.onednn,
                              ctx.half_step)


_GELU_GRAD = grads.grad_op("GeluBackwardBackward0")


def _gelu_grad(g: Tensor, x: Tensor, approximate: str, onednn: bool, half_step: int) -> Tensor:
    """``gelu_backward(grad_output, self, approximate)``: the kernel of PyTorch's route where nothing is recorded."""
    if onednn and g.dtype is core.float32 and not core.is_grad_enabled():  # (create_graph: the formula)
        return new_tensor(g._data * gelu_erf_grad_f32(x._data))
    if half_step and _plain_float32(x, g):
        with np.errstate(over="ignore"):
            return new_tensor(vector_loop(x._data, _gelu_erf_grad_vec, _gelu_erf_grad_scalar, g._data,
                                          pair=half_step))
    if approximate == "none" and not onednn and _plain_float32(x, g):
        with np.errstate(over="ignore"):  # (GeluBackwardKernel's forms for a float32 view, as the forward's)
            return new_tensor(vector_loop(x._data, _gelu_erf_grad_vec_f32, _gelu_erf_grad_scalar, g._data))
    if approximate == "tanh" and _plain_float32(x, g):
        return new_tensor(vector_loop(x._data, _gelu_tanh_grad_form(tanhf_u10),
                                      _gelu_tanh_grad_form(glibc.tanhf), g._data))
    if approximate == "tanh" and _double_avx512(x._data) and _double_avx512(g._data) and g.shape == x.shape \
            and not core.is_grad_enabled():
        return new_tensor(gelu_tanh_grad_double(x._data, g._data))
    if approximate == "none" and _double_avx512(x._data) and _double_avx512(g._data) and g.shape == x.shape \
            and not core.is_grad_enabled():
        return new_tensor(gelu_erf_grad_double(x._data, g._data))
    if approximate == "tanh":
        k = math.sqrt(2.0 / math.pi)
        inner = k * (x + 0.044715 * x * x * x)
        t = core.tanh(inner)
        d_inner = k * (1 + 3 * 0.044715 * x * x)
        return g * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * d_inner)
    cdf = 0.5 * (1 + core.erf(x * (1 / math.sqrt(2.0))))
    pdf = core.exp(x * x * -0.5) * (1 / math.sqrt(2 * math.pi))
    return g * (cdf + x * pdf)


def _double_avx512(a) -> bool:
    """Whether ``a`` is a float64 NumPy array on ATen's AVX-512 build (where its float64 GELU steps were measured)."""
    return a.dtype == np.float64 and type(a) is np.ndarray and _cpu.capability() == "AVX512"


def _gelu(x: Tensor, approximate: str) -> Tensor:
    """GELU from core ops (run inside Gelu.forward, where no graph is recorded)."""
    if approximate == "tanh":
        return 0.5 * x * (1 + core.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))
    u = (x * (1 / math.sqrt(2.0)))._data
    erf = np.asarray(_special.erf(u)).astype(u.dtype, copy=False)  # NOTE: GeluKernel's own erf, never torch.erf's MKL
    return 0.5 * x * (1 + new_tensor(erf))


_GELU_ALPHA, _GELU_BETA = np.float32(math.sqrt(0.5)), np.float32(2 / math.sqrt(math.pi) * math.sqrt(0.5) * 0.5)
_TANH_BETA, _TANH_KAPPA = np.float32(math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5), np.float32(0.044715)


def _gelu_tanh_inner(v):
    """GeluKernel's tanh form's ``kBeta * (x + kKappa * x^3)``. NOTE: its compiled loops (vector and scalar) fuse
    ``x + kKappa * x^3`` into one multiply-add (without it ~0.4% of outputs were the other neighbour of torch's)."""
    return _TANH_BETA * _f32fma(_TANH_KAPPA, v * v * v, v)


def _gelu_tanh_form(tanh):
    """GeluKernel's ``approximate='tanh'``: ``0.5 x (1 + tanh(inner))``, SLEEF's tanh for the vectors, glibc's for
    the tail (``vector_loop``)."""
    def form(v):
        return _HALF * v * (_ONE + tanh(_gelu_tanh_inner(v)))
    return form


def _gelu_tanh_grad_form(tanh):
    """GeluBackwardKernel's tanh form: ``dy (0.5 (1 + t) + 0.5 x (1 - t^2) kBeta (1 + 3 kKappa x^2))``; NOTE: as
    compiled, ``1 - t t`` and ``1 + (3 kKappa) x^2`` are fused multiply-adds too (measured bit for bit)."""
    three_kappa = np.float32(3) * _TANH_KAPPA

    def form(v, dy):
        t = tanh(_gelu_tanh_inner(v))
        inner_derivative = _TANH_BETA * _f32fma(three_kappa, v * v, _ONE)
        right = _HALF * v * _f32fma(-t, t, _ONE) * inner_derivative
        return dy * (_HALF * (_ONE + t) + right)
    return form
_HALF, _ONE, _MINUS_HALF = np.float32(0.5), np.float32(1), np.float32(-0.5)


def _gelu_erf_vec(v):
    """GeluKernel's vector form for a half type, on its float32 values: ``x * 0.5 * (1 + erf(x / sqrt 2))`` with
    ``Vectorized<float>::erf``."""
    return v * _HALF * (_ONE + _special.erf_vector_form(v * _GELU_ALPHA))


def _gelu_erf_scalar(v):
    """Its scalar form (the loop's tail, a strided input): the C library's erff."""
    return v * _HALF * (_ONE + glibc.erff(v * _GELU_ALPHA))


def _gelu_erf_grad_vec(x, dy):
    """GeluBackwardKernel's vector form: ``dy * (0.5 (1 + erf(x / sqrt 2)) + x * beta * exp(x * x * -0.5))``."""
    cdf = _HALF * (_ONE + _special.erf_vector_form(x * _GELU_ALPHA))
    return dy * (cdf + x * (_GELU_BETA * expf_u10(x * x * _MINUS_HALF)))


def _gelu_erf_grad_scalar(x, dy):
    cdf = _HALF * (_ONE + glibc.erff(x * _GELU_ALPHA))
    return dy * (cdf + x * (_GELU_BETA * glibc.expf(x * x * _MINUS_HALF)))


def _gelu_erf_grad_vec_f32(x, dy):
    """GeluBackwardKernel's vector form for float32 itself: ``_gelu_erf_grad_vec`` with ``cdf + x * pdf`` one fused
    multiply-add (its scalar form, each row's tail and a strided input, is ``_gelu_erf_grad_scalar``, unfused).

    NOTE: GCC contracts that sum to an fma in the float kernel's vector form (measured bit for bit; unfused, ~1
    element in 5 of a GEGLU gate's gradient was an ulp off), not in its scalar form nor in the half types' loop."""
    cdf = _HALF * (_ONE + _special.erf_vector_form(x * _GELU_ALPHA))
    return dy * fused.fma(np, x, _GELU_BETA * expf_u10(x * x * _MINUS_HALF), cdf)


def _gelu_half_step(input: Tensor, onednn: bool) -> int:
    """For a bfloat16/float16 erf GELU that PyTorch does not hand to oneDNN: the float32 elements of one step of
    its vector loop (two ``Vectorized<Half>``, so 64 in ATen's AVX-512 build, 32 in its AVX2 one); else 0.

    NOTE: PyTorch 2.13 takes oneDNN for a contiguous half tensor only where the CPU converts the type natively
    (``core._cpu.onednn_takes_half``): an AMD Zen 4 has no avx512_fp16, so its float16 GELU is GeluKernel's
    (oneDNN's polynomial differed from it in 13 of 19,200 elements, the gradient in 9)."""
    if onednn or input.dtype not in (core.float16, core.bfloat16) or input.device.type != "cpu" \
            or type(input._data) is not np.ndarray:
        return 0
    return _cpu.vector_bytes()  # (two vectors of 2-byte elements: the vector's bytes in elements)


def _onednn_gelu(input: Tensor) -> bool:
    """Whether PyTorch's CPU GELU (erf form) hands ``input`` to oneDNN (``use_mkldnn`` in Activation.cpp): a
    contiguous CPU tensor of more than one element, float32, or a half type the CPU converts natively."""
    if input.device.type != "cpu" or input.numel() <= 1 or not input.is_contiguous():
        return False
    d = input.dtype
    return d is core.float32 or d in (core.float16, core.bfloat16) and _cpu.onednn_takes_half(d.name)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _float_check(input, "GeluKernelImpl")
    if approximate != "none":
        return Gelu.apply(input, approximate=approximate)
    onednn = _onednn_gelu(input)  # (the half types' in float32, rounded once)
    return Gelu.apply(input, approximate=approximate, onednn=onednn, half_step=_gelu_half_step(input, onednn))
