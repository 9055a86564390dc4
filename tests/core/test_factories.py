"""Factories: dtype inference, sizes, values and errors as PyTorch's; random ones reproducible."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import core
from tests.core.oracle import assert_same, check, check_error

nan, inf = float("nan"), float("inf")


def same_result_or_error(fn, torch, **compare):
    """Where PyTorch raises for this input, core raises the same type; otherwise results match."""
    try:
        fn(torch)
    except Exception:  # torch's own verdict decides which check applies
        check_error(fn, [], torch)
    else:
        check(fn, [], torch, **compare)

TENSOR_DATA = {
    "floats": [1.5, -0.5],
    "ints": [1, 2, 3],
    "bools": [True, False],
    "int_and_float": [1, 2.5],
    "bool_and_int": [True, 2],
    "bool_and_float": [True, 2.0],
    "nested": [[1, 2], [3, 4]],
    "nested_tuples": ((1.0, 2.0), (3.0, 4.0)),
    "list_of_tuples": [[1, 2], (3, 4)],
    "scalar_float": 3.25,
    "scalar_int": 7,
    "scalar_bool": False,
    "empty": [],
    "empty_rows": [[], []],
    "empty_nested": [[]],
    "range": range(4),
    "int64_extremes": [2**63 - 1, -(2**63)],
    "nan_inf": [nan, inf, -inf],
    "deep": [[[1], [2]], [[3], [4]]],
    "numpy_float64_scalar_in_list": [np.float64(1.5), 2],
    "numpy_float32_scalar_in_list": [np.float32(1.0), 2.0],
    "numpy_int32_scalar_in_list": [np.int32(1), 2],
    "numpy_scalar_float16": np.float16(2.0),
    "numpy_scalar_int8": np.int8(-3),
    "numpy_int16_array": np.array([1, 2], dtype=np.int16),
    "numpy_float64_matrix": np.arange(6.0).reshape(2, 3),
    "numpy_transposed": np.arange(6.0).reshape(2, 3).T,
    "numpy_bool_array": np.array([True, False]),
    "numpy_arrays_in_list": [np.array([1, 2]), np.array([3, 4])],
    "numpy_array_and_list": [np.array([1, 2], dtype=np.int8), [3, 4]],
    "empty_then_ints_is_float": [[], [1]],
    "empty_first_hides_ragged_rest": [[], [1, [2.5]]],
    "nested_empty_and_half_tensor_free": [[[]], [[False]]],
}


@pytest.mark.filterwarnings("ignore:Creating a tensor from a list of numpy.ndarrays")
@pytest.mark.parametrize("name", sorted(TENSOR_DATA))
def test_tensor_infers_dtype_shape_and_values_like_pytorch(name, torch):
    data = TENSOR_DATA[name]
    check(lambda lib: lib.tensor(data), [], torch, check_stride=True)


TENSORS_IN_DATA = {
    "zero_dim_floats": lambda lib: [lib.tensor(1.0), lib.tensor(2.0)],
    "zero_dim_int_and_float": lambda lib: [lib.tensor(1), lib.tensor(2.0)],
    "zero_dim_int32_and_int8": lambda lib: [lib.tensor(1, dtype=lib.int32), lib.tensor(2, dtype=lib.int8)],
    "zero_dim_int32_and_python_int": lambda lib: [lib.tensor(1, dtype=lib.int32), 2],
    "zero_dim_half_and_python_int": lambda lib: [lib.tensor(1.5, dtype=lib.float16), 2],
    "one_element_vectors": lambda lib: [lib.tensor([1.0]), lib.tensor([2.0])],
}


@pytest.mark.parametrize("name", sorted(TENSORS_IN_DATA))
def test_tensor_of_a_list_of_tensors_matches_pytorch(name, torch):
    check(lambda lib: lib.tensor(TENSORS_IN_DATA[name](lib)), [], torch)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"])
@pytest.mark.parametrize("data", [[1.7, -2.5, 0.0], [[1, 0], [127, -128]], [True, False], 3, 2.75],
                         ids=["floats", "ints", "bools", "int", "float"])
def test_tensor_with_explicit_dtype_converts_like_pytorch(dtype, data, torch):
    same_result_or_error(lambda lib: lib.tensor(data, dtype=getattr(lib, dtype)), torch)


BAD_TENSOR_DATA = {
    "str": lambda lib: lib.tensor("abc"),
    "list_of_str": lambda lib: lib.tensor(["a"]),
    "str_inside": lambda lib: lib.tensor([1.0, "a"]),
    "str_deep": lambda lib: lib.tensor([[1, 2], [3, "a"]]),
    "none": lambda lib: lib.tensor(None),
    "none_inside": lambda lib: lib.tensor([1, None]),
    "dict": lambda lib: lib.tensor({}),
    "object": lambda lib: lib.tensor(object()),
    "ragged_longer": lambda lib: lib.tensor([[1], [2, 3]]),
    "ragged_shorter": lambda lib: lib.tensor([[1, 2], [3]]),
    "ragged_deep": lambda lib: lib.tensor([[[1]], [[2, 3]]]),
    "scalar_where_list": lambda lib: lib.tensor([[1, 2], 3]),
    "list_where_int": lambda lib: lib.tensor([1, [2, 3]]),
    "list_where_float": lambda lib: lib.tensor([1.0, [2.0]]),
    "list_deeper_than_first": lambda lib: lib.tensor([[1], [[2]]]),
    "int_overflow": lambda lib: lib.tensor(2**63),
    "int_overflow_list": lambda lib: lib.tensor([2**64]),
    "int8_overflow": lambda lib: lib.tensor([128], dtype=lib.int8),
    "uint8_overflow": lambda lib: lib.tensor([300], dtype=lib.uint8),
    "float_to_int_overflow": lambda lib: lib.tensor([1e20], dtype=lib.int64),
    "vector_tensors_in_list": lambda lib: lib.tensor([lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])]),
    "dtype_string": lambda lib: lib.tensor([1.0], dtype="float32"),
    "dtype_numpy": lambda lib: lib.tensor([1.0], dtype=np.float64),
    "bad_device": lambda lib: lib.tensor([1.0], device="gpu"),
    "bad_device_index": lambda lib: lib.tensor([1.0], device="cuda:x"),
    "int_requires_grad": lambda lib: lib.tensor([1, 2], requires_grad=True),
    "numpy_float32_into_int": lambda lib: lib.tensor(np.float32(0.5), dtype=lib.int8),
    "numpy_bool_into_int": lambda lib: lib.tensor([np.bool_(True)], dtype=lib.int64),
    "float_tensor_into_int": lambda lib: lib.tensor([lib.tensor(0.5)], dtype=lib.int8),
    "negative_float_into_uint8": lambda lib: lib.tensor(-0.5, dtype=lib.uint8),
    "float_just_over_int8": lambda lib: lib.tensor([127.9], dtype=lib.int8),
    "nan_into_int": lambda lib: lib.tensor([nan], dtype=lib.int32),
    "overflow_before_ragged": lambda lib: lib.tensor([[-0.5, 1.0], [2.0]], dtype=lib.uint8),
}


@pytest.mark.parametrize("name", sorted(BAD_TENSOR_DATA))
def test_bad_tensor_data_raises_like_pytorch(name, torch):
    check_error(lambda lib: BAD_TENSOR_DATA[name](lib), [], torch)


def test_ragged_data_names_the_expected_length_and_dim():
    with pytest.raises(ValueError, match="expected sequence of length 2 at dim 1 \\(got 1\\)"):
        core.tensor([[1, 2], [3]])


def test_tensor_copies_its_data():
    a = np.array([1.0, 2.0])
    t = core.tensor(a)
    a[0] = 100.0
    assert t.tolist() == [1.0, 2.0]
    src = core.tensor([1, 2])
    with pytest.warns(UserWarning, match="To copy construct from a tensor"):
        c = core.tensor(src)
    c.add_(1)
    assert src.tolist() == [1, 2] and not c.requires_grad


@pytest.mark.cpu_only
def test_as_tensor_and_asarray_share_numpy_memory_when_they_can(torch):
    a = np.array([1.0, 2.0])
    for lib in (core, torch):
        for share in (lib.as_tensor(a), lib.asarray(a), lib.from_numpy(a), lib.as_tensor(a, dtype=lib.float64)):
            assert np.shares_memory(share.numpy(), a)
        for copied in (lib.as_tensor(a, dtype=lib.float32), lib.asarray(a, copy=True)):
            assert not np.shares_memory(copied.numpy(), a)
    t = core.tensor([1, 2])
    assert core.as_tensor(t) is t and core.asarray(t) is t
    assert_same(core.as_tensor(t, dtype=core.float32), torch.as_tensor(torch.tensor([1, 2]), dtype=torch.float32))
    check(lambda lib: lib.as_tensor([1, 2.5]), [], torch)
    check(lambda lib: lib.as_tensor(5), [], torch)
    check(lambda lib: lib.asarray([[True]]), [], torch)


def test_from_numpy_shares_memory_and_keeps_strides(torch):
    a = np.zeros((2, 3), dtype=np.float32)
    t = core.from_numpy(a)
    t[0, 1] = 7.0
    assert a[0, 1] == 7.0
    a[1, 2] = 3.0
    assert t.tolist()[1][2] == 3.0
    assert_same(core.from_numpy(a.T), torch.from_numpy(a.T), check_stride=True)
    for dtype in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"):
        check(lambda lib, dt=dtype: lib.from_numpy(np.ones(2, dtype=dt)), [], torch)


@pytest.mark.parametrize("bad", [lambda: [1, 2], lambda: np.array(["a"]), lambda: np.array([1.0, 2.0])[::-1],
                                 lambda: np.array([object()])], ids=["list", "str", "negative_stride", "object"])
def test_from_numpy_refuses_what_pytorch_refuses(bad, torch):
    check_error(lambda lib: lib.from_numpy(bad()), [], torch)


@pytest.mark.parametrize("make", [lambda lib, a: lib.tensor(a), lambda lib, a: lib.tensor(a, dtype=lib.float32),
                                  lambda lib, a: lib.Tensor(a), lambda lib, a: lib.LongTensor(a),
                                  lambda lib, a: lib.as_tensor(a)], ids=["tensor", "dtype", "Tensor", "LongTensor",
                                                                        "as_tensor"])
def test_tensor_refuses_a_reversed_numpy_view_as_pytorch_does_even_when_it_copies(make, torch):
    check_error(lambda lib: make(lib, np.arange(6.0).reshape(2, 3)[:, ::-1]), [], torch)
    check(lambda lib: make(lib, np.arange(6.0)[::-1].copy()), [], torch)


def test_from_numpy_refuses_unsupported_dtypes_with_a_type_error():
    for dtype in (np.longdouble, np.str_, np.object_, np.datetime64):  # (uint16/32/64 and complex are supported)
        with pytest.raises(TypeError, match="can't convert np.ndarray of type"):
            core.from_numpy(np.zeros(2, dtype=dtype))


SIZES = {
    "ints": (2, 3),
    "tuple": ((2, 3),),
    "list": ([2, 3],),
    "empty_tuple": ((),),
    "zero_dim_size": (0, 4),
    "one": (1,),
    "no_args": (),
}


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "rand", "randn"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_size_arguments_are_read_like_pytorch(fn, size, torch):
    args = SIZES[size]
    if not args:
        check_error(lambda lib: getattr(lib, fn)(), [], torch)
        return
    check(lambda lib: (tuple(getattr(lib, fn)(*args).shape), str(getattr(lib, fn)(*args).dtype)), [], torch)
    check(lambda lib: tuple(getattr(lib, fn)(lib.Size([2, 1])).shape), [], torch)


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "rand", "randn"])
@pytest.mark.parametrize("size", [(2, -1), (-3,), (2.5,), ("a",), (2, 3.0), ((2, None),), (None,)])
def test_bad_sizes_raise_like_pytorch(fn, size, torch):
    err = check_error(lambda lib: getattr(lib, fn)(*size), [], torch)
    if isinstance(err, RuntimeError):
        assert "negative" in str(err)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool"])
def test_fill_factories_honour_dtype(dtype, torch):
    for fn in ("zeros", "ones"):
        check(lambda lib, fn=fn: getattr(lib, fn)(2, 3, dtype=getattr(lib, dtype)), [], torch)
    check(lambda lib: str(lib.empty(2, dtype=getattr(lib, dtype)).dtype), [], torch)
    check(lambda lib: lib.full((2, 2), 1, dtype=getattr(lib, dtype)), [], torch)
    check(lambda lib: lib.eye(3, 2, dtype=getattr(lib, dtype)), [], torch)


FULL = {
    "int_value": lambda lib: lib.full((2,), 1),
    "bool_value": lambda lib: lib.full((2,), True),
    "float_value": lambda lib: lib.full((2, 2), 1.5),
    "float_into_int": lambda lib: lib.full((2,), 1.5, dtype=lib.int32),
    "list_size": lambda lib: lib.full([2, 1], 3, dtype=lib.float64),
    "size_object": lambda lib: lib.full(lib.Size([3]), -1),
    "zero_dim": lambda lib: lib.full((), 4.0),
    "tensor_value": lambda lib: lib.full((2,), lib.tensor(3)),
    "nan_value": lambda lib: lib.full((2,), nan),
    "numpy_value": lambda lib: lib.full((2,), np.float64(2.5)),
    "requires_grad": lambda lib: lib.full((2,), 2.0, requires_grad=True),
    "scalar_tensor": lambda lib: lib.scalar_tensor(3),
    "scalar_tensor_bool": lambda lib: lib.scalar_tensor(True),
}


@pytest.mark.parametrize("name", sorted(FULL))
def test_full_infers_dtype_from_the_fill_value(name, torch):
    check(lambda lib: FULL[name](lib), [], torch)


@pytest.mark.parametrize("bad", [lambda lib: lib.full(2, 3), lambda lib: lib.full((2,), "a"),
                                 lambda lib: lib.full((2,), None), lambda lib: lib.full((-1,), 2)],
                         ids=["int_size", "str_value", "none_value", "negative"])
def test_bad_full_arguments_raise_like_pytorch(bad, torch):
    check_error(bad, [], torch)


ARANGE = {
    "end": (5,),
    "start_end": (1, 4),
    "float_step": (0, 1, 0.1),
    "float_bounds": (1.0, 4.0),
    "negative_step": (0, -5, -1),
    "negative_float_step": (10, 0, -3.5),
    "uneven": (10, 0, -3),
    "float_start": (0.5, 3),
    "half_steps": (1, 2.5, 0.5),
    "odd_float_step": (-1.0, 1.0, 0.3),
    "empty": (3, 3),
    "big": (0, 1000, 7),
    "tiny_step": (0, 0.001, 0.0001),
}


@pytest.mark.parametrize("name", sorted(ARANGE))
@pytest.mark.parametrize("dtype", [None, "float32", "float64", "int64", "int32"])
def test_arange_matches_pytorch(name, dtype, torch):
    args = ARANGE[name]
    same_result_or_error(lambda lib: lib.arange(*args, dtype=None if dtype is None else getattr(lib, dtype)), torch,
                         rtol=1e-6, atol=1e-6)


def test_arange_counts_float_steps_like_pytorch():
    assert core.arange(0, 1, 0.1).shape == (10,)
    assert core.arange(1, 2.5, 0.5).tolist() == [1.0, 1.5, 2.0]
    assert core.arange(lib_scalar := core.tensor(3)).tolist() == [0, 1, 2] and lib_scalar.item() == 3


@pytest.mark.parametrize("args", [(0, 5, 0), (0, 5, -1), (5, 0, 1), (inf,), (nan,), ("a",), (0, 10, nan),
                                  (0, 10, 1e-320), (0, 10, 1e-300), (-1e308, 1e308, 1.0), (0, 10 ** 19)],
                         ids=["zero_step", "wrong_sign", "wrong_sign_up", "inf", "nan", "str", "nan_step",
                              "subnormal_step", "tiny_step", "count_overflows", "count_past_int64"])
def test_bad_arange_raises_like_pytorch(args, torch):
    check_error(lambda lib: lib.arange(*args), [], torch)


LINSPACE = {
    "unit": (0, 1, 5),
    "one_step": (0, 1, 1),
    "zero_steps": (0, 1, 0),
    "symmetric_7": (-1, 1, 7),
    "descending": (3, -3, 6),
    "many": (0, 10, 100),
    "fractional": (-0.54, 0.36, 182),
    "large": (41.33, -2325.03, 11),
}


@pytest.mark.parametrize("name", sorted(LINSPACE))
@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
def test_linspace_matches_pytorch_bit_for_bit(name, dtype, torch):
    args = LINSPACE[name]
    ours, theirs = (lib.linspace(*args, dtype=None if dtype is None else getattr(lib, dtype)) for lib in (core, torch))
    assert_same(ours, theirs)
    assert ours.numpy().tobytes() == theirs.numpy().tobytes()


def test_linspace_logspace_and_eye_variants_match_pytorch(torch):
    check(lambda lib: lib.linspace(0, 10, 4, dtype=lib.int64), [], torch)
    check(lambda lib: lib.linspace(-1.0, 2.5, 20, dtype=lib.int32), [], torch)
    check(lambda lib: lib.linspace(2.5, 0.001, 26, dtype=lib.int16), [], torch)
    check(lambda lib: lib.logspace(4, -4.94, 7, dtype=lib.int16), [], torch)
    check(lambda lib: lib.logspace(12, 4.2, 7, dtype=lib.uint8), [], torch)
    check(lambda lib: lib.linspace(0, 1, 9, dtype=lib.float16), [], torch)
    check_error(lambda lib: lib.linspace(1, -11.0, 7, dtype=lib.uint8), [], torch)
    check_error(lambda lib: lib.logspace(12.63, 4, 1, dtype=lib.int32), [], torch)
    check(lambda lib: lib.logspace(0, 2, 3), [], torch)
    check(lambda lib: lib.logspace(0, 2, 3, base=2), [], torch)
    check(lambda lib: lib.logspace(-1, 1, 5, dtype=lib.float64), [], torch)
    for args in ((3,), (2, 3), (0,), (3, 1)):
        check(lambda lib, args=args: lib.eye(*args), [], torch)
    for bad in (lambda lib: lib.linspace(0, 1, -1), lambda lib: lib.eye(-1), lambda lib: lib.eye(3, -1),
                lambda lib: lib.linspace(0, 1, 2.5)):
        check_error(bad, [], torch)


LIKE_INPUTS = {
    "int32": np.ones((2, 3), dtype=np.int32),
    "float64": np.ones((2, 3)),
    "bool": np.ones(4, dtype=bool),
}


@pytest.mark.parametrize("name", sorted(LIKE_INPUTS))
def test_like_factories_keep_dtype_device_and_shape(name, torch):
    arr = LIKE_INPUTS[name]
    check(lambda lib, t: lib.zeros_like(t), [arr], torch)
    check(lambda lib, t: lib.ones_like(t), [arr], torch)
    check(lambda lib, t: lib.full_like(t, 7), [arr], torch)
    check(lambda lib, t: lib.ones_like(t, dtype=lib.float64), [arr], torch)
    check(lambda lib, t: (tuple(lib.empty_like(t).shape), str(lib.empty_like(t).dtype)), [arr], torch)
    check(lambda lib, t: lib.zeros_like(t, requires_grad=True).requires_grad, [np.ones(2)], torch)


def test_like_factories_keep_the_layout_of_dense_inputs(torch):
    for view in (lambda t: t.t(), lambda t: t.permute(2, 0, 1) if t.ndim == 3 else t, lambda t: t[:, ::2],
                 lambda t: t[:1].expand(4, -1)):
        for fn in ("zeros_like", "ones_like", "empty_like", "rand_like", "randn_like"):
            check(lambda lib, t, fn=fn, view=view: tuple(getattr(lib, fn)(view(t)).stride()),
                  [np.ones((4, 6), dtype=np.float32)], torch)


def test_random_like_factories_and_their_dtype_errors(torch):
    arr = np.ones((2, 3), dtype=np.float64)
    for fn in ("rand_like", "randn_like"):
        check(lambda lib, t, fn=fn: (tuple(getattr(lib, fn)(t).shape), str(getattr(lib, fn)(t).dtype)), [arr], torch)
        check_error(lambda lib, t, fn=fn: getattr(lib, fn)(t), [np.ones(2, dtype=np.int64)], torch)
    check(lambda lib, t: str(lib.randint_like(t, 5).dtype), [arr], torch)
    check(lambda lib, t: tuple(lib.randint_like(t, 1, 5).shape), [arr], torch)


def test_full_like_converts_the_value_to_the_input_dtype(torch):
    check(lambda lib, t: lib.full_like(t, 2.7), [np.ones(2, dtype=np.int32)], torch)
    check(lambda lib, t: lib.full_like(t, 7), [np.ones(2, dtype=np.float32)], torch)


def test_empty_strided_has_the_requested_strides(torch):
    for size, stride in (((2, 3), (1, 2)), ((2, 3), (3, 1)), ((0, 3), (1, 2)), ((4,), (2,))):
        check(lambda lib, size=size, stride=stride: (tuple(lib.empty_strided(size, stride).shape),
                                                     lib.empty_strided(size, stride).stride(),
                                                     lib.empty_strided(size, stride).is_contiguous()), [], torch)
    check_error(lambda lib: lib.empty_strided((-1,), (1,)), [], torch)


RANDOM = {
    "rand": lambda lib, **kw: lib.rand(3, 4, **kw),
    "randn": lambda lib, **kw: lib.randn(3, 4, **kw),
    "randint_high": lambda lib, **kw: lib.randint(10, (3, 4), **kw),
    "randint_low_high": lambda lib, **kw: lib.randint(3, 10, (5,), **kw),
    "randint_size_kw": lambda lib, **kw: lib.randint(0, 10, size=(2, 2), **kw),
    "randperm": lambda lib, **kw: lib.randperm(8, **kw),
    "normal_numbers": lambda lib, **kw: lib.normal(2.0, 3.0, (3, 2), **kw),
    "normal_tensor_mean": lambda lib, **kw: lib.normal(lib.zeros(3), 1.0, **kw),
    "normal_tensors": lambda lib, **kw: lib.normal(lib.zeros(2, 1), lib.ones(3), **kw),
}


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_random_factories_have_pytorchs_shape_and_dtype(name, torch):
    check(lambda lib: (tuple(RANDOM[name](lib).shape), str(RANDOM[name](lib).dtype)), [], torch)


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_same_seed_gives_the_same_values(name):
    core.manual_seed(123)
    first = RANDOM[name](core).tolist()
    core.manual_seed(123)
    assert RANDOM[name](core).tolist() == first
    core.manual_seed(124)
    assert RANDOM[name](core).tolist() != first


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_generator_objects_are_independent_and_reproducible(name):
    g = core.Generator().manual_seed(7)
    first = RANDOM[name](core, generator=g).tolist()
    core.manual_seed(0)
    RANDOM[name](core)
    g.manual_seed(7)
    assert RANDOM[name](core, generator=g).tolist() == first
    assert g.initial_seed() == 7


def test_rng_state_round_trip_replays_the_same_numbers():
    core.manual_seed(5)
    state = core.get_rng_state()
    a = core.rand(4).tolist(), core.randint(100, (3,)).tolist()
    core.set_rng_state(state)
    assert (core.rand(4).tolist(), core.randint(100, (3,)).tolist()) == a
    assert core.initial_seed() == 5


def test_random_values_are_in_range_and_distributed_plausibly():
    core.manual_seed(0)
    u = core.rand(10000).numpy()
    assert u.min() >= 0.0 and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.02
    n = core.randn(10000).numpy()
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1.0) < 0.05
    r = core.randint(3, 7, (1000,)).numpy()
    assert set(r.tolist()) == {3, 4, 5, 6}
    assert sorted(core.randperm(50).tolist()) == list(range(50))
    m = core.normal(5.0, 0.5, (10000,)).numpy()
    assert abs(m.mean() - 5.0) < 0.05 and abs(m.std() - 0.5) < 0.05


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_random_factories_honour_float_dtypes(dtype, torch):
    for fn in ("rand", "randn"):
        check(lambda lib, fn=fn: str(getattr(lib, fn)(2, dtype=getattr(lib, dtype)).dtype), [], torch)
    check(lambda lib: str(lib.randint(5, (2,), dtype=getattr(lib, dtype)).dtype), [], torch)
    check(lambda lib: str(lib.randperm(4, dtype=getattr(lib, dtype)).dtype), [], torch)


BAD_RANDOM = {
    "rand_int_dtype": lambda lib: lib.rand(2, dtype=lib.int64),
    "randn_int_dtype": lambda lib: lib.randn(2, dtype=lib.int32),
    "rand_bool_dtype": lambda lib: lib.rand(2, dtype=lib.bool),
    "randint_empty_range": lambda lib: lib.randint(3, 3, (3,)),
    "randint_reversed_range": lambda lib: lib.randint(5, 2, (3,)),
    "randint_int_size": lambda lib: lib.randint(10, 3),
    "randint_float_high": lambda lib: lib.randint(5.5, (3,)),
    "randperm_negative": lambda lib: lib.randperm(-1),
    "randperm_float": lambda lib: lib.randperm(5.5),
    "normal_negative_std": lambda lib: lib.normal(2.0, -1.0, (3,)),
    "normal_negative_std_tensor": lambda lib: lib.normal(lib.zeros(2), -lib.ones(2)),
    "randn_negative_size": lambda lib: lib.randn(2, -3),
}


@pytest.mark.parametrize("name", sorted(BAD_RANDOM))
def test_bad_random_calls_raise_like_pytorch(name, torch):
    check_error(lambda lib: BAD_RANDOM[name](lib), [], torch)


_shapes = st.lists(st.integers(0, 4), min_size=0, max_size=4).map(tuple)
_dtypes = st.sampled_from(["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"])


@given(shape=_shapes, dtype=_dtypes, form=st.sampled_from(["ints", "tuple", "list", "size"]))
def test_fill_factories_give_any_shape_and_dtype(shape, dtype, form):
    args = {"ints": shape, "tuple": (shape,), "list": (list(shape),), "size": (core.Size(shape),)}[form]
    if not args:
        args = ((),)
    dt = getattr(core, dtype)
    for fn in (core.zeros, core.ones, core.empty):
        t = fn(*args, dtype=dt)
        assert t.shape == shape and t.dtype is dt and t.is_contiguous()
        assert t.stride() == tuple(int(np.prod(shape[i + 1:])) if all(shape) else t.stride()[i]
                                   for i in range(len(shape)))
    np_dtype = dt.np if dtype != "bool" else bool
    assert core.full(shape, 3, dtype=dt).tolist() == np.full(shape, 3, dtype=np_dtype).tolist()


@given(data=st.recursive(st.one_of(st.integers(-2**40, 2**40), st.floats(-1e6, 1e6), st.booleans()),
                         lambda inner: st.lists(inner, min_size=1, max_size=3), max_leaves=12))
def test_tensor_of_any_nested_data_agrees_with_pytorch(data):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped")
    outcomes = []
    for lib in (core, torch):
        try:
            outcomes.append(lib.tensor(data))
        except Exception as exc:  # the type is what we compare
            outcomes.append(type(exc))
    ours, theirs = outcomes
    if isinstance(theirs, type):
        assert ours is theirs or (isinstance(ours, type) and issubclass(ours, theirs))
    else:
        assert_same(ours, theirs)


@given(start=st.integers(-50, 50), length=st.integers(0, 60), step=st.sampled_from([1, 2, 3, -1, -4, 0.5, 0.25, -0.75]))
def test_arange_lengths_agree_with_pytorch(start, length, step):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped")
    end = start + length * (1 if step > 0 else -1)
    assert_same(core.arange(start, end, step), torch.arange(start, end, step))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("start, end, steps, base", [
    (0, 3, 50, 10.0), (-2, 2, 7, 2.0), (1, 10, 100, 3.5), (-10, 10, 1000, 10.0), (0.1, 2.7, 77, 2.0),
    (0, 400, 5, 10.0), (0, 1, 5, -2.0), (1, -1, 9, 0.0)])
def test_logspace_elements_match_torch_bit_for_bit(torch, dtype, start, end, steps, base):
    """Each element is torch's: exponents start + step * i (then end - step * (steps - 1 - i)) in double from the
    bounds in the dtype, and the C library's pow of two doubles, stored in the dtype."""
    ours = core.logspace(start, end, steps, base=base, dtype=getattr(core, dtype)).float().numpy()
    theirs = torch.logspace(start, end, steps, base=base, dtype=getattr(torch, dtype)).float().numpy()
    np.testing.assert_array_equal(ours, theirs)
