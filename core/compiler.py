"""``torch.compiler``: the calls model code makes around ``torch.compile``.

core's ``compile`` captures and replays ops (``core.autograd.capture``): ``is_compiling()`` is True while a
compiled function's first call runs to be recorded (as dynamo traces with it True, so the branch it takes is the
one replayed), the decorators that mark code for dynamo return the function itself, and ``set_stance`` sets
PyTorch's stances (a call, a context manager, a decorator): ``"force_eager"`` runs compiled functions as written,
``"eager_on_recompile"`` runs a call that would need a new capture eagerly and ``"fail_on_recompile"`` raises.
A region marked ``disable`` inside a compiled function is recorded like any other code:
its ops replay with the same values, and whatever it does that a replay cannot repeat (``item()``, a random draw
outside an op) makes that call run eagerly, as dynamo's graph break would.
"""

import functools as _functools
import sys as _sys
import traceback as _traceback

from core.autograd import capture as _capture
from core.jit import _compile as compile

__all__ = ["compile", "is_compiling", "is_dynamo_compiling", "is_exporting", "reset", "disable", "allow_in_graph",
           "assume_constant_result", "cudagraph_mark_step_begin", "set_stance", "list_backends",
           "get_default_backend", "wrap_numpy"]


def is_compiling() -> bool:
    return _capture.capturing()


def is_dynamo_compiling() -> bool:
    return _capture.capturing()


def is_exporting() -> bool:
    return False


def reset() -> None:
    """Nothing to clear: each compiled function keeps its own captures."""


def disable(fn=None, recursive: bool = True, *, reason=None):
    """``@torch.compiler.disable`` (with or without arguments): the function, run as written."""
    if fn is None:
        return lambda f: f
    return fn


def allow_in_graph(fn):
    return fn


def assume_constant_result(fn):
    return fn


def wrap_numpy(fn):
    """Outside a compiled region PyTorch's wrapper calls ``fn`` as is; so does core's everywhere."""
    return fn


def cudagraph_mark_step_begin() -> None:
    """No CUDA graphs to mark."""


class set_stance:
    """``torch.compiler.set_stance("force_eager")`` as PyTorch's: called, it sets the stance at once; as a context
    manager it restores the previous one on exit; as a decorator the function runs under it (and defining it leaves
    the stance as it was). Inside a compiled function's capture it is forbidden, as dynamo forbids tracing it."""

    def __init__(self, stance: str = "default", *, skip_guard_eval_unsafe: bool = False, force_backend=None):
        if _capture.capturing():
            raise _forbidden(f"<function set_stance at {id(set_stance):#x}>", _sys._getframe(1))
        self.stance = stance
        self.prev = _capture.stance[0]
        _capture.stance[0] = stance

    def __call__(self, fn):
        _capture.stance[0] = self.prev
        stance = self.stance

        @_functools.wraps(fn)
        def run(*args, **kwargs):
            if _capture.capturing():
                raise _forbidden(repr(run), _sys._getframe(1))
            before = _capture.stance[0]
            _capture.stance[0] = stance
            try:
                return fn(*args, **kwargs)
            finally:
                _capture.stance[0] = before

        return run

    def __enter__(self):
        _capture.stance[0] = self.stance
        return self

    def __exit__(self, *exc) -> bool:
        _capture.stance[0] = self.prev
        return False


def _forbidden(callable_repr: str, frame) -> Exception:
    """Dynamo's error for a call it may not trace (an AssertionError in PyTorch 2.13), with the user frame that made
    it: its source line and carets."""
    code = frame.f_code
    positions = list(code.co_positions())[frame.f_lasti // 2] if hasattr(code, "co_positions") else (None,) * 4
    line, _, col, end_col = positions  # (dynamo's summary has no end line: 3.11 then underlines one more column
    summary = _traceback.FrameSummary(code.co_filename, line or frame.f_lineno, code.co_name, lookup_line=False,
                                     colno=col, end_colno=end_col)  # when the statement goes on after the call)
    return AssertionError(f"Attempt to trace forbidden callable {callable_repr}\n\nfrom user code:\n "
                           + "".join(_traceback.format_list([summary]))
                           + "\nSet TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if "
                           "you're reporting a bug to PyTorch). For even more developer context, set "
                           'TORCH_LOGS="+dynamo"\n')


def list_backends(exclude_tags=("debug", "experimental")) -> list:
    """The one backend name core's ``compile`` answers to (its capture)."""
    return ["inductor"]


def get_default_backend() -> str:
    return "inductor"
