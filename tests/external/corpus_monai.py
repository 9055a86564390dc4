"""Drivers for MONAI's own Python package (``recipes_monai.py``; our text).

A recipe fetches one of MONAI's test files, or one of its package modules with calls to the drivers here appended,
with the package beside it; the runner loads the package from the script's folder in both runs
(``runner._fetched_packages``). The drivers call MONAI as its tutorials and tests do, on seeded volumes, and print
each result at full precision: its shape, dtype, first values and sum, and its gradients where it trains.
"""

from __future__ import annotations


def run_tests(namespace, every=1):
    """The test file's ``unittest`` classes, each test's outcome printed (``corpus_labml.run_tests``)."""
    __import__("corpus_labml").run_tests(namespace, every)
