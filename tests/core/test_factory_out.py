"""``out=`` on the deterministic factories (zeros, ones, empty, full, arange, linspace, logspace, eye), against torch:
the values land in ``out`` (resized), ``out`` is returned, its dtype is the values' dtype, and the errors match."""

from __future__ import annotations

import pytest

import core
from tests.core.oracle import raised

CALLS = {
    "arange_into_long": lambda lib, o: lib.arange(0, 5, out=o(lib.int64)),
    "arange_into_float": lambda lib, o: lib.arange(0, 5, out=o(lib.float32)),
    "arange_float_steps": lambda lib, o: lib.arange(0, 2, 0.25, out=o(lib.float64)),
    "zeros": lambda lib, o: lib.zeros(3, 2, out=o(lib.int64)),
    "ones_size_kwarg": lambda lib, o: lib.ones(size=(2, 2), out=o(lib.float32)),
    "full_casts_to_out": lambda lib, o: lib.full((2,), 3.5, out=o(lib.int64)),
    "linspace": lambda lib, o: lib.linspace(0, 1, 5, out=o(lib.float32)),
    "linspace_into_long": lambda lib, o: lib.linspace(0, 10, 3, out=o(lib.int64)),
    "logspace": lambda lib, o: lib.logspace(0, 2, 3, out=o(lib.float64)),
    "eye": lambda lib, o: lib.eye(2, 3, out=o(lib.int64)),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_factory_writes_into_out_and_returns_it(torch, name):
    results = []
    for lib in (core, torch):
        out = None

        def make(dtype, lib=lib):
            nonlocal out
            out = lib.empty(0, dtype=dtype)
            return out

        result = CALLS[name](lib, make)
        results.append((result is out, result.tolist(), str(result.dtype).split(".")[-1], tuple(result.shape)))
    assert results[0] == results[1]


def test_empty_with_out_resizes_it_and_requires_grad_applies_to_out(torch):
    results = []
    for lib in (core, torch):
        out = lib.empty(0)
        shaped = lib.empty(2, 3, out=out)
        zeros = lib.zeros(2, out=lib.empty(0), requires_grad=True)
        results.append((shaped is out, tuple(out.shape), zeros.requires_grad, zeros.tolist()))
    assert results[0] == results[1]


def test_arange_into_a_slice_writes_through_to_its_base(torch):
    results = []
    for lib in (core, torch):
        base = lib.zeros(4)
        lib.arange(1, 3, out=base[1:3])
        results.append(base.tolist())
    assert results[0] == results[1]



@pytest.mark.parametrize("call", [
    lambda lib: lib.zeros(3, out=lib.empty(0, dtype=lib.int64), dtype=lib.float32),
    lambda lib: lib.arange(3, out=lib.zeros(3, requires_grad=True)),
    lambda lib: lib.linspace(0, 1, 3, out=lib.empty(0), dtype=lib.float64),
])
def test_factory_out_refuses_what_torch_refuses(torch, call):
    assert raised(lambda: call(core)) == raised(lambda: call(torch))
