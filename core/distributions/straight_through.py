"""Where core defined ``OneHotCategoricalStraightThrough`` before it moved to ``one_hot_categorical``, PyTorch's module
for it (so ``type(d).__module__`` and a pickle name PyTorch's path); older pickles naming this module still load."""

from __future__ import annotations

from core.distributions.one_hot_categorical import OneHotCategoricalStraightThrough

__all__ = ["OneHotCategoricalStraightThrough"]
