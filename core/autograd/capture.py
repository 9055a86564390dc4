"""Step capture for ``core.compile``: record a function's primitive calls once, then replay them.

The first call with a new key (the shapes, dtypes, devices and ``requires_grad`` of the tensor arguments,
the other arguments, and grad mode) runs the function eagerly while ``Function.apply`` reports every
top-level primitive call to a ``Recorder``. The recorded calls become a ``Plan``: later calls with the same
key run each primitive's ``forward`` on the new arrays, in the recorded order, without the Python code
around them and without building a new autograd graph. The outputs get one ``grad_fn``,
``CompiledFunctionBackward`` (PyTorch's name for a compiled region), whose backward runs the recorded
nodes' own ``backward`` functions in the order the engine ran them, so gradients are equal value for value
to the eager ones, and hands the leaves' gradients to the engine, which accumulates them into ``.grad`` as
for any graph. Optimizers are not captured: ``optimizer.step()`` runs as it always does.

This is what CUDA graphs and tinygrad's JIT do, at the level of core's primitives. As for them, a replay
assumes the Python code does the same thing every call. The capture is refused (the function then always
runs eagerly, and ``CompiledFunction.reason`` says why) when it sees what a replay would get wrong: Python
reading a tensor's value (``item``, ``bool``, ``tolist``, ``numpy``), random numbers drawn outside an op, a
backward pass inside the function, an op that raised, hooks on the recorded graph, forward-mode AD, or a
tensor that aliases an intermediate without an op (``detach``, ``.data``). Python numbers and tensors made
from Python data inside the function are fixed at capture, as are modules' ``training`` flags; call
``core.compile`` again after changing what the function does.
"""

from __future__ import annotations

from core import _random
from core.autograd import function as _function
from core.autograd import grad_mode
from core.autograd import shortcuts as _shortcuts
from core.autograd.capture_plan import NotReplayable, Plan, tensors_in, unshell

__all__ = ["CompiledFunction", "Plan", "capture", "record"]

_MAX_PLANS = 8  # keys kept per compiled function (e.g. the training batch and a smaller last batch)

# torch.compiler.set_stance's current stance (core.compiler sets it): "default" captures and replays;
# "force_eager" runs every compiled function as written; "eager_on_recompile" and "fail_on_recompile" run a call
# that would need a new capture eagerly, or raise, once the function has one; other names act as "default".
stance = ["default"]


def capturing() -> bool:
    """True while a compiled function's first call runs to be recorded (``torch.compiler.is_compiling()``)."""
    return _function._capture_state.recorder is not None


class Recorder:
    """Collects the top-level ``Function.apply`` calls of one eager run, and anything that forbids a replay."""

    def __init__(self, on_value_read=None, on_enter=None):
        self.calls: list = []
        self._on_value_read = on_value_read  # (``record``: a value read stays a constant of the calls)
        self._on_enter = on_enter  # (``record``: shown each top-level call's arguments before it runs)
        self.reason: str | None = None
        self._stack: list = []
        self._rng = _rng_state()
        self._versions: dict = {}  # id(version counter) -> (counter, its value after the last recorded op)

    def enter(self, ctx, args, kwargs) -> None:
        if not self._stack and self._on_enter is not None:
            self._on_enter(args, kwargs, self.calls)
        if not self._stack and self.reason is None:
            if not _same_rng(self._rng, _rng_state()):
                self.reason = "it draws random numbers outside an op"
            elif not self._versions_kept((args, kwargs)):
                self.reason = "it changes a tensor in place outside an op"
        self._stack.append(ctx)

    def leave(self, cls, ctx, args, kwargs, outs) -> None:
        stack = self._stack
        while stack and stack.pop() is not ctx:  # an op inside this one raised and was caught
            pass
        if not stack:
            self.calls.append((cls, ctx, args, kwargs, outs))
            self._rng = _rng_state()
            versions = self._versions
            for t in tensors_in((args, kwargs, outs)):
                versions[id(t._vc)] = (t._vc, t._vc[0])

    def _versions_kept(self, obj) -> bool:
        """No tensor among ``obj`` changed since the last recorded op that used it (versions are shared by
        views, so they are tracked per version counter)."""
        versions = self._versions
        for t in tensors_in(obj):
            seen = versions.get(id(t._vc))
            if seen is not None and seen[0][0] != seen[1]:
                return False
        return True

    def value_read(self) -> None:
        if self._on_value_read is None:
            self.untracked("it reads a tensor's value in Python (item, bool, tolist or numpy)")
        elif not self._stack:
            self._on_value_read()

    def untracked(self, what: str) -> None:
        if not self._stack and self.reason is None:
            self.reason = what

    def finish(self) -> None:
        if self._stack and self.reason is None:
            self.reason = "an op raised inside it"
        if self.reason is None and any(c[0] != v for c, v in self._versions.values()):
            self.reason = "it changes a tensor in place outside an op"
        if self.reason is None and not _same_rng(self._rng, _rng_state()):
            self.reason = "it draws random numbers outside an op"


def _rng_state():
    g = _random.default_generator
    return g._words.copy(), g.next_double_normal, g.next_float_normal


def _same_rng(a, b) -> bool:
    return a[1:] == b[1:] and bool((a[0] == b[0]).all())


def capture(fn, args: tuple, kwargs: dict):
    """Run ``fn(*args, **kwargs)`` eagerly while recording it: ``(result, Plan or None, reason)``."""
    state = _function._capture_state
    if grad_mode._state.inference:  # its results must be inference tensors, which a replay doesn't make
        return fn(*args, **kwargs), None, "inference mode is on"
    if state.recorder is not None:  # a compiled function inside another one's capture: just run it
        return fn(*args, **kwargs), None, "it ran inside another capture"
    if _function._dual_state.token is not None:
        return fn(*args, **kwargs), None, "forward-mode AD is active"
    inputs = [_stand_in(a) if isinstance(a, _function._TENSOR) else a for a in args]
    recorder = Recorder()
    result = _run_recorded(fn, inputs, kwargs, recorder)
    reason = recorder.reason
    plan = None
    if reason is None:
        try:
            plan = Plan(recorder.calls, inputs, result, _named_tensors(fn))
        except NotReplayable as exc:
            reason = str(exc)
    if plan is not None and grad_mode._state.enabled:
        plan.adopt(result, args)
    return unshell(result, inputs, args), plan, reason


def record(fn, args: tuple, kwargs: dict, on_value_read, on_enter=None):
    """Run ``fn(*args, **kwargs)`` eagerly while recording its top-level primitive calls, for ``jit.trace``:
    ``(result, calls, reason)``, ``reason`` None when the calls replay the run. Unlike ``capture``, Python reading
    a tensor's value (a branch on it, ``item``) does not refuse the recording: ``on_value_read()`` is told and the
    value stays what it was, as in a PyTorch trace; ``on_enter(args, kwargs, calls)``, if given, sees each top-level
    call's arguments before it runs (``calls``: those recorded so far). Nothing stands in for the arguments: the
    calls name them."""
    state = _function._capture_state
    if grad_mode._state.inference or state.recorder is not None or _function._dual_state.token is not None:
        return fn(*args, **kwargs), [], "inference mode, forward-mode AD or another capture is active"
    recorder = Recorder(on_value_read, on_enter)
    result = _run_recorded(fn, args, kwargs, recorder)
    return result, recorder.calls, recorder.reason


def _run_recorded(fn, args, kwargs: dict, recorder):
    """``fn(*args, **kwargs)`` with ``recorder`` seeing its calls (``capture`` and ``record`` share this)."""
    state = _function._capture_state
    state.recorder = recorder
    _shortcuts.block()  # every op goes through Function.apply, where the recorder sees it
    try:
        result = fn(*args, **kwargs)
    finally:
        _shortcuts.unblock()
        state.recorder = None
    recorder.finish()
    return result


def _named_tensors(fn) -> set:
    """The ids of the tensors ``fn`` can name without making them: a module's parameters and buffers, the tensors
    (and modules' tensors) among a function's globals and closure. A compiled graph lists them as inputs."""
    Tensor = _function._TENSOR
    owner = getattr(fn, "__self__", fn)
    found: list = [owner]
    code = getattr(fn, "__func__", fn)
    found += list(getattr(code, "__globals__", {}).values())
    found += [c.cell_contents for c in getattr(code, "__closure__", None) or () if _filled(c)]
    ids: set = set()
    for value in found:
        if isinstance(value, Tensor):
            ids.add(id(value))
        elif not isinstance(value, type) and callable(getattr(value, "named_buffers", None)) \
                and callable(getattr(value, "parameters", None)):  # (a module: duck-typed, core.nn is above us)
            ids.update(id(t) for t in value.parameters())
            ids.update(id(t) for _, t in value.named_buffers())
    return ids


def _filled(cell) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:  # (an empty cell)
        return False
    return True


def _stand_in(t):
    """A tensor argument's stand-in during capture; a replay points it at the new call's arrays.

    One that requires grad is a view made by an op before recording starts, so the first (eager) call's
    graph reaches the caller's tensor, and the plan knows where the argument's gradient leaves.
    """
    if t._requires_grad:
        with grad_mode.enable_grad():
            return t.view_as(t)
    return t._alias(t._data, base=False)  # same storage and version counter, no history


class CompiledFunction:
    """``core.compile(fn)``: calls ``fn`` through captured plans, one per key; see the module docstring."""

    def __init__(self, fn):
        self._fn = fn
        self._plans: dict = {}
        self.reason: str | None = None  # why the last capture was refused (its key then runs eagerly)
        self.captures = 0
        self.replays = 0
        self._frame_id = None  # dynamo's frame id: compiled functions numbered in the order they first capture
        self._arg_log: list = []  # each capture's arguments, as its guards see them
        self.__wrapped__ = fn
        self.__doc__ = getattr(fn, "__doc__", None)
        modules = getattr(fn, "modules", None)  # NOTE: looked up once: a failed getattr costs ~0.5 µs a call
        self._modules = modules if callable(modules) else None

    @property
    def captured(self) -> bool:
        """True when the last call's key has a plan that replays."""
        return self._last is not None

    _last = None

    def __call__(self, *args, **kwargs):
        if stance[0] == "force_eager":
            return self._fn(*args, **kwargs)
        key = _key(self._modules, args, kwargs)
        if key is None:
            self._last = None
            self.reason = "its arguments are not tensors and plain Python values"
            return self._fn(*args, **kwargs)
        plan = self._plans.get(key, _MISSING)
        if plan is _MISSING or (plan is not None and not plan.matches()):
            if self._plans and stance[0] == "eager_on_recompile":
                return self._fn(*args, **kwargs)
            if self._plans and stance[0] == "fail_on_recompile":
                raise RuntimeError(self._recompile_message(args))
            if self._frame_id is None:
                self._frame_id = next(_FRAME_IDS)
            self._arg_log = [*self._arg_log[1 - _MAX_PLANS:],
                             tuple(_TensorGuard(a) if isinstance(a, _function._TENSOR) else a for a in args)]
            result, plan, self.reason = capture(self._fn, args, kwargs)
            self.captures += 1
            if len(self._plans) >= _MAX_PLANS:
                self._plans.pop(next(iter(self._plans)))
            self._plans[key] = self._last = plan
            return result
        self._last = plan
        if plan is None or plan.busy():
            return self._fn(*args, **kwargs)
        self.replays += 1
        return plan.replay(args)

    def _recompile_message(self, args) -> str:
        """PyTorch's error, with the guard that failed against the latest capture where core can name it."""
        fn = getattr(self._fn, "forward", self._fn)
        code = getattr(fn, "__code__", None)
        where = (f" filename: '{code.co_filename}', function name: '{code.co_name}', line number: "
                 f"{code.co_firstlineno}") if code is not None else ""
        text = f"Detected recompile when torch.compile stance is 'fail_on_recompile'.{where}"
        failure = _guard_failure(fn, self._arg_log[-1], args) if self._arg_log else None
        if failure is not None:
            index = self.captures - 1  # the latest capture's compile id in this frame
            text += f"\n    triggered by the following guard failure(s):\n    - {self._frame_id}/{index}: {failure}"
        return text

    def __getattr__(self, name):  # a compiled module still answers as the module (parameters(), train(), ...)
        if name == "_fn":
            raise AttributeError(name)
        return getattr(self._fn, name)


_MISSING = object()
_FRAME_IDS = __import__("itertools").count()


class _TensorGuard:
    """What dynamo's guards check of a tensor argument: rank, dtype, sizes, requires_grad."""

    def __init__(self, t):
        self.shape, self.dtype, self.requires_grad = tuple(t.shape), t.dtype, t.requires_grad


_DTYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long",
                "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
                "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _guard_failure(fn, before, args):
    """The first of dynamo's guard-failure lines for ``args`` against a capture's, or None when core can't say."""
    import inspect

    try:
        names = [p.name for p in inspect.signature(fn).parameters.values()]
    except (TypeError, ValueError):
        return None
    Tensor = _function._TENSOR
    for name, old, new in zip(names, before, args):
        if not isinstance(old, _TensorGuard):
            continue
        if not isinstance(new, Tensor):
            return f"expected type of '{name}' to be a tensor type, ' but found {type(new)}"
        if len(old.shape) != new.dim():
            return f"tensor '{name}' rank mismatch. expected {len(old.shape)}, actual {new.dim()}"
        if old.dtype != new.dtype:
            shown = [_DTYPE_NAMES.get(str(d).rpartition(".")[2], str(d)) for d in (old.dtype, new.dtype)]
            return f"tensor '{name}' dtype mismatch. expected {shown[0]}, actual {shown[1]}"
        if old.requires_grad != new.requires_grad:
            return f"tensor '{name}' requires_grad mismatch. expected requires_grad={int(old.requires_grad)}"
        for i, (a, b) in enumerate(zip(old.shape, new.shape)):
            if a != b:
                return f"tensor '{name}' size mismatch at index {i}. expected {a}, actual {b}"
    return None
_PLAIN = (int, float, bool, str, type(None))


def _key(modules, args, kwargs):
    """What a plan depends on besides the code (None: arguments a plan can't key on).

    The tensor arguments' shapes, dtypes, array types and ``requires_grad``, the other arguments' values,
    grad mode, inference mode, and for a module (``modules``: its ``modules`` method, else None) the ``training``
    flags of its modules.
    """
    Tensor = _function._TENSOR or _function._tensor_cls()
    parts: list = [grad_mode._state.enabled, grad_mode._state.inference]
    for a in args:
        if isinstance(a, Tensor):
            data = a._data
            parts.append((data.shape, data.dtype, type(data), a._requires_grad))  # (dtype.str makes a string)
        elif isinstance(a, _PLAIN):
            parts.append((type(a), a))
        else:
            return None
    for k, v in kwargs.items():
        if not isinstance(v, _PLAIN):
            return None
        parts.append((k, type(v), v))
    if modules is not None:
        parts.append(tuple(m.training for m in modules()))
    return tuple(parts)
