"""Sessions: a subgraph trains like its contents, and time travel restores the optimizer's state."""

import numpy as np
import pytest

from core.nodegraph.model.commands import Collapse
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import linear_mse_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def test_a_collapsed_linear_and_loss_trains_like_the_expanded_graph():
    plain = Session(linear_mse_graph(teacher=True), seed=0)
    g = linear_mse_graph(teacher=True)
    collapse = Collapse(["lin", "loss"])
    collapse.do(g)
    sub = Session(g, seed=0)
    expected = [m["loss"] for m in plain.train(20)]
    got = [m["loss"] for m in sub.train(20)]
    assert sorted(k.split(".", 1)[1] for k in sub.parameters()) == ["lin.bias", "lin.weight"]
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    assert got[-1] < got[0]


def test_the_subgraph_parameters_follow_a_rebuilt_inner_layer():
    g = linear_mse_graph(teacher=True)
    Collapse(["lin", "loss"]).do(g)
    s = Session(g, seed=0)
    list(s.train(2))
    before = list(s.parameters().values())
    inner = s.states[next(iter(s.parameters())).split(".")[0]]["inner"]["lin"]
    inner["key"] = None  # as after an edit of the inner layer's parameters: the module is rebuilt
    list(s.train(1))
    after = list(s.parameters().values())
    assert all(a is not b for a, b in zip(after, before))
    assert all(t is p for t, p in zip(after, s.optimizer().param_groups[0]["params"]))


def _momentum_session():
    g = linear_mse_graph(teacher=True)
    g.training["optimizer_params"] = {"lr": 0.01, "momentum": 0.9}
    s = Session(g, seed=0)
    s.forward()
    s.backward()
    s.optimizer_step()  # the momentum buffers now exist
    s.forward()
    s.backward()
    return s


def test_step_back_over_an_optimizer_step_restores_the_momentum_buffers():
    s = _momentum_session()
    s.optimizer_step()
    first = {k: t._data.copy() for k, t in s.parameters().items()}
    buffers = {id(p): st["momentum_buffer"]._data.copy() for p, st in s.optimizer().state.items()}
    assert s.history.step_back()
    s.optimizer_step()
    for k, t in s.parameters().items():
        np.testing.assert_array_equal(t._data, first[k])
    for p, st in s.optimizer().state.items():
        np.testing.assert_array_equal(st["momentum_buffer"]._data, buffers[id(p)])


def test_stepping_forward_again_after_step_back_shows_the_updated_state():
    s = _momentum_session()
    s.optimizer_step()
    after = {id(p): st["momentum_buffer"]._data.copy() for p, st in s.optimizer().state.items()}
    s.history.step_back()
    s.history.step_forward()
    for p, st in s.optimizer().state.items():
        np.testing.assert_array_equal(st["momentum_buffer"]._data, after[id(p)])
