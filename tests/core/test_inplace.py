"""Oracle tests for in-place writes: copy_, zero_, fill_, fill_diagonal_ and the random in-place samplers."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error, check_grads

X = np.random.default_rng(0).standard_normal((3, 4))


@pytest.mark.parametrize("dst,src", [
    ("float32", "float64"), ("float64", "int64"), ("int64", "float32"), ("int32", "bool"), ("bool", "float64"),
])
def test_copy_broadcasts_and_converts_dtype_like_torch(torch, dst, src):
    def fn(lib, a, b):
        return a.copy_(b)
    check(fn, [np.zeros((2, 3), dtype=dst), np.array([1.7, -2.2, 0.0]).astype(src)], torch)


def test_copy_into_a_transposed_view_writes_the_base(torch):
    def fn(lib, a, b):
        a.t()[1:].copy_(b)
        return a, lib.tensor(a._version)
    check(fn, [np.zeros((3, 4)), np.arange(9.0).reshape(3, 3)], torch)


def test_copy_records_copybackwards_and_routes_the_gradient_to_src(torch):
    def fn(lib, x, s):
        y = x * 2
        y[1:].copy_(s[0] * 3)
        return y.clone().copy_(y * y)
    check_grads(fn, [X, np.ones((2, 4))], torch)
    y = core.ones(2, requires_grad=True) * 1
    assert y.copy_(core.zeros(2)).grad_fn.name() == "torch::autograd::CopyBackwards"


def test_copy_of_a_double_into_a_float_gives_a_double_gradient(torch):
    def fn(lib, x):
        return lib.zeros(4, dtype=lib.float32).copy_(x * 2)
    check_grads(fn, [np.arange(4.0)], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, a: a.copy_(lib.ones(2)),
    lambda lib, a: a.copy_(lib.ones(2, 3)),
    lambda lib, a: a.expand(2, 3).copy_(lib.ones(2, 3)),
    lambda lib, a: a.requires_grad_().copy_(lib.ones(3)),
    lambda lib, a: a.fill_(lib.ones(2)),
    lambda lib, a: a.int().to(lib.int8).fill_(300),
    lambda lib, a: a.requires_grad_().zero_(),
], ids=["size", "broadcast", "expanded", "leaf", "fill-1d", "overflow", "zero-leaf"])
def test_in_place_write_errors_match_torch(torch, fn):
    check_error(fn, [np.zeros(3)], torch)


def test_leaf_and_overlap_messages(torch):
    check_error(lambda lib, a: a.requires_grad_().fill_(1), [np.zeros(3)], torch,
                match="a leaf Variable that requires grad is being used in an in-place operation.")
    check_error(lambda lib, a: a.expand(2, 3).uniform_(), [np.zeros(3)], torch,
                match="more than one element of the written-to tensor refers to a single memory location")


def test_zero_and_fill_may_write_an_expanded_tensor(torch):
    check(lambda lib, a: (a.expand(2, 3).fill_(4), a), [np.zeros(3)], torch)
    check(lambda lib, a: (a.expand(2, 3).zero_(), a), [np.ones(3)], torch)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "bool"])
@pytest.mark.parametrize("value", [0, 1, 2.7, -1.5, True])
def test_fill_and_zero_values_and_dtypes(torch, dtype, value):
    data = np.ones((2, 3), dtype=dtype)
    check(lambda lib, a: a.fill_(value), [data], torch)
    check(lambda lib, a: (a[:, 1:].fill_(value), a), [data], torch)
    check(lambda lib, a: a.t().zero_(), [data], torch, check_stride=True)


def test_fill_with_a_zero_dim_tensor_sends_the_summed_gradient_to_it(torch):
    def fn(lib, x, v):
        y = x * 1
        y[1].fill_(v * 2)
        return y
    check_grads(fn, [X, np.array(1.5)], torch)


def test_zero_and_fill_of_a_non_leaf_give_zero_gradient_to_the_old_value(torch):
    check_grads(lambda lib, x: (x * 3).zero_() + x, [X], torch)
    check_grads(lambda lib, x: (x * 3).fill_(2.0) * x, [X], torch)
    names = []
    for fill in (lambda t: t.zero_(), lambda t: t.fill_(1), lambda t: t.fill_(core.tensor(1.0))):
        names.append(fill(core.ones(2, requires_grad=True) * 1).grad_fn.name())
    assert names == ["ZeroBackward0", "FillBackward2", "FillBackward3"]


def test_in_place_writes_bump_the_shared_version_once(torch):
    x = core.zeros(3, 4)
    v = x[1]
    for op in (lambda t: t.zero_(), lambda t: t.fill_(2), lambda t: t.copy_(core.ones(4)),
               lambda t: t.uniform_(), lambda t: t.normal_(), lambda t: t.bernoulli_(0.3)):
        before = x._version
        op(v)
        assert x._version == v._version == before + 1
    assert float(x[1].sum()) == float(v.sum())


@pytest.mark.parametrize("shape,wrap", [((3, 3), False), ((5, 3), False), ((7, 3), True), ((3, 6), True),
                                        ((2, 2, 2), False)])
def test_fill_diagonal_matches_torch(torch, shape, wrap):
    check(lambda lib, a: a.fill_diagonal_(5, wrap=wrap), [np.zeros(shape)], torch)


def test_fill_diagonal_of_a_non_leaf_rebases_with_copyslices(torch):
    check_grads(lambda lib, x: (x * 2).fill_diagonal_(0.0) * x, [X], torch)
    check_error(lambda lib, a: a.fill_diagonal_(1), [np.zeros(3)], torch, match="dimensions must larger than 1")
    check_error(lambda lib, a: a.fill_diagonal_(1), [np.zeros((2, 3, 3))], torch)


# ----- random in-place samplers ---------------------------------------------------------------------

SAMPLERS = {
    "uniform_": lambda t: t.uniform_(-2, 3),
    "normal_": lambda t: t.normal_(1.0, 2.0),
    "exponential_": lambda t: t.exponential_(2.0),
    "bernoulli_": lambda t: t.bernoulli_(0.3),
    "random_": lambda t: t.random_(3, 9),
    "log_normal_": lambda t: t.log_normal_(0.0, 0.5),
    "geometric_": lambda t: t.geometric_(0.25),
    "cauchy_": lambda t: t.cauchy_(1.0, 0.5),
}


@pytest.mark.parametrize("name", SAMPLERS)
def test_random_fills_are_reproducible_under_manual_seed(name):
    core.manual_seed(123)
    a = SAMPLERS[name](core.empty(50))
    core.manual_seed(123)
    b = SAMPLERS[name](core.empty(50))
    c = SAMPLERS[name](core.empty(50))
    assert np.array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(b.numpy(), c.numpy())


def test_random_fills_use_a_given_generator():
    g = core.Generator().manual_seed(5)
    a = core.empty(20).uniform_(generator=g)
    g.manual_seed(5)
    assert np.array_equal(a.numpy(), core.empty(20).uniform_(generator=g).numpy())


@pytest.mark.parametrize("name,mean,var,lo,hi", [
    ("uniform_", 0.5, 25 / 12, -2, 3), ("normal_", 1.0, 4.0, -np.inf, np.inf), ("exponential_", 0.5, 0.25, 0, np.inf),
    ("bernoulli_", 0.3, 0.21, 0, 1), ("random_", 5.5, 35 / 12, 3, 8),
    ("log_normal_", np.exp(0.125), (np.exp(0.25) - 1) * np.exp(0.25), 0, np.inf), ("geometric_", 4.0, 12.0, 1, np.inf),
])
def test_random_fills_have_the_right_range_and_moments(name, mean, var, lo, hi):
    a = SAMPLERS[name](core.empty(40000, dtype=core.float64)).numpy()
    assert a.min() >= lo and a.max() <= hi
    assert abs(a.mean() - mean) < 5 * np.sqrt(var / a.size)
    assert abs(a.var() - var) < 0.1 * var


def test_cauchy_median_and_integer_fills():
    a = core.empty(20000).cauchy_(1.0, 0.5).numpy()
    assert abs(np.median(a) - 1.0) < 0.05
    r = core.zeros(1000, dtype=core.int64).random_(-3, 4).numpy()
    assert set(np.unique(r)) == set(range(-3, 4))
    assert core.zeros(1000, dtype=core.bool).random_().numpy().any()
    f = core.zeros(1000).random_(10).numpy()
    assert f.min() >= 0 and f.max() <= 9 and np.all(f == np.round(f))
    assert core.zeros(100, dtype=core.uint8).random_().numpy().max() <= 255


def test_bernoulli_with_a_tensor_of_probabilities():
    p = core.tensor([0.0, 1.0, 0.0, 1.0])
    assert core.zeros(3, 4).bernoulli_(p).numpy().tolist() == [[0.0, 1.0, 0.0, 1.0]] * 3
    assert core.bernoulli(core.tensor([1.0, 0.0, 1.0])).tolist() == [1.0, 0.0, 1.0]
    draws = core.bernoulli(core.full((20000,), 0.25)).numpy()
    assert abs(draws.mean() - 0.25) < 0.02
    assert core.bernoulli(core.zeros(5), 1.0).tolist() == [1.0] * 5


@pytest.mark.parametrize("name", SAMPLERS)
def test_samplers_on_a_non_leaf_record_torch_node_names_and_zero_grad(torch, name):
    x = core.ones(3, dtype=core.float64, requires_grad=True)
    y = SAMPLERS[name](x * 1)
    tx = torch.ones(3, dtype=torch.float64, requires_grad=True)
    assert y.grad_fn.name() == SAMPLERS[name](tx * 1).grad_fn.name()
    (y + x).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("fn", [
    lambda lib, a: a.uniform_(2, 1), lambda lib, a: a.normal_(0, -1), lambda lib, a: a.exponential_(0),
    lambda lib, a: a.bernoulli_(2.0), lambda lib, a: a.random_(5, 5), lambda lib, a: a.geometric_(0),
    lambda lib, a: a.log_normal_(1, 0), lambda lib, a: a.cauchy_(0, 0), lambda lib, a: a.long().uniform_(),
    lambda lib, a: a.long().normal_(), lambda lib, a: lib.multinomial(a + 1, 4),
    lambda lib, a: lib.multinomial(a - 1, 1), lambda lib, a: lib.multinomial(a, 1),
    lambda lib, a: lib.multinomial(a.long(), 1),
], ids=["uniform", "normal", "exponential", "bernoulli", "random", "geometric", "log_normal", "cauchy",
        "uniform-long", "normal-long", "multinomial-count", "multinomial-negative", "multinomial-zero",
        "multinomial-long"])
def test_sampler_argument_errors_match_torch(torch, fn):
    check_error(fn, [np.zeros(3, dtype=np.float32)], torch)


def test_multinomial_draws_follow_the_weights():
    w = core.tensor([1.0, 0.0, 3.0])
    draws = core.multinomial(w, 20000, replacement=True).numpy()
    assert draws.dtype == np.int64 and set(np.unique(draws)) <= {0, 2}
    assert abs((draws == 2).mean() - 0.75) < 0.02
    rows = core.multinomial(core.tensor([[1.0, 1.0, 1.0, 1.0], [0.0, 5.0, 0.0, 1.0]]), 2)
    assert tuple(rows.shape) == (2, 2)
    assert sorted(rows[1].tolist()) == [1, 3]
    assert all(len(set(r)) == 2 for r in rows.tolist())
    core.manual_seed(9)
    a = core.multinomial(core.ones(10), 5)
    core.manual_seed(9)
    assert a.tolist() == core.multinomial(core.ones(10), 5).tolist()


# ----- float64 gradcheck ----------------------------------------------------------------------------

def _copy_into_view(x):
    y = x * 1
    y[1:, ::2].copy_(x[:2, 1::2] * 3)
    return y


def _fill_with_tensor(x):
    y = x * 2
    y[0].fill_(x[2, 3] * 5)
    return y


GRADCHECK = {
    "copy_": _copy_into_view,
    "copy_-broadcast": lambda x: core.zeros(3, 4, dtype=core.float64).copy_(x[0]),
    "fill_-tensor": _fill_with_tensor,
    "zero_": lambda x: (x * 3)[1:].zero_() * x[1:],
    "fill_diagonal_": lambda x: (x * 2).fill_diagonal_(1.5) * x,
    "uniform_": lambda x: (x * 2).uniform_() * 0 + x,
}


@pytest.mark.parametrize("name", GRADCHECK)
def test_float64_gradcheck_of_in_place_writes(name):
    x = core.tensor(X, requires_grad=True)
    assert core.autograd.gradcheck(GRADCHECK[name], (x,))


@pytest.mark.parametrize("name", ["copy_", "fill_-tensor", "fill_diagonal_"])
def test_float64_gradgradcheck_of_in_place_writes(name):
    x = core.tensor(X, requires_grad=True)
    assert core.autograd.gradgradcheck(lambda t: GRADCHECK[name](t) * t, (x,))


FILL_EDGE = {
    "fill_-bool-tensor": lambda lib: lib.zeros(3).fill_(lib.tensor(True)),
    "fill_-int-into-bool": lambda lib: lib.zeros(3, dtype=lib.bool).fill_(2),
    "fill_-nan-int": lambda lib: lib.zeros(3, dtype=lib.int64).fill_(float("nan")),
    "fill_-float-uint8": lambda lib: lib.zeros(3, dtype=lib.uint8).fill_(-1),
    "copy_-cross": lambda lib: lib.zeros(2,3).copy_(lib.ones(3, dtype=lib.int64)),
    "fill_-int8-overflow": lambda lib: lib.zeros(3, dtype=lib.int8).fill_(127.9),
    "fill_-uint8-256": lambda lib: lib.zeros(3, dtype=lib.uint8).fill_(256),
    "fill_-uint8-neg256": lambda lib: lib.zeros(3, dtype=lib.uint8).fill_(-256),
    "fill_-half-overflow": lambda lib: lib.zeros(3, dtype=lib.float16).fill_(1e6),
    "fill_-float-inf": lambda lib: lib.zeros(3).fill_(float("inf")),
}


@pytest.mark.parametrize("name", FILL_EDGE)
def test_fill_and_copy_casts_and_overflow_errors_match_torch(torch, name):
    ours, theirs = [], []
    for lib, out in ((core, ours), (torch, theirs)):
        try:
            out.append(FILL_EDGE[name](lib))
        except Exception as exc:  # the type is what we compare
            out.append(exc)
    if isinstance(theirs[0], Exception):
        assert type(ours[0]).__name__ == type(theirs[0]).__name__ and str(ours[0]) == str(theirs[0])
    else:
        assert_same(ours[0], theirs[0])


@pytest.mark.parametrize("fn", [
    lambda lib, x: x.__setitem__(slice(1, None), x[:-1]),
    lambda lib, x: x.__setitem__([1, 2, 3, 4], x[:-1]),
    lambda lib, x: x[1:].copy_(x[:-1]),
    lambda lib, x: x.index_put_((lib.tensor([0, 1]),), x[1:3]),
], ids=["setitem-slice", "setitem-advanced", "copy_", "index_put_"])
def test_writes_from_partly_overlapping_memory_raise_like_torch(torch, fn):
    check_error(fn, [np.arange(5.0)], torch, match="some elements of the input tensor and the written-to tensor")


def test_writes_from_the_same_or_disjoint_memory_are_allowed(torch):
    check(lambda lib, x: (x.copy_(x), x[:2].copy_(x[3:]), x)[2], [np.arange(5.0)], torch)
    check(lambda lib, x: (x.__setitem__(slice(None), x), x)[1], [np.arange(5.0)], torch)
