"""Gradients of ``prod`` and ``cumprod`` on complex tensors, PyTorch's convention: the incoming gradient times the
conjugate of the derivative (core multiplied by the derivative itself, so a complex product's gradient came out
conjugated). Slices with no zero, one zero and two zeros take different formulas; each is compared with torch."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

RNG = np.random.default_rng(4)


def _complex(*shape, zeros=()):
    a = (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(np.complex64)
    for index in zeros:
        a[index] = 0
    return a


def _grads(lib, fn, a):
    x = lib.tensor(a).requires_grad_(True)
    out = fn(lib, x)
    w = lib.tensor(np.random.default_rng(7).standard_normal(tuple(out.shape) + (2,)).astype(np.float32))
    (lib.view_as_real(out) * w).sum().backward()
    return out, x.grad


CASES = {
    "prod_all": (lambda lib, x: x.prod(), _complex(2, 3)),
    "prod_dim": (lambda lib, x: x.prod(1), _complex(2, 4)),
    "prod_dim_keepdim": (lambda lib, x: lib.prod(x, 0, keepdim=True), _complex(3, 2)),
    "prod_one_zero": (lambda lib, x: x.prod(1), _complex(2, 4, zeros=[(0, 2)])),
    "prod_two_zeros": (lambda lib, x: x.prod(1), _complex(2, 4, zeros=[(1, 0), (1, 3)])),
    "prod_all_one_zero": (lambda lib, x: x.prod(), _complex(5, zeros=[(3,)])),
    "cumprod": (lambda lib, x: x.cumprod(0), _complex(5)),
    "cumprod_dim": (lambda lib, x: lib.cumprod(x, 1), _complex(2, 4)),
    "cumprod_zero": (lambda lib, x: x.cumprod(1), _complex(2, 5, zeros=[(0, 2)])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_complex_product_gradients_match_torch(name, torch):
    fn, a = CASES[name]
    (co, cg), (to, tg) = _grads(core, fn, a), _grads(torch, fn, a)
    assert_same(co, to, rtol=1e-5, atol=1e-6)
    assert_same(cg, tg, rtol=1e-4, atol=1e-5)
