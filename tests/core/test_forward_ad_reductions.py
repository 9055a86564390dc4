"""Forward-mode AD through reductions, clamp, cumsum, norms and mse_loss: tangents equal torch's."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

_X = np.array([[0.5, -1.0, 2.0, 2.0], [1.5, 0.25, -3.0, 0.75]], dtype=np.float64)
_T = np.array([[1.0, 0.5, -2.0, 0.25], [-1.0, 2.0, 0.5, 1.5]], dtype=np.float64)


def _tangent(lib, fn):
    with lib.autograd.forward_ad.dual_level():
        dual = lib.autograd.forward_ad.make_dual(lib.tensor(_X), lib.tensor(_T))
        out = fn(lib, dual)
        outs = out if isinstance(out, tuple) else (out,)
        return [lib.autograd.forward_ad.unpack_dual(o).tangent for o in outs]


@pytest.mark.parametrize("fn", [
    lambda lib, a: a.clamp(-0.5, 1.0),
    lambda lib, a: a.clamp(min=0.0),
    lambda lib, a: a.cumsum(1),
    lambda lib, a: a.logsumexp(1),
    lambda lib, a: a.logsumexp((0, 1), keepdim=True),
    lambda lib, a: a.var(),
    lambda lib, a: a.var(1, keepdim=True),
    lambda lib, a: a.std(0),
    lambda lib, a: lib.var_mean(a, 1),
    lambda lib, a: lib.std_mean(a, 1, correction=0),
    lambda lib, a: a.max(),
    lambda lib, a: a.amax(1),
    lambda lib, a: a.amin(0, keepdim=True),
    lambda lib, a: a.norm(),
    lambda lib, a: lib.linalg.vector_norm(a, 1, dim=1),
    lambda lib, a: lib.linalg.vector_norm(a, float("inf")),
    lambda lib, a: lib.linalg.vector_norm(a, 3, dim=0),
    lambda lib, a: lib.nn.functional.mse_loss(a, lib.zeros(2, 4)),
    lambda lib, a: lib.nn.functional.mse_loss(a, lib.ones(2, 4), reduction="none"),
    lambda lib, a: lib.nn.functional.mse_loss(lib.ones(2, 4), a, reduction="sum"),
], ids=["clamp", "clamp-min", "cumsum", "logsumexp", "logsumexp-all", "var", "var-dim", "std", "var-mean",
        "std-mean", "max", "amax-ties", "amin", "norm", "norm-1", "norm-inf-ties", "norm-3", "mse", "mse-none",
        "mse-target"])
def test_forward_mode_tangents_match_torch(torch, fn):
    for ours, theirs in zip(_tangent(core, fn), _tangent(torch, fn)):
        assert_same(ours, theirs, rtol=1e-12, atol=1e-12)
