"""Build flags and runtime helpers at ``torch.*``: ``has_lapack``..., ``is_vulkan_available``,
``get_device_module``, ``GradScaler`` (``torch.amp.GradScaler``), ``layout``, the device error classes, and the
control-flow operators ``cond`` and ``while_loop`` with their eager meaning (core has no graph compiler: the
chosen branch or the loop runs as Python, so gradients flow through whatever ran).

The flags describe core: LAPACK through NumPy, spectral ops; no MKL or OpenMP of its own.
"""

from __future__ import annotations

import importlib

from core._errors import AcceleratorError, OutOfMemoryError
from core._tensor import Tensor
from core._tensor import _Layout as layout  # torch.layout: the class of torch.strided (and of sparse_coo)
from core.amp import GradScaler

__all__ = ["has_lapack", "has_mkl", "has_openmp", "has_spectral", "is_vulkan_available", "get_device_module",
           "GradScaler", "cond", "while_loop", "layout", "OutOfMemoryError", "AcceleratorError", "init_num_threads",
           "compiled_with_cxx11_abi"]

has_lapack, has_spectral, has_mkl, has_openmp = True, True, False, False


def is_vulkan_available() -> bool:
    return False


def init_num_threads() -> None:
    """Nothing to initialise: core's thread settings apply at once (``set_num_threads``)."""


def compiled_with_cxx11_abi() -> bool:
    return True  # what PyTorch's wheels answer (core builds no C++ extensions)


def get_device_module(device=None):
    """The module of a device type (``core.cuda`` for ``"cuda"``...); without one, the CPU's."""
    name = "cpu" if device is None else getattr(device, "type", None) or str(device).split(":")[0]
    if name not in ("cpu", "cuda", "mps"):
        raise RuntimeError(f"Device '{name}' does not have a corresponding module registered as 'torch.{name}'.")
    return importlib.import_module(f"core.{name}")


def _truth(pred) -> bool:
    if isinstance(pred, Tensor):
        if pred.numel() != 1:
            raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {pred}.")
        return bool(pred.item())
    if not isinstance(pred, (bool, int)):
        raise RuntimeError(f"Expected pred to be bool or single-element tensor, but got {pred}.")
    return bool(pred)


def cond(pred, true_fn, false_fn, operands=()):
    """``true_fn(*operands)`` when ``pred`` holds, else ``false_fn(*operands)``."""
    if not isinstance(operands, (tuple, list)):
        raise RuntimeError(f"Expect operands to be a tuple of possibly nested dict/list/tuple that only consists "
                           f"of tensor leaves, but got {operands}.")
    from core._higher_order_ops.cond import recorded  # (autograd's node for it, as PyTorch names it)

    return recorded(pred, true_fn if _truth(pred) else false_fn, tuple(operands))


def while_loop(cond_fn, body_fn, carried_inputs):
    """Run ``carried = body_fn(*carried)`` while ``cond_fn(*carried)`` holds; the final carried values, a tuple."""
    if not isinstance(carried_inputs, (tuple, list)):
        raise RuntimeError(f"carried_inputs must be a tuple or list, got {type(carried_inputs)}")
    carried = tuple(carried_inputs)
    while _truth(cond_fn(*carried)):
        carried = body_fn(*carried)
        carried = tuple(carried) if isinstance(carried, (tuple, list)) else (carried,)
    return carried
