"""PyTorch's vectorised float32 loops take their vector form in steps of two of its vectors, 32 elements on an AVX-512
CPU and 16 on an AVX2 one, and the C library's scalar functions for the rest (``core._sleef._PAIR``, from
``core._cpu.vector_bytes``). Before the step followed the CPU, an AVX2 machine sent the last 16..31 elements of
17..31, 49..63, ... to glibc's exp where torch's vector loop takes SLEEF's: sigmoid, silu, softplus, mish, ELU, SELU
and powers were one ulp off in a few of them.

Oracle tests: each op on every size from 1 to 70 and a few larger ones, core against torch, bit for bit (NaN where
NaN), values spread so that both routes round differently somewhere (~1 in 40 of SLEEF's exps is the other
neighbour of glibc's)."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_float32_bits

_OPS = {
    "sigmoid": lambda lib, t: lib.sigmoid(t),
    "silu": lambda lib, t: lib.nn.functional.silu(t),
    "softplus": lambda lib, t: lib.nn.functional.softplus(t),
    "mish": lambda lib, t: lib.nn.functional.mish(t),
    "logsigmoid": lambda lib, t: lib.nn.functional.logsigmoid(t),
    "elu": lambda lib, t: lib.nn.functional.elu(t),
    "selu": lambda lib, t: lib.nn.functional.selu(t),
    "2 ** x": lambda lib, t: 2.0 ** t,
    "|x| ** 2.5": lambda lib, t: lib.abs(t) ** 2.5,
    "exp2": lambda lib, t: lib.exp2(t),
}
_SIZES = [*range(1, 71), 200, 1017]


def _values(n: int) -> np.ndarray:
    return (np.random.default_rng(n).standard_normal(n) * 4).astype(np.float32)


@pytest.mark.parametrize("name", list(_OPS))
def test_each_size_rounds_as_torchs_vector_and_scalar_loops(torch, one_thread, name):
    op = _OPS[name]
    for n in _SIZES:
        x = _values(n)
        assert_float32_bits(op(core, core.tensor(x)).numpy(), op(torch, torch.tensor(x)).numpy())


@pytest.mark.parametrize("name", ["sigmoid", "silu", "softplus", "mish"])
def test_each_sizes_gradient_rounds_as_torchs(torch, one_thread, name):
    op = _OPS[name]
    for n in _SIZES:
        x = _values(n)
        ours, theirs = core.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
        op(core, ours).sum().backward()
        op(torch, theirs).sum().backward()
        assert_float32_bits(ours.grad.numpy(), theirs.grad.numpy())
