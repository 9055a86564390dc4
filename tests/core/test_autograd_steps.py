"""Step-wise backward (``backward_steps``) and graph walking (``graph.topological_nodes/edges``)."""

import pytest

import core
import core as torch
from core.autograd import BackwardStep, backward_steps, graph
from tests.core.test_autograd_oracle import build_graph


def _chapter():
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    w = torch.tensor([1.5, -0.5], requires_grad=True)
    b = torch.tensor(0.1, requires_grad=True)
    return x, w, b, (x * w).sum() + b


def _nodes(loss):
    return graph.topological_nodes(loss)


def _state(leaves, nodes):
    grads = [None if t.grad is None else t.grad.tolist() for t in leaves]
    return grads, [n.is_released for n in nodes]


def test_each_step_runs_one_node_and_reports_what_it_received_and_sent():
    x, w, b, z = _chapter()
    steps = list(backward_steps(z))
    assert all(isinstance(s, BackwardStep) for s in steps)
    names = [s.node.name() for s in steps]
    assert names[0] == "AddBackward0" and names.count("torch::autograd::AccumulateGrad") == 3 and len(names) == 6
    add = steps[0]
    assert add.grad_outputs[0].tolist() == 1.0
    assert [g.tolist() for g in add.grad_inputs] == [1.0, 1.0]
    assert [e[0].name() for e in add.edges] == ["SumBackward0", "torch::autograd::AccumulateGrad"]
    mul = next(s for s in steps if s.node.name() == "MulBackward0")
    assert [g.tolist() for g in mul.grad_inputs] == [[1.5, -0.5], [2.0, 3.0]]
    leaf_steps = [s for s in steps if s.node.name() == "torch::autograd::AccumulateGrad"]
    assert {id(s.accumulated) for s in leaf_steps} == {id(x), id(w), id(b)}


def test_gradients_appear_one_step_at_a_time():
    x, w, b, z = _chapter()
    seen = []
    for step in backward_steps(z):
        seen.append((step.node.name(), x.grad is not None, w.grad is not None, b.grad is not None))
    assert seen[0] == ("AddBackward0", False, False, False)
    assert seen[-1][1:] == (True, True, True)
    assert x.grad.tolist() == [1.5, -0.5] and w.grad.tolist() == [2.0, 3.0] and b.grad.item() == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(10))
def test_exhausting_the_steps_leaves_exactly_the_state_backward_leaves(seed):
    leaves, loss = build_graph(core, seed)
    nodes = _nodes(loss)
    loss.backward()
    expected = _state(leaves, nodes)
    leaves, loss = build_graph(core, seed)
    nodes = _nodes(loss)
    n_steps = sum(1 for _ in backward_steps(loss))
    assert _state(leaves, nodes) == expected
    assert n_steps == len(nodes)  # every reachable node ran exactly once


def test_steps_accept_backward_arguments():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    list(backward_steps(y, torch.tensor([1.0, 10.0]), retain_graph=True))
    list(backward_steps(y, torch.tensor([1.0, 10.0])))
    assert x.grad.tolist() == [4.0, 80.0]


def test_closing_a_partly_consumed_generator_restores_grad_mode():
    x, w, b, z = _chapter()
    steps = backward_steps(z, create_graph=True)
    with torch.no_grad():
        next(steps)
        assert not torch.is_grad_enabled()  # between steps the caller's mode holds
        steps.close()
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    steps = backward_steps(_chapter()[3])
    next(steps)
    del steps
    assert torch.is_grad_enabled()


def test_inside_a_step_grad_mode_follows_create_graph():
    modes = []

    class Probe(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1

        @staticmethod
        def backward(ctx, g):
            modes.append(torch.is_grad_enabled())
            return g

    x = torch.tensor([1.0], requires_grad=True)
    for _ in backward_steps(Probe.apply(x).sum()):
        assert torch.is_grad_enabled()
    assert modes == [False]


def test_topological_nodes_put_every_consumer_before_its_producers():
    x, w, b, z = _chapter()
    nodes = graph.topological_nodes(z)
    position = {n: i for i, n in enumerate(nodes)}
    assert nodes[0] is z.grad_fn and len(nodes) == 6
    for consumer, producer, _ in graph.edges(z):
        assert position[consumer] < position[producer]


def test_edges_list_consumer_producer_and_input_slot():
    x, w, b, z = _chapter()
    names = {(type(c).__name__, type(p).__name__, i) for c, p, i in graph.edges(z)}
    assert names == {("AddBackward0", "SumBackward0", 0), ("AddBackward0", "AccumulateGrad", 1),
                     ("SumBackward0", "MulBackward0", 0), ("MulBackward0", "AccumulateGrad", 0),
                     ("MulBackward0", "AccumulateGrad", 1)}


def test_diamond_graph_lists_the_shared_node_once():
    x = torch.tensor([1.0], requires_grad=True)
    y = x * 2
    z = y * y + y
    nodes = graph.topological_nodes(z)
    assert len(nodes) == len(set(nodes)) == 4
