"""Hypothesis profiles: ``HYPOTHESIS_PROFILE`` picks one, and the profile decides how deep every property test goes.

- ``nodegrad`` (the default): 40 examples where a test names no number, and a test's own number as it gives it;
- ``ci`` (``.ci/run``): ``nodegrad`` with the same examples every run (derandomized, no example database);
- ``deep``: ten times every number (400 examples where a test names none), for a developer's run that looks for
  new escapes: ``HYPOTHESIS_PROFILE=deep pytest tests/nodegraph -k fuzz``.

A test that needs its own number (a slow fuzzer takes fewer examples, a cheap one more) asks ``fuzz_settings`` for
its settings rather than ``hypothesis.settings``: the number it gives is the one it runs under ``nodegrad`` and
``ci``, scaled by the loaded profile's depth (its ``max_examples`` over ``BASE``). An explicit
``settings(max_examples=...)`` would win over every profile, so no profile could deepen that test.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings

__all__ = ["BASE", "DEEP", "depth", "fuzz_settings", "load"]

BASE = 40  # the default profile's examples: a profile's depth is its max_examples over this
DEEP = 10  # the deep profile's depth


# Property tests: enough examples to find shape bugs, few enough to keep the suite fast on 2 cores. NOTE: each
# profile names its parent: without one Hypothesis starts from the profile loaded at the time (ci's derandomize)
settings.register_profile("nodegrad", parent=settings.get_profile("default"), max_examples=BASE, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
# CI: the same examples every run, so a green run on a clean clone is the run CI makes; a developer's runs draw new
# examples (the fuzz tests in tests/nodegraph find new escapes that way)
settings.register_profile("ci", parent=settings.get_profile("nodegrad"), derandomize=True, database=None)
settings.register_profile("deep", parent=settings.get_profile("nodegrad"), max_examples=BASE * DEEP)


def load(name: str) -> None:
    """Load profile ``name`` (an unknown name raises Hypothesis's InvalidArgument)."""
    settings.load_profile(name)


def depth() -> float:
    """How many times its own number of examples a test draws under the loaded profile."""
    return settings.default.max_examples / BASE


def fuzz_settings(max_examples: int, **kwargs: Any) -> settings:
    """``hypothesis.settings(max_examples=..., **kwargs)`` with the number scaled by the loaded profile's depth:
    ``max_examples`` under ``nodegrad`` and ``ci``, ten times it under ``deep``."""
    return settings(max_examples=max(1, round(max_examples * depth())), **kwargs)
