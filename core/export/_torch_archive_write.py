"""Writing an ExportedProgram of core as the ``.pt2`` archive ``torch.export.save`` writes (schema 8.20), so that
torch's ``torch.export.load`` reads it.

Torch's reader matches each node's arguments to the operator's schema by name, so a program can be written only
when core knows the ATen argument names of each of its operators (``ARG_NAMES``: the operators core's export
records and decomposes to); ``can_write`` says whether it does, and ``core.export.save`` writes core's own format
otherwise. Sizes that are symbols are written as the sympy expressions torch writes (``Symbol('s77', ...)``).
"""

from __future__ import annotations

import io
import json
import operator
import zipfile

import numpy as np

import core
from core.export.graph_signature import InputKind, OutputKind
from core.utils._pytree import tree_structure

__all__ = ["ARG_NAMES", "can_write", "write_torch_archive"]

_UNARY = ("self",)
_BINARY = ("self", "other")
# ATen operator -> its arguments' names, in the schema's order
ARG_NAMES = {
    "linear": ("input", "weight", "bias"), "relu": _UNARY, "relu_": _UNARY, "sigmoid": _UNARY, "tanh": _UNARY,
    "gelu": ("self", "approximate"), "silu": _UNARY, "hardtanh": ("self", "min_val", "max_val"),
    "leaky_relu": ("self", "negative_slope"), "neg": _UNARY, "exp": _UNARY, "log": _UNARY, "sqrt": _UNARY,
    "conv1d": ("input", "weight", "bias", "stride", "padding", "dilation", "groups"),
    "conv2d": ("input", "weight", "bias", "stride", "padding", "dilation", "groups"),
    "conv3d": ("input", "weight", "bias", "stride", "padding", "dilation", "groups"),
    "convolution": ("input", "weight", "bias", "stride", "padding", "dilation", "transposed", "output_padding",
                    "groups"),
    "batch_norm": ("input", "weight", "bias", "running_mean", "running_var", "training", "momentum", "eps",
                   "cudnn_enabled"),
    "_native_batch_norm_legit_no_training": ("input", "weight", "bias", "running_mean", "running_var", "momentum",
                                             "eps"),
    "max_pool2d": ("self", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
    "max_pool1d": ("self", "kernel_size", "stride", "padding", "dilation", "ceil_mode"),
    "avg_pool2d": ("self", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    "adaptive_avg_pool2d": ("self", "output_size"), "adaptive_avg_pool1d": ("self", "output_size"),
    "flatten": ("self", "start_dim", "end_dim"), "dropout": ("input", "p", "train"),
    "softmax": ("self", "dim", "dtype"), "log_softmax": ("self", "dim", "dtype"),
    "cat": ("tensors", "dim"), "stack": ("tensors", "dim"), "select": ("self", "dim", "index"),
    "slice": ("self", "dim", "start", "end", "step"), "transpose": ("self", "dim0", "dim1"),
    "unsqueeze": ("self", "dim"), "squeeze": ("self", "dim"), "view": ("self", "size"),
    "reshape": ("self", "shape"), "permute": ("self", "dims"), "expand": ("self", "size", "implicit"),
    "repeat": ("self", "repeats"), "layer_norm": ("input", "normalized_shape", "weight", "bias", "eps",
                                                  "cudnn_enable"),
    "embedding": ("weight", "indices", "padding_idx", "scale_grad_by_freq", "sparse"),
    "add": ("self", "other", "alpha"), "sub": ("self", "other", "alpha"), "mul": _BINARY, "div": _BINARY,
    "add_": ("self", "other", "alpha"), "matmul": _BINARY, "mm": ("self", "mat2"), "bmm": ("self", "mat2"),
    "addmm": ("self", "mat1", "mat2", "beta", "alpha"), "t": _UNARY, "contiguous": ("self", "memory_format"),
    "sum": ("self", "dim", "keepdim", "dtype"), "mean": ("self", "dim", "keepdim", "dtype"),
    "sym_size": ("self", "dim"), "lift_fresh_copy": _UNARY, "detach_": _UNARY, "detach": _UNARY,
    "split": ("self", "split_size", "dim"), "split_with_sizes": ("self", "split_sizes", "dim"),
    "max": ("self", "dim", "keepdim"), "min": ("self", "dim", "keepdim"), "group_norm": (
        "input", "num_groups", "weight", "bias", "eps", "cudnn_enabled"),
    "zeros": ("size",), "ones": ("size",), "empty": ("size",), "full": ("size", "fill_value"),
}
_SCALAR_TYPES = {"uint8": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "float16": 6, "float32": 7,
                 "float64": 8, "complex64": 10, "complex128": 11, "bool": 12, "uint16": 28, "uint32": 34,
                 "uint64": 35}
_LEAF = {"type": None, "context": None, "children_spec": []}


def _packet(node) -> str | None:
    packet = getattr(node.target, "overloadpacket", None)
    return None if packet is None else packet.__name__


def can_write(ep) -> bool:
    """Whether every operator of ``ep``'s graph has its argument names in ``ARG_NAMES``, every input is a tensor
    and the inputs and output are nested tuples, lists and dicts."""
    structures = [ep._out_spec] + ([tree_structure(ep.example_inputs)] if ep.example_inputs is not None else [])
    return (all(n.op != "call_function" or n.target is operator.getitem or _packet(n) in ARG_NAMES
                for n in ep.graph.nodes)
            and all("val" in n.meta for n in ep.graph.find_nodes(op="placeholder"))
            and all(s is None or _spec_json(s) is not None for s in structures))


def _expr(size) -> dict:
    if type(size) is int:
        return {"as_int": size}
    text = str(size)
    factor, _, symbol = text.rpartition("*")
    sym = f"Symbol('{symbol}', positive=True, integer=True)"
    return {"as_expr": {"expr_str": f"Mul(Integer({factor}), {sym})" if factor else sym, "hint": None}}


def _strides(shape) -> list:
    out, step = [], 1
    for d in reversed(shape):
        out.append(step)
        step = step * d if type(step) is int and type(d) is int else str(d) if step == 1 else f"{step}*{d}"
    return list(reversed(out))


def _meta(val, requires_grad: bool = False) -> dict:
    shape = tuple(val.shape)
    return {"dtype": _SCALAR_TYPES[str(val.dtype).split(".")[-1]], "sizes": [_expr(s) for s in shape],
            "requires_grad": requires_grad, "device": {"type": "cpu", "index": None},
            "strides": [_expr(s) for s in _strides(shape)], "storage_offset": {"as_int": 0}, "layout": 7}


class _Writer:
    def __init__(self, ep):
        self.ep, self.tensor_values, self.sym_int_values = ep, {}, {}

    def arg(self, value) -> dict:
        if isinstance(value, core.fx.Node):
            if _packet(value) == "sym_size":
                return {"as_sym_int": {"as_name": value.name}}
            return {"as_tensor": {"name": value.name}}
        if value is None:
            return {"as_none": True}
        if isinstance(value, bool):
            return {"as_bool": value}
        if isinstance(value, int):
            return {"as_int": value}
        if isinstance(value, float):
            return {"as_float": value}
        if isinstance(value, str):
            return {"as_string": value}
        if isinstance(value, core.dtype):
            return {"as_scalar_type": _SCALAR_TYPES[str(value).split(".")[-1]]}
        if isinstance(value, (list, tuple)):
            if any(isinstance(v, core.fx.Node) and _packet(v) == "sym_size" for v in value):
                return {"as_sym_ints": [self.arg(v)["as_sym_int"] if isinstance(v, core.fx.Node) else {"as_int": v}
                                        for v in value]}
            if all(isinstance(v, core.fx.Node) for v in value) and value:
                return {"as_tensors": [{"name": v.name} for v in value]}
            if all(isinstance(v, bool) for v in value) and value:
                return {"as_bools": list(value)}
            if all(isinstance(v, int) for v in value):
                return {"as_ints": list(value)}
            return {"as_floats": [float(v) for v in value]}
        raise NotImplementedError(f"core cannot write the argument {value!r} in torch's .pt2 format")

    def node(self, node) -> dict:
        names = ARG_NAMES[_packet(node)]
        inputs = [{"name": n, "arg": self.arg(a), "kind": 1} for n, a in zip(names, node.args)]
        inputs += [{"name": k, "arg": self.arg(v), "kind": 2} for k, v in node.kwargs.items()]
        val = node.meta.get("val")
        if _packet(node) == "sym_size":
            self.sym_int_values[node.name] = _expr(val)
            outputs = [{"as_sym_int": {"as_name": node.name}}]
        elif isinstance(val, (tuple, list)) and not hasattr(val, "shape"):  # (a symbolic value is a pair)
            taken = {u.args[1]: u.name for u in node.users if u.target is operator.getitem}
            outputs = []
            for i, item in enumerate(val):
                name = taken.get(i, f"{node.name}_unused_{i}")
                self.tensor_values[name] = _meta(item)
                outputs.append({"as_tensor": {"name": name}})
        else:
            self.tensor_values[node.name] = _meta(val)
            outputs = [{"as_tensor": {"name": node.name}}]
        trace = node.stack_trace
        metadata = {}
        if trace and trace.startswith("File: "):
            where, _, code = trace[len("File: "):].partition(", code: ")
            path_line, _, func = where.rpartition(" in ")
            path, _, line = path_line.rpartition(":")
            metadata["stack_trace"] = f'File "{path}", line {line}, in {func}\n    {code}'
        return {"target": f"torch.ops.{node.target}", "inputs": inputs, "outputs": outputs, "metadata": metadata,
                "is_hop_single_tensor_return": None, "name": node.name}

    def graph(self) -> dict:
        nodes, inputs = [], []
        for node in self.ep.graph.nodes:
            if node.op == "placeholder":
                inputs.append({"as_tensor": {"name": node.name}})
                self.tensor_values[node.name] = _meta(node.meta["val"])
            elif node.op == "call_function" and node.target is not operator.getitem:
                nodes.append(self.node(node))
            elif node.op == "output":
                outputs = [self.arg(a) for a in node.args[0]]
        return {"inputs": inputs, "outputs": outputs, "nodes": nodes, "tensor_values": self.tensor_values,
                "sym_int_values": self.sym_int_values, "sym_bool_values": {}, "is_single_tensor_return": False,
                "custom_obj_values": {}, "sym_float_values": {}}


def _signature(sig) -> dict:
    inputs = []
    for s in sig.input_specs:
        if s.kind is InputKind.PARAMETER:
            inputs.append({"parameter": {"arg": {"name": s.arg.name}, "parameter_name": s.target}})
        elif s.kind is InputKind.BUFFER:
            inputs.append({"buffer": {"arg": {"name": s.arg.name}, "buffer_name": s.target,
                                      "persistent": s.persistent}})
        elif s.kind is InputKind.CONSTANT_TENSOR:
            inputs.append({"tensor_constant": {"arg": {"name": s.arg.name}, "tensor_constant_name": s.target}})
        else:
            inputs.append({"user_input": {"arg": {"as_tensor": {"name": s.arg.name}}}})
    outputs = [{"user_output": {"arg": {"as_tensor": {"name": s.arg.name}}}} for s in sig.output_specs
               if s.kind is OutputKind.USER_OUTPUT]
    return {"input_specs": inputs, "output_specs": outputs}


def _spec_json(spec):
    """A TreeSpec as torch's serialized pytree node, or None for a type outside tuple, list and dict."""
    if spec.is_leaf():
        return dict(_LEAF)
    names = {tuple: "builtins.tuple", list: "builtins.list", dict: "builtins.dict"}
    if spec.type not in names:
        return None
    children = [_spec_json(c) for c in spec.children()]
    if any(c is None for c in children):
        return None
    context = json.dumps(list(spec.context)) if spec.type is dict else "null"
    return {"type": names[spec.type], "context": context, "children_spec": children}


def _specs(ep, n_inputs: int, n_outputs: int) -> tuple[str, str]:
    if ep.example_inputs is not None:
        in_spec = _spec_json(tree_structure(tuple(ep.example_inputs)))
    else:
        in_spec = _spec_json(tree_structure(((0,) * n_inputs, {})))
    out_spec = _spec_json(ep._out_spec if ep._out_spec is not None else tree_structure((0,) * n_outputs))
    return json.dumps([1, in_spec]), json.dumps([1, out_spec])


def _tensors(z, root: str, folder: str, stem: str, tensors: dict, params: set) -> dict:
    config = {}
    for i, (fqn, t) in enumerate(tensors.items()):
        array = np.ascontiguousarray(np.asarray(t.detach()._data))
        z.writestr(f"{root}data/{folder}/{stem}_{i}", array.tobytes())
        config[fqn] = {"path_name": f"{stem}_{i}", "is_param": fqn in params, "use_pickle": False,
                       "tensor_meta": _meta(t, requires_grad=fqn in params)}
    return {"config": config}


def write_torch_archive(ep, f, name: str = "model") -> None:
    """Write ``ep`` to ``f`` as torch's ``.pt2`` archive (see the module docstring)."""
    writer = _Writer(ep)
    graph = writer.graph()
    users = ep.graph_signature.user_inputs
    in_spec, out_spec = _specs(ep, len(users), len(graph["outputs"]))
    ranges = {str(k): {"min_val": v.lower, "max_val": None if repr(v.upper) == "int_oo" else v.upper}
              for k, v in ep.range_constraints.items()}
    program = {"graph_module": {"graph": graph, "signature": _signature(ep.graph_signature),
                                "module_call_graph": [{"fqn": "", "signature": {
                                    "inputs": [], "outputs": [], "in_spec": in_spec, "out_spec": out_spec,
                                    "forward_arg_names": list(users)}}],
                                "metadata": {}, "treespec_namedtuple_fields": {}},
               "opset_version": {"aten": 10}, "range_constraints": ranges, "schema_version": {"major": 8, "minor": 20},
               "verifiers": ["TRAINING"], "torch_version": "2.13.0+cpu", "guards_code": []}
    root = "archive/"
    params = set(ep.graph_signature.parameters)
    samples = io.BytesIO()
    core.save(((), {}) if ep.example_inputs is None else ep.example_inputs, samples)
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as z:
        z.writestr(root + "archive_format", "pt2")
        z.writestr(root + "archive_version", "0")
        z.writestr(root + "byteorder", "little")
        z.writestr(root + ".data/version", "6\n")
        z.writestr(f"{root}models/{name}.json", json.dumps(program))
        z.writestr(f"{root}data/sample_inputs/{name}.pt", samples.getvalue())
        z.writestr(f"{root}data/weights/{name}_weights_config.json",
                   json.dumps(_tensors(z, root, "weights", "weight", ep.state_dict, params)))
        z.writestr(f"{root}data/constants/{name}_constants_config.json",
                   json.dumps(_tensors(z, root, "constants", "constant", ep.constants, set())))
