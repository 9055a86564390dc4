"""``Session.to(device)``: every tensor the session holds moves to the device and the graph's state stays.

Each test runs on each device of the ``device`` fixture (CUDA skips with a reason without a GPU); on the CPU
the move goes from the CPU to the CPU, through the same code.
"""

import numpy as np
import pytest

import core
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import chapter_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def mlp_graph(optimizer="SGD", **opt) -> Graph:
    """An MLP times a parameter node, MSE against random targets; ``optimizer`` with ``opt`` (momentum...)."""
    g = Graph()
    g.add_node(Node("x", "source.randn", {"shape": [16, 4], "seed": 1}))
    g.add_node(Node("y", "source.randn", {"shape": [16, 1], "seed": 2}))
    g.add_node(Node("mlp", "layer.mlp", {"sizes": [4, 8, 1], "seed": 0}))
    g.add_node(Node("scale", "param.parameter", {"name": "s", "shape": [1], "seed": 3}))
    g.add_node(Node("mul", "math.mul"))
    g.add_node(Node("loss", "loss.mse"))
    for e in (("x", "out", "mlp", "x"), ("mlp", "out", "mul", "a"), ("scale", "out", "mul", "b"),
              ("mul", "out", "loss", "input"), ("y", "out", "loss", "target")):
        g.connect(Edge(*e))
    g.training.update(loss="loss", optimizer=optimizer, optimizer_params=dict(opt, lr=0.05))
    return g


def _losses(session, n):
    return [m["loss"] for m in session.train(n)]


def _numbers(tensors: dict) -> dict:
    return {k: t.detach().cpu().tolist() for k, t in tensors.items()}


def _held_tensors(s):
    """Every tensor the session computes with: values, leaves, their gradients, module parameters and buffers,
    the optimizer's state."""
    held = [t for out in s.values.values() for t in out.values() if isinstance(t, core.Tensor)]
    held += list(s.leaves().values()) + list(s.parameters().values())
    held += [t.grad for t in s.parameters().values() if t.grad is not None]
    for state in s.states.values():
        module = state.get("module")
        if module is not None:
            held += list(module.parameters()) + list(module.buffers())
    opt = s.optimizer()
    held += [v for st in opt.state.values() for k, v in st.items() if isinstance(v, core.Tensor) and k != "step"]
    return held


@pytest.mark.parametrize(("optimizer", "opt"), [("SGD", {"momentum": 0.9}), ("Adam", {})], ids=["sgd_momentum", "adam"])
def test_training_after_a_move_gives_the_losses_of_training_without_one(optimizer, opt, device):
    moved, kept = Session(mlp_graph(optimizer, **opt)), Session(mlp_graph(optimizer, **opt))
    first = _losses(moved, 3)
    moved.to(device)
    after = _losses(moved, 3)
    expected = _losses(kept, 6)
    np.testing.assert_allclose(first + after, expected, rtol=1e-5 if device == "cpu" else 1e-4)
    if device == "cpu":
        assert first + after == expected


def test_a_move_keeps_the_parameter_optimizer_and_state_objects_and_the_step_count(device):
    s = Session(mlp_graph("SGD", momentum=0.9))
    _losses(s, 2)
    params, opt = s.parameters(), s.optimizer()
    momentum = {k: opt.state[p]["momentum_buffer"].tolist() for k, p in params.items()}
    grads = _numbers({k: p.grad for k, p in params.items()})
    assert s.to(device) is s
    assert s.parameters() == params and all(s.parameters()[k] is p for k, p in params.items())
    assert s.optimizer() is opt and set(map(id, opt.state)) == set(map(id, params.values()))
    assert {k: opt.state[p]["momentum_buffer"].tolist() for k, p in params.items()} == momentum
    assert _numbers({k: p.grad for k, p in params.items()}) == grads
    assert s.step_count == 2 and s.device == str(core.device(device))


def test_every_tensor_the_session_holds_is_on_the_device_after_a_move(device):
    s = Session(mlp_graph("Adam"))
    _losses(s, 2)
    s.forward()
    s.to(device)
    held = _held_tensors(s)
    assert len(held) > 10 and all(t.device == core.device(device) for t in held)
    assert s.forward_complete and s.values["loss"]["out"].grad_fn is not None


def test_values_and_gradients_survive_a_move_and_backward_keeps_accumulating(device):
    s = Session(chapter_graph())
    s.forward()
    s.backward()
    values, grads = _numbers({n: s.values[n]["out"] for n in s.values}), _numbers(
        {k: t.grad for k, t in s.leaves().items()})
    s.to(device)
    assert _numbers({n: s.values[n]["out"] for n in s.values}) == values
    assert _numbers({k: t.grad for k, t in s.leaves().items()}) == grads == {
        "x.out": [1.5, -0.5], "w.out": [2.0, 3.0], "b.out": 1.0}
    s.backward()  # the re-evaluated pass has a whole graph: the gradients accumulate as PyTorch's do
    assert _numbers({k: t.grad for k, t in s.leaves().items()}) == {
        "x.out": [3.0, -1.0], "w.out": [4.0, 6.0], "b.out": 2.0}


def test_a_move_starts_the_history_again_with_one_device_event(device):
    s = Session(chapter_graph())
    seen = []
    s.subscribe(seen.append)
    s.forward()
    s.to(device)
    assert seen[-1].phase == "device" and seen[-1].detail == {"device": str(core.device(device))}
    assert {"x.out", "z.out"} <= set(seen[-1].changed)
    assert len(s.history.snapshots) == 1 and not s.history.step_back()


@pytest.mark.skipif(core.cuda.is_available(), reason="checks the error a machine without a GPU gives")
def test_a_move_to_a_missing_gpu_raises_and_leaves_the_session_as_it_was():
    s = Session(mlp_graph("SGD", momentum=0.9))
    losses = _losses(s, 2)
    with pytest.raises(RuntimeError, match="CUDA"):
        s.to("cuda")
    assert s.device == "cpu" and all(t.device == core.device("cpu") for t in _held_tensors(s))
    assert losses + _losses(s, 2) == _losses(Session(mlp_graph("SGD", momentum=0.9)), 4)
