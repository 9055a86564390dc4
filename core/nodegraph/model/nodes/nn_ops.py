"""Functional neural-network nodes (``nn.*``): activations, ``linear_fn``, ``conv2d``, pooling, dropout and
normalisation, each calling ``core.nn.functional`` (weights come in through ports; see ``layer.*`` for nodes
that own their parameters).

``nn.dropout`` is active only when ``ctx.training`` is true; its mask is drawn from the node's seed, else
``ctx.generator`` (reproducible), and kept entries are scaled by 1 / (1 - p) like ``F.dropout``.
``nn.batch_norm`` uses batch statistics when training or when no running statistics are connected.
"""

from __future__ import annotations

import core
import core.nn.functional as F  # PyTorch's usual name
from core.nodegraph.model.nodes._common import call_code, op_node, require
from core.nodegraph.model.nodes.sources import generator_for
from core.nodegraph.model.spec import CodeGen, EvalContext, NamedValues, NodeSpec, Param, Port, register

PLAIN = ("relu", "relu6", "selu", "silu", "mish", "sigmoid", "tanh", "softsign", "tanhshrink", "hardsigmoid",
         "hardswish", "logsigmoid")
WITH_PARAMS = {
    "leaky_relu": (Param("negative_slope", "float", 0.01),),
    "elu": (Param("alpha", "float", 1.0),),
    "celu": (Param("alpha", "float", 1.0),),
    "gelu": (Param("approximate", "choice", "none", choices=("none", "tanh")),),
    "softplus": (Param("beta", "float", 1.0), Param("threshold", "float", 20.0)),
    "hardtanh": (Param("min_val", "float", -1.0), Param("max_val", "float", 1.0)),
    "threshold": (Param("threshold", "float", 0.0), Param("value", "float", 0.0)),
    "softmin": (Param("dim", "int", -1),),
    "glu": (Param("dim", "int", -1),),
}

for _name in PLAIN:
    op_node(f"nn.{_name}", _name, f"activation {_name}(x)", getattr(F, _name), code=call_code(f"F.{_name}"))
for _name, _params in WITH_PARAMS.items():
    op_node(f"nn.{_name}", _name, f"activation {_name}(x, {', '.join(p.name for p in _params)})",
            (lambda fn: lambda x, **p: fn(x, **p))(getattr(F, _name)), params=_params,
            code=call_code(f"F.{_name}", ("x",), _params))

op_node("nn.linear_fn", "linear (functional)", "x @ weight.T + bias", F.linear, inputs=("x", "weight", "bias"),
        optional=("bias",), code="F.linear({x}, {weight}, {bias})")
_CONV = (Param("stride", "dims", 1), Param("padding", "dims", 0), Param("dilation", "dims", 1),
         Param("groups", "int", 1, 1))
op_node("nn.conv2d", "conv2d", "2-d convolution of (N, C, H, W) by weight (out, C/groups, kh, kw)", F.conv2d,
        inputs=("x", "weight", "bias"), optional=("bias",), params=_CONV,
        code=call_code("F.conv2d", ("x", "weight", "bias"), _CONV))
op_node("nn.conv1d", "conv1d", "1-d convolution of (N, C, L) by weight (out, C/groups, k)", F.conv1d,
        inputs=("x", "weight", "bias"), optional=("bias",), params=_CONV,
        code=call_code("F.conv1d", ("x", "weight", "bias"), _CONV))

_POOL = (Param("kernel_size", "dims", 2), Param("stride", "dims", None, doc="null: the kernel size"),
         Param("padding", "dims", 0))
for _name in ("max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d"):
    _what = "max pooling: the largest value" if _name.startswith("max") else "average pooling: the mean"
    op_node(f"nn.{_name}", _name, f"{_what} of each kernel_size window ({_name[-2]}-d)",
            (lambda fn: lambda x, **p: fn(x, **p))(getattr(F, _name)), params=_POOL,
            code=call_code(f"F.{_name}", ("x",), _POOL))
for _name in ("adaptive_avg_pool1d", "adaptive_avg_pool2d"):
    op_node(f"nn.{_name}", _name, "average pooling to a fixed output size",
            (lambda fn: lambda x, output_size: fn(x, output_size))(getattr(F, _name)),
            params=(Param("output_size", "dims", 1),), code=f"F.{_name}({{x}}, {{output_size}})")


def _dropout_code(cg: CodeGen) -> str:
    """Export: the same mask as ``_dropout`` (drawn from the node's seed, else the script's generator; a torch
    script replays the entries the session kept, which only differs where the input is exactly 0)."""
    x, p = cg.inputs["x"], cg.params["p"]
    if p == 0.0:
        return x
    if p == 1.0:
        return f"({x} * 0.0 if TRAINING else {x})"
    if cg.api == "core":
        gen = cg.generator(cg.params["seed"])
        keep = f"(torch.rand(tuple({x}.shape), generator={gen}, dtype={x}.dtype, device={x}.device) < {1.0 - p!r})"
    else:  # PyTorch's generator differs: replay the entries the session kept
        keep = cg.recorded("out", nonzero=True)
    return f"({x} * {keep}.to({x}.dtype) / {1.0 - p!r} if TRAINING else {x})"


def _dropout(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor:
    x = inputs["x"]
    if not ctx.training or p["p"] == 0.0:
        return x
    if p["p"] == 1.0:
        return x * 0.0
    keep = core.rand(tuple(x.shape), generator=generator_for(ctx, p["seed"]), dtype=x.dtype, device=x.device)
    return x * (keep < 1.0 - p["p"]).to(x.dtype) / (1.0 - p["p"])


register(NodeSpec("nn.dropout", "nn", "dropout", "zeroes entries with probability p while training", _dropout,
                  inputs=(Port("x"),), params=(Param("p", "float", 0.5, 0.0, 1.0),
                                               Param("seed", "seed", None, doc="null: the session's generator")),
                  code=_dropout_code))


def _batch_norm(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor:
    mean, var = inputs.get("running_mean"), inputs.get("running_var")
    require((mean is None) == (var is None), "nn.batch_norm: connect both running_mean and running_var, or neither")
    training = ctx.training or mean is None
    return F.batch_norm(inputs["x"], mean, var, inputs.get("weight"), inputs.get("bias"), training=training,
                        momentum=p["momentum"], eps=p["eps"])


register(NodeSpec("nn.batch_norm", "nn", "batch_norm", "normalise over the batch (and spatial) dims per channel",
                  _batch_norm, inputs=(Port("x"), Port("running_mean", optional=True),
                                       Port("running_var", optional=True), Port("weight", optional=True),
                                       Port("bias", optional=True)),
                  params=(Param("momentum", "float", 0.1, 0.0, 1.0), Param("eps", "float", 1e-5, 0.0)),
                  code=lambda cg: ("F.batch_norm({x}, {m}, {v}, {w}, {b}, training={t}, momentum={mo!r}, "
                                   "eps={e!r})").format(
                      x=cg.inputs["x"], m=cg.inputs.get("running_mean", "None"), v=cg.inputs.get("running_var", "None"),
                      w=cg.inputs.get("weight", "None"), b=cg.inputs.get("bias", "None"),
                      t="TRAINING" if "running_mean" in cg.inputs else "True", mo=cg.params["momentum"],
                      e=cg.params["eps"])))
op_node("nn.layer_norm", "layer_norm", "normalise over the last dims (normalized_shape)",
        lambda x, weight, bias, normalized_shape, eps: F.layer_norm(x, normalized_shape, weight, bias, eps),
        inputs=("x", "weight", "bias"), optional=("weight", "bias"),
        params=(Param("normalized_shape", "shape", (3,)), Param("eps", "float", 1e-5, 0.0)),
        code="F.layer_norm({x}, {normalized_shape}, {weight}, {bias}, {eps})")
op_node("nn.one_hot", "one_hot", "int64 class indices as one-hot rows", F.one_hot,
        params=(Param("num_classes", "int", -1, -1, doc="-1: one more than the largest index"),),
        code="F.one_hot({x}, {num_classes})")
