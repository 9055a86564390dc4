"""Ops that take ``dim`` also take NumPy's ``axis`` (and ``keepdims``), as PyTorch's argument parser allows."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.oracle import check, check_error

RNG = np.random.default_rng(3)
ARR = RNG.standard_normal((2, 3)).astype(np.float32)
INDEX = np.array([[0, 1, 0]])
ROWS = np.array([1, 0])


@pytest.mark.parametrize("fn", [
    lambda lib, x: lib.cat([x, x], axis=0),
    lambda lib, x: lib.concat([x, x], axis=1),
    lambda lib, x: lib.concatenate([x, x], axis=1),
    lambda lib, x: lib.stack([x, x], axis=1),
    lambda lib, x: lib.unbind(x, axis=1),
    lambda lib, x: x.unbind(axis=0),
    lambda lib, x: x.unsqueeze(axis=1),
    lambda lib, x: lib.squeeze(x.unsqueeze(0), axis=0),
    lambda lib, x: x.unsqueeze(0).squeeze(axis=0),
    lambda lib, x: x.chunk(2, axis=1),
    lambda lib, x: lib.tensor_split(x, 2, axis=1),
    lambda lib, x: x.narrow(axis=1, start=1, length=2),
    lambda lib, x: x.select(axis=1, index=2),
    lambda lib, x: x.repeat_interleave(2, axis=0),
    lambda lib, x: lib.trapezoid(x, axis=0),
    lambda lib, x: lib.cumulative_trapezoid(x, axis=1),
    lambda lib, x: x.clone().unsqueeze_(axis=0),
])
def test_shape_ops_accept_axis_for_dim(fn, torch):
    check(fn, [ARR], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, x, i, r: lib.gather(x, axis=1, index=i),
    lambda lib, x, i, r: x.scatter(axis=0, index=i, src=x),
    lambda lib, x, i, r: lib.scatter_add(x, axis=0, index=i, src=x),
    lambda lib, x, i, r: x.index_select(axis=0, index=r),
    lambda lib, x, i, r: lib.index_add(x, axis=0, index=r, source=x),
    lambda lib, x, i, r: x.index_fill(axis=0, index=r[:1], value=-1.0),
    lambda lib, x, i, r: lib.take_along_dim(x, i, axis=0),
])
def test_indexing_ops_accept_axis_for_dim(fn, torch):
    check(fn, [ARR, INDEX, ROWS], torch)


def test_ops_pytorch_writes_in_python_refuse_axis(torch):
    check_error(lambda lib, x: lib.split(x, 1, axis=0), [ARR], torch)
    check_error(lambda lib, x: x.unflatten(axis=1, sizes=(3, 1)), [ARR], torch)
