"""Tensor creation against PyTorch, call by call: ``tensor`` from mixed Python data, NumPy arrays and scalars,
every factory with ``dtype``/``requires_grad``/``size=``/``out=``, the ``*_like`` and ``new_*`` forms, and what
``.item()``/``.tolist()`` hand back. Each line runs in core and in torch (tests/core/differential.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.differential import lines, same_call

FROM_DATA = lines("""
torch.tensor([1, 2.5, True])
torch.tensor([True, False])
torch.tensor([1, True])
torch.tensor(3)
torch.tensor(3.5)
torch.tensor(True)
torch.tensor(1+2j)
torch.tensor([1, 2+1j])
torch.tensor([])
torch.tensor([[]])
torch.tensor([[1, 2], [3, 4]], dtype=torch.float16)
torch.tensor((1, 2, 3))
torch.tensor(range(3))
torch.tensor([[1, 2]], dtype=float)
torch.tensor([1, 2], dtype=int)
torch.tensor([1, 2], dtype=bool)
torch.tensor([1.5], dtype=torch.int64)
torch.tensor([300], dtype=torch.uint8)
# each number is converted on its own: an int wraps into uint8 from -255 even beside floats, a float may not
torch.tensor([1.5, -3], dtype=torch.uint8)
torch.tensor([1.5, -3.0], dtype=torch.uint8)
torch.tensor([[[3.0], [5]], [[0], [-3]]], dtype=torch.uint8)
torch.tensor([1.7, -2.7], dtype=torch.int32)
torch.tensor([1.5, 300], dtype=torch.int8)
torch.tensor([2**63 - 1])
torch.tensor(2**63)
torch.tensor([[1, 2], [3]])
torch.tensor('a')
torch.tensor(None)
torch.tensor([torch.tensor(1.), torch.tensor(2.)])
torch.tensor([torch.tensor(1), 2.5])
torch.tensor([1, 2], requires_grad=True)
torch.tensor([1, 2], dtype=torch.float32, requires_grad=True)
torch.tensor([float('inf'), float('nan')])
torch.tensor([0.1], dtype=torch.bfloat16)
torch.tensor([1, 2.5], dtype=torch.complex64)
# a complex number where a real dtype was asked for is refused, as Python's float()/int() would
torch.tensor([1, 1j], dtype=torch.float32)
torch.tensor([[1j]], dtype=torch.int8)
torch.tensor(1j, dtype=torch.float64)
torch.tensor([1j, 0], dtype=torch.bool)
torch.ones(2).new_tensor([1j])
torch.scalar_tensor(3)
torch.scalar_tensor(True)
# NumPy arrays and scalars keep their dtype; Python-number lists take the default dtype
torch.tensor(np.array([1, 2], dtype=np.int32))
torch.tensor(np.float64(2.5))
torch.tensor(np.int16(3))
torch.tensor(np.array(3.0, dtype=np.float32))
torch.tensor([np.float32(1.0), 2])
torch.tensor([np.int64(1), np.int64(2)])
torch.tensor([np.bool_(True), 1])
torch.tensor(np.array([1, 2], dtype=np.uint16))
torch.tensor(np.array([True, False]))
torch.tensor(np.array([[1, 2], [3, 4]])[:, 0])
torch.as_tensor([1, 2])
torch.as_tensor(np.array([1., 2.]))
torch.as_tensor([1, 2], dtype=torch.float32)
torch.from_numpy(np.array([1, 2], dtype=np.int8))
torch.from_numpy(np.array(5.0))
torch.from_numpy(np.array(['a']))
# big-endian arrays are refused with a ValueError, even when a dtype is asked for
torch.tensor(np.array([1., 2.], dtype='>f8'))
torch.tensor(np.array([1, 2], dtype='>i4'), dtype=torch.float32)
torch.as_tensor(np.array([1., 2.], dtype='>f8'))
torch.from_numpy(np.array([1., 2.], dtype='>f8'))
torch.tensor(np.arange(4.)[::-1])
""")

FACTORIES = lines("""
torch.zeros(2, 3)
torch.zeros((2, 3))
torch.zeros([2, 3])
torch.zeros(size=(2, 3))
torch.zeros(torch.Size([2, 3]))
torch.zeros(2, 3, dtype=torch.int32)
torch.zeros(())
torch.zeros(0)
torch.zeros(-1)
torch.zeros(2, 3, requires_grad=True)
torch.zeros(2, dtype=torch.int64, requires_grad=True)
torch.ones(2, 3, dtype=torch.bool)
torch.ones(2, dtype=float)
torch.empty(2, 3).shape
torch.empty(2, 3, dtype=torch.float16).dtype
torch.full((2, 3), 1.5)
torch.full((2, 3), 1)
torch.full((2, 3), True)
torch.full((2,), 1+1j)
torch.full([2], 1.5, dtype=torch.int32)
torch.full((2,), 1, requires_grad=True)
torch.full(2, 1.0)
torch.arange(5)
torch.arange(5.0)
torch.arange(1, 4, 0.5)
torch.arange(0, 1, 0.1)
torch.arange(10, 0, -3)
torch.arange(5, dtype=torch.float32)
torch.arange(0, 5, 0)
torch.arange(5, 0)
torch.arange(torch.tensor(5))
torch.arange(np.int64(4))
torch.arange(1, 2.5)
torch.linspace(0, 1, 5)
torch.linspace(0, 1, 1)
torch.linspace(0, 1, 0)
torch.linspace(0, 10, 5, dtype=torch.int64)
# bool has no arange/linspace/logspace kernel (one step is start itself); complex bounds or dtype space each part
torch.arange(3, dtype=torch.bool)
torch.arange(-2, dtype=torch.bool)
torch.linspace(0, 1, 3, dtype=torch.bool)
torch.linspace(0.5, 0, 1, dtype=torch.bool)
torch.logspace(0, 1, 3, dtype=torch.bool)
torch.linspace(0.1, 1.7, 7, dtype=torch.complex64)
torch.linspace(1+1j, 3, 4, dtype=torch.complex128)
torch.linspace(1+1j, 3, 4)
torch.linspace(torch.tensor(1j), 1, 3)
torch.linspace(0, 1j, 3, dtype=torch.float32)
torch.logspace(0, 2, 3, dtype=torch.complex64)
torch.logspace(0, 1j, 3)
torch.logspace(0, 2, 3)
torch.logspace(0, 2, 3, base=2)
torch.eye(3)
torch.eye(2, 3)
torch.eye(3, dtype=torch.int64)
torch.zeros_like(torch.tensor([1, 2]))
torch.zeros_like(torch.tensor([1, 2]), dtype=torch.float32)
torch.ones_like(torch.tensor([1., 2]), requires_grad=True)
torch.full_like(torch.tensor([1, 2]), 2.7)
torch.full_like(torch.tensor([1., 2]), 2)
# full_like checks its number as full and fill_ do (c10's overflow rule: -1 wraps into uint8, -1.0 does not)
torch.full_like(torch.ones(2), 1j)
torch.full_like(torch.ones(2, dtype=torch.int64), -0.5+0j, dtype=torch.int32)
torch.full_like(torch.ones(2, dtype=torch.uint8), -1.0)
torch.full_like(torch.ones(2, dtype=torch.uint8), -1)
torch.full_like(torch.ones(2, dtype=torch.uint8), 300)
torch.full_like(torch.ones(2), 1e300)
torch.empty_like(torch.tensor([1, 2])).dtype
torch.zeros(3, out=torch.empty(5))
torch.complex(torch.tensor([1.]), torch.tensor([2.]))
torch.polar(torch.tensor([1.]), torch.tensor([0.]))
torch.tensor([1, 2]).new_zeros(3)
torch.tensor([1., 2]).new_tensor([1, 2])
torch.tensor([1., 2]).new_full((2,), 3)
torch.tensor([1., 2]).new_ones((2, 2), dtype=torch.int32)
torch.tensor([1., 2], dtype=torch.float64).new_empty(3).dtype
torch.tril(torch.ones(3, 3))
torch.zeros(2, 3, 4).stride()
torch.empty(0, 3).stride()
torch.tensor(5).stride()
# random factories: dtype, shape and requires_grad (the values come from another generator)
torch.rand(2, 3).dtype
torch.randn(2, dtype=torch.float64).dtype
torch.randint(0, 5, (3,)).dtype
torch.randint(5, (3,)).shape
torch.randint(0, 5, (3,), dtype=torch.float32).dtype
torch.randint(3, 5).shape
torch.randperm(4).dtype
torch.rand(2, 3, dtype=torch.int64)
torch.randn(3, requires_grad=True).requires_grad
torch.rand(size=(2,)).shape
torch.randn(2, 3, out=torch.empty(6)).shape
torch.randn_like(torch.zeros(2, dtype=torch.float16)).dtype
torch.randint_like(torch.zeros(2), 5).dtype
torch.rand_like(torch.zeros(2, dtype=torch.int64))
""")

# a Python number stored by full/fill_ is range-checked as c10 does (a RuntimeError, or a wrap into uint8 from
# -255); the value of a 0-d tensor is cast like ``to`` (it wraps)
_FILL_VALUES = ["-3", "300", "-129", "-256", "2**40", "-1.5", "-0.5", "1e10", "float('nan')", "float('inf')", "1e300",
                "70000", "3.5", "(2+0j)", "(1+2j)", "1+1e300j", "True"]
_FILL_DTYPES = ["uint8", "int8", "int32", "int64", "bool", "float16", "bfloat16", "float32", "complex64", "complex128"]
FILLS = ([f"torch.full((2,), {v}, dtype=torch.{d})" for v in _FILL_VALUES for d in _FILL_DTYPES]
         + [f"torch.zeros(2, dtype=torch.{d}).fill_({v})" for v in _FILL_VALUES[:9] + ["torch.tensor(300)"]
            for d in ("uint8", "int8", "float16")]
         + ["torch.full((2,), -3)", "torch.full((2,), torch.tensor(2.5))",
            "torch.scalar_tensor(-3, dtype=torch.uint8)"])

ITEMS = lines("""
torch.tensor(3.).item()
torch.tensor(3).item()
torch.tensor(True).item()
torch.tensor(1+2j).item()
torch.tensor([1.5, 2]).tolist()
torch.tensor([[1, 2]]).tolist()
torch.tensor([True]).tolist()
torch.tensor([1, 2], dtype=torch.float16).tolist()
torch.tensor([1, 2]).item()
torch.tensor([]).item()
torch.tensor([[5]]).item()
torch.tensor(2.5, dtype=torch.bfloat16).item()
torch.tensor(7, dtype=torch.uint8).item()
torch.tensor([1, 2]).numpy().dtype.name
torch.tensor(1.5).tolist()
torch.tensor([[]]).tolist()
""")


@pytest.mark.parametrize("code", FROM_DATA)
def test_tensor_from_data_matches_torch(code, torch):
    same_call(torch, code, check_stride=True)


@pytest.mark.parametrize("code", FACTORIES)
def test_factory_call_matches_torch(code, torch):
    same_call(torch, code, check_stride=True)


@pytest.mark.parametrize("code", FILLS)
def test_full_and_fill_check_the_number_as_torch(code, torch):
    same_call(torch, code)


@pytest.mark.cpu_only  # (numpy() of a CUDA tensor is refused, as torch's)
@pytest.mark.parametrize("code", ITEMS)
def test_item_and_tolist_give_torchs_python_types(code, torch):
    same_call(torch, code)


_leaf = st.one_of(st.integers(-2**31, 2**31), st.floats(-1e6, 1e6, allow_nan=False), st.booleans())
_DTYPES = [None, "float32", "float64", "int64", "int32", "int16", "uint8", "bool", "float16", "complex64"]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(rows=st.integers(0, 3), cols=st.integers(1, 3), data=st.data(), dtype=st.sampled_from(_DTYPES))
def test_tensor_of_nested_lists_of_mixed_numbers_matches_torch(rows, cols, data, dtype, torch):
    """Mixed ints, floats and bools: the widest category wins (bool < int < float), values converted like torch."""
    values = [[data.draw(_leaf) for _ in range(cols)] for _ in range(rows)]
    if dtype == "uint8" or dtype == "int16":  # (out-of-range casts to small ints are platform-defined in both)
        values = [[v % 100 if not isinstance(v, bool) else v for v in row] for row in values]
    dt = "" if dtype is None else f", dtype=torch.{dtype}"
    same_call(torch, f"torch.tensor({values!r}{dt})")


_SHAPE = st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(factory=st.sampled_from(["zeros", "ones", "empty"]), shape=_SHAPE, dtype=st.sampled_from(_DTYPES),
       form=st.sampled_from(["ints", "tuple", "size", "Size"]), grad=st.booleans())
def test_filled_factories_take_sizes_in_every_form(factory, shape, dtype, form, grad, torch):
    sizes = {"ints": ", ".join(map(str, shape)), "tuple": repr(shape), "size": f"size={shape!r}",
             "Size": f"torch.Size({list(shape)!r})"}[form]
    args = [a for a in (sizes, f"dtype=torch.{dtype}" if dtype else "", "requires_grad=True" if grad else "") if a]
    code = f"torch.{factory}({', '.join(args)})"
    if factory == "empty":
        code = f"(lambda t: (t.dtype, t.shape, t.stride(), t.requires_grad))({code})"
    same_call(torch, code, check_stride=True)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(dtype=st.sampled_from(["int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64", "bool"]),
       shape=st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple), how=st.sampled_from(["tensor", "as_tensor",
                                                                                                  "from_numpy"]))
def test_numpy_arrays_keep_their_dtype_and_shape(dtype, shape, how, torch):
    arr = (np.arange(int(np.prod(shape))) % 7).astype(dtype).reshape(shape)
    same_call(torch, f"torch.{how}(a)", names={"a": arr}, check_stride=True)
