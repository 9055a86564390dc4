"""``torch.masked``: reductions and normalizations over the elements a boolean mask keeps (``core.masked._ops``),
and the prototype ``MaskedTensor`` (``core.masked._maskedtensor``)."""

from core.masked import _ops
from core.masked._maskedtensor import MaskedTensor, as_masked_tensor, is_masked_tensor, masked_tensor
from core.masked._ops import (
    amax,
    amin,
    argmax,
    argmin,
    cumprod,
    cumsum,
    log_softmax,
    logaddexp,
    logsumexp,
    mean,
    median,
    norm,
    normalize,
    prod,
    softmax,
    softmin,
    std,
    sum,
    var,
)

__all__ = ["MaskedTensor", "as_masked_tensor", "is_masked_tensor", "masked_tensor",
           "amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logaddexp", "logsumexp", "mean",
           "median", "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var", "_ops"]
