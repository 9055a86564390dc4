"""HYPOTHESIS_PROFILE governs how deep the property tests go, including those that give their own number."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests import hypothesis_profiles
from tests.hypothesis_profiles import fuzz_settings

TESTS = Path(__file__).parent


def test_a_tests_own_number_is_its_number_by_default_and_ten_times_it_under_the_deep_profile():
    loaded = os.environ.get("HYPOTHESIS_PROFILE", "nodegrad")
    try:
        for name, factor in (("nodegrad", 1), ("ci", 1), ("deep", hypothesis_profiles.DEEP)):
            hypothesis_profiles.load(name)
            assert fuzz_settings(max_examples=30).max_examples == 30 * factor
            assert settings().max_examples == hypothesis_profiles.BASE * factor  # a test that names no number
        assert settings().derandomize is False and settings.get_profile("ci").derandomize is True
    finally:
        hypothesis_profiles.load(loaded)


def test_the_profile_still_sets_what_a_test_does_not_give():
    hypothesis_profiles.load("ci")
    try:
        assert fuzz_settings(max_examples=5, deadline=None).derandomize is True
    finally:
        hypothesis_profiles.load(os.environ.get("HYPOTHESIS_PROFILE", "nodegrad"))


def test_a_decorated_test_draws_the_number_fuzz_settings_gives():
    drawn = []

    @fuzz_settings(max_examples=7, database=None)
    @given(st.integers())
    def draws(i):
        drawn.append(i)

    draws()
    assert 1 <= len(drawn) <= round(7 * hypothesis_profiles.depth())


def test_no_nodegraph_test_fixes_its_number_of_examples_past_the_profile():
    fixed = [f"{p.name}:{i}" for p in sorted((TESTS / "nodegraph").glob("*.py"))
             for i, line in enumerate(p.read_text().splitlines(), 1)
             if re.search(r"(?<![\w.])settings\([^)]*max_examples", line)]
    assert not fixed, f"use tests.hypothesis_profiles.fuzz_settings so HYPOTHESIS_PROFILE can deepen them: {fixed}"
