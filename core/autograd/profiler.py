"""``core.autograd.profiler``: PyTorch's profiler context managers, recording core's ops by name and time.

While a ``profile`` is open, ``Function.apply`` (the one door every graph primitive goes through) is
wrapped to time each op under PyTorch's name for it (``MmBackward0`` is ``aten::mm``); the wrapper is
removed when the last profile closes, so profiling costs nothing when off. ``record_function(name)``
adds a named span. ``key_averages().table()`` prints PyTorch's table (self and total CPU time, calls).

NOTE: while a profile is open, ops that need no gradient take ``Function.apply`` too (core's fast paths are
blocked, as for ``core.compile``'s capture), so an optimizer's step is seen; the backward pass is not.
"""

from __future__ import annotations

import json
import re
import time
from collections import OrderedDict

from core.autograd import _profiler_trees as _trees
from core.autograd import shortcuts as _shortcuts
from core.autograd._profiling import recording as _recording
from core.autograd.function import Function
from core.ops._recorded import _GradientFreeCall

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg", "emit_nvtx", "emit_itt"]

_stack: list = []  # the open events, innermost last
_installed = {"apply": None}


class FunctionEvent:
    """One timed op or span: ``name``/``key``, start and end (µs), self time, input shapes."""

    def __init__(self, name: str, start_us: float, shapes=None, parent=None):
        self.name = self.key = name
        self.start_us, self.end_us = start_us, start_us
        self.child_us = 0.0
        self.input_shapes = shapes or []
        self.count = 1
        self.cpu_parent, self.cpu_children = parent, []  # (PyTorch's: the enclosing event and the nested ones)
        if parent is not None:
            parent.cpu_children.append(self)

    @property
    def cpu_time_total(self) -> float:
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - self.child_us

    def __repr__(self) -> str:
        return f"<FunctionEvent name={self.name} cpu_time_total={self.cpu_time_total:.3f}us>"


class FunctionEventAvg:
    """Events with one key summed: ``count``, ``cpu_time_total``, ``self_cpu_time_total``, ``cpu_time``."""

    def __init__(self, key: str, input_shapes=None):
        self.key = key
        self.input_shapes = input_shapes or []
        self.count = 0
        self.cpu_time_total = self.self_cpu_time_total = 0.0

    def add(self, event) -> None:
        self.count += event.count
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total / max(self.count, 1)

    def __repr__(self) -> str:
        return f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total:.3f}us " \
               f"cpu_time={self.cpu_time_total:.3f}us count={self.count}>"


class EventList(list):
    """A list of events with PyTorch's ``table``, ``key_averages`` and ``total_average``."""

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0) -> EventList:
        groups: OrderedDict = OrderedDict()
        for e in self:
            key = (e.key, str(e.input_shapes)) if group_by_input_shape else e.key
            if key not in groups:
                groups[key] = FunctionEventAvg(e.key, e.input_shapes if group_by_input_shape else None)
            groups[key].add(e)
        averages = EventList(groups.values())
        averages._input_shapes = group_by_input_shape  # (its table then shows PyTorch's Input Shapes column)
        return averages

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg("Total")
        for e in self:
            total.add(e)
        return total

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by: str | None = None, row_limit: int = 100, max_name_column_width: int = 55,
              header: str | None = None, top_level_events_only: bool = False, **kwargs) -> str:
        return _table(self, sort_by, row_limit, max_name_column_width, header, getattr(self, "_input_shapes", False))

    def export_chrome_trace(self, path: str) -> None:
        trace = [{"name": e.name, "ph": "X", "ts": e.start_us, "dur": e.cpu_time_total, "pid": 0, "tid": 0,
                  "cat": "cpu_op"} for e in self]
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"traceEvents": trace}, f)


def _format_time(us: float) -> str:
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


_SORT_KEYS = {"cpu_time_total", "self_cpu_time_total", "cpu_time", "count", "self_cpu_time"}


def _table(events, sort_by, row_limit, name_width, header, input_shapes: bool = False) -> str:
    rows = list(events)
    if sort_by is not None:
        key = "self_cpu_time_total" if sort_by == "self_cpu_time" else sort_by
        if key not in _SORT_KEYS:
            key = "cpu_time_total"  # CUDA/memory columns: core measures none of them
        rows.sort(key=lambda e: getattr(e, key), reverse=True)
    rows = rows[:row_limit] if row_limit and row_limit > 0 else rows
    self_total = sum(e.self_cpu_time_total for e in events) or 1e-9
    width = min(max([len(e.key) for e in events] + [0]) + 4, name_width)  # (PyTorch's: every event, not the rows)
    heads = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
    widths = [width] + [12] * 6
    if input_shapes:  # (PyTorch's width: the longest shapes of all the events, plus 4, at most 80)
        heads.append("Input Shapes")
        widths.append(min(max([len(str(e.input_shapes)) for e in events] + [len(heads[-1])]) + 4, 80))
    line = "".join("-" * w + "  " for w in widths)
    fmt = lambda cells: "".join(str(c).rjust(w) + "  " for c, w in zip(cells, widths))  # noqa: E731
    out = ([header] if header else []) + [line, fmt(heads), line]
    for e in rows:
        name = e.key if len(e.key) < name_width - 3 else e.key[:name_width - 3] + "..."  # (PyTorch's cut)
        out.append(fmt([name, f"{e.self_cpu_time_total / self_total * 100:.2f}%", _format_time(e.self_cpu_time_total),
                        f"{e.cpu_time_total / self_total * 100:.2f}%", _format_time(e.cpu_time_total),
                        _format_time(e.cpu_time_total / max(e.count, 1)), e.count, str(e.input_shapes)]))
    out += [line, f"Self CPU time total: {_format_time(self_total)}", ""]
    return "\n".join(out)


# ----- recording ---------------------------------------------------------------------------------------
def _now_us() -> float:
    return time.perf_counter_ns() / 1000.0


def _open(name: str, shapes=None) -> FunctionEvent:
    event = FunctionEvent(name, _now_us(), shapes, _stack[-1] if _stack else None)
    _stack.append(event)
    return event


def _close(event: FunctionEvent) -> None:
    event.end_us = _now_us()
    if _stack and _stack[-1] is event:
        _stack.pop()
    if _stack:
        _stack[-1].child_us += event.cpu_time_total
    for p in _recording:
        p._events.append(event)


_quiet = [0]  # > 0 while a backward node or an optimizer whose events come from ``_profiler_trees`` runs


def evaluate(node, call, *args):
    """Run ``call(node, *args)`` (the engine's step for ``node``) inside PyTorch's events for it: ``autograd::engine::
    evaluate_function: <name>`` around the node's own; inside, the ATen calls PyTorch's formula makes where
    ``_profiler_trees`` knows them (core's own ops quiet), else core's ops as they run."""
    name = node.name()
    trees = _trees.backward_children(node, name)
    outer = _open("autograd::engine::evaluate_function: " + name)
    inner = _open(name)
    try:
        if trees is None:
            return call(node, *args)
        _instant(trees[0])
        _quiet[0] += 1
        try:
            return call(node, *args)
        finally:
            _quiet[0] -= 1
    finally:
        _close(inner)
        if trees is not None:
            _instant(trees[1])
        _close(outer)


def seed() -> None:
    """The implicit gradient of ``loss.backward()``, as PyTorch's engine makes it (``aten::ones_like``)."""
    _instant((_trees.ONES_LIKE,))


class optimizer_span:
    """``Optimizer.step#SGD.step`` (or ``zero_grad``) around an optimizer's work, with the per-parameter events of
    PyTorch's CPU implementation (``_profiler_trees.optimizer_trees``) in place of core's array updates where it
    knows them (else core's own ops, if any, as they run)."""

    def __init__(self, optimizer, what: str):
        self.name = f"Optimizer.{what}#{type(optimizer).__name__}.{what}"
        self.trees = _trees.optimizer_trees(optimizer) if what == "step" else ()

    def __enter__(self):
        self.event = _open(self.name)
        _instant(self.trees)
        if self.trees:
            _quiet[0] += 1
        return self

    def __exit__(self, *exc):
        if self.trees:
            _quiet[0] -= 1
        _close(self.event)
        return False


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def op_name(cls) -> str:
    """PyTorch's profiler name of a primitive: ``MmBackward0`` -> ``aten::mm``; an in-place form (a class with
    ``writes_self``, which records the out-of-place op's node) ``aten::relu_``; else its ``profile_name``."""
    name = getattr(cls, "profile_name", None)
    if name is not None:
        return name
    node = getattr(cls, "node_name", None) or cls.__name__
    base = re.sub(r"Backward\d*$", "", node)
    if base in ("NotImplemented", ""):
        base = cls.__name__
    return "aten::" + _CAMEL.sub("_", base).lower() + ("_" if getattr(cls, "writes_self", False) else "")


# ATen ops that run another op inside (a child event in PyTorch's profile): relu is clamp_min(self, 0)
_CALLS = {"aten::relu": ("aten::clamp_min",), "aten::relu_": ("aten::clamp_min_",)}

# Children PyTorch's profile shows before an op's work, each a (name, its own children) tree: a clone allocates
# and copies; abs_ runs abs into self, abs into an empty tensor; a Python-number operand of an arithmetic op is
# wrapped as a double (int64, bool) tensor that ``to`` casts to the result's dtype when they differ; clamp's and
# pow's scalars are cast too
_TO_COPY = (("aten::to", (("aten::_to_copy", (("aten::empty_strided", ()), ("aten::copy_", ()))),)),)
_PREPARED = {"aten::clone": (("aten::empty_strided", ()), ("aten::copy_", ())), "aten::abs_": (("aten::abs", ()),),
             "aten::t": (("aten::transpose", _trees.AS_STRIDED),),
             "aten::select": (("aten::as_strided", ()),), "aten::abs": (("aten::empty", ()), ("aten::abs", ()))}
_ARITHMETIC = frozenset(f"aten::{op}{tail}" for op in ("add", "sub", "mul", "div") for tail in ("", "_"))
_COMPARISONS = frozenset(f"aten::{op}" for op in ("eq", "ne", "lt", "le", "gt", "ge"))
_WRAPPED = {bool: "bool", int: "int64", float: "float64", complex: "complex128"}  # a wrapped number's dtype
_CLAMPS, _POWS = frozenset(("aten::clamp", "aten::clamp_")), frozenset(("aten::pow", "aten::pow_"))


def _prepared(name: str, cls, args, kwargs) -> tuple:
    """The children PyTorch's profile shows under ``name`` before its work (``_PREPARED`` and the scalars' casts)."""
    if name in _ARITHMETIC or name in _COMPARISONS:
        scalar = args[1] if len(args) > 1 else None
        if type(scalar) in _WRAPPED and hasattr(args[0], "_data"):
            from core._dtype import result_type

            return _TO_COPY if str(result_type(args[0], scalar)).rpartition(".")[2] != _WRAPPED[type(scalar)] else ()
        return ()
    if name in _CLAMPS:
        scalar = any(isinstance(kwargs.get(k), (int, float)) for k in ("lo", "hi"))
        return (("aten::to", ()),) if scalar else ()
    if name in _POWS and cls.__name__.startswith("PowScalar"):
        return ("aten::result_type", ()), ("aten::to", ())
    if name == "aten::addmm" and len(args) == 3 and hasattr(args[0], "_data"):  # the bias broadcast into the result
        full = args[0].dim() == 2 and args[0].shape[0] == args[1].shape[0]
        return ((() if full else (("aten::expand", _trees.AS_STRIDED),)) + (("aten::copy_", ()),)
                + (("aten::resolve_conj", ()), ("aten::resolve_conj", ())))
    if name == "aten::mean" and args[0]._data.dtype.kind == "f":  # ATen's mean: a sum, divided in place
        return ("aten::sum", (("aten::as_strided", ()), ("aten::fill_", ()))), ("aten::div_", (_trees.TO_COPY,))
    return _PREPARED.get(name, ())


def _instant(children) -> None:
    """Record ``children`` (trees) as events inside the innermost open one."""
    for child, grandchildren in children:
        event = _open(child)
        _instant(grandchildren)
        _close(event)


def open_ahead(cls, name: str | None = None):
    """Open ``cls``'s event (or one called ``name``) before the op's own preparation runs (an in-place op's clone
    of the old ``self``, as PyTorch's kernel makes it inside the op): ``cls``'s next apply records inside it,
    without an event of its own. None when not profiling; pass the result to ``close_ahead`` once the op ran."""
    if not _recording:
        return None
    event = _open(name or op_name(cls))
    event.ahead = cls
    return event


def close_ahead(event) -> None:
    if event is not None:
        _close(event)


def _shapes(args) -> list:
    return [list(a.shape) if hasattr(a, "shape") and hasattr(a, "_data") else [] for a in args]


def _install() -> None:
    original = Function.__dict__["apply"]
    run = original.__func__
    _installed["apply"] = original

    def timed_apply(cls, *args, **kwargs):
        if _quiet[0]:  # (inside an event whose children _profiler_trees gives)
            return run(cls, *args, **kwargs)
        shapes = _shapes(args) if any(p.record_shapes for p in _recording) else None
        name = op_name(cls) if cls is not _GradientFreeCall else "aten::" + kwargs["op"].__name__
        ahead = _stack[-1] if _stack and getattr(_stack[-1], "ahead", None) is cls else None
        if ahead is not None:  # (open_ahead's event: its caller closes it)
            ahead.ahead, ahead.input_shapes = None, shapes or []
        events = ([] if ahead is not None else [_open(name, shapes)])
        _instant(_prepared(name, cls, args, kwargs))
        events += [_open(child, shapes) for child in _CALLS.get(name, ())]
        try:
            return run(cls, *args, **kwargs)
        finally:
            for event in reversed(events):
                _close(event)

    Function.apply = classmethod(timed_apply)


def _uninstall() -> None:
    Function.apply = _installed["apply"]
    _installed["apply"] = None


class profile:  # PyTorch's name
    """Record the ops run inside ``with profile() as prof:``; read them with ``prof.key_averages()``."""

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False, use_device=None, record_shapes: bool = False,
                 with_flops: bool = False, profile_memory: bool = False, with_stack: bool = False,
                 with_modules: bool = False, use_kineto: bool = False, use_cpu: bool = True, **kwargs):
        self.enabled, self.record_shapes = enabled, record_shapes
        self._events: list = []
        self.function_events = None

    def __enter__(self):
        if self.enabled:
            self._start()
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self._stop()
        return False

    def _start(self) -> None:
        self._events = []
        if not _recording:
            _install()
            _shortcuts.block()  # NOTE: ops without grad (an optimizer's step) take Function.apply too, to be seen
        _recording.append(self)

    def _stop(self) -> None:
        if self in _recording:
            _recording.remove(self)
            if not _recording:
                _shortcuts.unblock()
                _uninstall()
        self.function_events = EventList(sorted(self._events, key=lambda e: e.start_us))

    def _check_finished(self) -> None:
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    def key_averages(self, group_by_input_shape: bool = False, group_by_stack_n: int = 0) -> EventList:
        self._check_finished()
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by=None, row_limit: int = 100, **kwargs) -> str:
        self._check_finished()
        return self.function_events.table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def total_average(self) -> FunctionEventAvg:
        self._check_finished()
        return self.function_events.total_average()

    @property
    def self_cpu_time_total(self) -> float:
        self._check_finished()
        return self.function_events.self_cpu_time_total

    def export_chrome_trace(self, path: str) -> None:
        self._check_finished()
        self.function_events.export_chrome_trace(path)

    def __str__(self) -> str:
        return self.table() if self.function_events is not None else "<unfinished profile>"


class record_function:  # PyTorch's name
    """A named span in the profile (a no-op when no profile is open); also usable as a decorator."""

    def __init__(self, name: str, args: str | None = None):
        self.name = name
        self._event = None

    def __enter__(self):
        if _recording:
            self._event = _open(self.name)
        return self

    def __exit__(self, *exc):
        if self._event is not None:
            _close(self._event)
            self._event = None
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with record_function(self.name):
                return fn(*args, **kwargs)

        return wrapper


class emit_nvtx:  # PyTorch's name
    """NVTX ranges for NVIDIA's profilers: a no-op when ``enabled=False`` (how tuning guides leave it); enabled,
    it needs CUDA, and entering it fails as on PyTorch's CPU build."""

    def __init__(self, enabled: bool = True, record_shapes: bool = False):
        self.enabled = enabled

    def __enter__(self):
        if self.enabled:
            from core import _backend

            _backend.xp_for(_backend.canonical("cuda"))  # PyTorch's AssertionError without a GPU
        return self

    def __exit__(self, *exc):
        return False


class emit_itt(emit_nvtx):
    """Intel ITT ranges: core records none (PyTorch's CPU build enters and leaves it quietly)."""

    def __enter__(self):
        return self


# ----- torch.ops.profiler ------------------------------------------------------------------------------
_handles: dict = {}  # a handle tensor's id -> its open record_function
_defined = {"library": None}


def define_profiler_ops() -> None:
    """``torch.ops.profiler._record_function_enter(name, args=None) -> Tensor`` and ``_record_function_exit(handle)``:
    the ops record_function's span runs as (FX's profiling tracer emits them into a graph). The handle is an empty
    tensor, made inside the span (PyTorch's profile shows its ``aten::empty`` under the span's name)."""
    if _defined["library"] is not None:
        return
    import core

    lib = core.library.Library("profiler", "DEF")
    lib.define("_record_function_enter(str name, str? args=None) -> Tensor")
    lib.define("_record_function_exit(Tensor handle) -> ()")
    lib.impl("_record_function_enter", _record_function_enter, "CompositeExplicitAutograd")
    lib.impl("_record_function_exit", _record_function_exit, "CompositeExplicitAutograd")
    _defined["library"] = lib


def _record_function_enter(name, args=None):
    import core

    span = record_function(name, args)
    span.__enter__()
    event = _open("aten::empty") if _recording else None
    handle = core.empty(0)
    if event is not None:
        _close(event)
    _handles[id(handle)] = (handle, span)
    return handle


def _record_function_exit(handle) -> None:
    _, span = _handles.pop(id(handle), (None, None))
    if span is not None:
        span.__exit__(None, None, None)
