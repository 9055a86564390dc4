"""PyTorch's device error classes: ``torch.OutOfMemoryError`` (also ``torch.cuda.OutOfMemoryError``) and
``torch.AcceleratorError``, both RuntimeErrors, so training scripts' ``except`` clauses name what they name in
PyTorch. Core raises ``OutOfMemoryError`` nowhere on the CPU (NumPy's MemoryError is what a failed allocation
gives)."""

from __future__ import annotations

__all__ = ["OutOfMemoryError", "AcceleratorError"]


class OutOfMemoryError(RuntimeError):
    """An allocation on an accelerator failed."""

    __module__ = "core"  # printed as PyTorch's torch.OutOfMemoryError (core. reads as torch.)


class AcceleratorError(RuntimeError):
    """An accelerator reported an error."""

    __module__ = "core"


class _LinAlgError(RuntimeError):
    """PyTorch's ``torch.linalg.LinAlgError`` (named like its C++ class, ``_LinAlgError``)."""

    __module__ = "core._C"  # PyTorch's path (torch._C._LinAlgError): printed, and found there by a pickle
