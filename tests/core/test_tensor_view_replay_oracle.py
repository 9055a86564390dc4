"""The tensor members ``dir(torch.tensor(1.))`` lists for view replay and internals: ``_view_func`` (a view made
again on a new base), ``_view_func_unsafe``, ``_rev_view_func_unsafe``, ``slice_inverse``, ``_use_count``, and the
ones core cannot honour (``to_mkldnn``, ``index``, ``_make_wrapper_subclass``, ``_dtensor__new__``), which raise."""

import pytest

import core
from tests.core.oracle import assert_same


def views(lib):
    t = lib.tensor([1.0, 2.0, 3.0])
    a = lib.arange(12.0).reshape(3, 4)
    return {"slice": (t, t[1:]), "transposed_slice": (a, a.t()[1:]), "int_row": (lib.arange(6).view(2, 3), None),
            "plain": (t, t)}


REPLAYS = {
    "same base": lambda lib, base, view: view._view_func(base),
    "new base like it": lambda lib, base, view: view._view_func(base * 2),
    "new base unlike it": lambda lib, base, view: view._view_func(lib.zeros(20)),
    "unsafe on a bigger base": lambda lib, base, view: view._view_func_unsafe(lib.arange(20.0)),
}


@pytest.mark.parametrize("which", ["slice", "transposed_slice", "plain"])
@pytest.mark.parametrize("replay", list(REPLAYS))
def test_view_func_replays_a_view_on_a_new_base_as_torch(torch, which, replay):
    (cb, cv), (tb, tv) = views(core)[which], views(torch)[which]
    ours, theirs = REPLAYS[replay](core, cb, cv), REPLAYS[replay](torch, tb, tv)
    assert (ours is None) == (theirs is None)
    if ours is not None:
        assert_same(ours, theirs, check_stride=True)
        assert ours._base is not None and theirs._base is not None


def test_an_integer_view_replays_too(torch):
    ours = core.arange(6).view(2, 3)[0]._view_func(core.arange(6) * 3)
    theirs = torch.arange(6).view(2, 3)[0]._view_func(torch.arange(6) * 3)
    assert_same(ours, theirs)


@pytest.mark.parametrize("which", ["slice", "plain"])
def test_rev_view_func_unsafe_raises_for_a_view_and_gives_none_otherwise(torch, which):
    results = []
    for lib in (core, torch):
        base, view = views(lib)[which]
        try:
            results.append(view._rev_view_func_unsafe(base))
        except RuntimeError as e:
            results.append(str(e))
    assert results[0] == results[1]


@pytest.mark.parametrize("args", [(0,), (0, 1, 3), (0, 1, None, 1)])
def test_slice_inverse_views_the_storage_with_the_sources_layout(torch, args):
    ours = views(core)["slice"][1].slice_inverse(views(core)["slice"][0], *args)
    theirs = views(torch)["slice"][1].slice_inverse(views(torch)["slice"][0], *args)
    assert_same(ours, theirs, check_stride=True)


def test_use_count_of_a_lone_tensor_is_torchs(torch):
    assert core.tensor([1.0])._use_count() == torch.tensor([1.0])._use_count()


@pytest.mark.parametrize("dtype", ["float64", "int64", "bool"])
def test_to_mkldnn_refuses_a_dtype_as_torch(torch, dtype):
    with pytest.raises(RuntimeError) as ours:
        core.ones(2, dtype=getattr(core, dtype)).to_mkldnn()
    with pytest.raises(RuntimeError) as theirs:
        torch.ones(2, dtype=getattr(torch, dtype)).to_mkldnn()
    assert str(ours.value) == str(theirs.value)


def test_the_members_core_cannot_honour_raise_clearly(torch):
    with pytest.raises(NotImplementedError, match="mkldnn"):
        core.ones(2).to_mkldnn()
    with pytest.raises(NotImplementedError, match="first-class"):
        core.ones(2).index(0, None)
    with pytest.raises(NotImplementedError, match="DTensor"):
        core.Tensor._dtensor__new__(core.Tensor, core.ones(2), None, False)
    assert core.Tensor.__dlpack_c_exchange_api__ is None  # no C exchange table: a consumer takes __dlpack__


def test_make_wrapper_subclass_needs_torch_dispatch_as_in_torch(torch):
    with pytest.raises(TypeError) as ours:
        core.Tensor._make_wrapper_subclass(core.Tensor, (2,))
    with pytest.raises(TypeError) as theirs:
        torch.Tensor._make_wrapper_subclass(torch.Tensor, (2,))
    assert str(ours.value) == str(theirs.value)


def test_dtensor_new_needs_its_arguments_as_in_torch(torch):
    for lib in (core, torch):
        with pytest.raises(TypeError, match="_dtensor__new__"):
            lib.Tensor._dtensor__new__(lib.Tensor)
