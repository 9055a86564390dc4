"""Two course notebooks' gradient products bit for bit as PyTorch's CPU BLAS (MKL) computes them, on the CPUs whose
MKL orders ``core._small_gemm`` follows (``ACTIVE``: an AMD Zen 4 or Zen 3).

- a one-feature linear regression (Treviso's PyTorch lecture, corpus ``c4_pl_linear_regression``): its input comes
  from a float64 NumPy array in Fortran order (``torch.from_numpy(X).float()`` keeps the column-major strides), so
  the weight's gradient ``(g.T @ X).T`` is one row times a column laid out as a row: MKL's gemv;
- softmax regression written by hand (STAT 479's ``softmax-regression_scratch``, corpus ``c4_s479_softmax_scratch``):
  ``-torch.mm(x.t(), y - probas).t()``, a (2, K) @ (K, 3) product of a transposed ``x``: the in-order chain.

Oracle tests: the same training loop in core and torch, every step's weights compared bitwise."""

import numpy as np
import pytest
import torch

import core
from core import _small_gemm

pytestmark = pytest.mark.skipif(not _small_gemm.ACTIVE,
                                reason="MKL's GEMM orders are followed only on the CPUs they were measured on")


def _bits(t) -> np.ndarray:
    return t.detach().numpy().copy().view(np.uint32)


def _regression(lib, x64, y64, steps=5):
    """The lecture's ``MixedLinearRegression``: ``W`` (1, 1) by autograd, ``W.data`` updated by hand."""
    x, y = lib.from_numpy(x64).float(), lib.from_numpy(y64).float()
    w = lib.zeros(1, 1, requires_grad=True)
    out = []
    for _ in range(steps):
        loss = lib.mean(lib.pow(lib.matmul(x, w.t()).squeeze(-1) - y, 2))
        loss.backward()
        w.data = w.data - 0.1 * w.grad.data
        out += [_bits(w.grad), _bits(loss)]
        w.grad.data.zero_()
    return out


@pytest.mark.parametrize("n", [100, 37, 640])
def test_one_feature_regression_on_a_column_major_input_matches_torch_bitwise(n):
    rng = np.random.default_rng(n)
    x64 = np.asfortranarray(rng.standard_normal((n, 1)) * 3)[:, :1]
    x64 = np.asfortranarray(np.concatenate([x64, x64], axis=1))[:, :1]  # (n, 1), strides (8, 8 n)
    y64 = rng.standard_normal(n) * 50
    assert x64.strides[1] != x64.itemsize
    for ours, theirs in zip(_regression(core, x64, y64), _regression(torch, x64, y64)):
        assert np.array_equal(ours, theirs)


def _softmax_regression(lib, x32, labels, steps=6):
    """STAT 479's ``SoftmaxRegression1``: logits ``x @ W.T + b``, its gradients formed by hand with ``mm``."""
    x, y = lib.from_numpy(x32), lib.from_numpy(labels)
    w, b = lib.zeros(3, 2), lib.zeros(3)
    onehot = lib.zeros(len(labels), 3).scatter_(1, y.view(-1, 1), 1)
    out = []
    for _ in range(steps):
        logits = lib.add(lib.mm(x, w.t()), b)
        probas = (lib.exp(logits.t()) / lib.sum(lib.exp(logits), dim=1)).t()
        grad_out = onehot - probas
        w -= 0.1 * -lib.mm(x.t(), grad_out).t() / len(labels)
        b -= 0.1 * -lib.sum(grad_out) / len(labels)
        out += [_bits(w), _bits(b)]
    return out


@pytest.mark.parametrize("n", [120, 75, 300])
def test_hand_written_softmax_regression_matches_torch_bitwise(n):
    rng = np.random.default_rng(n)
    x32 = rng.standard_normal((n, 2)).astype(np.float32)
    labels = rng.integers(0, 3, n)
    for ours, theirs in zip(_softmax_regression(core, x32, labels), _softmax_regression(torch, x32, labels)):
        assert np.array_equal(ours, theirs)
