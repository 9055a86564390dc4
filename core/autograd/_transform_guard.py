"""What a function run by a ``core.func`` transform may not do, refused as functorch refuses it.

PyTorch keeps a stack of transform levels while ``grad``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian`` or
``vmap`` run the user's function, and three tensor methods check it (functorch's "temporary hack to improve UX"):
``retain_grad()`` (after its requires_grad check), ``requires_grad_()`` (with either flag) and ``backward()`` raise a
RuntimeError that says to use the transforms instead. Setting the ``requires_grad`` attribute, a factory's
``requires_grad=True``, ``autograd.grad`` and reading ``.grad`` stay allowed, as in PyTorch. The transforms mark the
span in which they run the function with ``transforming()``; the depth is per thread, as functorch's TLS.

Where PyTorch sets the flag in C++ (factories, ``Variable``, ``nn.Embedding``'s weight, a transform's own leaves under
functorch's ``enable_inplace_requires_grad``), no check runs; core's code for those calls ``set_requires_grad``, which
allows it for the one call. Where PyTorch's own Python calls ``requires_grad_()`` (``torch.autograd.functional``,
``nn.Module.requires_grad_``, ``nn.Buffer``, ``stack_module_state``, ``copy.deepcopy``), core's calls the method and is
refused as torch's is: who calls decides by what it is, not by where it stands on the stack.
"""

from __future__ import annotations

import contextlib
import threading

__all__ = ["transforming", "active", "set_requires_grad", "check_retain_grad", "check_requires_grad_",
           "check_backward"]


class _State(threading.local):
    depth = 0  # transforms running a function on this thread
    requires_grad_allowed = False  # ``requires_grad_`` called by core where torch sets the flag without the check


_state = _State()

_ADVICE = ("This is unsupported, please attempt to use the functorch transforms (e.g. grad, vjp, jacrev, jacfwd, "
           "hessian) or call {call} outside of a function being transformed instead.")


@contextlib.contextmanager
def transforming():
    """The span in which a transform runs the user's function (nested transforms nest it)."""
    _state.depth += 1
    try:
        yield
    finally:
        _state.depth -= 1


def active() -> bool:
    """Whether a transform is running a function on this thread."""
    return _state.depth > 0


def set_requires_grad(t, requires_grad: bool = True):
    """``t.requires_grad_(requires_grad)`` where PyTorch sets the flag in C++ (module docstring): never refused as
    inside a transform (torch's ``enable_inplace_requires_grad(True)`` around it); returns what the method returns."""
    if not _state.depth:
        return t.requires_grad_(requires_grad)
    before, _state.requires_grad_allowed = _state.requires_grad_allowed, True
    try:
        return t.requires_grad_(requires_grad)
    finally:
        _state.requires_grad_allowed = before


def check_retain_grad() -> None:
    if _state.depth:
        raise RuntimeError("You are attempting to call Tensor.retain_grad() inside of a function being transformed by "
                           "a functorch transform. " + _ADVICE.format(call="retain_grad()"))


def check_requires_grad_() -> None:
    """Refuse ``requires_grad_()`` inside a transform, but where core calls it through ``set_requires_grad``."""
    if not _state.depth or _state.requires_grad_allowed:
        return
    raise RuntimeError("You are attempting to call Tensor.requires_grad_() (or perhaps using "
                       "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
                       "transform. " + _ADVICE.format(call="requires_grad_()"))


def check_backward() -> None:
    if _state.depth:
        raise RuntimeError("backward() called inside a functorch transform. This is not supported, please use "
                           "functorch.grad or functorch.vjp instead or call backward() outside of functorch "
                           "transforms.")
