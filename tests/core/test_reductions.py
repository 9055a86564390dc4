"""Reductions, statistics and cumulative ops against PyTorch: values, dtypes, shapes, errors, gradients."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import core
from tests.core.oracle import assert_same, check, check_error, check_grads, inputs, raised

RNG = np.random.default_rng(0)

DTYPES = ["float32", "float64", "int64", "int32", "bool"]



def sample(shape, dtype):
    """Small values with ties (so max/min/mode see repeats), in the given dtype."""
    if dtype == "bool":
        return RNG.integers(0, 2, shape).astype(bool)
    if dtype.startswith("int"):
        return RNG.integers(-3, 4, shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


# Shapes with every dim choice worth trying: 0-d, empty, 1-D, 3-D.
CASES = [
    ((), [None, 0, -1]),
    ((0, 3), [None, 1, -1]),
    ((5,), [None, 0, -1]),
    ((2, 3, 4), [None, 0, 1, -1, (0, 2), (-1, 1)]),
]

# Non-contiguous inputs: a transposed and a strided view of a 3-D tensor.
VIEWS = [lambda lib, t: t.transpose(0, 2), lambda lib, t: t.permute(1, 0, 2)[:, ::2]]


def agree(fn, arrays, torch):
    """Both libraries succeed with equal results, or both raise the same exception type."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(torch, *inputs(torch, arrays))
        except Exception:  # torch refusing is what we then expect from core
            check_error(fn, arrays, torch)
            return
        check(fn, arrays, torch)


def _tuple_dims_ok(dim):
    return not isinstance(dim, tuple)


SIMPLE_DIM_OPS = {
    "sum": lambda lib, x, d, k: x.sum() if d is None else x.sum(d, keepdim=k),
    "nansum": lambda lib, x, d, k: lib.nansum(x) if d is None else lib.nansum(x, d, keepdim=k),
    "mean": lambda lib, x, d, k: x.mean() if d is None else x.mean(d, keepdim=k),
    "nanmean": lambda lib, x, d, k: x.nanmean() if d is None else x.nanmean(d, keepdim=k),
    "var": lambda lib, x, d, k: x.var() if d is None else x.var(d, keepdim=k),
    "std": lambda lib, x, d, k: x.std(d, correction=0, keepdim=k),
    "amax": lambda lib, x, d, k: x.amax() if d is None else x.amax(d, keepdim=k),
    "amin": lambda lib, x, d, k: x.amin() if d is None else x.amin(d, keepdim=k),
    "all": lambda lib, x, d, k: x.all() if d is None else x.all(d, keepdim=k),
    "any": lambda lib, x, d, k: x.any() if d is None else x.any(d, keepdim=k),
    "count_nonzero": lambda lib, x, d, k: lib.count_nonzero(x, d),
    "logsumexp": lambda lib, x, d, k: x.logsumexp(d if d is not None else tuple(range(x.ndim)) or 0, keepdim=k),
    "norm": lambda lib, x, d, k: x.norm(dim=d, keepdim=k),
}

SINGLE_DIM_OPS = {
    "prod": lambda lib, x, d, k: x.prod() if d is None else x.prod(d, keepdim=k),
    "max": lambda lib, x, d, k: x.max() if d is None else x.max(d, keepdim=k),
    "min": lambda lib, x, d, k: x.min() if d is None else x.min(d, keepdim=k),
    "argmax": lambda lib, x, d, k: x.argmax(d, keepdim=k),
    "argmin": lambda lib, x, d, k: x.argmin(d, keepdim=k),
    "aminmax": lambda lib, x, d, k: lib.aminmax(x, dim=d, keepdim=k),
    "cumsum": lambda lib, x, d, k: x.cumsum(d if d is not None else 0),
    "cumprod": lambda lib, x, d, k: x.cumprod(d if d is not None else 0),
    "logcumsumexp": lambda lib, x, d, k: x.logcumsumexp(d if d is not None else 0),
    "cummax": lambda lib, x, d, k: x.cummax(d if d is not None else 0),
    "cummin": lambda lib, x, d, k: x.cummin(d if d is not None else 0),
    "softmax": lambda lib, x, d, k: x.softmax(d if d is not None else 0),
    "log_softmax": lambda lib, x, d, k: x.log_softmax(d if d is not None else -1),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(SIMPLE_DIM_OPS) + list(SINGLE_DIM_OPS))
def test_reduction_matches_torch_over_dtypes_shapes_dims_and_keepdim(torch, name, dtype):
    op = SIMPLE_DIM_OPS.get(name) or SINGLE_DIM_OPS[name]
    for shape, dims in CASES:
        arr = sample(shape, dtype)
        for d in dims:
            if name in SINGLE_DIM_OPS and isinstance(d, tuple):
                continue
            for keepdim in (False, True):
                agree(lambda lib, x, d=d, k=keepdim: op(lib, x, d, k), [arr], torch)


@pytest.mark.parametrize("name", list(SIMPLE_DIM_OPS) + list(SINGLE_DIM_OPS))
def test_reduction_of_non_contiguous_views_matches_torch(torch, name):
    op = SIMPLE_DIM_OPS.get(name) or SINGLE_DIM_OPS[name]
    arr = sample((4, 3, 5), "float64")
    for view in VIEWS:
        for d in (None, 0, -1):
            agree(lambda lib, x, v=view, d=d: op(lib, v(lib, x), d, False), [arr], torch)


GRAD_OPS = {
    "sum": lambda lib, x: x.sum((0, 2), keepdim=True),
    "sum_dtype": lambda lib, x: x.sum(1, dtype=lib.float32),
    "nansum": lambda lib, x: lib.nansum(x, 1),
    "mean": lambda lib, x: x.mean(-1),
    "mean_all": lambda lib, x: x.mean(),
    "nanmean": lambda lib, x: x.nanmean(0),
    "prod": lambda lib, x: x.prod(1),
    "prod_all": lambda lib, x: x.prod(),
    "var": lambda lib, x: x.var((0, 1)),
    "std": lambda lib, x: x.std(2, keepdim=True),
    "var_mean": lambda lib, x: sum(lib.var_mean(x, 1, correction=0)),
    "std_mean": lambda lib, x: lib.std_mean(x, 0)[0] * 3 + lib.std_mean(x, 0)[1],
    "amax": lambda lib, x: x.amax(1),
    "amin": lambda lib, x: x.amin((0, 2)),
    "max": lambda lib, x: x.max(),
    "max_dim": lambda lib, x: x.max(1).values,
    "min_dim": lambda lib, x: x.min(-1, keepdim=True)[0],
    "aminmax": lambda lib, x: lib.aminmax(x, dim=1).min + lib.aminmax(x, dim=1).max * 2,
    "logsumexp": lambda lib, x: x.logsumexp((0, 2)),
    "norm": lambda lib, x: x.norm(dim=1),
    "norm_1": lambda lib, x: x.norm(1),
    "norm_3": lambda lib, x: x.norm(3, dim=(0, 2)),
    "norm_half": lambda lib, x: x.norm(0.5),
    "norm_inf": lambda lib, x: x.norm(float("inf"), dim=1),
    "dist": lambda lib, x: lib.dist(x, x * x, 2.5),
    "cumsum": lambda lib, x: x.cumsum(1),
    "cumprod": lambda lib, x: x.cumprod(-1),
    "logcumsumexp": lambda lib, x: x.logcumsumexp(1),
    "cummax": lambda lib, x: x.cummax(2).values,
    "cummin": lambda lib, x: x.cummin(0).values,
    "softmax": lambda lib, x: x.softmax(1),
    "log_softmax": lambda lib, x: x.log_softmax(-1),
    "diff": lambda lib, x: x.diff(n=2, dim=1),
}


@pytest.mark.parametrize("name", list(GRAD_OPS))
def test_gradient_matches_torch(torch, name):
    check_grads(GRAD_OPS[name], [sample((2, 3, 4), "float64")], torch)


@pytest.mark.parametrize("name", [n for n in GRAD_OPS if n != "sum_dtype"])  # sum_dtype gives float32
def test_gradient_passes_gradcheck_in_float64(name):
    x = core.tensor(sample((2, 3, 4), "float64"), requires_grad=True)
    assert core.autograd.gradcheck(lambda t: GRAD_OPS[name](core, t), (x,))


@pytest.mark.parametrize("name", [n for n in GRAD_OPS if n != "sum_dtype"])
def test_double_backward_passes_gradgradcheck_in_float64(name):
    x = core.tensor(sample((2, 3, 2), "float64"), requires_grad=True)
    assert core.autograd.gradgradcheck(lambda t: GRAD_OPS[name](core, t), (x,))


TIES = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, 2.0, 2.0]])


@pytest.mark.parametrize("name", ["max", "amax", "amin", "max_dim", "min_dim", "aminmax", "norm_inf", "cummax"])
def test_gradient_with_ties_matches_torch(torch, name):
    fn = GRAD_OPS[name]
    check_grads(lambda lib, x: fn(lib, x.reshape(2, 2, 2)), [TIES], torch)


ZEROS = np.array([[[2.0, 0.0, 3.0], [0.0, 0.0, 1.5]], [[1.0, 2.0, 0.0], [4.0, -1.0, 2.0]]])


@pytest.mark.parametrize("fn", [lambda lib, x: x.prod(), lambda lib, x: x.prod(2), lambda lib, x: x.prod(1),
                                lambda lib, x: x.prod(0, keepdim=True), lambda lib, x: x.cumprod(2),
                                lambda lib, x: x.cumprod(1)])
def test_prod_and_cumprod_gradients_are_exact_with_zeros(torch, fn):
    check_grads(fn, [ZEROS], torch)


def test_prod_gradient_with_one_zero_survives_double_backward(torch):
    def second(lib, x):
        (g,) = lib.autograd.grad(x.prod(), x, create_graph=True)
        return g

    check_grads(second, [np.array([2.0, 0.0, 3.0])], torch)


def test_gradients_at_zero_norm_and_constant_std_are_zero_like_torch(torch):
    check_grads(lambda lib, x: x.norm(), [np.zeros(3)], torch)
    check_grads(lambda lib, x: x.norm(dim=0), [np.zeros((3, 2))], torch)
    check_grads(lambda lib, x: x.std(), [np.ones(4)], torch)


def test_p0_norm_leaves_the_gradient_undefined_like_torch(torch):
    check_grads(lambda lib, x: x.norm(0) + x.sum(), [sample((3,), "float64")], torch)


@pytest.mark.parametrize("fn", [lambda lib, x: x.softmax(1), lambda lib, x: x.log_softmax(0),
                                lambda lib, x: x.logsumexp(1), lambda lib, x: x.logcumsumexp(1)])
def test_softmax_family_is_stable_for_huge_inputs(torch, fn):
    check(fn, [np.array([[1000.0, 1001.0, -1000.0], [-np.inf, 0.0, 5.0]])], torch)


def test_grad_fn_names_match_torch(torch):
    x = sample((2, 3), "float64")
    calls = [lambda lib, t: t.sum(), lambda lib, t: t.sum(0), lambda lib, t: t.mean(), lambda lib, t: t.mean(1),
             lambda lib, t: t.prod(), lambda lib, t: t.prod(0), lambda lib, t: t.var(), lambda lib, t: t.std(0),
             lambda lib, t: lib.var_mean(t)[0], lambda lib, t: lib.std_mean(t)[1], lambda lib, t: t.max(),
             lambda lib, t: t.max(0)[0], lambda lib, t: t.min(), lambda lib, t: t.min(1)[0], lambda lib, t: t.amax(),
             lambda lib, t: t.amin(0), lambda lib, t: lib.aminmax(t)[0], lambda lib, t: t.logsumexp(0),
             lambda lib, t: t.norm(), lambda lib, t: t.norm(1, dim=0), lambda lib, t: t.nansum(),
             lambda lib, t: t.nanmean(), lambda lib, t: t.cumsum(0), lambda lib, t: t.cumprod(1),
             lambda lib, t: t.logcumsumexp(0), lambda lib, t: t.cummax(0)[0], lambda lib, t: t.cummin(0)[0],
             lambda lib, t: t.softmax(0), lambda lib, t: t.log_softmax(1), lambda lib, t: lib.dist(t, t * 2)]
    for fn in calls:
        ours, theirs = [fn(lib, *inputs(lib, [x], requires_grad=True)) for lib in (core, torch)]
        assert ours.grad_fn.name() == theirs.grad_fn.name()


@pytest.mark.cpu_only
def test_max_with_dim_returns_a_named_tuple_that_prints_and_unpacks_like_torch(torch):
    ours, theirs = [lib.tensor([[1, 3], [4, 2]]).max(1) for lib in (core, torch)]
    assert repr(ours) == repr(theirs)
    values, indices = ours
    assert values is ours.values and indices is ours.indices
    assert ours.values.tolist() == [3, 4] and ours[1].tolist() == [1, 0]
    assert type(ours).__name__ == "max" and isinstance(ours, tuple)
    assert repr(core.aminmax(core.tensor([1.0, 2.0]))) == repr(torch.aminmax(torch.tensor([1.0, 2.0])))


def test_binary_max_and_min_route_to_maximum_and_minimum(torch):
    a, b = np.array([1.0, 5.0, 3.0]), np.array([4.0, 2.0, 3.0])
    check(lambda lib, x, y: lib.max(x, y), [a, b], torch)
    check(lambda lib, x, y: x.min(y), [a, b], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, x: x.sum(3), lambda lib, x: x.sum((0, 0)), lambda lib, x: x.mean(-4),
    lambda lib, x: x.long().mean(), lambda lib, x: x.int().mean(0), lambda lib, x: x.bool().mean(),
    lambda lib, x: x.long().mean(dtype=lib.int64), lambda lib, x: x.long().nanmean(), lambda lib, x: x.long().var(),
    lambda lib, x: x.long().std(0), lambda lib, x: x.long().norm(), lambda lib, x: x.max(5),
    lambda lib, x: x[:0].max(), lambda lib, x: x[:0].max(0), lambda lib, x: x[:0].amax(),
    lambda lib, x: x[:0].argmax(), lambda lib, x: x[:0].argmin(0), lambda lib, x: lib.aminmax(x[:0]),
    lambda lib, x: x.bool().argmax(), lambda lib, x: x.long().softmax(0), lambda lib, x: x.long().log_softmax(0),
    lambda lib, x: x.long().logcumsumexp(0), lambda lib, x: x[:0].norm(float("inf")), lambda lib, x: x.cumsum(2),
    lambda lib, x: x.prod((0, 1)), lambda lib, x: x[0, 0].diff(),
])
def test_bad_arguments_raise_like_torch(torch, fn):
    check_error(fn, [sample((2, 3), "float32")], torch)


def test_mean_of_integers_names_the_dtype_like_torch():
    with pytest.raises(RuntimeError, match=r"mean\(\): could not infer output dtype. Input dtype must be either a "
                                           r"floating point or complex dtype. Got: Long"):
        core.tensor([1, 2]).mean()


def test_dtype_argument_sets_the_result_dtype_like_torch(torch):
    arr = sample((2, 3), "int64")
    for fn in [lambda lib, x: x.sum(dtype=lib.float64), lambda lib, x: x.sum(0, dtype=lib.int32),
               lambda lib, x: x.mean(dtype=lib.float32), lambda lib, x: x.prod(1, dtype=lib.float64),
               lambda lib, x: x.cumsum(1, dtype=lib.float32), lambda lib, x: x.cumprod(0, dtype=lib.float64),
               lambda lib, x: x.softmax(1, dtype=lib.float64), lambda lib, x: x.log_softmax(0, dtype=lib.float32),
               lambda lib, x: x.nansum(dtype=lib.float64), lambda lib, x: x.float().norm(dtype=lib.float64)]:
        check(fn, [arr], torch)


def test_var_overloads_and_corrections_match_torch(torch):
    arr = sample((3, 4), "float64")
    for fn in [lambda lib, x: x.var(False), lambda lib, x: x.var(0, False), lambda lib, x: x.std(1, True, True),
               lambda lib, x: x.var(correction=0.5), lambda lib, x: x.std(dim=(0, 1), correction=2),
               lambda lib, x: lib.var_mean(x, 1, keepdim=True), lambda lib, x: lib.std_mean(x, unbiased=False),
               lambda lib, x: x.var(None, keepdim=True), lambda lib, x: x.sum(None, keepdim=True)]:
        check(fn, [arr], torch)


def test_var_with_too_few_elements_warns_and_gives_nan_like_torch(torch):
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        ours = core.tensor([1.0]).var()
    assert math.isnan(ours.item())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(core.tensor([1.0, 2.0]).var(correction=3), torch.tensor([1.0, 2.0]).var(correction=3))


def test_nan_propagates_through_max_and_argmax_like_torch(torch):
    arr = np.array([[1.0, np.nan, 3.0], [2.0, 0.0, -1.0]])
    for fn in [lambda lib, x: x.max(), lambda lib, x: x.max(1), lambda lib, x: x.argmax(), lambda lib, x: x.amax(0),
               lambda lib, x: x.nansum(1), lambda lib, x: x.nanmean(), lambda lib, x: x.cummax(1)]:
        check(fn, [arr], torch)
    check_grads(lambda lib, x: x.max(), [arr], torch)


def test_norm_p_values_and_dims_match_torch(torch):
    arr = sample((3, 4), "float32")
    for p in (0, 1, 2, 3, 0.5, float("inf"), float("-inf"), "fro"):
        for dim in (None, 0, (0, 1)):
            check(lambda lib, x, p=p, d=dim: x.norm(p, d, keepdim=d == 0), [arr], torch, rtol=1e-5)


def test_diff_with_prepend_append_and_bool_matches_torch(torch):
    arr = sample((3, 5), "int64")
    check(lambda lib, x: lib.diff(x, n=2, dim=1, prepend=x[:, :1], append=x[:, :2]), [arr], torch)
    check(lambda lib, x: (x > 0).diff(dim=0), [arr], torch)
    check(lambda lib, x: x.diff(n=7), [arr], torch)


@given(shape=st.lists(st.integers(0, 4), min_size=0, max_size=4), data=st.data())
def test_sum_mean_and_var_agree_with_torch_on_random_shapes_and_dims(torch, shape, data):
    arr = RNG.standard_normal(shape)
    nd = len(shape)
    dims = data.draw(st.lists(st.integers(-nd, nd - 1) if nd else st.sampled_from([0, -1]),
                              unique_by=lambda d: d % max(nd, 1), max_size=max(nd, 1)))
    keepdim = data.draw(st.booleans())
    dim = tuple(dims) if dims else None
    for fn in (lambda lib, x: x.sum(dim, keepdim=keepdim), lambda lib, x: x.mean(dim, keepdim=keepdim),
               lambda lib, x: x.var(dim, keepdim=keepdim)):
        agree(fn, [arr], torch)


@pytest.mark.parametrize("name", ["maximum", "minimum", "logaddexp", "add"])
def test_the_doubling_scan_used_off_numpy_equals_ufunc_accumulate(name):
    from core.ops.cumulative import scan

    arr = RNG.standard_normal((3, 11, 4))
    arr[1, 5, 2] = np.nan
    for axis in (0, 1, 2):
        with np.errstate(invalid="ignore"):
            expected = getattr(np, name).accumulate(arr, axis=axis)
            ours = scan(getattr(np, name), arr, axis)
        np.testing.assert_allclose(ours, expected, rtol=1e-10, equal_nan=True)


def test_numpy_style_axis_and_keepdims_are_accepted_like_torch(torch):
    arr = sample((2, 3, 4), "float64")
    for fn in [lambda lib, x: lib.sum(x, axis=1, keepdims=True), lambda lib, x: x.mean(axis=(0, 2)),
               lambda lib, x: x.amax(axis=-1, keepdims=True), lambda lib, x: x.max(axis=0, keepdims=True),
               lambda lib, x: x.var(axis=1), lambda lib, x: x.cumsum(axis=2), lambda lib, x: x.softmax(axis=0),
               lambda lib, x: x.logsumexp(axis=1), lambda lib, x: x.argmax(axis=1), lambda lib, x: x.all(axis=0)]:
        check(fn, [arr], torch)


KEEPDIM_WITHOUT_DIM = {  # only the dim overload takes keepdim, so even keepdim=False is refused
    "method": lambda lib, x: x.sum(keepdim=True), "method False": lambda lib, x: x.mean(keepdim=False),
    "NumPy's name": lambda lib, x: x.sum(keepdims=True), "prod": lambda lib, x: x.prod(keepdim=True),
    "function": lambda lib, x: lib.sum(x, keepdim=True), "mean function": lambda lib, x: lib.mean(x, keepdim=True),
    "method with dtype": lambda lib, x: x.mean(keepdim=True, dtype=lib.float64),
    "function with dtype": lambda lib, x: lib.sum(x, keepdim=True, dtype=lib.float64),
    "mean function with dtype": lambda lib, x: lib.mean(x, dtype=lib.float64, keepdim=True),
    "function with out": lambda lib, x: lib.sum(x, keepdim=True, out=lib.empty(())),
    "int keepdim": lambda lib, x: x.sum(keepdim=1),
    "input keyword": lambda lib, x: lib.sum(input=x, keepdim=True),
    "input keyword prod": lambda lib, x: lib.prod(input=x, keepdim=False),
    "input keyword with dtype": lambda lib, x: lib.sum(input=x, keepdim=True, dtype=lib.float64),
}


STR_DIMS = {  # no overload of std/var takes a str dim, and norm's dim is a tuple of ints: the parser's words
    "std": lambda lib, x: lib.std(x, "a"), "std method": lambda lib, x: x.std("a"),
    "std method keyword": lambda lib, x: x.std(dim="a"), "var keyword": lambda lib, x: lib.var(x, dim="a"),
    "var method": lambda lib, x: x.var("a"), "norm keyword": lambda lib, x: lib.norm(x, dim="a"),
    "norm method": lambda lib, x: x.norm(2, "a"), "norm float": lambda lib, x: lib.norm(x, 2, 1.5),
    "norm tuple": lambda lib, x: x.norm(dim=("a",)),
}


@pytest.mark.parametrize("call", STR_DIMS.values(), ids=STR_DIMS.keys())
def test_a_dim_that_is_no_int_is_refused_by_std_var_and_norm_in_torchs_words(torch, call):
    x = sample((2, 3), "float32")
    theirs = raised(lambda: call(torch, torch.tensor(x)))
    assert theirs is not None and theirs[0] == "TypeError"
    assert raised(lambda: call(core, core.tensor(x))) == theirs


@pytest.mark.parametrize("call", KEEPDIM_WITHOUT_DIM.values(), ids=KEEPDIM_WITHOUT_DIM.keys())
def test_keepdim_without_dim_is_refused_in_torchs_words(torch, call):
    x = sample((2, 3), "float32")
    theirs = raised(lambda: call(torch, torch.tensor(x)))
    assert theirs is not None and theirs[0] == "TypeError"
    assert raised(lambda: call(core, core.tensor(x))) == theirs


def test_keepdim_with_dim_none_still_reduces_every_dim(torch):
    x = sample((2, 3), "float32")
    for call in (lambda lib, t: t.sum(None, keepdim=True), lambda lib, t: t.mean(dim=None, keepdim=True),
                 lambda lib, t: lib.sum(t, axis=None, keepdims=True), lambda lib, t: t.nansum(keepdim=True)):
        check(call, [x], torch)


STR_DIMS = {  # a str is no dim to PyTorch's parser (core has no named dims): its words for each form of call
    "mean keyword": lambda lib, x: x.mean(dim="a"), "mean": lambda lib, x: x.mean("a"),
    "mean function": lambda lib, x: lib.mean(x, "a"), "mean function keyword": lambda lib, x: lib.mean(x, dim="a"),
    "mean with keepdim": lambda lib, x: x.mean(dim="a", keepdim=True), "sum": lambda lib, x: x.sum("a"),
    "sum function with keepdim": lambda lib, x: lib.sum(x, "a", True), "NumPy's name": lambda lib, x: x.sum(axis="a"),
    "mean with dtype": lambda lib, x: lib.mean(x, "a", dtype=lib.float64), "prod": lambda lib, x: x.prod(dim="a"),
    "nansum": lambda lib, x: x.nansum("a"), "nanmean": lambda lib, x: x.nanmean(dim="a"),
    "amax": lambda lib, x: x.amax("a"), "logsumexp": lambda lib, x: x.logsumexp("a"),
    "argmax": lambda lib, x: x.argmax(dim="a"), "cumsum": lambda lib, x: x.cumsum("a"),
}


@pytest.mark.parametrize("call", STR_DIMS.values(), ids=STR_DIMS.keys())
def test_a_str_dim_is_refused_in_torchs_words(torch, call):
    x = sample((2, 3), "float32")
    theirs = raised(lambda: call(torch, torch.tensor(x)))
    assert theirs is not None and theirs[0] == "TypeError"
    assert raised(lambda: call(core, core.tensor(x))) == theirs


LOGICAL_KEYWORDS = {  # all/any: an unknown keyword, a keepdim that is no bool, or a bad dim among keywords
    "three keywords": lambda lib, b: b.all(dim=0, keepdim=True, foo=1),
    "out on the method": lambda lib, b: b.any(dim=0, keepdim=True, out=None),
    "str dim": lambda lib, b: b.all(dim="a", keepdim=True), "float dim": lambda lib, b: b.any(dim=1.0, keepdim=True),
    "unknown keyword": lambda lib, b: b.all(foo=1), "str keepdim": lambda lib, b: b.all(dim=0, keepdim="x"),
    "dim by position": lambda lib, b: b.all(0, keepdim="x"), "keepdim first": lambda lib, b: b.all(keepdim="x", dim=0),
    "unknown and dim": lambda lib, b: b.all(dim=0, foo=1), "dim and unknown": lambda lib, b: b.all(0, foo=1),
    "int keepdim": lambda lib, b: b.all(dim=[0, 1], keepdim=1),
    "function": lambda lib, b: lib.all(b, dim=0, keepdim=True, foo=1),
    "function str dim": lambda lib, b: lib.any(b, dim="a", keepdim=True),
    "function unknown": lambda lib, b: lib.all(b, foo=1),
    "function str keepdim": lambda lib, b: lib.any(b, 0, keepdim="x"),
    "function keepdim first": lambda lib, b: lib.all(b, keepdim="x", dim=0),
    "function unknown and dim": lambda lib, b: lib.all(b, dim=0, foo=1),
}


@pytest.mark.parametrize("call", LOGICAL_KEYWORDS.values(), ids=LOGICAL_KEYWORDS.keys())
def test_all_and_any_refuse_bad_keywords_in_torchs_words(torch, call):
    b = sample((2, 3), "bool")
    theirs = raised(lambda: call(torch, torch.tensor(b)))
    assert theirs is not None and theirs[0] == "TypeError"
    assert raised(lambda: call(core, core.tensor(b))) == theirs


def test_all_and_any_take_their_keywords_as_torch(torch):
    b = sample((2, 3), "bool")
    for call in (lambda lib, t: t.all(dim=0, keepdim=True), lambda lib, t: t.any(axis=0, keepdims=True),
                 lambda lib, t: lib.all(t, dim=(0, 1), keepdim=False), lambda lib, t: t.all(keepdim=True),
                 lambda lib, t: t.any(dim=lib.tensor(1), keepdim=True)):
        check(call, [b], torch)
