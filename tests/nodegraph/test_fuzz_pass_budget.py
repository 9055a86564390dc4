"""The memory budget bounds what an evaluation holds, not only its largest tensor: many medium tensors, each under
the budget, were all made (a graph of 40 randn nodes of 1/10 the budget each held 4 budgets' worth). The sum of the
node outputs (an array once however many views of it they hold) is checked before each op with an estimate and
after every node, and the node that would take it over is refused with an error naming it; budgets here are tiny."""

import pytest

import core.nodegraph
import core.nodegraph.model.nodes  # registers the built-in node types
from core.nodegraph.model.budget import Held
from core.nodegraph.model.evaluate import evaluate
from core.nodegraph.run.session import Session
from tests.nodegraph.graph_helpers import build

pytestmark = pytest.mark.usefixtures("default_budgets")
KIB = 1024


def _sources(n: int, shape: list[int], type_id: str = "source.randn"):
    return build([(f"s{i}", type_id, {"shape": shape}, f"s{i}") for i in range(n)], [])


def test_many_medium_tensors_over_the_budget_together_are_refused_at_the_one_that_crosses_it():
    core.nodegraph.set_memory_budget(256 * KIB)
    values = evaluate(_sources(10, [64, 128]))  # 32 KiB each: the 8th would take the graph to 256 KiB + 32 KiB
    assert all(values.ok(f"s{i}") for i in range(8))
    err = values.errors["s8"]
    assert err.type == "BudgetError"
    assert err.message.startswith("s8: randn would make a 64x128 float32 tensor (32 KiB) while the graph's nodes "
                                  "hold 256 KiB: 288 KiB in all, over the memory budget of 256 KiB")


def test_views_of_one_tensor_count_once():
    core.nodegraph.set_memory_budget(100 * KIB)
    g = build([("x", "source.randn", {"shape": [64, 128]})]  # 32 KiB
              + [(f"r{i}", "shape.reshape", {"shape": [128, 64]}) for i in range(6)],
              [("x", "out", f"r{i}", "x") for i in range(6)])
    values = evaluate(g)
    assert not values.errors


def test_a_node_run_again_counts_its_new_outputs_only():
    held = Held()
    t = core.zeros(1024)
    held.add("a", {"out": t})
    held.add("a", {"out": core.zeros(1024)})  # run again: its old outputs go
    held.add("b", {"out": t.view(32, 32), "other": t})  # a view of a tensor another node holds: nothing more
    assert held.total == 2 * 4096
    held.drop("a")
    assert held.total == 4096


def test_an_op_without_an_estimate_whose_result_crosses_the_budget_is_refused_after_it_ran():
    core.nodegraph.set_memory_budget(200 * KIB)
    g = build([("x", "source.randn", {"shape": [40, 1024]}), ("m", "linalg.einsum", {"equation": "ij->ij"})],
              [("x", "out", "m", "in0")])  # 160 KiB each (an einsum has no estimate)
    values = evaluate(g)
    assert values.ok("x")
    err = values.errors["m"]
    assert err.type == "BudgetError"
    assert "its result (160 KiB) took what the graph's nodes hold to 320 KiB, over the memory budget of 200 KiB" \
        in err.message


def test_training_a_graph_over_the_budget_together_ends_with_the_error_and_within_it_trains():
    core.nodegraph.set_memory_budget(64 * KIB)
    g = build([("x", "source.randn", {"shape": [64, 64]}), ("y", "source.randn", {"shape": [64, 64]}),
               ("w", "param.parameter", {"shape": [64, 64]}), ("p", "linalg.matmul", {}), ("l", "loss.mse", {})],
              [("x", "out", "p", "a"), ("w", "out", "p", "b"), ("p", "out", "l", "input"), ("y", "out", "l", "target")])
    g.training["loss"] = "l"
    steps = list(Session(g).train(2))  # 16 KiB each: the fourth 64x64 tensor reaches the budget
    assert steps[-1]["error"].type == "BudgetError" and "while the graph's nodes hold" in steps[-1]["error"].message
    core.nodegraph.set_memory_budget(1024 * KIB)
    steps = list(Session(g).train(3))
    assert len(steps) == 3 and all("error" not in s for s in steps)


def test_the_time_travel_history_keeps_at_most_half_the_memory_budget_and_still_steps_back():
    core.nodegraph.set_memory_budget(1024 * KIB)
    g = build([("x", "source.randn", {"shape": [64, 256]}), ("e", "math.exp", {}), ("s", "reduce.sum", {})],
              [("x", "out", "e", "x"), ("e", "out", "s", "x")])  # 64 KiB per tensor: each pass replaces 128 KiB
    s = Session(g)
    for _ in range(20):  # 60 steps: 100 snapshots would keep 2.5 MiB of old values
        s.forward()
    kept = sum(snap.nbytes for snap in s.history.snapshots)
    assert 0 < kept <= 512 * KIB and len(s.history.snapshots) < 60
    first = s.value("x").clone()
    s.history.goto(len(s.history.snapshots) - 4)  # a pass back: the values it showed then
    assert not core.equal(s.value("x"), first)
    s.history.goto(len(s.history.snapshots) - 1)
    assert core.equal(s.value("x"), first)
