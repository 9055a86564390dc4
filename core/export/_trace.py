"""Tracing a module into an ATen-level FX graph, as ``torch.export.export`` (non-strict) does.

The model runs once on the example inputs under a ``TorchFunctionMode``. Every torch-level call that touches a
traced tensor (an input, a parameter, a buffer or the result of an earlier call) becomes a ``call_function`` node
on the ATen operator torch records for it (``core.export._aten_calls``), named after the operator (``linear``,
``linear_1``) with the computed value in ``node.meta["val"]`` and the caller's line in ``node.stack_trace``.
Parameters, buffers and tensor constants become placeholders (``p_fc1_weight``, ``b_bn_running_mean``,
``c_lifted_tensor_0``) before the user's inputs, as torch lifts them. A constant is a plain tensor attribute, a
tensor that existed before the run or one made in ``forward`` from no traced tensor; any other tensor the graph
meets was computed by code the tracer does not see, and export raises NotImplementedError rather than freeze
its value into the program.

Reading a traced tensor's value in Python (``if x.sum() > 0``, ``int(t)``, ``t.item()``) raises torch's
``GuardOnDataDependentSymNode``: the graph could not hold the branch. Sizes (``x.size(0)``) are read as the
example's numbers, so a traced ``view(x.size(0), -1)`` records ``[2, -1]`` (``export`` turns it into a
``sym_size`` read where that size is dynamic). The model's buffers are restored
after the run (a BatchNorm in training mode updates them while it runs).
"""

from __future__ import annotations

import gc
import inspect
import linecache
import operator
import os
import re
import sys

import core
from core.export._aten_calls import PREV, aten_call, is_value_read
from core.export._scalars import TracedFloat, TracedInt, traced_scalar
from core.export.dynamic_shapes import Symbol, ValueRanges
from core.fx import Graph
from core.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode
from core.fx.node import map_aggregate
from core.overrides import TorchFunctionMode, resolve_name
from core.utils._pytree import MappingKey, SequenceKey, tree_flatten, tree_flatten_with_path, tree_leaves

__all__ = ["trace"]

_HERE = os.path.dirname(os.path.abspath(__file__))
_MACHINERY = tuple(os.path.join(os.path.dirname(_HERE), f) for f in ("_torch_function.py", "overrides.py",
                                                                  os.path.join("fx", "node.py"), "library.py",
                                                                  os.path.join("_library", "custom_ops.py"),
                                                                  "_torch_function_default.py"))


def _caller_frame():
    """The innermost frame outside this tracer and core's dispatch: the line that made the call."""
    frame = sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename.startswith(_HERE)
                                 or frame.f_code.co_filename in _MACHINERY):
        frame = frame.f_back
    return frame


def _stack_trace(frame) -> str | None:
    if frame is None:
        return None
    code = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
    return f"File: {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}, code: {code}"


class _Bound(str):
    """An infinite bound as sympy prints it (``oo``, ``-int_oo``)."""

    def __repr__(self):
        return str(self)


def _scalars(value) -> list:
    found = []
    map_aggregate(value, lambda v: found.append(v) if isinstance(v, (TracedFloat, TracedInt)) else None)
    return found


def data_dependent_error(symbol) -> GuardOnDataDependentSymNode:
    """Torch's error for a model that reads the value of ``symbol`` (an ``item()``) in Python."""
    return _data_dependent(_caller_frame(), f"{symbol}")


def _data_dependent(frame, expression: str = "Eq(u0, 1)") -> GuardOnDataDependentSymNode:
    where = ""
    if frame is not None:
        code = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
        where = (f"\nThe following call raised this error:\n  File \"{frame.f_code.co_filename}\", line "
                 f"{frame.f_lineno}, in {frame.f_code.co_name}\n    {code}\n")
    return GuardOnDataDependentSymNode(
        f"Could not guard on data-dependent expression {expression} (unhinted: {expression}).  (Size-like symbols: "
        "none)\n\n"
        "consider using data-dependent friendly APIs such as guard_or_false, guard_or_true and "
        f"statically_known_true.\n{where}\n"
        "The error above occurred when calling torch.export.export. If you would like to view some more "
        "information about this error, and get a list of all other errors that may occur in your export call, "
        "you can replace your `export()` call with `draft_export()`.")


def _existing_tensors() -> list:
    """Every tensor alive now (by type, not ``isinstance``: that reads ``__class__``, which some lazy objects answer
    with a warning)."""
    tensor = core.Tensor
    return [o for o in gc.get_objects() if issubclass(type(o), tensor)]


def _untraced(t) -> NotImplementedError:
    frame = _caller_frame()
    where = "" if frame is None else f" (used at {frame.f_code.co_filename}:{frame.f_lineno})"
    return NotImplementedError(
        f"core.export cannot trace this model: a tensor of shape {list(t.shape)}{where} was computed from the "
        "model's inputs or parameters by code core's tracer does not see (core computes some modules, such as "
        "its recurrent layers and multi-head attention, outside the torch-level calls it records). Its value "
        "would be frozen into the program, so core refuses to export it.")


def _tensors(value) -> list:
    found = []
    map_aggregate(value, lambda v: found.append(v) if isinstance(v, core.Tensor) else None)
    if isinstance(value, dict):
        for v in value.values():
            found += _tensors(v)
    return found


class _Recorder:
    """The graph being built and which node each live tensor is."""

    def __init__(self, attributes: dict | None = None):
        self.graph = Graph()
        self._attributes = attributes or {}  # id of a plain tensor attribute -> its dotted name
        self._unbacked, self.unbacked = 0, {}  # the symbols of item() values and their ranges
        # constants may be lifted: attributes, tensors that existed before the run, ones made from no traced tensor
        existing = _existing_tensors()  # NOTE: held for the trace: garbage among them that died during it would
        self._existed = existing  # free its id for a tensor the model computes, which would pass as a constant
        self._constant_ids = set(self._attributes) | {id(t) for t in existing}
        self._nodes: dict[int, object] = {}
        self._alive: list = []  # every tensor keyed in _nodes, so its id is not reused
        self.constants: dict[str, core.Tensor] = {}
        self._first_user_input = None

    def placeholder(self, name: str, tensor, user: bool = False):
        node = self.graph.placeholder(name)
        if isinstance(tensor, core.Tensor):  # (a number or other input: a placeholder with no value, as torch's)
            node.meta["val"] = tensor
        if user and self._first_user_input is None:
            self._first_user_input = node
        self.track(tensor, node)
        return node

    def track(self, tensor, node) -> None:
        if isinstance(tensor, core.Tensor):
            self._nodes[id(tensor)] = node
            self._alive.append(tensor)

    def traced(self, value) -> bool:
        return any(id(t) in self._nodes for t in _tensors(value)) or bool(_scalars(value))

    def constant(self, value) -> None:
        """Mark the tensors in ``value`` as constants: made in ``forward`` from no traced tensor."""
        for t in _tensors(value):
            self._constant_ids.add(id(t))
            self._alive.append(t)

    def node_of(self, t):
        node = self._nodes.get(id(t))
        if node is None and id(t) not in self._constant_ids:
            raise _untraced(t)
        if node is None:  # a tensor made outside the graph: lifted as a constant input, as torch does
            name = self._attributes.get(id(t), f"lifted_tensor_{len(self.constants)}")
            self.constants[name] = t
            with self.graph.inserting_before(self._first_user_input):
                node = self.graph.placeholder("c_" + name.replace(".", "_"))
            node.meta["val"] = t
            self.track(t, node)
        return node

    def _fresh_constant(self, t, trace) -> None:
        """``torch.tensor([...])`` in ``forward``: a lifted constant copied fresh, as torch records it."""
        self.constant(t)
        node = self.node_of(t)
        for op in (core.ops.aten.lift_fresh_copy.default, core.ops.aten.detach_.default):
            node = self.graph.create_node("call_function", op, (node,), name=op.overloadpacket.__name__)
            node.meta["val"], node.stack_trace = t, trace
        self.track(t, node)

    def as_args(self, value):
        return map_aggregate(value, lambda v: self.node_of(v) if isinstance(v, core.Tensor)
                             else v.node if isinstance(v, (TracedFloat, TracedInt)) else v)

    def item(self, tensor, value):
        """``tensor.item()``: an ``aten.item`` node and the number as a traced scalar of it."""
        node = self.graph.create_node("call_function", core.ops.aten.item.default, (self.node_of(tensor),),
                                      name="item")
        symbol = Symbol(f"u{self._unbacked}" if type(value) is int else f"zuf{self._unbacked}")
        self._unbacked += 1
        node.meta["val"], node.stack_trace = symbol, _stack_trace(_caller_frame())
        self.unbacked[symbol] = ValueRanges(_Bound("-int_oo"), _Bound("int_oo")) if type(value) is int else \
            ValueRanges(_Bound("-oo"), _Bound("oo"))
        return traced_scalar(value, node, symbol)

    def record(self, func, args, kwargs, out, traced: bool):
        """Nodes for one torch-level call whose result is ``out``."""
        trace = _stack_trace(_caller_frame())
        if not traced and (resolve_name(func) or "") in ("torch.tensor", "torch.as_tensor"):
            self._fresh_constant(out, trace)
            return
        calls = aten_call(func, args, kwargs)
        if not calls and not traced:  # torch.tensor(...) and other constants: lifted where they are used
            self.constant(out)
            return
        if not calls:  # no ATen operator of that name: the torch-level function itself
            calls = [(func, args, kwargs)]
        node, value = None, None
        for i, (op, call_args, call_kwargs) in enumerate(calls):
            last = i == len(calls) - 1
            if call_args and call_args[0] is PREV:  # indexing: each step reads the one before
                base = args[0] if node is None else value
                value = out if last else op(base, *call_args[1:], **call_kwargs)
                node_args = (self.node_of(args[0]) if node is None else node, *self.as_args(call_args[1:]))
            else:  # (a check before the call, such as _assert_tensor_metadata, holds no value)
                value, node_args = (out if last else None), self.as_args(call_args)
            name = getattr(getattr(op, "overloadpacket", None), "__name__", None)
            if name is not None and name.startswith("_assert"):
                name = f"{name}_{op._overloadname}"  # (torch names these after the overload too)
            node = self.graph.create_node("call_function", op, node_args, self.as_args(call_kwargs), name=name)
            node.stack_trace = trace
            if value is not None:
                node.meta["val"] = value
        if isinstance(out, (tuple, list)):
            for i, item in enumerate(out):
                if isinstance(item, core.Tensor):
                    item_node = self.graph.create_node("call_function", operator.getitem, (node, i), name="getitem")
                    item_node.meta["val"], item_node.stack_trace = item, trace
                    self.track(item, item_node)
        else:
            self.track(out, node)


_NO_OP_WHEN_SAME = {"contiguous", "to", "type", "float", "double", "cpu"}  # (torch records nothing for these)


class _ExportMode(TorchFunctionMode):
    def __init__(self, recorder: _Recorder):
        super().__init__()
        self.recorder = recorder

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        traced = self.recorder.traced(args) or self.recorder.traced(kwargs)
        if traced and (resolve_name(func) or "").endswith(".item") and self.recorder.traced(args[:1]):
            value = func(*args, **kwargs)
            if type(value) not in (int, float):  # a bool is read to branch on: the data-dependent guard
                raise _data_dependent(_caller_frame())
            return self.recorder.item(args[0], value)
        if traced and is_value_read(func):
            raise _data_dependent(_caller_frame())
        out = func(*args, **kwargs)
        name = getattr(func, "__name__", "")
        accessor = name in ("__get__", "__set__", "__delete__")
        unchanged = name in _NO_OP_WHEN_SAME and bool(args) and out is args[0]  # x.contiguous() of a contiguous x
        if _tensors(out) and not accessor and not unchanged:
            self.recorder.record(func, args, kwargs, out, traced)
        return out


def _mutates(node) -> bool:
    """Whether ``node`` calls an in-place ATen operator (``add_``, ``relu_``) or a check (``_assert_*``): kept even
    when nothing reads it."""
    packet = getattr(node.target, "overloadpacket", None)
    return packet is not None and (packet.__name__.endswith("_") or packet.__name__.startswith("_assert"))


def _eliminate_dead_code(graph) -> None:
    for node in reversed(list(graph.nodes)):
        if node.op == "call_function" and not node.users and not _mutates(node):
            graph.erase_node(node)


def _user_inputs(model, args, kwargs) -> list[tuple[str, object]]:
    """``(name, value)`` for each leaf of ``forward``'s arguments, named by its signature and its pytree path
    (``x``; ``xs_0``, ``xs_1`` for the items of a tuple ``xs``, ``d_a`` for ``d["a"]``, ``x_f`` for a dataclass
    field), in the order ``tree_leaves((args, kwargs))`` gives them."""
    try:
        bound = inspect.signature(model.forward).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return [(f"args_{i}", a) for i, a in enumerate(tree_leaves((args, kwargs)))]
    leaves, _ = tree_flatten_with_path(dict(bound.arguments))
    return [("_".join(_key_name(k).lower() for k in path), value) for path, value in leaves]


def _key_name(key) -> str:
    """One step of a leaf's pytree path in its placeholder's name, as torch's ``placeholder_naming_pass`` spells
    it: a dict key with each character outside [a-zA-Z0-9] as ``_``, an index, a dataclass field."""
    if isinstance(key, MappingKey):
        return re.sub(r"[^a-zA-Z0-9]", "_", str(key.key))
    if isinstance(key, SequenceKey):
        return str(key.idx)
    return key.name


def _tensor_attributes(model) -> dict:
    """``{id(tensor): "sub.name"}`` for the tensors kept as plain attributes (neither parameters nor buffers)."""
    found = {}
    for prefix, module in model.named_modules():
        for name, value in vars(module).items():
            if isinstance(value, core.Tensor) and not isinstance(value, core.nn.Parameter):
                found.setdefault(id(value), f"{prefix}.{name}" if prefix else name)
    return found


def trace(model, args: tuple, kwargs: dict):
    """``(graph, output TreeSpec, user input names, lifted constants)``: one run of ``model(*args, **kwargs)``
    recorded; the output node holds the output's leaves."""
    recorder = _Recorder(_tensor_attributes(model))
    for name, p in model.named_parameters():
        recorder.placeholder("p_" + name.replace(".", "_"), p)
    buffers = dict(model.named_buffers())
    for name, b in buffers.items():
        recorder.placeholder("b_" + name.replace(".", "_"), b)
    user = [recorder.placeholder(name, value, user=True).name for name, value in _user_inputs(model, args, kwargs)]
    saved = {name: b.detach().clone() for name, b in buffers.items()}
    try:
        with core.no_grad(), _ExportMode(recorder):
            out = model(*args, **kwargs)
    finally:
        with core.no_grad():
            for name, b in buffers.items():
                b.copy_(saved[name])
    outputs, out_spec = tree_flatten(out)
    recorder.graph.output(tuple(recorder.as_args(o) if isinstance(o, core.Tensor) else o for o in outputs))
    _eliminate_dead_code(recorder.graph)
    recorder.graph.unbacked = recorder.unbacked  # (export adds them to the range constraints)
    recorder._existed = []  # the trace is over: the tensors alive before it may go
    return recorder.graph, out_spec, user, recorder.constants
