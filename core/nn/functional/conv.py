"""``conv1d``, ``conv2d``, ``conv_transpose1d/2d``: argument parsing and PyTorch's shape checks."""

from __future__ import annotations

from core import _cpu, _dtype
from core._arg_types import conv_arguments_error
from core._tensor import Tensor
from core.amp import _casting as _autocast
from core.nn.functional._conv import Conv, ConvInput, Spec
from core.ops._linalg_checks import _C_NAMES
from core.ops._util import check_same_device

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d"]

_DT_NAMES = _dtype.SCALAR_NAMES  # ATen's ScalarType names (BFloat16, ComplexFloat... too)


def pair(v, n: int = 2, name: str = "value") -> tuple:
    """An int or a sequence of ``n`` ints as a tuple of ``n`` ints."""
    if isinstance(v, (tuple, list)):
        if len(v) == 1:
            return tuple(int(v[0]) for _ in range(n))
        if len(v) != n:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match "
                               f"the convolution dimensions, but got {name}={list(v)}")
        return tuple(int(x) for x in v)
    return (int(v),) * n


def _check_dtypes(input: Tensor, weight: Tensor, bias, bias_first: bool = False) -> None:
    """PyTorch's dtype errors; a convolution (not a transposed one) compares the bias with the input first, so a
    float64 batch into ``nn.Conv2d`` names the bias, as torch does."""
    check_same_device(input, weight, bias)
    if bias_first:
        _check_bias(input, bias)
    if input.dtype is not weight.dtype:
        kind = input.dtype.name
        if kind in ("float32", "float64") or kind not in _DT_NAMES or kind in _MKLDNN_INPUTS \
                and not _cpu.onednn_takes_half(kind):  # (no oneDNN: ATen's own kernel's check words it)
            raise RuntimeError(f"expected scalar type {_DT_NAMES.get(kind, kind)} but found "
                               f"{_DT_NAMES.get(weight.dtype.name, weight.dtype.name)}")
        mkldnn = " or input should be a MKLDNN tensor and weight is a dense tensor" if kind in _MKLDNN_INPUTS else ""
        raise RuntimeError(f"Input type ({_type_string(input)}) and weight type ({_type_string(weight)}) should be "
                           f"the same{mkldnn}")  # (ATen's check_input_same_type_as_parameters)
    _check_bias(input, bias)


_MKLDNN_INPUTS = ("float16", "bfloat16")  # inputs ATen hands to oneDNN where the CPU converts them: its message says so
_LEGACY_TYPE_NAMES = {"float16": "torch.HalfTensor", "float32": "torch.FloatTensor", "float64": "torch.DoubleTensor"}


def _type_string(t: Tensor) -> str:
    """ATen's ``Tensor::toString()``: the legacy ``torch.FloatTensor`` name, else ``CPUBFloat16Type``."""
    name = t.dtype.name
    return _LEGACY_TYPE_NAMES.get(name) or f"CPU{_DT_NAMES.get(name, name)}Type"


def _check_bias(input: Tensor, bias) -> None:
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({_C_NAMES[input.dtype.name]}) and bias type "
                           f"({_C_NAMES[bias.dtype.name]}) should be the same")


def _batched(input: Tensor, nd: int, name: str):
    if input.ndim == nd + 1:
        return input.unsqueeze(0), True
    if input.ndim != nd + 2:
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but got input "
                           f"of size: {list(input.shape)}")
    return input, False


def _padding(padding, weight_hw, dilation, stride, nd: int):
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * nd
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        out = []
        for k, d in zip(weight_hw, dilation):
            total = d * (k - 1)
            out.append((total // 2, total - total // 2))
        return tuple(out)
    p = pair(padding, nd, "padding")
    if any(x < 0 for x in p):
        raise RuntimeError("negative padding is not supported")
    return tuple((x, x) for x in p)


def _conv(input, weight, bias, stride, padding, dilation, groups, nd: int, name: str):
    error = conv_arguments_error(name, (input, weight, bias, stride, padding, dilation, groups))
    if error is not None:
        raise error
    _check_dtypes(input, weight, bias, bias_first=True)
    x, unbatched = _batched(input, nd, name)
    stride, dilation = pair(stride, nd, "stride"), pair(dilation, nd, "dilation")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if weight.ndim != nd + 2:
        raise RuntimeError("weight should have at least three dimensions" if nd == 1 else
                           f"Expected {nd + 2}-dimensional weight for {nd + 2}-dimensional input {list(x.shape)}, but "
                           f"got {weight.ndim}-dimensional weight of size {list(weight.shape)} instead")
    if x.shape[1] != weight.shape[1] * groups or weight.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
                           f"{list(x.shape)} to have {weight.shape[1] * groups} channels, but got {x.shape[1]} "
                           "channels instead")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
                           f"{weight.shape[0]} elements, but got bias of size {list(bias.shape)} instead")
    pads = _padding(padding, weight.shape[2:], dilation, stride, nd)
    padded = [x.shape[2 + i] + sum(pads[i]) for i in range(nd)]
    eff = [dilation[i] * (weight.shape[2 + i] - 1) + 1 for i in range(nd)]
    if any(p < e for p, e in zip(padded, eff)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                           f"size: ({' x '.join(map(str, eff))}). Kernel size can't be greater than actual input size")
    if nd == 1:
        spec = Spec((1, stride[0]), ((0, 0), pads[0]), (1, dilation[0]), groups, True)
    else:
        spec = Spec(stride, pads, dilation, groups)
    out = Conv.apply(x, weight, bias, spec=spec)
    return out.squeeze(0) if unbatched else out


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, weight, bias = _autocast.lower(input, weight, bias)
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, weight, bias = _autocast.lower(input, weight, bias)
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, nd, name):
    _check_dtypes(input, weight, bias)
    x, unbatched = _batched(input, nd, name)
    stride, dilation = pair(stride, nd, "stride"), pair(dilation, nd, "dilation")
    padding, output_padding = pair(padding, nd, "padding"), pair(output_padding, nd, "output_padding")
    if x.shape[1] != weight.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected input "
                           f"{list(x.shape)} to have {weight.shape[0]} channels, but got {x.shape[1]} channels instead")
    for i in range(nd):
        if output_padding[i] >= max(stride[i], dilation[i]):
            raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                               f"output_padding_height: {output_padding[0]} output_padding_width: {output_padding[-1]} "
                               f"stride_height: {stride[0]} stride_width: {stride[-1]} dilation_height: "
                               f"{dilation[0]} dilation_width: {dilation[-1]}")
    out_hw = tuple((x.shape[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (weight.shape[2 + i] - 1)
                   + output_padding[i] + 1 for i in range(nd))
    if nd == 1:
        spec = Spec((1, stride[0]), ((0, 0), (padding[0], padding[0])), (1, dilation[0]), groups, True)
    else:
        spec = Spec(stride, tuple((p, p) for p in padding), dilation, groups)
    out = ConvInput.apply(x, weight, bias, spec=spec, in_hw=out_hw, transposed=True)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, weight, bias = _autocast.lower(input, weight, bias)
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                           "conv_transpose1d")


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, weight, bias = _autocast.lower(input, weight, bias)
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                           "conv_transpose2d")
