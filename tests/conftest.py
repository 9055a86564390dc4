"""Shared test fixtures: the PyTorch oracle (skips with a reason without torch) and devices."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import core
from tests import hypothesis_profiles

# Property tests: the profile HYPOTHESIS_PROFILE names governs how many examples each draws (nodegrad by default,
# ci in .ci/run, deep for ten times as many): tests/hypothesis_profiles.py
hypothesis_profiles.load(os.environ.get("HYPOTHESIS_PROFILE", "nodegrad"))

try:
    import torch as _torch
except ImportError:  # the oracle tests skip visibly
    _torch = None

DEVICES = ["cpu"] + (["cuda"] if core.cuda.is_available() else [])


@pytest.fixture
def torch():
    """PyTorch, for oracle tests; skips with a reason when it is not installed."""
    if _torch is None:
        pytest.skip("PyTorch is not installed: oracle test skipped (pip install torch==2.13.0)")
    # torch.compile switches torch's distribution argument checks off for the whole process (a test of
    # core.compile's OptimizedModule calls it): every oracle test starts from PyTorch's default again
    _torch.distributions.Distribution.set_default_validate_args(__debug__)
    return _torch


@pytest.fixture(params=["cpu", "cuda"])
def device(request):
    """Each available device; CUDA tests skip with a reason without a GPU."""
    if request.param == "cuda" and not core.cuda.is_available():
        pytest.skip("no CUDA GPU with CuPy on this machine")
    return request.param


@pytest.fixture(autouse=True)
def _seed():
    core.manual_seed(0)
    yield
