"""``core.jit``: TorchScript's entry points, so code that scripts, traces or compiles still runs.

``compile`` captures a function's ops on its first call and replays them after (``core.autograd.capture``).
``script`` makes a module a ``RecursiveScriptModule`` (``core._jit_script``: PyTorch's repr, the original's
tensors, ``save``; ``jit.save``/``jit.load`` write and read it) and a function a ``ScriptFunction``
(``core._jit_function``: a call checked against the function's schema, then run eagerly); ``trace`` makes a
module a ``TopLevelTracedModule`` the same way and returns a function itself (both run eagerly, with the same
results); the decorators
``ignore``, ``unused``, ``export`` and ``script_method`` return their function (a ``ScriptModule`` subclass scripts
its submodules when made); ``is_scripting`` and ``is_tracing`` are False.
"""

from __future__ import annotations

import sys

from core._jit_function import ScriptFunction, script_function, scriptable
from core.autograd.capture import CompiledFunction

__all__ = ["script", "ScriptFunction", "trace", "trace_module", "ignore", "unused", "export", "script_method",
           "is_scripting", "is_tracing", "compile"]  # and, from core._jit_script: save, load, ScriptModule, ...
_SCRIPT_NAMES = ("save", "load", "ScriptModule", "RecursiveScriptModule", "TracedModule", "TopLevelTracedModule")


def __getattr__(name: str):
    if name in _SCRIPT_NAMES:  # lazy: core._jit_script needs core.nn, which imports after core.jit
        from core import _jit_script

        return getattr(_jit_script, name)
    raise AttributeError(f"module 'core.jit' has no attribute '{name}'")


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    """A module as a ``RecursiveScriptModule`` (run eagerly by the original); a function as a ``ScriptFunction``;
    anything else (a class, a scripted function) itself."""
    from core.nn.module import Module

    if isinstance(obj, Module):
        from core._jit_script import script_module

        return script_module(obj)
    if not scriptable(obj):
        return obj
    return script_function(obj, sys._getframe(1 + _frames_up).f_locals)  # annotations may name the caller's locals


def trace(func, example_inputs=None, *args, **kwargs):
    """A module as a ``TopLevelTracedModule`` (run eagerly by the original: no graph is recorded); a function
    itself."""
    from core.nn.module import Module

    if isinstance(func, Module):
        from core._jit_script import trace_module as traced

        return traced(func)
    return func


def trace_module(mod, inputs, *args, **kwargs):
    return trace(mod)


def ignore(drop=False, **kwargs):
    """``@jit.ignore`` or ``@jit.ignore(drop=True)``: the function unchanged."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def script_method(fn):
    """``@jit.script_method`` on a ``ScriptModule`` subclass's method: the method itself, run eagerly."""
    return fn


def is_scripting() -> bool:
    return False


def is_tracing() -> bool:
    return False


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
            disable=False):  # torch.compile's name
    """``torch.compile``: the function or module, captured on its first call and replayed after
    (``core.autograd.capture``); also as ``@compile`` or ``@compile(...)``.

    The other arguments are accepted for PyTorch's signature; ``disable=True`` returns ``model`` unchanged.
    """
    if model is None:
        return lambda fn: compile(fn, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                  options=options, disable=disable)
    if not callable(model):
        raise RuntimeError("torch.compile() expected a callable or an nn.Module")
    if disable:
        return model
    from core._dynamo.eval_frame import OptimizedModule  # lazy: core.nn imports after core.jit
    from core.nn.module import Module

    if isinstance(model, Module):  # a module stays a module, as PyTorch's OptimizedModule
        return OptimizedModule(model)
    return CompiledFunction(model)
