"""Oracle tests for Tensor methods called with wrong arguments: the exception type and the first line of its message
are torch's (its argument parser's words), and a call torch takes gives torch's values.

Before: ``x.view()`` was a RuntimeError about shape '[]', ``x.sum(0, True, 1, 2)`` and ``x.transpose(0)`` failed in
Python's words ("takes from 1 to 3 positional arguments but 5 were given", counting ``self``), ``x.sum(0, 1)`` and
``keepdim=1`` summed with keepdim (torch's parser takes no int for a bool), ``x.sort(0, stable=True)`` sorted
(torch's ``stable`` signature takes dim only by keyword), ``x.eq()`` named ``_comparison.<locals>.op``,
``x.gather(None)`` and ``x.tril(1.5)`` were no TypeError naming the argument (or ran), and
``repr(torch.Size([2**63]))`` printed an int past int64.
"""

from __future__ import annotations

import pytest

FIXED = [
    "x.view()", "x.reshape()", "x.sum(0, True, 1, 2)", "x.mean(0, True, 1, 2)", "x.add()", "x.add(1, 2, 3, 4)",
    "x.transpose(0)", "x.transpose()", "x.transpose(0, 1, 2)", "x.max(1, True, 3)", "x.topk()", "x.narrow(0)",
    "x.unsqueeze()", "x.index_select(0)", "x.matmul()", "x.gather()", "x.eq()", "x.lt(1, 2, 3)", "x.gt(bogus=1)",
    "x.sum(0, 1)", "x.sum(0, keepdim=1)", "x.sum(dim=0, keepdim=1)", "torch.sum(x, 0, 1)",
    "torch.sum(x, 0, keepdim=1)", "x.sum(0, keepdim=None)", "x.sum(0, 'a')", "x.mean(0, 1)", "x.mean(0, keepdim=1)",
    "x.prod(0, 1)", "x.amax(0, 1)", "x.amin(0, keepdim=1)", "x.max(0, 1)", "x.min(0, keepdim=1)",
    "x.max(0, keepdim=None)", "x.median(0, 1)", "x.mode(0, 1)", "x.nanmedian(1, 1)", "x.logsumexp(0, 1)",
    "x.nansum(0, 1)", "x.nanmean(0, 1)", "x.argmax(0, 1)", "x.argmin(0, keepdim=1)", "x.kthvalue(1, 0, 1)",
    "x.kthvalue(2, 1, keepdim=1)", "x.kthvalue(2.0)", "x.aminmax(dim=0, keepdim=1)", "x.all(0, 1)",
    "x.any(0, keepdim=1)", "x.std(0, 1)", "x.var(0, keepdim=1)", "x.std(0, True, 1)", "x.var(0, unbiased=1)",
    "x.std(0, 1, True)", "x.topk(1, 0, 1)", "x.topk(1, 0, True, 1)", "x.topk(2, 1, largest=1)", "x.sort(0, 1)",
    "x.sort(0, descending=1)", "x.argsort(0, 1)", "x.sort(0, True, stable=True)", "x.sort(0, stable=True)",
    "x.sort(0, stable=True, descending=True)", "x.sort(0, descending=True, stable=None)",
    "x.argsort(0, True, stable=True)", "x.argsort(0, stable=True)", "repr(torch.Size([2**63]))",
    "str(torch.Size([-2**63 - 1]))", "torch.Size([2**64]).numel()", "torch.Size([2**63])[0]", "torch.reshape(x)",
    "x.gather(None)", "x.gather(1.5)", "x.select(1.5)", "x.index_select(None)", "x.tril(1.5)", "x.triu(None)",
    "x.diag(1.5)", "x.chunk(1.5)", "x.chunk(None)", "x.repeat(1.5)", "x.repeat(1.5, 2)", "x.permute(1.5)",
    "x.expand(None)", "x.split(1.5)", "x.eq(None)", "x.pow(None)", "x.fill_(None)", "x.add(None)", "x.mm(1.5)",
    "x.matmul(None)", "x.cumsum(None)", "x.flatten(1.5)", "x.unbind(1.5)", "x.unsqueeze(None)", "x.softmax(None)",
    "x.sort(None)", "x.argsort(None)", "x.kthvalue(None)", "x.topk(None)", "x.transpose(1.5)", "x.mode(None)",
    # a None dim, or keepdim without a dim, is no "all elements" to the parser (Python's defaults took them)
    "x.max(None)", "x.min(None)", "x.median(None)", "x.prod(None)", "x.squeeze(None)", "x.max(dim=None)",
    "torch.max(x, None)", "torch.min(x, None)", "torch.median(x, None)", "torch.prod(x, None)",
    "torch.squeeze(x, None)", "x.max(keepdim=True)", "torch.max(x, keepdim=True)", "x.median(keepdim=True)",
    "x.max(x, True)", "x.min(x, True)", "torch.max(x, x, True)",
    # a float shift, start or length is no int to the parser (int() truncated it, or __index__ was missing)
    "x.roll(1.5)", "x.roll(1.5, 0)", "torch.roll(x, 1.5)", "x.roll([1.5])", "x.roll((1.5,))", "x.roll(True)",
    "x.roll([1, 1.5], [0, 1])", "x.roll((1, 1.5), (0, 1))", "torch.roll(x, [1, 2, 1.5], [0, 1, 1])",
    "x.roll(torch.tensor(1))", "x.roll((1, 1), (0, 1))", "x.narrow(0, 0.0, 1)", "x.narrow(0, 0, 1.0)",
    "x.narrow(0, None, 1)", "torch.narrow(x, 0, 0.0, 1)", "torch.narrow(x, 0, 0, None)",
    "x.narrow(0, torch.tensor(1), 1)",
    # unique's flags are bools to the parser of the op it calls (truthiness took 1 and 0)
    "x.unique(sorted=1)", "x.unique(sorted=0)", "torch.unique(x, sorted=1)", "x.unique(return_inverse=1)",
    "x.unique(return_counts=1)", "x.unique(True, 1)", "x.unique(dim=0, sorted=1)", "x.unique(sorted=None)",
    "x.unique(sorted=False)", "torch.unique(x, True, True, True)",
]
ALREADY = [
    "x.sort(0, True)", "x.sort(stable=True, dim=0)", "x.sort(stable=False, dim=0, descending=True)",
    "x.sort(stable=None)", "x.argsort(stable=True, dim=0)", "x.argsort(0, True)", "x.topk(2, 1, True, True)",
    "x.topk(2, dim=1, largest=False, sorted=True)", "x.topk(k=2)", "torch.topk(x, 2, 1, False)", "x.max(1, True)",
    "x.max(dim=1)", "x.min(1, keepdim=True)",
    "x.max()", "torch.min(x)", "x.median()", "x.prod()", "x.squeeze()", "torch.max(x, 1, True)", "x.max(x)",
    "x.max(other=x)",
    "x.median(1, True)", "x.median(dim=1)", "x.kthvalue(2, 1, True)", "x.kthvalue(k=2, dim=1, keepdim=True)",
    "x.mode(dim=1, keepdim=True)", "x.nanmedian(1, True)", "x.cummax(dim=1)", "x.aminmax(0)", "torch.Size([-2**63])",
    "torch.Size([2**63 - 1])", "torch.Size([1.5])", "x.squeeze(0, 1, 2)", "x.flatten(0, 1, 2)", "x.permute()",
    "x.clamp()", "x.sum(2**63)", "torch.roll(x, 2**63)", "x.unsqueeze(2**63)", "torch.full((2,), 2**63)",
    "torch.tensor([2**63])", "x.narrow(0, 2**63, 1)", "torch.ones(1).view(())",
]
SWEPT = """abs add addmm all amax amin any argmax argmin argsort bmm chunk clamp clone contiguous cos cumsum detach diag
div dot eq exp expand expand_as fill_ flatten flip gather ge gt index_select isnan kthvalue le log log_softmax
logsumexp lt masked_fill matmul max mean median min mm mode mul mv narrow ne neg norm permute pow prod relu
repeat reshape roll round scatter select sigmoid sin softmax sort split sqrt squeeze std sub sum t tanh to
topk transpose tril triu unbind unflatten unsqueeze var view view_as where zero_""".split()
FORMS = ("()", "(1, 1, 1, 1, 1, 1, 1)", "(bogus=1)", "(None)", "(1.5)")
# the sweep's calls whose type or first line still differ from torch's: listed, not hidden (a None taken as "no dim"
# or a float shift where torch's parser refuses them; Python-level methods torch names Tensor.norm, Tensor.split,
# Tensor.unflatten; to()'s own parsing)
DIFFERENT = set("""
x.norm(1,1,1,1,1,1,1) x.norm(bogus=1)
x.split() x.split(1,1,1,1,1,1,1) x.split(None) x.split(bogus=1) x.to(1,1,1,1,1,1,1) x.to(1.5)
x.to(bogus=1) x.unflatten() x.unflatten(1,1,1,1,1,1,1) x.unflatten(1.5) x.unflatten(None)
x.unflatten(bogus=1)""".split())
SWEEP = [f"x.{name}{form}" for name in SWEPT for form in FORMS if f"x.{name}{form}".replace(" ", "") not in DIFFERENT]


def _outcome(lib, snippet: str):
    """What ``snippet`` gives with ``lib`` as ``torch``: the exception's type and first line, or the values."""
    x = lib.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    try:
        out = eval(snippet, {"torch": lib, "x": x})  # (the snippet as a user writes it: a method call on x)
    except Exception as error:  # (the type is what is compared)
        return type(error).__name__, str(error).split("\n")[0]
    if isinstance(out, tuple):  # (values and indices, a Size, unbind's tensors)
        return "ok", [part.tolist() if hasattr(part, "tolist") else part for part in out]
    return "ok", out.tolist() if hasattr(out, "tolist") else repr(out)


@pytest.mark.parametrize("snippet", FIXED + ALREADY)
def test_a_method_given_wrong_arguments_raises_torchs_error(snippet, torch):
    import core

    assert _outcome(core, snippet) == _outcome(torch, snippet)


@pytest.mark.parametrize("snippet", ["torch.roll(x, -2**63)", "x.roll(-2**63)", "torch.roll(x, [1, -2**63], [0, 1])"])
def test_a_shift_of_minus_two_to_the_63_is_torchs_runtime_error(snippet, torch):
    """-2**63 fits int64 but no SymInt (torch reserves it); torch's message starts with its build's source path."""
    import core

    (kind, words), (torch_kind, torch_words) = _outcome(core, snippet), _outcome(torch, snippet)
    assert (kind, torch_kind) == ("RuntimeError", "RuntimeError") and torch_words.endswith(": " + words)


@pytest.mark.parametrize("snippet", SWEEP)
def test_the_sweep_of_common_methods_with_bad_arguments_matches_torch(snippet, torch):
    import core

    assert _outcome(core, snippet) == _outcome(torch, snippet)


@pytest.mark.parametrize("snippet", ["x.add(1, 2, 3, 4)", "x.transpose(0)", "x.sum(0, True, 1, 2)", "x.eq()",
                                     "x.sort(0, stable=True)", "x.view()", "x.gather(None)", "x.sum(0, 1)"])
def test_the_words_hold_once_a_tensor_subclass_turned_dispatch_on(snippet, torch):
    """A Tensor subclass (a user's, another test module's) makes every method dispatch, a frame deeper."""
    import core

    class Marked(core.Tensor):  # (defining it turns __torch_function__ dispatch on for the process)
        pass

    assert _outcome(core, snippet) == _outcome(torch, snippet)
