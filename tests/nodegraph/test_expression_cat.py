"""Joins in formulas as PyTorch writes them: ``cat([x, w], 0)`` and ``stack([x, w], 1)`` take a list of tensors
and then the dim, in evaluation and in expansion alike; a misplaced list gets a message that says so."""

import pytest

import core
from core.nodegraph.model.expression import ExpressionError, evaluate, expand

X, W = core.tensor([1.0, 2.0]), core.tensor([3.0, 4.0])


@pytest.mark.parametrize("formula", ["cat([x, w], 0)", "cat((x, w), 0)", "cat([x, w], dim=0)", "cat([x, w])"])
def test_cat_of_a_list_then_a_dim_matches_torch_cat(formula, torch):
    got = evaluate(formula, {"x": X, "w": W})
    want = torch.cat([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])], 0)
    assert got.tolist() == want.tolist()


def test_stack_of_a_list_then_a_positional_dim_matches_torch_stack(torch):
    got = evaluate("stack([x, w], 1)", {"x": X, "w": W})
    assert got.tolist() == torch.stack([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])], 1).tolist()


def test_cat_of_a_list_then_a_dim_expands_to_one_join_node_with_that_dim():
    frag = expand("cat([x, w], 0)")
    (join,) = [n for n in frag["nodes"] if n["type"] == "join.cat"]
    assert join["params"] == {"dim": 0}
    assert sorted(e["to"][1] for e in frag["edges"]) == ["in0", "in1"]


def test_a_list_inside_the_list_of_tensors_is_refused_naming_the_form_cat_takes():
    with pytest.raises(ExpressionError, match=r"one list of tensors, then the dim"):
        evaluate("cat([x, [w]], 0)", {"x": X, "w": W})


def test_a_third_argument_after_the_list_and_the_dim_is_refused_as_too_many():
    with pytest.raises(ExpressionError, match="too many arguments"):
        evaluate("cat([x, w], 0, 1)", {"x": X, "w": W})
