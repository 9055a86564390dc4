"""The views a tensor reads as attributes: ``T``, ``H``, ``mT``, ``mH``, ``real`` and ``imag``, with PyTorch's
deprecation notes for the dims it deprecates them on.

Split out of ``core/_tensor.py``, whose class body binds each of these by name (``core._tensor_method`` names them
``Tensor.<name>``).
"""

from __future__ import annotations

from core import _tensor
from core._tensor_method import method
from core._warn_once import warn_once

__all__: list[str] = []

_T_ND_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
    "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
    "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")
_T_0D_WARNING = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."


@method
@property
def T(self):  # PyTorch's name
    """Reverse the dims; PyTorch deprecates it (with a warning) on anything but 2-D tensors."""
    ndim = self._data.ndim
    if ndim == 0:
        warn_once("T of 0-d", _T_0D_WARNING)  # (PyTorch's TORCH_WARN_ONCE, as the three below)
    elif ndim != 2:
        warn_once("T of n-d", _T_ND_WARNING)
    return self.permute(tuple(range(ndim - 1, -1, -1)))


@method
@property
def H(self):  # PyTorch's name: the conjugate transpose
    if self._data.ndim not in (0, 2):
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self._data.ndim}-D tensor.")
    return self.permute(tuple(range(self._data.ndim - 1, -1, -1))).conj()


@method
@property
def mH(self):
    if self._data.ndim == 1:  # (torch passes a 0-d tensor through)
        raise RuntimeError("tensor.mH is only supported on matrices or batches of matrices. "
                           f"Got {self._data.ndim}-D tensor.")
    if not self._data.ndim:
        warn_once("mH of 0-d", "Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().")
        return self.conj()
    return self.mT.conj()


@method
@property
def real(self):
    """The real parts, a view (the tensor itself when it is real); assigning writes into them."""
    from core.ops.complex_ops import real  # ops import this module

    return real(self)


@method
@real.setter
def real(self, value) -> None:
    self.real.copy_(value if isinstance(value, _tensor.Tensor) else self.real.new_tensor(value))


@method
@property
def imag(self):
    """The imaginary parts of a complex tensor, a view; assigning writes into them."""
    from core.ops.complex_ops import imag

    return imag(self)


@method
@imag.setter
def imag(self, value) -> None:
    self.imag.copy_(value if isinstance(value, _tensor.Tensor) else self.imag.new_tensor(value))


@method
@property
def mT(self):
    if self._data.ndim == 1:  # (torch passes a 0-d tensor through)
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {self._data.ndim}-D tensor.")
    if not self._data.ndim:
        warn_once("mT of 0-d", "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these "
                  "cases.")
        return self
    return self.transpose(-2, -1)
