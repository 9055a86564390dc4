"""Budgets that keep one node from exhausting the machine's memory or freezing it for minutes.

Before a node's op runs, ``check(spec, inputs, params)`` estimates from its input shapes (and, for a source,
its ``shape`` parameter) what the op is about to make: the bytes of its result and the floating-point
operations it costs (a matmul ``2*m*n*k``, a factorisation or inverse about ``n**3``). Over a budget it raises
``BudgetError`` naming the op and the size, e.g. ``matmul would make a 7000x7000 float32 tensor (187 MiB); the
memory budget is ...``. ``evaluate_node`` (and each op of a formula) calls it, so shape inference, sessions
and training all refuse the node the same way, as an error on the node, before NumPy allocates anything.

Budgets: memory defaults to a quarter of the physical RAM, arithmetic to ``DEFAULT_FLOPS`` (a couple of
seconds of NumPy on a laptop core). The environment variables ``NODEGRAD_MEMORY_BUDGET`` (bytes, or with a
unit: ``512MiB``, ``2GB``) and ``NODEGRAD_FLOP_BUDGET`` (``1e11``) override the defaults, and
``set_memory_budget`` / ``set_flop_budget`` override both (``None``: back to the environment or default).

The memory budget bounds an evaluation too, not only its largest tensor: ``Held`` counts the bytes the graph's
nodes' outputs hold (an array's memory once, however many views of it they hold), ``check(..., held=...)``
refuses an op whose result would take that sum over the budget, and ``Held.add`` refuses a node whose outputs
did (an op without an estimate), so many medium tensors are refused as one huge one is.

Estimates cover the ops whose cost can explode from small inputs (expanded views are free to make but not
to compute on): products and factorisations, elementwise and broadcasting ops, copies, joins, sources and
same-size reductions. Other ops give no estimate and run unchecked.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import core
from core.autograd.graph import array_of

if TYPE_CHECKING:
    from core.nodegraph.model.spec import NodeSpec

__all__ = ["BudgetError", "Held", "bytes_held", "check", "estimate", "quick", "EDIT_BYTES", "EDIT_FLOPS",
           "memory_budget", "flop_budget", "set_memory_budget",
           "set_flop_budget", "DEFAULT_FLOPS", "MEMORY_FRACTION", "format_bytes"]

DEFAULT_FLOPS = 2e10
EDIT_BYTES, EDIT_FLOPS = 16 * 1024 ** 2, 1e8  # what a session re-runs at once after an edit (a few ms of NumPy)
MEMORY_FRACTION = 0.25
MEMORY_ENV, FLOP_ENV = "NODEGRAD_MEMORY_BUDGET", "NODEGRAD_FLOP_BUDGET"
Shape = tuple[int, ...]
Estimate = tuple[Shape, str, int, float]  # (shape, dtype name, bytes, flops) of what an op would make
ByName = Mapping[str, Any]  # a node's inputs or parameters by name
Rule = Callable[[str, ByName, ByName], "Estimate | None"]  # rule(type_id, inputs, params)


class _Settings(TypedDict):
    memory: int | None
    flops: float | None


_set: _Settings = {"memory": None, "flops": None}
_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1000 ** 2, "mb": 1000 ** 2, "mib": 1024 ** 2,
          "g": 1000 ** 3, "gb": 1000 ** 3, "gib": 1024 ** 3, "t": 1000 ** 4, "tb": 1000 ** 4, "tib": 1024 ** 4}


class BudgetError(RuntimeError):
    """An op refused before it ran because its result or its cost would exceed a budget; ``op`` is its title."""

    def __init__(self, message: str, op: str = "") -> None:
        super().__init__(message)
        self.op = op


# ----- settings -------------------------------------------------------------------------------------------
@functools.cache  # the RAM does not change while we run; check() asks for every node evaluated
def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows) or no such name
        return None


def _parse(name: str, text: str, units: bool) -> float:
    m = re.fullmatch(r"\s*([0-9.]+(?:e[+-]?[0-9]+)?)\s*([a-z]*)\s*", text.lower())
    if m is None or (m.group(2) and not units) or m.group(2) not in _UNITS:
        raise ValueError(f"{name}={text!r}: expected a number" + (" of bytes, e.g. 2GiB" if units else ", e.g. 1e11"))
    value = float(m.group(1)) * _UNITS[m.group(2)]
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name}={text!r}: must be a positive number")
    return value


def memory_budget() -> int:
    """The most bytes one op's result may take: the set value, else ``NODEGRAD_MEMORY_BUDGET``, else 25% of RAM."""
    if _set["memory"] is not None:
        return _set["memory"]
    env = os.environ.get(MEMORY_ENV)
    if env:
        return int(_parse(MEMORY_ENV, env, units=True))
    ram = _physical_memory()
    return int(ram * MEMORY_FRACTION) if ram else 4 * 1024 ** 3


def flop_budget() -> float:
    """The most floating-point operations one op may cost: the set value, else ``NODEGRAD_FLOP_BUDGET``, else
    ``DEFAULT_FLOPS``."""
    if _set["flops"] is not None:
        return _set["flops"]
    env = os.environ.get(FLOP_ENV)
    return _parse(FLOP_ENV, env, units=False) if env else DEFAULT_FLOPS


def set_memory_budget(nbytes: int | None) -> int | None:
    """Set the memory budget in bytes (``None``: the environment's or the default again); returns the old setting."""
    if nbytes is not None and (isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes <= 0):
        raise ValueError(f"the memory budget must be a positive number of bytes, got {nbytes!r}")
    old, _set["memory"] = _set["memory"], nbytes
    return old


def set_flop_budget(flops: float | None) -> float | None:
    """Set the arithmetic budget in FLOPs per op (``None``: the environment's or the default); returns the old one."""
    if flops is not None and (isinstance(flops, bool) or not isinstance(flops, (int, float))
                              or not math.isfinite(flops) or flops <= 0):
        raise ValueError(f"the FLOP budget must be a positive number, got {flops!r}")
    old, _set["flops"] = _set["flops"], None if flops is None else float(flops)
    return old


# ----- the check ------------------------------------------------------------------------------------------
def format_bytes(n: float) -> str:
    for unit, size in (("GiB", 1024 ** 3), ("MiB", 1024 ** 2), ("KiB", 1024)):
        if n >= size:
            value = n / size
            text = f"{value:.1f}".rstrip("0").rstrip(".") if value < 10 else f"{value:.0f}"
            return f"{text} {unit}"
    return f"{int(n)} bytes"


def _shape_text(shape: Sequence[int]) -> str:
    return "x".join(map(str, shape)) if shape else "0-d"


_TO_CHANGE = f"(set {MEMORY_ENV} or call core.nodegraph.set_memory_budget to change it)"


def check(spec: NodeSpec, inputs: ByName, params: ByName, held: int = 0) -> None:
    """Raise ``BudgetError`` when ``spec``'s op on ``inputs`` would make a result over the memory budget (with the
    ``held`` bytes the graph's other nodes hold: ``Held.total``) or cost more FLOPs than the arithmetic budget;
    ops without an estimate pass."""
    found = estimate(spec.type_id, inputs, params)
    if found is None:
        return
    shape, dtype, nbytes, flops = found
    limit = memory_budget()
    if nbytes > limit:
        raise BudgetError(f"{spec.title} would make a {_shape_text(shape)} {dtype} tensor ({format_bytes(nbytes)}); "
                          f"the memory budget is {format_bytes(limit)} {_TO_CHANGE}", spec.title)
    if held + nbytes > limit:
        raise BudgetError(f"{spec.title} would make a {_shape_text(shape)} {dtype} tensor ({format_bytes(nbytes)}) "
                          f"while the graph's nodes hold {format_bytes(held)}: {format_bytes(held + nbytes)} in all, "
                          f"over the memory budget of {format_bytes(limit)} {_TO_CHANGE}", spec.title)
    limit_f = flop_budget()
    if flops > limit_f:
        raise BudgetError(f"{spec.title} would take about {flops:.2g} floating-point operations (a "
                          f"{_shape_text(shape)} {dtype} result); the compute budget is {limit_f:.2g} per op, so "
                          f"it would freeze the app (set {FLOP_ENV} or call core.nodegraph.set_flop_budget to "
                          "change it)", spec.title)


class Held:
    """The bytes an evaluation's node outputs hold, node by node: each array's memory counted once however many
    views of it the outputs hold (a reshape or an in-place op's result adds nothing). ``drop`` before a node runs
    again (its old outputs go), ``add`` after."""

    __slots__ = ("total", "_nodes", "_roots")

    def __init__(self) -> None:
        self.total = 0
        self._nodes: dict[str, list[int]] = {}  # node -> the ids of the arrays its outputs hold
        self._roots: dict[int, list[int]] = {}  # array id -> [bytes, how many nodes' outputs hold it]

    def clear(self) -> None:
        self.total = 0
        self._nodes.clear()
        self._roots.clear()

    def drop(self, node_id: str) -> None:
        """Forget ``node_id``'s outputs."""
        for key in self._nodes.pop(node_id, ()):
            entry = self._roots[key]
            entry[1] -= 1
            if not entry[1]:
                self.total -= entry[0]
                del self._roots[key]

    def add(self, node_id: str, outputs: Mapping[str, Any]) -> None:
        """Count ``node_id``'s new ``outputs``; ``BudgetError`` (the node forgotten; the caller names it) when they
        take what the graph holds over the memory budget, e.g. an op without an estimate that made more than
        expected."""
        self.drop(node_id)
        keys = []
        added = 0
        for value in outputs.values():
            if not isinstance(value, core.Tensor):
                continue
            root = array_of(value)
            while isinstance(getattr(root, "base", None), type(root)):  # a view: the array that owns the memory
                root = root.base
            key = id(root)
            entry = self._roots.get(key)
            if entry is None:
                nbytes = _span(root)
                entry = self._roots[key] = [nbytes, 0]
                added += nbytes
            entry[1] += 1
            keys.append(key)
        self._nodes[node_id] = keys
        self.total += added
        limit = memory_budget()
        if added and self.total > limit:
            total = self.total
            self.drop(node_id)
            raise BudgetError(f"its result ({format_bytes(added)}) took what the graph's nodes hold to "
                              f"{format_bytes(total)}, over the memory budget of {format_bytes(limit)} {_TO_CHANGE}")


def bytes_held(value: Any) -> int:
    """The bytes a tensor's (or an array's) memory takes: all of the array that owns it (a view keeps its base
    alive), or what an expanded view's strides reach; 0 for anything else."""
    root = array_of(value) if isinstance(value, core.Tensor) else value
    if not hasattr(root, "strides"):
        return 0
    while isinstance(getattr(root, "base", None), type(root)):
        root = root.base
    return _span(root)


def _span(array: Any) -> int:
    """The bytes ``array`` holds: all of them when it owns its memory, else those its strides reach (an expanded
    view of one number reaches 4 bytes, however large its shape)."""
    nbytes = int(getattr(array, "nbytes", 0))
    flags = getattr(array, "flags", None)
    if not nbytes or flags is None or flags.owndata:
        return nbytes
    return min(nbytes, array.itemsize + sum((d - 1) * abs(s) for d, s in zip(array.shape, array.strides)))


def estimate(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    """``(shape, dtype name, bytes, flops)`` of what the op would make, or None when it has no estimate (or its
    inputs don't fit it: the op then raises its own error)."""
    rule = _rule(type_id)
    if rule is None:
        return None
    try:
        return rule(type_id, inputs, params)
    # inputs the op will refuse itself (OverflowError: an arange whose count is infinite, which escaped a training
    # step, whose lean route checks the budget before the node's own try)
    except (TypeError, ValueError, RuntimeError, IndexError, AttributeError, OverflowError):
        return None


def quick(type_id: str, inputs: ByName, params: ByName) -> bool:
    """Whether the op is small enough to re-run at once after an edit (``EDIT_BYTES``, ``EDIT_FLOPS``); a larger
    one waits for the next forward step, which the window runs in slices that Esc cancels. Ops without an
    estimate count as quick."""
    guess = estimate(type_id, inputs, params)
    return guess is None or (guess[2] <= EDIT_BYTES and guess[3] <= EDIT_FLOPS)


def _numel(shape: Iterable[int]) -> int:
    n = 1
    for s in shape:
        n *= int(s)
    return n


def _broadcast(shapes: Sequence[Sequence[int]]) -> Shape:
    """``core.broadcast_shapes`` on plain tuples (a few times faster: it runs for every op a training step makes);
    ValueError when they don't broadcast (the op then raises its own error)."""
    ndim = max(len(s) for s in shapes)
    out = [1] * ndim
    for s in shapes:
        for i, d in enumerate(s, ndim - len(s)):
            if d != 1 and d != out[i]:
                if out[i] != 1:
                    raise ValueError(f"shapes {shapes} don't broadcast")
                out[i] = d
    return tuple(out)


def _tensors(inputs: ByName) -> list[core.Tensor]:
    return [v for v in inputs.values() if isinstance(v, core.Tensor)]


def _result(shape: Sequence[int], dtype: core.dtype, flops: float) -> Estimate:
    return tuple(shape), str(dtype).rsplit(".", 1)[-1], _numel(shape) * dtype.itemsize, float(flops)


def _dtype_of(tensors: Sequence[core.Tensor]) -> core.dtype:
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        if t.dtype is not dtype:
            dtype = core.promote_types(dtype, t.dtype)
    return dtype



# ----- the rules, by node type (or by category) -----------------------------------------------------------
def _elementwise(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    ts = _tensors(inputs)
    if not ts:
        return None
    shape: Sequence[int] = ts[0].shape
    if any(t.shape != shape for t in ts):  # the usual case, same shapes, needs no broadcasting
        shape = _broadcast([t.shape for t in ts])
    boolean = type_id.startswith("compare.") and type_id not in ("compare.where", "compare.masked_fill")
    dtype = core.bool if boolean else _dtype_of(ts)
    return _result(shape, dtype, _numel(shape))


def _same_size(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    """Cumulative ops, softmax, copies: a result as large as the input (which may be a free expanded view)."""
    ts = _tensors(inputs)
    return _result(ts[0].shape, _dtype_of(ts), _numel(ts[0].shape)) if ts else None


def _reduction(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    """A reduction reads every element and makes little."""
    ts = _tensors(inputs)
    return ((), str(ts[0].dtype).rsplit(".", 1)[-1], 0, float(sum(t.numel() for t in ts))) if ts else None


def _copy(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    """reshape/flatten/contiguous copy only a non-contiguous input."""
    t = inputs.get("x")
    if not isinstance(t, core.Tensor) or t.is_contiguous():
        return None
    return _result(t.shape, t.dtype, t.numel())


def _join(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    ts = _tensors(inputs)
    if not ts:
        return None
    numel = sum(t.numel() for t in ts)
    return _result((numel,), _dtype_of(ts), numel)


def _matrices(a: core.Tensor, b: core.Tensor) -> tuple[Shape, int, int, int, Shape]:
    """``(batch, m, k, n, out shape)`` of torch.matmul's a @ b (1-D operands as torch treats them)."""
    sa, sb = tuple(a.shape), tuple(b.shape)
    if not sa or not sb:
        raise ValueError("matmul of a 0-d tensor")
    ma, mb = (1,) + sa if len(sa) == 1 else sa, sb + (1,) if len(sb) == 1 else sb
    if ma[-1] != mb[-2]:
        raise ValueError("sizes do not match")
    batch = tuple(core.broadcast_shapes(ma[:-2], mb[:-2]))
    out = batch + ((ma[-2],) if len(sa) > 1 else ()) + ((mb[-1],) if len(sb) > 1 else ())
    return batch, ma[-2], ma[-1], mb[-1], out


def _product(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    a, b = inputs.get("a"), inputs.get("b")
    if not isinstance(a, core.Tensor) or not isinstance(b, core.Tensor):
        return None
    if type_id == "linalg.outer":
        shape = (a.numel(), b.numel())
        return _result(shape, _dtype_of([a, b]), _numel(shape))
    batch, m, k, n, out = _matrices(a, b)
    return _result(out, _dtype_of([a, b]), 2.0 * _numel(batch) * m * k * n)


def _solve(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    a, b = inputs.get("a"), inputs.get("b")
    if not isinstance(a, core.Tensor) or not isinstance(b, core.Tensor) or a.dim() < 2:
        return None
    n = a.shape[-1]
    rhs = b.shape[-1] if b.dim() > 1 else 1
    batch = _numel(a.shape[:-2])
    return _result(b.shape, _dtype_of([a, b]), batch * (2.0 / 3.0 * n ** 3 + 2.0 * n * n * rhs))


# cost of a factorisation of an m x n matrix (k = min(m, n)) in units of m*n*k, as LAPACK roughly spends it
_FACTOR_COST = {"det": 1.0, "slogdet": 1.0, "cholesky": 0.5, "inv": 2.0, "matrix_power": 2.0, "qr": 4.0,
                "pinv": 20.0, "svd": 20.0, "svdvals": 8.0, "matrix_rank": 8.0, "eigh": 10.0, "eigvalsh": 4.0}


def _factor(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    x = inputs.get("x")
    if not isinstance(x, core.Tensor) or x.dim() < 2:
        return None
    name = type_id.split(".", 1)[1]
    *batch, m, n = x.shape
    k = min(m, n)
    flops = _FACTOR_COST[name] * _numel(batch) * m * n * k
    if name == "matrix_power":
        flops *= max(1, abs(int(params.get("n", 2)))).bit_length()
    sizes = {"pinv": (*batch, n, m), "inv": tuple(x.shape), "cholesky": tuple(x.shape), "matrix_power": tuple(x.shape),
             "svd": (*batch, m * k + k + k * n), "qr": (*batch, m * k + k * n), "eigh": (*batch, n * n + n),
             "det": tuple(batch), "slogdet": tuple(batch)}
    shape = sizes.get(name, (*batch, k))
    return _result(shape, x.dtype if x.is_floating_point() else core.get_default_dtype(), flops)


def _source(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    dtype = params.get("dtype", "default")
    dtype = core.get_default_dtype() if dtype in (None, "default") else getattr(core, dtype)
    if type_id == "source.eye":
        n, m = int(params.get("n", 3)), int(params.get("m", -1))
        shape: Shape = (n, n if m < 0 else m)
    elif type_id == "source.arange":
        step = float(params.get("step", 1.0)) or 1.0
        shape = (max(0, math.ceil((float(params.get("end", 0.0)) - float(params.get("start", 0.0))) / step)),)
    else:
        shape = tuple(params.get("shape", ()))
    return _result(shape, dtype, _numel(shape))


def _sizes(value: Any, n: int) -> Shape:
    """A conv's ``stride``/``padding``/``dilation`` (an int or a tuple) as ``n`` ints; ValueError when it is neither."""
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) not in (1, n):
        raise ValueError(f"{value} is not {n} sizes")
    return value * n if len(value) == 1 else value


def _conv(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    """A convolution (``nn.conv1d``, ``nn.conv2d``, ``layer.conv2d`` with the weight it builds): the largest of what
    it makes, its output, the zero-padded input, the unfolded columns it multiplies and a layer's weight."""
    x, n = inputs.get("x"), 1 if type_id == "nn.conv1d" else 2
    if not isinstance(x, core.Tensor) or x.dim() not in (n + 1, n + 2):
        return None
    channels, spatial = x.shape[-n - 1], tuple(x.shape[-n:])
    batch = x.shape[0] if x.dim() == n + 2 else 1
    if type_id == "layer.conv2d":
        out_c = int(params["out_channels"])
        kernel: tuple[int, ...] = (int(params["kernel_size"]),) * 2
        dilation: tuple[int, ...] = (1, 1)
        weight: Shape = (out_c, int(params["in_channels"]) // max(1, int(params["groups"])), *kernel)
    else:
        w = inputs.get("weight")
        if not isinstance(w, core.Tensor) or w.dim() != n + 2:
            return None
        out_c, kernel, dilation, weight = w.shape[0], tuple(w.shape[2:]), _sizes(params.get("dilation", 1), n), ()
    stride, padding = _sizes(params.get("stride", 1), n), _sizes(params.get("padding", 0), n)
    padded = tuple(s + 2 * p for s, p in zip(spatial, padding))
    out = tuple((s - d * (k - 1) - 1) // st + 1 for s, d, k, st in zip(padded, dilation, kernel, stride))
    if min(out) <= 0 or min(stride) <= 0:
        return None  # the op refuses it itself
    made = [(batch, out_c, *out), (batch, channels, *padded), (batch, channels * _numel(kernel), _numel(out)), weight]
    flops = 2.0 * batch * out_c * _numel(out) * channels / max(1, int(params.get("groups", 1))) * _numel(kernel)
    dtype = x.dtype if x.is_floating_point() else core.get_default_dtype()
    return _result(max(made, key=_numel), dtype, flops)


def _sized_output(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    """An adaptive pool or ``one_hot``, whose output's size a parameter sets: an ``output_size`` of 2**31 made
    16 GiB of indices before failing (the app was killed for memory)."""
    x = inputs.get("x")
    if not isinstance(x, core.Tensor) or x.dim() == 0:
        return None
    if type_id == "nn.one_hot":
        classes = int(params.get("num_classes", -1))
        return _result((*x.shape, classes), core.int64, 0.0) if classes > 0 else None
    n = 2 if type_id.endswith("2d") else 1
    shape = (*x.shape[:-n], *_sizes(params.get("output_size"), n))
    dtype = x.dtype if x.is_floating_point() else core.get_default_dtype()
    return _result(shape, dtype, float(_numel(x.shape)))


def _linear_layer(type_id: str, inputs: ByName, params: ByName) -> Estimate | None:
    """``layer.linear`` and ``layer.mlp``: the largest weight or output they make, and the products' cost."""
    x = inputs.get("x")
    if not isinstance(x, core.Tensor) or x.dim() == 0:
        return None
    sizes = tuple(params["sizes"]) if type_id == "layer.mlp" else (params["in_features"], params["out_features"])
    rows = _numel(x.shape[:-1])
    made = [shape for a, b in zip(sizes[:-1], sizes[1:]) for shape in ((b, a), (*x.shape[:-1], b))]
    flops = sum(2.0 * rows * a * b for a, b in zip(sizes[:-1], sizes[1:]))
    dtype = x.dtype if x.is_floating_point() else core.get_default_dtype()
    return _result(max(made, key=_numel), dtype, flops) if made else None


_SAME_SIZE = ("reduce.cumsum", "reduce.cumprod", "reduce.cummax", "reduce.cummin", "reduce.logcumsumexp",
              "reduce.softmax", "reduce.log_softmax", "reduce.diff")
_RULES: dict[str, Rule] = {
    **{f"linalg.{n}": _product for n in ("matmul", "mm", "bmm", "dot", "outer")},
    "linalg.solve": _solve, **{f"linalg.{n}": _factor for n in _FACTOR_COST},
    **{f"reduce.{n}": _reduction for n in ("sum", "mean", "prod", "amax", "amin", "max", "min", "std", "var",
                                           "norm", "logsumexp", "nansum", "nanmean", "all", "any", "argmax",
                                           "argmin", "count_nonzero")},
    **dict.fromkeys(_SAME_SIZE, _same_size),
    **{f"shape.{n}": _copy for n in ("contiguous", "reshape", "flatten")},
    "join.cat": _join, "join.stack": _join,
    "nn.conv1d": _conv, "nn.conv2d": _conv, "layer.conv2d": _conv, "layer.linear": _linear_layer,
    "layer.mlp": _linear_layer, **{f"nn.{n}": _sized_output for n in ("adaptive_avg_pool1d", "adaptive_avg_pool2d",
                                                                       "one_hot")},
    **{f"source.{n}": _source for n in ("zeros", "ones", "full", "rand", "randn", "eye", "arange")},
}
_NOT_SAME_SIZE = {"adaptive_avg_pool1d", "adaptive_avg_pool2d", "avg_pool1d", "avg_pool2d", "conv1d", "conv2d",
                  "max_pool1d", "max_pool2d", "one_hot", "linear_fn", "glu"}
_RULES.update({f"loss.{n}": _elementwise for n in ("mse", "l1", "huber", "smooth_l1", "bce", "bce_with_logits",
                                                   "poisson_nll", "soft_margin")})
_CATEGORY_RULES: dict[str, Rule] = {"math": _elementwise, "compare": _elementwise}


def _rule(type_id: str) -> Rule | None:
    rule = _RULES.get(type_id)
    if rule is None:
        family, _, name = type_id.partition(".")
        rule = _CATEGORY_RULES.get(family)
        if rule is None and family == "nn" and name not in _NOT_SAME_SIZE:
            rule = _same_size  # activations, norms, dropout: the input's size
    return rule
