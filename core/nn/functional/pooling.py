"""``max_pool1d/2d``, ``avg_pool1d/2d``, ``adaptive_avg_pool1d/2d`` with PyTorch's argument rules."""

from __future__ import annotations

from core._arg_types import require_int_list, require_tensors
from core._dtype import SCALAR_NAMES
from core._memory_format import in_suggested_format
from core._tensor import Tensor, new_tensor
from core.nn.functional._pool import (
    AdaptiveAvgPool,
    AvgPool,
    Geometry,
    MaxPool,
    adaptive_output_size,
    check_image_not_empty,
    divisor_map,
    indices_of,
    mean_over_image,
)
from core.nn.functional._pool_checks import pool2d_shape_check, pool_output_size
from core.nn.functional.conv import pair
from core.ops._util import xp_of

__all__ = ["max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d"]


def _as4d(input: Tensor, name: str):
    if input.ndim == 3:
        return input.unsqueeze(0), True
    if input.ndim != 4:
        raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, but got {list(input.shape)}"
                           if name else f"non-empty 3D or 4D (batch mode) tensor expected for input, but got "
                           f"{list(input.shape)}")
    return input, False


def _pool2d_input(input: Tensor, fn: str):
    """max_pool2d's and avg_pool2d's input checks in PyTorch's words, then ``_as4d``: avg_pool2d reads
    ``size(-3)`` first (an IndexError below 3 dims); max_pool2d refuses other ranks without naming the shape; both
    refuse an empty channel, height or width (a 0 batch is allowed)."""
    nd = input.ndim
    if fn == "avg_pool2d" and nd < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(nd, 1)}, {max(nd, 1) - 1}], "
                         "but got -3)")
    if fn == "max_pool2d" and nd not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if nd not in (3, 4) or 0 in input.shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, "
                           f"but got:{list(input.shape)}")
    return _as4d(input, "")


def _two(fn: str, name: str, value, kind: str = "be either") -> tuple:
    """A 2-d pooling's size as two ints (one int repeated), else PyTorch's RuntimeError for that argument."""
    if isinstance(value, (list, tuple)) and len(value) not in (1, 2):
        raise RuntimeError(f"{fn}: {name} must {kind} a single int, or a tuple of two ints")
    return pair(value, 2, name)


def _geometry(x: Tensor, kernel_size, stride, padding, dilation, ceil_mode, fn: str = "max_pool2d") -> Geometry:
    k = _two(fn, "kernel_size", kernel_size, "either be")
    s = k if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else \
        _two(fn, "stride", stride, "either be omitted,")
    p, d = _two(fn, "padding", padding, "either be"), _two(fn, "dilation", dilation)
    out = [pool_output_size(x.shape[2 + i], k[i], p[i], s[i], d[i], ceil_mode) for i in range(2)]
    pool2d_shape_check(k, s, p, d, x.shape[1], x.shape[2:], out)
    return Geometry(tuple(x.shape[2:]), k, s, p, d, ceil_mode)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    fn = "max_pool2d_with_indices" if return_indices else "max_pool2d"
    require_tensors(fn, input=(1, input))
    kernel_size, stride, padding, dilation = _sizes(fn, ("kernel_size", "stride", "padding", "dilation"),
                                                    (kernel_size, stride, padding, dilation))
    if input.is_quantized and not return_indices:  # (a converted model's MaxPool2d: the integers' maximum)
        from core._quantized_ops import quantized_max_pool2d

        return quantized_max_pool2d(input, kernel_size, stride or (), padding, dilation, ceil_mode)
    x, unbatched = _pool2d_input(input, "max_pool2d")
    geo = _geometry(x, kernel_size, stride, padding, dilation, ceil_mode)
    ctx_out = MaxPool.apply(x, geo=geo, given=(*map(_as_given, (kernel_size, stride, padding, dilation)), ceil_mode))
    out = ctx_out.squeeze(0) if unbatched else ctx_out
    if not return_indices:
        return out
    node = ctx_out.grad_fn
    arg = node.arg if node is not None else _argmax(x, geo)
    idx = new_tensor(in_suggested_format(indices_of(arg, geo, xp_of(x._data)), x._data))
    return out, (idx.squeeze(0) if unbatched else idx)


def _argmax(x: Tensor, geo: Geometry):
    """The window argmax again (when no graph kept it): one extra forward of the pooling."""
    ctx = MaxPool._backward_cls()
    MaxPool.forward(ctx, x, geo=geo)
    return ctx.arg


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    require_tensors("avg_pool2d", input=(1, input))
    kernel_size, stride, padding = _sizes("avg_pool2d", ("kernel_size", "stride", "padding"),
                                          (kernel_size, stride, padding))
    x, unbatched = _pool2d_input(input, "avg_pool2d")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    geo = _geometry(x, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d")
    div = divisor_map(geo, count_include_pad, divisor_override, xp_of(x._data))
    if not isinstance(div, int):
        div = div.astype(x._data.dtype) if x.is_floating_point() else div
    shown = (*map(_as_given, (kernel_size, stride, padding)), ceil_mode, count_include_pad, divisor_override, x)
    out = AvgPool.apply(x, geo=geo, divisor=div, given=shown)
    return out.squeeze(0) if unbatched else out


def adaptive_avg_pool2d(input, output_size):
    if isinstance(input, Tensor) and input.is_quantized:  # (a converted model's AdaptiveAvgPool2d)
        from core._quantized_ops import quantized_adaptive_avg_pool2d

        return quantized_adaptive_avg_pool2d(input, output_size)
    oh, ow = adaptive_output_size("adaptive_avg_pool2d", input, output_size, 2)
    if oh < 0 or ow < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{oh}, {ow}}}")
    if (oh, ow) == (1, 1):  # NOTE: PyTorch's kernel takes the mean over H and W here (its sum order, MeanBackward1)
        return mean_over_image(input, 2)
    x, _ = _as4d(input, "adaptive_avg_pool2d")
    check_image_not_empty("adaptive_avg_pool2d", input, 2)
    if not x.is_floating_point():
        name = x.dtype.name
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for '{SCALAR_NAMES.get(name, name)}'")
    return AdaptiveAvgPool.apply(input, out_hw=(oh, ow))  # (an unbatched image too: torch's node, no squeeze)


def _pool1d(fn, input, *args, **kwargs):
    """A 1-d pooling as the 2-d one over a height of 1."""
    if input.ndim not in (2, 3):  # (PyTorch's checkDimRange, naming the 1-d function)
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {fn.__name__.replace('2d', '1d')})")
    out = fn(input.unsqueeze(-2), *args, **kwargs)
    if isinstance(out, tuple):
        return tuple(o.squeeze(-2) for o in out)
    return out.squeeze(-2)


def _as_given(size) -> tuple:
    """A 2-d pooling's size as PyTorch's node keeps it (``_saved_kernel_size``...): an int twice, None as ()."""
    return () if size is None else (size, size) if isinstance(size, int) else tuple(size)


def _sizes(fn: str, names: tuple, values: tuple) -> list:
    """The size arguments (from position 2) as PyTorch's parser reads them: ints or lists of ints, else its
    TypeError; None stays None."""
    return [None if v is None else require_int_list(fn, name, i + 2, v)
            for i, (name, v) in enumerate(zip(names, values))]


def _single(value, empty_ok: bool, refusal):
    """A 1-d pooling's size as one int: an int or a one-element list; an empty one (a stride) is None, meaning the
    kernel size; any other length raises ``refusal(len)``."""
    if value is None or isinstance(value, int):
        return value
    if not value and empty_ok:
        return None
    if len(value) != 1:
        raise RuntimeError(refusal(len(value)))
    return value[0]


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    fn = "max_pool1d_with_indices" if return_indices else "max_pool1d"
    require_tensors(fn, input=(1, input))
    kernel_size, stride, padding, dilation = _sizes(fn, ("kernel_size", "stride", "padding", "dilation"),
                                                    (kernel_size, stride, padding, dilation))
    if not return_indices:  # (with indices, max_pool2d's checks speak, as in PyTorch)
        _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)
    k = _single(kernel_size, False, lambda n: f"expected kernel_size to be a single int, got {n} values")
    s = _single(stride, True, lambda n: f"expected stride to be a single int, got {n} values")
    p = _single(padding, False, lambda n: f"expected padding to be a single int, got {n} values")
    d = _single(dilation, False, lambda n: f"expected dilation to be a single int, got {n} values")
    return _pool1d(max_pool2d, input, (1, k), None if s is None else (1, s), (0, p), (1, d), ceil_mode,
                   return_indices)


def _check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode) -> None:
    """PyTorch's ``max_pool1d`` checks: a (C, L) or (N, C, L) input with C, L > 0, one size each (an empty stride
    too), sizes greater than zero, a padding from 0 to half the kernel, at least one window."""
    if input.ndim not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(input.shape)}")
    for name, value, kind in (("kernel_size", kernel_size, "an int, list of ints or tuple of ints"),
                              ("stride", stride, "None, an int, list of ints, or tuple of ints"),
                              ("padding", padding, "an int, list of ints, or tuple of ints"),
                              ("dilation", dilation, "an int, list of ints or tuple of ints")):
        _single(value, name == "stride", lambda n, name=name, kind=kind:
                f"max_pool1d() {name} must be {kind} of size 1 but got size {n}")
    for name, value in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
        v = _single(value, True, None)
        if v is not None and v <= 0:
            raise RuntimeError(f"max_pool1d() {name} must be greater than zero, but got {v}")
    k, p = _single(kernel_size, False, None), _single(padding, False, None)
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    s = _single(stride, True, None)
    out = pool_output_size(input.shape[-1], k, p, k if s is None else s, _single(dilation, False, None), ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    require_tensors("avg_pool1d", input=(1, input))
    kernel_size, stride, padding = _sizes("avg_pool1d", ("kernel_size", "stride", "padding"),
                                          (kernel_size, stride, padding))
    k, s, p = (_single(v, name == "stride", lambda n, name=name: f"avg_pool1d() argument '{name}' should contain "
                       f"one int (got {n})")
               for name, v in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding)))
    return _pool1d(avg_pool2d, input, (1, k), None if s is None else (1, s), (0, p), ceil_mode, count_include_pad)


def adaptive_avg_pool1d(input, output_size):
    size = adaptive_output_size("adaptive_avg_pool1d", input, output_size, 1, with_default=False)[0]
    return _pool1d(adaptive_avg_pool2d, input, (1, size))
