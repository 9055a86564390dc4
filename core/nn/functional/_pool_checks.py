"""PyTorch's pooling argument checks (ATen's ``Pool.h``), in its order and words, for the 1-d to 3-d pools.

A pool first computes each output size (``pooling_output_shape``: a zero stride, a negative pad or one past half
the effective kernel refuse there, dimension by dimension), then runs the shape check (kernel, stride and dilation
greater than zero, average pool3d's input no smaller than the kernel, pad at most half the kernel, every output size
at least 1). Users meet these when a kernel is too large for a small input; the texts here are torch's.
"""

from __future__ import annotations

__all__ = ["pool_output_size", "pool2d_shape_check", "pool3d_shape_check"]


def pool_output_size(size: int, kernel: int, pad: int, stride: int, dilation: int, ceil_mode: bool) -> int:
    """torch's ``pooling_output_shape``: the number of windows along one dimension, after its three checks."""
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if pad < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {pad}")
    if pad > ((kernel - 1) * dilation + 1) // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={pad}, "
                           f"kernel_size={kernel} and dilation={dilation}")
    span = size + 2 * pad - dilation * (kernel - 1) - 1
    out = (span + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:  # (the last window starts inside the input)
        out -= 1
    return out


def _positive(k, s, d, names: tuple) -> None:
    """Kernel, stride and dilation each greater than zero, named per dimension as torch names them."""
    for what, values, letter in (("kernel size", k, "k"), ("stride", s, "d"), ("dilation", d, "dilation")):
        if min(values) <= 0:
            got = " ".join(f"{letter}{n}: {v}" for n, v in zip(names, values))
            raise RuntimeError(f"{what} should be greater than zero, but got {got}")


def pool2d_shape_check(k, s, p, d, planes: int, in_hw, out_hw) -> None:
    """torch's ``pool2d_shape_check`` (its input-rank check aside, which the callers make first)."""
    _positive(k, s, d, ("H", "W"))
    if k[1] // 2 < p[1] or k[0] // 2 < p[0]:
        raise RuntimeError("pad should be smaller than or equal to half of kernel size, but got "
                           f"padW = {p[1]}, padH = {p[0]}, kW = {k[1]}, kH = {k[0]}")
    if min(out_hw) < 1:
        raise RuntimeError(f"Given input size: ({planes}x{in_hw[0]}x{in_hw[1]}). Calculated output size: "
                           f"({planes}x{out_hw[0]}x{out_hw[1]}). Output size is too small")


def pool3d_shape_check(k, s, p, d, planes: int, in_thw, out_thw, check_input_size: bool) -> None:
    """torch's ``pool3d_shape_check``; average pooling (``check_input_size``) refuses an input smaller than the
    kernel in any dimension, whatever the padding."""
    _positive(k, s, d, ("T", "H", "W"))
    if check_input_size and any(i < kk for i, kk in zip(in_thw, k)):
        raise RuntimeError(f"input image (T: {in_thw[0]} H: {in_thw[1]} W: {in_thw[2]}) smaller than kernel size "
                           f"(kT: {k[0]} kH: {k[1]} kW: {k[2]})")
    if any(kk // 2 < pp for kk, pp in zip(k, p)):
        raise RuntimeError("pad should be smaller than or equal to half of kernel size, but got "
                           f"kT: {k[0]} kW: {k[2]} kH: {k[1]} padT: {p[0]} padW: {p[2]} padH: {p[1]}")
    if min(out_thw) < 1:
        raise RuntimeError(f"Given input size: ({planes}x{'x'.join(map(str, in_thw))}). Calculated output size: "
                           f"({planes}x{'x'.join(map(str, out_thw))}). Output size is too small")
