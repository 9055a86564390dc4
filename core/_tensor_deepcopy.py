"""``copy.deepcopy`` of a tensor, step for step as ``torch.Tensor.__deepcopy__`` takes it.

Why its own module: the copy is not just "clone the data". PyTorch hands it to a subclass's
``__torch_function__`` first; copies a wrapper subclass (one made by ``_make_wrapper_subclass``, PyTorch
Geometric's ``Index`` and ``EdgeIndex``) with its own ``clone``; copies the memory of a plain tensor once per
storage, so views copied together still share it; then deep-copies the gradient, a subclass's slots and its
attribute dictionary, all through the one ``memo``. DataLoader's workers and ``copy.deepcopy(model)`` (EMA
copies, MAML's inner loops) rely on each of those steps.
"""

from __future__ import annotations

import copy
import copyreg

from core import _torch_function
from core.autograd import grad_mode

_NOT_A_LEAF = ("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the "
               "moment.  If you were attempting to deepcopy a module, this may be because of a "
               "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")
_WRAPPER_CLONE = ("The default implementation of __deepcopy__() for wrapper subclasses only works for subclass "
                  "types that implement clone() and for which cloning returns another instance of the same "
                  "subclass. You should either properly implement clone() for your subclass or override "
                  "__deepcopy__() if it is intended behavior for clone() to return an instance of a different type.")
_PLAIN_NEW_EMPTY = ("The default implementation of __deepcopy__() for non-wrapper subclasses only works for "
                    "subclass types that implement new_empty() and for which that function returns another "
                    "instance of the same subclass. You should either properly implement new_empty() for your "
                    "subclass or override __deepcopy__() if it is intended behavior for new_empty() to return an "
                    "instance of a different type.")


def deepcopy_tensor(tensor_type, t, memo):
    """``t.__deepcopy__(memo)`` where ``tensor_type`` is ``core.Tensor`` (passed in: this module is imported by it)."""
    from core import overrides  # NOTE: at call time (it imports core._tensor, which imports this module)

    if type(t) is not tensor_type and overrides.has_torch_function_unary(t):
        return overrides.handle_torch_function(tensor_type.__deepcopy__, (t,), t, memo)
    if not t.is_leaf:
        raise RuntimeError(_NOT_A_LEAF)
    if id(t) in memo:
        return memo[id(t)]
    with grad_mode.no_grad():
        if t.is_sparse or t.is_meta or (type(t) is not tensor_type and _is_wrapper(t)):
            new = t.clone()
            if type(new) is not type(t):
                raise RuntimeError(_WRAPPER_CLONE)
        else:
            storage = copy.deepcopy(t.untyped_storage(), memo)  # once per storage: views keep sharing it
            new = t.new_empty([])
            if type(new) is not type(t):
                raise RuntimeError(_PLAIN_NEW_EMPTY)
            new.set_(storage, t.storage_offset(), t.size(), t.stride())
        if t.requires_grad:
            new.requires_grad_()
        if t.grad is not None:
            new.grad = t.grad.__deepcopy__(memo)
        if type(t) is not tensor_type:
            for slot in _subclass_slots(type(t), tensor_type):
                if hasattr(t, slot):
                    setattr(new, slot, copy.deepcopy(getattr(t, slot), memo))
        new.__dict__ = copy.deepcopy(t.__dict__, memo)
    memo[id(t)] = new
    return new


def _is_wrapper(t) -> bool:
    """Made by ``_make_wrapper_subclass``: no memory of its own (PyTorch's ``data_ptr() == 0`` test)."""
    return "_wrapper_subclass" in _torch_function._INSTANCE_DICT.__get__(t)


def _subclass_slots(cls, tensor_type) -> list:
    """The ``__slots__`` a subclass declares (``copyreg._slotnames``), without core's own Tensor slots, which a
    PyTorch tensor does not have."""
    own = set(copyreg._slotnames(tensor_type))  # type: ignore[attr-defined]
    return [s for s in copyreg._slotnames(cls) if s not in own]  # type: ignore[attr-defined]
