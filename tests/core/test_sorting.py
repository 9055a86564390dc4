"""Sorting, searching and order statistics against PyTorch: values, indices, dtypes, errors, gradients."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error, check_grads, inputs

RNG = np.random.default_rng(1)
DTYPES = ["float32", "float64", "int64", "int32", "bool"]


def sample(shape, dtype, distinct=False):
    """Random data; ``distinct`` floats make every index unambiguous, ints repeat on purpose."""
    if dtype == "bool":
        return RNG.integers(0, 2, shape).astype(bool)
    if distinct:
        return (RNG.permutation(int(np.prod(shape))).reshape(shape) - 10).astype(dtype)
    if dtype.startswith("int"):
        return RNG.integers(-3, 4, shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


def agree(fn, arrays, torch):
    """Both libraries succeed with equal results, or both raise the same exception type."""
    try:
        fn(torch, *inputs(torch, arrays))
    except Exception:  # torch refusing is what we then expect from core
        check_error(fn, arrays, torch)
        return
    check(fn, arrays, torch)


SHAPES = [((), [0, -1]), ((0, 3), [1, -1]), ((6,), [0, -1]), ((2, 3, 5), [0, 1, -1])]

# Ops whose indices are unique for any input (stable ordering) are tried on ties too.
STABLE_OPS = {
    "sort": lambda lib, x, d: x.sort(d),
    "sort_descending": lambda lib, x, d: x.sort(d, descending=True),
    "sort_stable": lambda lib, x, d: lib.sort(x, dim=d, descending=True, stable=True),
    "argsort": lambda lib, x, d: x.argsort(dim=d, stable=True),
    "argsort_descending": lambda lib, x, d: lib.argsort(x, dim=d, descending=True, stable=True),
    "msort": lambda lib, x, d: x.msort(),
    "mode": lambda lib, x, d: x.mode(d),
    "mode_keepdim": lambda lib, x, d: x.mode(d, keepdim=True),
}

# Ops that pick one of several equal elements: indices are compared on distinct values.
PICKING_OPS = {
    "topk": lambda lib, x, d: x.topk(min(2, x.shape[d] if x.ndim else 1), d),
    "topk_smallest": lambda lib, x, d: x.topk(1 if x.numel() else 0, d, largest=False),
    "kthvalue": lambda lib, x, d: x.kthvalue(1, d),
    "kthvalue_keepdim": lambda lib, x, d: x.kthvalue(2 if x.ndim and x.shape[d] > 1 else 1, d, True),
    "median": lambda lib, x, d: x.median(d),
    "median_all": lambda lib, x, d: x.median(),
    "nanmedian": lambda lib, x, d: x.nanmedian(d, keepdim=True),
    "quantile": lambda lib, x, d: x.quantile(0.3, dim=d),
    "nanquantile": lambda lib, x, d: x.nanquantile(0.8, dim=d, keepdim=True),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(STABLE_OPS))
def test_stable_ops_match_torch_with_ties_over_dtypes_and_shapes(torch, name, dtype):
    for shape, dims in SHAPES:
        arr = sample(shape, dtype)
        for d in dims:
            agree(lambda lib, x, d=d: STABLE_OPS[name](lib, x, d), [arr], torch)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(PICKING_OPS))
def test_picking_ops_match_torch_over_dtypes_and_shapes(torch, name, dtype):
    for shape, dims in SHAPES:
        arr = sample(shape, dtype, distinct=True)
        for d in dims:
            agree(lambda lib, x, d=d: PICKING_OPS[name](lib, x, d), [arr], torch)


@pytest.mark.parametrize("name", list(STABLE_OPS) + list(PICKING_OPS))
def test_sorting_non_contiguous_views_matches_torch(torch, name):
    op = STABLE_OPS.get(name) or PICKING_OPS[name]
    arr = sample((4, 3, 6), "float64", distinct=True)
    for view in (lambda t: t.transpose(0, 2), lambda t: t.permute(1, 0, 2)[:, ::2]):
        for d in (0, -1):
            check(lambda lib, x, v=view, d=d: op(lib, v(x), d), [arr], torch)


def test_nan_sorts_as_the_largest_value_like_torch(torch):
    arr = np.array([[2.0, np.nan, 1.0, 2.0, np.nan, -1.0]])
    for fn in [lambda lib, x: x.sort(1), lambda lib, x: x.sort(1, descending=True), lambda lib, x: x.topk(2),
               lambda lib, x: x.median(1), lambda lib, x: x.nanmedian(1), lambda lib, x: x.median(),
               lambda lib, x: x.nanmedian(), lambda lib, x: x.quantile(0.5, 1), lambda lib, x: x.nanquantile(0.5, 1),
               lambda lib, x: x.argsort(dim=1, stable=True), lambda lib, x: x.unique()]:
        check(fn, [arr], torch)


GRAD_OPS = {
    "sort": lambda lib, x: x.sort(1).values,
    "sort_descending": lambda lib, x: x.sort(-1, descending=True)[0],
    "msort": lambda lib, x: x.msort(),
    "topk": lambda lib, x: x.topk(2, 1).values,
    "topk_smallest": lambda lib, x: x.topk(3, 0, largest=False)[0],
    "kthvalue": lambda lib, x: x.kthvalue(2, 1).values,
    "median": lambda lib, x: x.median(),
    "median_dim": lambda lib, x: x.median(0, keepdim=True).values,
    "nanmedian": lambda lib, x: x.nanmedian(-1)[0],
    "mode": lambda lib, x: x.mode(1).values,
    "quantile": lambda lib, x: x.quantile(0.35),
    "quantile_dim": lambda lib, x: x.quantile(core.tensor([0.2, 0.9], dtype=core.float64)
                                             if lib is core else lib.tensor([0.2, 0.9], dtype=lib.float64), dim=1),
    "nanquantile": lambda lib, x: x.nanquantile(0.5, dim=0, keepdim=True),
}


@pytest.mark.parametrize("name", list(GRAD_OPS))
def test_gradient_matches_torch(torch, name):
    check_grads(GRAD_OPS[name], [sample((4, 5), "float64", distinct=True) / 7], torch)


@pytest.mark.parametrize("name", list(GRAD_OPS))
def test_gradient_passes_gradcheck_in_float64(name):
    x = core.tensor(sample((4, 5), "float64", distinct=True) / 7, requires_grad=True)
    assert core.autograd.gradcheck(lambda t: GRAD_OPS[name](core, t), (x,))


@pytest.mark.parametrize("name", list(GRAD_OPS))
def test_double_backward_passes_gradgradcheck_in_float64(name):
    x = core.tensor(sample((4, 5), "float64", distinct=True) / 7, requires_grad=True)
    assert core.autograd.gradgradcheck(lambda t: GRAD_OPS[name](core, t), (x,))


def test_median_gradient_is_shared_among_ties_like_torch(torch):
    check_grads(lambda lib, x: x.median(), [np.array([1.0, 2.0, 2.0, 5.0])], torch)


def test_grad_fn_names_match_torch(torch):
    arr = sample((3, 4), "float64", distinct=True)
    calls = [lambda lib, t: t.sort()[0], lambda lib, t: t.sort(stable=True)[0], lambda lib, t: t.msort(),
             lambda lib, t: t.topk(2)[0], lambda lib, t: t.kthvalue(2)[0], lambda lib, t: t.median(),
             lambda lib, t: t.median(0)[0], lambda lib, t: t.nanmedian(), lambda lib, t: t.nanmedian(1)[0],
             lambda lib, t: t.mode(0)[0]]
    for fn in calls:
        ours, theirs = [fn(lib, *inputs(lib, [arr], requires_grad=True)) for lib in (core, torch)]
        assert ours.grad_fn.name() == theirs.grad_fn.name()


@pytest.mark.cpu_only
def test_sort_returns_a_named_tuple_that_prints_and_unpacks_like_torch(torch):
    ours, theirs = [lib.tensor([3, 1, 2]).sort() for lib in (core, torch)]
    assert repr(ours) == repr(theirs)
    values, indices = ours
    assert values.tolist() == [1, 2, 3] and ours.indices.tolist() == indices.tolist() == [1, 2, 0]
    for name in ("topk", "kthvalue", "median", "mode"):
        args = (1,) if name in ("topk", "kthvalue") else (0,)
        expected = repr(getattr(torch.tensor([3.0, 1.0]), name)(*args))
        assert repr(getattr(core.tensor([3.0, 1.0]), name)(*args)) == expected


@pytest.mark.parametrize("fn", [
    lambda lib, x: x.unique(), lambda lib, x: x.unique(sorted=True, return_inverse=True),
    lambda lib, x: x.unique(return_counts=True), lambda lib, x: lib.unique(x, return_inverse=True, return_counts=True),
    lambda lib, x: x.unique(dim=0, return_inverse=True, return_counts=True), lambda lib, x: x.unique(dim=1),
    lambda lib, x: x.unique_consecutive(), lambda lib, x: x.unique_consecutive(return_inverse=True, return_counts=True),
    lambda lib, x: lib.unique_consecutive(x, dim=1, return_counts=True),
    lambda lib, x: x[:0].unique(return_counts=True), lambda lib, x: x[0, 0].unique(return_inverse=True),
])
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool"])
def test_unique_matches_torch(torch, fn, dtype):
    arr = RNG.integers(0, 3, (4, 5)).astype(dtype)
    check(fn, [arr], torch)


def test_unique_records_a_node_without_a_derivative_like_torch(torch):
    x = core.tensor([2.0, 1.0, 2.0], requires_grad=True)
    u = x.unique()
    assert u.grad_fn.name() == torch.tensor([1.0], requires_grad=True).unique().grad_fn.name()
    with pytest.raises(NotImplementedError, match="derivative for '_unique2' is not implemented"):
        u.sum().backward()


def test_searchsorted_and_bucketize_match_torch(torch):
    seq = np.array([1, 3, 3, 5, 7])
    rows = np.array([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    vals = np.array([[3, 6, 0], [9, 3, 5]])
    for fn in [lambda lib, s, v: lib.searchsorted(s, v), lambda lib, s, v: lib.searchsorted(s, v, right=True),
               lambda lib, s, v: lib.searchsorted(s, v, side="right", out_int32=True),
               lambda lib, s, v: lib.bucketize(v, s), lambda lib, s, v: lib.bucketize(v, s, right=True),
               lambda lib, s, v: lib.searchsorted(s, 4),
               lambda lib, s, v: lib.bucketize(v.double(), s, out_int32=True)]:
        check(fn, [seq, vals], torch)
    check(lambda lib, s, v: lib.searchsorted(s, v), [rows, vals.astype(np.float64)], torch)
    check(lambda lib, s, v, o: lib.searchsorted(s, v, sorter=o),
          [np.array([5, 1, 3]), vals, np.array([1, 2, 0])], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, x: x.sort(2), lambda lib, x: x.topk(6), lambda lib, x: x.topk(-1), lambda lib, x: x.bool().topk(1),
    lambda lib, x: x.kthvalue(0), lambda lib, x: x.kthvalue(6), lambda lib, x: x.median(3),
    lambda lib, x: x[:0].median(0), lambda lib, x: x[:0].mode(0), lambda lib, x: x.bool().median(),
    lambda lib, x: x.long().quantile(0.5), lambda lib, x: x.quantile(1.5), lambda lib, x: x.quantile(-0.1, 0),
    lambda lib, x: x.quantile(0.5, interpolation="cubic"), lambda lib, x: x[:0].quantile(0.5),
    lambda lib, x: x.quantile(x), lambda lib, x: x.quantile(lib.tensor([0.5], dtype=lib.float64)),
    lambda lib, x: lib.searchsorted(x, x[:1]), lambda lib, x: lib.bucketize(x[0], x),
    lambda lib, x: lib.searchsorted(x[0], x, side="middle"),
])
def test_bad_arguments_raise_like_torch(torch, fn):
    check_error(fn, [sample((3, 5), "float32")], torch)


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_interpolations_match_torch(torch, interpolation):
    arr = sample((3, 7), "float64")
    q = np.array([0.0, 0.25, 0.5, 0.9, 1.0])
    check(lambda lib, x, q: x.quantile(q, dim=1, interpolation=interpolation), [arr, q], torch)
    check(lambda lib, x: x.quantile(0.45, interpolation=interpolation, keepdim=True), [arr], torch)
    check(lambda lib, x, q: x.nanquantile(q, dim=0, interpolation=interpolation), [arr, q], torch)


def test_sort_of_the_same_values_matches_numpy_with_descending_ties_in_original_order():
    x = core.tensor([2, 1, 2, 1, 2])
    assert core.sort(x, descending=True, stable=True).indices.tolist() == [0, 2, 4, 1, 3]
    assert_same(core.argsort(x), core.tensor(np.argsort(np.array([2, 1, 2, 1, 2]), kind="stable")))


def test_kthvalue_indices_with_ties_match_torch_quickselect(torch):
    arr = RNG.integers(0, 3, (40, 9)).astype(np.float64)
    arr[::7, 2] = np.nan
    for k in (1, 4, 9):
        check(lambda lib, x, k=k: x.kthvalue(k, 1), [arr], torch)
        check(lambda lib, x, k=k: x.kthvalue(k, 0, keepdim=True), [arr[:9].T.copy()], torch)


def test_median_indices_with_ties_match_torch(torch):
    arr = RNG.integers(0, 3, (30, 8))
    check(lambda lib, x: x.median(1), [arr], torch)
    check(lambda lib, x: x.nanmedian(0), [arr.astype(np.float64)], torch)


def test_numpy_style_axis_is_accepted_like_torch(torch):
    arr = sample((3, 5), "float64", distinct=True)
    for fn in [lambda lib, x: x.sort(axis=0), lambda lib, x: x.topk(2, axis=0), lambda lib, x: x.median(axis=1),
               lambda lib, x: x.kthvalue(2, axis=1, keepdims=True), lambda lib, x: x.quantile(0.5, axis=0)]:
        check(fn, [arr], torch)
