"""Pooling a too-small input, or with a zero/negative kernel, stride or dilation, or too much padding, raises what
PyTorch 2.13 raises, in its order and words (#19): max_pool1d's own "Invalid computed output size", the 2-d/3-d
"Output size is too small", avg_pool3d's "input image ... smaller than kernel size" (padding or not), "stride should
not be zero", fractional pooling's "too large relative to input"; where the sizes fit, the output shapes match."""

from __future__ import annotations

import pytest

import core
from tests.core.printed_twin import shown

TOO_SMALL = [
    'F.max_pool1d(torch.randn(1,1,2), 3)',
    'F.max_pool1d(torch.randn(1,1,2, requires_grad=True), 3)',
    'F.max_pool1d(torch.randn(1,2), 3)',
    'F.max_pool1d(torch.randn(0,1,2), 3)',
    'F.max_pool1d(torch.randn(1,1,2), 2, dilation=2)',
    'F.max_pool1d(torch.randn(1,1,1), 10, stride=1)',
    'torch.max_pool1d(torch.randn(1,1,2), 3)',
    'F.max_pool1d(torch.randn(1,1,2), 3, return_indices=True)',
    'F.max_pool2d(torch.randn(1,1,2,2), 3)',
    'F.max_pool3d(torch.randn(1,1,2,2,2), 3)',
    'F.avg_pool1d(torch.randn(1,1,2), 3)',
    'F.avg_pool2d(torch.randn(1,2,2), 3)',
    'F.avg_pool3d(torch.randn(1,1,2,2,2), 3)',
    'F.avg_pool3d(torch.randn(1,1,2,2,2), 3, ceil_mode=True)',
    'F.avg_pool3d(torch.randn(1,1,2,2,2), 3, padding=1)',
    'F.avg_pool3d(torch.randn(0,1,2,2,2), 3)',
    'F.avg_pool3d(torch.randn(1,2,2,2, requires_grad=True), 3)',
    'F.lp_pool1d(torch.randn(1,1,2), 2, 3)',
    'F.lp_pool2d(torch.randn(1,1,2,2), 2, 3)',
    'F.lp_pool3d(torch.randn(1,1,2,2,2), 2, 3)',
    'F.lp_pool3d(torch.randn(1,1,2,2,2), 2, 3, ceil_mode=True)',
    'nn.MaxPool2d(3)(torch.randn(1,1,2,2))',
    'nn.AvgPool3d(3)(torch.randn(1,1,2,2,2))',
]

BAD_SIZES = [
    'F.max_pool1d(torch.randn(1,1,4), 2, stride=0)',
    'F.max_pool1d(torch.randn(1,1,4), 2, stride=0, return_indices=True)',
    'F.max_pool1d(torch.randn(1,1,4), 3, padding=2, dilation=2)',
    'F.max_pool1d(torch.randn(1,1,4), 3, padding=2, dilation=2, return_indices=True)',
    'F.max_pool1d(torch.randn(1,1,4), 2, padding=-1)',
    'F.max_pool1d(torch.randn(1,1,4), 2, padding=-1, return_indices=True)',
    'F.max_pool2d(torch.randn(1,1,4,4), 0)',
    'F.max_pool2d(torch.randn(1,1,4,4), 0, stride=1)',
    'F.max_pool2d(torch.randn(1,1,4,4), (2,0), stride=1)',
    'F.max_pool2d(torch.randn(1,1,4,4), 2, stride=-1)',
    'F.max_pool2d(torch.randn(1,1,4,4), 2, dilation=0)',
    'F.max_pool2d(torch.randn(1,1,4,4), 3, padding=2, dilation=2)',
    'F.avg_pool1d(torch.randn(1,1,4), 2, stride=0)',
    'F.avg_pool1d(torch.randn(1,1,4), 0, stride=1)',
    'F.avg_pool1d(torch.randn(1,1,4), 2, stride=-1)',
    'F.avg_pool2d(torch.randn(1,1,4,4), 0)',
    'F.avg_pool2d(torch.randn(1,1,4,4), 2, padding=2)',
    'F.max_pool3d(torch.randn(1,1,4,4,4), 2, stride=0)',
    'F.max_pool3d(torch.randn(1,1,4,4,4), 0, stride=1)',
    'F.max_pool3d(torch.randn(1,1,4,4,4), 2, stride=-1)',
    'F.max_pool3d(torch.randn(1,1,4,4,4), 2, dilation=0)',
    'F.max_pool3d(torch.randn(1,1,4,4,4), 3, padding=2, dilation=2)',
    'F.avg_pool3d(torch.randn(1,1,4,4,4), 0)',
    'F.avg_pool3d(torch.randn(1,1,4,4,4), 2, stride=-1)',
    'F.lp_pool1d(torch.randn(1,1,2), 2, 3, stride=0)',
    'F.lp_pool2d(torch.randn(1,1,2,2), 2, 0)',
    'F.lp_pool3d(torch.randn(1,1,3,3,3), 2, 3, stride=0)',
]

FRACTIONAL = [
    'F.fractional_max_pool2d(torch.randn(1,1,2,2), 3, output_size=1)',
    'F.fractional_max_pool2d(torch.randn(1,1,5,4), (2,3), output_size=(4,3))',
    'F.fractional_max_pool2d(torch.randn(1,1,5,5), 2, output_ratio=(0.5,1.0))',
    'F.fractional_max_pool2d(torch.randn(1,1,5,5), 2, output_ratio=0.5)',
    'F.fractional_max_pool3d(torch.randn(1,1,2,2,2), 3, output_size=1)',
    'F.fractional_max_pool3d(torch.randn(1,1,6,7,8), (2,3,4), output_size=(5,5,6))',
]

FITTING = [
    'print(F.max_pool1d(torch.randn(1,1,2), 3, ceil_mode=True).shape)',
    'print(F.max_pool1d(torch.randn(1,1,7), 3, stride=2, ceil_mode=True, padding=1).shape)',
    'print(F.max_pool2d(torch.randn(1,1,7,6), 3, stride=2, ceil_mode=True, padding=1).shape)',
    'print(F.avg_pool2d(torch.randn(1,1,2,2), 3, ceil_mode=True).shape)',
    'print(F.avg_pool3d(torch.randn(1,1,7,6,5), 3, stride=2, ceil_mode=True, padding=1).shape)',
    'print(F.max_pool3d(torch.randn(1,1,7,6,5), 3, stride=2, ceil_mode=True, padding=1, dilation=2).shape)',
    'print(F.max_pool3d(torch.randn(1,1,2,2,2), 3, ceil_mode=True).shape)',
    'print(F.lp_pool2d(torch.randn(1,1,2,2), 2, 3, ceil_mode=True).shape)',
]


@pytest.mark.parametrize("snippet", TOO_SMALL + BAD_SIZES + FRACTIONAL + FITTING)
def test_pooling_sizes_refuse_and_fit_as_torch(snippet, torch):
    assert shown(core, snippet) == shown(torch, snippet)
