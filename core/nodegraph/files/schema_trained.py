"""The graph file's ``trained`` section, checked field by field: each node's saved parameter values and, under
``SESSION_KEY``, where training stood (step count, generator, optimizer and schedule state, running statistics,
the plotted runs, the watch list's points).

As for the document (``files.schema``), each check raises ``LoadError`` with the field path and the reason and
returns normalised plain data: stored tensors as arrays, series as float64. (Split from ``files.schema``, whose
``check_document`` calls ``check_trained``.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.nodegraph.files.schema_fields import (
    MAX_ID,
    MAX_SETTING_LIST,
    SESSION_KEY,
    _fail,
    _int,
    _list,
    _obj,
    _required,
    _str,
    _two,
    decode_tensor,
    what,
)
from core.nodegraph.model import spec as _spec

__all__ = ["check_session_state", "check_trained"]


def _trained_array(v: object, path: str) -> np.ndarray:
    """One saved parameter: a list of numbers (any nesting, rectangular) or a stored tensor, as a float array."""
    if isinstance(v, dict):
        arr = decode_tensor(v, path).array
    elif isinstance(v, (list, int, float)) and not isinstance(v, bool):
        try:
            arr = np.asarray(v, dtype=np.float64)
        except (TypeError, ValueError):
            _fail(path, "must be a rectangular list of numbers")
    else:
        _fail(path, f"must be a list of numbers or a stored tensor, got {what(v)}")
    if arr.dtype.kind != "f" or arr.size > _spec.MAX_NUMEL:
        _fail(path, f"must hold at most {_spec.MAX_NUMEL} floating-point numbers")
    return arr


def check_trained(raw: object, ids: set[str]) -> dict[str, dict[str, Any]]:
    """The ``trained`` section: ``{node id: {parameter name: values}}``, the parameter values a session had when
    the file was saved (a node the file lacks is refused, as a dangling edge is)."""
    out: dict[str, dict[str, Any]] = {}
    for nid, params in _obj(raw, "trained").items():
        if nid == SESSION_KEY and nid not in ids:
            out[nid] = check_session_state(params, f"trained.{SESSION_KEY}", ids)
            continue
        if nid not in ids:
            _fail(f"trained.{nid[:60]}", "no node has this id")
        out[nid] = {_str(name, f"trained.{nid}", max_len=200): _trained_array(v, f"trained.{nid}.{name}")
                    for name, v in _obj(params, f"trained.{nid}").items()}
    return out


def _stored(v: object, path: str) -> np.ndarray:
    """A stored tensor (``{"npy_base64"}`` or a sidecar reference) as its array, dtype and all."""
    return decode_tensor(_obj(v, path), path).array


def _setting(v: object, path: str) -> Any:
    """An optimizer's or schedule's setting: a number, boolean, text, null or a list of them."""
    if isinstance(v, list):
        if len(v) > MAX_SETTING_LIST:
            _fail(path, f"longer than {MAX_SETTING_LIST} items")
        if any(isinstance(x, (list, dict)) for x in v):
            _fail(path, "must be a flat list")
        return [_setting(x, f"{path}[{i}]") for i, x in enumerate(v)]
    if v is None or isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, str):
        return _str(v, path, max_len=200)
    _fail(path, f"must be a number, boolean, text, null or a list of them, got {what(v)}")


def _check_optimizer_state(raw: object, path: str) -> dict[str, Any]:
    """An optimizer's ``state_dict()`` with its parameters named (``"node.name"``) instead of numbered."""
    obj = _obj(raw, path)
    groups = []
    for i, g in enumerate(_list(_required(obj, "param_groups", f"{path}."), f"{path}.param_groups")):
        gpath = f"{path}.param_groups[{i}]"
        g = _obj(g, gpath)
        groups.append({k: [_str(n, f"{gpath}.params", max_len=MAX_ID * 2) for n in _list(v, f"{gpath}.params")]
                       if k == "params" else _setting(v, f"{gpath}.{k}") for k, v in g.items()})
    state: dict[str, dict[str, Any]] = {}
    for name, entries in _obj(obj.get("state", {}), f"{path}.state").items():
        epath = f"{path}.state.{name[:60]}"
        state[name] = {k: _stored(v, f"{epath}.{k}") if isinstance(v, dict) else _setting(v, f"{epath}.{k}")
                       for k, v in _obj(entries, epath).items()}
    out = {"type": _str(_required(obj, "type", f"{path}."), f"{path}.type", max_len=100), "param_groups": groups,
           "state": state}
    if obj.get("schedule") is not None:
        out["schedule"] = {k: _setting(v, f"{path}.schedule.{k}")
                           for k, v in _obj(obj["schedule"], f"{path}.schedule").items()}
    return out


def check_session_state(raw: object, path: str, ids: set[str]) -> dict[str, Any]:
    """Where training stood when the file was saved (``core.nodegraph.run.training_state``): ``step`` (the step
    count), ``generator`` (the session generator's state), ``optimizer`` (``_check_optimizer_state``) and
    ``buffers`` (``{node id: {port: stored tensor}}``, running statistics a training step updated in place) and
    ``history`` (``{"runs": [_check_run...]}``, what the plots drew; files saved before it have none) and ``watch``
    (``{"node.port": _check_watched...}``, the Watch dock's recorded points)."""
    obj = _obj(raw, path)
    out: dict[str, Any] = {}
    if obj.get("step") is not None:
        out["step"] = _int(obj["step"], f"{path}.step")
    if obj.get("generator") is not None:
        out["generator"] = _stored(obj["generator"], f"{path}.generator")
        if out["generator"].dtype != np.uint8 or out["generator"].ndim != 1:
            _fail(f"{path}.generator", "must be a 1-d uint8 tensor")
    if obj.get("optimizer") is not None:
        out["optimizer"] = _check_optimizer_state(obj["optimizer"], f"{path}.optimizer")
    if obj.get("buffers") is not None:
        buffers: dict[str, dict[str, np.ndarray]] = {}
        for nid, ports in _obj(obj["buffers"], f"{path}.buffers").items():
            if nid not in ids:
                _fail(f"{path}.buffers.{nid[:60]}", "no node has this id")
            buffers[nid] = {_str(port, f"{path}.buffers.{nid}", max_len=200): _stored(v, f"{path}.buffers.{nid}.{port}")
                            for port, v in _obj(ports, f"{path}.buffers.{nid}").items()}
        out["buffers"] = buffers
    if obj.get("watch") is not None:
        out["watch"] = {_str(key, f"{path}.watch", max_len=400): _check_watched(v, f"{path}.watch.{key[:60]}")
                        for key, v in _obj(obj["watch"], f"{path}.watch").items()}
    if obj.get("history") is not None:
        out["history"] = {"runs": [_check_run(run, f"{path}.history.runs[{i}]") for i, run in
                                   enumerate(_list(_obj(obj["history"], f"{path}.history").get("runs", []),
                                                   f"{path}.history.runs"))]}
    return out


def _check_watched(raw: object, path: str) -> dict[str, Any]:
    """A watched port's recorded points (``core.nodegraph.training.watch.WatchList.state``): ``points`` (n, 3) of
    step, value and gradient, the ``stride`` they are kept apart, the two ``kinds`` of number."""
    obj = _obj(raw, path)
    points = _stored(_required(obj, "points", f"{path}."), f"{path}.points")
    if points.ndim != 2 or points.shape[1] != 3 or points.dtype.kind not in "iuf":
        _fail(f"{path}.points", "must be an (n, 3) tensor of numbers")
    kinds = _two(obj.get("kinds", ["", ""]), f"{path}.kinds", "value kind, gradient kind")
    return {"points": points.astype(np.float64), "stride": _int(obj.get("stride", 1), f"{path}.stride", lo=1),
            "kinds": [_str(k, f"{path}.kinds", max_len=20) for k in kinds]}


def _series(v: object, path: str, n: int | None = None) -> np.ndarray:
    """A stored 1-d series of numbers (``n`` of them where given), as float64."""
    arr = _stored(v, path)
    if arr.ndim != 1 or arr.dtype.kind not in "iuf" or (n is not None and len(arr) != n):
        _fail(path, "must be a 1-d tensor of numbers" + (f", {n} long" if n is not None else ""))
    return arr.astype(np.float64)


def _check_run(raw: object, path: str) -> dict[str, Any]:
    """One plotted training run (``core.nodegraph.training.runs.Run.state``): its step axis, series as long as it,
    the sparse validation series as (rows, values), markers ``[step, text]`` and optimizers ``[rows, settings]``."""
    obj = _obj(raw, path)
    steps = _series(_required(obj, "steps", f"{path}."), f"{path}.steps")
    n = len(steps)
    series = {_str(name, f"{path}.series", max_len=200): _series(v, f"{path}.series.{name[:60]}", n)
              for name, v in _obj(obj.get("series", {}), f"{path}.series").items()}
    val: dict[str, list[np.ndarray]] = {}
    for name, pair in _obj(obj.get("val", {}), f"{path}.val").items():
        vpath = f"{path}.val.{name[:60]}"
        items = _two(pair, vpath, "rows, values")
        rows = _series(items[0], f"{vpath}[0]")
        if len(rows) and (rows.min() < 0 or rows.max() >= n or np.any(rows != np.round(rows))):
            _fail(f"{vpath}[0]", f"rows must be whole numbers below {n}")
        val[_str(name, f"{path}.val", max_len=200)] = [rows, _series(items[1], f"{vpath}[1]", len(rows))]
    markers = []
    for i, m in enumerate(_list(obj.get("markers", []), f"{path}.markers")):
        mpath = f"{path}.markers[{i}]"
        m = _two(m, mpath, "step, text")
        markers.append([_int(m[0], f"{mpath}[0]"), _str(m[1], f"{mpath}[1]", max_len=1000)])
    optimizers = []
    for i, o in enumerate(_list(obj.get("optimizers", []), f"{path}.optimizers")):
        opath = f"{path}.optimizers[{i}]"
        o = _two(o, opath, "rows, settings")
        settings = _obj(o[1], f"{opath}[1]")
        kept: dict[str, Any] = {}
        if settings.get("optimizer") is not None:
            kept["optimizer"] = _str(settings["optimizer"], f"{opath}[1].optimizer", max_len=100)
        if settings.get("optimizer_params") is not None:
            kept["optimizer_params"] = {k: _setting(v, f"{opath}[1].optimizer_params.{k[:60]}")
                                        for k, v in _obj(settings["optimizer_params"],
                                                         f"{opath}[1].optimizer_params").items()}
        optimizers.append([_int(o[0], f"{opath}[0]", hi=n + 1), kept])
    return {"number": _int(_required(obj, "number", f"{path}."), f"{path}.number", lo=1), "steps": steps,
            "series": series, "val": val, "markers": markers, "optimizers": optimizers}
