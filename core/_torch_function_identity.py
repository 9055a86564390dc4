"""What ``__torch_function__`` dispatch tells apart: PyTorch's own functions and handlers (a real torch tensor or
function handed to core by mistake), the op behind a dispatching wrapper, and a Tensor subclass.

Split out of ``core/_torch_function.py`` (which re-exports these names): plain predicates and checks that run
before a call reaches a handler, never between a handler and the op, so no frame walk needs to skip this module.
"""

from __future__ import annotations

__all__ = ["check_subclass", "is_torchs_default", "is_torchs_op", "undispatched"]


def is_torchs_op(func) -> bool:
    """Whether ``func`` belongs to the real PyTorch package (``torch.add``, ``torch.Tensor.__radd__``)."""
    fn = getattr(func, "__func__", func)
    module = getattr(fn, "__module__", None) or getattr(getattr(fn, "__objclass__", None), "__module__", None) or ""
    return module == "torch" or module.startswith("torch.")


def is_torchs_default(impl) -> bool:
    """Whether ``impl`` is PyTorch's own default handler (``torch.Tensor.__torch_function__``) or its disabled one
    (``torch.nn.Parameter``'s): a real torch tensor handed to core by mistake. Those run ``func`` under torch's
    ``DisableTorchFunctionSubclass``, which core's dispatch never sees, so the call came straight back here
    (``core.add(torch_t, torch_t)``: a RecursionError); such an argument overrides nothing, and the op refuses
    it as it refuses any non-Tensor (``must be Tensor, not Tensor``), as PyTorch refuses a core tensor."""
    fn = getattr(impl, "__func__", impl)
    module, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    return (module == "torch._tensor" and name == "Tensor.__torch_function__") or \
        (module == "torch._C" and name == "_disabled_torch_function_impl")


def undispatched(fn):
    """The op behind a dispatching wrapper (``fn`` itself when it is none): what identity checks compare."""
    return fn.__wrapped__ if getattr(fn, "dispatches", False) else fn


def check_subclass(cls) -> None:
    """``as_subclass`` and ``_make_subclass`` take Tensor subclasses only (torch's TypeErrors)."""
    from core._tensor import Tensor

    if not isinstance(cls, type):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    if not issubclass(cls, Tensor):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from Tensor is not possible. "
                        "Make sure your class inherits from Tensor.")
