"""Oracle tests for ``t[index]``, ``t[index] = value`` and the gather/scatter/index_* family."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error, check_grads

S = slice


def _idx(lib, index):
    """An index expression for ``lib``: ('t', data) items become int64 tensors, ('m', data) bool masks."""
    def one(i):
        if isinstance(i, tuple) and i and i[0] == "t":
            return lib.tensor(i[1], dtype=lib.int64)
        if isinstance(i, tuple) and i and i[0] == "m":
            return lib.tensor(i[1], dtype=lib.bool)
        return i
    if isinstance(index, tuple) and not (index and isinstance(index[0], str)):
        return tuple(one(i) for i in index)
    return one(index)


BASIC = [
    (0,), (-1,), (S(1, 3),), (S(None, None, 2),), (S(-2, None),), (S(5, 1),), (None,), (Ellipsis,), (),
    (0, S(None)), (S(None), 1), (Ellipsis, 0), (None, Ellipsis, None), (0, None, S(1, None)),
    (("t", 1),), (S(0, 0),), (-2, Ellipsis, S(None, None, 3)),
]

ADVANCED = [
    ([0, 1],), ([-1, 0, 0],), (("t", [1, 0]),), (("t", [[0, 1], [1, 0]]),), (np.array([1, 0]),),
    (("m", [True, False]),), (S(None), [2, 0]), ([0, 1], S(None), [1, 2]), (0, S(None), [1, 2]),
    ([1], [0, 2]), (Ellipsis, [0, 0]), (None, [1, 0]), (True,), (False,), (S(None), ("m", [True, False, True])),
    (("m", [[True, False, True], [False, False, True]]),), ([[0], [1]], S(None), [0, 1]), (("t", []),),
    (S(1, None), [0]), ([0, 1], [1, 0], S(None, 2)),
]


@pytest.mark.parametrize("index", BASIC, ids=str)
def test_basic_indexing_gives_views_with_torch_strides_and_offsets(torch, index):
    data = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    ours = check(lambda lib, x: x[_idx(lib, index)], [data], torch, check_stride=True)
    x = core.tensor(data)
    v = x[_idx(core, index)]
    tv = torch.tensor(data)[_idx(torch, index)]
    assert v._base is x and v.storage_offset() == tv.storage_offset()
    assert ours._base is not None and v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


@pytest.mark.parametrize("index", ADVANCED, ids=str)
def test_advanced_indexing_copies_like_torch(torch, index):
    data = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4)
    ours = check(lambda lib, x: x[_idx(lib, index)], [data], torch)
    assert ours._base is None


@pytest.mark.parametrize("index", BASIC + ADVANCED, ids=str)
def test_indexing_gradients_match_torch(torch, index):
    data = np.random.default_rng(0).standard_normal((2, 3, 4))
    check_grads(lambda lib, x: x[_idx(lib, index)] * 2, [data], torch)


@pytest.mark.parametrize("index", BASIC + ADVANCED, ids=str)
def test_grad_fn_names_match_torch(torch, index):
    data = np.ones((2, 3, 4))
    ours = core.tensor(data, requires_grad=True)[_idx(core, index)]
    theirs = torch.tensor(data, requires_grad=True)[_idx(torch, index)]
    assert ours.grad_fn.name() == theirs.grad_fn.name()


@pytest.mark.parametrize("dtype", ["float32", "int64", "int32", "bool"])
@pytest.mark.parametrize("index", [(1,), ([0, 2],), (S(None, None, 2),), (("m", [True, False, True]),)], ids=str)
def test_indexing_keeps_the_dtype(torch, dtype, index):
    data = (np.arange(3) % 2).astype(dtype)
    check(lambda lib, x: x[_idx(lib, index)], [data], torch)


def test_indexing_works_on_non_contiguous_inputs(torch):
    data = np.arange(24.0).reshape(4, 6)
    check(lambda lib, x: x.t()[1:, ::2], [data], torch, check_stride=True)
    check(lambda lib, x: x.t()[[0, 5], 1:3], [data], torch)
    check(lambda lib, x: x[:, ::2][[1, 3]], [data], torch)
    check(lambda lib, x: x.expand(2, 4, 6)[1, [0, 1]], [data], torch)


def test_indexing_a_zero_dim_tensor(torch):
    data = np.array(3.0)
    check(lambda lib, x: x[None], [data], torch, check_stride=True)
    check(lambda lib, x: x[...], [data], torch)
    check(lambda lib, x: x[True], [data], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, x: x[5], lambda lib, x: x[-4], lambda lib, x: x[0, 0], lambda lib, x: x[lib.tensor([3])],
    lambda lib, x: x[::-1], lambda lib, x: x[1.5], lambda lib, x: x[lib.tensor([True, False])],
    lambda lib, x: x[lib.tensor([0.0])]
], ids=["int", "neg-int", "too-many", "tensor", "neg-step", "float", "mask-shape", "float-tensor"])
def test_bad_indices_raise_like_torch(torch, fn):
    check_error(fn, [np.arange(3.0)], torch)


def test_out_of_range_index_message_names_dim_and_size(torch):
    check_error(lambda lib, x: x[5], [np.arange(3.0)], torch,
                match="index 5 is out of bounds for dimension 0 with size 3")
    check_error(lambda lib, x: x[:, [0, 1], [1, 2, 3]], [np.zeros((2, 3, 4))], torch, match="shape mismatch")


# ----- setitem -------------------------------------------------------------------------------------

SET_CASES = [
    (0, 7.0), ((S(None), 1), -1.0), ([0, 2], 5.0), ((S(None), [1, 0]), 3.0),
    (("m", [True, False, True]), 9.0), ((1, S(None, None, 2)), np.array([4.0, 5.0])), ((None, 0), 2.0),
    ((Ellipsis, S(1, 3)), np.array([[1.0, 2.0]])),
    ((S(None), [0, 1]), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])), (Ellipsis, 1.5), ([[0], [1]], 0.0),
]


def _set(lib, x, index, value):
    if isinstance(value, np.ndarray):
        value = lib.tensor(value)
    x[_idx(lib, index)] = value
    return x


@pytest.mark.parametrize("index,value", SET_CASES, ids=str)
def test_setitem_writes_in_place_and_bumps_the_version_once(torch, index, value):
    data = np.arange(12.0).reshape(3, 4)
    check(lambda lib, x: _set(lib, x, index, value), [data], torch)
    x = core.tensor(data)
    ptr, version = x.data_ptr(), x._version
    _set(core, x, index, value)
    assert x.data_ptr() == ptr and x._version == version + 1


@pytest.mark.parametrize("index,value", SET_CASES, ids=str)
def test_setitem_through_a_view_changes_the_base(torch, index, value):
    data = np.arange(24.0).reshape(2, 3, 4)

    def fn(lib, x):
        v = x[1]
        _set(lib, v, index, value)
        return x, v, lib.tensor(v._version)
    check(fn, [data], torch)


@pytest.mark.parametrize("index,value", SET_CASES, ids=str)
def test_setitem_gradients_of_non_leaf_match_torch(torch, index, value):
    data = np.random.default_rng(1).standard_normal((3, 4))

    def fn(lib, x):
        y = x * 1
        _set(lib, y, index, value)
        return y * y
    check_grads(fn, [data], torch)


def test_setitem_with_a_tensor_value_gets_gradient_for_both(torch):
    def fn(lib, x, v):
        y = x * 2
        y[1:, ::2] = v * 3
        y[[0, 0], [1, 3]] = v[0] * 5
        return y
    check_grads(fn, [np.random.default_rng(2).standard_normal((3, 4)), np.ones((2, 2))], torch)


def test_setitem_writes_through_views_of_non_leafs(torch):
    def fn(lib, x):
        y = x * 1
        v = y.t()[1]
        v[0] = 0.0
        v[[1, 2]] = v[[1, 2]] * 4
        return y.sum(0) + v.sum() * 0
    check_grads(fn, [np.random.default_rng(3).standard_normal((3, 4))], torch)
    y = core.ones(3, 4, requires_grad=True) * 1
    y[0] = 0.0
    assert y.grad_fn.name() == "torch::autograd::CopySlices"


def test_setitem_converts_dtype_and_truncates_like_torch(torch):
    check(lambda lib, x: _set(lib, x, 0, 2.7), [np.arange(3)], torch)
    check(lambda lib, x: _set(lib, x, S(None), np.array([1.9, 2.2, -3.5])), [np.arange(3)], torch)
    check(lambda lib, x: _set(lib, x, [0], 1), [np.zeros(3, dtype=bool)], torch)
    check(lambda lib, x: _set(lib, x, 0, np.ones((1, 1, 4))), [np.zeros((3, 4))], torch)


def test_setitem_errors_match_torch(torch):
    def leaf(lib, x):
        x.requires_grad_(True)
        x[[0]] = 1.0
    err = check_error(leaf, [np.zeros(3)], torch)
    assert "a leaf Variable that requires grad" in str(err)
    check_error(lambda lib, x: _set(lib, x.expand(2, 3), 0, 1.0) if False else _set(lib, x.expand(2, 3), S(None), 1.0),
                [np.zeros(3)], torch, match="more than one element")
    check_error(lambda lib, x: _set(lib, x, [0, 1], np.ones((3, 4))), [np.zeros((3, 4))], torch, match="shape mismatch")
    check_error(lambda lib, x: _set(lib, x, 0, np.ones((2, 4))), [np.zeros((3, 4))], torch)


# ----- gather / scatter / index_* ------------------------------------------------------------------

R = np.random.default_rng(4)
X = R.standard_normal((3, 4))
IDX = np.array([[0, 2, 1, 0], [2, 2, 0, 1]])


def _t(lib, a):
    return lib.tensor(a)


@pytest.mark.parametrize("name,fn", [
    ("gather0", lambda lib, x: x.gather(0, _t(lib, IDX))),
    ("gather1", lambda lib, x: lib.gather(x, 1, _t(lib, np.array([[3, 0], [1, 1], [0, 2]])))),
    ("gather-neg-dim", lambda lib, x: x.gather(-1, _t(lib, np.array([[3], [0], [1]])))),
    ("index_select", lambda lib, x: x.index_select(1, _t(lib, np.array([3, 0, 3])))),
    ("index_select0", lambda lib, x: lib.index_select(x, 0, _t(lib, np.array([2, 2])))),
    ("scatter", lambda lib, x: lib.zeros(3, 4, dtype=lib.float64).scatter(0, _t(lib, IDX[:, :3]), x[1:, 1:] * 1)),
    ("scatter-self", lambda lib, x: x.scatter(1, _t(lib, np.array([[1], [0], [3]])), 2.5)),
    ("scatter_add", lambda lib, x: x.scatter_add(0, _t(lib, IDX), x[:2] * 3)),
    ("index_add", lambda lib, x: x.index_add(0, _t(lib, np.array([0, 0, 2])), x * 2, alpha=3)),
    ("index_fill", lambda lib, x: x.index_fill(1, _t(lib, np.array([1, 3])), -1.0)),
    ("index_copy", lambda lib, x: x.index_copy(0, _t(lib, np.array([2, 0, 1])), x * 5)),
    ("take", lambda lib, x: lib.take(x, _t(lib, np.array([[0, 11], [-1, 5]])))),
    ("take_along_dim", lambda lib, x: lib.take_along_dim(x, _t(lib, np.array([[0], [2], [1]])), 1)),
    ("take_along_dim-bcast", lambda lib, x: lib.take_along_dim(x, _t(lib, np.array([[0], [2]])), 0)),
    ("take_along_dim-flat", lambda lib, x: lib.take_along_dim(x, _t(lib, np.array([7, 0])))),
    ("masked_select", lambda lib, x: x.masked_select(_t(lib, X > 0))),
    ("masked_select-bcast", lambda lib, x: lib.masked_select(x, _t(lib, np.array([True, False, True, False])))),
    ("masked_scatter", lambda lib, x: x.masked_scatter(_t(lib, X > 0), x * 10)),
    ("index_put", lambda lib, x: x.index_put((_t(lib, np.array([0, 0, 1])),), x[0] * 2, accumulate=True)),
    ("index_put2", lambda lib, x: x.index_put((_t(lib, np.array([0, 2])), _t(lib, np.array([1, 3]))), x[0, :2])),
    ("repeat_interleave", lambda lib, x: x.repeat_interleave(2)),
    ("repeat_interleave-dim", lambda lib, x: x.repeat_interleave(_t(lib, np.array([1, 0, 2])), dim=0)),
    ("repeat_interleave-int-dim", lambda lib, x: lib.repeat_interleave(x, 3, dim=1)),
])
def test_gather_scatter_index_ops_values_and_gradients_match_torch(torch, name, fn):
    check_grads(fn, [X], torch)


def test_in_place_index_ops_match_torch_and_record_autograd(torch):
    def fn(lib, x):
        y = x * 1
        y.index_add_(1, _t(lib, np.array([0, 0])), x[:, :2], alpha=2)
        y.index_fill_(0, _t(lib, np.array([1])), 0.5)
        y.index_copy_(1, _t(lib, np.array([3])), x[:, :1] * 7)
        y.scatter_(0, _t(lib, np.array([[2, 0]])), x[:1, :2])
        y.scatter_add_(1, _t(lib, np.array([[1], [1], [2]])), x[:, 1:2])
        y.masked_scatter_(_t(lib, X > 0.5), x)
        y.put_(_t(lib, np.array([1, 1])), x[2, :2], accumulate=True)
        y.index_put_((_t(lib, np.array([0])),), x[1] * 4)
        return y
    check_grads(fn, [X], torch)


@pytest.mark.parametrize("name,fn", [
    ("gather-int16", lambda lib, x: x.gather(0, lib.tensor([[0]], dtype=lib.int16))),
    ("gather-negative", lambda lib, x: x.gather(0, lib.tensor([[-1]]))),
    ("index_select-negative", lambda lib, x: x.index_select(0, lib.tensor([-1]))),
    ("index_add-negative", lambda lib, x: x.index_add(0, lib.tensor([-1]), x[:1])),
    ("setitem-list", lambda lib, x: x.__setitem__(0, [1.0, 2.0, 3.0, 4.0])),
    ("gather-oob", lambda lib, x: x.gather(0, lib.tensor([[5]]))),
    ("gather-ndim", lambda lib, x: x.gather(0, lib.tensor([0]))),
    ("gather-size", lambda lib, x: x.gather(0, lib.tensor([[0, 0, 0, 0, 0]]))),
    ("index_select-float", lambda lib, x: x.index_select(0, lib.tensor([0.0]))),
    ("index_select-oob", lambda lib, x: x.index_select(0, lib.tensor([3]))),
    ("index_add-count", lambda lib, x: x.index_add(0, lib.tensor([0]), x)),
    ("index_add-dtype", lambda lib, x: x.index_add(0, lib.tensor([0, 1, 2]), x.float())),
    ("scatter-dtype", lambda lib, x: x.scatter(0, lib.tensor([[0]]), x.float())),
    ("take-oob", lambda lib, x: x.take(lib.tensor([12]))),
    ("masked_select-mask", lambda lib, x: x.masked_select(lib.ones(3, 4))),
    ("index_put-dtype", lambda lib, x: x.index_put((lib.tensor([0]),), lib.tensor(1.0))),
    ("dim", lambda lib, x: x.index_select(2, lib.tensor([0]))),
])
def test_index_op_errors_match_torch(torch, name, fn):
    check_error(fn, [X], torch)


def test_gather_message_names_the_index_dtype(torch):
    check_error(lambda lib, x: x.gather(0, lib.tensor([[0]], dtype=lib.int16)), [X], torch,
                match="gather\\(\\): Expected dtype int32/int64 for index")
    check_error(lambda lib, x: x.index_select(0, lib.tensor([0.0])), [X], torch,
                match="index_select\\(\\): Expected dtype int32 or int64 for index")


@pytest.mark.parametrize("dtype", ["float32", "int64", "int32", "bool"])
def test_index_ops_keep_dtypes(torch, dtype):
    data = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    check(lambda lib, x: x.gather(1, lib.tensor([[0, 0], [3, 1], [2, 2]])), [data], torch)
    check(lambda lib, x: x.index_select(0, lib.tensor([2, 0])), [data], torch)
    check(lambda lib, x: x.scatter(0, lib.tensor([[1, 2]]), x[:1]), [data], torch)
    check(lambda lib, x: x.masked_select(lib.tensor(data > 0)), [data], torch)
    check(lambda lib, x: x.index_put((lib.tensor([0, 0]),), x[:1], accumulate=True), [data], torch)


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_matches_torch(torch, reduce, include_self):
    src = np.array([[1.0, -2.0, 3.0, 0.5], [4.0, 5.0, -6.0, 2.0]])
    idx = np.array([[0, 1, 0, 2], [0, 0, 2, 2]])

    def fn(lib, x, s):
        return x.scatter_reduce(0, lib.tensor(idx), s, reduce, include_self=include_self)
    check_grads(fn, [np.linspace(-1, 2, 12).reshape(3, 4), src], torch)
    check(lambda lib, x: x.scatter_reduce(0, lib.tensor(idx), x[:2] + 1, reduce, include_self=include_self),
          [np.arange(12).reshape(3, 4)], torch)


def test_nonzero_and_argwhere_match_torch(torch):
    data = np.array([[0, 1, 0], [2, 0, 3]])
    check(lambda lib, x: x.nonzero(), [data], torch)
    check(lambda lib, x: lib.nonzero(x, as_tuple=True), [data], torch)
    check(lambda lib, x: lib.argwhere(x), [data], torch)
    check(lambda lib, x: x.nonzero(), [np.array(5)], torch)
    check(lambda lib, x: lib.nonzero(x, as_tuple=True), [np.array(0.0)], torch)
    check(lambda lib, x: x.nonzero(), [np.zeros((0, 3))], torch)


def test_repeat_interleave_of_counts_gives_indices(torch):
    check(lambda lib, r: lib.repeat_interleave(r), [np.array([2, 0, 3])], torch)


def test_gather_double_backward_matches_torch(torch):
    idx = np.array([[0, 2], [1, 1]])
    results = []
    for lib in (core, torch):
        x = lib.tensor(X[:2, :3].copy(), requires_grad=True)
        g0 = x.gather(1, lib.tensor(idx))
        y = (g0 * g0).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), x)
        results.append((g, gg))
    assert_same(results[0][0], results[1][0])
    assert_same(results[0][1], results[1][1])


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_or"])
def test_the_sort_based_ufunc_at_fallback_used_on_cuda_agrees_with_numpy(name):
    from core.ops.scatter import ufunc_at

    rng = np.random.default_rng(5)
    dt = bool if name == "logical_or" else np.float64
    base = rng.standard_normal((4, 5)).astype(dt)
    key = (np.array([0, 3, 0, 0, 2, 3]), slice(None))
    values = rng.standard_normal((6, 5)).astype(dt)
    expected, got = base.copy(), base.copy()
    getattr(np, name).at(expected, key, values)
    ufunc_at(name, got.T, (slice(None), key[0]), values.T, native=False)
    np.testing.assert_allclose(got, expected)


# ----- float64 gradcheck / gradgradcheck ---------------------------------------------------------------

def _i(data):
    return core.tensor(np.asarray(data), dtype=core.int64)


GRADCHECK = {
    "getitem-basic": lambda x: x[1:, None, ::2][..., -1],
    "getitem-advanced": lambda x: x[[0, 0, 2], 1:][:, [1, 1]],
    "getitem-mask": lambda x: x[_i([[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 1]]).bool()],
    "setitem": lambda x: _set_through(x),
    "index_select": lambda x: x.index_select(1, _i([3, 0, 3])),
    "gather": lambda x: x.gather(0, _i([[0, 2, 2, 1]])),
    "scatter": lambda x: x.scatter(1, _i([[1, 0], [2, 3], [0, 3]]), x[:, 2:] * 2),
    "scatter-value": lambda x: x.scatter(1, _i([[1], [2], [0]]), 4.0),
    "scatter_add": lambda x: x.scatter_add(0, _i([[0, 0, 2, 0]]), x[1:2] * 3),
    "scatter_reduce-mean": lambda x: x.scatter_reduce(0, _i([[0, 2, 2, 1]]), x[:1] * 2, "mean", include_self=False),
    "scatter_reduce-amax": lambda x: x.scatter_reduce(1, _i([[0, 0], [1, 1], [3, 2]]), x[:, :2] * 0.5, "amax"),
    "scatter_reduce-prod": lambda x: x.scatter_reduce(0, _i([[1, 0, 2, 2]]), x[:1] + 3, "prod"),
    "take": lambda x: x.take(_i([[5, 5], [0, -1]])),
    "take_along_dim": lambda x: core.take_along_dim(x, _i([[1], [0], [3]]), 1),
    "masked_select": lambda x: x.masked_select(_i([1, 0, 0, 1]).bool()),
    "masked_scatter": lambda x: x.masked_scatter(_i([[1, 0, 0, 1]]).bool(), x * 2),
    "index_add": lambda x: x.index_add(0, _i([2, 2]), x[:2], alpha=-2),
    "index_fill-tensor": lambda x: x.index_fill(1, _i([0, 2]), x[0, 0] * 3),
    "index_copy": lambda x: x.index_copy(1, _i([1, 0]), x[:, 2:] * 2),
    "index_put-accumulate": lambda x: x.index_put((_i([0, 0]), _i([1, 1])), x[2, :2], accumulate=True),
    "put": lambda x: core.put(x, _i([1, 1, 7]), x[0, :3], accumulate=True),
    "repeat_interleave": lambda x: x.repeat_interleave(_i([2, 0, 1]), dim=0),
}


def _set_through(x):
    y = x * 1
    y[0, 1:] = x[1, :3] * 2
    y[[2, 2], [0, 3]] = x[0, 0]
    y.t()[1][1:] = 0.0
    return y


@pytest.mark.parametrize("name", GRADCHECK)
def test_float64_gradcheck_of_indexing_ops(name):
    x = core.tensor(X, requires_grad=True)
    assert core.autograd.gradcheck(GRADCHECK[name], (x,))


@pytest.mark.parametrize("name", ["getitem-basic", "getitem-advanced", "gather", "index_select", "scatter_add",
                                  "setitem", "masked_scatter", "index_copy"])
def test_float64_gradgradcheck_of_indexing_ops(name):
    x = core.tensor(X, requires_grad=True)
    assert core.autograd.gradgradcheck(lambda t: GRADCHECK[name](t) * GRADCHECK[name](t), (x,))


# ----- random index expressions against torch -----------------------------------------------------

def _random_item(rng, size):
    kind = rng.choice(["int", "slice", "none", "ellipsis", "list", "tensor", "mask", "bool", "int0d"])
    if size == 0 and kind in ("int", "list", "tensor", "int0d"):
        return ("none", None)
    if kind == "int":
        return ("int", int(rng.integers(-size, size)))
    if kind == "slice":
        start = rng.choice([None, 0, 1, -1, -size - 2, size + 3])
        stop = rng.choice([None, 0, 2, -1, size, size + 5])
        return ("slice", S(start, stop, rng.choice([None, 1, 2, 3])))
    if kind == "list":
        return ("list", [int(i) for i in rng.integers(-size, size, int(rng.integers(1, 4)))])
    if kind == "tensor":
        return ("t", rng.integers(-size, size, (2, 1)).tolist())
    if kind == "mask":
        return ("m", (rng.random(size) < 0.5).tolist())
    if kind == "int0d":
        return ("t", int(rng.integers(0, size)))
    return {"none": ("none", None), "ellipsis": ("ellipsis", Ellipsis),
            "bool": ("bool", bool(rng.random() < 0.5))}[kind]


def _random_index(rng):
    shape = tuple(int(s) for s in rng.integers(1, 5, int(rng.integers(1, 5))))
    items, left = [], list(shape)
    for _ in range(int(rng.integers(0, len(shape) + 2))):
        kind, val = _random_item(rng, left[0] if left else 0)
        if kind in ("int", "slice", "list", "t", "m"):
            if not left:
                continue
            left.pop(0)
        if kind == "ellipsis" and any(k == "ellipsis" for k, _ in items):
            continue
        items.append((kind, val))
    index = tuple(v if k not in ("t", "m") else (k, v) for k, v in items)
    return shape, index


def _read(lib, data, index, requires_grad=True):
    """``lib.tensor(data)[index]``, or the exception it raised."""
    try:
        return lib.tensor(data, requires_grad=requires_grad)[_idx(lib, index)]
    except Exception as exc:  # the type is what we compare
        return exc


@pytest.mark.parametrize("seed", range(4))
def test_random_index_expressions_read_like_torch(torch, seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        shape, index = _random_index(rng)
        data = rng.standard_normal(shape)
        ours, theirs = _read(core, data, index), _read(torch, data, index)
        if isinstance(theirs, Exception) or isinstance(ours, Exception):
            assert type(ours).__name__ == type(theirs).__name__, (shape, index, ours, theirs)
            continue
        is_view = theirs._base is not None
        assert_same(ours, theirs, check_stride=is_view, path=f"{shape} {index}")
        assert ours.grad_fn.name() == theirs.grad_fn.name()
        assert (ours._base is not None) == is_view
        plain, plain_torch = _read(core, data, index, False), _read(torch, data, index, False)
        assert_same(plain, plain_torch, check_stride=is_view, path=f"no grad: {shape} {index}")
        assert plain.storage_offset() == plain_torch.storage_offset() or not is_view


@pytest.mark.parametrize("seed", range(4))
def test_random_index_expressions_write_like_torch(torch, seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(40):
        shape, index = _random_index(rng)
        data = rng.standard_normal(shape)
        read = _read(torch, data, index, requires_grad=False)
        if isinstance(read, Exception):
            continue
        rshape = tuple(read.shape)
        value = rng.standard_normal(rshape if rng.random() < 0.5 else rshape[-1:])
        results = []
        for lib in (core, torch):
            x, v = lib.tensor(data, requires_grad=True), lib.tensor(value, requires_grad=True)
            y = x * 2
            y[_idx(lib, index)] = v * 3
            (y * y).sum().backward()
            results.append((y, x.grad, v.grad, y._version))
        assert_same(results[0][:3], results[1][:3], path=f"{shape} {index}")
        assert results[0][3] == results[1][3]


# ----- edge cases: 0-d inputs, empty indices, dtype rules, PyTorch's argument errors -------------------

EDGE = {
    "put-method": lambda lib: lib.zeros(3).put(lib.tensor([0, 0]), lib.tensor([1., 2.]), accumulate=True),
    "gather0d": lambda lib: lib.tensor(3.).gather(0, lib.tensor(0)),
    "gather0d-1": lambda lib: lib.tensor(3.).gather(0, lib.tensor([0, 0])),
    "gather-empty": lambda lib: lib.ones(2,3).gather(1, lib.zeros(2,0,dtype=lib.int64)),
    "gather-small": lambda lib: lib.arange(12.).reshape(3,4).gather(1, lib.tensor([[1],[2]])),
    "index_select0d": lambda lib: lib.tensor(3.).index_select(0, lib.tensor([0])),
    "index_select0d-0": lambda lib: lib.tensor(3.).index_select(0, lib.tensor(0)),
    "index_select-empty": lambda lib: lib.ones(2,3).index_select(1, lib.tensor([], dtype=lib.int64)),
    "index_add0d": lambda lib: lib.tensor(3.).index_add(0, lib.tensor([0]), lib.tensor(2.)),
    "index_fill0d": lambda lib: lib.tensor(3.).index_fill(0, lib.tensor([0]), 2.),
    "index_copy0d": lambda lib: lib.tensor(3.).index_copy(0, lib.tensor([0]), lib.tensor(2.)),
    "scatter0d": lambda lib: lib.tensor(3.).scatter(0, lib.tensor(0), lib.tensor(5.)),
    "scatter_add-dup": lambda lib: lib.zeros(3).scatter_add(0, lib.tensor([0,0,2,0]), lib.ones(4)),
    "scatter-int": lambda lib: lib.zeros(3, dtype=lib.int64).scatter(0, lib.tensor([1]), 7),
    "scatter-float-value-int": lambda lib: lib.zeros(3, dtype=lib.int64).scatter(0, lib.tensor([1]), 7.9),
    "scatter-reduce-add": lambda lib: lib.ones(3).scatter(0, lib.tensor([1,1]), lib.tensor([2.,3.]), reduce="add"),
    "scatter-reduce-mul": lambda lib: lib.ones(3).scatter(0, lib.tensor([1,1]), 3., reduce="multiply"),
    "scatter_reduce-int-mean": lambda lib: lib.tensor([5,6,7]).scatter_reduce(0, lib.tensor([0,0,1]),
                                                                              lib.tensor([2,3,4]), "mean"),
    "scatter_reduce-int-mean-noself": lambda lib: lib.tensor([5,6,7]).scatter_reduce(
        0, lib.tensor([0,0,1]), lib.tensor([2,3,4]), "mean", include_self=False),
    "scatter_reduce-amax-int": lambda lib: lib.tensor([5,6,7]).scatter_reduce(
        0, lib.tensor([0,0,1]), lib.tensor([2,3,4]), "amax", include_self=False),
    "scatter_reduce-bad": lambda lib: lib.tensor([5.]).scatter_reduce(0, lib.tensor([0]), lib.tensor([2.]), "max"),
    "take0d": lambda lib: lib.tensor(3.).take(lib.tensor([0, 0])),
    "take-empty": lambda lib: lib.ones(2).take(lib.tensor([], dtype=lib.int64)),
    "put0d": lambda lib: lib.tensor(3.).put_(lib.tensor([0]), lib.tensor([1.])),
    "put-noacc": lambda lib: lib.zeros(2,2).put_(lib.tensor([3, 0]), lib.tensor([1., 2.])),
    "put-int32idx": lambda lib: lib.zeros(2,2).put_(lib.tensor([3, 0], dtype=lib.int32), lib.tensor([1., 2.])),
    "take-int32": lambda lib: lib.zeros(2,2).take(lib.tensor([3, 0], dtype=lib.int32)),
    "masked_select0d": lambda lib: lib.tensor(3.).masked_select(lib.tensor(True)),
    "masked_select-bcast": lambda lib: lib.ones(3).masked_select(lib.tensor([[True],[False]])),
    "masked_scatter-small": lambda lib: lib.zeros(3).masked_scatter(lib.tensor([True,True,False]), lib.tensor([1.])),
    "masked_scatter-bcast": lambda lib: lib.zeros(3).masked_scatter(lib.tensor([[True],[False]]), lib.arange(10.)),
    "masked_scatter_-bcastself": lambda lib: lib.zeros(1).masked_scatter_(lib.tensor([True, True]), lib.arange(10.)),
    "index_put-bool": lambda lib: lib.zeros(3).index_put((lib.tensor([True,False,True]),), lib.tensor(1.)),
    "index_put-none": lambda lib: lib.zeros(2,3).index_put((None, lib.tensor([1])), lib.tensor(1.)),
    "index_put-listidx": lambda lib: lib.zeros(3).index_put([lib.tensor([1])], lib.tensor(1.)),
    "index_put-int-idx-err": lambda lib: lib.zeros(3).index_put((lib.tensor([1.]),), lib.tensor(1.)),
    "index_put-oob": lambda lib: lib.zeros(3).index_put((lib.tensor([3]),), lib.tensor(1.)),
    "repeat_interleave-0d": lambda lib: lib.tensor(3.).repeat_interleave(2),
    "repeat_interleave-t": lambda lib: lib.tensor([1.,2.]).repeat_interleave(lib.tensor([2])),
    "repeat_interleave-neg": lambda lib: lib.tensor([1.,2.]).repeat_interleave(-1),
    "repeat_interleave-2d": lambda lib: lib.tensor([[1,2],[3,4]]).repeat_interleave(2),
    "nonzero-bool": lambda lib: lib.tensor([True, False, True]).nonzero(),
    "nonzero-as_tuple-2d": lambda lib: lib.tensor([[1, 0],[0,2]]).nonzero(as_tuple=True),
    "take_along_dim-none": lambda lib: lib.arange(6.).reshape(2,3).take_along_dim(lib.tensor([5, 0])),
    "take_along_dim-int32": lambda lib: lib.arange(6.).reshape(2,3).take_along_dim(lib.tensor([5, 0],dtype=lib.int32)),
    "index_add-int-alpha": lambda lib: lib.zeros(3, dtype=lib.int64).index_add(0, lib.tensor([0]),
                                                                               lib.ones(1, dtype=lib.int64), alpha=3),
    "index_fill-bool": lambda lib: lib.zeros(3, dtype=lib.bool).index_fill(0, lib.tensor([1]), True),
    "index_fill-2dindex": lambda lib: lib.zeros(3).index_fill(0, lib.tensor([[1]]), 1.),
    "index_select-2dindex": lambda lib: lib.zeros(3).index_select(0, lib.tensor([[1]])),
    "gather-sparse": lambda lib: lib.zeros(3).gather(0, lib.tensor([1]), sparse_grad=False),
}


def _outcome_of(fn, lib):
    try:
        return fn(lib)
    except Exception as exc:  # the type is what we compare
        return exc


@pytest.mark.parametrize("name", EDGE)
def test_index_op_edge_cases_match_torch(torch, name):
    ours, theirs = _outcome_of(EDGE[name], core), _outcome_of(EDGE[name], torch)
    if isinstance(theirs, Exception):
        assert type(ours).__name__ == type(theirs).__name__, f"core gave {ours!r}; torch raised {theirs!r}"
    else:
        assert not isinstance(ours, Exception), f"core raised {ours!r}"
        assert_same(ours, theirs)


NON_CONTIGUOUS = {
    "gather-T": lambda lib, x: x.t().gather(0, lib.tensor([[0,2,1],[3,3,0]])),
    "scatter_-T": lambda lib, x: x.t().clone().t().scatter_(1, lib.tensor([[0],[1],[2]]), -1.),
    "scatter_-view": lambda lib, x: (x.t().scatter_(0, lib.tensor([[0, 1, 2]]), -1.), x)[1],
    "index_add_-view": lambda lib, x: (
        x[:, 1:].index_add_(1, lib.tensor([0, 0]), lib.ones(3, 2, dtype=lib.float64)), x)[1],
    "index_select-exp": lambda lib, x: x[0].expand(3, 4).index_select(1, lib.tensor([3, 1])),
    "masked_scatter_-view": lambda lib, x: (
        x.t()[1:].masked_scatter_(lib.tensor([[True, False, True]]), lib.arange(10.).double()), x)[1],
    "put_-T": lambda lib, x: (x.t().put_(lib.tensor([0, 1, 5]), lib.tensor([9., 8., 7.]).double()), x)[1],
    "take-T": lambda lib, x: x.t().take(lib.tensor([0, 1, 5])),
    "index_put_-T": lambda lib, x: (
        x.t().index_put_((lib.tensor([0, 1]),), lib.tensor(5.).double(), accumulate=True), x)[1],
    "scatter_reduce_-T": lambda lib, x: (
        x.t().scatter_reduce_(0, lib.tensor([[0,0,1]]), lib.ones(1,3,dtype=lib.float64), "sum"), x)[1],
    "fill_diag-T": lambda lib, x: (x.t().fill_diagonal_(0.5), x)[1],
    "setitem-T-mask": lambda lib, x: (x.t().__setitem__(x.t() > 5, 0.), x)[1],
    "copy_-T": lambda lib, x: (x.t()[::2].copy_(lib.ones(3, dtype=lib.float64)), x)[1],
}


@pytest.mark.parametrize("name", NON_CONTIGUOUS)
def test_index_ops_on_transposed_expanded_and_sliced_tensors_match_torch(torch, name):
    check(NON_CONTIGUOUS[name], [np.arange(12.0).reshape(3, 4)], torch)


@pytest.mark.parametrize("index", [[[0], [1]], [0, None], [None], [Ellipsis, 0], [slice(None)], [0, 1], [[0, 1]]])
def test_a_list_read_as_a_tuple_of_indices_warns_like_torch(torch, index):
    import warnings

    def warned(lib):
        x = lib.arange(6.0).reshape(2, 3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = x[index]
            x[index] = 1.0
        return y.shape, [w for w in caught if "non-tuple sequence" in str(w.message)]

    (shape, ours), (want_shape, theirs) = warned(core), warned(torch)
    assert tuple(shape) == tuple(want_shape) and len(ours) == len(theirs)
    assert all(w.category is UserWarning and w.filename == __file__ for w in ours)  # points at the x[...] line
