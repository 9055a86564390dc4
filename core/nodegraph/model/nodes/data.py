"""``data.dataset``: a generated dataset from ``core.datasets`` that yields one batch per step.

The dataset is built once per parameter set and kept in ``ctx.state``. The batch for step ``s`` is fixed
by (``seed``, ``s``): each epoch is a permutation drawn from a generator seeded with ``seed + epoch`` (or the
plain order when ``shuffle`` is off), and step ``s`` takes the ``s % batches_per_epoch``-th slice of it. So
re-evaluating a step (e.g. to read probes after backward) gives the same batch, and a session that restarts
at step 0 replays the same data. ``batch_size`` 0 gives the whole dataset every step.

``val_fraction`` > 0 holds rows out for validation: ``GeneratedDataset.split(val_fraction, seed)`` picks them
(the same rows for the same seed), training batches are drawn from the other rows only (``batch_size`` 0:
all of them), and an evaluation with ``ctx.split == "val"`` (``core.nodegraph.training.holdout``) yields the whole
validation part instead of a batch. Without a split that evaluation yields the whole dataset.
"""

from __future__ import annotations

from typing import Any

import core
from core import datasets
from core.autograd.graph import array_of, from_array
from core.nodegraph.model.spec import (
    CodeGen,
    EvalContext,
    NamedValues,
    NodeSpec,
    Param,
    Port,
    register,
    register_node_migration,
)

Array = Any  # a NumPy or CuPy array
Parts = tuple[core.Tensor, core.Tensor, "core.Tensor | None", "core.Tensor | None"]  # (X, y, val X, val y)


def _dataset(ctx: EvalContext, p: NamedValues) -> datasets.GeneratedDataset:
    key = (p["generator"], p["n_samples"], p["noise"], p["seed"])
    if ctx.state.get("key") != key:
        ctx.state["dataset"] = datasets.GENERATORS[p["generator"]](n_samples=p["n_samples"], noise=p["noise"],
                                                                   seed=p["seed"])
        ctx.state["key"] = key
    return ctx.state["dataset"]


def _parts(ctx: EvalContext, p: NamedValues) -> Parts:
    """``(train X, train y, val X, val y)`` of the dataset (the val part None without a split), kept in ctx.state."""
    ds = _dataset(ctx, p)
    key = (ctx.state["key"], p["val_fraction"])
    if ctx.state.get("parts_key") != key:
        ctx.state["parts"], ctx.state["parts_key"] = split_parts(ds, p["val_fraction"], p["seed"]), key
    return ctx.state["parts"]


def split_parts(ds: datasets.GeneratedDataset, val_fraction: float, seed: int) -> Parts:
    """The training and validation rows of ``ds`` as ``(X, y, val X, val y)``; no split: ``(X, y, None, None)``."""
    if val_fraction <= 0:
        return ds.X, ds.y, None, None
    train, val = ds.split(val_fraction, seed)
    if not len(train):
        raise ValueError(f"parameter 'val_fraction' {val_fraction} leaves no training rows of {len(ds)}")
    rows, held = core.tensor(train.indices), core.tensor(val.indices)
    return ds.X[rows], ds.y[rows], ds.X[held], ds.y[held]


def batch_rows(n: int, batch_size: int, step: int, seed: int, shuffle: bool) -> core.Tensor:
    """The row indices (a core int64 tensor) of the batch for ``step``."""
    if batch_size == 0 or batch_size >= n:
        batch_size = n
    per_epoch = -(-n // batch_size)
    epoch, b = divmod(step, per_epoch)
    order = core.randperm(n, generator=core.Generator().manual_seed(seed + epoch)) if shuffle else core.arange(n)
    return order[b * batch_size:(b + 1) * batch_size]


def _rows(ctx: EvalContext, n: int, batch_size: int, step: int, seed: int, shuffle: bool) -> slice | Array:
    """``batch_rows`` as a slice or a NumPy index array, the epoch's permutation kept in ``ctx.state``."""
    if batch_size == 0 or batch_size >= n:
        batch_size = n
    epoch, b = divmod(step, -(-n // batch_size))
    if not shuffle:
        return slice(b * batch_size, (b + 1) * batch_size)
    key = (n, seed + epoch)
    perm = ctx.state.get("perm")
    if perm is None or perm[0] != key:
        perm = ctx.state["perm"] = (key, array_of(batch_rows(n, n, epoch, seed, True)))
    return perm[1][b * batch_size:(b + 1) * batch_size]


def _evaluate(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> dict[str, core.Tensor]:
    """The batch of ``batch_rows`` (or the whole validation part when ``ctx.split == "val"``), indexed on the
    NumPy arrays: a copy, as ``X[rows]`` gives (without a core indexing op per port on every training step)."""
    X, Y, val_x, val_y = _parts(ctx, p)  # the dataset's names
    if ctx.split == "val":
        x, y = (X, Y) if val_x is None or val_y is None else (val_x, val_y)  # (both None or neither)
    else:
        rows = _rows(ctx, len(X), p["batch_size"], ctx.step, p["seed"], p["shuffle"])
        xa, ya = array_of(X), array_of(Y)
        if type(rows) is slice:
            x, y = from_array(xa[rows].copy()), from_array(ya[rows].copy())
        else:
            x, y = from_array(xa[rows]), from_array(ya[rows])
    if ctx.device != "cpu":  # the generated data lives on the CPU
        x, y = x.to(ctx.device), y.to(ctx.device)
    return {"x": x, "y": y}


BATCH_ROWS_CODE = """
def batch_rows(n, batch_size, step, seed, shuffle):
    if batch_size == 0 or batch_size >= n:
        batch_size = n
    per_epoch = -(-n // batch_size)
    epoch, b = divmod(step, per_epoch)
    order = torch.randperm(n, generator=torch.Generator().manual_seed(seed + epoch)) if shuffle else torch.arange(n)
    return order[b * batch_size:(b + 1) * batch_size]
"""


SPLIT_CODE = """
SPLIT = 'train'  # 'val' while the script measures the validation rows


def split_parts(ds, val_fraction, seed):
    train, val = ds.split(val_fraction, seed)
    rows, held = torch.tensor(train.indices), torch.tensor(val.indices)
    return ds.X[rows], ds.y[rows], ds.X[held], ds.y[held]
"""


def _code(cg: CodeGen) -> dict[str, str]:
    """Export: core rebuilds the dataset and its batches; torch (no core.datasets) gets the recorded batches."""
    if cg.api != "core":
        return {"x": cg.recorded("x"), "y": cg.recorded("y")}
    p = cg.params
    ds = cg.setup_var("ds", f"torch.datasets.GENERATORS[{p['generator']!r}](n_samples={p['n_samples']!r}, "
                            f"noise={p['noise']!r}, seed={p['seed']!r})")
    cg.helper(BATCH_ROWS_CODE)
    if p["val_fraction"] <= 0:
        rows = f"batch_rows(len({ds}), {p['batch_size']!r}, step, {p['seed']!r}, {p['shuffle']!r})"
        return {"x": f"{ds}.X[(rows_{ds} := {rows})].to(DEVICE)", "y": f"{ds}.y[rows_{ds}].to(DEVICE)"}
    # the session's held-out rows: training batches come from the rest, SPLIT 'val' (validation) gives them all
    cg.helper(SPLIT_CODE)
    cg.setup(f"{ds}_X, {ds}_y, {ds}_val_X, {ds}_val_y = split_parts({ds}, {p['val_fraction']!r}, {p['seed']!r})")
    rows = f"batch_rows(len({ds}_X), {p['batch_size']!r}, step, {p['seed']!r}, {p['shuffle']!r})"
    return {"x": f"({ds}_X[(rows_{ds} := {rows})] if SPLIT == 'train' else {ds}_val_X).to(DEVICE)",
            "y": f"({ds}_y[rows_{ds}] if SPLIT == 'train' else {ds}_val_y).to(DEVICE)"}


register(NodeSpec(
    "data.dataset", "data", "Dataset", "a generated dataset, one batch of (x, y) per step", _evaluate,
    outputs=(Port("x"), Port("y")),
    params=(Param("generator", "choice", "moons", choices=tuple(datasets.GENERATORS)),
            Param("n_samples", "int", 200, 1, 100_000), Param("noise", "float", 0.1, 0.0, 10.0),
            Param("seed", "int", 0, 0, 2 ** 31 - 1),
            Param("batch_size", "int", 32, 0, 100_000, doc="rows per step; 0: all", value_notes=((0, "whole set"),)),
            Param("shuffle", "bool", True, doc="a new order every epoch"),
            Param("val_fraction", "float", 0.0, 0.0, 0.9, doc="rows held out for validation (0: no split)")),
    code=_code, version=2))


def _v1_to_v2(node: dict[str, Any]) -> dict[str, Any]:
    """Version 2 added ``val_fraction``: files of version 1 have no split."""
    if isinstance(node.get("params"), dict):
        node["params"] = {**node["params"], "val_fraction": node["params"].get("val_fraction", 0.0)}
    return node


register_node_migration("data.dataset", 1, _v1_to_v2)
