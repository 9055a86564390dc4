"""Trapezoid rules, Cholesky solves, mvlgamma, nextafter, index_reduce and Tensor apply_/map_/resize_
against PyTorch."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from core import _warn_once
from tests.core.oracle import assert_same, check, check_error, check_grads

RNG = np.random.default_rng(11)
Y = RNG.standard_normal((3, 5)).astype(np.float32)
XS = np.sort(RNG.standard_normal(5)).astype(np.float32)
M = RNG.standard_normal((2, 3, 3))
SPD = M @ M.transpose(0, 2, 1) + 3 * np.eye(3)
RHS = RNG.standard_normal((2, 3, 2))


@pytest.mark.parametrize("call", [
    lambda lib, y, x: lib.trapezoid(y),
    lambda lib, y, x: lib.trapezoid(y, x),
    lambda lib, y, x: lib.trapezoid(y, dx=0.5, dim=0),
    lambda lib, y, x: lib.trapz(y, x.expand(3, 5), dim=1),
    lambda lib, y, x: lib.cumulative_trapezoid(y),
    lambda lib, y, x: lib.cumulative_trapezoid(y, x),
    lambda lib, y, x: lib.cumulative_trapezoid(y, dx=2, dim=0),
])
def test_trapezoid_rules_match_torch_with_gradients(torch, call):
    check_grads(call, [Y, XS], torch)


def test_trapezoid_of_integers_and_empty_inputs_matches_torch(torch):
    check(lambda lib: [lib.trapezoid(lib.tensor([1, 2, 3])), lib.trapezoid(lib.tensor([1, 2, 3]), dx=2),
                       lib.cumulative_trapezoid(lib.tensor([1, 2, 3])), lib.trapezoid(lib.zeros(2, 0))], [], torch)
    check_error(lambda lib: lib.trapezoid(lib.ones(3), lib.ones(4)), [], torch)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_and_inverse_match_torch_with_gradients(torch, upper):
    def solve(lib, a, b):
        factor = lib.linalg.cholesky(a, upper=upper)
        return lib.cholesky_solve(b, factor, upper=upper)

    def inverse(lib, a):
        return lib.linalg.cholesky(a, upper=upper).cholesky_inverse(upper)

    check_grads(solve, [SPD, RHS], torch)
    check_grads(inverse, [SPD], torch)


def test_deprecated_cholesky_warns_once_and_matches_linalg(torch, monkeypatch):
    monkeypatch.setattr(_warn_once, "_warned", set())  # (as in a fresh process)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ours = core.cholesky(core.tensor(SPD), upper=True)
        core.tensor(SPD).cholesky()
    assert [str(w.message).startswith("torch.cholesky is deprecated") for w in caught] == [True]
    assert_same(ours, torch.linalg.cholesky(torch.tensor(SPD), upper=True))


def test_mvlgamma_matches_torch_with_gradient(torch):
    x = (np.abs(Y) + 2).astype(np.float32)
    check_grads(lambda lib, t: lib.mvlgamma(t, 3), [x], torch, rtol=1e-5, atol=1e-5)
    check_error(lambda lib: lib.mvlgamma(lib.ones(2), 0), [], torch)


def test_nextafter_matches_torch_bits_and_passes_the_gradient_to_input(torch):
    a = np.array([0.0, 1.0, -1.0, 1e-30], dtype=np.float32)
    check(lambda lib, x: [lib.nextafter(x, lib.tensor(2.0)), x.nextafter(lib.tensor(-np.inf)),
                          lib.nextafter(x.double(), lib.tensor(0.0))], [a], torch, rtol=0, atol=0)
    x = core.tensor(a, requires_grad=True)
    assert core.nextafter(x, core.tensor(2.0)).grad_fn.name() == "NextafterBackward0"
    check_grads(lambda lib, x, y: lib.nextafter(x, y * 2), [a.astype(np.float64), a[::-1].astype(np.float64)],
                torch)


@pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta")  # torch's note
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce_matches_torch(torch, reduce, include_self):
    index = np.array([0, 2, 0, 1], dtype=np.int64)
    src = RNG.standard_normal((4, 5)).astype(np.float32)
    check(lambda lib, y, i, s: y.index_reduce(0, i, s, reduce, include_self=include_self), [Y, index, src], torch)
    check(lambda lib, y, i, s: y.clone().index_reduce_(1, i, s[:, :3].t(), reduce, include_self=include_self),
          [Y, index, src], torch)


def test_apply_map_and_resize_work_in_place_like_torch(torch):
    def fn(lib):
        a = lib.tensor([1, 2, 3])
        b = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
        same = [a.apply_(lambda v: v * 3.7) is a, b.map_(lib.tensor([10.0, 20.0]), lambda p, q: p * q) is b]
        c = lib.arange(6.0)
        shapes = [tuple(c.resize_(2, 3).shape), c.clone(), tuple(c.resize_(4).shape), c.clone(),
                  c.share_memory_() is c, tuple(c.resize_as_(lib.zeros(2, 2)).shape)]
        return [a, b] + same + shapes

    check(fn, [], torch)
    check_error(lambda lib: lib.ones(2, requires_grad=True).resize_(3), [], torch)
    check_error(lambda lib: lib.ones(2, requires_grad=True).apply_(abs), [], torch)
