"""A batch's summed or mean ``nll_loss``/``cross_entropy`` that is exactly zero is +0.0, as PyTorch's kernel gives it
(#19): its partial sums start at +0 and subtract each sample's loss, where core negated the sum (-0.0). A model that
fits its batch exactly prints its loss as ``0.0`` in torch (sentence-transformers' GISTEmbedLoss with a relative
margin printed ``-0.0`` in core); per-sample losses (reduction "none") keep their -0.0."""

from __future__ import annotations

import math

import pytest
import torch

import core

LOGITS = [[100.0, 0.0], [0.0, 200.0], [300.0, -5.0]]


def _sign_and_value(t):
    return [(math.copysign(1.0, v), v) for v in (t.reshape(-1).tolist())]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("case", ["plain", "weight", "ignored", "single"])
def test_zero_loss_sign_matches_torch(dtype, reduction, case):
    def run(lib):
        x = lib.tensor(LOGITS, dtype=getattr(lib, dtype))
        t = lib.tensor([0, 1, 0])
        kw = {"reduction": reduction}
        if case == "weight":
            kw["weight"] = lib.tensor([1.0, 3.0], dtype=getattr(lib, dtype))
        if case == "ignored":
            t = lib.tensor([0, -100, 0])
        if case == "single":
            x, t = x[0], t[0]
        return _sign_and_value(lib.nn.functional.cross_entropy(x, t, **kw).float()) + \
            _sign_and_value(lib.nn.functional.nll_loss(lib.zeros_like(x), t, **kw).float())
    assert run(core) == run(torch)
