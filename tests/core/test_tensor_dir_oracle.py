"""``dir(tensor)`` against torch's, and the private and legacy members it lists, run in both libraries."""

import inspect
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised


def _dir_of(lib):
    """(Less ``__slotnames__``: copyreg's cache, put on a class once something pickles one of its instances.)"""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return set(dir(lib.ones(2))) - {"__slotnames__"}


def test_dir_lists_no_name_torch_does_not_list(torch):
    assert _dir_of(core) - _dir_of(torch) == set()


def test_dir_lists_every_name_torch_lists(torch):
    assert _dir_of(torch) - _dir_of(core) == set()


def test_every_name_dir_lists_exists():
    t = core.ones(2)
    missing = []
    for name in dir(t):
        try:
            inspect.getattr_static(t, name)
        except AttributeError:
            missing.append(name)
    assert missing == []


def test_volatile_is_hidden_from_dir_but_answers_as_torch(torch):
    for lib in (core, torch):
        with pytest.warns(UserWarning, match="volatile was removed"):
            assert lib.ones(2).volatile is False
        assert "volatile" not in dir(lib.ones(2))


def test_tensor_methods_torch_lacks_are_gone(torch):
    for name in ("einsum", "std_mean", "var_mean", "trunc_divide_", "untyped_storage_ptr"):
        assert hasattr(core.ones(2), name) is hasattr(torch.ones(2), name) is False


B = np.array([True, False, True])
F = np.array([1.5, -2.0, 0.0], dtype=np.float32)


@pytest.mark.parametrize("call", [
    lambda lib: lib.tensor(B)._is_all_true(),
    lambda lib: lib.tensor(B)._is_any_true(),
    lambda lib: lib.tensor(B[[0, 2]])._is_all_true(),
    lambda lib: lib.tensor(F)._neg_view().resolve_neg(),
    lambda lib: lib.tensor(F)._conj_physical(),
    lambda lib: lib.tensor(F + 1j * F[::-1])._conj(),
    lambda lib: lib.tensor(F)._lazy_clone(),
    lambda lib: lib.tensor(F).reshape(1, 3)._addmm_activation(lib.tensor(F).reshape(1, 3) * 0 + 1,
                                                               lib.tensor(np.eye(3, dtype=np.float32))),
    lambda lib: lib.tensor(F).reshape(1, 3)._addmm_activation(lib.ones(1, 2), lib.ones(2, 3), beta=0.5, alpha=-2,
                                                               use_gelu=True),
    lambda lib: lib.tensor(F, dtype=lib.bfloat16)._autocast_to_full_precision(True, True),
    lambda lib: lib.tensor(F, dtype=lib.float16)._autocast_to_full_precision(True, False),
    lambda lib: lib.tensor(F)._autocast_to_reduced_precision(True, True, lib.float16, lib.bfloat16).float(),
    lambda lib: lib.tensor(F)._autocast_to_reduced_precision(True, False, lib.float16, lib.bfloat16),
    lambda lib: lib.tensor(F, dtype=lib.float64)._autocast_to_reduced_precision(True, True, lib.float16,
                                                                                lib.bfloat16),
    lambda lib: (lib.tensor(F)._is_zerotensor(), lib.tensor(F).name, lib.tensor(F)._has_symbolic_sizes_strides,
                 lib.tensor(F)._fix_weakref(), lib.tensor(F)._clear_non_serializable_cached_data()),
])
def test_private_members_give_torch_results(torch, call):
    assert_same(call(core), call(torch))


def test_private_sparse_conversions_give_torch_tensors(torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("_to_sparse", "_to_sparse_csr", "_to_sparse_csc"):
            assert repr(getattr(core.eye(3), name)()) == repr(getattr(torch.eye(3), name)())
        assert repr(core.eye(4)._to_sparse_bsr((2, 2))) == repr(torch.eye(4)._to_sparse_bsr((2, 2)))


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(2).__delitem__(0),
    lambda lib: lib.ones(2).reinforce(1.0),
    lambda lib: lib.tensor(F)._is_all_true(),
    lambda lib: lib.tensor(F)._conj(),
    lambda lib: lib.ones(2, 2).smm(lib.ones(2, 2)),
    lambda lib: lib.ones(2, 2).sspaddmm(lib.ones(2, 2), lib.ones(2, 2)),
    lambda lib: lib.ones(2).to_padded_tensor(0.0),
    lambda lib: lib.ones(2)._coalesced_(True),
    lambda lib: lib.ones(2).sparse_resize_((2,), 1, 0),
    lambda lib: lib.ones(2).sparse_resize_and_clear_((2,), 1, 0),
    lambda lib: lib.ones(2).resize_as_sparse_(lib.ones(2)),
    lambda lib: lib.ones(2)._nested_tensor_size(),
    lambda lib: lib.ones(2)._nested_tensor_strides(),
    lambda lib: lib.ones(2)._nested_tensor_storage_offsets(),
    lambda lib: lib.ones(2)._sparse_mask_projection(lib.ones(2)),
    lambda lib: lib.ones(2)._nnz(),
    lambda lib: lib.ones(2)._values(),
    lambda lib: lib.ones(2)._indices(),
    lambda lib: lib.ones(2)._dimI(),
    lambda lib: lib.ones(2)._dimV(),
    lambda lib: lib.ones(2)._to_dense(),
    lambda lib: lib.ones(2).int_repr(),
    lambda lib: lib.ones(2).q_zero_point(),
    lambda lib: lib.ones(2).q_per_channel_axis(),
    lambda lib: lib.ones(2)._philox_normal_(lib.tensor([1, 2]), 0.0, 1.0),
    lambda lib: lib.ones(2)._philox_uniform_(lib.tensor([1, 2]), 0.0, 1.0),
])
def test_members_torch_refuses_raise_its_error(torch, call):
    ours, theirs = raised(lambda: call(core)), raised(lambda: call(torch))
    assert ours is not None and theirs is not None and ours[0] == theirs[0]
    assert ours[1] == theirs[1] or ours[1].split(" This could")[0] == theirs[1].split(" This could")[0] or \
        ours[1].split(" INTERNAL ASSERT")[0] == theirs[1].split(" INTERNAL ASSERT")[0]


def test_backward_hooks_list_the_registered_hooks_as_torch(torch):
    seen = []
    for lib in (core, torch):
        t = lib.ones(2, requires_grad=True)
        before = t._backward_hooks
        handle = t.register_hook(lambda g: g)
        hooks = t._backward_hooks
        count = len(hooks)
        handle.remove()
        post = t._post_accumulate_grad_hooks
        t.register_post_accumulate_grad_hook(lambda p: None)
        seen.append((before, type(hooks), count, post, len(t._post_accumulate_grad_hooks)))
    assert seen[0] == seen[1] and seen[0][1] is OrderedDict


def test_setstate_of_a_legacy_variable_sets_requires_grad_as_torch(torch):
    for lib in (core, torch):
        t = lib.zeros(2)
        t.__setstate__((True, False, None))
        assert t.requires_grad
        with pytest.raises(RuntimeError, match="can be only called on leaf Tensors"):
            (t * 2).__setstate__((True, False, None))


def test_cdata_is_one_per_tensor_object_and_reduce_ex_internal_pickles_as_reduce_ex(torch):
    t = core.ones(2)
    assert t._cdata == t._cdata and t._cdata != t.view(2)._cdata
    rebuild, args = t._reduce_ex_internal(2)[:2]
    assert_same(rebuild(*args), t)
    assert "_is_param" in core.Tensor.__annotations__ and "_is_param" in torch.Tensor.__annotations__


@pytest.mark.parametrize("make", [
    lambda lib: lib.eye(2).to_sparse_csr(),
    lambda lib: lib.eye(2).to_sparse_bsc(1),
    lambda lib: lib.ones(2).to_sparse(),
    lambda lib: lib.quantize_per_tensor(lib.ones(2), 0.1, 0, lib.qint8),
    lambda lib: lib.nn.Parameter(lib.ones(2)),
])
def test_dir_of_sparse_quantized_and_parameter_tensors_lists_no_name_torch_does_not(torch, make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = set(dir(make(core))), set(dir(make(torch)))
    assert ours - theirs - {"__slotnames__"} == set()
