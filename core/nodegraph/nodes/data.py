"""``data.dataset``: a generated dataset from ``core.datasets`` that yields one batch per step.

The dataset is built once per parameter set and kept in ``ctx.state``. The batch for step ``s`` is fixed
by (``seed``, ``s``): each epoch is a permutation drawn from a generator seeded with ``seed + epoch`` (or the
plain order when ``shuffle`` is off), and step ``s`` takes the ``s % batches_per_epoch``-th slice of it. So
re-evaluating a step (e.g. to read probes after backward) gives the same batch, and a session that restarts
at step 0 replays the same data. ``batch_size`` 0 gives the whole dataset every step.
"""

from __future__ import annotations

import core
from core import datasets
from core.nodegraph.spec import NodeSpec, Param, Port, register


def _dataset(ctx, p):
    key = (p["generator"], p["n_samples"], p["noise"], p["seed"])
    if ctx.state.get("key") != key:
        ctx.state["dataset"] = datasets.GENERATORS[p["generator"]](n_samples=p["n_samples"], noise=p["noise"],
                                                                   seed=p["seed"])
        ctx.state["key"] = key
    return ctx.state["dataset"]


def batch_rows(n: int, batch_size: int, step: int, seed: int, shuffle: bool):
    """The row indices (a core int64 tensor) of the batch for ``step``."""
    if batch_size == 0 or batch_size >= n:
        batch_size = n
    per_epoch = -(-n // batch_size)
    epoch, b = divmod(step, per_epoch)
    order = core.randperm(n, generator=core.Generator().manual_seed(seed + epoch)) if shuffle else core.arange(n)
    return order[b * batch_size:(b + 1) * batch_size]


def _rows(ctx, n: int, batch_size: int, step: int, seed: int, shuffle: bool):
    """``batch_rows`` as a slice or a NumPy index array, the epoch's permutation kept in ``ctx.state``."""
    if batch_size == 0 or batch_size >= n:
        batch_size = n
    epoch, b = divmod(step, -(-n // batch_size))
    if not shuffle:
        return slice(b * batch_size, (b + 1) * batch_size)
    key = (n, seed + epoch)
    perm = ctx.state.get("perm")
    if perm is None or perm[0] != key:
        perm = ctx.state["perm"] = (key, batch_rows(n, n, epoch, seed, True)._data)
    return perm[1][b * batch_size:(b + 1) * batch_size]


def _evaluate(ctx, inputs, p):
    """The batch of ``batch_rows``, indexed on the NumPy arrays: a copy, as ``ds.X[rows]`` gives (without a
    core indexing op per port on every training step)."""
    ds = _dataset(ctx, p)
    rows = _rows(ctx, len(ds), p["batch_size"], ctx.step, p["seed"], p["shuffle"])
    X, Y = ds.X._data, ds.y._data  # noqa: N806 - the dataset's names
    if type(rows) is slice:
        x, y = core.Tensor._wrap(X[rows].copy()), core.Tensor._wrap(Y[rows].copy())
    else:
        x, y = core.Tensor._wrap(X[rows]), core.Tensor._wrap(Y[rows])
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


def _code(cg):
    """Export: core rebuilds the dataset and its batches; torch (no core.datasets) gets the recorded batches."""
    if cg.api != "core":
        return {"x": cg.recorded("x"), "y": cg.recorded("y")}
    p = cg.params
    ds = cg.setup_var("ds", f"torch.datasets.GENERATORS[{p['generator']!r}](n_samples={p['n_samples']!r}, "
                            f"noise={p['noise']!r}, seed={p['seed']!r})")
    cg.helper(BATCH_ROWS_CODE)
    rows, var = f"batch_rows(len({ds}), {p['batch_size']!r}, step, {p['seed']!r}, {p['shuffle']!r})", f"rows_{ds}"
    return {"x": f"{ds}.X[({var} := {rows})].to(DEVICE)", "y": f"{ds}.y[{var}].to(DEVICE)"}


register(NodeSpec(
    "data.dataset", "data", "Dataset", "a generated dataset, one batch of (x, y) per step", _evaluate,
    outputs=(Port("x"), Port("y")),
    params=(Param("generator", "choice", "moons", choices=tuple(datasets.GENERATORS)),
            Param("n_samples", "int", 200, 1, 100_000), Param("noise", "float", 0.1, 0.0, 10.0),
            Param("seed", "int", 0, 0, 2 ** 31 - 1), Param("batch_size", "int", 32, 0, 100_000,
                                                           doc="rows per step; 0: all"),
            Param("shuffle", "bool", True, doc="a new order every epoch")), code=_code))
