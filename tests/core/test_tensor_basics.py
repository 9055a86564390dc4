"""Tensor metadata and Python conversions behave as PyTorch's (values, types, errors)."""

import copy
import pickle
import warnings

import numpy as np
import pytest

import core
from core import _warn_once
from tests.core.oracle import assert_same, check, check_error

# Inputs covering 0-d, empty, 1-D, 2-D and 3-D, several dtypes.
ARRAYS = {
    "scalar_f32": np.array(2.5, dtype=np.float32),
    "vector_i64": np.array([3, -1, 4], dtype=np.int64),
    "matrix_f64": np.arange(6.0).reshape(2, 3),
    "cube_i32": np.arange(24, dtype=np.int32).reshape(2, 3, 4),
    "empty_f32": np.zeros((0, 3), dtype=np.float32),
    "bools": np.array([[True, False]]),
    "halfs": np.array([1.5, -2.0], dtype=np.float16),
    "bytes": np.array([0, 200, 255], dtype=np.uint8),
    "int8s": np.array([-128, 0, 127], dtype=np.int8),
    "int16s": np.array([[-300], [300]], dtype=np.int16),
}

METADATA = {
    "shape": lambda lib, t: tuple(t.shape),
    "shape_is_size": lambda lib, t: type(t.shape).__name__,
    "size": lambda lib, t: tuple(t.size()),
    "dtype": lambda lib, t: str(t.dtype),
    "device": lambda lib, t: str(t.device),
    "ndim": lambda lib, t: t.ndim,
    "dim": lambda lib, t: t.dim(),
    "ndimension": lambda lib, t: t.ndimension(),
    "numel": lambda lib, t: t.numel(),
    "nelement": lambda lib, t: t.nelement(),
    "stride": lambda lib, t: t.stride(),
    "storage_offset": lambda lib, t: t.storage_offset(),
    "is_contiguous": lambda lib, t: t.is_contiguous(),
    "element_size": lambda lib, t: t.element_size(),
    "itemsize": lambda lib, t: t.itemsize,
    "nbytes": lambda lib, t: t.nbytes,
    "is_floating_point": lambda lib, t: t.is_floating_point(),
    "is_signed": lambda lib, t: t.is_signed(),
    "is_cuda": lambda lib, t: t.is_cuda,
    "is_leaf": lambda lib, t: t.is_leaf,
    "requires_grad": lambda lib, t: t.requires_grad,
    "type": lambda lib, t: t.type(),
    "tolist": lambda lib, t: t.tolist(),
    "len": lambda lib, t: len(t) if t.ndim else None,
    "numpy_dtype": lambda lib, t: str(t.numpy().dtype),
    "asarray": lambda lib, t: np.asarray(t).tolist(),
    "bool_dtype_info": lambda lib, t: (t.dtype.is_floating_point, t.dtype.is_signed, t.dtype.itemsize),
}


@pytest.mark.parametrize("prop", sorted(METADATA))
@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_metadata_matches_pytorch(name, prop, torch):
    check(METADATA[prop], [ARRAYS[name]], torch)


VIEW_METADATA = {
    "transposed": lambda lib, t: t.t(),
    "sliced": lambda lib, t: t[:, 1:],
    "stepped": lambda lib, t: t[::2, ::3],
    "expanded": lambda lib, t: t[:1].expand(3, 6),
    "row": lambda lib, t: t[2],
    "unsqueezed": lambda lib, t: t.unsqueeze(1),
    "element": lambda lib, t: t[1, 2],
}


@pytest.mark.parametrize("view", sorted(VIEW_METADATA))
def test_view_metadata_matches_pytorch(view, torch):
    arr = np.arange(24.0, dtype=np.float32).reshape(4, 6)
    for prop in ("stride", "storage_offset", "is_contiguous", "shape", "numel", "nbytes", "tolist"):
        check(lambda lib, t, prop=prop: METADATA[prop](lib, VIEW_METADATA[view](lib, t)), [arr], torch)


def test_stride_and_size_take_negative_dims_and_reject_bad_ones(torch):
    arr = np.zeros((2, 3, 4), dtype=np.float32)
    for d in (-3, -1, 0, 2):
        check(lambda lib, t, d=d: (t.size(d), t.stride(d)), [arr], torch)
    check_error(lambda lib, t: t.size(3), [arr], torch, match="Dimension out of range")
    check_error(lambda lib, t: t.stride(-4), [arr], torch, match="Dimension out of range")
    check_error(lambda lib, t: t.size(0), [np.array(1.0)], torch)


def test_item_and_python_number_conversions_match_pytorch(torch):
    for arr in (np.array(2.5, dtype=np.float32), np.array([7]), np.array([[True]]), np.array([-3], dtype=np.int8)):
        check(lambda lib, t: (t.item(), float(t), int(t), bool(t), complex(t)), [arr], torch)
    check(lambda lib, t: [10, 20, 30][t], [np.array(1)], torch)
    check(lambda lib, t: type(t.item()).__name__, [np.array([1.5], dtype=np.float16)], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, t: t.item(),
    lambda lib, t: float(t),
    lambda lib, t: int(t),
    lambda lib, t: bool(t),
    lambda lib, t: complex(t),
    lambda lib, t: [1, 2, 3][t],
])
@pytest.mark.parametrize("arr", [np.array([1.0, 2.0]), np.zeros((0,)), np.array([[1, 2]])])
def test_multi_element_conversions_raise_like_pytorch(fn, arr, torch):
    check_error(fn, [arr], torch)


def test_index_conversion_refuses_floats_and_bools_follow_pytorch(torch):
    check_error(lambda lib, t: [1, 2][t], [np.array(1.0)], torch, match="only integer tensors")
    check_error(lambda lib, t: len(t), [np.array(1.0)], torch, match="len\\(\\) of a 0-d tensor")
    check_error(lambda lib, t: iter(t), [np.array(1.0)], torch, match="iteration over a 0-d tensor")


def test_bool_of_empty_tensor_says_no_values():
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with no values is ambiguous"):
        bool(core.tensor([]))
    with pytest.raises(RuntimeError, match="more than one value is ambiguous"):
        bool(core.tensor([1, 2]))


def test_iteration_yields_rows_like_pytorch(torch):
    check(lambda lib, t: [r.tolist() for r in t], [np.arange(6).reshape(3, 2)], torch)
    check(lambda lib, t: list(t), [np.array([1.5, 2.5], dtype=np.float32)], torch)


@pytest.mark.cpu_only
def test_numpy_shares_memory_on_cpu():
    t = core.zeros(3)
    a = t.numpy()
    a[0] = 5.0
    assert t.tolist() == [5.0, 0.0, 0.0]
    assert np.shares_memory(np.asarray(t), a)
    t.add_(1)
    assert a.tolist() == [6.0, 1.0, 1.0]


@pytest.mark.cpu_only
def test_numpy_of_a_view_shares_memory_with_the_base():
    t = core.arange(6.0).reshape(2, 3)
    v = t.t().numpy()
    v[0, 1] = 100.0
    assert t.tolist()[1][0] == 100.0


def test_numpy_refuses_a_tensor_that_requires_grad(torch):
    msg = "Can't call numpy\\(\\) on Tensor that requires grad. Use tensor.detach\\(\\).numpy\\(\\) instead."
    for lib in (core, torch):
        t = lib.ones(2, requires_grad=True)
        with pytest.raises(RuntimeError, match=msg):
            t.numpy()
        with pytest.raises(RuntimeError, match=msg):
            np.asarray(t)
        assert t.detach().numpy().tolist() == [1.0, 1.0]


def test_array_protocol_handles_dtype_and_copy():
    t = core.tensor([1, 2])
    assert np.asarray(t, dtype=np.float32).dtype == np.float32
    with pytest.warns(DeprecationWarning, match="doesn't accept a copy keyword"):  # as for torch's (NumPy 2)
        c = np.array(t, copy=True)
    c[0] = 9
    assert t.tolist() == [1, 2]


def test_transpose_property_and_its_deprecation_warnings_match_pytorch(torch, monkeypatch):
    check(lambda lib, t: t.T, [np.arange(6).reshape(2, 3)], torch, check_stride=True)
    # PyTorch warns only once per process (core too: here a fresh one), so its text is spelled out here.
    monkeypatch.setattr(_warn_once, "_warned", set())
    with pytest.warns(UserWarning, match="The use of `x.T` on tensors of dimension other than 2 to reverse their "
                                         "shape is deprecated"):
        assert core.arange(3).T.tolist() == [0, 1, 2]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (once per process)
        out = core.arange(24).reshape(2, 3, 4).T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same(out, torch.arange(24).reshape(2, 3, 4).T, check_stride=True)
    with pytest.warns(UserWarning, match="Tensor.T is deprecated on 0-D tensors. This function is the identity"):
        assert core.tensor(5.0).T.item() == 5.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert core.ones(2, 3).T.shape == (3, 2)


def test_matrix_transpose_property_matches_pytorch(torch):
    check(lambda lib, t: t.mT, [np.arange(24).reshape(2, 3, 4)], torch, check_stride=True)
    check(lambda lib, t: t.mT, [np.arange(6.0).reshape(2, 3)], torch, check_stride=True)
    check_error(lambda lib, t: t.mT, [np.arange(3)], torch, match="only supported on matrices")


def test_hash_is_identity_so_tensors_work_as_dict_keys():
    a, b = core.tensor([1]), core.tensor([1])
    d = {a: "a", b: "b"}
    assert d[a] == "a" and d[b] == "b" and hash(a) != hash(b)


def test_pickle_round_trip_keeps_values_dtype_and_requires_grad(torch):
    for build in (lambda lib: lib.tensor([1.5, 2.0]), lambda lib: lib.tensor([[1, 2]], dtype=lib.int16),
                  lambda lib: lib.tensor([1.0], requires_grad=True), lambda lib: lib.arange(6.0).reshape(2, 3).t(),
                  lambda lib: lib.tensor(True)):
        ours, theirs = pickle.loads(pickle.dumps(build(core))), pickle.loads(pickle.dumps(build(torch)))
        assert_same(ours, theirs)
        assert ours.requires_grad == theirs.requires_grad


def test_pickle_of_dtypes_devices_and_sizes_round_trips():
    for obj in (core.float16, core.bool, core.device("cpu"), core.device("cuda:1"), core.Size([2, 3])):
        out = pickle.loads(pickle.dumps(obj))
        assert out == obj and repr(out) == repr(obj)
    assert pickle.loads(pickle.dumps(core.float32)) is core.float32


def test_deepcopy_copies_data_grad_and_requires_grad():
    t = core.tensor([1.0, 2.0], requires_grad=True)
    t.grad = core.tensor([0.5, 0.5])
    c = copy.deepcopy(t)
    assert c is not t and c.requires_grad and c.is_leaf and c.grad.tolist() == [0.5, 0.5]
    c.detach().add_(1)
    assert t.tolist() == [1.0, 2.0]
    shared = [t, t]
    copied = copy.deepcopy(shared)
    assert copied[0] is copied[1]


def test_legacy_tensor_constructor_matches_pytorch(torch):
    for build in (lambda lib: lib.Tensor([1, 2]), lambda lib: lib.Tensor([[1.5, 2]]), lambda lib: lib.Tensor(),
                  lambda lib: lib.Tensor((2, 3)), lambda lib: lib.Tensor(2, 3).shape,
                  lambda lib: lib.Tensor(lib.Size([4])).shape, lambda lib: lib.Tensor(0)):
        assert_same(build(core), build(torch))
    assert_same(core.Tensor(2, 3).dtype, core.float32)
    check_error(lambda lib: lib.Tensor([1, 2], dtype=lib.int32), [], torch)
    check_error(lambda lib: lib.Tensor("a"), [], torch)
    check_error(lambda lib: lib.Tensor(-1), [], torch, match="negative dimension")


def test_legacy_tensor_of_a_tensor_aliases_it():
    src = core.tensor([1, 2])
    t = core.Tensor(src)
    assert t.dtype is core.int64 and t.data_ptr() == src.data_ptr()


NEW_FACTORIES = {
    "new_tensor_ints": lambda lib, t: t.new_tensor([1, 2]),
    "new_tensor_floats": lambda lib, t: t.new_tensor([1.5, 2]),
    "new_tensor_numpy": lambda lib, t: t.new_tensor(np.array([1, 2], dtype=np.int16)),
    "new_tensor_dtype": lambda lib, t: t.new_tensor([1, 2], dtype=lib.float64),
    "new_zeros_ints": lambda lib, t: t.new_zeros(2, 3),
    "new_zeros_tuple": lambda lib, t: t.new_zeros((2,)),
    "new_zeros_size": lambda lib, t: t.new_zeros(lib.Size([1, 2])),
    "new_zeros_dtype": lambda lib, t: t.new_zeros(2, dtype=lib.int8),
    "new_ones_list": lambda lib, t: t.new_ones([2]),
    "new_full": lambda lib, t: t.new_full((2,), 7),
    "new_full_float_value": lambda lib, t: t.new_full((2,), 7.5),
    "new_empty_shape": lambda lib, t: (tuple(t.new_empty(2, 3).shape), str(t.new_empty(2).dtype)),
    "new_requires_grad": lambda lib, t: t.new_zeros(2, dtype=lib.float32, requires_grad=True).requires_grad,
}


@pytest.mark.parametrize("name", sorted(NEW_FACTORIES))
@pytest.mark.parametrize("dtype", ["int32", "float64", "bool"])
def test_new_factories_keep_the_source_dtype_like_pytorch(name, dtype, torch):
    check(NEW_FACTORIES[name], [np.zeros(3, dtype=dtype)], torch)


def test_new_tensor_does_not_inherit_requires_grad(torch):
    check(lambda lib, t: t.requires_grad_().new_tensor([1.0]).requires_grad, [np.zeros(2)], torch)


TYPE_CASTS = {
    "float": lambda lib, t: t.float(),
    "double": lambda lib, t: t.double(),
    "half": lambda lib, t: t.half(),
    "long": lambda lib, t: t.long(),
    "int": lambda lib, t: t.int(),
    "short": lambda lib, t: t.short(),
    "char": lambda lib, t: t.char(),
    "byte": lambda lib, t: t.byte(),
    "bool": lambda lib, t: t.bool(),
    "type_dtype": lambda lib, t: t.type(lib.float64),
    "type_string": lambda lib, t: t.type("torch.IntTensor"),
    "type_string_double": lambda lib, t: t.type("torch.DoubleTensor"),
    "type_as": lambda lib, t: t.type_as(lib.zeros(1, dtype=lib.int16)),
    "to_dtype": lambda lib, t: t.to(lib.int32),
    "to_dtype_kw": lambda lib, t: t.to(dtype=lib.float16),
    "to_device": lambda lib, t: t.to("cpu"),
    "to_device_object": lambda lib, t: t.to(lib.device("cpu")),
    "to_device_and_dtype": lambda lib, t: t.to("cpu", lib.float64),
    "to_other_tensor": lambda lib, t: t.to(lib.zeros(1, dtype=lib.float64)),
    "to_copy": lambda lib, t: t.to(lib.float32, copy=True),
    "cpu": lambda lib, t: t.cpu(),
}


@pytest.mark.parametrize("cast", sorted(TYPE_CASTS))
@pytest.mark.parametrize("arr", [np.array([1.7, -2.5, 0.0], dtype=np.float32), np.array([[3, 0]], dtype=np.int64),
                                 np.array([True, False]), np.array(0.25)], ids=["f32", "i64", "bool", "f64_0d"])
def test_dtype_and_device_conversions_match_pytorch(cast, arr, torch):
    check(TYPE_CASTS[cast], [arr], torch)


def test_to_returns_self_when_nothing_changes_and_copies_when_asked(torch):
    for lib in (core, torch):
        t = lib.ones(2)
        assert t.to(lib.float32) is t and t.to("cpu") is t and t.cpu() is t and t.float() is t
        assert t.to(lib.float32, copy=True) is not t
        c = t.to(lib.float32, copy=True)
        c.add_(1)
        assert t.tolist() == [1.0, 1.0]


def test_to_records_a_differentiable_copy(torch):
    for lib in (core, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.double()
        assert type(y.grad_fn).__name__ == "ToCopyBackward0"
        y.sum().backward()
        assert x.grad.dtype == lib.float32 and x.grad.tolist() == [1.0, 1.0]


def test_bad_type_and_to_arguments_raise_like_pytorch(torch):
    check_error(lambda lib, t: t.type("foo"), [np.zeros(2)], torch)
    check_error(lambda lib, t: t.to("foo"), [np.zeros(2)], torch)
    check_error(lambda lib, t: t.to("cuda:x"), [np.zeros(2)], torch)


def test_requires_grad_only_for_floating_point(torch):
    check_error(lambda lib, t: t.requires_grad_(), [np.array([1, 2])], torch,
                match="only Tensors of floating point dtype can require gradients")  # the method's wording
    check(lambda lib, t: t.requires_grad_().requires_grad, [np.array([1.0])], torch)


def test_data_ptr_shows_shared_memory():
    a = core.arange(6.0).reshape(2, 3)
    assert a.t().data_ptr() == a.data_ptr()
    assert a[1].data_ptr() == a.data_ptr() + 3 * a.element_size()
    assert a.clone().data_ptr() != a.data_ptr()


SIZE_AND_MISC = {
    "size_times_int": lambda lib: lib.Size([2, 3]) * 2,
    "int_times_size": lambda lib: 2 * lib.Size([1]),
    "size_equals_tuple": lambda lib: lib.Size([2, 3]) == (2, 3),
    "size_slice": lambda lib: lib.Size([1, 2, 3])[1:],
    "size_plus_tuple": lambda lib: lib.Size([1]) + (2,),
    "tuple_plus_size": lambda lib: (2,) + lib.Size([1]),
    "size_of_tensor_ints": lambda lib: lib.Size([lib.tensor(3)]),
    "size_numel": lambda lib: lib.Size([2, 3]).numel(),
    "empty_size": lambda lib: lib.Size(),
    "is_tensor": lambda lib: (lib.is_tensor(lib.zeros(1)), lib.is_tensor([1]), lib.is_storage(lib.zeros(1))),
    "numel": lambda lib: lib.numel(lib.zeros(2, 3)),
    "typename": lambda lib: lib.typename(lib.zeros(2, dtype=lib.int8)),
    "is_floating_point": lambda lib: (lib.is_floating_point(lib.zeros(2)), lib.is_floating_point(lib.zeros(2).long())),
    "is_nonzero": lambda lib: (lib.is_nonzero(lib.tensor([1])), lib.is_nonzero(lib.tensor(0.0))),
    "layout": lambda lib: repr(lib.zeros(2).layout),
    "flags": lambda lib: tuple(getattr(lib.zeros(2), f) for f in ("is_sparse", "is_quantized", "is_meta", "output_nr")),
    "queries": lambda lib: (lib.zeros(2).is_shared(), lib.zeros(2).is_pinned(), lib.zeros(2).get_device()),
    "dim_order": lambda lib: (lib.zeros(2, 3, 4).dim_order(), lib.zeros(2, 3, 4).permute(2, 0, 1).dim_order()),
    "hermitian": lambda lib: (lib.arange(6.0).reshape(2, 3).H, lib.arange(24.0).reshape(2, 3, 4).mH),
    "real": lambda lib: lib.tensor([1.5]).real,
}


@pytest.mark.parametrize("name", sorted(SIZE_AND_MISC))
def test_size_and_small_tensor_queries_match_pytorch(name, torch):
    ours, theirs = SIZE_AND_MISC[name](core), SIZE_AND_MISC[name](torch)
    if isinstance(ours, tuple) and any(isinstance(o, core.Tensor) for o in ours):
        assert_same(list(ours), list(theirs), check_stride=True)
    else:
        assert repr(ours) == repr(theirs)  # exact text covers values, dtype and type (Size vs tuple)


@pytest.mark.parametrize("bad", [
    lambda lib: lib.Size([2.5]), lambda lib: lib.Size(["a"]), lambda lib: lib.Size(3),
    lambda lib: lib.is_nonzero(lib.tensor([1, 2])), lambda lib: lib.is_nonzero(lib.tensor([])),
    lambda lib: lib.zeros(2).H, lambda lib: format(lib.zeros(2), ".2f"),
])
def test_bad_size_and_query_calls_raise_like_pytorch(bad, torch):
    check_error(bad, [], torch)
