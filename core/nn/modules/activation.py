"""Activation modules: thin wrappers over ``core.nn.functional`` with PyTorch's reprs."""

from __future__ import annotations

from core.nn import functional as F
from core.nn.module import Module


def current(fn):
    """``F.<name>`` as it is at call time: the dispatching wrapper once ``__torch_function__`` is on, so modes
    (``torch.export``'s tracer) see the module's call as torch's modules make it."""
    return getattr(F, fn.__name__, fn)

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish", "Sigmoid", "Tanh",
           "Softplus", "Softmax", "LogSoftmax", "Softmin", "Hardtanh", "Hardsigmoid", "Hardswish", "LogSigmoid",
           "Softsign", "Tanhshrink", "Threshold", "GLU"]


def _inplace_str(inplace: bool, first: bool = False) -> str:
    if not inplace:
        return ""
    return "inplace=True" if first else ", inplace=True"


class _Inplace(Module):
    _fn = None

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return current(type(self)._fn)(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return _inplace_str(self.inplace, True)


class _Plain(Module):
    _fn = None

    def forward(self, input):
        return current(type(self)._fn)(input)


class ReLU(_Inplace):
    __constants__ = ["inplace"]

    _fn = staticmethod(F.relu)


class SiLU(_Inplace):
    __constants__ = ["inplace"]

    _fn = staticmethod(F.silu)


class Mish(_Inplace):
    __constants__ = ["inplace"]

    _fn = staticmethod(F.mish)


class SELU(_Inplace):
    __constants__ = ["inplace"]

    _fn = staticmethod(F.selu)


class Hardsigmoid(_Inplace):
    __constants__ = ["inplace"]

    _fn = staticmethod(F.hardsigmoid)

    def extra_repr(self) -> str:  # torch's prints no ``inplace=True`` for this one (MobileNetV3's blocks)
        return ""


class Hardswish(_Inplace):
    __constants__ = ["inplace"]

    _fn = staticmethod(F.hardswish)

    def extra_repr(self) -> str:  # torch's prints no ``inplace=True`` for this one (MobileNetV3's blocks)
        return ""


class Sigmoid(_Plain):
    _fn = staticmethod(F.sigmoid)


class Tanh(_Plain):
    _fn = staticmethod(F.tanh)


class LogSigmoid(_Plain):
    _fn = staticmethod(F.logsigmoid)


class Softsign(_Plain):
    _fn = staticmethod(F.softsign)


class Tanhshrink(_Plain):
    _fn = staticmethod(F.tanhshrink)


class Hardtanh(Module):
    __constants__ = ["min_val", "max_val", "inplace"]

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val must be greater than min_val, but got max_val={max_val}, min_val={min_val}")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}{_inplace_str(self.inplace)}"


class ReLU6(Hardtanh):
    def __init__(self, inplace: bool = False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return _inplace_str(self.inplace, True)


class LeakyReLU(Module):
    __constants__ = ["inplace", "negative_slope"]

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}{_inplace_str(self.inplace)}"


class ELU(Module):
    __constants__ = ["alpha", "inplace"]

    def __init__(self, alpha: float = 1.0, inplace: bool = False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{_inplace_str(self.inplace)}"


class CELU(ELU):
    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class GELU(Module):
    __constants__ = ["approximate"]

    def __init__(self, approximate: str = "none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Softplus(Module):
    __constants__ = ["beta", "threshold"]

    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Threshold(Module):
    __constants__ = ["threshold", "value", "inplace"]

    def __init__(self, threshold: float, value: float, inplace: bool = False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}{_inplace_str(self.inplace)}"


class _DimModule(Module):
    _fn = None

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        return type(self)._fn(input, self.dim, _stacklevel=5)  # (the original: a wrapper would shift the warning)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax(_DimModule):
    __constants__ = ["dim"]

    _fn = staticmethod(F.softmax)


class LogSoftmax(_DimModule):
    __constants__ = ["dim"]

    _fn = staticmethod(F.log_softmax)


class Softmin(_DimModule):
    __constants__ = ["dim"]

    _fn = staticmethod(F.softmin)


class GLU(Module):
    __constants__ = ["dim"]

    def __init__(self, dim: int = -1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"
