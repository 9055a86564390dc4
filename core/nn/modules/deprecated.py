"""``nn.NLLLoss2d`` and ``nn.Container``: PyTorch's deprecated names, kept working with its FutureWarnings.

``NLLLoss2d`` is ``NLLLoss`` (which takes any number of spatial dimensions); ``Container(**modules)`` is a
``Module`` holding the given submodules. Each warns at construction, as PyTorch's do.
"""

from __future__ import annotations

import warnings

from core.nn.module import Module
from core.nn.modules.loss import NLLLoss

__all__ = ["NLLLoss2d", "Container"]


class NLLLoss2d(NLLLoss):
    __deprecated__ = ("`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in replacement and "
                      "see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more details.")

    def __init__(self, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                 reduction: str = "mean") -> None:
        warnings.warn(NLLLoss2d.__deprecated__, FutureWarning, stacklevel=2)
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class Container(Module):
    __deprecated__ = ("`nn.Container` is deprecated. All of its functionality is now implemented in `nn.Module`. "
                      "Subclass that instead.")  # (what PyTorch's @deprecated decorator leaves on the class)

    def __init__(self, **kwargs) -> None:
        warnings.warn(Container.__deprecated__, FutureWarning, stacklevel=2)
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)
