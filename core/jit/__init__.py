"""``core.jit``: TorchScript's entry points, so code that scripts, traces or compiles still runs.

``compile`` captures a function's ops on its first call and replays them after (``core.autograd.capture``).
``script`` makes a module a ``RecursiveScriptModule`` (``core._jit_script``: PyTorch's repr, the original's
tensors, ``save``; ``jit.save``/``jit.load`` write and read it) and a function a ``ScriptFunction``
(``core._jit_function``: a call checked against the function's schema, then run eagerly); ``trace`` makes a
module a ``TopLevelTracedModule`` the same way and a function a ``ScriptFunction``, both replaying the tensor
operations recorded while the Python code ran on the example inputs (``core.jit._trace``); ``freeze`` and
``optimize_for_inference`` give a frozen scripted module (no parameters, no gradients); the decorators
``ignore``, ``unused``, ``export`` and ``script_method`` return their function (a ``ScriptModule`` subclass scripts
its submodules when made); ``is_scripting`` is False, ``is_tracing`` True while ``trace`` records. The type hints
eager code carries for the compiler are PyTorch's pass-throughs: ``annotate(type, value)`` is ``value``,
``Attribute(value, type)`` a named pair and ``Final`` is ``typing.Final``.
"""

from __future__ import annotations

import functools as _functools
import sys as _sys
import warnings
from typing import Final
from typing import NamedTuple as _NamedTuple

from core._jit_function import ScriptFunction
from core._jit_function import script_function as _script_function
from core._jit_function import scriptable as _scriptable
from core.autograd.capture import CompiledFunction as _CompiledFunction

__all__ = ["script", "ScriptFunction", "trace", "trace_module", "ignore", "unused", "export", "script_method",
           "is_scripting", "is_tracing", "annotate", "Attribute", "Final", "fork", "wait",
           "script_if_tracing"]
# and, from core._jit_script: save, load, ScriptModule, ...
_SCRIPT_NAMES = ("save", "load", "ScriptModule", "RecursiveScriptModule", "TracedModule", "TopLevelTracedModule",
                 "freeze", "optimize_for_inference")


class Error(Exception):
    """``torch.jit.Error`` (torch's ``JITException``): what TorchScript raises for a ``raise`` or ``assert`` in scripted
    code. core's scripted code runs eagerly and raises the Python exception itself, but libraries name the class in
    ``except`` clauses (e3nn's ``assert_auto_jitable`` catches ``(torch.jit.Error, RuntimeError)``)."""


class TracerWarning(Warning):
    """What PyTorch's tracer warns about code a trace cannot follow (a Python branch on a tensor's value, ``item``);
    core's trace warns the same (``core.jit._trace``), and libraries filter the category (Pyro's
    ``ignore_jit_warnings``)."""

    @staticmethod
    def ignore_lib_warnings():
        """Ignores the category from the library's modules other than the tracer's own, as PyTorch does at import."""
        warnings.filterwarnings("ignore", category=TracerWarning, module="torch.(?!jit)")
        warnings.filterwarnings("ignore", "torch::jit::fuser::cuda")


def __getattr__(name: str):
    if name in _SCRIPT_NAMES:  # lazy: core._jit_script needs core.nn, which imports after core.jit
        from core import _jit_script

        return getattr(_jit_script, name)
    if name == "isinstance":  # (a module-level def would hide the builtin from this module's code)
        from core.jit._isinstance import jit_isinstance

        return jit_isinstance
    if name == "interface":
        from core.jit._interface import interface

        return interface
    if name == "_recursive":  # (torch.jit imports it at once)
        import importlib

        return importlib.import_module("core.jit._recursive")
    raise AttributeError(f"module 'core.jit' has no attribute '{name}'")


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """A module as a ``RecursiveScriptModule`` (run eagerly by the original); a function as a ``ScriptFunction``;
    anything else (a class, a scripted function) itself."""
    from core.nn.module import Module

    if isinstance(obj, Module):
        from core._jit_script import script_module

        return script_module(_prepare_scriptable(obj, {}))
    if not _scriptable(obj):
        return obj
    return _script_function(obj, _sys._getframe(1 + _frames_up).f_locals)  # annotations may name the caller's locals


def _prepare_scriptable(module, memo: dict):
    """The module after each ``__prepare_scriptable__`` hook in its tree ran, as ``torch.jit.script`` runs them first
    (torchaudio's wav2vec 2.0 removes its positional convolution's weight norm there); a hook may return another
    module, which then stands in its parent's ``_modules``."""
    from core._jit_script import ScriptModule
    from core.nn.module import Module

    if not isinstance(module, Module):
        return module
    key = id(module)
    if key in memo:
        return memo[key]
    hook = getattr(module, "__prepare_scriptable__", None)
    module = hook() if hook is not None else module
    memo[key] = module
    for name, value in list(module.__dict__.items()):
        if name == "_modules":
            for child_name, child in value.items():
                value[child_name] = _prepare_scriptable(child, memo)
        elif isinstance(value, Module) and not isinstance(value, ScriptModule):
            _prepare_scriptable(value, memo)  # (PyTorch prepares it but keeps the attribute as it was)
    return module


def trace(func, example_inputs=None, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-5,
          strict=True, _force_outplace=False, _module_class=None, _compilation_unit=None, example_kwarg_inputs=None,
          _store_inputs=True):
    """A module as a ``TopLevelTracedModule``, a function as a ``ScriptFunction``, each replaying the tensor
    operations its Python code ran on the example inputs (``core.jit._trace``): the Python code runs here, as
    often as PyTorch's tracer and checker run it (three times, once without ``check_trace``), its prints shown and
    its reads of tensor values warned about (``TracerWarning``); later calls run the recorded operations."""
    from core.jit._trace import TracedFunction, Tracer
    from core.nn.module import Module

    args, kwargs = _examples(example_inputs, example_kwarg_inputs)
    if isinstance(func, Module):
        from core._jit_script import TopLevelTracedModule
        from core._jit_script import trace_module as traced

        module = traced(func)
        if not isinstance(module, TopLevelTracedModule):  # a scripted module traces as itself
            _trace_runs(Tracer(func), args, kwargs, check_trace, check_tolerance, strict)
            return module
        tracer = Tracer(lambda *a, **k: module._run_original(func, *a, **k), module.modules, root=func)
        _trace_runs(tracer, args, kwargs, check_trace, check_tolerance, strict)
        module.__dict__["_tracer"] = tracer
        return module
    tracer = Tracer(func)
    _trace_runs(tracer, args, kwargs, check_trace, check_tolerance, strict)
    return TracedFunction(func, tracer)


def _examples(example_inputs, example_kwarg_inputs) -> tuple:
    """``(args, kwargs)`` as PyTorch's tracer takes them: a tensor or a dict is the one argument, another iterable
    the arguments; anything but tensors in (nested) tuples, lists and dicts can't be traced."""
    import core

    if example_inputs is None and example_kwarg_inputs is None:
        raise TypeError("'NoneType' object is not iterable")  # torch's, from flattening the missing inputs
    if example_inputs is None:
        return (), dict(example_kwarg_inputs)
    if isinstance(example_inputs, (core.Tensor, dict)):
        args = (example_inputs,)
    else:
        args = example_inputs if isinstance(example_inputs, tuple) else tuple(example_inputs)
    if not _traceable(args):
        raise RuntimeError(f"Type '{_type_name(args)}' cannot be traced. Only Tensors and (possibly nested) Lists, "
                           f"Dicts, and Tuples of Tensors can be traced")
    return args, dict(example_kwarg_inputs or {})


def _traceable(value) -> bool:
    import core

    if isinstance(value, (tuple, list)):
        return all(_traceable(v) for v in value)
    if isinstance(value, dict):
        return all(_traceable(v) for v in value.values())
    return isinstance(value, core.Tensor)


def _type_name(value) -> str:
    """TorchScript's name of a value's type (``Tuple[Tensor, int]``)."""
    import core

    if isinstance(value, core.Tensor):
        return "Tensor"
    if isinstance(value, tuple):
        return f"Tuple[{', '.join(_type_name(v) for v in value)}]"
    if isinstance(value, list):
        return f"List[{_type_name(value[0]) if value else 'Tensor'}]"
    if isinstance(value, dict):
        key, item = next(iter(value.items()), ("", None))
        return f"Dict[{_type_name(key)}, {_type_name(item) if value else 'Tensor'}]"
    return {bool: "bool", int: "int", float: "float", str: "str", type(None): "NoneType"}.get(type(value),
                                                                                         type(value).__name__)


def _trace_runs(tracer, args, kwargs, check_trace: bool, check_tolerance: float, strict: bool) -> None:
    """The trace, then PyTorch's checks of it (``Tracer.check``)."""
    from core.jit._trace import check_output

    check_output(tracer.record(args, kwargs, warn=True), strict)
    if check_trace:
        tracer.check(args, kwargs, check_tolerance)


def trace_module(mod, inputs, optimize=None, check_trace=True, check_inputs=None, check_tolerance=1e-5, *args,
                 **kwargs):
    """``torch.jit.trace_module(mod, {"forward": example_inputs})``: each method run on its inputs, as ``trace``
    runs it (core's traced methods then run the module's Python code, prints silenced)."""
    from core.jit._trace import Tracer

    for name, example in inputs.items():
        _trace_runs(Tracer(getattr(mod, name)), *_examples(example, None), check_trace, check_tolerance, True)
    from core._jit_script import trace_module as traced

    return traced(mod, tuple(inputs))


def ignore(drop=False, **kwargs):
    """``@jit.ignore`` or ``@jit.ignore(drop=True)``: the function unchanged."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def _script_if_tracing(fn):
    """``fn`` compiled when called under ``jit.trace`` and run as it is otherwise (torchvision's box and image helpers
    are wrapped with it). Core's trace runs the code eagerly, so the wrapper calls ``fn``."""
    @_functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    wrapper.__original_fn = fn  # type: ignore[attr-defined]
    wrapper.__script_if_tracing_wrapper = True  # type: ignore[attr-defined]
    return wrapper


def script_if_tracing(fn):
    """``torch.jit.script_if_tracing``: ``fn`` as it is outside a trace (see ``_script_if_tracing``)."""
    return _script_if_tracing(fn)


def fork(func, *args, **kwargs):
    """``torch.jit.fork``: outside TorchScript PyTorch runs ``func`` at once (its exception raises from ``fork``)
    and hands back a completed ``torch.Future`` of the result, which ``wait`` returns."""
    warnings.warn("`torch.jit.fork` is deprecated. Please use `torch.compile` instead.", DeprecationWarning,
                  stacklevel=2)
    from core.futures import _Future

    future = _Future()
    future.set_result(func(*args, **kwargs))
    return future


def wait(future):
    """``torch.jit.wait``: the result of a ``fork``'s future (its exception, if it holds one)."""
    warnings.warn("`torch.jit.wait` is deprecated. Please use `torch.compile` instead.", DeprecationWarning,
                  stacklevel=2)
    return future.wait()


def _overload(fn):
    """``@jit._overload``: a TorchScript overload's signature; eagerly the later definition of the name is the one
    that runs, so the function is returned as it is."""
    return fn


def _overload_method(fn):
    """``@jit._overload_method``: a method's TorchScript overload (torchvision's DenseNet layer declares its
    ``forward`` for a tensor and for a list of them); eagerly the method defined after them is the one that runs."""
    return fn


def script_method(fn):
    """``@jit.script_method`` on a ``ScriptModule`` subclass's method: the method itself, run eagerly."""
    return fn


def annotate(the_type, the_value):
    """The compiler's type hint for ``the_value`` (``jit.annotate(List[Tensor], [])``): eagerly, the value itself."""
    return the_value


class Attribute(_NamedTuple):
    """A module attribute's value with its TorchScript type, ``Attribute(value=0, type=<class 'int'>)``."""

    __module__ = "core.jit._script"  # PyTorch's module (its printed class, a pickle's lookup)
    value: object
    type: object


def is_scripting() -> bool:
    return False


def is_tracing() -> bool:
    """True while ``trace`` runs the Python code to record it."""
    from core.jit._trace import tracing

    return tracing()


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
            disable=False):  # torch.compile's name
    """``torch.compile``: the function or module, captured on its first call and replayed after
    (``core.autograd.capture``); also as ``@compile`` or ``@compile(...)``.

    The other arguments are accepted for PyTorch's signature; ``disable=True`` returns ``model`` unchanged.
    """
    if model is None:
        return lambda fn: _compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                  options=options, disable=disable)
    if not callable(model):
        raise RuntimeError("torch.compile() expected a callable or an nn.Module")
    if disable:
        return model
    from core._dynamo.eval_frame import OptimizedModule  # lazy: core.nn imports after core.jit
    from core.nn.module import Module

    if isinstance(model, Module):  # a module stays a module, as PyTorch's OptimizedModule
        return OptimizedModule(model)
    return _CompiledFunction(model)


_compile = compile  # core.compile (torch.jit has no compile: the name is bound privately here)
del compile
