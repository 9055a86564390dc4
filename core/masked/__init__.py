"""``torch.masked``: reductions and normalizations over the elements a boolean mask keeps (``core.masked._ops``)."""

from core.masked import _ops
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

__all__ = ["amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logaddexp", "logsumexp", "mean",
           "median", "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var", "_ops"]
