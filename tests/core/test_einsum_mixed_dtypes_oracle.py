"""Oracle tests for einsum on operands of different dtypes. PyTorch contracts the operands pairwise, left to right:
a pair that sums a label of size > 1 on both sides goes through bmm, which refuses two dtypes ("expected scalar
type ComplexFloat but found Float"); any other pair (an outer or elementwise product, or a label summed in one
operand only) is a ``mul``, which promotes. S4's recurrent step calls ``einsum('h n, b h -> b h n', dB, u)`` with
a complex ``dB`` and a real input; core refused every mix.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import check_grads, raised

RNG = np.random.default_rng(11)

CASES = {  # equation, then (shape, dtype) per operand
    "s4_step_input": ("h n, b h -> b h n", [((3, 4), "complex64"), ((2, 3), "float32")]),
    "elementwise_state": ("hn,bhn->bhn", [((3, 4), "complex64"), ((2, 3, 4), "float32")]),
    "contracted_refuses": ("hn,bhn->bh", [((3, 4), "complex64"), ((2, 3, 4), "float32")]),
    "full_contraction_refuses": ("hn,hn->", [((3, 4), "complex64"), ((3, 4), "float32")]),
    "matmul_refuses_double_and_float": ("ij,jk->ik", [((2, 3), "float64"), ((3, 2), "float32")]),
    "float_first_refuses": ("ij,jk->ik", [((2, 3), "float32"), ((3, 2), "float64")]),
    "elementwise_double_float": ("i,i->i", [((3,), "float64"), ((3,), "float32")]),
    "outer_int_float": ("i,j->ij", [((3,), "int64"), ((2,), "float32")]),
    "label_summed_in_one_operand": ("ij,j->j", [((2, 3), "float32"), ((3,), "float64")]),
    "size_one_contracted_label": ("ij,jk->ik", [((2, 1), "float64"), ((1, 3), "float32")]),
    "three_operands_mul_then_bmm": ("i,j,ij->", [((2,), "float64"), ((3,), "float32"), ((2, 3), "float64")]),
    "three_operands_refused_late": ("i,j,ij->", [((2,), "float32"), ((3,), "float32"), ((2, 3), "float64")]),
    "half_and_float_outer": ("b,c->bc", [((2,), "float16"), ((3,), "float32")]),
}


def _array(shape, dtype):
    if dtype.startswith("complex"):
        return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)
    if dtype.startswith("int"):
        return RNG.integers(-3, 4, shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("name", sorted(CASES))
def test_einsum_of_mixed_dtypes_promotes_or_refuses_as_torch(name, torch):
    equation, specs = CASES[name]
    arrays = [_array(s, d) for s, d in specs]
    ours = raised(lambda: core.einsum(equation, *[core.tensor(a) for a in arrays]))
    theirs = raised(lambda: torch.einsum(equation, *[torch.tensor(a) for a in arrays]))
    assert ours == theirs
    if theirs is None:
        mine = core.einsum(equation, *[core.tensor(a) for a in arrays])
        ref = torch.einsum(equation, *[torch.tensor(a) for a in arrays])
        assert str(mine.dtype) == str(ref.dtype)
        assert tuple(mine.shape) == tuple(ref.shape)
        np.testing.assert_allclose(mine.numpy(), ref.numpy(), rtol=1e-3 if "float16" in str(ref.dtype) else 1e-5,
                                   atol=1e-6)


def test_gradient_of_a_real_operand_times_a_complex_one_is_real_as_in_torch(torch):
    dB = _array((3, 4), "complex64")
    u = _array((2, 3), "float32")
    check_grads(lambda lib, b, x: lib.view_as_real(lib.einsum("h n, b h -> b h n", b, x)), [dB, u], torch, atol=1e-5)
