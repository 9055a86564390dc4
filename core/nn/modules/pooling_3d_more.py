"""``AdaptiveMaxPool3d``, ``FractionalMaxPool2d``/``3d`` and the legacy ``CrossMapLRN2d``, with PyTorch's
arguments, checks and printing.

``CrossMapLRN2d`` scales each channel by ``(k + alpha/size * S)^-beta``, where S sums squares over a window of
channels slid as PyTorch's legacy function slides it (its quirks at the edges included). Its backward is that
function's own formula, with its own window of channels (not the exact derivative of the forward at the edges),
written with differentiable core ops.
"""

from __future__ import annotations

import numpy as np

import core
from core._tensor import new_tensor
from core.autograd.function import Function
from core.nn.functional.fractional_pool import fractional_max_pool2d, fractional_max_pool3d
from core.nn.functional.pooling_3d import adaptive_max_pool3d
from core.nn.module import Module
from core.nn.modules.sliding import _AdaptiveMaxPoolNd

__all__ = ["AdaptiveMaxPool3d", "FractionalMaxPool2d", "FractionalMaxPool3d", "CrossMapLRN2d"]


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    _fn = staticmethod(adaptive_max_pool3d)


class _FractionalMaxPoolNd(Module):
    _nd = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None) -> None:
        super().__init__()
        name, nd = type(self).__name__, self._nd
        self.kernel_size = _ntuple(kernel_size, nd)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = _ntuple(output_size, nd) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, nd) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        pool = fractional_max_pool2d if self._nd == 2 else fractional_max_pool3d
        return pool(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                    _random_samples=self._random_samples)


def _ntuple(value, n: int):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]

    _nd = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    __constants__ = ["kernel_size", "return_indices", "output_size", "output_ratio"]

    _nd = 3


class _CrossMapLRN2d(Function):
    """PyTorch's legacy function: the forward's sliding sum and the backward's own window, as it computes them."""

    node_name = "CrossMapLRN2dBackward"

    @staticmethod
    def forward(ctx, input, *, size, alpha, beta, k):
        x = input._data
        sq = x * x
        channels, pre = x.shape[1], int((size - 1) / 2 + 1)
        scale = np.empty_like(x)
        scale[:, 0] = 0
        for c in range(min(pre, channels)):
            scale[:, 0] += sq[:, c]
        for c in range(1, channels):  # NOTE: the slide of PyTorch's loop (it subtracts only once c > pre)
            scale[:, c] = scale[:, c - 1]
            if c < channels - pre + 1:
                scale[:, c] += sq[:, c + pre - 1]
            if c > pre:
                scale[:, c] -= sq[:, c - pre]
        scale *= alpha / size
        scale += k
        out = scale ** -beta
        out *= x
        ctx.size, ctx.alpha, ctx.beta = size, alpha, beta
        ctx.save_for_backward(input, new_tensor(out), new_tensor(scale))
        return out.copy()

    @staticmethod
    def backward(ctx, grad):
        input, out, scale = ctx._unpacked
        channels, size = input.shape[1], ctx.size
        start = int(size - (size - 1) / 2)
        window = np.zeros((channels, channels))  # channel c sums the ratios of [c - start, c - start + size - 1]
        for c in range(channels):
            window[c, max(c - start, 0):max(min(c - start + size, channels), 0)] = 1
        ratio = grad * out / scale
        accum = core.einsum("dc,nchw->ndhw", core.tensor(window, dtype=grad.dtype, device=grad.device), ratio)
        return scale.pow(-ctx.beta) * grad - (2 * ctx.alpha * ctx.beta / size) * input * accum


class CrossMapLRN2d(Module):
    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        return _CrossMapLRN2d.apply(input, size=self.size, alpha=self.alpha, beta=self.beta, k=self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
