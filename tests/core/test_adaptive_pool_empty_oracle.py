"""Adaptive pools on empty inputs and to empty outputs behave as PyTorch 2.13's (#19): an empty spatial dim is
torch's "Expected input to have non-zero size for non-batch dimensions" (the average pools check only the pooled
dims, and their all-ones output takes torch's mean shortcut before any check), an output size of 0 or an empty
batch gives an empty result, a negative size names torch's whole output shape; channels-last inputs give torch's
strides, values and indices."""

from __future__ import annotations

import pytest

import core
from tests.core.printed_twin import shown

EMPTY_INPUTS = [
    'F.adaptive_avg_pool1d(torch.randn(1,2,0), 2)',
    'F.adaptive_avg_pool1d(torch.randn(2,0), 2)',
    'F.adaptive_avg_pool2d(torch.randn(1,2,0,4), 2)',
    'F.adaptive_avg_pool2d(torch.randn(1,2,4,0), 2)',
    'F.adaptive_avg_pool2d(torch.randn(2,0,4), 2)',
    'F.adaptive_avg_pool2d(torch.randn(1,2,0,4, requires_grad=True), 2)',
    'print(F.adaptive_avg_pool2d(torch.randn(1,0,4,4), 2).shape)',
    'print(F.adaptive_avg_pool2d(torch.randn(1,2,0,4), 1))',
    'print(F.adaptive_avg_pool3d(torch.randn(2,0,4,4), 1))',
    'F.adaptive_avg_pool3d(torch.randn(1,2,0,4,4), 2)',
    'F.adaptive_max_pool1d(torch.randn(1,2,0), 2)',
    'F.adaptive_max_pool2d(torch.randn(2,0,4), 2)',
    'y = F.adaptive_max_pool3d(torch.randn(0,2,4,4,4), 2, return_indices=True); print(y, y[0].stride())',
    'y = F.adaptive_max_pool2d(torch.randn(0,2,4,4), 2); print(y, y.stride())',
]

EMPTY_OUTPUTS = [
    'y = F.adaptive_avg_pool1d(torch.randn(1,2,4), 0); print(y, y.stride())',
    'y = F.adaptive_avg_pool2d(torch.randn(1,2,4,4), (0,2)); print(y, y.stride())',
    'y = F.adaptive_avg_pool2d(torch.randn(0,2,4,4), 0); print(y, y.stride())',
    'y = F.adaptive_avg_pool3d(torch.randn(1,2,4,4,4), 0); print(y, y.stride())',
    'y = F.adaptive_max_pool1d(torch.randn(1,2,4), 0, return_indices=True); print(y, y[1].stride())',
    'y = F.adaptive_max_pool2d(torch.randn(1,2,4,4), 0, return_indices=True); print(y, y[1].stride())',
    'y = F.adaptive_max_pool3d(torch.randn(1,2,4,4,4), 0); print(y, y.stride())',
    'F.adaptive_max_pool2d(torch.randn(1,2,4,4), -1)',
    'F.adaptive_max_pool1d(torch.randn(2,4), -1)',
    'F.adaptive_max_pool3d(torch.randn(1,2,4,4,4), (2,-1,-2))',
]

SHORTCUT_AND_LAYOUT = [
    'print(F.adaptive_avg_pool2d(torch.arange(16.).view(4,4), 1))',
    'print(F.adaptive_avg_pool3d(torch.arange(64.).view(4,4,4), 1))',
    'F.adaptive_avg_pool2d(torch.randn(4), 1)',
    'print(F.adaptive_avg_pool2d(torch.arange(128.).view(2,2,2,4,4), 1).shape)',
    'F.adaptive_avg_pool2d(torch.randn(2,2,4,4,4), 2)',
    'x = torch.randn(2,3,4,4).to(memory_format=torch.channels_last).requires_grad_()\n'
    'y = F.adaptive_avg_pool2d(x, 1); print(y, y.stride()); y.sum().backward(); print(x.grad.stride())',
    'x = torch.randn(3,1,1,1).to(memory_format=torch.channels_last); print(F.adaptive_avg_pool2d(x, 1).stride())',
    'y = F.adaptive_avg_pool3d(torch.randn(1,2,4,4,4).to(memory_format=torch.channels_last_3d), 1)\n'
    'print(y, y.stride())',
    'x = torch.randn(1,2,4,4).to(memory_format=torch.channels_last).requires_grad_()\n'
    'y, i = F.adaptive_max_pool2d(x, 3, return_indices=True); print(y, i, y.stride(), i.stride())\n'
    'y.sum().backward(); print(x.grad, x.grad.stride())',
    'y = F.adaptive_max_pool2d(torch.randn(1,2,4,4).to(memory_format=torch.channels_last), 1); print(y.stride())',
    'y, i = F.adaptive_max_pool1d(torch.randn(1,2,4).transpose(1,2), 3, return_indices=True)\n'
    'print(y, i, y.stride(), i.stride())',
    'print(F.adaptive_max_pool3d(torch.randn(1,2,4,4,4).to(memory_format=torch.channels_last_3d), 2).stride())',
]


@pytest.mark.parametrize("snippet", EMPTY_INPUTS + EMPTY_OUTPUTS + SHORTCUT_AND_LAYOUT)
def test_adaptive_pools_on_empty_and_channels_last_as_torch(snippet, torch):
    assert shown(core, snippet) == shown(torch, snippet)
