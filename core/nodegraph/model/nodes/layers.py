"""Layer nodes that own their parameters (``layer.linear``, ``layer.conv2d``, ``layer.mlp``).

The ``core.nn`` module lives in ``ctx.state["module"]``; it is built on the first evaluation (and rebuilt
when a parameter changes) with weights drawn from a generator seeded by the node's ``seed`` parameter, so the
values do not depend on ``core.manual_seed`` and building never disturbs core's global random state. The
module follows ``ctx.training`` and moves to ``ctx.device`` (keeping its trained values); ``node_parameters(ctx.state)``
lists its tensors.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import core
from core import nn
from core.nodegraph.model.nodes._common import build_for, require
from core.nodegraph.model.spec import EvalContext, EvalFn, NamedValues, NodeSpec, Param, Port, register

Make = Callable[[NamedValues], nn.Module]  # the validated parameters -> a fresh module

ACTIVATIONS = {"relu": nn.ReLU, "tanh": nn.Tanh, "sigmoid": nn.Sigmoid, "gelu": nn.GELU, "silu": nn.SiLU,
               "leaky_relu": nn.LeakyReLU}
SEED = Param("seed", "seed", 0, doc="seed of the initial weights")
BIAS = Param("bias", "bool", True, doc="add a learnable bias")


def _reset(module: nn.Module, seed: int) -> None:
    """PyTorch's default initialisation of every Linear/Conv weight and bias, drawn from ``seed``."""
    g = core.Generator().manual_seed(seed)
    for m in module.modules():
        if isinstance(m, (nn.Linear, nn.Conv2d)):
            nn.init.kaiming_uniform_(m.weight, a=math.sqrt(5), generator=g)
            if m.bias is not None:
                fan_in = m.weight[0].numel()
                bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
                nn.init.uniform_(m.bias, -bound, bound, generator=g)


def _build(make: Make, p: NamedValues, device: str) -> nn.Module:
    state = core.get_rng_state()
    try:
        module = make(p)
    finally:
        core.set_rng_state(state)
    _reset(module, p["seed"])
    return module.to(device)


def build_key(p: NamedValues) -> tuple:
    """What a layer's module is built for: every parameter (its sizes, bias and seed); another key rebuilds it."""
    return tuple(sorted(p.items()))


def _layer(make: Make) -> EvalFn:
    """An evaluate that keeps ``make(params)`` in ctx.state and applies it to input ``x``."""
    def evaluate(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor:
        # a session hands over the same dict of validated parameters while nothing changed: the build key is
        # compared only when another dict comes
        if ctx.state.get("params") is not p or "module" not in ctx.state:
            key = build_key(p)
            if ctx.state.get("key") != key or "module" not in ctx.state:
                ctx.state["module"] = build_for(ctx.state, lambda: _build(make, p, ctx.device))
                ctx.state["key"], ctx.state["device"] = key, ctx.device
            ctx.state["params"] = p
        module = ctx.state["module"]
        if ctx.state["device"] != ctx.device:  # a device change moves the trained weights, it never resets them
            module.to(ctx.device)
            ctx.state["device"] = ctx.device
        if module.training != ctx.training:  # train() walks every submodule: only when the mode changes
            module.train(ctx.training)
        return module(inputs["x"])
    return evaluate


def _mlp(p: NamedValues) -> nn.Sequential:
    sizes = p["sizes"]
    require(isinstance(sizes, tuple) and len(sizes) >= 2 and all(s > 0 for s in sizes),
            f"parameter 'sizes' needs at least two positive sizes, got {sizes}")
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(a, b, bias=p["bias"]))
        if i < len(sizes) - 2:
            layers.append(ACTIVATIONS[p["activation"]]())
    return nn.Sequential(*layers)


def _mlp_code(p: NamedValues) -> str:
    """Export: the constructor text of ``_mlp(p)``."""
    layers = []
    for i, (a, b) in enumerate(zip(p["sizes"][:-1], p["sizes"][1:])):
        layers.append(f"torch.nn.Linear({a}, {b}, bias={p['bias']})")
        if i < len(p["sizes"]) - 2:
            layers.append(f"torch.nn.{ACTIVATIONS[p['activation']].__name__}()")
    return f"torch.nn.Sequential({', '.join(layers)})"


def _features(name: str, default: int) -> Param:
    return Param(name, "int", default, 1, 1_000_000)


register(NodeSpec("layer.linear", "layer", "Linear", "x @ W.T + b with its own weights", _layer(
    lambda p: nn.Linear(p["in_features"], p["out_features"], bias=p["bias"])), inputs=(Port("x"),),
    params=(_features("in_features", 2), _features("out_features", 1), BIAS, SEED),
    code=lambda cg: cg.module("torch.nn.Linear({in_features}, {out_features}, bias={bias})"), build_key=build_key))
register(NodeSpec("layer.conv2d", "layer", "Conv2d", "2-d convolution with its own kernels", _layer(
    lambda p: nn.Conv2d(p["in_channels"], p["out_channels"], p["kernel_size"], stride=p["stride"],
                        padding=p["padding"], groups=p["groups"], bias=p["bias"])), inputs=(Port("x"),),
    params=(_features("in_channels", 1), _features("out_channels", 4), Param("kernel_size", "int", 3, 1, 64),
            Param("stride", "int", 1, 1, 64), Param("padding", "int", 0, 0, 64), Param("groups", "int", 1, 1),
            BIAS, SEED),
    code=lambda cg: cg.module("torch.nn.Conv2d({in_channels}, {out_channels}, {kernel_size}, stride={stride}, "
                              "padding={padding}, groups={groups}, bias={bias})"), build_key=build_key))
register(NodeSpec("layer.mlp", "layer", "MLP", "Linear layers of the given sizes with an activation between",
                  _layer(_mlp), inputs=(Port("x"),),
                  params=(Param("sizes", "shape", (2, 8, 8, 1), doc="layer widths, input first"),
                          Param("activation", "choice", "relu", choices=tuple(ACTIVATIONS)), BIAS, SEED),
                  code=lambda cg: cg.module(_mlp_code(cg.params)), build_key=build_key))
