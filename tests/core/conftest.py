"""Every ``tests/core`` test runs once per device: ``CORE_TEST_DEVICES`` (a comma list) names them.

The autouse ``device`` parameter sets ``core.set_default_device`` for the test and puts the old default
back after it, so factories and the oracle helpers (``oracle.inputs`` builds with ``lib.tensor``) make
core's tensors on the device under test; torch stays on the CPU and comparisons go through ``.cpu()``.
A test that takes ``device`` itself gets the same single parameter (it is never parametrised twice).

Without the variable the devices are the CPU and, where ``core.cuda.is_available()``, CUDA. Without a GPU
no ``cuda`` items are made (measured: a skipped ``cuda`` twin of each of the ~5,900 tests added 20-40 %
to the run's time), and the sentinel in ``test_device_parameter.py`` skips with the reason instead, so the ``-ra``
summary still says that CUDA did not run. ``CORE_TEST_DEVICES=cuda`` (``benchmarks/gpu_check.sh``) runs
CUDA only; without a GPU every item skips at setup. A test marked ``cpu_only`` (NumPy memory sharing,
reprs without a device) skips on CUDA with its own reason. Each of the two reasons is reported at this
file, so ``-ra`` folds all of its skips into one line instead of one line per test.
"""

from __future__ import annotations

import os
import sys

import pytest

import core

KNOWN = ("cpu", "cuda")
NO_GPU = "no CUDA GPU with CuPy on this machine: the cuda parameter of tests/core did not run"
CPU_ONLY = "cpu_only: checks CPU-only behaviour (NumPy memory sharing, reprs without a device)"


def _devices() -> list:
    """The devices named by ``CORE_TEST_DEVICES``; without it the CPU, and CUDA where there is one."""
    text = os.environ.get("CORE_TEST_DEVICES", "")
    if not text.strip():
        return ["cpu", "cuda"] if core.cuda.is_available() else ["cpu"]
    names = [d.strip() for d in text.split(",") if d.strip()]
    bad = [d for d in names if d not in KNOWN]
    if bad:
        raise pytest.UsageError(f"CORE_TEST_DEVICES={text!r}: expected a comma list of {', '.join(KNOWN)}")
    return list(dict.fromkeys(names))


DEVICES = _devices()


@pytest.fixture(params=DEVICES, autouse=True)
def device(request):
    """The device under test, set as core's default device for the test (restored after it)."""
    if request.param == "cuda":
        if not core.cuda.is_available():
            pytest.skip(NO_GPU)
        if request.node.get_closest_marker("cpu_only") is not None:
            pytest.skip(CPU_ONLY)
    before = core.get_default_device()
    threads = _thread_counts()
    core.set_default_device(request.param)
    yield request.param
    core.set_default_device(before)
    _restore_thread_counts(threads)


def _thread_counts() -> tuple:
    """Core's thread count and PyTorch's (None where the test session has not imported torch yet)."""
    torch = sys.modules.get("torch")
    return core.get_num_threads(), (torch.get_num_threads() if torch is not None else None)


def _restore_thread_counts(before: tuple) -> None:
    """Give both libraries back the thread counts a test found: a test that sets one (to get PyTorch's one-thread
    summation order) and fails or forgets leaves every later oracle test comparing against another kernel."""
    now = _thread_counts()
    if now[0] != before[0]:
        core.set_num_threads(before[0])
    if before[1] is not None and now[1] != before[1]:
        sys.modules["torch"].set_num_threads(before[1])



@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Report the device skips at this file (pytest 8 reports a fixture's skip at the test: a line each)."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and isinstance(report.longrepr, tuple) and str(report.longrepr[2]).endswith((NO_GPU, CPU_ONLY)):
        report.longrepr = (__file__, None, report.longrepr[2])


@pytest.fixture
def one_thread(torch):
    """Both libraries on one thread, where PyTorch adds a sum of any size in one cascade (with more it splits big
    sums among its threads); the old thread counts come back after the test."""
    before = torch.get_num_threads(), core.get_num_threads()
    torch.set_num_threads(1)
    core.set_num_threads(1)
    yield
    torch.set_num_threads(before[0])
    core.set_num_threads(before[1])


@pytest.fixture
def world_of_one(torch):
    """``(torch, core)``, each with a default process group of one rank (gloo, a HashStore), destroyed afterwards:
    the collectives' and their helpers' oracle tests (test_distributed*.py)."""
    libs = (torch, core)
    for lib in libs:
        lib.distributed.init_process_group("gloo", store=lib.distributed.HashStore(), rank=0, world_size=1)
    yield libs
    for lib in libs:
        lib.distributed.destroy_process_group()
