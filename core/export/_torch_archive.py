"""Reading the ``.pt2`` archives ``torch.export.save`` writes (torch 2.13's serialization schema 8.x) into an
ExportedProgram of core.

The archive is a zip whose ``models/model.json`` holds the graph (nodes with their ATen targets and named
arguments, tensor metadata, the signature, the ranges) and whose ``data/weights``/``data/constants`` hold each
tensor's raw bytes, described in ``*_config.json``. Positional arguments come in the operator's order, keyword ones
by name, so no schema is needed; a node with several outputs gets an ``operator.getitem`` node for each, as torch's
deserializer makes them. Sizes written as expressions keep their symbols (``s77``, ``2*s77``).
Custom objects, higher-order operators and pickled constants are not read.
"""

from __future__ import annotations

import json
import operator
import re
import zipfile

import numpy as np

import core
from core.export.dynamic_shapes import Symbol, ValueRanges, int_oo
from core.export.graph_signature import (
    ExportGraphSignature,
    InputKind,
    InputSpec,
    OutputKind,
    OutputSpec,
    TensorArgument,
)
from core.fx import Graph
from core.utils._pytree import tree_structure

__all__ = ["is_torch_archive", "read_torch_archive"]

# the serialization schema's ScalarType numbers
_DTYPES = {1: "uint8", 2: "int8", 3: "int16", 4: "int32", 5: "int64", 6: "float16", 7: "float32", 8: "float64",
           10: "complex64", 11: "complex128", 12: "bool", 13: "bfloat16", 28: "uint16", 34: "uint32", 35: "uint64"}
_INPUT_KINDS = {"parameter": (InputKind.PARAMETER, "parameter_name"), "buffer": (InputKind.BUFFER, "buffer_name"),
                "tensor_constant": (InputKind.CONSTANT_TENSOR, "tensor_constant_name"),
                "user_input": (InputKind.USER_INPUT, None)}
_OUTPUT_KINDS = {"user_output": OutputKind.USER_OUTPUT, "buffer_mutation": OutputKind.BUFFER_MUTATION,
                 "loss_output": OutputKind.LOSS_OUTPUT, "user_input_mutation": OutputKind.USER_INPUT_MUTATION}
_SYMBOL = re.compile(r"Symbol\('(\w+)'[^)]*\)")
_SCALED = re.compile(r"^Mul\(Integer\((\d+)\), Symbol\('(\w+)'[^)]*\)\)$")


def _root(names: list[str]) -> str | None:
    return next((n[: -len("models/model.json")] for n in names if n.endswith("models/model.json")), None)


def is_torch_archive(f) -> bool:
    try:
        with zipfile.ZipFile(f) as z:
            root = _root(z.namelist())
            return root is not None and z.read(root + "archive_format").strip() == b"pt2"
    except (zipfile.BadZipFile, KeyError, OSError, TypeError):
        return False
    finally:
        if hasattr(f, "seek"):
            f.seek(0)


def _size(entry: dict):
    if "as_int" in entry:
        return entry["as_int"]
    expr = entry["as_expr"]["expr_str"]
    scaled = _SCALED.match(expr)
    if scaled:
        return f"{scaled.group(1)}*{scaled.group(2)}"
    single = _SYMBOL.fullmatch(expr)
    if single:
        return Symbol(single.group(1))
    hint = entry["as_expr"].get("hint") or {}
    return hint.get("as_int", expr)


def _meta_value(meta: dict):
    dtype = getattr(core, _DTYPES[meta["dtype"]])
    shape = tuple(_size(s) for s in meta["sizes"])
    if all(type(d) is int for d in shape):
        return core.empty(shape, dtype=dtype)
    from core.export import _SymbolicTensor

    return _SymbolicTensor((shape, dtype))


def _tensor(z, root: str, folder: str, entry: dict):
    meta = entry["tensor_meta"]
    if entry.get("use_pickle"):
        raise NotImplementedError("core does not read pickled tensors in a .pt2 archive")
    dtype = np.dtype(_DTYPES[meta["dtype"]]) if meta["dtype"] != 13 else None
    if dtype is None:
        raise NotImplementedError("core does not read bfloat16 tensors from a .pt2 archive yet")
    raw = np.frombuffer(z.read(f"{root}data/{folder}/{entry['path_name']}"), dtype=dtype)
    shape = [s["as_int"] for s in meta["sizes"]]
    strides = [s["as_int"] * dtype.itemsize for s in meta["strides"]]
    offset = meta["storage_offset"]["as_int"]
    array = np.lib.stride_tricks.as_strided(raw[offset:], shape, strides).copy() if raw.size else raw.reshape(shape)
    t = core.tensor(array)
    return core.nn.Parameter(t, requires_grad=meta.get("requires_grad", True)) if entry.get("is_param") else t


def _stack_trace(text: str | None) -> str | None:
    """torch's one-line form of a node's innermost frame: ``File: path:line in func, code: source``."""
    if not text:
        return None
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)\n\s*(.*)', text)
    if not frames:
        return None
    path, line, func, code = frames[-1]
    return f"File: {path}:{line} in {func}, code: {code.strip()}"


class _Reader:
    def __init__(self, graph_json: dict):
        self.graph, self.values, self.json = Graph(), {}, graph_json

    def arg(self, a: dict):
        (kind, v), = a.items()
        if kind == "as_tensor":
            return self.values[v["name"]]
        if kind == "as_tensors":
            return [self.values[t["name"]] for t in v]
        if kind in ("as_sym_int", "as_sym_float", "as_sym_bool"):
            return self.values[v["as_name"]] if "as_name" in v else next(iter(v.values()))
        if kind in ("as_sym_ints", "as_optional_tensors"):
            return [self.arg({"as_sym_int" if kind == "as_sym_ints" else "as_optional_tensor": x}) for x in v]
        if kind == "as_optional_tensor":
            return self.values[v["as_tensor"]["name"]] if "as_tensor" in v else None
        if kind == "as_none":
            return None
        if kind == "as_scalar_type":
            return getattr(core, _DTYPES[v])
        if kind == "as_device":
            return core.device(v["type"] if v.get("index") is None else f"{v['type']}:{v['index']}")
        if kind in ("as_memory_format", "as_layout"):
            return {("as_memory_format", 1): core.contiguous_format, ("as_memory_format", 2): core.channels_last,
                    ("as_memory_format", 4): core.preserve_format}.get((kind, v), core.strided)
        return v  # ints, floats, bools, strings and their lists

    def node(self, entry: dict) -> None:
        _, _, name, overload = entry["target"].rsplit(".", 3)
        op = getattr(getattr(core.ops.aten, name), overload)
        args, kwargs = [], {}
        for item in entry["inputs"]:
            value = self.arg(item["arg"])
            if item.get("kind", 1) == 2:
                kwargs[item["name"]] = value
            else:
                args.append(value)
        outputs = entry["outputs"]
        single = len(outputs) == 1 and "as_tensors" not in outputs[0]
        out_name = next(iter(outputs[0].values())).get("name") or next(iter(outputs[0].values())).get("as_name") \
            if single else entry["name"]
        node = self.graph.create_node("call_function", op, tuple(args), kwargs, name=out_name or entry["name"])
        node.stack_trace = _stack_trace(entry.get("metadata", {}).get("stack_trace"))
        if single:
            self.record(outputs[0], node)
        else:
            items = outputs[0]["as_tensors"] if "as_tensors" in outputs[0] else [o["as_tensor"] for o in outputs]
            for i, item in enumerate(items):
                got = self.graph.create_node("call_function", operator.getitem, (node, i), name=item["name"])
                got.stack_trace = node.stack_trace
                got.meta["val"] = _meta_value(self.json["tensor_values"][item["name"]])
                self.values[item["name"]] = got

    def record(self, output: dict, node) -> None:
        (kind, v), = output.items()
        if kind == "as_tensor":
            node.meta["val"] = _meta_value(self.json["tensor_values"][v["name"]])
            self.values[v["name"]] = node
        else:  # a size: its symbol
            node.meta["val"] = _size(self.json["sym_int_values"][v["as_name"]])
            self.values[v["as_name"]] = node


def _sample(spec: dict):
    """A value with the structure a serialized pytree node describes (its leaves 0), for ``tree_structure``."""
    children = [_sample(c) for c in spec["children_spec"]]
    if spec["type"] is None:
        return 0
    if spec["type"] == "builtins.dict":
        return dict(zip(json.loads(spec["context"]), children))
    if spec["type"] == "builtins.list":
        return children
    if spec["type"] == "builtins.tuple":
        return tuple(children)
    raise NotImplementedError(f"core does not read the pytree node type {spec['type']} of a .pt2 archive")


def _signature(sig: dict) -> ExportGraphSignature:
    inputs = []
    for spec in sig["input_specs"]:
        (kind, v), = spec.items()
        input_kind, target_key = _INPUT_KINDS[kind]
        name = v["arg"]["as_tensor"]["name"] if kind == "user_input" else v["arg"]["name"]
        inputs.append(InputSpec(input_kind, TensorArgument(name), v.get(target_key) if target_key else None,
                                v.get("persistent") if kind == "buffer" else None))
    outputs = []
    for spec in sig["output_specs"]:
        (kind, v), = spec.items()
        arg = v["arg"]
        outputs.append(OutputSpec(_OUTPUT_KINDS[kind], TensorArgument(arg.get("as_tensor", arg).get("name")),
                                  v.get("buffer_name")))
    return ExportGraphSignature(inputs, outputs)


def read_torch_archive(f):
    """The ExportedProgram a torch ``.pt2`` archive holds (see the module docstring)."""
    from core.export.exported_program import ExportedProgram

    with zipfile.ZipFile(f) as z:
        root = _root(z.namelist())
        program = json.loads(z.read(root + "models/model.json"))
        state, constants = {}, {}
        for folder, into in (("weights", state), ("constants", constants)):
            name = f"{root}data/{folder}/model_{folder}_config.json"
            config = json.loads(z.read(name))["config"] if name in z.namelist() else {}
            for fqn, entry in config.items():
                into[fqn] = _tensor(z, root, folder, entry)
    graph_json = program["graph_module"]["graph"]
    reader = _Reader(graph_json)
    for a in graph_json["inputs"]:
        name = a["as_tensor"]["name"]
        node = reader.graph.placeholder(name)
        node.meta["val"] = _meta_value(graph_json["tensor_values"][name])
        reader.values[name] = node
    for entry in graph_json["nodes"]:
        reader.node(entry)
    outs = tuple(reader.arg(o) for o in graph_json["outputs"])
    reader.graph.output(outs)
    signature = _signature(program["graph_module"]["signature"])
    for spec in signature.input_specs:  # non-persistent buffers travel as constants
        if spec.kind is InputKind.BUFFER and spec.target not in state and spec.target in constants:
            state.setdefault(spec.target, constants[spec.target]) if spec.persistent else None
    ranges = {Symbol(k): ValueRanges(v["min_val"], int_oo if v["max_val"] is None else v["max_val"])
              for k, v in program.get("range_constraints", {}).items()}
    call_graph = program["graph_module"].get("module_call_graph") or [{}]
    spec_text = (call_graph[0].get("signature") or {}).get("out_spec")
    out_spec = tree_structure(_sample(json.loads(spec_text)[1])) if spec_text else None
    return ExportedProgram(core.nn.Module(), reader.graph, signature, state, ranges, constants, None, out_spec)
