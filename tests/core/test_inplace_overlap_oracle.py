"""In-place writes from memory that overlaps the target, as PyTorch 2.13 refuses or allows them.

PyTorch's TensorIterator refuses an in-place op whose input covers part of the written tensor's memory
(``assert_no_partial_overlap``): ``x[1:] += x[:-1]``, ``x += x.t()``, ``x.copy_(x.t())``, and the same for
``pow_``, ``clamp_``, ``lerp_``, ``addcmul_``; ``index_copy_`` refuses even the very same memory
(``assert_no_overlap``). The same memory with the same strides (``x += x``), memory that does not overlap, a
broadcast input and an input that is a copy (``flip``) are fine. Only tensors that are each non-overlapping and dense
are compared, as torch does.
"""

import pytest

import core
from tests.core.oracle import assert_same, raised

CASES = {
    "add_ of the shifted tensor": lambda x: x.view(-1)[1:].add_(x.view(-1)[:-1]),
    "+= of the shifted rows": lambda x: x[1:].__iadd__(x[:-1]),
    "add_ of the transpose": lambda x: x.add_(x.t()),
    "copy_ of the transpose": lambda x: x.copy_(x.t()),
    "mul_ of another row": lambda x: x[0].mul_(x[1]),
    "mul_ of a column by a row it crosses": lambda x: x[:, 0].mul_(x[0]),
    "add_ of a broadcast row": lambda x: x[1:].add_(x[0]),
    "add_ of itself": lambda x: x.add_(x),
    "sub_ of a view of the same memory": lambda x: x.sub_(x.view(3, 3)),
    "add_ of the transpose transposed back": lambda x: x.add_(x.t().t()),
    "div_ of a flipped copy": lambda x: x.div_(x.flip(0)),
    "addcmul_ of the shifted rows": lambda x: x[1:].addcmul_(x[:-1], x[:-1]),
    "addcdiv_ of the shifted rows": lambda x: x[1:].addcdiv_(x[:-1], x[:-1] + 1),
    "pow_ by the shifted rows": lambda x: x[1:].pow_(x[:-1]),
    "clamp_ by the shifted rows": lambda x: x[1:].clamp_(min=x[:-1]),
    "lerp_ towards the shifted rows": lambda x: x[1:].lerp_(x[:-1], 0.5),
    "setitem from the shifted rows": lambda x: x.__setitem__(slice(1, None), x[:-1]),
    "index_copy_ from the shifted rows": lambda x: x[1:].index_copy_(0, x.new_tensor([0, 1]).long(), x[:-1]),
    "index_copy_ from itself": lambda x: x.index_copy_(0, x.new_tensor([0, 1, 2]).long(), x),
    "relu_ alone": lambda x: x[1:].relu_(),
}


@pytest.mark.parametrize("name", list(CASES))
def test_an_inplace_write_from_overlapping_memory_is_refused_or_done_as_torch(torch, name):
    def fn(lib):
        x = lib.arange(9.0).view(3, 3)
        return raised(lambda: CASES[name](x)), x

    (ours, x_ours), (theirs, x_theirs) = fn(core), fn(torch)
    assert ours == theirs
    assert_same(x_ours, x_theirs)


def test_a_refused_write_leaves_the_tensor_unchanged(torch):
    def fn(lib):
        x = lib.arange(6.0)
        return raised(lambda: x[1:].add_(x[:-1])), x

    (ours, x_ours), (theirs, x_theirs) = fn(core), fn(torch)
    assert ours == theirs and ours[0] == "RuntimeError"
    assert_same(x_ours, x_theirs)


def test_overlap_under_autograd_is_refused_before_anything_is_recorded(torch):
    def fn(lib):
        w = lib.ones(4, requires_grad=True)
        y = w * 2
        error = raised(lambda: y[1:].mul_(y[:-1]))
        y.sum().backward()
        return error, y.grad_fn.name(), w.grad

    ours, theirs = fn(core), fn(torch)
    assert ours[:2] == theirs[:2]
    assert_same(ours[2], theirs[2])
