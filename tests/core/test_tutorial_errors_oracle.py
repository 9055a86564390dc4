"""Oracle tests for the errors a learner meets first: shapes that do not fit (matmul, cat, stack, view, reshape,
broadcasting, layers), a dim out of range, mixed dtypes in products and indices, requires_grad on integers, backward
of a non-scalar, in-place ops on a leaf. The exception type and the first line of its message are torch's.

Before: ``a.mm(d)`` with shapes that do not fit and a double ``d`` named the dtypes (torch names the shapes first),
``a.mv(v)`` and ``torch.bmm`` too, and ``torch.addmm(c, a, d)`` named the shapes where torch names the dtypes first.
"""

from __future__ import annotations

import pytest

SNIPPETS = [
    "a @ b", "torch.matmul(a, b)", "a.mm(b)", "torch.mm(a, v)", "a.mv(torch.ones(4))", "torch.bmm(a, a)",
    "torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 2, 2))", "torch.cat([a, b])", "torch.cat([a, b], 1)",
    "torch.cat([a, v])", "torch.stack([a, b])", "torch.stack([a, v])", "torch.cat([])", "torch.stack([])",
    "torch.cat([a, a], 2)", "torch.stack([a, a], 3)", "a.view(4, 2)", "a.view(-1, -1)", "a.reshape(4, 2)",
    "a.t().view(6)", "a.view(7)", "a.reshape(-1, 4)", "a.view(2, -1, 4)", "a.sum(2)", "a.sum(-3)", "a.mean(5)",
    "a.softmax(2)", "a.transpose(0, 2)", "a.unsqueeze(3)", "a.squeeze(2)", "a[:, 3]", "a[2]", "a.select(0, 5)",
    "a.narrow(1, 2, 2)", "a.argmax(2)", "a.max(2)", "torch.cat([a, a], -3)", "a.flatten(0, 2)", "a.permute(0, 2)",
    "a.permute(0, 0)", "a.mm(d)", "a.mm(d.t())", "a @ d", "a @ d.t()", "a + d", "torch.matmul(a, d)",
    "torch.mm(a.bool(), a.bool())", "torch.mm(a.long(), a)", "a.mv(torch.ones(2, dtype=torch.float64))",
    "a.mv(torch.ones(3, dtype=torch.float64))", "v.dot(torch.ones(2, dtype=torch.float64))",
    "torch.bmm(torch.ones(1, 2, 3), torch.ones(1, 2, 3, dtype=torch.float64))",
    "torch.bmm(torch.ones(1, 2, 3), torch.ones(1, 3, 3, dtype=torch.float64))",
    "torch.bmm(torch.ones(1, 2, 3).bool(), torch.ones(1, 2, 3).bool())", "torch.mv(a.bool(), torch.ones(2).bool())",
    "torch.mv(a.bool(), v.bool())", "torch.addmm(torch.ones(2, 2), a, d)", "torch.addmm(torch.ones(2, 2), a, d.t())",
    "torch.addmm(torch.ones(2, 3), a, a)", "torch.addmm(torch.ones(2, 2, dtype=torch.float64), a, a)",
    "torch.addmm(torch.ones(2, 2, dtype=torch.float64), a, a.t())", "torch.ones(2, 2).addmm_(a, d)",
    "torch.matmul(v, torch.ones(2, dtype=torch.float64))", "torch.ones(2, 2, 3) @ torch.ones(2, 2, 3).double()",
    "a.index_select(0, torch.tensor([0.0]))", "a[torch.tensor([0.5])]", "a.gather(1, torch.ones(2, 1))",
    "torch.ones(2, dtype=torch.long) @ torch.ones(2)", "a.scatter(0, torch.zeros(1, 1), 1.0)",
    "torch.nn.functional.cross_entropy(a, torch.tensor([0.0, 1.0]))",
    "torch.nn.functional.nll_loss(a, torch.tensor([0, 5]))", "torch.nn.functional.mse_loss(a, torch.ones(3, 2))",
    "torch.ones(3, dtype=torch.long, requires_grad=True)", "torch.tensor([1, 2], requires_grad=True)",
    "torch.ones(3, dtype=torch.long).requires_grad_()", "torch.arange(3).requires_grad_(True)",
    "torch.ones(3, requires_grad=True).mul(2).backward()", "a.backward()", "leaf.add_(1)", "leaf.zero_()",
    "torch.ones(3).backward()", "torch.nn.Linear(3, 4)(torch.ones(2, 5))",
    "torch.nn.Linear(3, 4)(torch.ones(2, 3, dtype=torch.float64))", "torch.nn.Conv2d(3, 8, 3)(torch.ones(1, 1, 5, 5))",
    "torch.nn.Conv2d(3, 8, 3)(torch.ones(3, 5))", "a.expand(3, 3)", "a.expand(2, 4)",
    "torch.ones(2, 3) + torch.ones(3, 2)", "a.masked_fill(torch.ones(3, 2, dtype=torch.bool), 0)",
    "a.masked_fill(torch.ones(2, 3), 0)", "torch.where(torch.ones(2, 3), a, a)", "a.item()", "torch.ones(0).item()",
    "leaf.numpy()",
]


def _outcome(lib, snippet: str):
    """``snippet`` run with ``lib`` as ``torch`` on fresh tensors: the exception's type and first line, or "ok"."""
    names = {"torch": lib, "a": lib.ones(2, 3), "b": lib.ones(4, 5), "v": lib.ones(3),
             "d": lib.ones(2, 3, dtype=lib.float64), "leaf": lib.ones(3, requires_grad=True)}
    try:
        eval(snippet, names)  # (the snippet as a learner writes it)
    except Exception as error:  # (the type is what is compared)
        return type(error).__name__, str(error).split("\n")[0]
    return "ok"


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_a_beginners_mistake_raises_torchs_error(snippet, torch):
    import core

    assert _outcome(core, snippet) == _outcome(torch, snippet)
