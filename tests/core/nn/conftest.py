"""Helpers for the nn tests: a marker for tests that need a core op another family has not merged yet."""

import pytest

import core


def needs(*names):
    """xfail (not skip) while one of the core ops the test relies on is missing; runs normally once merged."""
    missing = [n for n in names if not hasattr(core, n)]
    return pytest.mark.xfail(bool(missing), reason=f"core.{', core.'.join(missing)} not merged into core yet",
                             strict=False)


def require(*names):
    """Inside a parametrized test: xfail now when one of the core ops it needs is not merged yet."""
    missing = [n for n in names if not hasattr(core, n)]
    if missing:
        pytest.xfail(f"core.{', core.'.join(missing)} not merged into core yet")
