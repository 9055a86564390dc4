"""What the Chinese textbooks' notebooks in the corpus (PyTorch 中文手册, 《深度学习框架PyTorch：入门与实践》) needed,
each checked against torch: legacy setters, constructors and storage classes, tensors over a storage, resize_ over
the storage, grad_fn nodes called directly, .data checks, integer dropout; and what fuzzing printing and operators
against torch found (NumPy complex scalars in torch.tensor, comparisons with a Python complex).
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import raised


@pytest.mark.filterwarnings("ignore:torch.set_default_tensor_type")
@pytest.mark.parametrize("name", ["torch.cuda.FloatTensor", "torch.cuda.LongTensor", "torch.FooTensor", "float",
                                  "torch.IntTensor"])
def test_set_default_tensor_type_by_name_raises_what_torch_raises_without_cuda(torch, name):
    try:
        assert raised(lambda: core.set_default_tensor_type(name)) == raised(lambda: torch.set_default_tensor_type(name))
        assert core.get_default_dtype() is core.float32
    finally:
        core.set_default_dtype(core.float32)
        torch.set_default_dtype(torch.float32)


@pytest.mark.filterwarnings("ignore:torch.set_default_tensor_type")
def test_set_default_tensor_type_refuses_a_cuda_class_without_cuda(torch):
    assert (raised(lambda: core.set_default_tensor_type(core.cuda.DoubleTensor))
            == raised(lambda: torch.set_default_tensor_type(torch.cuda.DoubleTensor)))
    assert core.get_default_dtype() is core.float32


def _mul_graph(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([0.5, -3.0], requires_grad=True)
    return x, w, x * w


def test_a_built_in_grad_fn_called_with_a_gradient_returns_its_inputs_gradients(torch):
    results = []
    for lib in (core, torch):
        x, w, y = _mul_graph(lib)
        gx, gw = y.grad_fn(lib.ones(2))
        single = x.exp().grad_fn(lib.ones(2))
        results.append((gx.tolist(), gw.tolist(), gx.grad_fn is not None, single.tolist(),
                        (x * 2).grad_fn(lib.ones(2))[1]))
    assert results[0] == results[1]


def test_calling_accumulate_grad_adds_into_the_leaf_grad_and_returns_nothing(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        node = x.sum().grad_fn.next_functions[0][0]
        out = node(lib.tensor([3.0, 4.0]))
        node(lib.tensor([1.0, 1.0]))
        results.append((out, x.grad.tolist(), repr(type(node))))
    assert results[0] == results[1]


def _multiply_add(lib):
    class MultiplyAdd(lib.autograd.Function):
        @staticmethod
        def forward(ctx, w, x, b):
            ctx.save_for_backward(w, x)
            return w * x + b

        @staticmethod
        def backward(ctx, grad_output):
            w, x = ctx.saved_tensors
            return grad_output * x, grad_output * w, grad_output * 1

    return MultiplyAdd


def test_a_custom_function_node_runs_its_backward_through_apply_but_is_not_callable(torch):
    results = []
    for lib in (core, torch):
        w, b = lib.tensor([0.25], requires_grad=True), lib.tensor([0.5], requires_grad=True)
        z = _multiply_add(lib).apply(w, lib.ones(1), b)
        grads = z.grad_fn.apply(lib.ones(1))
        with pytest.raises(TypeError) as info:
            z.grad_fn(lib.ones(1))
        results.append(([g.tolist() for g in grads], [g.grad_fn is not None for g in grads], str(info.value)))
    assert results[0] == results[1]


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
def test_tensor_built_from_a_storage_shares_all_of_its_memory_from_the_first_element(torch):
    results = []
    for lib in (core, torch):
        a = lib.arange(0, 6).float()
        d = lib.Tensor(a[2:].storage())  # the whole storage, not the slice's part of it
        d[0] = 6666
        u = lib.Tensor(a.untyped_storage())
        longs = lib.LongTensor(lib.arange(3).storage())
        results.append((a.tolist(), d.tolist(), d.storage_offset(), d.data_ptr() == a.data_ptr(), u.tolist(),
                        longs.tolist(), str(longs.dtype)))
    assert results[0] == results[1]


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
@pytest.mark.parametrize("make", [lambda lib: lib.Tensor(lib.arange(3).storage()),
                                  lambda lib: lib.LongTensor(lib.zeros(2).storage()),
                                  lambda lib: lib.Tensor(lib.zeros(2, dtype=lib.float64).storage())])
def test_tensor_from_a_storage_of_another_dtype_raises_torchsraised(torch, make):
    assert raised(lambda: make(core)) == raised(lambda: make(torch))


def test_legacy_constructors_share_a_numpy_array_of_their_dtype_and_copy_others(torch):
    results = []
    for lib in (core, torch):
        floats, doubles, longs = np.ones((2, 3), np.float32), np.ones((2, 3)), np.ones(3, np.int64)
        shared, copied = lib.Tensor(floats), lib.Tensor(doubles)
        typed, strided = lib.LongTensor(longs), lib.FloatTensor(floats[:, ::2])
        floats[0, 0], doubles[0, 0], longs[0] = 100, 100, 7
        results.append((shared.tolist(), copied.tolist(), typed.tolist(), strided.tolist(), str(copied.dtype)))
    assert results[0] == results[1]


def test_legacy_constructor_refuses_a_numpy_array_with_negative_strides(torch):
    floats = np.ones(3, np.float32)[::-1]
    assert raised(lambda: core.Tensor(floats)) == raised(lambda: torch.Tensor(floats))


@pytest.mark.parametrize("value", [lambda lib: 3, lambda lib: [1, 2], lambda lib: lib.arange(0, 20).view(4, 5),
                                   lambda lib: lib.tensor([True, False])])
def test_setting_data_refuses_non_tensors_and_integer_data_under_a_parameter(torch, value):
    def set_data(lib):
        layer = lib.nn.Embedding(4, 5)
        layer.weight.data = value(lib)
    assert raised(lambda: set_data(core)) == raised(lambda: set_data(torch))


def test_setting_integer_data_on_a_tensor_without_grad_is_allowed(torch):
    results = []
    for lib in (core, torch):
        x = lib.zeros(2)
        x.data = lib.arange(3)
        results.append((x.tolist(), str(x.dtype)))
    assert results[0] == results[1]


@pytest.mark.parametrize("call", [lambda lib, x: lib.nn.Dropout()(x),
                                  lambda lib, x: lib.nn.functional.dropout(x.bool()),
                                  lambda lib, x: lib.nn.functional.dropout2d(x.view(1, 3, 4, 1))])
def test_dropout_of_an_integer_tensor_draws_its_mask_then_raises_torchsraised(torch, call):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        error = raised(lambda lib=lib: call(lib, lib.arange(0, 12).view(3, 4)))
        results.append((error, lib.rand(2).tolist()))  # the generator moved on by the mask's draws
    assert results[0] == results[1]


def test_dropout_of_an_integer_tensor_passes_it_through_in_eval_mode_or_at_p_0_and_zeroes_it_at_p_1(torch):
    results = []
    for lib in (core, torch):
        x = lib.arange(0, 6)
        layer = lib.nn.Dropout()
        layer.training = False
        results.append((layer(x).tolist(), lib.nn.functional.dropout(x, 0.0).tolist(),
                        lib.nn.functional.dropout(x, 1.0).tolist()))
    assert results[0] == results[1]


def test_resize_views_the_storage_from_the_offset_and_a_grown_storage_keeps_its_elements(torch):
    results = []
    for lib in (core, torch):
        a = lib.arange(6)
        b = a.view(2, 3)
        b.resize_(1, 3)  # shrinking keeps the storage: b still writes into a
        b[0, 0] = 9
        b.resize_(3, 3)  # growing keeps the six elements the storage held
        c = lib.arange(6)[2:]
        c.resize_(2)
        d = lib.arange(6).view(2, 3).t()
        d.resize_(2, 2)  # storage order, not d's element order
        results.append((a.tolist(), b[:2].tolist(), c.tolist(), c.storage_offset(), d.tolist(), d.is_contiguous()))
    assert results[0] == results[1]


LEGACY_STORAGES = ["FloatStorage", "DoubleStorage", "HalfStorage", "BFloat16Storage", "LongStorage", "IntStorage",
                   "ShortStorage", "CharStorage", "ByteStorage", "BoolStorage", "ComplexFloatStorage",
                   "ComplexDoubleStorage"]


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
@pytest.mark.parametrize("name", LEGACY_STORAGES)
def test_legacy_storage_classes_build_typed_storages_of_their_dtype(torch, name):
    results = []
    for lib in (core, torch):
        cls = getattr(lib, name)
        sized, empty = cls(3), cls()
        results.append((repr(cls), str(sized.dtype), sized.size(), empty.size(), type(sized).__name__,
                        isinstance(sized, cls), isinstance(lib.zeros(1, dtype=lib.float32).storage(), cls)))
    assert results[0] == results[1]


@pytest.mark.filterwarnings("ignore:TypedStorage is deprecated")
def test_legacy_storage_from_data_and_storage_type_of_a_tensor(torch):
    results = []
    for lib in (core, torch):
        longs = lib.LongStorage([1, 2])
        wrapped = lib.FloatStorage(wrap_storage=lib.ones(2).untyped_storage())
        results.append((longs.tolist(), repr(longs), wrapped.tolist(), repr(lib.ones(2).storage_type()),
                        repr(lib.arange(2).storage_type()), lib.Tensor(lib.FloatStorage([1, 2, 3])).tolist(),
                        raised(lambda lib=lib: lib.FloatStorage([1], dtype=lib.float64))))
    assert results[0] == results[1]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # both drop the imaginary part with it
@pytest.mark.parametrize("data,dtype", [
    (lambda: np.complex128(1 + 2j), None), (lambda: np.complex64(1 + 2j), None),
    (lambda: [np.complex128(1 + 1j), 2.0], None), (lambda: [1, np.complex64(2j)], None),
    (lambda: [np.float32(1.5)], "complex64"), (lambda: [np.complex64(1j)], "float32"),
    (lambda: [np.complex64(1j)], "int64"), (lambda: [np.int8(1)], "complex64"),
])
def test_tensor_from_numpy_complex_scalars_as_torch_reads_them(torch, data, dtype):
    results = []
    for lib in (core, torch):
        kind = getattr(lib, dtype) if dtype else None
        try:
            made = lib.tensor(data(), dtype=kind)
            results.append((made.tolist(), str(made.dtype).split(".")[-1]))
        except TypeError as exc:
            results.append(str(exc))
    assert results[0] == results[1]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
def test_comparing_with_a_python_complex_is_elementwise_for_equality_and_refused_for_order(torch, dtype):
    results = []
    for lib in (core, torch):
        x = lib.tensor([1.5, -2.0, 0.0]).to(getattr(lib, dtype))
        equal = [(x == 1j).tolist(), (x != 1j).tolist(), (x == (1.5 + 0j)).tolist()]
        results.append((equal, raised(lambda x=x: x < 1j), raised(lambda x=x: x.ge(2j)), raised(lambda x=x: 1j > x)))
    assert results[0] == results[1]
