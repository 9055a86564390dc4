"""The events PyTorch 2.13's CPU profile shows inside what core computes without ops: a backward node's kernels,
the engine's gradient seed and layout fixes, an optimizer's per-parameter updates.

core's backward formulas and optimizers run on arrays (or other ops than ATen's), so a whole training step's
profile would miss or misname them. While a profile is open, the engine records each node as PyTorch's does
(``autograd::engine::evaluate_function: <name>`` around the node's own event) and, for the nodes listed here,
the ATen calls PyTorch's formula makes in its place (``children``); a node not listed records core's own ops.
Each tree is ``(name, children)``. What is here is what a small MLP's step (Linear, ReLU, a mean squared error,
SGD or Adam with their defaults) records in PyTorch; see tests/core/test_profiler_training_step_oracle.py.
"""

from __future__ import annotations

AS_STRIDED = (("aten::as_strided", ()),)
TO_COPY = ("aten::to", (("aten::_to_copy", (("aten::empty_strided", ()), ("aten::copy_", ()))),))
T = ("aten::t", (("aten::transpose", AS_STRIDED),))
ONES_LIKE = ("aten::ones_like", (("aten::empty_like", (("aten::empty_strided", ()),)), ("aten::fill_", ())))
_DETACH = (("aten::detach", (("detach", ()),)),)


def _resolve_conj(n: int) -> tuple:
    return tuple(("aten::resolve_conj", ()) for _ in range(n))


def _needs(node, i: int) -> bool:
    need = getattr(node, "needs_input_grad", ())
    return i < len(need) and bool(need[i])


def _mean(node):
    return (("aten::expand", AS_STRIDED), ("aten::div", (TO_COPY,))), ()


def _pow(node):
    exponent = getattr(node, "_saved_exponent", None)  # (a tensor exponent's node: core's own ops)
    if type(exponent) not in (int, float):
        return None
    inner = (("aten::result_type", ()), ("aten::to", ())) + ((("aten::copy_", ()),) if exponent - 1 == 1 else ())
    return (("aten::pow", inner), ("aten::mul", (TO_COPY,)), ("aten::mul", ())), ()


def _sub(node):
    return ((("aten::neg", ()),) if _needs(node, 1) else ()), ()


def _addmm(node):
    """A Linear's product (``bias``, ``x``, ``weight.t()``): mat1's gradient ``grad.mm(weight)``, mat2's
    ``grad.t().mm(x).t()``; a bias's is summed to its shape by the engine after the node."""
    inside = ()
    if _needs(node, 1):
        inside += (T, ("aten::mm", _resolve_conj(3)))
    if _needs(node, 2):
        inside += (T, ("aten::mm", _resolve_conj(2)), T)
    after = (("aten::sum", (("aten::fill_", ()),)), ("aten::view", ())) if _needs(node, 0) else ()
    return inside, after


_BACKWARD = {
    "MeanBackward0": _mean,
    "PowBackward0": _pow,
    "SubBackward0": _sub,
    "AddmmBackward0": _addmm,
    "TBackward0": lambda node: ((T,), ()),
    "ReluBackward0": lambda node: ((("aten::threshold_backward", ()),), ()),
}


def backward_children(node, name: str):
    """``(inside, after)``: the trees PyTorch records inside the node's event and after it (inside the engine's
    ``evaluate_function``), or None where core's own ops are recorded."""
    if name == "torch::autograd::AccumulateGrad":
        leaf = node.variable
        return (_DETACH if leaf is None or leaf.grad is None else (("aten::add_", ()),)), ()
    rule = _BACKWARD.get(name)
    return None if rule is None else rule(node)


# ----- optimizers ---------------------------------------------------------------------------------------
_ADAM_INIT = (("aten::empty", ()), ("aten::to", ()), ("aten::lift_fresh", ()), ("aten::detach_", (("detach_", ()),)),
              ("aten::zeros_like", (("aten::empty_like", (("aten::empty_strided", ()),)), ("aten::zero_", ()))),
              ("aten::zeros_like", (("aten::empty_like", (("aten::empty_strided", ()),)), ("aten::zero_", ()))))
_ADAM_UPDATE = (("aten::add_", (TO_COPY,)), ("aten::lerp_", ()), ("aten::mul_", (TO_COPY,)), ("aten::addcmul_", ()),
                ("aten::item", (("aten::_local_scalar_dense", ()),)), ("aten::sqrt", ()), ("aten::div", (TO_COPY,)),
                ("aten::add_", (TO_COPY,)), ("aten::addcdiv_", ()))


def _plain(group: dict, **defaults) -> bool:
    return all(group.get(k, v) == v for k, v in defaults.items())


def optimizer_trees(optimizer) -> tuple:
    """The per-parameter events of ``optimizer.step()`` in PyTorch's single-tensor (for-loop) implementation, the
    CPU default: ``(before the update, ...)``, empty where core knows no tree for its options."""
    kind = type(optimizer).__name__
    events: list = []
    for group in optimizer.param_groups:
        params = [p for p in group["params"] if p.grad is not None]
        if kind == "SGD" and _plain(group, momentum=0, weight_decay=0, maximize=False):
            events += [("aten::add_", ())] * len(params)
        elif kind == "Adam" and _plain(group, weight_decay=0, amsgrad=False, maximize=False, capturable=False):
            fresh = [p for p in params if len(optimizer.state.get(p, ())) == 0]
            events += list(_ADAM_INIT) * len(fresh) + list(_ADAM_UPDATE) * len(params)
    return tuple(events)
