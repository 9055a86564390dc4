"""``torch.compiler.set_stance`` and ``is_compiling`` as in PyTorch (the set_stance recipe): the compiled branch of
``is_compiling()`` is the one a compiled function runs, ``"force_eager"`` (a call, a context manager, a decorator)
runs it as written, ``"eager_on_recompile"`` runs a new input shape eagerly, ``"fail_on_recompile"`` raises with the
guard that failed, and set_stance inside a compiled function is a forbidden call."""

from __future__ import annotations

import re

import pytest

import core


def _branchy(lib):
    lib._dynamo.reset()  # dynamo caches by code object: a shape seen in another test would make this one dynamic

    @lib.compile(backend="eager")
    def f(x):
        return x + 1 if lib.compiler.is_compiling() else x - 1

    return f


def _masked(text: str) -> str:
    return re.sub(r"0x[0-9a-f]+", "0x?", text)


def _outcome(fn):
    try:
        return "ok", fn()
    except Exception as e:  # the oracle compares what each library raises
        return type(e).__name__, _masked(str(e))


def test_is_compiling_is_false_outside_and_true_in_the_compiled_call(torch):
    for lib in (core, torch):
        f = _branchy(lib)
        assert not lib.compiler.is_compiling()
        assert f(lib.zeros(2)).tolist() == [1.0, 1.0] and f(lib.zeros(2)).tolist() == [1.0, 1.0]


def test_force_eager_as_call_context_and_decorator_runs_the_function_as_written(torch):
    def run(lib):
        f = _branchy(lib)
        x = lib.zeros(1)
        seen = [f(x).item()]

        @lib.compiler.set_stance("force_eager")
        def eager(y):
            return f(y)

        seen.append(f(x).item())  # defining the decorated function leaves the stance as it was
        seen.append(eager(x).item())
        with lib.compiler.set_stance("force_eager"):
            seen.append(f(x).item())
        seen.append(f(x).item())
        lib.compiler.set_stance("force_eager")
        seen.append(f(x).item())
        lib.compiler.set_stance("default")
        seen.append(f(x).item())
        return seen

    assert run(core) == run(torch) == [1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 1.0]


def test_eager_on_recompile_runs_new_shapes_eagerly_and_keeps_compiled_ones(torch):
    def run(lib):
        f = _branchy(lib)
        seen = [f(lib.zeros(3)).sum().item()]
        with lib.compiler.set_stance("eager_on_recompile"):
            seen += [f(lib.zeros(3)).sum().item(), f(lib.zeros(4)).sum().item(), f(lib.zeros(3)).sum().item()]
        return seen

    assert run(core) == run(torch) == [3.0, 3.0, -4.0, 3.0]


@pytest.mark.parametrize("second", ["rank", "dtype", "size_of_y", "not_a_tensor", "requires_grad", "same"])
def test_fail_on_recompile_raises_with_the_failed_guard(torch, second):
    def run(lib):
        lib._dynamo.reset()

        @lib.compile(backend="eager")
        def add(x, y):
            return x + y

        add(lib.zeros(3), lib.zeros(3))
        x, y = {"rank": (lib.zeros(3, 2), lib.zeros(3)), "dtype": (lib.zeros(3, dtype=lib.float64), lib.zeros(3)),
                "size_of_y": (lib.zeros(3), lib.zeros(4)), "not_a_tensor": (lib.zeros(3), 2),
                "requires_grad": (lib.zeros(3, requires_grad=True), lib.zeros(3)),
                "same": (lib.ones(3), lib.ones(3))}[second]
        with lib.compiler.set_stance("fail_on_recompile"):
            kind, value = _outcome(lambda: add(x, y))
        return kind, value if kind != "ok" else value.tolist()

    ours, theirs = run(core), run(torch)
    assert ours[0] == theirs[0]
    if ours[0] == "ok":
        assert ours[1] == theirs[1]
    else:  # the guard's line names the frame by dynamo's counters: compare what follows it
        assert ours[1].split(": ", 1)[0] == theirs[1].split(": ", 1)[0]
        assert ours[1].rpartition(": ")[2] == theirs[1].rpartition(": ")[2]
        assert ours[1].count("\n") == theirs[1].count("\n")


def test_set_stance_inside_a_compiled_function_is_a_forbidden_call(torch):
    def run(lib):
        @lib.compile(backend="eager")
        def baz(x):
            with lib.compiler.set_stance("force_eager"):
                return x + 1

        return _outcome(lambda: baz(lib.zeros(3)))

    ours, theirs = run(core), run(torch)
    assert ours[0] == theirs[0] == "AssertionError"
    assert ours[1] == theirs[1]  # the user frame's line and carets included


def test_calling_a_set_stance_decorated_function_from_a_compiled_one_is_forbidden(torch):
    def run(lib):
        @lib.compiler.set_stance("force_eager")
        def inner(x):
            return x + 1

        @lib.compile(backend="eager")
        def outer(x):
            return inner(x)

        return _outcome(lambda: outer(lib.zeros(3)))

    ours, theirs = run(core), run(torch)
    assert ours == theirs
    assert ours[1].startswith("Attempt to trace forbidden callable <function ")


def test_setting_an_unknown_stance_is_accepted_as_in_torch(torch):
    for lib in (core, torch):
        lib.compiler.set_stance("sometimes")
        lib.compiler.set_stance("default")
