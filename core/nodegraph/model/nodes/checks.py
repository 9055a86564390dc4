"""``check.gradcheck``: the analytical gradient of an expression against central finite differences (float64).

Design (works headless): the node's input ``x`` is the point to check at; the function checked is the
``formula`` parameter over the single name ``x`` (the safe expression language), unless the optional
``function`` input is connected -- a Python callable tensor -> tensor that a session may pass (e.g. a
compiled subgraph) or a test may pass (e.g. a deliberately wrong custom ``Function``). ``x`` is copied to
float64, so the check never touches the graph it is attached to.

Outputs: ``out`` = a record ``{"passed", "max_error", "errors"}``; ``errors`` has ``x``'s shape and holds,
per input element, the largest |analytical - numerical| over the output elements; ``passed`` is true when
every Jacobian entry satisfies |a - n| <= atol + rtol * |n| (gradcheck's rule).

Export: ``passed`` is ``torch.autograd.gradcheck(lambda x: <formula>, (x,), eps=..., atol=..., rtol=...,
raise_exception=False)`` (the same rule), printed ``check = True`` like the chapter's ``print(gradcheck(...))``;
``out``, ``max_error`` and ``errors`` have no code (PyTorch's gradcheck returns only the verdict), nor does a
connected ``function`` input. The formula is written as Python when torch reads it the same way
(``(x ** 3).sum()``, ``torch.exp(x)``), else as its inlined node types.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TypedDict

import core
from core.nodegraph.model.nodes._common import require
from core.nodegraph.model.spec import CodeGen, EvalContext, NamedValues, NodeSpec, Param, Port, register

MAX_JACOBIAN = 1_000_000
Fn = Callable[[core.Tensor], core.Tensor]  # the function checked: tensor -> tensor


class GradcheckReport(TypedDict):
    """What ``gradcheck_report`` finds; the node outputs each entry on its own port too."""

    passed: bool
    max_error: float
    errors: core.Tensor  # x's shape: per input element, the largest |analytical - numerical|


def _analytical(fn: Fn, x: core.Tensor) -> core.Tensor:
    y = fn(x).reshape(-1)
    rows = []
    for i in range(y.numel()):
        (g,) = core.autograd.grad(y[i], x, retain_graph=True, allow_unused=True)
        rows.append(core.zeros_like(x).reshape(-1) if g is None else g.reshape(-1))
    return core.stack(rows) if rows else core.zeros(0, x.numel(), dtype=x.dtype)


def _numerical(fn: Fn, x: core.Tensor, eps: float) -> core.Tensor:
    cols = []
    with core.no_grad():
        for j in range(x.numel()):
            step = core.zeros(x.numel(), dtype=x.dtype, device=x.device)
            step[j] = eps
            step = step.reshape(x.shape)
            cols.append(((fn(x + step) - fn(x - step)) / (2 * eps)).reshape(-1))
    return core.stack(cols, dim=1)


def gradcheck_report(fn: Fn, x: core.Tensor, eps: float = 1e-6, atol: float = 1e-5,
                     rtol: float = 1e-3) -> GradcheckReport:
    """Compare d fn / d x by autograd and by central differences at ``x`` (copied to float64)."""
    x64 = x.detach().to(core.float64).requires_grad_(True)
    out_numel = fn(x64).numel()
    require(out_numel * x64.numel() <= MAX_JACOBIAN,
            f"check.gradcheck: the Jacobian is too large ({out_numel} x {x64.numel()} entries)")
    analytical = _analytical(fn, x64).detach()
    numerical = _numerical(fn, x64.detach(), eps)
    diff = (analytical - numerical).abs()
    errors = diff.amax(dim=0).reshape(x.shape) if diff.numel() else core.zeros(x.shape, dtype=core.float64)
    passed = bool((diff <= atol + rtol * numerical.abs()).all())
    return {"passed": passed, "max_error": float(diff.max()) if diff.numel() else 0.0, "errors": errors}


def _evaluate(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> dict[str, object]:
    from core.nodegraph.model import expression  # the expression module imports the node registry

    fn = inputs.get("function")
    if fn is None:
        fn = (lambda formula: lambda x: expression.evaluate(formula, {"x": x}))(p["formula"])
    require(callable(fn), "check.gradcheck: the 'function' input must be callable")
    report = gradcheck_report(fn, inputs["x"], p["eps"], p["atol"], p["rtol"])
    return {"out": report, **report}


# Calls the formula may hold that torch spells differently: written under another namespace, or (None) with
# other arguments or results than the node type's (``permute(x, 1, 0)``, ``max(x, 0)``): the formula is inlined.
_SPELLED = {**{n: "F." for n in ("relu6", "gelu", "silu", "softplus", "leaky_relu", "elu", "logsigmoid",
                                 "mse_loss", "l1_loss", "cross_entropy", "binary_cross_entropy",
                                 "binary_cross_entropy_with_logits")},
            **{n: "torch.linalg." for n in ("solve", "det", "inv", "cholesky", "pinv")},
            **dict.fromkeys(("permute", "reshape", "cat", "stack", "max", "min", "median"))}


def python_formula(formula: str) -> str | None:
    """The formula as Python that torch computes the same way (bare functions prefixed ``torch.``), or None."""
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else str(getattr(node.func, "attr", ""))
        if name in _SPELLED and _SPELLED[name] is None:
            return None
        if isinstance(node.func, ast.Name):
            namespace = _SPELLED.get(name) or "torch."
            node.func = ast.Attribute(ast.Name(namespace[:-1], ast.Load()), name, ast.Load())
    return ast.unparse(tree)


def _code(cg: CodeGen) -> dict[str, str]:
    if "function" in cg.inputs:
        cg.refuse("a connected 'function' input can't be exported; the script checks the formula")
    p = cg.params
    body = python_formula(p["formula"]) or cg.formula(p["formula"], {"x": "x"})
    x = cg.inputs.get("x", "None")
    value = cg.input_value("x")
    if not (isinstance(value, core.Tensor) and value.dtype == core.float64 and value.requires_grad):
        x = f"{x}.detach().double().requires_grad_()"  # the node checks a float64 copy
    return {"passed": f"torch.autograd.gradcheck(lambda x: {body}, ({x},), eps={p['eps']!r}, atol={p['atol']!r}, "
                      f"rtol={p['rtol']!r}, raise_exception=False)"}


register(NodeSpec(
    "check.gradcheck", "check", "gradcheck", "autograd's gradient against finite differences (float64)", _evaluate,
    inputs=(Port("x"), Port("function", "any", optional=True, doc="a callable used instead of the formula")),
    outputs=(Port("out", "any"), Port("passed", "scalar"), Port("max_error", "scalar"), Port("errors")),
    params=(Param("formula", "str", "(x ** 3).sum()", doc="a function of x in the expression language"),
            Param("eps", "float", 1e-6, 1e-12, 1.0), Param("atol", "float", 1e-5, 0.0),
            Param("rtol", "float", 1e-3, 0.0)), code=_code))
