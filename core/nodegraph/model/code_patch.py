"""Patching core for the code-import recorder: every public op, the Tensor method table, ``backward``, ``zero_grad``,
``gradcheck``, each optimizer's ``step`` and the ops modules hold as class attributes, replaced by the recorder's
wrappers while a snippet runs, and put back after it (``patched``).

One snippet is traced at a time (``_PATCH_LOCK``): the patches are global to the process. (Split from
``model.code_trace``, whose ``trace`` runs a snippet inside ``patched``.)
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import core
import core.nn.functional as F  # PyTorch's usual name
from core.nodegraph.model import code_ops

if TYPE_CHECKING:
    from core.nodegraph.model.code_trace import Recorder

__all__ = ["patched"]

Fn = Callable[..., Any]  # an op, method or hook the recorder wraps

_PATCH_LOCK = threading.Lock()


def _targets() -> Iterator[tuple[Any, str, str]]:
    """``(owner, attribute, registry name)`` of every function the recorder wraps."""
    table = code_ops.op_table()
    owners = (("", core), ("F.", F), ("linalg.", core.linalg), ("special.", core.special))
    for prefix, owner in owners:
        for attr in list(vars(owner)):
            current = getattr(owner, attr)  # the op, or core's __torch_function__ wrapper of it
            if prefix + attr in table and table[prefix + attr] in code_ops.wrapped_chain(current):
                yield from _named(owner, attr, table[prefix + attr])
    yield core.autograd, "grad", "autograd.grad"
    for name, fn in table.items():
        if name.startswith("Tensor."):
            yield from _named(core.Tensor, name[len("Tensor."):], fn)


def _named(owner: Any, attr: str, fn: Fn) -> Iterator[tuple[Any, str, str]]:
    name = code_ops.name_of(fn)
    if name is not None:  # always: every function of the op table has a registry name
        yield owner, attr, name


@contextlib.contextmanager
def patched(rec: Recorder) -> Iterator[None]:
    """Every target wrapped by ``rec`` for the ``with`` block (one snippet at a time), then put back."""
    saved: list[tuple[Any, str, Any]] = []
    known = _subclasses(core.optim.Optimizer)
    stepping = {cls for cls in known if "step" in cls.__dict__}
    with _PATCH_LOCK:
        try:
            for owner, attr, name in _targets():
                fn = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)
                saved.append((owner, attr, fn))
                setattr(owner, attr, rec.wrap(name, fn))
            hooks: list[tuple[Any, str, Callable[[Fn], Fn]]] = [
                (core.Tensor, "backward", rec.wrap_backward), (core.optim.Optimizer, "zero_grad", rec.wrap_zero_grad),
                (core.autograd, "gradcheck", rec.wrap_gradcheck),
                *((cls, "step", rec.wrap_step) for cls in _optimizers())]
            for owner, attr, wrap in hooks:
                saved.append((owner, attr, owner.__dict__[attr]))
                setattr(owner, attr, wrap(owner.__dict__[attr]))
            for cls, attr, name, fn in _module_ops():
                saved.append((cls, attr, cls.__dict__[attr]))
                setattr(cls, attr, staticmethod(rec.wrap(name, fn)))
            yield
        finally:
            for owner, attr, fn in reversed(saved):
                setattr(owner, attr, fn)
            # NOTE: an optimizer class's first instance wraps the class's step for its hooks (PyTorch's
            # _patch_step_function); made during the run, that wrapper holds this run's recorder: dropped, so the
            # class's next instance wraps the restored step again (a class the snippet defined keeps its own)
            for cls in known:
                if "step" in cls.__dict__ and cls not in stepping:
                    delattr(cls, "step")


def _subclasses(root: type) -> list[type]:
    seen: list[type] = []
    stack = [root]
    while stack:
        cls = stack.pop()
        if cls not in seen:
            seen.append(cls)
            stack.extend(cls.__subclasses__())
    return seen


def _module_ops() -> Iterator[tuple[type, str, str, Fn]]:
    """``(class, attribute, registry name, function)`` of ops that modules hold as class attributes
    (``nn.Tanh._fn = staticmethod(F.tanh)``): bound when the class was made, so patching ``F`` misses them."""
    for cls in _subclasses(core.nn.Module):
        for attr, value in list(vars(cls).items()):
            if isinstance(value, staticmethod):
                name = code_ops.name_of(value.__func__)
                if name is not None:
                    yield cls, attr, name, value.__func__


def _optimizers() -> list[type]:
    return [cls for cls in _subclasses(core.optim.Optimizer) if "step" in cls.__dict__]
