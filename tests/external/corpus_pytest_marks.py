"""pytest's marks read the way pytest reads them, for the drivers that run a library's own test modules as scripts.

PyG's, Stable-Baselines3's and Ignite's test functions carry ``parametrize``/``skip``/``skipif`` marks; their drivers
(``corpus_pyg``, ``corpus_sb3``, ``corpus_ignite``) call each function once per case pytest would generate, in
pytest's order, and print a label per case. The expansion lives here once so the three drivers agree with pytest and
with each other.
"""

from __future__ import annotations

import inspect
import itertools


def _is_param_set(value) -> bool:
    """Whether ``value`` is a ``pytest.param(...)`` (checked by name: the drivers run without importing pytest)."""
    return type(value).__name__ == "ParameterSet"


def held(marks) -> bool:
    """Whether a ``skip``, or a ``skipif`` whose condition holds, is among ``marks``."""
    return any(m.name == "skipif" and m.args and m.args[0] for m in marks) or any(m.name == "skip" for m in marks)


def skip_reason(fn) -> str | None:
    """The reason pytest would skip ``fn`` (a ``skip``, or a ``skipif`` that holds), or None."""
    marks = getattr(fn, "pytestmark", [])
    if not held(marks):
        return None
    return next(m.kwargs.get("reason", "skipped") for m in marks
                if m.name == "skip" or (m.name == "skipif" and m.args and m.args[0]))


def parametrize_grids(fn) -> list[list[dict]]:
    """One grid per ``parametrize`` mark on ``fn`` (a list of ``{argname: value}`` rows), nearest decorator last so
    that the product varies as pytest's ids do; ``pytest.param`` rows whose own skip holds are left out, as pytest
    leaves them out."""
    grids = []
    for mark in reversed(getattr(fn, "pytestmark", [])):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = [tuple(v.values) if _is_param_set(v) else tuple(v) if len(names) > 1 else (v,)
                for v in values if not (_is_param_set(v) and held(v.marks))]
        grids.append([dict(zip(names, row)) for row in rows])
    return grids


def product(grids) -> list[dict]:
    """Every combination of one row per grid, merged (``[{}]`` for no grids: the function runs once)."""
    return [dict(kw for part in combo for kw in part.items()) for combo in itertools.product(*grids)] or [{}]


def required_args(fn, given=()) -> list[str]:
    """``fn``'s parameters without a default that ``given`` does not supply (pytest fills them from fixtures)."""
    return [p.name for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty and p.name not in given]


def argument_label(value) -> str:
    """A test argument as its repr, a function or class by its name (their reprs hold addresses), inside tuples,
    lists and dicts too."""
    if isinstance(value, (tuple, list)):
        inner = ", ".join(argument_label(v) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {argument_label(v)}" for k, v in value.items()) + "}"
    return getattr(value, "__name__", None) or repr(value) if callable(value) else repr(value)


def case_label(name, kwargs) -> str:
    """``name[k=v, ...]`` as the drivers print a case (just ``name`` when it takes no arguments)."""
    return name + (f"[{', '.join(f'{k}={argument_label(v)}' for k, v in kwargs)}]" if kwargs else "")
