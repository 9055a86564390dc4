"""The autograd graph read from outside: nodes, edges, saved tensors, and tensors' raw state.

PyTorch lets tools look into its graph through ``grad_fn.name()``, ``grad_fn.next_functions``,
``grad_fn.metadata``, ``grad_fn._saved_*`` and ``torch.autograd.graph``. This module is core's
equivalent, and the only door through which ``core.nodegraph`` (the playground's session, its time
travel and explanations) looks inside autograd and tensors. Every function is a few attribute reads:
nothing is copied unless the name says so (``tensor_state``).

Nodes (``grad_fn`` objects; ``Node.name()``, ``.next_functions``, ``.metadata``, ``.is_released``
and ``.register_hook`` are methods of the node itself):

- ``topological_nodes(*tensors)``, ``edges(*tensors)``: the graph behind tensors, for drawing it.
- ``grad_accumulator(t)``: the ``AccumulateGrad`` node of a leaf that requires grad.
- ``sequence_nr(node)``: the node's creation number (PyTorch's ``Node._sequence_nr()``); among ready
  nodes backward runs the highest first. ``creation_mark()`` is the counter now: every node recorded
  later has a larger number.
- ``primitive_name(node)``: the ``Function`` that recorded it (``"Linear2d"`` for ``AddmmBackward0``).
- ``input_metadata(node)``: per edge, ``(shape, numpy dtype)`` of the input, None for an input that
  needs no gradient; ``output_metadata(node)``: per output, ``(shape, numpy dtype, device)`` or None.
- ``saved_tensors(node)``: what the node saved for backward as ``SavedTensor(tensor, version,
  output_nr)`` records, without the version check that unpacking does (inspection, not computation).
- ``saved_state(node)`` / ``set_saved_state(node, state)``: take and put back what a node saved (None:
  released, as a backward without ``retain_graph`` leaves it). Time travel uses them to step back
  over a backward that freed the graph.

Tensors (``Tensor.data``, ``.grad``, ``._version`` and ``.numpy()`` are PyTorch's public fields):

- ``array_of(t)``: the backend array (``numpy.ndarray`` or ``cupy.ndarray``) that holds ``t``'s
  elements, shared, not copied. Read it; never write it (autograd would not see the change).
- ``array_module(x)``: NumPy or CuPy for a tensor or a backend array.
- ``from_array(arr)``: a fresh tensor that owns a backend array (no copy), as ``torch.as_tensor``.
- ``get_gradient_edge(t)``: PyTorch's ``GradientEdge(node, output_nr)`` where ``t``'s gradient arrives (its
  ``grad_fn`` and output number, or a leaf's ``AccumulateGrad`` and 0); ``autograd.grad`` takes edges as inputs.
- ``grad_of(t)``: ``t.grad`` without the warning a non-leaf's ``.grad`` gives; ``output_nr(t)``:
  which output of its ``grad_fn`` the tensor is.
- ``tensor_state(t)`` / ``restore_tensor_state(t, state)``: a copy of a tensor's elements, version
  counter and ``.grad``, written back in place (views stay consistent).

Saved-tensor hooks, as PyTorch's (``core.autograd.saved_hooks``): ``saved_tensors_hooks``, ``save_on_cpu``
and ``disable_saved_tensors_hooks``.
"""

from typing import NamedTuple

from core._backend import xp_of as _xp_of
from core.autograd import function as _function
from core.autograd._gradient_edge import GradientEdge
from core.autograd.function import AccumulateGrad, Node
from core.autograd.function import accumulate_node as _accumulate_node
from core.autograd.function import shown_per_input as _shown_per_input
from core.autograd.multi_grad_hook import _MultiHandle, register_multi_grad_hook
from core.autograd.saved_hooks import (
    allow_mutation_on_saved_tensors,
    disable_saved_tensors_hooks,
    save_on_cpu,
    saved_tensors_hooks,
)

__all__ = ["Node", "AccumulateGrad", "topological_nodes", "edges", "grad_accumulator", "sequence_nr",
           "creation_mark", "primitive_name", "input_metadata", "output_metadata", "SavedTensor", "saved_tensors",
           "saved_state", "set_saved_state", "array_of", "array_module", "from_array", "grad_of", "output_nr",
           "TensorState", "tensor_state", "restore_tensor_state", "saved_tensors_hooks", "save_on_cpu",
           "disable_saved_tensors_hooks", "register_multi_grad_hook", "_MultiHandle",
           "allow_mutation_on_saved_tensors", "region_activation_memory_budget", "increment_version",
           "GradientEdge", "get_gradient_edge", "set_warn_on_accumulate_grad_stream_mismatch",
           "set_override_stale_capture_stream"]


def _root(t) -> Node:
    return t.grad_fn if t.grad_fn is not None else _accumulate_node(t)


def topological_nodes(*tensors) -> list:
    """Every node reachable from ``tensors``' grad_fns, each after all nodes that feed it gradients."""
    roots = [_root(t) for t in tensors if t.requires_grad]
    order, state = [], {}
    for root in roots:
        stack = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                if state.get(node) != 2:
                    state[node] = 2
                    order.append(node)
                continue
            if node in state:
                continue
            state[node] = 1
            stack.append((node, True))
            for e in reversed(node._edges):
                if e is not None and e[0] not in state:
                    stack.append((e[0], False))
    order.reverse()
    return order


def edges(*tensors) -> list:
    """``(consumer, producer, input_nr)`` for every edge of the graph, in topological order."""
    out = []
    for node in topological_nodes(*tensors):
        for i, e in enumerate(node._edges):
            if e is not None:
                out.append((node, e[0], i))
    return out


def increment_version(tensor) -> None:
    """Count an in-place change autograd could not see (a kernel writing through ``data_ptr``) on ``tensor`` or each
    of an iterable of tensors, so a backward that needs the old values refuses, as PyTorch's."""
    from core._tensor import Tensor  # (tensors import autograd)

    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        t._bump_version()


_STREAM_FLAGS = {"warn_on_accumulate_grad_stream_mismatch": True, "override_stale_capture_stream": False}


def _set_stream_flag(name: str, enabled) -> None:
    if type(enabled) is not bool:
        raise RuntimeError(f"enabled must be a bool, but got {type(enabled).__name__}")
    _STREAM_FLAGS[name] = enabled


def set_warn_on_accumulate_grad_stream_mismatch(enabled: bool) -> None:
    """Whether to warn when a leaf's gradient arrives on another CUDA stream than its AccumulateGrad's: kept, as
    PyTorch keeps it; core's CUDA work runs on one stream, so it never warns."""
    _set_stream_flag("warn_on_accumulate_grad_stream_mismatch", enabled)


def set_override_stale_capture_stream(enabled: bool) -> None:
    """What autograd does with a stale stream during CUDA graph capture: kept, as PyTorch keeps it; core captures
    no CUDA graphs, so nothing reads it."""
    _set_stream_flag("override_stale_capture_stream", enabled)


# ----- nodes -------------------------------------------------------------------------------------
def grad_accumulator(t) -> AccumulateGrad:
    """The ``AccumulateGrad`` node of a leaf that requires grad (made once per leaf, then cached)."""
    return _accumulate_node(t)


def sequence_nr(node) -> int | float:
    """The node's creation number; an ``AccumulateGrad`` has infinity (it runs as soon as it is ready)."""
    return node._seq


def creation_mark() -> int:
    """The creation counter now: every node recorded after this call has a larger ``sequence_nr``."""
    return next(_function._sequence)


def primitive_name(node) -> str | None:
    """The name of the ``Function`` whose ``apply`` recorded ``node`` (None for ``AccumulateGrad``)."""
    cls = getattr(type(node), "_forward_cls", None)
    return cls.__name__ if cls is not None else None


def input_metadata(node) -> tuple:
    """Per edge of ``node`` (as ``next_functions`` lists them): ``(shape, numpy dtype)`` of that input when it
    required grad, else None."""
    return _shown_per_input(node, node._in_meta) if node._edgeless else node._in_meta


def output_metadata(node) -> tuple:
    """Per output of ``node``: ``(shape, numpy dtype, device)``, or None for an output that is not a tensor."""
    return node._out_meta


class SavedTensor(NamedTuple):
    """One tensor a node saved for backward: ``output_nr >= 0`` when it is that output of the node itself
    (kept detached, without its ``grad_fn``), -1 for an input or another tensor; ``version`` is its version
    counter when it was saved (backward refuses it once an in-place op changed it)."""

    tensor: object
    version: int
    output_nr: int


def saved_tensors(node, state=None) -> tuple:
    """What ``node`` saved for backward (or what ``state``, from ``saved_state``, holds): one ``SavedTensor``
    per saved slot (its ``tensor`` None where None was saved); ``()`` when it saved nothing or was released."""
    saved = node._saved if state is None else state
    if not saved:
        return ()
    return tuple(SavedTensor(*e) if type(e) is tuple else SavedTensor(e, 0 if e is None else e._vc[0], -1)
                 for e in saved)  # a tuple of tensors while forward runs; packed records afterwards


def saved_state(node):
    """An opaque handle on what ``node`` saved (no copy), or None when it saved nothing or was released."""
    return node._saved


def set_saved_state(node, state) -> None:
    """Put back what ``saved_state`` returned; None releases the node (as backward does without retain_graph)."""
    node._saved = state
    node._released = state is None


# ----- tensors -----------------------------------------------------------------------------------
def array_of(t):
    """The backend array holding ``t``'s elements: shared, not copied. Read-only by contract."""
    return t._data


def array_module(x):
    """NumPy or CuPy: the array module of a tensor or of a backend array."""
    return _xp_of(x._data if isinstance(x, _tensor()) else x)


def from_array(arr):
    """A fresh tensor owning the backend array ``arr`` (no copy; nothing else may write ``arr``)."""
    return _tensor()._wrap(arr)


def grad_of(t):
    """``t.grad`` (None when there is none), without the warning a non-leaf's ``.grad`` gives."""
    return t._grad


def output_nr(t) -> int:
    """Which output of ``t.grad_fn`` the tensor is (0 for a leaf)."""
    return t._output_nr


class TensorState(NamedTuple):
    """A tensor's elements (an array copy, or None when not taken), version counter and ``.grad`` (a copy)."""

    data: object
    version: int
    grad: object


def tensor_state(t, data: bool = True) -> TensorState:
    """A copy of ``t``'s elements (unless ``data`` is False), its version and a copy of its ``.grad``."""
    g = t._grad
    return TensorState(t._data.copy() if data else None, t._vc[0], None if g is None else g._data.copy())


def restore_tensor_state(t, state: TensorState) -> None:
    """Write ``state`` back into ``t`` in place: elements (when taken), version counter and ``.grad``."""
    data, grad = state.data, state.grad
    if data is not None and t._data.shape == data.shape:
        t._data[...] = data
    t._vc[0] = state.version
    g = t._grad
    if grad is None:
        t._grad = None
    elif g is not None and g._data.shape == grad.shape and not g._requires_grad:
        g._data[...] = grad
    else:
        t._grad = _tensor()._wrap(grad.copy())


def _tensor():
    return _function._TENSOR or _function._tensor_cls()


def region_activation_memory_budget(budget):
    """A recompute budget for a ``torch.compile`` region's activations; eager code is refused with PyTorch's
    RuntimeError. Inside ``core.compile``'s recording it is accepted and changes nothing (core keeps every
    activation)."""
    import contextlib

    name = "torch.autograd.graph.region_activation_memory_budget"
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise TypeError(f"{name}: expects a float, got {type(budget).__name__}")
    if not 0.0 <= budget <= 1.0:
        raise ValueError(f"{name}: must be in [0, 1], got {budget}")
    if _function._capture_state.recorder is None:
        raise RuntimeError(f"{name} can only be used inside a torch.compile region; it has no effect in eager mode.")
    return contextlib.nullcontext()


def get_gradient_edge(tensor) -> GradientEdge:
    """Get the gradient edge for computing the gradient of the given Tensor.

    In particular, it is equivalent to call
    ``g = autograd.grad(loss, input)`` and ``g = autograd.grad(loss, get_gradient_edge(input))``.
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    if tensor.grad_fn is not None:
        return GradientEdge(tensor.grad_fn, tensor.output_nr)
    return GradientEdge(_accumulate_node(tensor), 0)
