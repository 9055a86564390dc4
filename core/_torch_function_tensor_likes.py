"""Tensor-likes: a class outside core that defines ``__torch_function__`` and is no Tensor (GPyTorch's
LinearOperator, kornia's TensorWrapper) turns dispatch on at its ``class`` statement, as defining a Tensor subclass
does, so core's public functions hand its instances to it as torch's argument parser does.
"""

from __future__ import annotations

from core import _torch_function
from core._torch_function import activate, disabled_torch_function_impl

_NOT_TENSOR_LIKE = ("core", "torch")  # the packages whose classes never turn dispatch on (see below)


def _is_tensor_like_class(cls) -> bool:
    """A class whose instances torch hands to their ``__torch_function__`` from every public function (GPyTorch's
    LinearOperator, kornia's TensorWrapper): no Tensor (``Tensor.__init_subclass__`` sees those), no mode (entering
    one turns dispatch on), not core's own, and not PyTorch's own.

    NOTE: PyTorch itself, imported beside core (the benchmarks and the oracle tests compare the two in one process),
    defines ``torch.Tensor``, ``Parameter``, ``MaskedTensor``... with a ``__torch_function__``; those are torch's
    tensors, which core's functions can't take either way, and turning dispatch on for them made every core op
    pay for it from then on (a ``core.compile`` step of ``z = (x * w).sum() + b`` ~28% slower, ``a + b`` too)
    when torch was imported after core, and nothing when before."""
    from core._tensor import Tensor
    from core.overrides import TorchFunctionMode

    impl = cls.__dict__.get("__torch_function__")
    module = cls.__dict__.get("__module__") or ""
    return (impl is not None and impl is not disabled_torch_function_impl
            and module.split(".")[0] not in _NOT_TENSOR_LIKE and not issubclass(cls, (Tensor, TorchFunctionMode)))


def watch_tensor_like_classes() -> None:
    """torch's argument parser hands a tensor-like argument of any public function to its ``__torch_function__``;
    core's functions do that once dispatch is active, so the ``class`` statement that defines a tensor-like class
    turns it on, as defining a Tensor subclass does (a hook on ``builtins.__build_class__``, put back at activation:
    until then each class statement pays one dictionary lookup)."""
    import builtins

    build = builtins.__build_class__

    def build_class(func, name, *bases, **kwargs):
        cls = build(func, name, *bases, **kwargs)
        if isinstance(cls, type) and "__torch_function__" in cls.__dict__ and _is_tensor_like_class(cls):
            activate()
        if _torch_function._active and builtins.__build_class__ is build_class:
            builtins.__build_class__ = build
        return cls

    builtins.__build_class__ = build_class
