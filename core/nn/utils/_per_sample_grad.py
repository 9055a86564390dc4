"""``call_for_per_sample_grads``: a module's forward whose backward fills ``param.grad_sample`` (Expanded Weights).

PyTorch's ``torch.nn.utils._per_sample_grad`` (Opacus' ``grad_sample_mode="ew"`` calls it): the module runs through
``torch.func.functional_call`` with each parameter that requires grad replaced by an ``ExpandedWeight``
(``_expanded_weights``), so ``loss.backward()`` leaves each one's per-sample gradients in ``grad_sample``.
"""

from __future__ import annotations

import functools

import core
from core.nn.utils._expanded_weights import ExpandedWeight
from core.utils import _pytree as pytree

__all__ = ["call_for_per_sample_grads"]


def call_for_per_sample_grads(module, *, batch_size=None, loss_reduction="sum", batch_first=True):
    """``module``'s forward as a function whose backward stores per-sample gradients in each trainable parameter's
    ``grad_sample`` (``batch_size`` None: the inputs' first, or with ``batch_first=False`` second, dim; a ``"mean"``
    loss has them scaled by the batch size)."""

    def expanded(tensor, size):
        return ExpandedWeight(tensor, size, loss_reduction) if tensor.requires_grad else tensor

    def inputs_batch_size(*args, **kwargs):
        found = None
        for leaf in pytree.arg_tree_leaves(*args, **kwargs):
            if not isinstance(leaf, core.Tensor):
                continue
            size = leaf.shape[0] if batch_first else leaf.shape[1]
            if found is not None and found != size:
                raise RuntimeError(
                    "When computing batch size, found at least one input with batch size "
                    f"{found} and one with batch size {size}. Please specify it "
                    "explicitly using the batch size kwarg in call_for_per_sample_grads")
            found = size
        if found is None:
            raise RuntimeError(
                "Unable to find a tensor in the passed args and kwargs. They may not be pytree-able "
                "and so ExpandedWeights cannot compute the batch size from the inputs. Please specify it explicitly")
        return found

    if loss_reduction not in ("sum", "mean"):
        raise RuntimeError(f"Expected loss_reduction argument to be sum or mean, got {loss_reduction}")
    if not isinstance(module, core.nn.Module):
        raise RuntimeError(f"Module passed must be nn.Module, got {type(module).__name__}")
    if not (batch_size is None or isinstance(batch_size, int)):
        raise RuntimeError(f"Batch size passed must be None or an integer, got {type(batch_size).__name__}")
    if batch_size is not None and batch_size < 1:
        raise RuntimeError(f"Batch size must be positive, got {batch_size}")
    for weight in module.parameters():
        if getattr(weight, "grad_sample", None) is not None:
            raise RuntimeError(
                "Current Expanded Weights accumulates the gradients, which will be incorrect for multiple "
                f"calls without clearing gradients. Please clear out the grad_sample parameter of {weight} or "
                "post an issue to pytorch/pytorch to prioritize correct behavior")

    @functools.wraps(module.forward)
    def wrapper(*args, **kwargs):
        size = batch_size if batch_size is not None else inputs_batch_size(*args, **kwargs)
        params = {name: expanded(value, size) for name, value in module.named_parameters()}
        return core.func.functional_call(module, params, args, kwargs)

    return wrapper
