"""``Hardshrink``, ``Softshrink``, ``RReLU``, ``InstanceNorm1d/2d`` and the losses ``GaussianNLLLoss``,
``MultiLabelSoftMarginLoss``, ``MultiMarginLoss`` over their functional forms, with torch's reprs."""

from __future__ import annotations

import warnings

from core.nn import functional as F
from core.nn.module import Module
from core.nn.modules.normalization import _NormBase

__all__ = ["Hardshrink", "Softshrink", "RReLU", "InstanceNorm1d", "InstanceNorm2d", "GaussianNLLLoss",
           "MultiLabelSoftMarginLoss", "MultiMarginLoss"]


class Hardshrink(Module):
    __constants__ = ["lambd"]

    def __init__(self, lambd: float = 0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    def forward(self, input):
        return F.softshrink(input, self.lambd)


class RReLU(Module):
    __constants__ = ["lower", "upper", "inplace"]

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"lower={self.lower}, upper={self.upper}" + (", inplace=True" if self.inplace else "")


class _InstanceNorm(_NormBase):
    """Normalises each sample's channels over their own spatial extent."""

    _dims = 3

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = False,
                 track_running_stats: bool = False, device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device=device, dtype=dtype,
                         bias=bias)

    def _check_input_dim(self, input) -> None:
        if input.dim() not in (self._dims - 1, self._dims):
            raise ValueError(f"expected {self._dims - 1}D or {self._dims}D input (got {input.dim()}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - (self._dims - 1)
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                          "warning by not passing in num_features, which is not used because affine=False",
                          stacklevel=2)
        unbatched = input.dim() == self._dims - 1
        x = input.unsqueeze(0) if unbatched else input
        out = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats,
                              self.momentum if self.momentum is not None else 0.0, self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    _dims = 3


class InstanceNorm2d(_InstanceNorm):
    _dims = 4


class _Loss(Module):
    def __init__(self, reduction: str = "mean"):
        super().__init__()
        self.reduction = reduction


class GaussianNLLLoss(_Loss):
    __constants__ = ["full", "eps", "reduction"]

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
        super().__init__(reduction)
        self.full, self.eps = full, eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_Loss):
    __constants__ = ["reduction"]

    def __init__(self, weight=None, size_average=None, reduce=None, reduction: str = "mean"):
        super().__init__(reduction)
        self.register_buffer("weight", weight)

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)


class MultiMarginLoss(_Loss):
    __constants__ = ["p", "margin", "reduction"]

    def __init__(self, p: int = 1, margin: float = 1.0, weight=None, size_average=None, reduce=None,
                 reduction: str = "mean"):
        super().__init__(reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D instead")
        self.p, self.margin = p, margin
        self.register_buffer("weight", weight)

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)
