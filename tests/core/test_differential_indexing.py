"""Indexing against PyTorch, call by call: reads by ints, slices, None, Ellipsis, lists, long and bool tensors and
their mixes (values, shapes, strides of the views), writes of numbers and tensors through each of them (broadcast,
cast, or refused as ``index_put_`` refuses another dtype), ``index_put_`` with ``accumulate``, the gather/scatter
family and out-of-range errors. Each line runs in core and in torch (tests/core/differential.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.differential import lines, same_call

INDICES = lines("""
0
-1
1:
::2
None
...
(..., 0)
(None, ..., None)
(0, ..., 1)
(slice(None), 1)
[0, 1]
[[0, 1], [1, 0]]
torch.tensor([1, 0])
torch.tensor([[1], [0]])
(torch.tensor([0, 1]), torch.tensor([1, 2]))
(torch.tensor([0, 1]), slice(None), torch.tensor([1, 2]))
(slice(None), torch.tensor([0, 2]), torch.tensor([1, 3]))
(0, torch.tensor([0, 2]), slice(None), None)
(torch.tensor([0, 1]), None, torch.tensor([1, 2]))
torch.tensor([True, False])
(slice(None), torch.tensor([True, False, True]))
torch.tensor(1)
torch.tensor(True)
torch.tensor(False)
True
False
(True, 0)
torch.arange(24).reshape(2, 3, 4) > 5
(..., torch.tensor([True, False, True, True]))
2
-3
(0, 3)
torch.tensor([2])
[True, False]
(slice(1, 0),)
(slice(-100, 100),)
([0, 1], [1, 2], [2, 3])
(0, 0, 0)
(0, 0, 0, 0)
[-1, -2]
torch.tensor([], dtype=torch.long)
[]
(1, slice(None), [0, 3])
(slice(None), None, [0, 1], None)
torch.tensor([0, 1], dtype=torch.int32)
torch.tensor([0., 1.])
1.0
np.array([0, 1])
np.int64(1)
(torch.tensor([[0], [1]]), torch.tensor([0, 2]))
(Ellipsis, None)
(..., ...)
(slice(None, None, -1),)
'a'
""")

X = "torch.arange(24).reshape(2, 3, 4)"
F = "torch.arange(24.).reshape(2, 3, 4)"


@pytest.mark.parametrize("index", INDICES)
def test_reading_by_index_matches_torch(index, torch):
    for src in (X, F):
        same_call(torch, f"{src}[{index}]", check_stride=True)
    same_call(torch, f"{X}[{index}].is_contiguous()")
    same_call(torch, f"{X}[{index}].storage_offset()")


VALUES = ["-1", "2.7", "True", "torch.tensor(-1)", "torch.tensor([-1, -2, -3, -4])", "torch.tensor(2.7)",
          "torch.zeros(1)", "torch.ones(2, 3, 4) * 7", "torch.tensor([-5, -6])", "torch.tensor([[9.5], [8.5]])"]
# NOTE: out-of-range advanced indices are left out of the writes: torch checks the value's dtype and shape before
# the indices' range, core the range first (both raise)
_OUT_OF_RANGE = ("torch.tensor([2])", "(0, 3)", "2", "-3", "(0, 0, 0, 0)", "'a'", "torch.tensor([0., 1.])", "1.0")


@pytest.mark.parametrize("index", [i for i in INDICES if i not in _OUT_OF_RANGE])
def test_writing_by_index_matches_torch(index, torch):
    for src in (X, F):
        for value in VALUES:
            same_call(torch, f"(lambda t: (t.__setitem__({index}, {value}), t)[1])({src})")


SPECIAL = lines("""
# a complex number written into a real tensor must have no imaginary part (a bool tensor takes any)
(lambda x: (x.__setitem__(0, 2+0j), x)[1])(torch.ones(2))
(lambda x: (x.__setitem__(0, 1j), x)[1])(torch.ones(2))
(lambda x: (x.__setitem__([0, 1], 2+0j), x)[1])(torch.ones(2, dtype=torch.int32))
(lambda x: (x.__setitem__(0, 2+1j), x)[1])(torch.ones(2, dtype=torch.bool))
(lambda x: (x.__setitem__(0, 2+1j), x)[1])(torch.ones(2, dtype=torch.float16))
(lambda x: (x.__setitem__(0, 2+0j), x)[1])(torch.ones(2, dtype=torch.bfloat16))
# index_put_: the dtypes must match, except a one-element value under one bool mask (a masked_fill_)
torch.arange(24).reshape(2, 3, 4).index_put_((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.tensor(5), True)
torch.arange(24).reshape(2, 3, 4).index_put_((torch.tensor([0, 0]), torch.tensor([1, 1])), torch.arange(4), True)
torch.arange(24).reshape(2, 3, 4).index_put_((torch.tensor([0, 0]),), torch.tensor(1.5), accumulate=True)
torch.arange(6.).reshape(2, 3).index_put_((torch.tensor([0, 0]),), torch.tensor(1), accumulate=False)
torch.arange(6.).reshape(2, 3).index_put((torch.tensor([1, 0]),), torch.tensor([1.]))
torch.arange(6.).reshape(2, 3).index_put_((torch.tensor([True, False]),), torch.tensor(3.))
torch.arange(6.).reshape(2, 3).index_put_((torch.arange(6.).reshape(2, 3) > 2,), torch.tensor(1))
torch.arange(6.).reshape(2, 3).index_put_((torch.arange(6.).reshape(2, 3) > 2,), torch.tensor(1), accumulate=True)
torch.arange(6.).reshape(2, 3).index_put((torch.tensor([True, False]),), torch.tensor([1]))
torch.arange(6.).reshape(2, 3).index_put_((torch.tensor([True, False]), torch.tensor([0])), torch.tensor(1))
torch.arange(6.).reshape(2, 3).index_put_([torch.tensor([0])], torch.tensor([1.]))
torch.arange(6.).reshape(2, 3).index_put_((torch.tensor([0]),), 1.)
# a setitem by one bool mask with a one-element tensor casts it; by integer indices it refuses another dtype
(lambda x: (x.__setitem__(x > 2, torch.tensor(0)), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__(x > 2, torch.tensor([0])), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__(x > 2, torch.tensor([0, 1, 2])), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__((slice(None), torch.tensor([True, False, True])), torch.tensor(5)), x)[1])(torch.ones(2, 3))
(lambda x: (x.__setitem__((True,), torch.tensor(2.5)), x)[1])(torch.arange(6).reshape(2, 3))
(lambda x: (x.__setitem__((0, True), torch.tensor(2.5)), x)[1])(torch.arange(6).reshape(2, 3))
(lambda x: (x.__setitem__((Ellipsis, False), torch.tensor(2.5)), x)[1])(torch.arange(6).reshape(2, 3))
(lambda x: (x.__setitem__((0, [0, 1]), torch.tensor(0, dtype=torch.float64)), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__((slice(None), 0), torch.tensor([0, 1])), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__([True, False], torch.tensor(5)), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__([0], torch.tensor(True)), x)[1])(torch.arange(6).reshape(2, 3))
(lambda x: (x.__setitem__(x > 2, 0.5), x)[1])(torch.arange(6).reshape(2, 3))
(lambda x: (x.__setitem__(False, torch.ones(7)), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__((False, 0), torch.ones(7)), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__(False, 'a'), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__(0, [1, 2, 3]), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__(Ellipsis, torch.tensor([1, 2, 3])), x)[1])(torch.arange(6.).reshape(2, 3))
(lambda x: (x.__setitem__((slice(None), None), torch.tensor([[1.], [2.]])), x)[1])(torch.arange(6.).reshape(2, 3))
# the index_* / scatter / gather / mask family
torch.zeros(5).index_add_(0, torch.tensor([0, 0, 2]), torch.tensor([1., 2, 3]))
torch.zeros(5).index_add(0, torch.tensor([0, 0, 2]), torch.tensor([1., 2, 3]), alpha=2)
torch.zeros(5).index_fill_(0, torch.tensor([0, 2]), 7)
torch.zeros(5).index_copy_(0, torch.tensor([4, 2]), torch.tensor([1., 2]))
torch.zeros(3, 2).scatter_(0, torch.tensor([[1, 2]]), torch.tensor([[5., 6]]))
torch.zeros(3, 2).scatter_(0, torch.tensor([[1, 2]]), 5.)
torch.zeros(3, 2).scatter_add_(0, torch.tensor([[1, 1]]), torch.tensor([[5., 6]]))
torch.zeros(3, 2).scatter(1, torch.tensor([[1], [0]]), 1.0, reduce='add')
torch.zeros(3).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([1., 2, 3]), 'amax')
torch.zeros(3).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([1., 2, 3]), 'mean', include_self=False)
torch.gather(torch.arange(24).reshape(2, 3, 4), 2, torch.tensor([[[0, 1]]]))
torch.gather(torch.arange(24).reshape(2, 3, 4), 1, torch.tensor([[[0], [2]]]))
torch.arange(24).reshape(2, 3, 4).take(torch.tensor([0, 23, -1]))
torch.arange(24).reshape(2, 3, 4).take(torch.tensor([24]))
torch.arange(24).reshape(2, 3, 4).masked_fill(torch.arange(24).reshape(2, 3, 4) > 3, -1)
torch.arange(24.).reshape(2, 3, 4).masked_fill(torch.tensor([True, False, True, False]), 2.5)
torch.arange(24).reshape(2, 3, 4).masked_fill(torch.tensor(True), torch.tensor(2))
torch.arange(24).reshape(2, 3, 4).masked_select(torch.arange(24).reshape(2, 3, 4) % 2 == 0)
torch.index_select(torch.arange(24).reshape(2, 3, 4), 1, torch.tensor([2, 0]))
torch.index_select(torch.arange(24).reshape(2, 3, 4), -1, torch.tensor(1))
torch.arange(24).reshape(2, 3, 4).nonzero()
torch.arange(24).reshape(2, 3, 4).nonzero(as_tuple=True)
torch.argwhere(torch.arange(24).reshape(2, 3, 4) > 20)
torch.where(torch.arange(24).reshape(2, 3, 4) > 20)
torch.arange(24).reshape(2, 3, 4)[5]
torch.arange(24).reshape(2, 3, 4)[:, [0, 3]]
torch.arange(24).reshape(2, 3, 4)[torch.tensor([True])]
torch.arange(24).reshape(2, 3, 4)[torch.tensor([True, False, True])]
torch.arange(24).reshape(2, 3, 4)[torch.tensor([1.])]
torch.tensor(5)[0]
torch.tensor(5)[None]
torch.tensor(5)[...]
torch.tensor(5)[()]
torch.tensor(5)[True]
""")


@pytest.mark.parametrize("code", SPECIAL)
def test_index_put_and_index_family_match_torch(code, torch):
    same_call(torch, code)


@settings(max_examples=50, derandomize=True, deadline=None)
@given(data=st.data(), shape=st.lists(st.integers(1, 4), min_size=1, max_size=3))
def test_random_basic_and_advanced_reads_match_torch(data, shape, torch):
    """Random mixes of ints, slices (negative steps left out: torch refuses them), None, Ellipsis and index lists."""
    items = []
    for size in shape:
        kind = data.draw(st.sampled_from(["int", "slice", "list", "none", "full"]))
        if kind == "int":
            items.append(str(data.draw(st.integers(-size, size - 1))))
        elif kind == "slice":
            a, b = data.draw(st.integers(-size - 1, size + 1)), data.draw(st.integers(-size - 1, size + 1))
            items.append(f"slice({a}, {b}, {data.draw(st.integers(1, 3))})")
        elif kind == "list":
            items.append(repr(data.draw(st.lists(st.integers(-size, size - 1), min_size=1, max_size=3))))
        elif kind == "none":
            items += ["None", "slice(None)"]
        else:
            items.append("...")
    n = 1
    for s in shape:
        n *= s
    src = f"torch.arange({n}.).reshape({tuple(shape)})"
    index = "(" + ", ".join(items) + ",)"
    if items.count("...") > 1:
        index = index.replace("...", "slice(None)").replace("slice(None)", "...", 1)
    same_call(torch, f"{src}[{index}]")
    # (an empty result's strides are TensorIterator's choice in torch: compared only when there are elements)
    same_call(torch, f"(lambda r: r.stride() if r.numel() else None)({src}[{index}])")
    same_call(torch, f"(lambda t: (t.__setitem__({index}, -1.5), t)[1])({src})")
