"""A tangent built with a missing (zero) tangent, against PyTorch: torch fills a missing tangent with an efficient
zero tensor and still computes the whole formula (``self_t * other + other_t * self`` for mul, ``self_t + other_t``
for add), so where the formula records (a primal or a term requires grad) the tangent requires grad and its node
is the sum's (``AddBackward0``): ``make_dual(p, t) * 2`` with ``p`` a parameter has a differentiable tangent. Core
dropped the missing terms: such tangents did not require grad, or ended in the product's node. Values unchanged.
"""

import numpy as np
import pytest

import core

CASES = {
    "dual_parameter_times_number": lambda L, x, q, p: q * 2,
    "zeros_times_dual_parameter": lambda L, x, q, p: L.zeros(3) * q,
    "dual_parameter_times_zero": lambda L, x, q, p: q * 0,
    "dual_times_parameter": lambda L, x, q, p: x * p,
    "sum_plus_untangented": lambda L, x, q, p: (x * p).sum() + p.sum(),
    "product_of_functions": lambda L, x, q, p: x.exp() * p.sin(),
    "dot_with_parameter": lambda L, x, q, p: x @ p,
    "matrix_times_dual_parameter": lambda L, x, q, p: L.outer(p.detach(), L.ones(2)).T @ q,
    "add_of_untangented_parameter": lambda L, x, q, p: x + p,
    "sub_of_dual_parameter": lambda L, x, q, p: q - p.detach(),
    "detached_dual": lambda L, x, q, p: q.detach() * x,
    "difference_to_itself": lambda L, x, q, p: q - q,
}


def _tangent(lib, name):
    fw = lib.autograd.forward_ad
    p = lib.tensor([1.0, 2.0, -3.0], requires_grad=True)
    with fw.dual_level():
        x = fw.make_dual(lib.tensor([0.5, -1.0, 2.0]), lib.tensor([1.0, -0.0, 0.5]))
        q = fw.make_dual(p, lib.ones(3))
        t = fw.unpack_dual(CASES[name](lib, x, q, p)).tangent
        if t is None:
            return None
        return t.requires_grad, t.grad_fn and t.grad_fn.name(), t.detach().numpy().view(np.uint32).tolist()


@pytest.mark.parametrize("name", sorted(CASES))
def test_tangent_with_a_missing_term_requires_grad_and_ends_as_torchs(torch, name):
    assert _tangent(core, name) == _tangent(torch, name)


def test_without_grad_mode_the_tangent_records_nothing(torch):
    results = []
    for lib in (core, torch):
        with lib.no_grad():
            results.append(_tangent(lib, "dual_parameter_times_number"))
    assert results[0] == results[1]
