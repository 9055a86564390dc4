"""Loss nodes (``loss.*``): every loss of ``core.nn.functional``, inputs ``input`` and ``target`` and a
``reduction`` parameter (mean, sum or none)."""

from __future__ import annotations

from collections.abc import Callable

import core.nn.functional as F  # PyTorch's usual name
from core.nodegraph.model.nodes._common import call_code, op_node, reduction_param
from core.nodegraph.model.spec import Param

IGNORE = Param("ignore_index", "int", -100, doc="target value that contributes nothing")
LOSSES: dict[str, tuple[Callable[..., object], str, tuple[Param, ...]]] = {
    "mse": (F.mse_loss, "mean squared error", ()),
    "l1": (F.l1_loss, "mean absolute error", ()),
    "smooth_l1": (F.smooth_l1_loss, "squared below beta, absolute above", (Param("beta", "float", 1.0, 0.0),)),
    "huber": (F.huber_loss, "squared below delta, linear above", (Param("delta", "float", 1.0, 0.0),)),
    "cross_entropy": (F.cross_entropy, "log_softmax + nll: logits against class indices or probabilities",
                      (IGNORE, Param("label_smoothing", "float", 0.0, 0.0, 1.0))),
    "nll": (F.nll_loss, "negative log-likelihood of log-probabilities", (IGNORE,)),
    "bce": (F.binary_cross_entropy, "binary cross entropy of probabilities in [0, 1]", ()),
    "bce_with_logits": (F.binary_cross_entropy_with_logits, "sigmoid + binary cross entropy, stably", ()),
    "kl_div": (F.kl_div, "KL divergence; input holds log-probabilities", (Param("log_target", "bool", False),)),
    "soft_margin": (F.soft_margin_loss, "log(1 + exp(-target * input)) for targets ±1", ()),
    "poisson_nll": (F.poisson_nll_loss, "Poisson negative log-likelihood",
                    (Param("log_input", "bool", True), Param("full", "bool", False))),
}

for _name, (_fn, _doc, _params) in LOSSES.items():
    op_node(f"loss.{_name}", _name, _doc, (lambda fn: lambda input, target, **p: fn(input, target, **p))(_fn),
            inputs=("input", "target"), params=_params + (reduction_param(),),
            code=call_code(f"F.{_fn.__name__}", ("input", "target"), _params + (reduction_param(),)))
