"""Batch norm writes its running statistics without bumping their version counters, as PyTorch's kernel does
(instance norm's copy back does bump them); code that checks ``_version`` sees torch's numbers."""

from __future__ import annotations

import pytest


def _versions(lib, dtype_name):
    dt = getattr(lib, dtype_name)
    bn = lib.nn.BatchNorm1d(3).to(dt)
    bn(lib.randn(4, 3, dtype=dt))
    bn(lib.randn(4, 3, dtype=dt))
    bn.eval()
    bn(lib.randn(4, 3, dtype=dt))
    m, v = lib.zeros(3, dtype=dt), lib.ones(3, dtype=dt)
    lib.nn.functional.batch_norm(lib.randn(4, 3, dtype=dt), m, v, training=True)
    mi, vi = lib.zeros(3, dtype=dt), lib.ones(3, dtype=dt)
    lib.nn.functional.instance_norm(lib.randn(2, 3, 4, dtype=dt), mi, vi, use_input_stats=True)
    return [t._version for t in (bn.running_mean, bn.running_var, bn.num_batches_tracked, m, v, mi, vi)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_running_statistics_keep_torchs_version_counts(torch, dtype):
    import core

    assert _versions(core, dtype) == _versions(torch, dtype)
