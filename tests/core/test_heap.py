"""Importing core keeps freed arrays' memory in the process (core._heap), so a training step's temporaries
don't fault their pages in again every step; ``NODEGRAD_MALLOC_DEFAULTS=1`` keeps glibc's defaults."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_FAULTS_PER_ROUND = """
import resource
import numpy as np
import core
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
arrays = [np.ones(2 ** 18, np.float32) for _ in range(8)]  # 1 MiB each, then freed: a step's temporaries
del arrays
before = faults()
for _ in range(20):
    arrays = [np.ones(2 ** 18, np.float32) for _ in range(8)]
    del arrays
print((faults() - before) / 20)
"""


def _faults_per_round(**env) -> float:
    out = subprocess.run([sys.executable, "-c", _FAULTS_PER_ROUND], env=dict(os.environ, **env),
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the malloc settings are glibc's")
def test_arrays_freed_and_allocated_again_reuse_their_pages_after_importing_core():
    kept = _faults_per_round()
    defaults = _faults_per_round(NODEGRAD_MALLOC_DEFAULTS="1")
    assert defaults > 1000  # glibc maps each 1 MiB block afresh: 8 x 256 pages faulted in per round
    assert kept < 10
