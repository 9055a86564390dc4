"""Saved-tensor hooks, as ``torch.autograd.graph``'s: ``saved_tensors_hooks``, ``save_on_cpu`` and
``disable_saved_tensors_hooks``.

Inside ``with saved_tensors_hooks(pack_hook, unpack_hook):`` every tensor an op saves for backward (the
primitives' saves and a custom Function's ``save_for_backward``) goes through ``pack_hook`` when the op is
recorded, and the node keeps only what it returned; backward (or ``ctx.saved_tensors``) gets the tensor back
from ``unpack_hook(packed)``. The innermost context's hooks apply. As in PyTorch, a packed tensor is not
version-checked: in-place changes to the original after the save are the hooks' business.
"""

from __future__ import annotations

import contextlib

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "allow_mutation_on_saved_tensors"]


class _State:
    stack: list = []  # (pack_hook, unpack_hook) of the active contexts, innermost last
    disabled = None  # the error message while hooks are disabled, else None


state = _State()


class Hooked:
    """A saved tensor after ``pack_hook``: what the hook returned, how to get the tensor back, and the autograd
    metadata the saved tensor had (``requires_grad``, ``grad_fn`` and its output number, a leaf's gradient
    accumulator), which the unpacked tensor gets, as PyTorch's ``SavedVariable`` gives it."""

    __slots__ = ("packed", "unpack_hook", "output_nr", "meta")
    _vc = (None,)  # never a version, so a node's fast path hands the entry to the unpacking route

    def __init__(self, tensor, pack_hook, unpack_hook, output_nr: int):
        self.unpack_hook, self.output_nr = unpack_hook, output_nr
        self.meta = None if output_nr >= 0 else (  # an output of its node gets the node back on unpacking
            tensor._requires_grad, tensor.grad_fn, tensor._output_nr,
            _accumulate_node(tensor) if tensor._requires_grad and tensor.grad_fn is None else None)
        self.packed = pack_hook(tensor)

    def unpack(self):
        """The tensor ``unpack_hook`` returns, as a new tensor object over its data with the saved tensor's
        autograd metadata (an output of the node is re-attached by the node)."""
        tensor = self.unpack_hook(self.packed)
        if not hasattr(tensor, "_data"):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(tensor).__name__}")
        if self.meta is None:
            return tensor
        # NOTE: a new object even when the hook returns the saved tensor itself (``lambda x: x``): PyTorch makes a
        # new variable from the unpacked data, so ``grad_fn._saved_self is x`` is False under hooks. A leaf's
        # copy shares the leaf's accumulator, so a double backward through it still reaches ``x.grad``.
        out = tensor._alias(tensor._data, base=False)
        out._requires_grad, out.grad_fn, out._output_nr, out._accum = self.meta
        return out


def _accumulate_node(tensor):
    from core.autograd.function import accumulate_node  # function imports this module

    return accumulate_node(tensor)


def pack(entries):
    """The node's saved ``(tensor, version, output_nr)`` entries through the innermost ``pack_hook``."""
    pack_hook, unpack_hook = state.stack[-1]
    out = []
    for entry in entries:
        t, _, nr = entry
        out.append(entry if t is None else (Hooked(t, pack_hook, unpack_hook, nr), HOOKED, -2))
    return out


HOOKED = object()  # the version field of a hooked entry


class saved_tensors_hooks:
    """Context manager: ``pack_hook(tensor) -> anything`` at save time, ``unpack_hook(anything) -> tensor`` when
    backward needs it."""

    __module__ = "core.autograd.graph"  # PyTorch's module name

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        if state.disabled is not None:
            raise RuntimeError(state.disabled)
        state.stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc) -> None:
        state.stack.pop()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are kept as CPU copies and moved back to their device when backward needs them."""

    __module__ = "core.autograd.graph"  # PyTorch's module name

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda"):
        def pack_to_cpu(tensor):
            return tensor.device, tensor.detach().cpu().clone()

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Context manager: entering ``saved_tensors_hooks`` inside it raises ``RuntimeError(error_message)``."""

    __module__ = "core.autograd.graph"  # PyTorch's module name

    def __init__(self, error_message: str):
        self.error_message = error_message

    def __enter__(self):
        self.previous, state.disabled = state.disabled, self.error_message
        return self

    def __exit__(self, *exc) -> None:
        state.disabled = self.previous


class _AllowMutationOnSavedContext:
    """What ``allow_mutation_on_saved_tensors`` yields (PyTorch's class name)."""

    __module__ = "core.autograd.graph"


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Tensors saved for backward inside the block may be modified in place afterwards: backward sees the values
    they had when saved. PyTorch clones a saved tensor when an in-place op is about to modify it; core has no
    dispatch hook there, so it saves a copy of each tensor as it is saved (the same values, more memory)."""
    def pack(t):
        return t.detach().clone()

    def unpack(t):
        return t

    with saved_tensors_hooks(pack, unpack):
        yield _AllowMutationOnSavedContext()
