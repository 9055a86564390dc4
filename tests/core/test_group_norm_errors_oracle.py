"""GroupNorm's constructor error names both numbers, as PyTorch 2.13's does (guided-diffusion's 32-group
``normalization`` on a 16-channel model stops there, and the message is what its user reads)."""

import pytest

import core
from tests.core.oracle import raised


@pytest.mark.parametrize("groups, channels", [(32, 16), (3, 8)])
def test_channels_not_divisible_by_groups_raise_torchs_error(torch, groups, channels):
    ours = raised(lambda: core.nn.GroupNorm(groups, channels))
    assert ours is not None and ours == raised(lambda: torch.nn.GroupNorm(groups, channels))
