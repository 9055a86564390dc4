"""What MONAI's package and its own tests import and is not here, for ``recipes_monai.py``'s scripts (our text).

- ``monai._version``: the repository's file is versioneer's, which runs ``git describe`` in the package's folder (a
  script's folder inside this repository); a released wheel's ``_version.py`` holds the version instead, as this
  does (MONAI 1.5.0 at its tag's commit).
- ``parameterized``: MONAI's unit tests generate their test methods with ``parameterized.expand``. This is its
  behaviour as the tests use it: one method per case in the class body, named ``test_x_0``, ``test_x_1_name`` (the
  case's first argument when it is a string, made an identifier), the case's arguments appended to the call; the
  decorated name itself is removed from the class.

Everything else MONAI imports optionally (nibabel, scipy, scikit-image, einops, ignite, Pillow...) stays absent in
both runs: ``optional_import`` finds none of them, and MONAI takes its pure-PyTorch paths.
"""

from __future__ import annotations

import functools
import inspect
import re
import types

MONAI_COMMIT = "d388d1c6fec8cb3a0eebee5b5a0b9776ca59ca83"


class param:
    """One case's positional and keyword arguments."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs

    @classmethod
    def from_decorator(cls, case):
        if isinstance(case, param):
            return case
        if isinstance(case, str):
            case = (case,)
        return cls(*case)


def _name(func, num, case):
    suffix = f"_{num}"
    if case.args and isinstance(case.args[0], str):
        suffix += "_" + re.sub("[^a-zA-Z0-9_]+", "_", case.args[0])
    return func.__name__ + suffix


class parameterized:
    """``parameterized.expand(cases)`` as MONAI's tests use it (see the module's docstring)."""

    @classmethod
    def expand(cls, cases, name_func=None, doc_func=None, skip_on_empty=False, **_):
        def decorate(func):
            namespace = inspect.currentframe().f_back.f_locals
            found = [param.from_decorator(case) for case in (cases() if callable(cases) else cases)]
            if not found and not skip_on_empty:
                raise ValueError("Parameters iterable is empty")
            digits = len(str(len(found) - 1))
            for num, case in enumerate(found):
                name = (name_func or _name)(func, f"{num:0>{digits}}", case)

                def standalone(*args, _case=case, **kwargs):
                    return func(*args, *_case.args, **_case.kwargs, **kwargs)

                namespace[name] = functools.wraps(func)(standalone)
                del namespace[name].__wrapped__  # (so the test loader's signature checks see the method's own)
            func.__test__ = False

        return decorate


def _module(name, **attributes):
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def modules() -> dict:
    """The stand-in modules by name."""
    version = {"version": "1.5.0", "full-revisionid": MONAI_COMMIT, "dirty": False, "error": None, "date": None}
    return {
        "monai._version": _module("monai._version", get_versions=lambda: dict(version)),
        "parameterized": _module("parameterized", parameterized=parameterized, param=param),
    }
