"""``torch._logging``: ``set_logs``, which tutorials call to see what ``torch.compile`` does
(``set_logs(graph_breaks=True)``, ``set_logs(recompiles=True)``, ``set_logs(dynamo=logging.DEBUG)``).

core has no dynamo or inductor to log from (``core.compile`` captures and replays ops), so a call only checks its
arguments as PyTorch's does: a keyword PyTorch lacks is Python's TypeError, an artifact (``graph_breaks``...) takes a
bool, a log (``dynamo``...) a level from ``logging``, and a name in ``modules`` must be one of those or a module."""

from __future__ import annotations

import importlib.util
import logging

__all__ = ["set_logs"]

# PyTorch's registered log aliases (each stands for a group of torch's loggers) and artifacts (named switches).
_LOGS = frozenset({
    "aot", "async_compile", "autograd", "c10d", "cache", "ddp", "distributed", "dtensor", "dynamic", "dynamo",
    "export", "fake_tensor", "fsdp", "inductor", "native_dsl", "onnx", "pp", "torch"})
_ARTIFACTS = frozenset({
    "annotation", "aot_graphs", "aot_graphs_effects", "aot_joint_graph", "auto_chunker", "autotuning",
    "benchmarking", "bytecode", "caching", "compiled_autograd", "compiled_autograd_verbose", "compute_dependencies",
    "cudagraph_static_inputs", "cudagraphs", "custom_format_test_artifact", "ddp_graphs", "fusion", "graph",
    "graph_breaks", "graph_code", "graph_code_verbose", "graph_region_expansion", "graph_sizes", "guards",
    "hierarchical_compile", "incremental", "inductor_metrics", "ir_post_fusion", "ir_pre_fusion", "kernel_code",
    "loop_ordering", "loop_tiling", "node_runtime_estimation", "not_implemented", "onnx_diagnostics", "output_code",
    "overlap", "overlap_scheduling", "perf_hints", "post_grad_graphs", "pre_grad_graphs", "recompiles",
    "recompiles_verbose", "schedule", "side_effects", "sym_node", "trace_bytecode", "trace_call",
    "trace_shape_events", "trace_source", "verbose_guards"})


# Module names passed in ``modules``: PyTorch registers each (with its submodules) as a log on first use, so a
# later call checks its level as a log's.
_registered_modules: set[str] = set()


def _is_registered(name: str) -> bool:
    parts = name.split(".")
    return name in _registered_modules or (
        any(".".join(parts[:i]) in _registered_modules for i in range(1, len(parts))) and _is_module(name))


def _is_module(name: str) -> bool:
    """Whether ``name`` names a module; ``torch.x`` is looked for as ``core.x`` too (where core has it)."""
    candidates = [name]
    if name == "torch" or name.startswith("torch."):
        candidates.insert(0, "core" + name[len("torch"):])
    for candidate in candidates:
        try:
            if importlib.util.find_spec(candidate) is not None:
                return True
        except (ImportError, ValueError):  # a parent package that does not exist
            continue
    return False


def _check(alias: str, value) -> None:
    """Check one setting as PyTorch's ``set_logs`` does (None leaves a log or artifact as it is)."""
    if value is None:
        return
    if alias in _ARTIFACTS:
        if not isinstance(value, bool):
            raise ValueError(f"Expected bool to enable artifact {alias}, received {value}")
    elif alias in _LOGS or _is_registered(alias):
        if value not in logging._levelToName:
            raise ValueError(f"Unrecognized log level for log {alias}: {value}, valid level values "
                             f"are: {','.join(str(level) for level in logging._levelToName)}")
    elif _is_module(alias):
        _registered_modules.add(alias)
        logging._checkLevel(value)  # "Unknown level: 'x'", as logging's setLevel says in PyTorch's call
    else:
        raise ValueError(f"Unrecognized log or artifact name passed to set_logs: {alias}")


def set_logs(*, all: int | None = None, dynamo: int | None = None, aot: int | None = None,
             autograd: int | None = None, dynamic: int | None = None, inductor: int | None = None,
             distributed: int | None = None, c10d: int | None = None, ddp: int | None = None,
             fsdp: int | None = None, dtensor: int | None = None, onnx: int | None = None, bytecode: bool = False,
             aot_graphs: bool = False, aot_joint_graph: bool = False, ddp_graphs: bool = False, graph: bool = False,
             graph_code: bool = False, graph_code_verbose: bool = False, graph_breaks: bool = False,
             side_effects: bool = False, graph_sizes: bool = False, guards: bool = False, recompiles: bool = False,
             recompiles_verbose: bool = False, trace_source: bool = False, trace_call: bool = False,
             trace_bytecode: bool = False, output_code: bool = False, kernel_code: bool = False,
             schedule: bool = False, perf_hints: bool = False, pre_grad_graphs: bool = False,
             post_grad_graphs: bool = False, ir_pre_fusion: bool = False, ir_post_fusion: bool = False,
             onnx_diagnostics: bool = False, fusion: bool = False, overlap: bool = False, export: int | None = None,
             modules: dict[str, int | bool] | None = None, cudagraphs: bool = False, sym_node: bool = False,
             compiled_autograd: bool = False, compiled_autograd_verbose: bool = False,
             cudagraph_static_inputs: bool = False, benchmarking: bool = False, autotuning: bool = False,
             incremental: bool = False, graph_region_expansion: bool = False, inductor_metrics: bool = False,
             hierarchical_compile: bool = False, compute_dependencies: bool = False, caching: bool = False) -> None:
    """Set the log level of PyTorch's compiler components and turn its log artifacts on, as ``torch._logging``'s.

    Levels (``dynamo=logging.DEBUG``) must be ``logging``'s, artifacts (``graph_breaks=True``) bools, and each
    name in ``modules`` a log, an artifact or a module. core logs nothing from these components, so a valid call
    changes nothing."""
    settings = dict(locals())
    settings["torch"] = settings.pop("all")
    extra = settings.pop("modules") or {}
    for alias, value in [*settings.items(), *extra.items()]:
        _check(alias, value)
