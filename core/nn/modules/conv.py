"""``Conv1d``, ``Conv2d``, ``ConvTranspose1d``, ``ConvTranspose2d`` with PyTorch's init, checks and repr."""

from __future__ import annotations

from core.nn import functional as F
from core.nn.module import Module
from core.nn.modules.linear import empty_param, kaiming_reset, register_bias

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d"]

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _reversed_padding(padding, dilation, kernel_size) -> list:
    """F.pad's argument for a non-zeros padding mode (last dim first, as F.pad wants)."""
    if isinstance(padding, str):
        out = []
        for d, k in zip(reversed(dilation), reversed(kernel_size)):
            total = d * (k - 1)
            out += [total // 2, total - total // 2]
        return out if padding == "same" else [0, 0] * len(kernel_size)
    return [p for p in reversed(padding) for _ in range(2)]


def _ntuple(value, nd: int) -> tuple:
    """PyTorch's ``_pair``/``_single`` on a layer's argument: a number repeated ``nd`` times, a sequence as a tuple
    of its own length (``stride=[2]`` stays ``(2,)``: EfficientNet's same-padding convolutions widen it later)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * nd


def _tuples(nd, kernel_size, stride, padding, dilation, output_padding=0) -> tuple:
    """The layer's arguments as tuples (a padding string stays a string), as each of PyTorch's classes makes them
    before its base's ``__init__``."""
    padding = padding if isinstance(padding, str) else _ntuple(padding, nd)
    return (_ntuple(kernel_size, nd), _ntuple(stride, nd), padding, _ntuple(dilation, nd),
            _ntuple(output_padding, nd))


class _ConvNd(Module):
    """Shared construction: weight (out, in/groups, *k) or, transposed, (in, out/groups, *k); the sizes arrive as
    tuples (PyTorch's signature), their length is the number of spatial dims."""

    __constants__ = [
        "stride", "padding", "dilation", "groups", "padding_mode", "output_padding", "in_channels", "out_channels",
        "kernel_size"]

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed, output_padding,
                 groups, bias, padding_mode, device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {set(_PADDING_MODES)}, "
                             f"but got padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.dilation, self.transposed, self.output_padding = dilation, transposed, output_padding
        self.groups, self.padding_mode = groups, padding_mode
        self._reversed_padding_repeated_twice = _reversed_padding(padding, dilation, kernel_size)
        shape = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = empty_param(*shape, *kernel_size, device=device, dtype=dtype)
        register_bias(self, bias, out_channels, device, dtype)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        kaiming_reset(self.weight, self.bias)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):  # each against its own length, as PyTorch's
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s

    def _conv_forward(self, input, weight, bias):
        fn = getattr(F, _CONV[len(self.kernel_size)])  # looked up per call: F.conv2d dispatches __torch_function__
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return fn(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return fn(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


_CONV = {1: "conv1d", 2: "conv2d", 3: "conv3d"}
_CONV_TRANSPOSE = {1: "conv_transpose1d", 2: "conv_transpose2d", 3: "conv_transpose3d"}


class Conv1d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        kernel_size, stride, padding, dilation, output_padding = _tuples(1, kernel_size, stride, padding, dilation)
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, False, output_padding,
                         groups, bias, padding_mode, device, dtype)


class Conv2d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        kernel_size, stride, padding, dilation, output_padding = _tuples(2, kernel_size, stride, padding, dilation)
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, False, output_padding,
                         groups, bias, padding_mode, device, dtype)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed, output_padding,
                 groups, bias, padding_mode, device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                         output_padding, groups, bias, padding_mode, device, dtype)

    def _output_padding(self, input, output_size) -> tuple:
        """The output padding that makes the output ``output_size`` (PyTorch's rule and error)."""
        if output_size is None:
            return self.output_padding
        nd = len(self.kernel_size)
        output_size = list(output_size)[-nd:]
        out = []
        for d in range(nd):
            size = input.shape[input.ndim - nd + d]
            lo = (size - 1) * self.stride[d] - 2 * self.padding[d] + self.dilation[d] * (self.kernel_size[d] - 1) + 1
            hi = lo + self.stride[d] - 1
            if not lo <= output_size[d] <= hi:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from "
                                 f"{[lo]} to {[hi]} (for an input of {list(input.shape[2:])})")
            out.append(output_size[d] - lo)
        return tuple(out)

    def forward(self, input, output_size=None):
        fn = getattr(F, _CONV_TRANSPOSE[len(self.kernel_size)])
        return fn(input, self.weight, self.bias, self.stride, self.padding, self._output_padding(input, output_size),
                  self.groups, self.dilation)


def _transposed_init(nd: int):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        kernel_size, stride, padding, dilation, output_padding = _tuples(nd, kernel_size, stride, padding, dilation,
                                                                         output_padding)
        _ConvTransposeNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, True,
                                  output_padding, groups, bias, padding_mode, device, dtype)

    return __init__


class ConvTranspose1d(_ConvTransposeNd):
    __init__ = _transposed_init(1)


class ConvTranspose2d(_ConvTransposeNd):
    __init__ = _transposed_init(2)
