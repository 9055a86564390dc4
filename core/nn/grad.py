"""``torch.nn.grad`` (also ``torch.nn.functional.grad``): a convolution's gradient with respect to its input or its
weight, given the gradient of its output, as ``conv{1,2,3}d_input`` and ``conv{1,2,3}d_weight``.

Each runs core's own convolution backward: the convolution is linear in the input (and in the weight), so the
gradient comes from ``autograd.grad`` of a convolution of a zero leaf of the asked shape. The result is
differentiable in ``grad_output`` and the other operand when they require grad, as torch's
(``ConvolutionBackwardBackward0`` there). A ``grad_output`` whose shape the convolution cannot produce raises
torch's ``RuntimeError``.
"""

from __future__ import annotations

import core

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input", "conv3d_weight"]

def _tuple(value, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _check_grad_output(grad_output, input_size, weight_size, stride, padding, dilation, n: int) -> None:
    """torch's shape check: ``grad_output`` must be the convolution's output shape."""
    expected = [input_size[0], weight_size[0]]
    for i in range(n):
        span = dilation[i] * (weight_size[2 + i] - 1) + 1
        expected.append((input_size[2 + i] + 2 * padding[i] - span) // stride[i] + 1)
    for dim, size in enumerate(expected):
        if grad_output.dim() != n + 2 or grad_output.shape[dim] != size:
            raise RuntimeError(f"Expected a tensor of dimension {n + 2} and tensor.size[{dim}] == {size} but got: "
                               f"dimension {grad_output.dim()} and tensor.size[{dim}] = {grad_output.shape[dim]}")


def _grad(n: int, wrt: str, given, size, grad_output, stride, padding, dilation, groups):
    stride, padding, dilation = _tuple(stride, n), _tuple(padding, n), _tuple(dilation, n)
    size = tuple(size)
    leaf = core.zeros(size, dtype=grad_output.dtype, device=grad_output.device, requires_grad=True)
    input_, weight = (leaf, given) if wrt == "input" else (given, leaf)
    _check_grad_output(grad_output, tuple(input_.shape), tuple(weight.shape), stride, padding, dilation, n)
    differentiable = core.is_grad_enabled() and (grad_output.requires_grad or given.requires_grad)
    with core.enable_grad():
        conv = getattr(core.nn.functional, f"conv{n}d")  # (read at call time: functional imports this module)
        out = conv(input_, weight, None, stride, padding, dilation, groups)
        (result,) = core.autograd.grad(out, leaf, grad_output, create_graph=differentiable)
    return result if differentiable else result.detach()


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of ``conv1d`` with respect to an input of shape ``input_size``."""
    return _grad(1, "input", weight, input_size, grad_output, stride, padding, dilation, groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of ``conv1d`` with respect to a weight of shape ``weight_size``."""
    return _grad(1, "weight", input, weight_size, grad_output, stride, padding, dilation, groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of ``conv2d`` with respect to an input of shape ``input_size``."""
    return _grad(2, "input", weight, input_size, grad_output, stride, padding, dilation, groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of ``conv2d`` with respect to a weight of shape ``weight_size``."""
    return _grad(2, "weight", input, weight_size, grad_output, stride, padding, dilation, groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of ``conv3d`` with respect to an input of shape ``input_size``."""
    return _grad(3, "input", weight, input_size, grad_output, stride, padding, dilation, groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of ``conv3d`` with respect to a weight of shape ``weight_size``."""
    return _grad(3, "weight", input, weight_size, grad_output, stride, padding, dilation, groups)
