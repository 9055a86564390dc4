"""float64 ``logaddexp2`` against torch bit for bit: the kernel's vector form (SLEEF's exp2 and log1p, the last
multiply-add fused) on two vectors at a time, its scalar form (glibc's) on the tail and on strided operands.

NumPy's exp2 and log1p differed from torch's in the last bit of ~12% of the elements."""

import numpy as np
import pytest

import core
from core import _exp2


def _same_bits(ours, theirs):
    np.testing.assert_array_equal(np.asarray(ours).view(np.uint64), np.asarray(theirs).view(np.uint64))


def _both(torch, a, b):
    return (core.logaddexp2(core.from_numpy(a), core.from_numpy(b)).numpy(),
            torch.logaddexp2(torch.from_numpy(a), torch.from_numpy(b)).numpy())


@pytest.mark.parametrize("n", [1, 7, 8, 9, 17, 1000, 100_003])
def test_logaddexp2_float64_of_every_size_gives_torchs_bits(torch, n):
    rng = np.random.default_rng(n)
    _same_bits(*_both(torch, rng.uniform(-30, 30, n), rng.uniform(-30, 30, n)))


@pytest.mark.parametrize("layout", ["transposed", "rows", "strided", "row", "column", "scalar", "scalar first",
                                    "both broadcast"])
def test_logaddexp2_float64_layouts_and_broadcasts_give_torchs_bits(torch, layout):
    rng = np.random.default_rng(1)
    a, b = rng.uniform(-60, 60, (37, 41)), rng.uniform(-60, 60, (37, 41))
    pairs = {"transposed": (a.T.copy().T, b), "rows": (a[:, :40], b[:, 1:]), "strided": (a[::2], b[::2]),
             "row": (a, b[:1]), "column": (a, b[:, :1]), "scalar": (a, np.array(3.0)),
             "scalar first": (np.array(3.0), a), "both broadcast": (a[:2, :1, None], b[None, :5, :17])}
    _same_bits(*_both(torch, *pairs[layout]))


def test_logaddexp2_float64_special_values_give_torchs_bits(torch):
    special = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e308, -1e308, 5.0, -2000.0, -1100.0, 1100.0, 1023.5] * 3)
    for other in (special[::-1].copy(), special.copy()):
        _same_bits(*_both(torch, special, other))
    x = np.random.default_rng(2).standard_normal(10_000) * 1e-3
    _same_bits(*_both(torch, x, x + 1e-17))


def test_sleef_exp2d_port_gives_torchs_float64_exp2_in_its_vector_steps(torch):
    """torch's float64 exp2 runs the same vector steps (its sizes here multiples of two vectors)."""
    rng = np.random.default_rng(3)
    x = np.concatenate([[np.inf, -np.inf, np.nan, 1024.0, 1023.9, -2000.0, -2000.1, -1074.5, 0.0, -0.0, 0.5, -0.5,
                         -1022.5, -1060.0, 1e300, -1e300],
                        rng.uniform(-30, 30, 40_000), rng.uniform(-1100, 1100, 40_000)])
    _same_bits(_exp2.exp2d_u10(x), torch.exp2(torch.from_numpy(x)).numpy())


def test_logaddexp2_float64_keeps_its_node_and_gradient(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0, -3.0], dtype=lib.float64, requires_grad=True)
        y = lib.logaddexp2(x, lib.tensor(2.0, dtype=lib.float64))
        y.sum().backward()
        return y.grad_fn.name(), y.detach().numpy(), x.grad.numpy()

    ours, theirs = run(core), run(torch)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1:], theirs[1:]):
        _same_bits(a, b)
