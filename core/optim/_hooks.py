"""Optimizer hooks, as PyTorch's: step pre/post hooks (per optimizer and global), state-dict and
load-state-dict pre/post hooks.

``hooked_step`` wraps an optimizer class's ``step`` the first time one of its instances is made (PyTorch's
``_patch_step_function``): pre hooks run as ``hook(optimizer, args, kwargs)`` (global ones first; one may return
``(new_args, new_kwargs)``), then ``step``, then post hooks (the optimizer's first, then global ones). ``args``
holds the optimizer itself first, as PyTorch passes it. Without hooks the wrapper only calls ``step``.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from itertools import chain

from core.autograd.hooks import RemovableHandle

__all__ = ["register_optimizer_step_pre_hook", "register_optimizer_step_post_hook", "hooked_step", "profile_hook_step",
           "init_hooks", "register", "state_dict_pre", "state_dict_post", "load_state_dict_pre", "load_state_dict_post"]

_global_pre: OrderedDict = OrderedDict()
_global_post: OrderedDict = OrderedDict()
_STORES = ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks", "_optimizer_state_dict_pre_hooks",
           "_optimizer_state_dict_post_hooks", "_optimizer_load_state_dict_pre_hooks",
           "_optimizer_load_state_dict_post_hooks")


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    """``hook(optimizer, args, kwargs)`` before every optimizer's ``step``; it may return new args and kwargs."""
    return RemovableHandle(_global_pre, hook)


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    """``hook(optimizer, args, kwargs)`` after every optimizer's ``step``."""
    return RemovableHandle(_global_post, hook)


def init_hooks(optimizer) -> None:
    """The optimizer's (empty) hook stores, and its class's ``step`` wrapped once."""
    for name in _STORES:
        optimizer.__dict__.setdefault(name, OrderedDict())
    cls = type(optimizer)
    if not getattr(cls.step, "hooked", False):
        cls.step = hooked_step(cls.step)


def hooked_step(step):
    """``step`` wrapped to run the hooks, marked so that it is wrapped once (PyTorch's ``_patch_step_function``)."""
    wrapper = profile_hook_step(step)
    wrapper.hooked = True
    return wrapper


def profile_hook_step(step):
    """``Optimizer.profile_hook_step``: ``step`` wrapped to run the hooks, unmarked, as PyTorch's (a step a subclass
    decorates with it is wrapped again when the class is patched, so its hooks run twice there too)."""

    @functools.wraps(step)
    def wrapper(*args, **kwargs):
        self = args[0]
        pre, post = self._optimizer_step_pre_hooks, self._optimizer_step_post_hooks
        if not (pre or post or _global_pre or _global_post):
            return step(*args, **kwargs)
        for hook in chain(_global_pre.values(), pre.values()):
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"{step} must return None or a tuple of (new_args, new_kwargs), but got "
                                       f"{result}.")
                args, kwargs = result
        out = step(*args, **kwargs)
        for hook in chain(post.values(), _global_post.values()):
            hook(self, args, kwargs)
        return out

    return wrapper


def register(store: OrderedDict, hook, prepend: bool = False) -> RemovableHandle:
    """``hook`` added to one of an optimizer's stores (first when ``prepend``)."""
    handle = RemovableHandle(store, hook)
    if prepend:
        store.move_to_end(handle.id, last=False)
    return handle


def state_dict_pre(optimizer) -> None:
    for hook in optimizer._optimizer_state_dict_pre_hooks.values():
        hook(optimizer)


def state_dict_post(optimizer, state_dict: dict) -> dict:
    """The state dict after the post hooks (a dict one returns replaces it)."""
    for hook in optimizer._optimizer_state_dict_post_hooks.values():
        result = hook(optimizer, state_dict)
        if result is not None:
            state_dict = result
    return state_dict


def load_state_dict_pre(optimizer, state_dict: dict) -> dict:
    """The state dict to load after the pre hooks (a dict one returns replaces it)."""
    for hook in optimizer._optimizer_load_state_dict_pre_hooks.values():
        result = hook(optimizer, state_dict)
        if result is not None:
            state_dict = result
    return state_dict


def load_state_dict_post(optimizer) -> None:
    for hook in optimizer._optimizer_load_state_dict_post_hooks.values():
        hook(optimizer)
