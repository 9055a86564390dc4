"""``t[i] = number`` and ``t[i, j] = number``, the element-by-element fills tutorials write (a word list into a
LongTensor), compared with PyTorch: the stored value and its rounding, the version counter, views, saved tensors,
and the errors of out-of-range indices, numbers a dtype can't hold and leaves that require grad."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

pytestmark = pytest.mark.cpu_only

VALUES = [0, 7, -3, 2**40, 16777217, 2**53 + 1, 0.1, -2.5, 1e-40, 3.4028234663852886e38, 1e300, float("inf"),
          float("nan"), True]


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "int32", "uint8", "bool"])
@pytest.mark.parametrize("value", VALUES, ids=[repr(v) for v in VALUES])
def test_one_element_assignment_stores_what_torch_stores(dtype, value, torch):
    results = []
    for lib in (core, torch):
        t = lib.zeros(5, dtype=getattr(lib, dtype))
        try:
            t[3] = value
            t[-1] = value
            results.append((t, t._version))
        except Exception as error:  # the error type is what both must share
            results.append(type(error))
    if isinstance(results[0], type) or isinstance(results[1], type):
        assert results[0] == results[1]
    else:
        assert_same(results[0][0], results[1][0], rtol=0, atol=0)
        assert results[0][1] == results[1][1]


@pytest.mark.parametrize("index", [(1, 2), (-1, 0), (0, -3)])
def test_element_of_a_matrix_and_its_views_see_it(index, torch):
    results = []
    for lib in (core, torch):
        m = lib.arange(12, dtype=lib.float32).reshape(3, 4).clone()
        row = m[index[0]]
        m[index] = 0.3
        results.append((m, row, m._version, row._version))
    assert_same(results[0][0], results[1][0], rtol=0, atol=0)
    assert_same(results[0][1], results[1][1], rtol=0, atol=0)
    assert results[0][2:] == results[1][2:]


@pytest.mark.parametrize("index", [5, -6, (0, 4), (3, 0)])
def test_out_of_range_index_raises_torchs_index_error(index, torch):
    messages = []
    for lib in (core, torch):
        t = lib.zeros(5) if isinstance(index, int) else lib.zeros(3, 4)
        with pytest.raises(IndexError) as caught:
            t[index] = 1
        messages.append(str(caught.value))
    assert messages[0] == messages[1]


def test_writing_a_tensor_saved_for_backward_fails_backward_in_both(torch):
    errors = []
    for lib in (core, torch):
        w = lib.ones(3, requires_grad=True)
        x = lib.tensor([1.0, 2.0, 3.0])
        y = (w * x).sum()
        x[0] = 5.0  # x was saved by the multiplication: its version moved on
        with pytest.raises(RuntimeError, match="modified by an inplace operation") as caught:
            y.backward()
        errors.append(str(caught.value).split(";")[0])
    assert errors[0].replace("core.", "torch.") == errors[1]


def test_a_leaf_that_requires_grad_refuses_an_element_write(torch):
    for lib in (core, torch):
        t = lib.zeros(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
            t[0] = 1.0
        with lib.no_grad():
            t[1] = 2.0
        assert t.tolist() == [0.0, 2.0, 0.0]


def test_a_word_list_filled_element_by_element_matches(torch):
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 5000, size=300).tolist()
    out = []
    for lib in (core, torch):
        t = lib.LongTensor(len(ids))
        for i, word in enumerate(ids):
            t[i] = word
        out.append(t.view(20, -1))
    assert_same(out[0], out[1], rtol=0, atol=0)


OVERFLOWS = [("bfloat16", 1e39), ("float16", 1e300), ("int8", 200), ("int8", -129), ("uint8", -1), ("uint8", -300),
             ("int64", 2**63), ("float32", 2**200), ("float32", 1e300), ("float64", float("inf")),
             ("complex64", 1e300), ("int16", 1.5e5), ("uint8", 256.0), ("int32", 2**40), ("bool", 5),
             ("int64", 1.7), ("int64", -2**63)]


@pytest.mark.parametrize(("dtype", "value"), OVERFLOWS, ids=[f"{d}-{v!r}" for d, v in OVERFLOWS])
@pytest.mark.parametrize("index", [3, slice(0, 2), [0, 1]], ids=["int", "slice", "list"])
def test_numbers_a_dtype_cannot_hold_fail_or_wrap_as_in_torch(dtype, value, index, torch):
    results = []
    for lib in (core, torch):
        t = lib.zeros(5, dtype=getattr(lib, dtype))
        try:
            t[index] = value
            results.append(t.tolist())
        except (RuntimeError, ValueError) as error:
            results.append((type(error), str(error)))
    assert results[0] == results[1]


@pytest.mark.parametrize("index", [(0, 4), (1, 2, 7), (0, slice(None), 9), (Ellipsis, 6), (None, 0, 9), (0, [1], 9)],
                         ids=["second", "third", "after-slice", "after-ellipsis", "after-none", "after-list"])
def test_index_errors_name_the_position_in_the_index_as_torch(index, torch):
    messages = []
    for lib in (core, torch):
        with pytest.raises(IndexError) as caught:
            lib.zeros(3, 4, 5)[index]
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
