"""``nn.utils.stateless.functional_call``: PyTorch's deprecated name for ``func.functional_call``.

It warns (FutureWarning) as PyTorch's does, then calls ``core.func.functional_call`` with the same arguments.
"""

from __future__ import annotations

import warnings

__all__ = ["functional_call"]


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights: bool = True,
                    strict: bool = False):
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed in a "
                  "future version of PyTorch. Please use `torch.func.functional_call` instead which is a drop-in "
                  "replacement.", FutureWarning, stacklevel=2)
    from core.func import functional_call as _functional_call

    return _functional_call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict)
