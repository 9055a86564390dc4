"""``torch.export`` in core: ``export(model, args)`` traces a module into an :class:`ExportedProgram` whose graph
holds the ATen operators torch 2.13's non-strict export records (``aten.linear.default``, ``aten.relu.default``,
``aten.conv2d.default``, ``aten.batch_norm.default``, ``aten.view.default``, ``aten.add.Tensor``...), printed as
torch prints them; ``Dim``/``Dim.AUTO`` mark dynamic sizes, ``save``/``load`` keep a program in a file.

How a call becomes an operator: ``core.export._trace`` (the tracer) and ``core.export._aten_calls`` (the names
and argument orders). What differs from torch:

- dynamic sizes are found by tracing again with each dynamic dimension one larger: values whose sizes follow it
  print torch's symbol (``s77``, ``2*s77``), and an argument that followed it (``view(x.size(0), -1)``) reads it
  from a ``sym_size.int`` node as torch's graph does; sizes derived otherwise (``x.size(0) // 2``) stay the
  example's numbers, and ``module()`` guards only the static sizes;
- ``save`` writes torch's ``.pt2`` archive, which torch's ``load`` reads, when core knows the ATen argument
  names of every operator in the graph (``core.export._torch_archive_write``), and otherwise core's own archive
  (a ``core.save`` zip with the graph as data) that only core reads; ``load`` reads both and torch's archives;
- ``strict=True`` traces as ``strict=False`` does (there is no TorchDynamo);
- a model whose work core does out of the tracer's sight (its recurrent layers and multi-head attention run
  inside core's own kernels) raises NotImplementedError instead of exporting a program with frozen values.
"""

import operator as _operator

import core
from core.export import graph_signature
from core.export._trace import trace as _trace_graph
from core.export.dynamic_shapes import Dim
from core.export.dynamic_shapes import dim_range as _dim_range
from core.export.dynamic_shapes import symbol_for as _symbol_for
from core.export.exported_program import ExportedProgram
from core.export.graph_signature import ExportGraphSignature
from core.export.graph_signature import InputKind as _InputKind
from core.export.graph_signature import InputSpec as _InputSpec
from core.export.graph_signature import OutputKind as _OutputKind
from core.export.graph_signature import OutputSpec as _OutputSpec
from core.export.graph_signature import TensorArgument as _TensorArgument
from core.utils._pytree import tree_map as _tree_map

__all__ = ["Dim", "ExportGraphSignature", "ExportedProgram", "export", "graph_signature", "load", "save"]

_FORMAT = "core.export"
_VERSION = 1


def _signature(graph, model, user: list[str], constants: dict) -> tuple[ExportGraphSignature, dict, dict]:
    persistent = set(model.state_dict(keep_vars=True))
    params = {"p_" + n.replace(".", "_"): n for n, _ in model.named_parameters()}
    buffers = {"b_" + n.replace(".", "_"): (n, b) for n, b in model.named_buffers()}
    lifted = {"c_" + target.replace(".", "_"): target for target in constants}
    inputs, state, consts = [], {}, {}
    for node in graph.find_nodes(op="placeholder"):
        name = node.name
        if name in params:
            inputs.append(_InputSpec(_InputKind.PARAMETER, _TensorArgument(name), params[name]))
            state[params[name]] = node.meta["val"]
        elif name in buffers:
            target, value = buffers[name]
            keep = target in persistent
            inputs.append(_InputSpec(_InputKind.BUFFER, _TensorArgument(name), target, keep))
            (state if keep else consts)[target] = value
        elif name in lifted:
            inputs.append(_InputSpec(_InputKind.CONSTANT_TENSOR, _TensorArgument(name), lifted[name]))
            consts[lifted[name]] = constants[lifted[name]]
        else:
            inputs.append(_InputSpec(_InputKind.USER_INPUT, _TensorArgument(node.target), None))
    out_node = next(iter(graph.find_nodes(op="output")))
    outputs = [_OutputSpec(_OutputKind.USER_OUTPUT, _TensorArgument(a.name if isinstance(a, core.fx.Node) else str(a)),
                          None) for a in out_node.args[0]]
    return ExportGraphSignature(inputs, outputs), state, consts


def _dynamic_dims(dynamic_shapes, names: list[str], values: list) -> list[tuple[int, int, object]]:
    """``(input index, dim, spec)`` for each dimension ``dynamic_shapes`` marks dynamic."""
    if dynamic_shapes is None:
        return []
    if isinstance(dynamic_shapes, dict):
        specs = [dynamic_shapes.get(n) for n in names]
    else:
        specs = list(dynamic_shapes) + [None] * (len(names) - len(dynamic_shapes))
    out = []
    for i, spec in enumerate(specs):
        if spec is None:
            continue
        dims = sorted(spec.items()) if isinstance(spec, dict) else enumerate(spec)
        for dim, d in dims:
            rng = _dim_range(d, values[i].shape[dim])
            if rng is not None:
                out.append((i, dim, d, rng))
    return out


def _grown(t, dim: int):
    return core.cat([t, t.narrow(dim, 0, 1)], dim)


def _mark_symbols(graph, model, args, kwargs, user_values, dynamic) -> dict:
    """Give each dynamic dimension torch's symbol and put it in the sizes of the values that follow it.

    Every dimension takes a symbol number in turn (so later ones skip the numbers taken); the dimensions one
    ``Dim`` names share the last one's symbol, as torch's replacements leave them."""
    taken, groups = set(), {}
    names = [n.name for n in graph.find_nodes(op="placeholder")][-len(user_values):] if user_values else []
    for i, dim, spec, rng in dynamic:
        symbol = _symbol_for(f"L['{names[i]}'].size()[{dim}]", taken)
        key = id(spec) if isinstance(spec, Dim) else (i, dim)
        members, _, _ = groups.get(key, ([], None, None))
        groups[key] = (members + [(i, dim)], symbol, rng)
    ranges = {}
    for members, symbol, rng in groups.values():
        ranges[symbol] = rng
        grown_values = list(user_values)
        for i, dim in members:
            grown_values[i] = _grown(grown_values[i], dim)
        new_args, new_kwargs = _replaced(args, kwargs, user_values, grown_values)
        try:
            other, *_ = _trace_graph(model, new_args, new_kwargs)
        except Exception:  # the model refuses another size: its sizes stay the example's
            continue
        nodes, others = list(graph.nodes), list(other.nodes)
        if len(nodes) != len(others):
            continue
        i, dim = members[-1]
        size = user_values[i].shape[dim]
        sizes = _SizeReads(graph, names[i], dim, symbol)
        for node, twin in zip(nodes, others):
            _symbolic_sizes(node, twin, size, symbol)
            if node.op == "call_function":
                node.args = sizes.read(node.args, twin.args, size)
    return ranges


class _SizeReads:
    """The ``sym_size.int(x, dim)`` node an argument that followed the dynamic size reads (``view(x.size(0), -1)``),
    made on first use right after the placeholders, as torch places it."""

    def __init__(self, graph, input_name: str, dim: int, symbol):
        self.graph, self.input_name, self.dim, self.symbol = graph, input_name, dim, symbol
        self.node = None

    def _node(self):
        if self.node is None:
            placeholders = self.graph.find_nodes(op="placeholder")
            source = next(p for p in placeholders if p.name == self.input_name)
            with self.graph.inserting_after(placeholders[-1]):
                self.node = self.graph.create_node("call_function", core.ops.aten.sym_size.int, (source, self.dim),
                                                   name="sym_size_int_1")
            self.node.meta["val"] = self.symbol
        return self.node

    def read(self, value, twin, size: int):
        if type(value) is int and type(twin) is int and value == size and twin == size + 1:
            return self._node()
        if isinstance(value, (list, tuple)) and isinstance(twin, (list, tuple)) and len(value) == len(twin):
            return type(value)(self.read(v, t, size) for v, t in zip(value, twin))
        return value


def _replaced(args, kwargs, old: list, new: list):
    """``(args, kwargs)`` with each leaf that is one of ``old`` swapped for its ``new`` (nested inputs too)."""
    swap = {id(o): n for o, n in zip(old, new)}
    return _tree_map(lambda v: swap.get(id(v), v), (tuple(args), dict(kwargs)))


class _SymbolicTensor(tuple):
    """A node's value with symbolic sizes, as a TensorMetadata-like (shape, dtype) pair the code printer reads."""

    _fields = ("shape", "dtype")
    shape = property(_operator.itemgetter(0))
    dtype = property(_operator.itemgetter(1))


def _symbolic_sizes(node, twin, size: int, symbol) -> None:
    val, other = node.meta.get("val"), twin.meta.get("val")
    if not isinstance(val, (core.Tensor, _SymbolicTensor)) or not isinstance(other, core.Tensor):
        return
    shape = list(val.shape)
    for d, (a, b) in enumerate(zip(val.shape, other.shape)):
        if isinstance(a, int) and a != b and b - a > 0 and a % size == 0 and (b - a) * size == a:
            shape[d] = symbol if a == size else f"{a // size}*{symbol}"
    if shape != list(val.shape):
        node.meta["val"] = _SymbolicTensor((tuple(shape), val.dtype))


def export(mod, args, kwargs=None, *, dynamic_shapes=None, strict: bool = False,
           preserve_module_call_signature=(), prefer_deferred_runtime_asserts_over_guards: bool = False):
    """Trace ``mod(*args, **kwargs)`` into an :class:`ExportedProgram` (see the module docstring)."""
    if not isinstance(mod, core.nn.Module):
        raise ValueError(f"Expected `mod` to be an instance of `torch.nn.Module`, got {type(mod)}.")
    if not isinstance(args, tuple):
        raise ValueError(f"Expecting `args` to be a tuple of example positional inputs, got {type(args)}")
    kwargs = kwargs or {}
    graph, out_spec, user, constants = _trace_graph(mod, args, kwargs)
    signature, state, consts = _signature(graph, mod, user, constants)
    placeholders = {n.name: n for n in graph.find_nodes(op="placeholder")}
    user_values = [placeholders[n].meta.get("val") for n in user]
    dynamic = _dynamic_dims(dynamic_shapes, user, user_values)
    ranges = _mark_symbols(graph, mod, args, kwargs, user_values, dynamic) if dynamic else {}
    ranges.update(getattr(graph, "unbacked", {}))
    return ExportedProgram(core.nn.Module(), graph, signature, state, ranges, consts, (args, kwargs), out_spec)


def save(ep: ExportedProgram, f, *, extra_files=None, opset_version=None, pickle_protocol: int = 2) -> None:
    """Write ``ep`` to ``f`` (a path or a binary file) as torch's ``.pt2`` archive when core knows the argument names
    of all its operators, else as core's own archive; :func:`load` reads both."""
    from core.export._serialize import to_payload
    from core.export._torch_archive_write import can_write, write_torch_archive

    if not isinstance(ep, ExportedProgram):
        raise TypeError(f"The 'ep' parameter must be an instance of 'ExportedProgram', got '{type(ep).__name__}' "
                        "instead.")
    if can_write(ep):
        write_torch_archive(ep, f)
    else:
        core.save(to_payload(ep, _FORMAT, _VERSION), f)


def load(f, *, extra_files=None, expected_opset_version=None) -> ExportedProgram:
    """Read an ExportedProgram :func:`save` wrote."""
    from core.export._serialize import from_payload
    from core.export._torch_archive import is_torch_archive, read_torch_archive

    if is_torch_archive(f):
        return read_torch_archive(f)
    payload = core.load(f, weights_only=False)
    if not isinstance(payload, dict) or payload.get("format") != _FORMAT:
        raise RuntimeError("This file is not an ExportedProgram core saved (torch's .pt2 archives are not read)")
    return from_payload(payload)
