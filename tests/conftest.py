"""Shared test fixtures: the PyTorch oracle (skips with a reason without torch) and devices."""

from __future__ import annotations

import os
import re

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


# Tests that turn core's ``__torch_function__`` dispatch on (a Tensor subclass, a mode, a tensor-like class): turning
# it on is for the rest of the process (core rewrites its public functions once), so they run last, and every other
# test runs core as a user's script does, with dispatch off (a bug of the plain path hid behind it once).
_TURNS_DISPATCH_ON = re.compile(r"__torch_function__|__torch_dispatch__|TorchFunctionMode|TorchDispatchMode"
                                r"|class \w+\((?:[\w.]*\.)?(?:Tensor|Parameter|Buffer)\b|as_subclass"
                                r"|_make_subclass|make_wrapper_subclass|\bfx\b|\.export\b|vmap|masked|nested|flop_counter"
                                r"|flex_attention|overrides|_SUBMODULES|jacrev|jacfwd|hessian")
_turns_dispatch_on: dict = {}


def _dispatching_file(item) -> bool:
    path = item.path
    if path not in _turns_dispatch_on:
        _turns_dispatch_on[path] = bool(_TURNS_DISPATCH_ON.search(path.read_text(encoding="utf-8")))
    return _turns_dispatch_on[path]


_activated_by: list = []  # the collected file whose import turned dispatch on, if one did


def pytest_collectreport(report):
    """Notes the first collected file after which dispatch is on, for the usage error below to name it."""
    from core import _torch_function

    if _torch_function._active and not _activated_by:
        _activated_by.append(report.nodeid or "conftest.py or a plugin")


def pytest_collection_modifyitems(session, config, items):
    """The tests of files that turn dispatch on run after all others (a stable sort: each keeps its order)."""
    items.sort(key=_dispatching_file)
    from core import _torch_function

    if _torch_function._active and not all(map(_dispatching_file, items)):
        raise pytest.UsageError(f"collecting {_activated_by[0] if _activated_by else 'the tests'} turned core's "
                                "__torch_function__ dispatch on (importing core.fx, a Tensor subclass or a mode at a "
                                "module's top): do that inside the tests, not at import")


_running_plain: list = [False]  # whether the running test's file is one that must keep dispatch off


def _refuse_activation_in_plain_tests() -> None:
    """A test of an unclassified file that turns dispatch on fails at once, naming the fix, instead of leaving
    dispatch on for every later test (the ordering above only holds if the pattern knows each activator)."""
    from core import _torch_function, _torch_function_tensor_likes

    activate = _torch_function.activate

    def guarded_activate() -> None:
        if _running_plain[0] and not _torch_function._active:
            raise RuntimeError("this test turns core's __torch_function__ dispatch on: add its file to "
                               "_TURNS_DISPATCH_ON in tests/conftest.py so that it runs after the others")
        activate()

    _torch_function.activate = guarded_activate
    _torch_function_tensor_likes.activate = guarded_activate


_refuse_activation_in_plain_tests()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _running_plain[0] = not _dispatching_file(item)
    try:
        yield
    finally:
        _running_plain[0] = False
