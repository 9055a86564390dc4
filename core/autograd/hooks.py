"""Hook handles and tensor hooks (``Tensor.register_hook``)."""

from __future__ import annotations

import itertools

import core

__all__ = ["RemovableHandle", "register_tensor_hook", "register_post_accumulate_grad_hook"]

_ids = itertools.count()


_NO_HOOK = object()


class RemovableHandle:
    """Returned by every ``register_*hook``; ``remove()`` unregisters the hook. Made as PyTorch's,
    ``RemovableHandle(hooks_dict, extra_dict=...)``, it only takes an id, which the caller files its hook under
    (libraries with hooks of their own do: PyTorch Geometric's ``MessagePassing``); core's own registrations pass
    the hook too. ``remove()`` deletes the id from ``hooks_dict`` and from each ``extra_dict``."""

    __module__ = "core.utils.hooks"  # PyTorch's home of the class (torch.utils.hooks)

    __slots__ = ("_store", "_extra", "id")

    def __init__(self, hooks_dict: dict, fn=_NO_HOOK, *, extra_dict=None):
        self._store = hooks_dict
        self._extra = (extra_dict,) if isinstance(extra_dict, dict) else tuple(extra_dict or ())
        self.id = next(_ids)
        if fn is not _NO_HOOK:
            hooks_dict[self.id] = fn

    def remove(self) -> None:
        for store in (self._store, *self._extra):
            store.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def register_tensor_hook(t, hook) -> RemovableHandle:
    """``hook(grad)`` runs when the gradient of ``t`` is computed; it may return a new one."""
    if not t._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if t.grad_fn is None:
        from core.autograd.function import accumulate_node  # function imports this module

        node = accumulate_node(t)
        key = 0
    else:
        node, key = t.grad_fn, t._output_nr
    if node._tensor_hooks is None:
        node._tensor_hooks = {}
    return RemovableHandle(node._tensor_hooks.setdefault(key, {}), hook)


def register_post_accumulate_grad_hook(t, hook) -> RemovableHandle:
    """``hook(t)`` runs after a backward has accumulated a gradient into the leaf ``t``'s ``.grad`` (PyTorch's
    ``Tensor.register_post_accumulate_grad_hook``: an optimizer step per parameter during backward)."""
    if not t._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if t.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    from core.autograd.function import accumulate_node  # function imports this module

    node = accumulate_node(t)
    if node._post_hooks is None:
        node._post_hooks = {}
    return RemovableHandle(node._post_hooks, _PostAccumulate(node, hook))


class _PostAccumulate:
    """The AccumulateGrad post hook that calls ``hook(leaf)`` (the node holds the leaf weakly)."""

    __slots__ = ("node", "hook")

    def __init__(self, node, hook):
        self.node, self.hook = node, hook

    def __call__(self, grad_inputs, grad_outputs):
        """PyTorch's ``_call_hooks``: the first of the node's post-accumulate hooks runs them all, in order, each
        given what the last one returned (the leaf until one returns something else); then any result is an
        error."""
        hooks = [h for h in (self.node._post_hooks or {}).values() if type(h) is _PostAccumulate]
        leaf = self.node.variable
        if leaf is None or not hooks or hooks[0] is not self:
            return
        arg, modified = leaf, False
        for h in hooks:
            result = h.hook(arg)
            if result is None or result is arg:
                continue
            if not isinstance(result, core.Tensor):
                raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
            arg, modified = result, True
        if modified:
            raise RuntimeError("Tensor post accumulate grad hooks should return None.")
