"""What a function run by a ``core.func`` transform may not do, refused as functorch refuses it.

PyTorch keeps a stack of transform levels while ``grad``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian`` or
``vmap`` run the user's function, and three tensor methods check it (functorch's "temporary hack to improve UX"):
``retain_grad()`` (after its requires_grad check), ``requires_grad_()`` (with either flag) and ``backward()`` raise a
RuntimeError that says to use the transforms instead. Setting the ``requires_grad`` attribute, a factory's
``requires_grad=True``, ``autograd.grad`` and reading ``.grad`` stay allowed, as in PyTorch. The transforms mark the
span in which they run the function with ``transforming()``; the depth is per thread, as functorch's TLS.
"""

from __future__ import annotations

import contextlib
import sys
import threading

__all__ = ["transforming", "active", "check_retain_grad", "check_requires_grad_", "check_backward"]


class _Depth(threading.local):
    value = 0


_depth = _Depth()

_ADVICE = ("This is unsupported, please attempt to use the functorch transforms (e.g. grad, vjp, jacrev, jacfwd, "
           "hessian) or call {call} outside of a function being transformed instead.")


@contextlib.contextmanager
def transforming():
    """The span in which a transform runs the user's function (nested transforms nest it)."""
    _depth.value += 1
    try:
        yield
    finally:
        _depth.value -= 1


def active() -> bool:
    """Whether a transform is running a function on this thread."""
    return _depth.value > 0


def check_retain_grad() -> None:
    if _depth.value:
        raise RuntimeError("You are attempting to call Tensor.retain_grad() inside of a function being transformed by "
                           "a functorch transform. " + _ADVICE.format(call="retain_grad()"))


# Dispatch plumbing between a ``requires_grad_`` call and its caller: a subclass's ``__torch_function__`` wrappers,
# ``vmap``'s batched tensors (their rule calls the physical tensor's method)
_PLUMBING = frozenset({"core._tensor", "core._torch_function", "core.overrides", "core._vmap_batched", __name__})


def check_requires_grad_() -> None:
    """Refuse ``requires_grad_()`` from the user's code inside a transform.

    NOTE: core's own code calls ``requires_grad_`` where PyTorch's C++ sets the flag directly without this check
    (a transform's leaves, ``nn.Parameter``, factories with ``requires_grad=True``): the first caller outside the
    dispatch plumbing decides, and one inside the ``core`` package (not ``core.nodegraph``, user code of core)
    passes."""
    if not _depth.value:
        return
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "") in _PLUMBING:
        frame = frame.f_back
    module = "" if frame is None else frame.f_globals.get("__name__", "")
    if (module == "core" or module.startswith("core.")) and not module.startswith("core.nodegraph"):
        return
    raise RuntimeError("You are attempting to call Tensor.requires_grad_() (or perhaps using "
                       "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
                       "transform. " + _ADVICE.format(call="requires_grad_()"))


def check_backward() -> None:
    if _depth.value:
        raise RuntimeError("backward() called inside a functorch transform. This is not supported, please use "
                           "functorch.grad or functorch.vjp instead or call backward() outside of functorch "
                           "transforms.")
