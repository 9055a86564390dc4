"""What ``core.jit.script`` makes of a module, and ``jit.save``/``jit.load`` for it.

PyTorch compiles a scripted module to TorchScript; core runs it eagerly, but the object looks and behaves as
PyTorch's does: a ``RecursiveScriptModule`` (a ``ScriptModule``, a ``Module``) whose repr names each submodule's
``original_name``, whose parameters and buffers are the original's own tensors (the same objects, so training one
trains the other), whose ``state_dict`` has the original's keys, whose ``train``/``eval`` flags are its own, and
which indexes (``scripted[0]``) to the original's submodules, as PyTorch's does; ``freeze`` and
``optimize_for_inference`` give a frozen one (no parameters, run without gradients). ``save`` writes the original
module with ``core.save`` (a core file, not a TorchScript archive) and ``core.jit.load`` reads it back as a
scripted module. ``jit.trace`` of a module gives a ``TopLevelTracedModule`` made the same way, printed as PyTorch
prints one (each submodule under its class name: ``Linear(original_name=Linear)``).
"""

from __future__ import annotations

import contextlib
import functools
import io

from core.nn.module import Module


class ScriptModule(Module):
    """The base class of scripted modules (``torch.jit.ScriptModule``). A class that derives from it (with its
    methods under ``@jit.script_method``) scripts its submodules once the instance's own ``__init__`` has run, as
    PyTorch's ``ScriptMeta`` does: each becomes a ``RecursiveScriptModule`` of itself."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__module__ != __name__:  # a user's class, not RecursiveScriptModule
            cls.__init__ = _init_then_script(cls, cls.__init__)

    def save(self, f, **kwargs) -> None:
        save(self, f, **kwargs)


def _init_then_script(cls, init):
    @functools.wraps(init)
    def init_then_script(self, *args, **kwargs):
        init(self, *args, **kwargs)
        if type(self) is cls:  # the instance's own class: every __init__ up the chain has run
            modules = self.__dict__["_modules"]
            for name, module in modules.items():
                modules[name] = None if module is None else _scripted(module)
    return init_then_script


class _Compiled(ScriptModule):
    """A module standing for ``original`` (scripted or traced): its tensors and submodules (each wrapped the same
    way), its own training flags, run by ``original``."""

    def __init__(self, original: Module):
        super().__init__()
        d = self.__dict__
        d["_original"] = original
        d["original_name"] = type(original).__name__
        d["training"] = original.training
        d["_parameters"] = original._parameters  # shared: the same Parameter objects, as in PyTorch
        d["_buffers"] = original._buffers
        d["_non_persistent_buffers_set"] = original._non_persistent_buffers_set
        d["_modules"] = {name: None if m is None else self._wrap(m) for name, m in original._modules.items()}

    @classmethod
    def _wrap(cls, module: Module) -> ScriptModule:
        return module if isinstance(module, ScriptModule) else cls(module)

    def forward(self, *args, **kwargs):
        return self._run_original(self.__dict__["_original"], *args, **kwargs)

    def _run_original(self, fn, *args, **kwargs):
        """``fn`` (the original or one of its methods) called under the compiled modules' training flags. A scripted
        module called while ``jit.trace`` records keeps its control flow in PyTorch's trace, so the trace is not
        replayed (``note_untracked``: calls then run the Python code)."""
        if isinstance(self, RecursiveScriptModule):
            _note_scripted_call()
        # NOTE: a scripted module keeps its own training flags (eval() on it leaves the original's as they were),
        # so the original runs under the scripted ones and gets its own back afterwards
        pairs = [(m.__dict__["_original"], m.training) for m in self.modules() if isinstance(m, _Compiled)]
        saved = [(original, original.training) for original, _ in pairs]
        try:
            for original, mode in pairs:
                original.training = mode
            return fn(*args, **kwargs)
        except Exception as exc:
            if not isinstance(self, RecursiveScriptModule):
                raise
            raise _interpreter_error(exc) from exc
        finally:
            for original, mode in saved:
                original.training = mode

    def extra_repr(self) -> str:
        return f"original_name={self.original_name}"

    @property
    def code(self) -> str:
        """The original's ``forward`` source (PyTorch prints the TorchScript it compiled from it: the same
        statements, typed and normalised; a traced module's own ``code`` prints its recorded operations)."""
        return _source(type(self.__dict__["_original"]).forward)

    def __getattr__(self, name: str):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self.__dict__["_original"], name)  # the original's own attributes (sizes, flags)


def _source(fn) -> str:
    import inspect
    import textwrap

    try:
        return textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):  # (no source file: a function made by exec)
        return ""


def _note_scripted_call() -> None:
    from core.autograd.function import note_untracked
    from core.jit._trace import tracing

    if tracing():
        note_untracked("it calls scripted code, whose control flow a trace keeps")


_INTERPRETER = "The following operation failed in the TorchScript interpreter."


def _interpreter_error(exc: Exception) -> Exception:
    """The exception a scripted module's call raises where its code raised ``exc``, as TorchScript's interpreter
    rethrows: ``torch.jit.Error`` for the code's own ``raise`` and ``assert`` (raised outside core), a RuntimeError
    for an op's error, both with the interpreter's first line; NotImplementedError and an error a scripted
    submodule already rethrew pass as they are (e3nn's ``assert_auto_jitable`` expects one of the two on a bad
    input shape)."""
    from core.jit import Error

    if isinstance(exc, (NotImplementedError, Error)) or getattr(exc, "_torchscript_rethrown", False):
        return exc
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    in_core = tb is not None and tb.tb_frame.f_globals.get("__name__", "").partition(".")[0] == "core"
    name = type(exc).__name__
    if in_core:
        error: Exception = RuntimeError(f"{_INTERPRETER}\nRuntimeError: {exc}")
    else:
        error = Error(f"{_INTERPRETER}\nRuntimeError: {name}: {exc}")
    error._torchscript_rethrown = True  # type: ignore[attr-defined]
    return error


class RecursiveScriptModule(_Compiled):
    """A scripted module (``jit.script``); it indexes, iterates and sizes as its original does."""

    def __getitem__(self, index):
        return self.__dict__["_original"][index]

    def __len__(self) -> int:
        return len(self.__dict__["_original"])

    def __iter__(self):
        return iter(self.__dict__["_original"])


class TracedModule(_Compiled):
    """A submodule of a traced module (``jit.trace``): printed under its original's class name, as PyTorch's
    (``Linear(original_name=Linear)``)."""

    def _get_name(self) -> str:
        return self.original_name

    @classmethod
    def _wrap(cls, module: Module) -> ScriptModule:
        return module if isinstance(module, ScriptModule) else TracedModule(module)

    def forward(self, *args, **kwargs):
        with contextlib.redirect_stdout(io.StringIO()):  # a trace is its tensor operations: forward's prints are gone
            return super().forward(*args, **kwargs)

    def __getattr__(self, name: str):
        try:
            return Module.__getattr__(self, name)  # its parameters, buffers and submodules only
        except AttributeError:  # a trace keeps no Python attributes (sizes, flags); PyTorch's message
            raise AttributeError(f"'RecursiveScriptModule' object has no attribute '{name}'") from None


class TopLevelTracedModule(TracedModule):
    """What ``jit.trace(module, example_inputs)`` returns: a call replays the tensor operations recorded while the
    original's forward ran on the example inputs (``core.jit._trace``), under this module's training flags; its
    ``graph``, ``inlined_graph`` and ``code`` print them. Each method ``jit.trace_module`` traced besides ``forward``
    (open_clip's ``trace_model`` traces ``encode_image`` and ``encode_text``) is a ``ScriptMethod`` of it, run by the
    original's Python code with its prints silenced."""

    def forward(self, *args, **kwargs):
        tracer = self.__dict__.get("_tracer")
        return super().forward(*args, **kwargs) if tracer is None else tracer(*args, **kwargs)

    def __getstate__(self):
        """Without the recording (its calls hold op classes and the tracer a closure, which do not pickle): a traced
        module saved inside another module loads running its original, prints silenced."""
        state = super().__getstate__()
        state.pop("_tracer", None)
        return state

    def _rendered(self, index: int, inline: bool = False):
        from core.jit._trace import render

        original = self.__dict__["_original"]
        tracer = self.__dict__.get("_tracer")
        return render(tracer.first if tracer is not None else None, original.forward, original, inline)[index]

    @property
    def graph(self):
        """The recorded operations as PyTorch's IR, a submodule's call as a ``prim::CallMethod`` node."""
        from core.jit._trace import Graph

        return Graph(self._rendered(0))

    @property
    def inlined_graph(self):
        """The IR with the submodules' operations in place of their calls."""
        from core.jit._trace import Graph

        return Graph(self._rendered(0, inline=True))

    @property
    def code(self) -> str:
        """The recorded operations as PyTorch's code; the forward's source where the run could not be recorded (a
        scripted submodule's control flow: the tutorial's traced WrapRNN printed None)."""
        rendered = self._rendered(1)
        return rendered if rendered is not None else _source(type(self.__dict__["_original"]).forward)

    def __getattr__(self, name: str):
        if name in self.__dict__.get("_traced_methods", ()):
            return ScriptMethod(self, name)
        return super().__getattr__(name)


class ScriptMethod:
    """``torch.ScriptMethod``: a traced method of a traced module, its tensor operations only (its prints are gone)."""

    def __init__(self, owner: TopLevelTracedModule, name: str):
        self._owner, self.name = owner, name

    def __call__(self, *args, **kwargs):
        owner = self._owner
        method = getattr(owner.__dict__["_original"], self.name)
        with contextlib.redirect_stdout(io.StringIO()):
            return owner._run_original(method, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<torch.ScriptMethod object at {hex(id(self))}>"


class _Frozen(RecursiveScriptModule):
    """What ``jit.freeze`` makes of a scripted module in eval mode: PyTorch folds its parameters and submodules
    into the graph as constants, so it prints as ``RecursiveScriptModule(original_name=...)`` alone, has no
    parameters, buffers, state or ``training`` flag, and its outputs need no gradient unless an input does. core
    runs the scripted module (in eval mode) eagerly; it is the same class as PyTorch's."""

    def __init__(self, scripted: ScriptModule):
        Module.__init__(self)
        d = self.__dict__
        del d["training"]
        d["_scripted"] = scripted
        d["_original"] = scripted.__dict__.get("_original", scripted)
        d["original_name"] = scripted.__dict__.get("original_name", type(scripted).__name__)

    def forward(self, *args, **kwargs):
        import core

        inputs = [*args, *kwargs.values()]
        if any(isinstance(x, core.Tensor) and x.requires_grad for x in inputs):
            return self.__dict__["_scripted"](*args, **kwargs)
        with core.no_grad():
            return self.__dict__["_scripted"](*args, **kwargs)

    def __getattr__(self, name: str):
        raise AttributeError(f"'RecursiveScriptModule' object has no attribute '{name}'")

    __getitem__ = __len__ = __iter__ = None  # type: ignore[assignment]


_NEEDS_SCRIPT = ("{} expects a ScriptModule as input. Please use torch.jit.script or torch.jit.trace to script "
                 "your 'nn.Module'.")


def freeze(mod, preserved_attrs=None, optimize_numerics: bool = True) -> ScriptModule:
    """``torch.jit.freeze``: a scripted module in eval mode with its weights as constants (see ``_Frozen``)."""
    if not isinstance(mod, ScriptModule):
        raise RuntimeError(_NEEDS_SCRIPT.format("Freezing"))
    if mod.training:  # a frozen module has no flag: PyTorch's AttributeError
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. Please call .eval() on "
                           "your module before freezing.")
    return _Frozen(mod)


def optimize_for_inference(mod, other_methods=None) -> ScriptModule:
    """``torch.jit.optimize_for_inference``: ``freeze(mod.eval())`` (PyTorch's graph passes change no results)."""
    if not isinstance(mod, ScriptModule):
        raise RuntimeError(_NEEDS_SCRIPT.format("optimize_for_inference"))
    if "training" in mod.__dict__:
        mod = freeze(mod.eval(), preserved_attrs=other_methods)
    return mod


for _cls in (ScriptModule, RecursiveScriptModule, _Frozen):  # PyTorch's names in reprs and type()
    _cls.__module__ = "core.jit._script"
ScriptMethod.__module__ = "core"
for _cls in (TracedModule, TopLevelTracedModule):
    _cls.__module__ = "core.jit._trace"


def _scripted(module: Module) -> ScriptModule:
    return RecursiveScriptModule._wrap(module)


def script_module(module: Module) -> ScriptModule:
    """``core.jit.script(module)``."""
    return _scripted(module)


def trace_module(module: Module, methods=()) -> ScriptModule:
    """``core.jit.trace(module, example_inputs)``; ``methods``: the others ``jit.trace_module`` traced."""
    if isinstance(module, ScriptModule):
        return module
    traced = TopLevelTracedModule(module)
    traced.__dict__["_traced_methods"] = tuple(m for m in methods if m != "forward")
    return traced


class _FrozenFile:
    """What ``jit.save`` writes for a frozen module: its original, marked so that ``jit.load`` freezes it again."""

    def __init__(self, original: Module):
        self.original = original


def save(m, f, _extra_files=None) -> None:
    """``torch.jit.save``: the scripted module's original, written with ``core.save``."""
    import core  # lazy: core imports core.jit before its serialisation is ready

    saved_module = getattr(m, "saved_module", None)  # a traced function (jit._trace.TracedFunction)
    if saved_module is not None:
        m = _scripted(saved_module())
    if not isinstance(m, ScriptModule):
        raise AttributeError(f"'{type(m).__name__}' object has no attribute 'save'")
    original = m.__dict__.get("_original", m)
    core.save(_FrozenFile(original) if isinstance(m, _Frozen) else original, f)


def load(f, map_location=None, _extra_files=None, _restore_shapes=False) -> ScriptModule:
    """``torch.jit.load``: a module written by ``save``, scripted again (and frozen again if it was)."""
    import core

    loaded = core.load(f, map_location=map_location, weights_only=False)
    if isinstance(loaded, _FrozenFile):
        return _Frozen(_scripted(loaded.original).eval())
    return _untraced(_scripted(loaded))


def _untraced(module: Module) -> Module:
    """``module`` with each traced submodule saved inside it loaded as a scripted one, as PyTorch loads every
    submodule of a saved module as a ``RecursiveScriptModule``."""
    for m in list(module.modules()):
        children = m.__dict__["_modules"]
        for name, child in children.items():
            if isinstance(child, TracedModule):
                children[name] = _untraced(RecursiveScriptModule(child.__dict__["_original"]))
    return module


_Frozen.__name__ = _Frozen.__qualname__ = "RecursiveScriptModule"  # PyTorch's class: type(frozen) names it
