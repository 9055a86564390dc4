"""``jit.trace``'s recording: a function's tensor operations recorded once and replayed on later calls.

PyTorch's tracer runs the Python function on the example inputs and keeps the tensor operations it ran as a
graph; calling the traced function runs that graph, not the Python code: prints, counters and list appends happen
while tracing only, and a Python branch on a tensor's value stays the branch taken (a ``TracerWarning`` says so
when the value is read). With ``check_trace`` (the default) PyTorch's checker traces the function again, runs the
first graph, runs the Python function, and runs the second graph when those two outputs agree: three Python runs.

core records the top-level primitive calls of a run (``core.autograd.capture.record``) and replays them through
``Function.apply`` on the new inputs, so results carry the same autograd nodes as eager code. A recording is kept
per input signature (shapes, dtypes, ``requires_grad``, the other arguments, grad mode, the modules' training
flags): PyTorch's graph also follows sizes read with ``x.size(0)``, which core's calls hold as numbers, so a call
with new shapes records anew (its Python runs once more, prints silenced); where that run took another Python branch
than the first recording (its ops differ), the first recording replays on the new inputs instead, as PyTorch's graph
keeps the traced branch (when the numbers it holds fit them). A tensor made inside without an op
(``zeros``) and filled in place starts each replay from its value before the run; a module's buffer written in place
is written itself. Where a run can't be replayed (random numbers drawn outside an op, a tensor written outside an
op), calls run the Python function with its prints silenced, as before.

``graph``, ``inlined_graph`` and ``code`` print the recorded operations in the shape of PyTorch's TorchScript IR
and code (``core.jit._trace_render``).
``jit.save`` of a traced function writes its first recording inside a ``PlaceholderModule``, which ``jit.load`` gives
back as a scripted module whose forward replays it, as PyTorch's archive loads.
"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings

from core._jit_function import ScriptFunction
from core.autograd.capture import record
from core.autograd.capture_plan import map_tensors
from core.jit import _submodule_calls
from core.jit._trace_render import _class_path, _Slot, _slots_in, _tensor_type, render
from core.nn.module import Module

__all__ = ["Tracer", "TracedFunction", "PlaceholderModule", "Graph", "tracing", "render", "check_output"]

_state = {"tracing": False}


def tensors_in(obj) -> list:
    """Every tensor in ``obj`` (tuples, named tuples, lists and dicts), in order."""
    found: list = []
    map_tensors(obj, found.append)
    return found


_MAX_RECORDINGS = 8


def tracing() -> bool:
    """True while ``jit.trace`` records (``torch.jit.is_tracing()``)."""
    return _state["tracing"]


_READS = {"__bool__": "a Python boolean", "item": "a Python number", "__int__": "a Python integer",
          "__float__": "a Python float", "tolist": "a Python list", "numpy": "a NumPy array",
          "__array__": "a NumPy array", "__index__": "a Python index", "__complex__": "a Python complex"}


def _warn_value_read() -> None:
    """PyTorch's TracerWarning for Python reading a tensor's value while tracing, at the user's line."""
    from core.jit import TracerWarning

    frame, level, what = sys._getframe(1), 2, "a Python number"  # (level 2: the frame calling this function)
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] == "core":
        what = _READS.get(frame.f_code.co_name, what)
        frame, level = frame.f_back, level + 1
    warnings.warn(f"Converting a tensor to {what} might cause the trace to be incorrect. We can't record the data "
                  f"flow of Python values, so this value will be treated as a constant in the future. This means "
                  f"that the trace might not generalize to other inputs!", TracerWarning, stacklevel=level)


def _silent() -> None:
    pass


def _key(args, kwargs, modules):
    """What a recording depends on besides the code; None for arguments it can't key on (unhashable ones)."""
    from core import Tensor, is_grad_enabled
    from core.utils._pytree import tree_flatten

    leaves, spec = tree_flatten((args, kwargs))
    parts: list = [is_grad_enabled(), str(spec)]
    for leaf in leaves:
        if isinstance(leaf, Tensor):
            parts.append((tuple(leaf.shape), leaf.dtype, leaf.requires_grad, str(leaf.layout), str(leaf.device)))
        else:
            try:
                hash(leaf)
            except TypeError:
                return None
            parts.append((type(leaf), leaf))
    if modules is not None:
        parts.append(tuple(m.training for m in modules()))
    return tuple(parts)


def _state_tensors(fn, modules) -> set:
    """Ids of the tensors that exist before ``fn`` runs and that its code may reach: the modules' parameters and
    buffers, and the tensors and modules in its closure, its globals and its ``__self__``."""
    from core import Tensor
    from core.nn.module import Module

    values = list(modules()) if modules is not None else []
    values += [c.cell_contents for c in getattr(fn, "__closure__", None) or () if c.cell_contents is not None]
    values += [*getattr(fn, "__globals__", {}).values(), getattr(fn, "__self__", None)]
    found: set = set()
    for v in values:
        if isinstance(v, Tensor):
            found.add(id(v))
        elif isinstance(v, Module):
            found.update(id(t) for t in (*v.parameters(), *v.buffers()))
    return found


class _Snapshots:
    """The values tensors the recorded calls did not make had before the first call that used them, for those that
    need no grad and are not state the function reaches (``_state_tensors``): a ``zeros`` the function fills in
    place must start as zeros on each replay, while a buffer's in-place update (``num_batches_tracked += 1``)
    writes the buffer itself, as PyTorch's graph does."""

    def __init__(self, inputs, state: set):
        self.seen = {id(t) for t in tensors_in(inputs)} | state
        self.values: dict = {}
        self.known_calls = 0

    def before_call(self, args, kwargs, calls) -> None:
        import core

        for call in calls[self.known_calls:]:  # what the calls made is not a snapshot's
            self.seen.update(id(o) for o in call[4] if o is not None)
        self.known_calls = len(calls)
        for t in tensors_in((args, kwargs)):
            if id(t) not in self.seen:
                self.seen.add(id(t))
                if not t.requires_grad:
                    with core.no_grad():
                        self.values[id(t)] = t.clone()


def _template(obj, slots: dict):
    """``obj`` with each tensor that has a slot replaced by its ``_Slot`` (the others are constants)."""
    from core import Tensor

    if isinstance(obj, Tensor):
        index = slots.get(id(obj))
        return obj if index is None else _Slot(index)
    if type(obj) in (tuple, list):
        return type(obj)([_template(o, slots) for o in obj])
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_template(o, slots) for o in obj])
    if type(obj) is dict:
        return {k: _template(v, slots) for k, v in obj.items()}
    return obj


def _fill(obj, env: list):
    if type(obj) is _Slot:
        return env[obj.index]
    if type(obj) in (tuple, list):
        return type(obj)([_fill(o, env) for o in obj])
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_fill(o, env) for o in obj])
    if type(obj) is dict:
        return {k: _fill(v, env) for k, v in obj.items()}
    return obj


class Recording:
    """One run's top-level primitive calls as steps over slots, replayed on new inputs of the same signature. The
    run's own tensors are not kept (only their types, for ``graph``): the constants are (parameters, buffers, and
    tensors made without an op), and the values before the run of those made inside and written in place."""

    def __init__(self, calls, args, kwargs, result, snapshots: _Snapshots, submodules=None):
        inputs = tensors_in((args, kwargs))
        slots = {id(t): i for i, t in enumerate(inputs)}
        constants: dict = {}  # id(root) -> the tensors the calls did not make, over that storage
        written: set = set()  # roots of those an in-place call writes
        produced = set(slots)
        for _cls, _ctx, a, k, outs in calls:
            arg_tensors = tensors_in((a, k))
            for t in arg_tensors:
                if id(t) not in produced:
                    constants.setdefault(id(t._root), []).append(t)
            for o in outs:
                if o is not None:
                    if any(o is t for t in arg_tensors) and id(o._root) in constants:
                        written.add(id(o._root))
                    produced.add(id(o))
        self.fresh = []  # (slot, value before the run): made anew for each replay, as PyTorch's graph makes them
        for root in written:
            for t in constants[root]:
                if id(t) in snapshots.values and id(t) not in slots:
                    slots[id(t)] = len(slots)
                    self.fresh.append((slots[id(t)], snapshots.values[id(t)]))
        self.types = {i: _tensor_type(t) for i, t in enumerate(inputs)}
        self.types.update((i, _tensor_type(value)) for i, value in self.fresh)
        self.input_count = len(inputs)
        steps = []
        for cls, _ctx, a, k, outs in calls:
            a, k = _template(a, slots), _template(k, slots)
            out_slots = []
            for o in outs:
                if o is not None and id(o) not in slots:
                    slots[id(o)] = len(slots)
                    self.types[slots[id(o)]] = _tensor_type(o)
                out_slots.append(None if o is None else slots[id(o)])
            steps.append((cls, a, k, tuple(out_slots)))
        self.steps, self.size = steps, len(slots)
        self.result = _template(result, slots)
        self.calls_shown = [] if submodules is None else _submodule_calls.placed(
            submodules.found, submodules.root, slots, steps, _slots_in(self.result), _class_path)

    def run(self, args, kwargs):
        env: list = [None] * self.size
        env[:self.input_count] = tensors_in((args, kwargs))
        for index, value in self.fresh:
            env[index] = value.clone()
        for cls, a, k, out_slots in self.steps:
            res = cls.apply(*_fill(a, env), **_fill(k, env))
            for index, new in zip(out_slots, res if type(res) is tuple else (res,)):
                if index is not None:
                    env[index] = new
        return _fill(self.result, env)


class Tracer:
    """A traced callable: ``fn`` recorded on each new input signature, its recordings replayed on later calls."""

    def __init__(self, fn, modules=None, root=None):
        self.fn, self.modules, self.root = fn, modules, root  # root: the module traced (its submodule calls shown)
        self._recordings: dict = {}
        self.first: Recording | None = None  # what ``graph`` and ``code`` show
        self.reason: str | None = None  # why the last recording does not replay (None: it does)

    def record(self, args, kwargs, warn: bool):
        """Run ``fn`` (prints as they are) while recording it: its result."""
        key = _key(args, kwargs, self.modules)
        snapshots = _Snapshots((args, kwargs), _state_tensors(self.fn, self.modules))
        submodules = None if self.root is None else _submodule_calls.SubmoduleCalls(self.root)

        def on_enter(a, k, calls):
            if submodules is not None:
                submodules.seen(calls)
            snapshots.before_call(a, k, calls)
        _state["tracing"] = True
        try:
            with submodules.watching() if submodules is not None else contextlib.nullcontext():
                result, calls, reason = record(self.fn, args, kwargs, _warn_value_read if warn else _silent, on_enter)
        finally:
            _state["tracing"] = False
        recording = None
        if reason is None:
            recording = Recording(calls, args, kwargs, result, snapshots, submodules)
        self.reason = reason
        if self.first is None:
            self.first = recording
        if key is not None:
            if len(self._recordings) >= _MAX_RECORDINGS:
                self._recordings.pop(next(iter(self._recordings)))
            self._recordings[key] = recording
        return result

    def __call__(self, *args, **kwargs):
        key = _key(args, kwargs, self.modules)
        recording = self._recordings.get(key, _MISSING) if key is not None else None
        if recording is not None and recording is not _MISSING:
            return recording.run(args, kwargs)
        with contextlib.redirect_stdout(io.StringIO()):  # a trace runs its tensor operations: no prints
            if recording is _MISSING:  # new shapes: recorded anew (PyTorch's graph follows the sizes)
                return self._record_new_shapes(key, args, kwargs)
            return self.fn(*args, **kwargs)

    def _record_new_shapes(self, key, args, kwargs):
        """A call with new shapes, recorded anew: the new recording's result where its ops are the first
        recording's; where the Python code took another branch (on a size, or on a value of the new inputs), the
        first recording replayed, as PyTorch's one graph runs (its sizes are the new inputs' where they are read
        with ``x.size(0)``; core's first recording holds the numbers it was made with, so where that replay fails
        the new recording's result stands)."""
        result = self.record(args, kwargs, warn=False)
        first, new = self.first, self._recordings.get(key)
        if first is None or new is None or new is first or _ops(new) == _ops(first):
            return result
        try:
            replayed = first.run(args, kwargs)
        except Exception:  # NOTE: the sizes the first recording holds do not fit these inputs
            return result
        self._recordings[key] = first
        return replayed

    def check(self, args, kwargs, tolerance: float) -> None:
        """PyTorch's trace checker: trace again, run the graph, run the Python function, and when those two agree
        run the repeated trace's graph (on copies of the inputs)."""
        self.record(_cloned(args), _cloned(kwargs), warn=True)
        graph = self(*_cloned(args), **_cloned(kwargs))
        python = self.fn(*_cloned(args), **_cloned(kwargs))
        if _all_close(tensors_in(graph), tensors_in(python), tolerance):
            self(*_cloned(args), **_cloned(kwargs))


_MISSING = object()


def _ops(recording: Recording) -> tuple:
    """The primitives a recording runs, in order (two runs of the same Python path run the same ones)."""
    return tuple(step[0] for step in recording.steps)


def _cloned(obj):
    import core

    def clone(t):
        with core.no_grad():
            c = t.clone()
        return c.requires_grad_(t.requires_grad) if t.is_leaf else c
    return map_tensors(obj, clone)


def _all_close(ours: list, theirs: list, rtol: float) -> bool:
    import core

    if len(ours) != len(theirs):
        return False
    with core.no_grad():
        return all(a.shape == b.shape and core.allclose(a.double(), b.double(), rtol=rtol, atol=1e-5, equal_nan=True)
                   for a, b in zip(ours, theirs))


def check_output(result, strict: bool) -> None:
    """PyTorch's tracer refuses a dict among the outputs (under ``strict``) and warns about a list."""
    from core.jit import TracerWarning

    for kind, container in (("dict", dict), ("list", list)):
        if _holds(result, container):
            text = (f"Encountering a {kind} at the output of the tracer might cause the trace to be incorrect, this "
                    f"is only valid if the container structure does not change based on the module's inputs. "
                    f"Consider using a constant container instead (e.g. for `list`, use a `tuple` instead. for "
                    f"`dict`, use a `NamedTuple` instead). If you absolutely need this and know the side effects, "
                    f"pass strict=False to trace() to allow this behavior.")
            if kind == "dict" and strict:
                raise RuntimeError(text)
            if kind == "list" and strict:
                warnings.warn(text, TracerWarning, stacklevel=4)


def _holds(obj, container) -> bool:
    if isinstance(obj, container):
        return True
    if isinstance(obj, (tuple, list)):
        return any(_holds(o, container) for o in obj)
    if isinstance(obj, dict):
        return any(_holds(o, container) for o in obj.values())
    return False


class TracedFunction(ScriptFunction):
    """What ``jit.trace(function, ...)`` returns (PyTorch's ``ScriptFunction``): calls replay the recording."""

    def __init__(self, fn, tracer: Tracer):  # (no schema check: a trace takes the tensors it was traced with)
        self._fn, self._tracer = fn, tracer
        self.name = self.__name__ = getattr(fn, "__name__", "fn")
        self.__doc__ = getattr(fn, "__doc__", None)

    def __call__(self, *args, **kwargs):
        return self._tracer(*args, **kwargs)

    @property
    def graph(self) -> Graph:
        return Graph(render(self._tracer.first, self._fn)[0])

    inlined_graph = graph

    @property
    def code(self) -> str:
        return render(self._tracer.first, self._fn)[1]

    def save(self, f, **kwargs) -> None:
        """``torch.jit.save(self, f)``: loads back as a module whose forward replays the trace."""
        from core._jit_script import save

        save(self, f, **kwargs)

    def saved_module(self):
        """What ``jit.save`` writes: a ``PlaceholderModule`` over the first recording (PyTorch's archive holds the
        trace's graph as the forward of a module of that name); the function itself where its run could not be
        recorded (found by name when loaded)."""
        return PlaceholderModule(self._tracer.first or self._fn)


class PlaceholderModule(Module):
    """A saved traced function as ``jit.load`` gives it back (``RecursiveScriptModule(original_name=
    PlaceholderModule)``, as PyTorch's): ``forward`` replays the recording."""

    def __init__(self, run):
        super().__init__()
        self.run = run  # a Recording, or the traced Python function

    def forward(self, *args, **kwargs):
        run = self.run
        return run.run(args, kwargs) if isinstance(run, Recording) else run(*args, **kwargs)


class Graph(str):
    """A recording's TorchScript IR as text (``print(traced.graph)``; PyTorch's ``torch.Graph`` prints the same
    shape); None's stand-in is an empty graph when the trace could not be recorded."""

    def __new__(cls, text):
        return super().__new__(cls, text if text is not None else "graph():\n  return ()\n")

    def __repr__(self) -> str:
        return str(self)


def __getattr__(name: str):
    if name in ("TracedModule", "TopLevelTracedModule"):  # the classes' __module__ (pickles find them here)
        from core import _jit_script

        return getattr(_jit_script, name)
    raise AttributeError(f"module 'core.jit._trace' has no attribute '{name}'")
