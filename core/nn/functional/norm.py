"""``batch_norm``, ``layer_norm``, ``group_norm``, ``instance_norm``: composites of core reductions.

Running statistics are updated in place (no graph) with PyTorch's momentum rule and the unbiased
batch variance, as ``torch.nn.functional.batch_norm`` does.
"""

from __future__ import annotations

import math

import core
from core._arg_types import require_int_list
from core._memory_format import format_of
from core._tensor import Tensor
from core._warn_once import warn_once
from core.autograd.function import note_untracked
from core.nn.functional._norm_primitives import NativeBatchNorm, NativeGroupNorm, NativeLayerNorm
from core.nn.functional._pad import pad
from core.nn.functional.pooling import avg_pool2d
from core.ops.scalar_forms import add_s

__all__ = ["batch_norm", "layer_norm", "group_norm", "instance_norm", "local_response_norm", "rms_norm"]


def _copy_running(running: Tensor, value: Tensor) -> None:
    """Instance norm's running statistics written outside an op (a captured step can't replay it)."""
    note_untracked("it updates running statistics outside an op")
    running._data[...] = value.detach()._data.astype(running._data.dtype)
    running._vc[0] += 1


def _check_mixed_dtypes(input: Tensor, *params) -> None:
    """PyTorch's CPU normalisation kernels (``check_mixed_data_type``): parameters whose dtype differs from the
    input's are allowed only as float32 ones for a float16 or bfloat16 input (Whisper's float32 LayerNorm on a
    model made half raises so)."""
    present = [p for p in params if p is not None]
    if input.device.type != "cpu" or all(p.dtype is input.dtype for p in present):
        return
    if any(p.dtype is not core.float32 for p in present):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    if input.dtype not in (core.float16, core.bfloat16):
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def batch_norm(input: Tensor, running_mean, running_var, weight=None, bias=None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    if input.ndim == 0:
        raise RuntimeError("batch_norm(): input must have at least 2 dimensions")
    if training and input.shape[0] * math.prod(input.shape[2:]) == 1:  # (PyTorch's _verify_batch_size)
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
    if input.numel() == 0:  # PyTorch's: a copy (not a view, so the gradient chain holds), scaled by weight[0]
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        return out + bias[0] if bias is not None else out
    if input.ndim == 1:  # (PyTorch counts no channels in a 1-d input, then reads its size(1))
        if running_mean is None and not training:
            raise RuntimeError("running_mean must be defined in evaluation mode")
        if running_mean is not None and running_mean.numel():
            raise RuntimeError(f"running_mean should contain 0 elements not {running_mean.numel()}")
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    channels = input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight), ("bias", bias)):
        if t is not None and t.numel() != channels:  # a layer built for another channel count
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    _check_mixed_dtypes(input, weight, bias, running_mean, running_var)
    return NativeBatchNorm.apply(input, weight, bias, running_mean=running_mean, running_var=running_var,
                                 training=training, momentum=momentum, eps=eps)


def _normalized_shape(input: Tensor, normalized_shape, weight, bias, star: str = "*, ") -> tuple:
    """PyTorch's checks of layer_norm's and rms_norm's arguments, in its order; the normalized shape as a tuple."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(t.shape)} and normalized_shape = {list(shape)}")
    if input.ndim < len(shape) or tuple(input.shape[input.ndim - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[{star}{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    return shape


def layer_norm(input: Tensor, normalized_shape, weight=None, bias=None, eps: float = 1e-5) -> Tensor:
    normalized_shape = require_int_list("layer_norm", "normalized_shape", 2, normalized_shape, single=False)
    k = len(_normalized_shape(input, normalized_shape, weight, bias))
    _check_mixed_dtypes(input, weight, bias)
    return NativeLayerNorm.apply(input, weight, bias, k=k, eps=eps)


def rms_norm(input: Tensor, normalized_shape, weight=None, eps=None) -> Tensor:
    normalized_shape = require_int_list("rms_norm", "normalized_shape", 2, normalized_shape, single=False)
    shape = _normalized_shape(input, normalized_shape, weight, None, star="*")  # (PyTorch's message: "[*2, 3]")
    dims = tuple(range(input.ndim - len(shape), input.ndim))
    # NOTE: PyTorch's composite upcasts bfloat16/float16 to float32 (its eps default is float32's too) and rounds
    # once, after the weight (grad_fn ToCopyBackward0)
    x = input.float() if input.dtype in (core.bfloat16, core.float16) else input
    if eps is None:
        eps = core.finfo(x.dtype).eps
    out = x * core.rsqrt(add_s(x.pow(2).mean(dims, keepdim=True), eps))  # (C++'s add of a Scalar: AddBackward1)
    if weight is not None:
        if weight.dtype != input.dtype:  # (PyTorch's fallback from its fused kernel, which then casts back)
            warn_once("rms_norm dtypes", f"Mismatch dtype between input and weight: input dtype = "
                      f"{_CPP_NAMES.get(input.dtype, input.dtype)}, weight dtype = "
                      f"{_CPP_NAMES.get(weight.dtype, weight.dtype)}, Cannot dispatch to fused implementation.")
        out = out * weight
    # NOTE: as PyTorch's composite, the result in the input's suggested format (a CloneBackward0 where that copies:
    # a transposed input's result is contiguous, a channels-last image's stays channels-last), then cast back
    out = out.contiguous(memory_format=format_of(input._data))
    return out if out.dtype == input.dtype else out.to(input.dtype)


# dtypes as PyTorch's C++ messages name them
_CPP_NAMES = {core.float32: "float", core.float64: "double", core.float16: "c10::Half", core.bfloat16: "c10::BFloat16"}


def group_norm(input: Tensor, num_groups: int, weight=None, bias=None, eps: float = 1e-5) -> Tensor:
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    c, shape = input.shape[1], list(input.shape)
    grouped = [input.shape[0] * c // num_groups, num_groups, *shape[2:]]
    if grouped[0] * math.prod(grouped[2:]) == 1:  # (PyTorch's _verify_batch_size on the grouped shape)
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {grouped}")
    return native_group_norm_outputs(input, num_groups, weight, bias, eps)[0]


def native_group_norm_outputs(input: Tensor, num_groups: int, weight, bias, eps: float, exact64: bool = False,
                              flat=None):
    """``(output, mean, rstd)`` of ATen's ``native_group_norm`` after its input checks (in its order), all three
    outputs of one ``NativeGroupNormBackward0`` node; ``exact64``: float64 in the kernel's arithmetic too; ``flat``:
    the (N, C, HxW) shape an input of another shape is read as."""
    c, shape = (input.shape[1] if flat is None else flat[1]), list(input.shape)
    if num_groups <= 0:  # (then ATen's check_group_norm_inputs, in its order)
        raise RuntimeError(f"Expected num groups to be greater than 0, got {num_groups}")
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input "
                           f"of shape {shape} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):  # NOTE: ATen's bias message shows the weight's shape
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, but "
                               f"got {name} of shape {[0] if weight is None else list(weight.shape)} and input of "
                               f"shape {shape}")
    _check_mixed_dtypes(input, weight, bias)
    return NativeGroupNorm.apply(input, weight, bias, groups=num_groups, eps=eps, exact64=exact64, flat=flat)


def instance_norm(input: Tensor, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats: bool = True, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """PyTorch's route: batch_norm over the (1, N*C, ...) view with the weights and running statistics repeated N
    times (its rounding, bit for bit), the running statistics then the mean of their N updated copies, and the
    result viewed back (``grad_fn=<ViewBackward0>``)."""
    if use_input_stats:
        spatial = 1
        for n in input.shape[2:]:
            spatial *= n
        if spatial == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {input.shape}")
    b, c = input.shape[0], input.shape[1]
    stacked = input.contiguous().view((1, b * c) + tuple(input.shape[2:]))
    mean_, var_ = (None if t is None else t.repeat(b) for t in (running_mean, running_var))
    out = batch_norm(stacked, mean_, var_, None if weight is None else weight.repeat(b),
                     None if bias is None else bias.repeat(b), use_input_stats, momentum, eps)
    for running, copies in ((running_mean, mean_), (running_var, var_)):
        if running is not None and use_input_stats:
            _copy_running(running, copies.view(b, c).mean(0))
    return out.view(input.shape)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Tensor:
    if input.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {input.dim()} "
                         "dimensions)")  # (torch's message, its line continuation's spaces included)
    if input.numel() == 0:  # (torch hands an empty input back as it is, an integer one too)
        return input
    sq = (input * input).unsqueeze(1)
    shape = sq.shape
    sq = sq.reshape(shape[0], 1, shape[2], math.prod(shape[3:]))  # (not -1: a batch may be 0)
    sq = pad(sq, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(sq, (size, 1), stride=1).reshape(shape).squeeze(1)
    return input / (div * alpha + k) ** beta
