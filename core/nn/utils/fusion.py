"""``nn.utils.fuse_conv_bn_eval`` / ``fuse_linear_bn_eval`` and their ``*_weights`` forms, as PyTorch's.

An eval-mode BatchNorm after a convolution or a linear layer is an affine map per channel, so it folds into the
layer's weight and bias: ``w * gamma / sqrt(var + eps)`` (per output channel; per input channel of a transposed
convolution) and ``(b - mean) * gamma / sqrt(var + eps) + beta``. The ``*_eval`` forms return a fused deep copy of
the layer; both modules must be in eval mode.
"""

from __future__ import annotations

import copy

import core
from core.nn.parameter import Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights"]


def _check_eval(layer, bn) -> None:
    if layer.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose: bool = False):
    """The fused convolution's ``(weight, bias)`` as parameters (missing bias, gamma or beta read as 0, 1, 0)."""
    w_dtype = conv_w.dtype
    b_dtype = conv_w.dtype if conv_b is None else conv_b.dtype
    conv_b = core.zeros_like(bn_rm) if conv_b is None else conv_b
    bn_w = core.ones_like(bn_rm) if bn_w is None else bn_w
    bn_b = core.zeros_like(bn_rm) if bn_b is None else bn_b
    rsqrt = core.rsqrt(bn_rv + bn_eps)
    shape = ([1, -1] if transpose else [-1, 1]) + [1] * (conv_w.dim() - 2)
    weight = (conv_w * (bn_w * rsqrt).reshape(shape)).to(dtype=w_dtype)
    bias = ((conv_b - bn_rm) * rsqrt * bn_w + bn_b).to(dtype=b_dtype)
    return Parameter(weight, conv_w.requires_grad), Parameter(bias, conv_b.requires_grad)


def fuse_conv_bn_eval(conv, bn, transpose: bool = False):
    """A copy of ``conv`` that computes ``bn(conv(x))`` (both in eval mode)."""
    _check_eval(conv, bn)
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                    bn.eps, bn.weight, bn.bias, transpose)
    return fused


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """The fused linear layer's ``(weight, bias)`` as parameters."""
    w_dtype = linear_w.dtype
    b_dtype = linear_w.dtype if linear_b is None else linear_b.dtype
    linear_b = core.zeros_like(bn_rm) if linear_b is None else linear_b
    scale = bn_w * core.rsqrt(bn_rv + bn_eps)
    weight = linear_w * scale.unsqueeze(-1).to(dtype=w_dtype)
    bias = ((linear_b - bn_rm) * scale + bn_b).to(dtype=b_dtype)
    return Parameter(weight, linear_w.requires_grad), Parameter(bias, linear_b.requires_grad)


def fuse_linear_bn_eval(linear, bn):
    """A copy of ``linear`` that computes ``bn(linear(x))`` (both in eval mode, features matching or bn's 1)."""
    _check_eval(linear, bn)
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError("To fuse, linear.out_features == bn.num_features or bn.num_features == 1, got "
                             f"linear.out_features={linear.out_features} and bn.num_features={bn.num_features}")
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                      bn.eps, bn.weight, bn.bias)
    return fused
