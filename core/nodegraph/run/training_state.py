"""Where training stood, between a session and its file, so a reopened session's next step is the step the unsaved
one would have made.

Beside the trained parameter values (``core.nodegraph.run.trained``) a file's ``trained`` section keeps, under
``"@session"`` (``core.nodegraph.files.schema.SESSION_KEY``): ``step``, the step count (a dataset node picks its
batch and row order from it), ``generator``, the session generator's state (dropout, random sources),
``optimizer``, the optimizer's ``state_dict()`` (Adam's moments and step counts, SGD's momentum buffers, the
param groups' settings) with each parameter named by its ``"node.name"`` key rather than its position, and its
schedule's ``state_dict()``, and ``buffers``, the running statistics a batch norm updates in place during
training (``{node id: {port: array}}``), and ``history``, the runs the plots drew (``RunHistory.state``: the loss
and the other series per step, as the session's training steps reported them), which ``saved_history`` reads
back from an opened document before any session runs it. Arrays keep their dtype and bits. Everything goes
through ``core``'s public API (``Optimizer.state_dict``/``load_state_dict``, ``LRScheduler`` likewise,
``Generator.get_state``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import core
from core.nodegraph.files.schema import SESSION_KEY
from core.nodegraph.model.document import Graph

__all__ = ["optimizer_state", "load_optimizer_state", "running_stat_sources", "array_of", "tensor_like",
           "saved_history"]

_RUNNING_PORTS = ("running_mean", "running_var")
_BATCH_NORM_OPS = ("F.batch_norm", "torch.batch_norm", "torch.nn.functional.batch_norm")


def saved_history(graph: Graph) -> dict[str, Any] | None:
    """The plotted runs ``graph``'s file saved with its training (``RunHistory.restore`` takes them), None when
    it saved none (a file from before they were kept, or one never trained)."""
    return (graph.trained_values.get(SESSION_KEY) or {}).get("history")


def array_of(t: core.Tensor) -> np.ndarray:
    """A tensor's values as a NumPy copy on the CPU, dtype kept."""
    return t.detach().cpu().numpy().copy()


def tensor_like(arr: np.ndarray, like: core.Tensor | None = None) -> core.Tensor:
    """``arr`` as a tensor (its dtype kept) on ``like``'s device."""
    t = core.as_tensor(np.array(arr, copy=True))
    return t if like is None else t.to(like.device)


def _plain(value: Any) -> Any:
    """A state or setting value as file data: a tensor as an array, a tuple as a list."""
    if isinstance(value, core.Tensor):
        return array_of(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _is_setting(value: Any) -> bool:
    """What a file's settings hold: a number, boolean, text, null or a flat list of them."""
    if isinstance(value, (list, tuple)):
        return all(v is None or isinstance(v, (bool, int, float, str)) for v in value)
    return value is None or isinstance(value, (bool, int, float, str))


def _like(fresh: Any, saved: Any) -> Any:
    """``saved`` in the shape of the fresh setting it replaces (a file's list back to the tuple ``betas`` is)."""
    return tuple(saved) if isinstance(fresh, tuple) and isinstance(saved, list) else saved


def optimizer_state(opt: core.optim.Optimizer, scheduler: Any, names: list[str]) -> dict[str, Any]:
    """``opt.state_dict()`` (and ``scheduler``'s) as file data; ``names`` are its parameters' keys, in the order
    it was built with."""
    sd = opt.state_dict()
    state = {names[i]: {k: _plain(v) for k, v in entries.items()} for i, entries in sd["state"].items()
             if i < len(names)}
    groups = [{**{k: _plain(v) for k, v in g.items() if k != "params" and _is_setting(v)},
               "params": [names[i] for i in g["params"] if i < len(names)]} for g in sd["param_groups"]]
    out: dict[str, Any] = {"type": type(opt).__name__, "param_groups": groups, "state": state}
    if scheduler is not None:
        out["schedule"] = {k: _plain(v) for k, v in scheduler.state_dict().items() if _is_setting(v)}
    return out


def load_optimizer_state(opt: core.optim.Optimizer, scheduler: Any, names: list[str], saved: dict[str, Any]) -> bool:
    """Put a file's ``optimizer_state`` into a fresh ``opt`` built over parameters ``names`` (in order): the state
    of each parameter that still has its key and shape, the groups' settings when the groups are the same, the
    schedule's. Nothing when the file names another optimizer type. True when it was put back."""
    if saved.get("type") != type(opt).__name__:
        return False
    sd = opt.state_dict()
    params = [p for g in opt.param_groups for p in g["params"]]
    index = {n: i for i, n in enumerate(names)}
    state: dict[int, dict[str, Any]] = {}
    for name, entries in saved.get("state", {}).items():
        i = index.get(name)
        if i is None or i >= len(params):
            continue
        p = params[i]
        values = {k: tensor_like(v, p) if isinstance(v, np.ndarray) else v for k, v in entries.items()}
        if all(not isinstance(v, core.Tensor) or v.ndim == 0 or tuple(v.shape) == tuple(p.shape)
               for v in values.values()):
            state[i] = values
    groups = saved.get("param_groups", [])
    if len(groups) == len(sd["param_groups"]) and all(
            [index.get(n) for n in sg.get("params", [])] == g["params"] for g, sg in zip(sd["param_groups"], groups)):
        for g, sg in zip(sd["param_groups"], groups):
            g.update({k: _like(g[k], v) for k, v in sg.items() if k != "params" and k in g})
    sd["state"] = state
    opt.load_state_dict(sd)
    schedule = saved.get("schedule")
    if scheduler is not None and schedule:
        fresh = scheduler.state_dict()
        fresh.update({k: _like(fresh[k], v) for k, v in schedule.items() if k in fresh and _is_setting(fresh[k])})
        scheduler.load_state_dict(fresh)
    return True


def running_stat_sources(graph: Graph) -> list[tuple[str, str]]:
    """The ``(node, port)`` outputs a batch norm uses as running statistics (a ``nn.batch_norm`` node's
    ``running_mean``/``running_var`` inputs, the second and third arguments of an imported ``F.batch_norm``):
    training updates them in place, as ``BatchNorm``'s buffers."""
    import json

    found: dict[tuple[str, str], None] = {}
    for node in graph.nodes.values():
        ports: list[str] = []
        if node.type == "nn.batch_norm":
            ports = list(_RUNNING_PORTS)
        elif node.type == "code.op" and node.params.get("op") in _BATCH_NORM_OPS:
            try:
                call = json.loads(node.params.get("args") or "{}")
            except ValueError:
                continue
            args, kwargs = call.get("args", []), call.get("kwargs", {})
            given = [args[i] if i < len(args) else kwargs.get(name) for i, name in ((1, "running_mean"),
                                                                                    (2, "running_var"))]
            ports = [f"in{a['$in']}" for a in given if isinstance(a, dict) and isinstance(a.get("$in"), int)]
        for port in ports:
            edge = graph.inputs_of(node.id).get(port)
            if edge is not None:
                found[(edge.src, edge.src_port)] = None
    return list(found)
