"""A bool or float ``dim`` given by keyword (``x.squeeze(dim=True)``, ``torch.std(x, dim=1.0)``) is refused in the
words PyTorch's parser has for a keyword (``got (dim=bool, )``, "some of the keywords were incorrect: dim"), which
differ from its words for the same value by position; ``sort``/``argsort`` refuse one too (they sorted along dim 1),
and ``std``/``var``/``var_mean``/``std_mean`` a float dim by position."""

from __future__ import annotations

import pytest

import core

OPS = ["softmax", "log_softmax", "cumsum", "cumprod", "sum", "mean", "prod", "std", "var", "argmax", "max", "min",
       "logsumexp", "amax", "nansum", "median", "squeeze", "unsqueeze", "all", "any", "count_nonzero", "sort",
       "argsort", "logcumsumexp", "cummax", "nanmean", "mode"]


def _refusal(lib, expr):
    x = lib.arange(12.0).reshape(3, 4)
    with pytest.raises(TypeError) as info:
        eval(expr, {"lib": lib, "x": x})
    return type(info.value).__name__, str(info.value)


@pytest.mark.parametrize("value", ["True", "1.0"])
@pytest.mark.parametrize("form", ["x.{}(dim={})", "lib.{}(x, dim={})"])
@pytest.mark.parametrize("op", OPS)
def test_bool_or_float_dim_by_keyword_is_refused_in_torchs_words(torch, op, form, value):
    expr = form.format(op, value)
    assert _refusal(core, expr) == _refusal(torch, expr)


@pytest.mark.parametrize("value", ["True", "1.0"])
@pytest.mark.parametrize("form", ["x.{}({})", "lib.{}(x, {})"])
@pytest.mark.parametrize("op", ["sort", "argsort"])
def test_sort_refuses_a_bool_or_float_dim_by_position(torch, op, form, value):
    expr = form.format(op, value)
    assert _refusal(core, expr) == _refusal(torch, expr)


@pytest.mark.parametrize("expr", ["x.std(1.0)", "lib.std(x, 1.0)", "x.var(1.0)", "lib.var(x, 1.0)",
                                  "lib.var_mean(x, 1.0)", "lib.std_mean(x, 1.0)", "lib.var_mean(x, dim=True)",
                                  "lib.std_mean(x, dim=1.0)", "lib.std(x, 'a', True)", "x.std('a', True)",
                                  "lib.std(x, 'a')", "lib.var(x, 1.5, False)", "lib.var_mean(x, 'a', True)",
                                  "x.var(2.0, True)"])
def test_variance_ops_refuse_a_float_dim_and_a_bool_one_by_keyword(torch, expr):
    # NOTE: with unbiased after the dim the parser lists it too, and no overload takes that many: no "didn't match"
    assert _refusal(core, expr) == _refusal(torch, expr)


@pytest.mark.parametrize("expr", ["x.sort(1)", "lib.sort(x, dim=0, descending=True)", "x.argsort(dim=-1)",
                                  "lib.argsort(x, 0)", "lib.var_mean(x, True)", "lib.std_mean(x, 1)",
                                  "lib.var_mean(x, dim=(0, 1))"])
def test_int_dims_and_a_positional_unbiased_still_work(torch, expr):
    def run(lib):
        out = eval(expr, {"lib": lib, "x": lib.arange(12.0).reshape(3, 4) ** 1.5})
        parts = out if isinstance(out, tuple) else (out,)
        return [[round(v, 4) for v in p.reshape(-1).tolist()] for p in parts]

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", ["x.topk(True)", "lib.topk(x, True)", "x.topk(1.0)", "lib.topk(x, 2.0)",
                                  "x.topk(k=True)", "lib.topk(x, k=1.0)"])
def test_topk_refuses_a_bool_or_float_k_in_torchs_words(torch, expr):
    """torch's parser takes no bool as ``k`` (core's topk(x, True) was the top 1)."""
    assert _refusal(core, expr) == _refusal(torch, expr)


@pytest.mark.parametrize("expr", ["x.topk(2)", "lib.topk(x, 1, dim=0)", "x.topk(k=2, largest=False)"])
def test_topk_with_an_int_k_still_works(torch, expr):
    def run(lib):
        values, indices = eval(expr, {"lib": lib, "x": lib.arange(12.0).reshape(3, 4) ** 1.5})
        return [round(v, 4) for v in values.reshape(-1).tolist()], indices.tolist()

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", [
    "lib.cat([x, x], dim=1.5)", "lib.cat([x, x], 1.5)", "lib.cat(tensors=[x], dim='a')", "lib.cat([x], True)",
    "lib.cat([x], dim=True)", "lib.stack([x], dim=1.5)", "lib.stack([x], 'a')", "lib.concat([x], dim=1.5)",
    "lib.concatenate([x], axis=1.5)", "lib.cat([x], dim=1.5, out=lib.empty(0))",
    "x.sum(dim=1.0, keepdim='a')", "lib.sum(x, dim=1.0, keepdim='a')", "lib.max(x, dim=1.0, keepdim='b')",
    "lib.min(x, keepdim='b', dim=1.0)", "x.std(dim=1.0, unbiased='a')", "lib.softmax(x, dim='a', dtype=3)",
    "x.softmax(1, dtype=3)", "lib.log_softmax(x, 1, 3)"])
def test_several_wrong_arguments_are_refused_in_torchs_words(torch, expr):
    """The parser's first wrong argument (dim before dtype), the keywords listed last first, cat and stack naming
    their ``dim`` (core said 'dim must be an int, got float' and read softmax's dtype first)."""
    assert _refusal(core, expr) == _refusal(torch, expr)
