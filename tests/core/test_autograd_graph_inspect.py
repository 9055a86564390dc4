"""core.autograd.graph's inspection API: what a node saved, its metadata and creation order, raw arrays, and
the tensor and saved-tensor state that time travel takes and puts back."""

import numpy as np
import pytest

import core
from core.autograd import graph


def _product():
    x = core.tensor([2.0, 3.0], requires_grad=True)
    w = core.tensor([1.5, -0.5], requires_grad=True)
    return x, w, x * w


def test_saved_tensors_are_the_inputs_a_product_needs_with_their_versions():
    x, w, y = _product()
    saved = graph.saved_tensors(y.grad_fn)
    assert [s.tensor for s in saved] == [w, x] and [s.output_nr for s in saved] == [-1, -1]  # PyTorch's order
    assert [s.version for s in saved] == [w._version, x._version]


def test_an_output_saved_by_its_own_node_is_marked_as_that_output():
    x = core.tensor([0.5, -1.0], requires_grad=True)
    y = x.tanh()
    (s,) = [s for s in graph.saved_tensors(y.grad_fn) if s.output_nr >= 0]
    assert s.output_nr == 0 and core.equal(s.tensor, y.detach()) and s.tensor.grad_fn is None


def test_backward_without_retain_graph_releases_what_a_node_saved_and_set_saved_state_puts_it_back():
    x, w, y = _product()
    node = y.grad_fn
    state = graph.saved_state(node)
    y.sum().backward()
    assert node.is_released and graph.saved_tensors(node) == () and graph.saved_state(node) is None
    assert [s.tensor for s in graph.saved_tensors(node, state)] == [w, x]
    graph.set_saved_state(node, state)
    assert not node.is_released
    y.sum().backward()  # the put-back tensors make a second backward possible
    np.testing.assert_array_equal(x.grad.numpy(), 2 * w.detach().numpy())
    graph.set_saved_state(node, None)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.sum().backward()


def test_node_metadata_names_the_primitive_and_the_shapes_of_inputs_and_outputs():
    x = core.randn(4, 3, requires_grad=True)
    lin = core.nn.Linear(3, 2)
    out = lin(x)
    node = out.grad_fn
    assert node.name() == "AddmmBackward0" and graph.primitive_name(node) == "Linear2d"
    # bias, x, Wᵀ (weight.t(), a TBackward0 before W's AccumulateGrad): torch's edges
    assert [m[0] for m in graph.input_metadata(node)] == [(2,), (4, 3), (3, 2)]
    assert node.next_functions[2][0].name() == "TBackward0"
    assert graph.output_metadata(node)[0][:2] == ((4, 2), np.dtype("float32"))
    assert graph.primitive_name(graph.grad_accumulator(lin.weight)) is None


def test_creation_marks_bracket_the_nodes_made_between_them():
    x = core.ones(2, requires_grad=True)
    before = graph.creation_mark()
    y = x * 2
    after = graph.creation_mark()
    assert before < graph.sequence_nr(y.grad_fn) < after
    assert graph.sequence_nr(graph.grad_accumulator(x)) == float("inf")
    assert graph.grad_accumulator(x) is y.grad_fn.next_functions[0][0]


def test_array_of_shares_memory_and_from_array_owns_an_array_without_copying():
    t = core.arange(6.0).reshape(2, 3)
    assert np.shares_memory(graph.array_of(t), t.numpy())
    a = np.ones(3, dtype=np.float32)
    u = graph.from_array(a)
    assert graph.array_of(u) is a and u.dtype == core.float32 and graph.array_module(u) is np


def test_grad_of_reads_a_non_leaf_gradient_without_a_warning_and_output_nr_names_the_output():
    x = core.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.sum().backward()
    assert graph.grad_of(y) is None and graph.grad_of(x) is x.grad  # no UserWarning: warnings are errors here
    a, b = core.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).unbind(0)
    assert graph.output_nr(a) == 0 and graph.output_nr(b) == 1


def test_tensor_state_is_a_copy_that_restore_writes_back_in_place_with_version_and_grad():
    w = core.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    state = graph.tensor_state(w)
    view = w.detach()[:1]
    with core.no_grad():
        w.add_(10.0)
    w.grad = None
    graph.restore_tensor_state(w, state)
    np.testing.assert_array_equal(w.detach().numpy(), [1.0, 2.0])
    assert view.item() == 1.0 and w._version == state.version  # views see it: written in place
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, 4.0])
    assert graph.tensor_state(w, data=False).data is None


def test_increment_version_makes_backward_refuse_as_torch(torch):
    def run(lib):
        x = lib.tensor([0.5, 1.0, 2.0], requires_grad=True)
        y = x.exp()
        lib.autograd.graph.increment_version(y)
        lib.autograd.graph.increment_version([y, x])
        versions = (y._version, x._version)
        try:
            y.sum().backward()
        except RuntimeError as error:
            return versions, str(error)
        return versions, None

    ours, theirs = run(core), run(torch)
    assert ours == theirs and theirs[0] == (2, 1) and theirs[1] is not None
