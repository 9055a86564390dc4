"""Copying rearrangements (repeat, flip, roll, rot90, tril, diag...) and joining (cat, stack...) vs PyTorch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import core
from tests.core.oracle import assert_same, check, check_error, check_grads

RNG = np.random.default_rng(0)
X3 = RNG.standard_normal((2, 3, 4))
M = RNG.standard_normal((4, 5))
V = RNG.standard_normal(4)

OPS = {
    "repeat": (lambda lib, x: x.repeat(2, 1, 3), X3),
    "repeat_more_dims": (lambda lib, x: x.repeat(2, 1, 1, 2), X3),
    "repeat_zero": (lambda lib, x: x.repeat(0, 2), M),
    "tile": (lambda lib, x: x.tile((2,)), X3),
    "tile_more_dims": (lambda lib, x: lib.tile(x, (2, 1, 1, 1)), X3),
    "tile_varargs": (lambda lib, x: x.tile(2, 2), M),
    "repeat_scalar": (lambda lib, x: x.sum().repeat(()), V),
    "flip": (lambda lib, x: x.flip(0, 2), X3),
    "flip_list": (lambda lib, x: lib.flip(x, [-1]), X3),
    "fliplr": (lambda lib, x: x.fliplr(), M),
    "flipud": (lambda lib, x: x.flipud(), V),
    "flip_scalar": (lambda lib, x: x.sum().flip(0), V),
    "roll_scalar": (lambda lib, x: x.sum().roll(2), V),
    "roll_flat": (lambda lib, x: x.roll(5), X3),
    "roll_dims": (lambda lib, x: x.roll((1, -2), (0, 2)), X3),
    "roll_one_dim": (lambda lib, x: lib.roll(x, 7, 1), X3),
    "rot90": (lambda lib, x: x.rot90(), M),
    "rot90_2": (lambda lib, x: x.rot90(2, (1, 2)), X3),
    "rot90_3": (lambda lib, x: x.rot90(-1, [0, 1]), M),
    "rot90_0": (lambda lib, x: x.rot90(4), M),
    "tril": (lambda lib, x: x.tril(), M),
    "tril_offset": (lambda lib, x: x.tril(-1), X3),
    "triu": (lambda lib, x: x.triu(2), M),
    "triu_batched": (lambda lib, x: lib.triu(x, -1), X3),
    "diag_1d": (lambda lib, x: x.diag(), V),
    "diag_1d_offset": (lambda lib, x: lib.diag(x, -2), V),
    "diag_2d": (lambda lib, x: x.diag(1), M),
    "diag_2d_negative": (lambda lib, x: x.diag(-2), M),
    "diag_embed": (lambda lib, x: x.diag_embed(), M),
    "diag_embed_dims": (lambda lib, x: lib.diag_embed(x, 1, 0, 2), M),
    "trace": (lambda lib, x: x.trace(), M),
    "transposed_flip": (lambda lib, x: x.t().flip(0), M),
    "transposed_roll": (lambda lib, x: x.t().roll(1, 1), M),
    "expanded_repeat": (lambda lib, x: x.expand(3, 4).repeat(1, 2), V),
    "expanded_tril": (lambda lib, x: x.expand(4, 4).tril(), V),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_copy_ops_match_torch_values_strides_and_gradients(torch, name):
    fn, arr = OPS[name]
    out, _ = check_grads(fn, [arr], torch)
    theirs = fn(torch, torch.tensor(arr))
    assert out.stride() == theirs.stride()
    assert out._base is None


@pytest.mark.parametrize("name", sorted(OPS))
def test_copy_ops_name_their_grad_fn_like_torch(torch, name):
    fn, arr = OPS[name]
    ours = fn(core, core.tensor(arr, requires_grad=True))
    theirs = fn(torch, torch.tensor(arr, requires_grad=True))
    assert ours.grad_fn.name() == theirs.grad_fn.name()


@pytest.mark.parametrize("dtype", ["float32", "int64", "int32", "bool"])
@pytest.mark.parametrize("name", sorted(OPS))
def test_copy_ops_keep_dtypes_like_torch(torch, name, dtype):
    fn, arr = OPS[name]
    data = (arr * 3).round().astype(np.int64)

    def cast(lib, x):
        return fn(lib, x.to(getattr(lib, dtype)))

    try:
        cast(torch, torch.tensor(data))
    except (RuntimeError, NotImplementedError):
        check_error(cast, [data], torch)
    else:
        check(cast, [data], torch)


def _second_order(lib, fn, arr):
    x = lib.tensor(arr, requires_grad=True)
    out = fn(lib, x)
    (g,) = lib.autograd.grad((out * out).sum(), x, create_graph=True)
    (gg,) = lib.autograd.grad((g * g * g).sum(), x)
    return g, gg


@pytest.mark.parametrize("name", ["repeat", "flip", "roll_dims", "rot90", "tril", "diag_2d", "diag_embed", "trace"])
def test_copy_ops_backward_is_differentiable_twice(torch, name):
    fn, arr = OPS[name]
    assert_same(_second_order(core, fn, arr), _second_order(torch, fn, arr))


@given(shape=st.lists(st.integers(0, 3), min_size=1, max_size=3), data=st.data())
def test_repeat_and_flip_and_roll_match_torch_on_random_shapes(torch, shape, data):
    arr = np.arange(float(np.prod(shape))).reshape(shape)
    reps = data.draw(st.lists(st.integers(0, 3), min_size=len(shape), max_size=len(shape) + 1))
    dims = data.draw(st.lists(st.integers(-len(shape), len(shape) - 1), unique_by=lambda d: d % len(shape)))
    shift = data.draw(st.integers(-5, 5))
    check(lambda lib, x: x.repeat(*reps), [arr], torch, check_stride=True)
    check(lambda lib, x: x.flip(dims), [arr], torch)
    check(lambda lib, x: x.roll(shift), [arr], torch)
    if dims:
        check(lambda lib, x: x.roll([shift] * len(dims), dims), [arr], torch)


# ----- in-place triangles -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["tril_", "triu_"])
def test_inplace_triangles_write_through_views_and_carry_grads(torch, name):
    results = []
    for lib in (core, torch):
        x = lib.tensor(M, requires_grad=True)
        y = x * 2
        out = getattr(y, name)(1)
        assert out is y
        (y * y).sum().backward()
        plain = lib.tensor(M).t()
        getattr(plain, name)()
        results.append((y.grad_fn.name(), y, x.grad, plain))
    assert results[0][0] == results[1][0]
    assert_same(results[0][1:], results[1][1:])


def test_inplace_triangle_on_a_leaf_requiring_grad_raises(torch):
    check_error(lambda lib, x: x.requires_grad_().tril_(), [M], torch, match="leaf Variable")


def test_inplace_triangle_bumps_the_version_of_all_views():
    a = core.ones(3, 3)
    v = a.view(9)
    a.triu_()
    assert v._version == 1 and v.tolist() == [1, 1, 1, 0, 1, 1, 0, 0, 1]


# ----- joining ------------------------------------------------------------------------------------

JOIN = {
    "cat0": (lambda lib, a, b: lib.cat([a, b]), [M, M[:2]]),
    "cat1": (lambda lib, a, b: lib.cat((a, b, a), 1), [M, M[:, :2]]),
    "cat_negative_dim": (lambda lib, a, b: lib.concat([a, b], -1), [M, M]),
    "concatenate": (lambda lib, a, b: lib.concatenate([a, b], axis=0), [M, M]),
    "cat_skips_empty_1d": (lambda lib, a, b: lib.cat([a, b, lib.tensor([], dtype=a.dtype)], 1), [M, M]),
    "cat_transposed": (lambda lib, a, b: lib.cat([a.t(), b.t()]), [M, M]),
    "stack0": (lambda lib, a, b: lib.stack([a, b]), [M, M]),
    "stack_last": (lambda lib, a, b: lib.stack((a, b), -1), [M, M]),
    "hstack_1d": (lambda lib, a, b: lib.hstack([a, b]), [V, V]),
    "hstack_2d": (lambda lib, a, b: lib.hstack([a, b]), [M, M]),
    "vstack_1d": (lambda lib, a, b: lib.vstack([a, b]), [V, V]),
    "vstack_2d": (lambda lib, a, b: lib.vstack([a, b]), [M, M]),
    "dstack": (lambda lib, a, b: lib.dstack([a, b]), [M, M]),
    "dstack_1d": (lambda lib, a, b: lib.dstack([a, b]), [V, V]),
    "column_stack": (lambda lib, a, b: lib.column_stack([a, b]), [V, V]),
    "column_stack_mixed": (lambda lib, a, b: lib.column_stack([a, b]), [M.T.copy(), np.ones(5)]),
}


@pytest.mark.parametrize("name", sorted(JOIN))
def test_joining_matches_torch_values_strides_names_and_gradients(torch, name):
    fn, arrays = JOIN[name]
    out, _ = check_grads(fn, arrays, torch)
    theirs = fn(torch, *[torch.tensor(a, requires_grad=True) for a in arrays])
    ours = fn(core, *[core.tensor(a, requires_grad=True) for a in arrays])
    assert ours.stride() == theirs.stride()
    assert ours.grad_fn.name() == theirs.grad_fn.name()


@pytest.mark.parametrize("name", ["cat1", "stack_last", "vstack_1d"])
def test_joining_backward_is_differentiable_twice(torch, name):
    fn, arrays = JOIN[name]
    results = []
    for lib in (core, torch):
        a, b = (lib.tensor(x, requires_grad=True) for x in arrays)
        out = fn(lib, a, b)
        ga, gb = lib.autograd.grad((out * out * out).sum(), (a, b), create_graph=True)
        results.append((ga, gb) + lib.autograd.grad((ga * gb.sum()).sum(), (a, b)))
    assert_same(results[0], results[1])


@pytest.mark.parametrize(("da", "db"), [("int32", "float16"), ("int64", "float32"), ("bool", "int32"),
                                        ("uint8", "int8"), ("float32", "float64"), ("bool", "bool")])
def test_cat_and_stack_promote_dtypes_across_inputs(torch, da, db):
    for op in ("cat", "stack", "hstack"):
        check(lambda lib, a, b, op=op: getattr(lib, op)([a.to(getattr(lib, da)), b.to(getattr(lib, db))]),
              [V.round(), V.round()], torch)


def test_cat_counts_a_skipped_empty_tensor_in_the_dtype(torch):
    check(lambda lib, a: lib.cat([a.long(), lib.tensor([], dtype=lib.float64)]), [M], torch)
    check(lambda lib, a: lib.cat([lib.tensor([]), lib.tensor([])]), [M], torch)
    check(lambda lib, a: lib.cat([lib.tensor([]), lib.tensor([])], 1), [M], torch)


def test_empty_1d_input_of_cat_gets_an_empty_gradient(torch):
    results = []
    for lib in (core, torch):
        a, e = lib.tensor(M, requires_grad=True), lib.zeros(0, dtype=lib.float64, requires_grad=True)
        lib.cat([e, a], 1).sum().backward()
        results.append((a.grad, e.grad))
    assert_same(results[0], results[1])


@pytest.mark.parametrize("k", [1, 2, 3])
def test_unbind_and_split_outputs_each_carry_grads_into_cat(torch, k):
    check_grads(lambda lib, x: lib.cat([t * (i + 1) for i, t in enumerate(x.split(k, 1))], 1), [M], torch)
    check_grads(lambda lib, x: lib.stack(x.unbind(0)[::-1], 1), [M], torch)


ATLEAST = [np.array(2.0), V, M, X3]


@pytest.mark.parametrize("fn", ["atleast_1d", "atleast_2d", "atleast_3d"])
@pytest.mark.parametrize("i", range(len(ATLEAST)))
def test_atleast_nd_matches_torch_views_and_names(torch, fn, i):
    arr = ATLEAST[i]
    results = []
    for lib in (core, torch):
        x = lib.tensor(arr, requires_grad=True)
        y = getattr(lib, fn)(x)
        results.append((y, y is x, y._base is x, y.grad_fn.name() if y.grad_fn else None, y.stride()))
    assert_same(results[0][0], results[1][0])
    assert results[0][1:] == results[1][1:]


def test_atleast_nd_of_several_tensors_returns_a_tuple(torch):
    for lib in (core, torch):
        out = lib.atleast_2d(lib.tensor(1.0), lib.ones(3))
        assert isinstance(out, tuple) and [tuple(t.shape) for t in out] == [(1, 1), (1, 3)]
        assert isinstance(lib.atleast_1d([lib.ones(2)]), tuple)


JOIN_ERRORS = [
    (lambda lib, a: lib.cat([a, a.t()], 1), r"Sizes of tensors must match except in dimension 1\. Expected size 4 "
                                            r"but got size 5 for tensor number 1 in the list\."),
    (lambda lib, a: lib.cat([a, a.sum(0)]), "Tensors must have same number of dimensions: got 2 and 1"),
    (lambda lib, a: lib.cat([a.sum(), a.sum()]), r"zero-dimensional tensor \(at position 0\) cannot be concatenated"),
    (lambda lib, a: lib.cat([a, a], 2), "Dimension out of range"),
    (lambda lib, a: lib.cat([]), "expected a non-empty list of Tensors"),
    (lambda lib, a: lib.stack([a, a.t()]), r"stack expects each tensor to be equal size, but got \[4, 5\] at entry 0 "
                                           r"and \[5, 4\] at entry 1"),
    (lambda lib, a: lib.stack([]), "stack expects a non-empty TensorList"),
    (lambda lib, a: lib.stack([a, a], 3), "Dimension out of range"),
    (lambda lib, a: a.repeat(2), "can not be smaller than number of dimensions"),
    (lambda lib, a: a.repeat(), "missing 1 required positional argument"),
    (lambda lib, a: a.flip(0, 0), "dim 0 appears multiple times"),
    (lambda lib, a: a.sum(0).fliplr(), r"Input must be >= 2-d\."),
    (lambda lib, a: a.sum().flipud(), r"Input must be >= 1-d\."),
    (lambda lib, a: a.roll((1, 2), (0,)), "shifts and dimensions must align"),
    (lambda lib, a: a.roll(1, 2), "Dimension out of range"),
    (lambda lib, a: a.sum().roll(1, 0), "Dimension specified as 0 but tensor has no dimensions"),
    (lambda lib, a: a.rot90(1, [0]), "expected total rotation dims == 2"),
    (lambda lib, a: a.rot90(1, [1, -1]), "expected rotation dims to be different"),
    (lambda lib, a: a.sum(0).rot90(), "expected total dims >= 2"),
    (lambda lib, a: a.sum(0).tril(), "tril: input tensor must have at least 2 dimensions"),
    (lambda lib, a: a.sum(0).triu_(), "triu: input tensor must have at least 2 dimensions"),
    (lambda lib, a: a.unsqueeze(0).diag(), r"diag\(\): Supports 1D or 2D tensors\. Got 3D"),
    (lambda lib, a: a.sum(0).trace(), "trace: expected a matrix, but got tensor with dim 1"),
    (lambda lib, a: a.diag_embed(0, 0, -3), "diagonal dimensions cannot be identical"),
]


@pytest.mark.parametrize(("fn", "match"), JOIN_ERRORS)
def test_movement_and_joining_errors_match_torch(torch, fn, match):
    check_error(fn, [M], torch, match=match)


def test_cat_of_mixed_devices_or_non_tensors_raises(torch):
    check_error(lambda lib, a: lib.cat([a, 1.0]), [M], torch)
    check_error(lambda lib, a: lib.cat(a), [M], torch)


# ----- float64 gradcheck / gradgradcheck ----------------------------------------------------------

@pytest.mark.parametrize("name", sorted(OPS))
def test_copy_ops_pass_gradcheck_and_gradgradcheck(name):
    fn, arr = OPS[name]
    x = core.tensor(arr, requires_grad=True)
    assert core.autograd.gradcheck(lambda t: fn(core, t), (x,))
    if fn(core, x).numel():  # NOTE: see test_views: empty op results carry NumPy's zero strides
        assert core.autograd.gradgradcheck(lambda t: fn(core, t), (x,))


@pytest.mark.parametrize("name", sorted(JOIN))
def test_joining_passes_gradcheck_and_gradgradcheck(name):
    fn, arrays = JOIN[name]
    xs = tuple(core.tensor(a, requires_grad=True) for a in arrays)
    assert core.autograd.gradcheck(lambda *t: fn(core, *t), xs)
    assert core.autograd.gradgradcheck(lambda *t: fn(core, *t), xs)


@pytest.mark.parametrize("name", ["tril_", "triu_"])
def test_inplace_triangles_pass_gradcheck(name):
    x = core.tensor(M, requires_grad=True)
    assert core.autograd.gradcheck(lambda t: getattr(t * 1, name)(1), (x,))
    assert core.autograd.gradgradcheck(lambda t: getattr(t * 1, name)(-1), (x,))


LAYOUT_INPUTS = {
    "transposed": lambda lib, x: x.t(),
    "expanded_row": lambda lib, x: x.narrow(0, 0, 1).expand(4, 5),
    "expanded_column": lambda lib, x: x.narrow(1, 0, 1).expand(4, 5),
    "narrowed": lambda lib, x: x.narrow(1, 1, 3),
    "narrowed_transposed": lambda lib, x: x.narrow(1, 1, 3).t(),
}
LAYOUT_OPS = ["flipud", "flip_list", "fliplr", "roll_one_dim", "rot90", "rot90_3", "rot90_0", "tril", "triu",
              "diag_embed", "trace"]


@pytest.mark.parametrize("source", sorted(LAYOUT_INPUTS))
@pytest.mark.parametrize("name", LAYOUT_OPS)
def test_copies_of_non_contiguous_inputs_have_torch_strides(torch, source, name):
    fn = OPS[name][0]
    make = LAYOUT_INPUTS[source]
    for extra in (lambda lib, x: x.clone(), lambda lib, x: x.contiguous(), lambda lib, x: lib.cat([x, x])):
        check(lambda lib, x, extra=extra: extra(lib, make(lib, x)), [M], torch, check_stride=True)
    check(lambda lib, x: fn(lib, make(lib, x)), [M], torch, check_stride=True)


# ----- scatters into views, narrow_copy -------------------------------------------------------------

SCATTERS = {
    "select_scatter": (lambda lib, x, s: lib.select_scatter(x, s, 0, -1), [M, M[0]]),
    "select_scatter_transposed": (lambda lib, x, s: x.t().select_scatter(s, 1, 1), [M, M[0]]),
    "slice_scatter_step": (lambda lib, x, s: lib.slice_scatter(x, s, 1, 0, None, 2), [M, M[:, :3]]),
    "slice_scatter_negative": (lambda lib, x, s: lib.slice_scatter(x, s, -1, -2), [M, M[:, :2]]),
    "diagonal_scatter": (lambda lib, x, s: lib.diagonal_scatter(x, s), [M, M[0, :4]]),
    "diagonal_scatter_offset": (lambda lib, x, s: x.diagonal_scatter(s, 1, 1, 0), [M, M[0, :3]]),
    "narrow_copy": (lambda lib, x, s: x.t().narrow_copy(0, -3, 2) * s.sum(), [M, V]),
}


@pytest.mark.parametrize("name", sorted(SCATTERS))
def test_view_scatters_and_narrow_copy_match_torch(torch, name):
    fn, arrays = SCATTERS[name]
    out, _ = check_grads(fn, arrays, torch)
    theirs = fn(torch, *[torch.tensor(a, requires_grad=True) for a in arrays])
    ours = fn(core, *[core.tensor(a, requires_grad=True) for a in arrays])
    assert ours.stride() == theirs.stride() and ours.grad_fn.name() == theirs.grad_fn.name()
    xs = tuple(core.tensor(a, requires_grad=True) for a in arrays)
    assert core.autograd.gradcheck(lambda *t: fn(core, *t), xs)
    assert core.autograd.gradgradcheck(lambda *t: fn(core, *t), xs)


@pytest.mark.parametrize(("fn", "match"), [
    (lambda lib, a: lib.select_scatter(a, a[0, :3], 0, 0), "expected src to have a size equal to the slice of self"),
    (lambda lib, a: lib.select_scatter(a, a[0], 0, 9), "index 9 out of range"),
    (lambda lib, a: lib.slice_scatter(a, a, 0, 0, 4, 0), "slice step must be positive"),
    (lambda lib, a: lib.diagonal_scatter(a, a[0], 0, 1, 1), "diagonal dimensions cannot be identical"),
    (lambda lib, a: a.narrow_copy(1, 4, 2), r"start \(4\) \+ length \(2\) exceeds dimension size \(5\)"),
])
def test_view_scatter_errors_match_torch(torch, fn, match):
    check_error(fn, [M], torch, match=match)
