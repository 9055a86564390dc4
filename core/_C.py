"""``core._C``: the few names of ``torch._C`` that Python code spells out (type hints such as
``torch._C.Generator``). Anything else is missing, as an unknown attribute of ``torch._C`` is."""

from __future__ import annotations

from core import _torch_function, _torch_function_args
from core._errors import _LinAlgError  # noqa: F401 (torch._C's: torch.linalg.LinAlgError)
from core._file_reader import PyTorchFileReader  # noqa: F401 (torch._C's, torch.PyTorchFileReader)
from core._jit_types import *  # noqa: F403 (torch._C's TorchScript types, torch.TensorType...)
from core._random import Generator
from core._tensor import TensorBase, _TensorMeta  # noqa: F401 (torch._C's: Tensor's base class, its metaclass)
from core._torch_dispatch import DisableTorchDispatch as _DisableTorchDispatch  # noqa: F401 (torch's name)
from core._torch_function import DisableTorchFunction, DisableTorchFunctionSubclass, is_enabled, mode_stack
from core.futures import _Future as Future  # noqa: F401 (torch._C.Future, what torch.futures.Future extends)
from core.futures import collect_all as _collect_all  # noqa: F401

__all__ = ["DisableTorchFunction", "DisableTorchFunctionSubclass", "Generator"]

# a class that sets __torch_function__ to it (nn.Parameter) takes no part in the protocol
_disabled_torch_function_impl = _torch_function.disabled_torch_function_impl
_disabled_torch_dispatch_impl = _torch_function.disabled_torch_dispatch_impl


class _NN:
    """``torch._C._nn``: the ``nn.functional`` functions torch writes in C (``torch._C._nn.linear``), read from
    ``core.nn.functional`` when asked (so they are its dispatching wrappers once those are on)."""

    @staticmethod
    def _parse_to(*args, **kwargs):
        """``Tensor.to``'s and ``Module.to``'s arguments as ``(device, dtype, non_blocking, memory_format)``, None
        where not given (Lightning's ``DeviceDtypeModuleMixin.to`` reads them)."""
        from core import _dtype
        from core._device import device
        from core.ops.conversion import _parse

        non_blocking, memory_format = kwargs.get("non_blocking", False), kwargs.get("memory_format")
        dtype, dev, _ = _parse(args, dict(kwargs))
        return (None if dev is None else device(dev), None if dtype is None else _dtype.to_dtype(dtype),
                non_blocking, memory_format)

    def __getattr__(self, name: str):
        for functional, torch_name in _torch_function_args.TORCH_C_FUNCTIONAL.items():
            if torch_name == f"torch._C._nn.{name}":
                import core.nn.functional

                return getattr(core.nn.functional, functional)
        raise AttributeError(f"module 'torch._C._nn' has no attribute '{name}'")


_nn = _NN()


def _is_torch_function_enabled() -> bool:
    """Whether arguments' ``__torch_function__`` is consulted (off inside ``DisableTorchFunctionSubclass``)."""
    return is_enabled()


def _is_torch_function_mode_enabled() -> bool:
    """Whether a ``TorchFunctionMode`` is entered (and not disabled)."""
    return bool(mode_stack()) and _is_torch_function_enabled()


def _get_tracing_state():
    """The running ``jit.trace``'s state, or None: core's trace runs code eagerly, so None (torchvision's detection
    models ask before they take their traceable paths)."""
    return None


def _get_default_device() -> str:
    """The C++ default device's type, "cpu" (``torch.set_default_device`` works through a function mode above it,
    as PyTorch's, and leaves this alone); PyTorch Geometric's tensor reprs compare against it."""
    return "cpu"


def _log_api_usage_once(event: str) -> None:
    """PyTorch's one-time API usage log (torchvision logs each model it builds): core logs nothing."""


def __getattr__(name: str):
    """``torch._C._linalg``, ``_fft``, ``_special``: loading the namespace puts them here (core._c_namespaces)."""
    if name in ("_linalg", "_fft", "_special"):
        import importlib

        importlib.import_module(f"core.{name[1:]}")
        return globals()[name]
    raise AttributeError(f"module 'torch._C' has no attribute '{name}'")
