"""Memory and compute budgets: an op whose result or cost is too big is refused before it runs, as an error
on its node that names the node and the size. Budgets here are tiny, so nothing large is ever allocated."""

import pytest

import core
import core.nodegraph
import core.nodegraph.model.nodes  # registers the built-in node types
from core.nodegraph.model import budget
from core.nodegraph.model.evaluate import evaluate
from core.nodegraph.model.inference import infer
from core.nodegraph.run.session import Session
from tests.nodegraph.graph_helpers import build

pytestmark = pytest.mark.usefixtures("default_budgets")


def _formula_graph(formula: str, title=None):
    return build([("x", "source.ones", {"shape": [1]}),
                  ("e", "expr.expression", {"formula": formula, "inputs": "x"}, title)], [("x", "out", "e", "x")])


def _product_graph(type_id: str, a_shape, b_shape, title=None):
    return build([("a", "source.zeros", {"shape": list(a_shape)}), ("b", "source.zeros", {"shape": list(b_shape)}),
                  ("p", type_id, {}, title)], [("a", "out", "p", "a"), ("b", "out", "p", "b")])


def test_a_product_over_the_memory_budget_is_refused_naming_the_node_and_the_size():
    core.nodegraph.set_memory_budget(1000)
    values = evaluate(_product_graph("linalg.mm", (20, 3), (3, 20)))
    err = values.errors["p"]
    assert err.type == "BudgetError"
    assert err.message.startswith("mm would make a 20x20 float32 tensor (1.6 KiB); the memory budget is 1000 bytes")
    assert "NODEGRAD_MEMORY_BUDGET" in err.message
    assert values.ok("a") and values.ok("b")


def test_a_node_with_its_own_title_is_named_by_that_title():
    core.nodegraph.set_memory_budget(1000)
    values = evaluate(_product_graph("linalg.outer", (40,), (40,), "big table"))
    assert values.errors["p"].message.startswith("big table: outer would make a 40x40 float32 tensor (6.2 KiB)")


def test_the_same_product_within_the_budget_runs_and_matches_core():
    core.nodegraph.set_memory_budget(2200)  # the product (1600 bytes) and its inputs (240 each): all held at once
    values = evaluate(_product_graph("linalg.mm", (20, 3), (3, 20)))
    assert not values.errors
    assert values["p"].shape == (20, 20)


def test_an_expanded_product_in_a_formula_is_refused_by_its_cost_before_it_runs():
    core.nodegraph.set_flop_budget(1e6)
    values = evaluate(_formula_graph("x.expand(100, 100) @ x.expand(100, 100)"))
    err = values.errors["e"]
    assert err.type == "BudgetError"
    assert err.message.startswith("Expression: matmul would take about 2e+06 floating-point operations "
                                  "(a 100x100 float32 result); the compute budget is 1e+06 per op")


@pytest.mark.parametrize("op, flops", [("det", 1e6), ("pinv", 2e7), ("inv", 2e6)])
def test_a_factorisation_costs_about_n_cubed_and_is_held_to_the_compute_budget(op, flops):
    core.nodegraph.set_flop_budget(flops * 0.99)
    refused = evaluate(_formula_graph(f"{op}(x.expand(100, 100))"))
    assert refused.errors["e"].type == "BudgetError"
    assert f"{op} would take about {flops:.2g} floating-point operations" in refused.errors["e"].message


def test_an_outer_product_of_expanded_vectors_is_refused_by_memory_not_a_numpy_memory_error():
    core.nodegraph.set_memory_budget(10_000)
    values = evaluate(_formula_graph("outer(x.expand(400), x.expand(400))"))
    assert values.errors["e"].message.startswith(
        "Expression: outer would make a 400x400 float32 tensor (625 KiB); the memory budget is 9.8 KiB")


def test_a_source_larger_than_the_budget_is_refused_before_it_allocates():
    core.nodegraph.set_memory_budget(4096)
    values = evaluate(build([("r", "source.randn", {"shape": [100, 100], "dtype": "float64"})]))
    assert values.errors["r"].message.startswith("randn would make a 100x100 float64 tensor (78 KiB)")


def test_shape_inference_reports_the_refusal_without_running_the_op():
    core.nodegraph.set_memory_budget(1000)
    result = infer(_product_graph("linalg.matmul", (20, 3), (3, 20)))
    assert result.errors["p"].startswith("BudgetError: matmul would make a 20x20 float32 tensor")
    assert result.port("a").shape == (20, 3)


def test_a_session_attaches_the_refusal_to_the_node_and_goes_on_with_the_others():
    core.nodegraph.set_flop_budget(1000)
    g = build([("a", "source.ones", {"shape": [20, 20]}), ("m", "linalg.matmul", {}), ("s", "source.ones", {})],
              [("a", "out", "m", "a"), ("a", "out", "m", "b")])
    session = Session(g)
    session.forward()
    assert session.errors["m"].type == "BudgetError"
    assert "matmul would take about 1.6e+04 floating-point operations" in session.errors["m"].message
    assert session.value("s").shape == (2, 3)


def test_the_environment_sets_the_budgets_with_units(monkeypatch):
    monkeypatch.setenv("NODEGRAD_MEMORY_BUDGET", "2KiB")
    monkeypatch.setenv("NODEGRAD_FLOP_BUDGET", "1e5")
    assert budget.memory_budget() == 2048 and budget.flop_budget() == 1e5
    core.nodegraph.set_memory_budget(10)
    assert budget.memory_budget() == 10  # the setting wins over the environment


def test_a_bad_environment_value_says_what_it_expected(monkeypatch):
    monkeypatch.setenv("NODEGRAD_MEMORY_BUDGET", "lots")
    with pytest.raises(ValueError, match="NODEGRAD_MEMORY_BUDGET='lots': expected a number of bytes"):
        budget.memory_budget()


def test_the_default_memory_budget_is_a_quarter_of_the_physical_memory():
    import os

    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert budget.memory_budget() == int(ram * 0.25)
    assert budget.flop_budget() == 2e10


@pytest.mark.parametrize("bad", [0, -5, 1.5, True])
def test_a_budget_must_be_a_positive_number_of_bytes(bad):
    with pytest.raises(ValueError, match="positive"):
        core.nodegraph.set_memory_budget(bad)


def test_views_have_no_estimate_and_run_unchecked():
    core.nodegraph.set_memory_budget(8)
    core.nodegraph.set_flop_budget(1)
    values = evaluate(_formula_graph("x.expand(300, 300).t()"))
    assert not values.errors
    assert values["e"].shape == (300, 300)
