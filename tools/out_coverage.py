"""List the torch functions that take ``out=`` and core's that don't (#19): run ``python tools/out_coverage.py``.

A function counts when ``torch.ops.aten.<name>`` has an out overload (``.out``, ``.values``, ``.Tensor_out``...)
and torch's own function takes ``out`` (a call with a sample argument and ``out=`` gets past the argument parser;
where no sample reaches it, its testing-overrides signature or its docstring says so). Core's function takes it when
its signature has ``out`` (or ``**kwargs``). ``core.ops.out_arg.OUT_FUNCTIONS`` grew from this list; what it prints
is what is still left.
"""

from __future__ import annotations

import inspect
import re
import warnings

import torch

import core

_SAMPLES = (lambda: (torch.rand(3, 3),), lambda: (torch.rand(3, 3), 0), lambda: (torch.rand(3, 3), torch.rand(3, 3)),
            lambda: (torch.randint(0, 3, (3,)),), lambda: ((3,),), lambda: ((3, 3), (0, 1)))


def _has_out_overload(name: str) -> bool:
    try:
        overloads = getattr(torch.ops.aten, name).overloads()
    except (AttributeError, RuntimeError):
        return False
    return any("out" in o or o.startswith("values") for o in overloads)  # (sort.values, searchsorted.Tensor_out)


def _core_takes_out(fn) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True  # a builtin: not known, not listed
    return any(p.name == "out" or p.kind is p.VAR_KEYWORD for p in params)


def _torch_takes_out(fn, overrides: dict) -> bool:
    """A sample call decides where one reaches the parser's verdict; the signature and docstring otherwise."""
    for sample in _SAMPLES:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn(*sample(), out=torch.empty(0))
            return True
        except TypeError as e:
            if "unexpected keyword argument 'out'" in str(e):
                return False
            if "Tensor out" in str(e) or "Tensors out" in str(e):
                return True
            if "invalid combination" in str(e):  # the overloads it lists take no out
                return False
        except Exception:  # past the parser: out was taken
            return True
    lam = overrides.get(fn)
    if lam is not None and "out" in inspect.signature(lam).parameters:
        return True
    return bool(re.search(r"\bout=None|out \(Tensor|out \(tuple", fn.__doc__ or ""))


def missing_out() -> list[str]:
    """The names of torch's functions that take out= where core's does not (or core lacks the function)."""
    overrides = torch.overrides.get_testing_overrides()
    names = []
    for name in sorted(dir(torch)):
        fn = getattr(torch, name)
        if name.startswith("_") or not callable(fn) or isinstance(fn, type) or not _has_out_overload(name):
            continue
        ours = getattr(core, name, None)
        if ours is not None and _core_takes_out(ours):
            continue
        if _torch_takes_out(fn, overrides):
            names.append(name if ours is not None else f"{name} (not in core)")
    return names


if __name__ == "__main__":
    left = missing_out()
    print(f"{len(left)} torch functions take out= where core's does not:")
    print("\n".join(left))
