"""``torch.export.ExportedProgram``: a traced graph whose parameters, buffers and constants are inputs, with the
signature that says which input is which, the state to feed them, and the ranges of its dynamic sizes.

``module()`` puts the state back as attributes (``get_attr`` nodes) and gives a GraphModule that takes the
user's inputs and returns the model's outputs (checking, as torch's guards do, that each static size is the
example's: ``AssertionError: Guard failed: x.size()[0] == 2``); ``run_decompositions()`` rewrites ``linear``,
``conv*d`` and eval-mode ``batch_norm`` into the operators torch's core ATen decomposition gives (``permute`` +
``addmm``, ``convolution``, ``_native_batch_norm_legit_no_training``); other operators stay as they are.
``str(ep)`` is torch's text: the graph as ``print_readable`` writes it, the signature, the range constraints.
"""

from __future__ import annotations

import copy
import operator
from typing import NamedTuple

import core
from core.export.graph_signature import ExportGraphSignature, InputKind
from core.fx import Graph, GraphModule
from core.nn import Module
from core.utils._pytree import tree_leaves, tree_structure, tree_unflatten

__all__ = ["CallSpec", "ExportedProgram"]


class CallSpec(NamedTuple):
    in_spec: object
    out_spec: object


class ExportedProgram:
    """What ``torch.export.export`` returns (see the module docstring)."""

    def __init__(self, root, graph: Graph, graph_signature: ExportGraphSignature, state_dict: dict,
                 range_constraints: dict, constants: dict | None = None, example_inputs=None, out_spec=None):
        self._graph_module = root if isinstance(root, GraphModule) else GraphModule(root, graph)
        self._graph_signature = graph_signature
        self._state_dict = state_dict
        self._range_constraints = range_constraints
        self._constants = constants or {}
        self._example_inputs = example_inputs
        self._out_spec = out_spec  # the output's TreeSpec: the graph returns its leaves

    graph_module = property(lambda self: self._graph_module)
    graph = property(lambda self: self._graph_module.graph)
    graph_signature = property(lambda self: self._graph_signature)
    state_dict = property(lambda self: self._state_dict)
    range_constraints = property(lambda self: self._range_constraints)
    constants = property(lambda self: self._constants)
    tensor_constants = constants
    example_inputs = property(lambda self: self._example_inputs)

    @property
    def call_spec(self) -> CallSpec:
        """The structure of the inputs (``(args, kwargs)``) and of the output, as TreeSpecs."""
        inputs = None if self._example_inputs is None else tree_structure(tuple(self._example_inputs))
        return CallSpec(inputs, self._out_spec)

    def parameters(self):
        for _, p in self.named_parameters():
            yield p

    def named_parameters(self):
        for name in self._graph_signature.parameters:
            yield name, self._state_dict[name]

    def buffers(self):
        for _, b in self.named_buffers():
            yield b

    def named_buffers(self):
        for name in self._graph_signature.buffers:
            yield name, self._state_dict.get(name, self._constants.get(name))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Unable to call ExportedProgram directly. You should use `exported_program.module()` "
                           "instead.")

    def _state(self, spec):
        return self._constants[spec.target] if spec.kind is InputKind.CONSTANT_TENSOR else self._state_dict.get(
            spec.target, self._constants.get(spec.target))

    def module(self, check_guards: bool = True) -> GraphModule:
        """A GraphModule with the parameters, buffers and constants as its attributes, taking the user's inputs."""
        root, graph, env = Module(), Graph(), {}
        for spec, node in zip(self._graph_signature.input_specs, self.graph.find_nodes(op="placeholder")):
            if spec.kind is InputKind.USER_INPUT:
                env[node] = graph.placeholder(node.name)
            else:
                _install(root, spec.target, self._state(spec), spec.kind)
                env[node] = graph.get_attr(spec.target)
            env[node].meta = dict(node.meta)
        for node in self.graph.nodes:
            if node.op == "output":
                outs = tuple(env[a] if isinstance(a, core.fx.Node) else a for a in node.args[0])
                graph.output(outs)
            elif node.op != "placeholder":
                env[node] = graph.node_copy(node, lambda n: env[n])
        gm = GraphModule(root, graph)
        gm.register_forward_pre_hook(_flat_inputs, with_kwargs=True)
        if check_guards:
            gm.register_forward_pre_hook(_Guards(graph.find_nodes(op="placeholder")))
        gm.register_forward_hook(_Unflatten(self._out_spec))
        return gm

    def run_decompositions(self, decomp_table=None, decompose_custom_triton_ops: bool = False) -> ExportedProgram:
        """A new ExportedProgram whose graph uses torch's core ATen operators for linear, conv and batch norm."""
        graph = copy.deepcopy(self.graph)
        for node in list(graph.nodes):
            rewrite = _DECOMPOSITIONS.get(node.target) if node.op == "call_function" else None
            if rewrite is not None:
                rewrite(graph, node)
        graph.eliminate_dead_code()
        signature = copy.deepcopy(self._graph_signature)
        outputs = next(iter(graph.find_nodes(op="output"))).args[0]
        for spec, out in zip(signature.output_specs, outputs):
            if isinstance(out, core.fx.Node):
                spec.arg.name = out.name
        return ExportedProgram(Module(), graph, signature, self._state_dict,
                               self._range_constraints, self._constants, self._example_inputs, self._out_spec)

    def __str__(self) -> str:
        graph_module = self._graph_module.print_readable(print_output=False, colored=False).replace("\n", "\n    ")
        signature = str(self._graph_signature).replace("\n", "\n    ")
        return (f"ExportedProgram:\n    {graph_module}\nGraph signature: {signature}\n"
                f"Range constraints: {_constraints(self._range_constraints)}\n")

    def __repr__(self) -> str:
        return self.__str__()


def _flat_inputs(module, args, kwargs):
    """The call's leaves, in the order the graph's placeholders take them (nested inputs are flattened)."""
    return tuple(tree_leaves((args, kwargs))), {}


class _Unflatten:
    """The graph's output leaves put back in the model's output structure (a tensor, a tuple, a dict...)."""

    def __init__(self, spec):
        self.spec = spec

    def __call__(self, module, args, out):
        return out if self.spec is None else tree_unflatten(list(out), self.spec)


class _Guards:
    """The checks torch's ``_guards_fn`` makes on a program's inputs: every static size is the example's."""

    def __init__(self, placeholders):
        self.sizes = [(i, p.target, d, n) for i, p in enumerate(placeholders)
                      for d, n in enumerate(getattr(p.meta.get("val"), "shape", ())) if type(n) is int]

    def __call__(self, module, args):
        for i, name, d, n in self.sizes:
            if i < len(args) and isinstance(args[i], core.Tensor) and (args[i].dim() <= d or args[i].shape[d] != n):
                raise AssertionError(f"Guard failed: {name}.size()[{d}] == {n}")


def _constraints(ranges: dict) -> str:
    return "{" + ", ".join(f"{k}: {v!r}" for k, v in ranges.items()) + "}"


def _install(root: Module, target: str, value, kind: InputKind) -> None:
    *path, field = target.split(".")
    owner = root
    for atom in path:
        child = getattr(owner, atom, None)
        if child is None:
            child = Module()
            owner.add_module(atom, child)
        owner = child
    if kind is InputKind.PARAMETER:
        owner.register_parameter(field, value if isinstance(value, core.nn.Parameter) else core.nn.Parameter(value))
    elif kind is InputKind.BUFFER:
        owner.register_buffer(field, value)
    else:
        setattr(owner, field, value)


def _replace(graph: Graph, node, build) -> None:
    """Put what ``build()`` makes (inserted before ``node``) in ``node``'s place, with its stack trace and value."""
    before = set(graph.nodes)
    with graph.inserting_before(node):
        new = build()
    for made in graph.nodes:
        if made not in before and made is not node:
            made.stack_trace = node.stack_trace
    new.meta = dict(node.meta)
    node.replace_all_uses_with(new)
    graph.erase_node(node)


def _call(graph: Graph, op, args, val=None):
    node = graph.create_node("call_function", op, args, name=op.overloadpacket.__name__)
    if val is not None:
        node.meta["val"] = val
    return node


def _linear(graph: Graph, node) -> None:
    x, w, *rest = node.args
    b = rest[0] if rest else None
    if len(x.meta["val"].shape) != 2:
        return
    aten = core.ops.aten
    wt = w.meta["val"].t()

    def build():
        permute = _call(graph, aten.permute.default, (w, [1, 0]), wt)
        if b is None:
            return _call(graph, aten.mm.default, (x, permute))
        return _call(graph, aten.addmm.default, (b, x, permute))
    _replace(graph, node, build)


def _conv(graph: Graph, node) -> None:
    n = len(node.args[1].meta["val"].shape) - 2
    defaults = [None, [1] * n, [0] * n, [1] * n, 1]
    x, w, *rest = node.args
    b, stride, padding, dilation, groups = [*rest, *defaults[len(rest):]]
    args = (x, w, b, stride, padding, dilation, False, [0] * n, groups)
    _replace(graph, node, lambda: _call(graph, core.ops.aten.convolution.default, args))


def _batch_norm(graph: Graph, node) -> None:
    x, w, b, mean, var, training, momentum, eps, _ = node.args
    if training:
        return
    op = core.ops.aten._native_batch_norm_legit_no_training.default

    def build():
        empty = core.empty(0)
        triple = _call(graph, op, (x, w, b, mean, var, momentum, eps), (node.meta.get("val"), empty, empty))
        return graph.create_node("call_function", operator.getitem, (triple, 0), name="getitem")
    _replace(graph, node, build)


def _decompositions() -> dict:
    aten = core.ops.aten
    return {aten.linear.default: _linear, aten.conv1d.default: _conv, aten.conv2d.default: _conv,
            aten.conv3d.default: _conv, aten.batch_norm.default: _batch_norm}


class _Table(dict):
    def get(self, key, default=None):
        if not self:
            self.update(_decompositions())
        return super().get(key, default)


_DECOMPOSITIONS = _Table()
