"""Views against PyTorch: shapes, strides, storage offsets, sharing, `_base`, view refusal, gradients."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import core
from tests.core.oracle import assert_same, check_error, check_grads, raised, to_numpy

# ----- the chapter's snippet ----------------------------------------------------------------------


def test_transposed_tensor_refuses_view_but_reshape_and_contiguous_view_work():
    a = core.arange(12).reshape(3, 4)
    b = a.t()
    assert not b.is_contiguous()
    with pytest.raises(RuntimeError, match="view size is not compatible with input tensor's size and stride"):
        b.view(12)
    assert b.reshape(12).tolist() == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]
    assert b.contiguous().view(12).tolist() == b.reshape(12).tolist()


def test_contiguous_returns_self_when_already_contiguous_and_copies_otherwise():
    a = core.arange(6.0).reshape(2, 3)
    assert a.contiguous() is a
    c = a.t().contiguous()
    assert c is not a and c.is_contiguous() and c._base is None


def test_reshape_is_a_view_when_possible_and_a_copy_otherwise(torch):
    for lib in (core, torch):
        a = lib.arange(12.0).reshape(3, 4)
        assert a.reshape(2, 6)._base is a._base
        assert a.t().reshape(12)._base is None


# ----- random chains of views against torch ---------------------------------------------------

def _draw_op(data, shape, numel):
    """One view op applicable to ``shape`` as ``(name, fn(lib, t))``, parameters drawn by hypothesis."""
    nd = len(shape)
    choices = ["unsqueeze", "as_strided", "permute", "movedim"]
    if nd:
        choices += ["transpose", "narrow", "unfold", "flatten", "expand", "squeeze", "split", "swapaxes"]
        if any(shape):
            choices.append("select")
    if nd >= 2:
        choices += ["diagonal"]
    if nd <= 2:
        choices.append("t")
    name = data.draw(st.sampled_from(choices))
    dim = data.draw(st.integers(-nd, nd - 1)) if nd else 0
    if name == "transpose":
        d1 = data.draw(st.integers(-nd, nd - 1))
        return name, lambda lib, t: t.transpose(dim, d1)
    if name == "swapaxes":
        return name, lambda lib, t: lib.swapaxes(t, dim, 0)
    if name == "t":
        return name, lambda lib, t: t.t()
    if name == "permute":
        perm = data.draw(st.permutations(range(nd)))
        return name, lambda lib, t: t.permute(tuple(perm))
    if name == "movedim":
        src = data.draw(st.integers(-nd, nd - 1)) if nd else 0
        dst = data.draw(st.integers(-nd, nd - 1)) if nd else 0
        return name, lambda lib, t: t.movedim(src, dst)
    if name == "unsqueeze":
        d = data.draw(st.integers(-nd - 1, nd))
        return name, lambda lib, t: t.unsqueeze(d)
    if name == "squeeze":
        form = data.draw(st.sampled_from(["all", "dim", "tuple"]))
        arg = {"all": (), "dim": (dim,), "tuple": ((dim, 0),)}[form]
        return name, lambda lib, t: t.squeeze(*arg)
    size = shape[dim] if nd else 1
    if name == "narrow":
        start = data.draw(st.integers(0, size))
        length = data.draw(st.integers(0, size - start))
        return name, lambda lib, t: t.narrow(dim, start, length)
    if name == "select":
        d = data.draw(st.sampled_from([i for i in range(nd) if shape[i]]))
        i = data.draw(st.integers(-shape[d], shape[d] - 1))
        return name, lambda lib, t: t.select(d, i)
    if name == "unfold":
        sz = data.draw(st.integers(0, size))
        step = data.draw(st.integers(1, 3))
        return name, lambda lib, t: t.unfold(dim, sz, step)
    if name == "flatten":
        end = data.draw(st.integers(dim % nd, nd - 1))
        return name, lambda lib, t: t.flatten(dim, end)
    if name == "expand":
        new = [s if s != 1 else data.draw(st.integers(0, 3)) for s in shape]
        lead = data.draw(st.lists(st.integers(0, 2), max_size=1))
        return name, lambda lib, t: t.expand(*lead, *new)
    if name == "split":
        n = data.draw(st.integers(1, max(size, 1)))
        k = data.draw(st.integers(0, -(-size // n) - 1)) if size else 0
        return name, lambda lib, t: t.split(n, dim)[k]
    if name == "diagonal":
        d2 = data.draw(st.sampled_from([i for i in range(nd) if i != dim % nd]))
        off = data.draw(st.integers(-3, 3))
        return name, lambda lib, t: t.diagonal(off, dim, d2)
    # as_strided anywhere inside the storage of the root tensor
    k = data.draw(st.integers(0, 2))
    sizes = data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k))
    strides = data.draw(st.lists(st.integers(0, 4), min_size=k, max_size=k))
    reach = sum((s - 1) * d for s, d in zip(sizes, strides)) if all(sizes) else 0
    if reach >= numel:
        return "as_strided", lambda lib, t: t.as_strided((1,) * k, (1,) * k, 0) if numel else t
    off = data.draw(st.integers(0, numel - 1 - reach)) if numel else 0
    return name, lambda lib, t: t.as_strided(sizes, strides, off)


def _same_view(ours, theirs, root_ours, root_theirs):
    assert_same(ours, theirs, check_stride=True)
    assert ours.storage_offset() == theirs.storage_offset()
    assert (ours._base is root_ours) == (theirs._base is root_theirs)
    assert ours.is_contiguous() == theirs.is_contiguous()
    if ours._base is root_ours:
        assert ours._vc is root_ours._vc


@given(data=st.data(), shape=st.lists(st.integers(0, 4), max_size=4))
def test_random_chains_of_views_match_torch_geometry_and_sharing(torch, data, shape):
    numel = int(np.prod(shape))
    ours = core.arange(float(numel), dtype=core.float64).reshape(shape)
    theirs = torch.arange(float(numel), dtype=torch.float64).reshape(shape)
    root_o, root_t = ours._base, theirs._base
    for _ in range(data.draw(st.integers(1, 4))):
        name, fn = _draw_op(data, tuple(theirs.shape), numel)
        try:
            expect = fn(torch, theirs)
        except (RuntimeError, IndexError) as exc:
            with pytest.raises(type(exc)):
                fn(core, ours)
            return
        ours, theirs = fn(core, ours), expect
        _same_view(ours, theirs, root_o, root_t)


def _factorizations(n, parts, data):
    out = []
    for _ in range(parts - 1):
        divisors = [d for d in range(1, n + 1) if n % d == 0] if n else [0, 1, 2]
        d = data.draw(st.sampled_from(divisors))
        out.append(d)
        n = n // d if d else n
    return out + [n]


@given(data=st.data(), shape=st.lists(st.integers(1, 4), min_size=1, max_size=4))
def test_view_accepts_and_refuses_exactly_what_torch_does(torch, data, shape):
    perm = data.draw(st.permutations(range(len(shape))))
    step = data.draw(st.sampled_from([1, 2]))
    new_shape = _factorizations(int(np.prod(shape)), data.draw(st.integers(1, 4)), data)
    results = []
    for lib in (torch, core):
        strides = [st * step for st in core.empty(shape).stride()]
        base = lib.arange(float(np.prod(shape)) * step).as_strided(shape, strides, 0)
        src = base.permute(*perm)
        try:
            results.append(src.view(new_shape))
        except RuntimeError as exc:
            results.append(exc)
    theirs, ours = results
    if isinstance(theirs, Exception):
        assert isinstance(ours, RuntimeError) and "view size is not compatible" in str(ours)
    else:
        assert not isinstance(ours, Exception), f"core refused a view torch allows: {ours}"
        assert_same(ours, theirs, check_stride=True)


def test_base_is_the_root_never_an_intermediate_view():
    a = core.zeros(4, 6)
    v = a.view(24).narrow(0, 2, 10).unfold(0, 2, 2).t()
    assert v._base is a and v._vc is a._vc
    a.add_(1)
    assert v._version == a._version == 1 and float(v.sum()) == 10.0


# ----- grad_fn names ------------------------------------------------------------------------------

VIEW_OPS = {
    "view": lambda lib, x: x.view(4, 15),
    "reshape_view": lambda lib, x: x.reshape(-1),
    "reshape_copy": lambda lib, x: x.transpose(0, 1).reshape(-1),
    "view_as": lambda lib, x: x.view_as(lib.empty(60)),
    "transpose": lambda lib, x: x.transpose(0, 2),
    "swapdims": lambda lib, x: x.swapdims(0, 1),
    "t": lambda lib, x: x.select(0, 0).t(),
    "permute": lambda lib, x: x.permute(2, 0, 1),
    "squeeze_all": lambda lib, x: x.unsqueeze(1).squeeze(),
    "squeeze_dim": lambda lib, x: x.unsqueeze(1).squeeze(1),
    "squeeze_dims": lambda lib, x: x.unsqueeze(1).squeeze((1, 0)),
    "unsqueeze": lambda lib, x: x.unsqueeze(-1),
    "flatten": lambda lib, x: x.flatten(1),
    "unflatten": lambda lib, x: x.unflatten(1, (2, -1)),
    "expand": lambda lib, x: x.narrow(1, 0, 1).expand(2, 3, 4, 5),
    "expand_as": lambda lib, x: x.sum(0).expand_as(x),
    "broadcast_to": lambda lib, x: lib.broadcast_to(x, (2, 3, 4, 5)),
    "narrow": lambda lib, x: x.narrow(2, 1, 3),
    "select": lambda lib, x: x.select(1, -1),
    "diagonal": lambda lib, x: x.diagonal(1, 2, 0),
    "as_strided": lambda lib, x: x.as_strided((3, 3), (1, 2), 4),
    "unfold": lambda lib, x: x.unfold(2, 2, 2),
    "movedim": lambda lib, x: x.movedim((0, 1), (2, 0)),
    "moveaxis": lambda lib, x: lib.moveaxis(x, 0, -1),
    "ravel": lambda lib, x: x.transpose(0, 1).ravel(),
}


def _leaf(lib, shape=(3, 4, 5), dtype="float64"):
    data = np.random.default_rng(0).standard_normal(shape)
    return lib.tensor(data, dtype=getattr(lib, dtype), requires_grad=True)


@pytest.mark.parametrize("name", sorted(VIEW_OPS))
def test_view_ops_name_their_grad_fn_like_torch(torch, name):
    ours, theirs = VIEW_OPS[name](core, _leaf(core)), VIEW_OPS[name](torch, _leaf(torch))
    assert ours.grad_fn.name() == theirs.grad_fn.name()


@pytest.mark.parametrize("name", sorted(VIEW_OPS))
def test_view_ops_match_torch_values_strides_and_gradients(torch, name):
    arr = np.random.default_rng(1).standard_normal((3, 4, 5))
    out, _ = check_grads(VIEW_OPS[name], [arr], torch)
    theirs = VIEW_OPS[name](torch, torch.tensor(arr))
    assert out.stride() == theirs.stride() and out.storage_offset() == theirs.storage_offset()


MULTI_OPS = {
    "unbind": lambda lib, x: x.unbind(1),
    "split": lambda lib, x: x.split(2, 2),
    "split_sizes": lambda lib, x: x.split([1, 3], 1),
    "chunk": lambda lib, x: x.chunk(3, 2),
    "tensor_split_sections": lambda lib, x: x.tensor_split(3, 2),
    "tensor_split_indices": lambda lib, x: x.tensor_split([1, -1, 7], 1),
    "hsplit": lambda lib, x: x.hsplit([1, 3]),
    "vsplit": lambda lib, x: x.vsplit(3),
    "dsplit": lambda lib, x: lib.dsplit(x, [2]),
    "broadcast_tensors": lambda lib, x: lib.broadcast_tensors(x.narrow(0, 0, 1).narrow(2, 0, 1),
                                                              x.select(0, 0).select(0, 0)),
}


@pytest.mark.parametrize("name", sorted(MULTI_OPS))
def test_multi_output_views_match_torch_and_each_output_carries_grad(torch, name):
    arr = np.random.default_rng(2).standard_normal((3, 4, 5))
    fn = MULTI_OPS[name]
    ours, theirs = fn(core, _leaf(core)), fn(torch, _leaf(torch))
    assert [o.grad_fn.name() for o in ours] == [t.grad_fn.name() for t in theirs]
    assert_same(list(ours), list(theirs), check_stride=True)
    assert [o.storage_offset() for o in ours] == [t.storage_offset() for t in theirs]
    for k in range(len(ours)):
        check_grads(lambda lib, x, k=k: fn(lib, x)[k] * (k + 1), [arr], torch)
    check_grads(lambda lib, x: lib.stack([o.sum() for o in fn(lib, x)]), [arr], torch)


# ----- double backward ----------------------------------------------------------------------------

def _second_order(lib, fn, arr):
    x = lib.tensor(arr, requires_grad=True)
    out = fn(lib, x)
    (g,) = lib.autograd.grad((out * out).sum(), x, create_graph=True)
    (gg,) = lib.autograd.grad((g * g).sum(), x)
    return g, gg


@pytest.mark.parametrize("name", ["narrow", "select", "diagonal", "unfold", "as_strided", "expand", "permute",
                                  "reshape_copy", "squeeze_dims"])
def test_view_backward_is_differentiable_twice(torch, name):
    arr = np.random.default_rng(3).standard_normal((3, 4, 5))
    assert_same(_second_order(core, VIEW_OPS[name], arr), _second_order(torch, VIEW_OPS[name], arr))


def test_as_strided_with_overlap_sums_gradients_like_torch(torch):
    arr = np.arange(6.0)
    check_grads(lambda lib, x: x.as_strided((3, 3), (1, 1), 1), [arr], torch)
    check_grads(lambda lib, x: x.unfold(0, 3, 1), [arr], torch)


# ----- in-place geometry ops ----------------------------------------------------------------------

INPLACE = {
    "squeeze_": lambda t: t.squeeze_(),
    "squeeze_dim": lambda t: t.squeeze_(1),
    "squeeze_tuple": lambda t: t.squeeze_((1, 3)),
    "unsqueeze_": lambda t: t.unsqueeze_(0),
    "transpose_": lambda t: t.transpose_(0, 2),
    "t_": lambda t: t.squeeze_().t_(),
}


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_geometry_ops_change_the_tensor_itself_like_torch(torch, name):
    arr = np.random.default_rng(4).standard_normal((3, 1, 4, 1))
    results = []
    for lib in (core, torch):
        x = lib.tensor(arr, requires_grad=True)
        y = x * 1
        v = y._version
        out = INPLACE[name](y)
        assert out is y and y._version > v
        (y * lib.tensor(arr).reshape(y.shape)).sum().backward()
        results.append((y.grad_fn.name(), tuple(y.shape), y.stride(), x.grad))
    assert results[0][:3] == results[1][:3]
    assert_same(results[0][3], results[1][3])


def test_inplace_geometry_op_on_a_leaf_requiring_grad_raises(torch):
    check_error(lambda lib, x: x.requires_grad_().unsqueeze_(0), [np.ones(3)], torch, match="leaf Variable")


def test_inplace_geometry_op_without_grad_keeps_sharing_storage():
    a = core.zeros(2, 3)
    v = a.view(3, 2)
    v.t_()
    assert v.shape == (2, 3) and v.stride() == (1, 2) and v._base is a and v._vc is a._vc


# ----- errors -------------------------------------------------------------------------------------

ERRORS = [
    (lambda lib, x: x.view(7), "invalid for input of size"),
    (lambda lib, x: x.view(-1, -1), "only one dimension can be inferred"),
    (lambda lib, x: x.t().view(12), "view size is not compatible"),
    (lambda lib, x: x.expand(3, 5), r"expanded size of the tensor \(5\) must match the existing size \(4\) at "
                                  "non-singleton dimension 1"),
    (lambda lib, x: x.narrow(0, 5, 1), "start out of range"),
    (lambda lib, x: x.narrow(1, 2, 3), r"start \(2\) \+ length \(3\) exceeds dimension size \(4\)"),
    (lambda lib, x: x.select(1, 4), r"select\(\): index 4 out of range for tensor of size \[3, 4\] at dimension 1"),
    (lambda lib, x: x.diagonal(0, 1, -1), "diagonal dimensions cannot be identical"),
    (lambda lib, x: x.unfold(0, 4, 1), "maximum size for tensor at dimension 0 is 3 but size is 4"),
    (lambda lib, x: x.unfold(0, 2, 0), "step is 0 but must be > 0"),
    (lambda lib, x: x.split(0), "split_size can only be 0"),
    (lambda lib, x: x.split([1, 1]), "split_with_sizes expects split_sizes to sum exactly to 3"),
    (lambda lib, x: x.chunk(0), "chunk expects `chunks` to be greater than 0"),
    (lambda lib, x: x.tensor_split(0), "number of sections must be larger than 0"),
    (lambda lib, x: x.hsplit(3), "not divisible by the split_size 3"),
    (lambda lib, x: x.select(0, 0).vsplit(2), "at least 2 dimension"),
    (lambda lib, x: x.movedim((0, 0), (1, 0)), "repeated dim in `source`"),
    (lambda lib, x: x.movedim((0, 1), (1,)), "should contain the same number of dims"),
    (lambda lib, x: x.unflatten(1, (3, 2)), "don't multiply up to the size of dim 1"),
    (lambda lib, x: x.flatten(1, 0), "start_dim cannot come after end_dim"),
    (lambda lib, x: x.permute(0, 0), "duplicate dims"),
    (lambda lib, x: x.transpose(0, 2), "Dimension out of range"),
    (lambda lib, x: x.squeeze(3), "Dimension out of range"),
    (lambda lib, x: x.unsqueeze(-4), "Dimension out of range"),
    (lambda lib, x: lib.broadcast_tensors(x, x.narrow(1, 0, 2)), r"\(4\).*\(2\).*dimension 1"),
    (lambda lib, x: x.broadcast_to((3, 5)), "must match the existing size"),
    (lambda lib, x: x.unbind(2), "Dimension out of range"),
    (lambda lib, x: x.reshape(5, -1), "invalid for input of size 12"),
    (lambda lib, x: x.as_strided((4, 4), (4, 1)), "out of bounds for storage of size 96"),
    (lambda lib, x: x.as_strided((2,), (-1,)), "Negative strides are not supported"),
    (lambda lib, x: x.as_strided((2,), (1,), -1), "invalid storage offset -1"),
    (lambda lib, x: x.as_strided((2,), (1, 1)), "mismatch in length of strides and shape"),
]


@pytest.mark.parametrize(("fn", "match"), ERRORS)
def test_view_errors_match_torch(torch, fn, match):
    arr = np.arange(12.0).reshape(3, 4)
    check_error(fn, [arr], torch, match=match)


@pytest.mark.parametrize(("numel", "shape"), [(3584, (-1, 0, 14)), (6, (-1, 0)), (0, (-1, 0, 14)), (0, (0, -1)),
                                            (5, (-1, 2)), (0, (-1,)), (6, (-1, 6))])
def test_reshape_with_a_zero_and_an_inferred_dim_says_what_torch_says(torch, numel, shape):
    """A non-empty input into a shape holding a 0 is an invalid shape for its size (tonyduan/normalizing-flows'
    1-D coupling spline, a script of the corpus), only an empty one is ambiguous: torch's words, exactly."""
    theirs = raised(lambda: torch.zeros(numel).reshape(shape))
    assert raised(lambda: core.zeros(numel).reshape(shape)) == theirs
    if theirs is None:
        assert tuple(core.zeros(numel).reshape(shape).shape) == tuple(torch.zeros(numel).reshape(shape).shape)


def test_broadcast_shapes_is_public_and_returns_a_size(torch):
    assert core.broadcast_shapes((3, 1), (4,), 1) == torch.broadcast_shapes((3, 1), (4,), 1)
    assert isinstance(core.broadcast_shapes((2,)), core.Size)
    with pytest.raises(RuntimeError, match=r"\(3\).*\(4\).*dimension 0"):
        core.broadcast_shapes((3,), (4,))


@pytest.mark.parametrize("dtype", ["float32", "int64", "int32", "bool"])
def test_views_keep_dtype_and_share_memory_for_every_dtype(torch, dtype):
    arr = (np.arange(60).reshape(3, 4, 5) % 3).astype(np.int64)
    for fn in VIEW_OPS.values():
        ours = core.tensor(arr).to(getattr(core, dtype))
        theirs = torch.tensor(arr).to(getattr(torch, dtype))
        try:
            expect = fn(torch, theirs)
        except RuntimeError:
            continue
        got = fn(core, ours)
        assert_same(got, expect, check_stride=True)
        assert np.array_equal(to_numpy(got), to_numpy(expect))


# ----- float64 gradcheck / gradgradcheck ----------------------------------------------------------

def _leaf64(shape=(3, 4, 5)):
    return core.tensor(np.random.default_rng(5).standard_normal(shape), requires_grad=True)


@pytest.mark.parametrize("name", sorted(VIEW_OPS))
def test_view_ops_pass_gradcheck_and_gradgradcheck(name):
    fn = VIEW_OPS[name]
    assert core.autograd.gradcheck(lambda x: fn(core, x), (_leaf64(),))
    assert core.autograd.gradgradcheck(lambda x: fn(core, x), (_leaf64(),))


@pytest.mark.parametrize("name", sorted(MULTI_OPS))
def test_multi_output_views_pass_gradcheck_and_gradgradcheck(name):
    fn = MULTI_OPS[name]
    assert core.autograd.gradcheck(lambda x: fn(core, x), (_leaf64(),))
    # NOTE: empty outputs are left out of gradgradcheck: an empty op result reports NumPy's zero
    # strides (core-wide, see the report), which gradcheck refuses as an overlapping input.
    assert core.autograd.gradgradcheck(lambda x: tuple(o for o in fn(core, x) if o.numel()), (_leaf64(),))


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_geometry_ops_pass_gradcheck(name):
    assert core.autograd.gradcheck(lambda x: INPLACE[name](x * 1), (_leaf64((3, 1, 4, 1)),))


KEYWORD_FORMS = {
    "view_size": lambda lib, x: x.view(size=(3, 4)),
    "reshape_shape": lambda lib, x: lib.reshape(x, shape=(3, 4)),
    "permute_dims": lambda lib, x: x.permute(dims=(1, 0)),
    "expand_size": lambda lib, x: x.expand(size=(2, 4, 3)),
    "repeat_repeats": lambda lib, x: x.repeat(repeats=(2, 1)),
    "tile_dims": lambda lib, x: lib.tile(x, dims=(2,)),
    "flip_dims": lambda lib, x: x.flip(dims=(0,)),
    "split_split_size": lambda lib, x: lib.stack(x.split(split_size=2)),
}


@pytest.mark.parametrize("name", sorted(KEYWORD_FORMS))
def test_shape_arguments_accept_torch_keyword_forms(torch, name):
    check_grads(KEYWORD_FORMS[name], [np.arange(12.0).reshape(4, 3)], torch)


@pytest.mark.parametrize("form", ["adjoint", "swapaxes_", "swapdims_"])
def test_adjoint_and_inplace_swaps_match_torch(torch, form):
    fns = {"adjoint": lambda lib, x: x.adjoint(), "swapaxes_": lambda lib, x: (x * 1).swapaxes_(0, 2),
           "swapdims_": lambda lib, x: (x * 1).swapdims_(-1, 1)}
    out, _ = check_grads(fns[form], [np.arange(24.0).reshape(2, 3, 4)], torch)
    theirs = fns[form](torch, torch.arange(24.0, requires_grad=True).reshape(2, 3, 4))
    ours = fns[form](core, core.arange(24.0, requires_grad=True).reshape(2, 3, 4))
    assert ours.stride() == theirs.stride() and ours.grad_fn.name() == theirs.grad_fn.name()


def test_views_made_without_grad_in_a_loop_leave_no_memory_behind():
    """A training loop makes no-grad views of its parameters at every step (``w.t()`` in an evaluation): what core
    remembers of them to follow their base goes with them."""
    import gc
    import tracemalloc

    w = core.ones(4, 3, requires_grad=True)

    def views(n):
        for _ in range(n):
            with core.no_grad():
                w.t()
        gc.collect()

    views(100)
    tracemalloc.start()
    try:
        views(100)
        before, _ = tracemalloc.get_traced_memory()
        views(2000)
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert after - before < 8 * 1024, (before, after)  # a kept reference per view would be > 100 KiB


NON_INT_DIMS = {  # PyTorch's parser takes no float or str as an int: its words, a method's positions from 1
    "method": lambda lib, x: x.transpose(0.0, 1), "second": lambda lib, x: x.transpose(0, 1.0),
    "function": lambda lib, x: lib.transpose(x, 0.0, 1), "keyword": lambda lib, x: x.transpose(dim0=0.0, dim1=1),
    "str": lambda lib, x: x.transpose("a", 1), "in place": lambda lib, x: x.transpose_(0.5, 1),
    "swapaxes": lambda lib, x: x.swapaxes(0.0, 1), "swapaxes function": lambda lib, x: lib.swapaxes(x, 0.0, 1),
    "swapdims": lambda lib, x: x.swapdims(0, 1.0), "swapdims function": lambda lib, x: lib.swapdims(x, 0.0, 1),
    "swapaxes_": lambda lib, x: x.swapaxes_(0.5, 1), "swapdims_": lambda lib, x: x.swapdims_(0, "a"),
    "function keywords": lambda lib, x: lib.transpose(x, dim0=0.0, dim1=1),
    "function's None keyword": lambda lib, x: lib.transpose(x, dim0=0, dim1=None),
    "bool": lambda lib, x: x.transpose(True, 0), "function bool": lambda lib, x: lib.transpose(x, 0, True),
    "keyword bool": lambda lib, x: lib.transpose(x, dim0=True, dim1=1),
    "swapaxes bool": lambda lib, x: lib.swapaxes(x, True, 0), "swapdims bool": lambda lib, x: x.swapdims(True, 0),
}


@pytest.mark.parametrize("call", NON_INT_DIMS.values(), ids=NON_INT_DIMS.keys())
def test_transpose_refuses_a_dim_that_is_no_int_in_torchs_words(torch, call):
    x = np.arange(6.0).reshape(2, 3)
    theirs = raised(lambda: call(torch, torch.tensor(x)))
    assert theirs is not None and theirs[0] == "TypeError"
    assert raised(lambda: call(core, core.tensor(x))) == theirs


def test_swapdims_is_transpose_under_its_own_name(torch):
    x = np.arange(6.0).reshape(2, 3)
    for lib in (core, torch):
        assert lib.swapdims.__name__ == "swapdims"
    assert_same(core.tensor(x).swapdims(0, 1), torch.tensor(x).swapdims(0, 1))
    assert_same(core.swapdims(core.tensor(x), -1, 0), torch.swapdims(torch.tensor(x), -1, 0))
