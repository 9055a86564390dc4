"""``torch._higher_order_ops.cond``: ``cond(pred, true_fn, false_fn, operands)``, run eagerly (``torch.cond``).

Where autograd records, the chosen branch runs as one ``CondAutogradOpBackward`` node over ``pred`` and the
operands, as PyTorch's: its backward runs the branch again on the saved operands and differentiates it, so the
outputs' ``grad_fn`` and ``next_functions`` are PyTorch's (the branch's own nodes are not on the graph)."""

from __future__ import annotations

from core._runtime_names import cond
from core.autograd.function import Function

__all__ = ["cond"]


class CondAutogradOp(Function):
    """The node of a ``cond`` whose operands require grad (its name is PyTorch's: ``CondAutogradOpBackward``)."""

    @staticmethod
    def forward(ctx, pred, *operands):
        ctx.branch = branch = _branches.pop()  # (not an input: the node's inputs are PyTorch's, pred and operands)
        ctx.save_for_backward(*operands)
        out = branch(*operands)
        single = not isinstance(out, (tuple, list))
        outs = tuple(o.clone() if any(o is x for x in operands) else o for o in ((out,) if single else out))
        ctx.kind = "one" if single else type(out)
        return outs[0] if single else outs

    @staticmethod
    def backward(ctx, *grads):
        import core

        operands = list(ctx._unpacked)  # (themselves: a create_graph backward differentiates through them)
        wanted = [x for x in operands if x.requires_grad]
        with core.enable_grad():
            out = ctx.branch(*operands)
        outs = (out,) if ctx.kind == "one" else tuple(out)
        pairs = [(o, g) for o, g in zip(outs, grads) if g is not None and o.requires_grad]
        found = iter(core.autograd.grad([o for o, _ in pairs], wanted, [g for _, g in pairs], allow_unused=True,
                                        create_graph=core.is_grad_enabled()) if pairs and wanted else ())
        return (None, *(next(found, None) if x.requires_grad else None for x in operands))


_branches: list = []  # the branch of the CondAutogradOp being applied


def recorded(pred, branch, operands):
    """``branch(*operands)``, as one ``CondAutogradOpBackward`` node where autograd records it (tensor operands,
    one of them requiring grad; tensor outputs), else as it runs."""
    import core

    if not (core.is_grad_enabled() and operands and all(isinstance(x, core.Tensor) for x in operands)
            and any(x.requires_grad for x in operands)):
        return branch(*operands)
    pred = pred if isinstance(pred, core.Tensor) else core.tensor(bool(pred))
    _branches.append(branch)
    return CondAutogradOp.apply(pred, *operands)
