"""``nn.utils.stateless.functional_call``: PyTorch's deprecated name for ``func.functional_call``.

It warns (FutureWarning) as PyTorch's does, then calls ``core.func.functional_call`` with the same arguments.
``_reparametrize_module``, the context manager PyTorch's ``functional_call`` runs the module in, is here too:
libraries enter it themselves (zuko's ``BayesianModel.reparameterize``).
"""

from __future__ import annotations

import warnings

__all__ = ["functional_call"]


def _reparametrize_module(module, parameters_and_buffers: dict, tie_weights: bool = False, strict: bool = False,
                          stack_weights: bool = False):
    """A context manager in which the named tensors stand in for ``module``'s parameters and buffers (PyTorch's
    private helper; ``stack_weights`` only orders how PyTorch swaps them back, the same module either way)."""
    from core import func

    return func._reparametrized(module, dict(parameters_and_buffers), tie_weights=tie_weights, strict=strict)


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights: bool = True,
                    strict: bool = False):
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed in a "
                  "future version of PyTorch. Please use `torch.func.functional_call` instead which is a drop-in "
                  "replacement.", FutureWarning, stacklevel=2)
    from core.func import functional_call as _functional_call

    return _functional_call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict)
