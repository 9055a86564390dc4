"""Oracle tests for the layout of binary and ternary elementwise results: PyTorch's TensorIterator gives the
output its operands' dim order (a channels-last or permuted operand makes a result laid out as it, the first
operand that orders two dims deciding), where NumPy would often give a C-contiguous one. Strides,
``is_contiguous`` and ``view``'s refusal afterwards are torch's; values do not change.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised

RNG = np.random.default_rng(3)
DATA = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
SMALL = RNG.standard_normal((3, 1, 5)).astype(np.float32)


def _layouts():
    """(name, fn(lib) -> tensor) of 4-d operands laid out in several ways, all of shape (2, 3, 4, 5) or
    broadcastable to it."""
    def made(lib, perm=None, fmt=None, expand=False, sliced=False, small=False):
        if small:
            return lib.tensor(SMALL)
        if perm is not None:
            inv = np.argsort(perm)
            return lib.tensor(np.ascontiguousarray(DATA.transpose(inv))).permute(*perm)
        if fmt is not None:
            return lib.tensor(DATA).to(memory_format=getattr(lib, fmt))
        if expand:
            return lib.tensor(DATA[:, :1]).expand(2, 3, 4, 5)
        if sliced:
            return lib.tensor(np.concatenate([DATA, DATA], -1))[..., ::2]
        return lib.tensor(DATA)

    specs = {"contiguous": {}, "channels_last": {"fmt": "channels_last"}, "nhwc_permuted": {"perm": (0, 3, 1, 2)},
             "reversed": {"perm": (3, 2, 1, 0)}, "swapped_hw": {"perm": (0, 1, 3, 2)}, "expanded": {"expand": True},
             "strided": {"sliced": True}, "broadcast_small": {"small": True}}
    return {name: (lambda lib, kw=kw: made(lib, **kw)) for name, kw in specs.items()}


LAYOUTS = _layouts()
PAIRS = sorted(itertools.product(LAYOUTS, LAYOUTS))

BINARY = {
    "add": lambda lib, a, b: lib.add(a, b),
    "operator_add": lambda lib, a, b: a + b,
    "operator_mul": lambda lib, a, b: a * b,
    "sub_alpha": lambda lib, a, b: lib.sub(a, b, alpha=2),
    "div": lambda lib, a, b: a / b,
}


MORE = {
    "eq": lambda lib, a, b: a == b,
    "lt": lambda lib, a, b: lib.lt(a, b),
    "logical_and": lambda lib, a, b: lib.logical_and(a > 0, b > 0),
    "bitwise_and": lambda lib, a, b: (a > 0) & (b > 0),
    "pow": lambda lib, a, b: lib.pow(a.abs(), b),
    "number_to_a_tensor_power_is_contiguous": lambda lib, a, b: 2 ** b,
    "left_shift": lambda lib, a, b: a.int().abs() << b.int().abs().clamp(max=3),
    "maximum": lambda lib, a, b: lib.maximum(a, b),
    "clamp_tensor_min": lambda lib, a, b: lib.clamp(a, min=b),
    "clamp_tensor_bounds": lambda lib, a, b: lib.clamp(a, b - 1, b + 1),
    "atan2": lambda lib, a, b: lib.atan2(a, b),
    "remainder": lambda lib, a, b: lib.remainder(a, b),
    "floor_divide": lambda lib, a, b: lib.floor_divide(a, b),
    "copysign": lambda lib, a, b: lib.copysign(a, b),
    "xlogy": lambda lib, a, b: lib.xlogy(a, b),
    "int_mul": lambda lib, a, b: a.int() * b.int(),
    "promoting_add": lambda lib, a, b: a.double() + b,
    "isclose": lambda lib, a, b: lib.isclose(a, b),
    "nextafter": lambda lib, a, b: lib.nextafter(a, b),
    "where": lambda lib, a, b: lib.where(a > 0, a, b),
    "where_condition_first": lambda lib, a, b: lib.where(b > 0, a, 0.0),
    "addcmul": lambda lib, a, b: lib.addcmul(a, b, a, value=0.5),
    "addcdiv": lambda lib, a, b: lib.addcdiv(b, a, b),
    "lerp": lambda lib, a, b: lib.lerp(a, b, 0.3),
    "lerp_tensor_weight": lambda lib, a, b: lib.lerp(b, a, a.sigmoid()),
}


def _same_layout(torch, ours, theirs, path="result"):
    assert_same(ours, theirs, check_stride=True, path=path)
    assert ours.is_contiguous() == theirs.is_contiguous()
    if ours.ndim == 4:
        assert ours.is_contiguous(memory_format=core.channels_last) == \
            theirs.is_contiguous(memory_format=torch.channels_last)


@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("left,right", PAIRS)
def test_binary_result_has_torchs_strides(torch, op, left, right):
    results = [BINARY[op](lib, LAYOUTS[left](lib), LAYOUTS[right](lib)) for lib in (core, torch)]
    _same_layout(torch, *results)


@pytest.mark.parametrize("left,right", PAIRS)
def test_binary_result_that_records_a_graph_has_torchs_strides_and_gradients(torch, left, right):
    results = []
    for lib in (core, torch):
        a, b = LAYOUTS[left](lib).detach().requires_grad_(), LAYOUTS[right](lib).detach().requires_grad_()
        y = a * b + a
        y.backward(lib.ones_like(y))
        results.append((y, a.grad, b.grad))
    for ours, theirs in zip(*results):
        assert_same(ours, theirs, check_stride=True)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@pytest.mark.parametrize("number", [1, 2.5])
def test_a_tensor_with_a_number_keeps_torchs_strides(torch, name, number):
    _same_layout(torch, *[LAYOUTS[name](lib) * number - number for lib in (core, torch)])
    _same_layout(torch, *[number + LAYOUTS[name](lib) for lib in (core, torch)])


@pytest.mark.parametrize("op", sorted(MORE))
def test_comparison_pow_clamp_where_and_ternary_results_have_torchs_strides(torch, op):
    for left, right in PAIRS:
        results = [MORE[op](lib, LAYOUTS[left](lib), LAYOUTS[right](lib)) for lib in (core, torch)]
        _same_layout(torch, *results, path=f"{op}({left}, {right})")


def test_in_place_ops_keep_their_tensors_strides(torch):
    for left, right in PAIRS:
        if left in ("expanded", "broadcast_small"):
            continue
        results = []
        for lib in (core, torch):
            a = LAYOUTS[left](lib).clone(memory_format=lib.preserve_format)
            a.mul_(LAYOUTS[right](lib)).add_(1)
            results.append(a)
        _same_layout(torch, *results, path=f"{left}.mul_({right})")


@pytest.mark.parametrize("left,right", [("channels_last", "contiguous"), ("nhwc_permuted", "contiguous"),
                                        ("contiguous", "channels_last"), ("channels_last", "broadcast_small")])
def test_view_after_a_binary_op_raises_as_torchs(torch, left, right):
    outcomes = []
    for lib in (core, torch):
        y = LAYOUTS[left](lib) + LAYOUTS[right](lib)
        outcome = raised(lambda y=y: y.view(2, -1))
        outcomes.append(outcome if outcome is None else outcome[0])
    assert outcomes[0] == outcomes[1]
