"""Run a snippet of PyTorch-style code and record what it computed: the recorder behind code import.

``trace(source)`` runs the snippet in this process with ``import torch`` resolved to ``core`` (as
``--export-py --api core`` scripts import it) and returns a ``Trace``: every op the snippet called, in the
order it ran, with its arguments, result and line; the tensors the ops consumed without computing them
(leaves, with their values at first use); the snippet's variable names; the tensor ``backward()`` was
called on; and a recognised training loop. ``core.nodegraph.files.code_import`` runs this in a subprocess with
a time and memory limit; nothing here is run when a graph file is opened.

How calls are recorded: while the snippet runs, the public op functions (``core.*``, ``core.nn.functional``,
``core.linalg``, ``core.special``, the Tensor method table; see ``code_ops``) are replaced by wrappers that
know their registry name. A wrapper records a call only when the chain of callers up to the snippet's
top level is the snippet's own code or ``nn.Module`` forwards (so ``model(x)`` records the ops of the
module's forward, while ops inside other ops, optimizers, ``gradcheck`` or ``backward`` are not recorded).
A ``gradcheck(fn, inputs, ...)`` call the snippet makes is recorded as one call whose ``extra`` holds what
``code_gradcheck`` read from the snippet's text (the checked function as a formula).
This is used instead of the autograd profiler's ``Function.apply`` hook because that hook sees primitives
after composites have decomposed (``mse_loss`` would arrive as sub, pow, mean), misses factories and
non-differentiable ops, and cannot tell the snippet's calls from core's own; and instead of tracing code
objects because many ops share one code object (the unary ops are built by one factory).

Names come from the snippet's frames: a trace function scans the local variables of the snippet's
frames on every line and on return, and names each tensor after the first variable that held it. The same
trace function enforces ``time_limit`` and ``cancel``.

An in-place op the recorder does not record (under ``torch.no_grad``, or on ``w.data``) that changes a tensor the
graph holds (or one sharing its storage) is written to the trace as a ``CHANGED`` call holding the new values: the
builder gives the ops after it a new node with those values, so ``w -= lr * w.grad`` then ``w * 2`` reads the
updated ``w`` as the snippet did.

A training loop (``zero_grad`` / forward / loss / ``backward`` / ``step``) is recognised at the first
``optimizer.step()`` called from the snippet: the ops recorded up to it are the loop's body, traced once;
later ops are not recorded, and the number of ``step()`` calls becomes the training's steps.

Compiling the snippet, its ``import torch`` and turning what it raised into a ``SnippetError`` live in
``code_snippet`` (``SnippetError``, ``compile_snippet`` and ``SNIPPET_FILE`` stay importable from here).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import io
import os
import sys
import threading
import time
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import core
from core.nodegraph.model import code_gradcheck, code_ops
from core.nodegraph.model.code_patch import patched
from core.nodegraph.model.code_snippet import SNIPPET_FILE, SnippetError, Stop, compile_snippet, failure, torch_import

__all__ = ["CHANGED", "SNIPPET_FILE", "Call", "Leaf", "TrainingLoop", "Trace", "SnippetError", "compile_snippet",
           "trace"]

_NN_DIR = os.path.dirname(core.nn.__file__)
_OPTIM_DIR = os.path.dirname(core.optim.__file__)
_MODULE_FRAMES = ("forward", "_conv_forward", "_call_impl", "wrapped_call_impl", "wrap_call", "__call__")
# NOTE: x.T, x.mT, x.H and x.mH are properties, not ops: their permute/transpose/conj are the snippet's calls (x.T
# was recorded as a constant leaf, so 'x @ x.T' lost x's gradient through the transpose: x.grad half of torch's)
_PROPERTY_CODES: dict[type, frozenset] = {}  # the getters' codes (and, with dispatch on, its property's frames)


def _property_codes() -> frozenset:
    """With dispatch on each is a dispatching property whose ``undispatched`` is the plain one: the same getter
    runs, called through the dispatching property's ``__get__`` and ``read``."""
    kind = type(vars(core.Tensor)["T"])
    if kind not in _PROPERTY_CODES:
        props = [vars(core.Tensor)[name] for name in ("T", "mT", "H", "mH")]
        codes = {getattr(p, "undispatched", p).fget.__code__ for p in props}
        if kind is not property:
            codes |= {code for f in (getattr(kind, "__get__", None), getattr(kind, "read", None))
                      if (code := getattr(f, "__code__", None)) is not None}
        _PROPERTY_CODES[kind] = frozenset(codes)
    return _PROPERTY_CODES[kind]


_IN_PLACE_DUNDERS = {"__setitem__", "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
                     "__ipow__"}

Fn = Callable[..., Any]  # an op, method or hook the recorder wraps
Tracer = Callable[[types.FrameType, str, Any], Any]  # what sys.settrace takes (returns the local tracer or None)


CHANGED = "@changed"  # a Call's name: its tensor (args[0]) was changed outside the graph; result: its new values


def _unchanged(t: core.Tensor) -> core.Tensor:
    """The ``fn`` of a ``CHANGED`` call (never run: the builder reads its result)."""
    return t


@dataclass
class Call:
    """One recorded op: its registry name, function, arguments, result, line and grad mode."""

    name: str
    fn: Fn
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    result: Any
    line: int | None
    extra: dict[str, Any] = field(default_factory=dict)  # what the snippet's text says of a gradcheck (code_gradcheck)


@dataclass
class Leaf:
    """A tensor an op consumed that no recorded op computed: its values at first use."""

    tensor: core.Tensor
    value: core.Tensor
    line: int | None
    parameter: bool = False


@dataclass
class TrainingLoop:
    """A recognised training loop: the optimizer, its settings, the trained tensors and the number of steps."""

    optimizer: str
    settings: dict[str, Any]
    params: list[core.Tensor]
    steps: int = 0
    line: int | None = None
    zero_grad: bool = False
    span: tuple[int, int] | None = None  # (first, last) line of the loop statement around the first step()


@dataclass
class Trace:
    calls: list[Call] = field(default_factory=list)
    leaves: dict[int, Leaf] = field(default_factory=dict)  # id(tensor) -> Leaf
    names: dict[int, str] = field(default_factory=dict)  # id(tensor) -> variable name
    lines: dict[int, int | None] = field(default_factory=dict)  # id(tensor) -> line that bound it first
    # (id(tensor), line) -> a later variable bound to it on that line
    rebound: dict[tuple[int, int | None], str] = field(default_factory=dict)
    modules: dict[int, tuple[str, core.nn.Module]] = field(default_factory=dict)  # id(module) -> (variable, module)
    loss: Any = None
    loss_line: int | None = None
    training: TrainingLoop | None = None
    notes: list[str] = field(default_factory=list)
    output: str = ""
    keep: dict[int, object] = field(default_factory=dict)  # id -> object: keeps every id above alive (never reused)


def _is_inplace(name: str) -> bool:
    attr = name.rsplit(".", 1)[-1]
    return attr in _IN_PLACE_DUNDERS or (attr.endswith("_") and not attr.endswith("__"))


class Recorder:
    """One snippet's run being recorded: the ``Trace`` it fills, the wrappers ``code_patch.patched`` puts on core's ops
    and hooks, and the trace function that names tensors and enforces the time limit."""

    def __init__(self, filename: str, deadline: float | None, cancel: threading.Event | None, source: str = ""):
        self.filename, self.deadline, self.cancel, self.source = filename, deadline, cancel, source
        self.trace = Trace()
        self.produced: set[int] = set()  # ids of tensors a recorded op returned
        self.busy = False
        self.frozen = False
        self.zeroed = False  # the snippet called an optimizer's zero_grad() before the first step()
        self.no_grad_lines: list[int | None] = []
        self.prev_line: dict[types.FrameType, int] = {}
        self.bound: set[tuple[str, int]] = set()  # (variable, id(tensor)) pairs seen by scan
        self.top_modules: set[int] = set()  # ids of modules named by a top-level variable of the snippet
        self.storages: dict[int, list[int]] = {}  # storage address -> ids of the held tensors on it

    # ----- which calls are the snippet's ---------------------------------------------------------------
    def user_chain(self, frame: types.FrameType | None) -> bool:
        """The caller chain up to the snippet's top level is snippet code, nn.Module forwards or the Tensor's
        transpose properties."""
        properties = _property_codes()
        while frame is not None:
            code = frame.f_code
            if code.co_filename == self.filename:
                if code.co_name == "<module>":
                    return True
            elif not (code.co_filename.startswith(_NN_DIR) and code.co_name in _MODULE_FRAMES
                      or code in properties):
                return False
            frame = frame.f_back
        return False

    def line_of(self, frame: types.FrameType | None) -> int | None:
        while frame is not None:
            if frame.f_code.co_filename == self.filename:
                return frame.f_lineno
            frame = frame.f_back
        return None

    def hold(self, obj: object) -> None:
        self.trace.keep[id(obj)] = obj
        if isinstance(obj, core.Tensor):  # kept alive, so no other storage takes its address
            self.storages.setdefault(obj.untyped_storage().data_ptr(), []).append(id(obj))

    # ----- recording -------------------------------------------------------------------------------------
    def wrap(self, name: str, fn: Fn) -> Fn:
        rec = self

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if rec.busy or rec.frozen or not rec.user_chain(sys._getframe(1)):
                return fn(*args, **kwargs)
            line = rec.line_of(sys._getframe(1))
            if not core.is_grad_enabled() or rec.initialises(name, args):
                if not core.is_grad_enabled() and line not in rec.no_grad_lines:
                    rec.no_grad_lines.append(line)
                result = rec.quiet(fn, args, kwargs)
                if _is_inplace(name) and args and isinstance(args[0], core.Tensor):
                    rec.changed_outside(args[0], line)
                return result
            rec.capture_leaves((args, kwargs), line)
            result = rec.quiet(fn, args, kwargs)
            rec.record(Call(name, fn, args, kwargs, result, line))
            return result
        return wrapper

    def quiet(self, fn: Fn, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Call ``fn`` with recording off (its own inner calls are not the snippet's)."""
        self.busy = True
        try:
            return fn(*args, **kwargs)
        finally:
            self.busy = False

    def initialises(self, name: str, args: tuple[Any, ...]) -> bool:
        """An in-place op on a tensor nothing has used yet (``w.uniform_()``, ``p.copy_(...)``): part of making it."""
        if not _is_inplace(name) or not args or not isinstance(args[0], core.Tensor):
            return False
        return id(args[0]) not in self.produced and id(args[0]) not in self.trace.leaves

    def capture_leaves(self, value: object, line: int | None) -> None:
        for t in code_ops.tensors_in(value):
            if id(t) not in self.produced and id(t) not in self.trace.leaves:
                self.hold(t)
                self.trace.leaves[id(t)] = Leaf(t, t.detach().clone(), self.trace.lines.get(id(t), line),
                                                isinstance(t, core.nn.Parameter))

    def record(self, call: Call) -> None:
        outs = self.outputs(call)
        if not outs or not code_ops.tensors_in((call.args, call.kwargs)):
            return  # a factory or a query (x.item(), x.size()): the result is a leaf or a Python value
        ins = code_ops.tensors_in((call.args, call.kwargs))
        if not _is_inplace(call.name) and len(outs) == 1 and any(outs[0] is t for t in ins):
            return  # x.to('cpu'), x.contiguous() of a contiguous x: the same tensor
        for t in outs:
            self.hold(t)
            self.produced.add(id(t))
            self.trace.lines.setdefault(id(t), call.line)
        self.trace.calls.append(call)

    def changed_outside(self, t: core.Tensor, line: int | None) -> None:
        """An in-place op the graph does not record (under ``torch.no_grad``, or on ``w.data``) changed ``t``: every
        tensor the graph holds that shares its storage gets a ``CHANGED`` call with its new values, so later ops
        read those (``w -= lr * w.grad`` then ``w * 2``), not the values the graph had for it."""
        for tid in dict.fromkeys(self.storages.get(t.untyped_storage().data_ptr(), ())):
            held = self.trace.keep[tid]
            if isinstance(held, core.Tensor) and (tid in self.produced or tid in self.trace.leaves):
                self.trace.calls.append(Call(CHANGED, _unchanged, (held,), {}, held.detach().clone(), line))

    @staticmethod
    def outputs(call: Call) -> list[core.Tensor]:
        result = call.result
        if result is None and _is_inplace(call.name) and call.args and isinstance(call.args[0], core.Tensor):
            return [call.args[0]]  # x[0] = 1.0 returns None; the node's output is x
        if isinstance(result, core.Tensor):
            return [result]
        if isinstance(result, (tuple, list)) and result and all(isinstance(t, core.Tensor) for t in result):
            return list(result)
        return []

    # ----- backward and optimizers -------------------------------------------------------------------------
    def wrap_backward(self, fn: Fn) -> Fn:
        rec = self

        @functools.wraps(fn)
        def backward(tensor: core.Tensor, *args: Any, **kwargs: Any) -> Any:
            if not rec.frozen and not rec.busy and rec.user_chain(sys._getframe(1)):
                rec.trace.loss, rec.trace.loss_line = tensor, rec.line_of(sys._getframe(1))
                rec.hold(tensor)
            return rec.quiet(fn, (tensor,) + args, kwargs)
        return backward

    def wrap_step(self, fn: Fn) -> Fn:
        rec = self

        @functools.wraps(fn)
        def step(opt: core.optim.Optimizer, *args: Any, **kwargs: Any) -> Any:
            caller = _outside_optim(sys._getframe(1))  # past the step-hook wrapper an optimizer's class gets
            if rec.busy or not rec.user_chain(caller):
                return fn(opt, *args, **kwargs)
            loop = rec.trace.training
            if loop is None:
                loop = rec.trace.training = _loop_of(opt, rec.line_of(caller))
                loop.zero_grad = rec.zeroed
                rec.frozen = True
            if loop.optimizer == type(opt).__name__:
                loop.steps += 1
            return rec.quiet(fn, (opt,) + args, kwargs)
        return step

    def wrap_gradcheck(self, fn: Fn) -> Fn:
        rec = self

        @functools.wraps(fn)
        def gradcheck(*args: Any, **kwargs: Any) -> Any:
            if rec.busy or rec.frozen or not rec.user_chain(sys._getframe(1)):
                return fn(*args, **kwargs)
            line = rec.line_of(sys._getframe(1))
            rec.capture_leaves((args, kwargs), line)
            result = rec.quiet(fn, args, kwargs)  # the function's ops run inside gradcheck: not recorded
            extra = code_gradcheck.read_call(rec.source, rec.filename, fn, args, kwargs, line)
            rec.trace.calls.append(Call("autograd.gradcheck", fn, args, kwargs, result, line, extra))
            return result
        return gradcheck

    def wrap_zero_grad(self, fn: Fn) -> Fn:
        rec = self

        @functools.wraps(fn)
        def zero_grad(opt: core.optim.Optimizer, *args: Any, **kwargs: Any) -> Any:
            if not rec.frozen and rec.user_chain(sys._getframe(1)):
                rec.zeroed = True
            return rec.quiet(fn, (opt,) + args, kwargs)
        return zero_grad

    # ----- names, time limit, cancel -----------------------------------------------------------------------
    def scan(self, frame: types.FrameType, line: int) -> None:
        if self.frozen or self.busy:  # busy: a snippet function called by an op (gradcheck's lambda) names nothing
            return
        top = frame.f_code.co_name == "<module>"
        for name, value in list(frame.f_locals.items()):
            if name.startswith("_"):
                continue
            if isinstance(value, core.Tensor):
                if id(value) not in self.trace.names:
                    self.hold(value)
                    self.trace.names[id(value)] = name
                    self.trace.lines.setdefault(id(value), line)
                elif (name, id(value)) not in self.bound and self.trace.names[id(value)] != name:
                    self.trace.rebound.setdefault((id(value), line), name)  # bump = e.add_(one): names the result
                self.bound.add((name, id(value)))
            elif isinstance(value, core.nn.Module) and (id(value) not in self.trace.modules or (
                    top and id(value) not in self.top_modules)):
                # the snippet's own name for a module (model) over the 'self' of its __init__, seen first
                self.trace.modules[id(value)] = (name, value)
                if top:
                    self.top_modules.add(id(value))

    def check_time(self) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise Stop("cancelled")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Stop("stopped: the snippet ran longer than its time limit")

    def global_trace(self, frame: types.FrameType, event: str, arg: Any) -> Tracer | None:
        if frame.f_code.co_filename != self.filename:
            return None
        return self.local_trace

    def local_trace(self, frame: types.FrameType, event: str, arg: Any) -> Tracer:
        if event == "line":
            self.check_time()
            self.scan(frame, self.prev_line.get(frame, frame.f_lineno))
            self.prev_line[frame] = frame.f_lineno
        elif event == "return":
            self.scan(frame, self.prev_line.pop(frame, frame.f_lineno))
        return self.local_trace


def _loop_of(opt: core.optim.Optimizer, line: int | None) -> TrainingLoop:
    """The optimizer's class, its settings that differ from the class's defaults (and lr), its tensors."""
    import inspect

    group = opt.param_groups[0] if opt.param_groups else {}
    defaults = {k: p.default for k, p in inspect.signature(type(opt).__init__).parameters.items()
                if p.default is not inspect.Parameter.empty}
    settings: dict[str, Any] = {}
    for key, value in group.items():
        if key == "params" or not isinstance(value, (int, float, bool, tuple)):
            continue
        if key == "lr" or defaults.get(key, object()) != value:
            settings[key] = list(value) if isinstance(value, tuple) else value
    params = [p for g in opt.param_groups for p in g["params"]]
    return TrainingLoop(type(opt).__name__, settings, params, 0, line)


def _outside_optim(frame: types.FrameType | None) -> types.FrameType | None:
    """The first frame up from ``frame`` outside ``core.optim``: who called an optimizer's ``step``."""
    while frame is not None and frame.f_code.co_filename.startswith(_OPTIM_DIR):
        frame = frame.f_back
    return frame


def control_flow_notes(source: str, loop: TrainingLoop | None) -> list[str]:
    """Notes for the snippet's if/for/while statements: traced as the path that ran (one loop: the training), and
    for code after the training loop (not recorded); sets ``loop.span`` to the lines of the loop statement around
    the first ``step()``."""
    notes: list[str] = []
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return notes
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.For, ast.While)):
            end = getattr(node, "end_lineno", node.lineno)
            if loop is not None and loop.line is not None and isinstance(node, (ast.For, ast.While)) \
                    and node.lineno <= loop.line <= end:
                if loop.span is None or node.lineno > loop.span[0]:
                    loop.span = (node.lineno, end)
                notes.append(f"line {node.lineno}: the training loop was traced once; its optimizer, learning "
                             "rate and steps are the graph's training settings")
                continue
            kind = {ast.If: "if", ast.For: "for loop", ast.While: "while loop"}[type(node)]
            notes.append(f"line {node.lineno}: {kind} traced as the path that ran")
    after = [n.lineno for n in tree.body if loop is not None and loop.span and n.lineno > loop.span[1]]
    if after:  # recording stops at the loop's first step(): an evaluation or a check after it shows nowhere
        notes.append(f"line {after[0]}: the code from here on ran after the training loop and is not in the graph "
                     "(it holds the loop's first pass)")
    return sorted(notes, key=lambda n: int(n.split(":")[0][5:]))


def trace(source: str, filename: str = SNIPPET_FILE, time_limit: float | None = None,
          cancel: threading.Event | None = None) -> Trace:
    """Run ``source`` and record it (see the module docstring); SnippetError names the snippet's line."""
    code = compile_snippet(source, filename)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    rec = Recorder(filename, deadline, cancel, source)
    env = {"__name__": "__main__", "__builtins__": {**vars(builtins), "__import__": torch_import}}
    out = io.StringIO()
    previous, limit = sys.gettrace(), sys.getrecursionlimit()
    try:
        with patched(rec), contextlib.redirect_stdout(out):
            sys.settrace(rec.global_trace)
            try:
                exec(code, env)  # running the user's own code is what import means (explicit action)
            finally:
                sys.settrace(previous)
                sys.setrecursionlimit(limit)  # a snippet's sys.setrecursionlimit(10) broke building its graph
    except (Exception, Stop, SystemExit, KeyboardInterrupt, GeneratorExit) as exc:
        error = failure(exc, filename)
        if error is not None:
            raise error from None
    rec.trace.output = out.getvalue()
    loop = rec.trace.training
    rec.trace.notes.extend(control_flow_notes(source, loop))
    for line in rec.no_grad_lines:
        rec.trace.notes.append(f"line {line}: ops run without gradient (torch.no_grad) are not in the graph; "
                               "their results are kept as values")
    return rec.trace
