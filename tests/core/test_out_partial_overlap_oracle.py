"""``out=`` that takes part of an input's memory (``torch.add(x[:-1], 1, out=x[1:])``) is refused with torch's
RuntimeError by the elementwise ops, as PyTorch's TensorIterator refuses it; ``out`` that is the input itself, or
memory apart from the inputs, is written as before."""

import pytest
import torch

import core

pytestmark = pytest.mark.cpu_only

CASES = {
    "add_shifted": lambda L, x: L.add(x[:-1], 1, out=x[1:]),
    "add_same": lambda L, x: L.add(x, 1, out=x),
    "add_apart": lambda L, x: L.add(x[:2], x[3:], out=x[2:4].clone()),
    "add_other_overlaps": lambda L, x: L.add(x[:2], x[3:], out=x[2:4]),
    "sub_alpha": lambda L, x: L.sub(x[1:], x[:-1], alpha=2, out=x[:-1]),
    "mul_second_input": lambda L, x: L.mul(x[:-1], x[1:], out=x[:-1]),
    "div": lambda L, x: L.div(x[1:], 2, out=x[:-1]),
    "neg": lambda L, x: L.neg(x[:-1], out=x[1:]),
    "exp": lambda L, x: L.exp(x[:-1], out=x[1:]),
    "exp_same": lambda L, x: L.exp(x, out=x),
    "square": lambda L, x: L.square(x[:-1], out=x[1:]),
    "pow": lambda L, x: L.pow(x[:-1], 2, out=x[1:]),
    "clamp": lambda L, x: L.clamp(x[:-1], 0, 1, out=x[1:]),
    "atan2": lambda L, x: L.atan2(x[:-1], x[1:], out=x[1:]),
    "remainder": lambda L, x: L.remainder(x[:-1], 3, out=x[1:]),
    "lerp": lambda L, x: L.lerp(x[:2], x[2:4], 0.5, out=x[1:3]),
    "addcmul": lambda L, x: L.addcmul(x[:2], x[2:4], x[3:], out=x[1:3]),
    "where": lambda L, x: L.where(x[:-1] > 0, x[:-1], x[1:], out=x[1:]),
    "eq": lambda L, x: L.eq(x[:-1], 1, out=x[1:]),
    "strided_inputs": lambda L, x: L.sub(x[::2], 1, out=x[1::2][:2]),  # not dense: not compared, as torch
    "into_a_clone": lambda L, x: L.add(x[:-1], 1, out=x[1:].clone()),
    "cat_overlapping": lambda L, x: L.cat([x[:2], x[2:4]], out=x[1:5]),
    "cat_into_the_inputs": lambda L, x: L.cat([x[:2], x[2:4]], out=x[:4]),
    "cat_into_its_only_input": lambda L, x: L.cat([x[:2]], out=x[:2]),
    "cat_apart": lambda L, x: L.cat([x[:1], x[4:]], out=x[1:3]),
    "stack_overlapping": lambda L, x: L.stack([x[:2], x[2:4]], out=x[:4].view(2, 2)),
}


def _outcome(lib, case):
    x = lib.arange(5.0)
    try:
        result = CASES[case](lib, x)
    except Exception as exc:  # the error is the outcome compared
        return type(exc).__name__, str(exc)
    return "ok", result.tolist(), x.tolist()


@pytest.mark.parametrize("case", sorted(CASES))
def test_out_overlapping_an_input_as_torch(case):
    assert _outcome(core, case) == _outcome(torch, case)
