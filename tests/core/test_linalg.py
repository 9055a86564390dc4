"""Linear algebra against PyTorch: matmul's shape rules, products, einsum, matrix functions, norms."""

from __future__ import annotations

import math

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_error, check_grads

RNG = np.random.default_rng(0)


def arr(*shape, dtype=np.float64):
    if np.dtype(dtype).kind in "iu":
        return RNG.integers(-4, 5, size=shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


MATMUL_SHAPES = [
    ((3,), (3,)), ((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)),
    ((5, 2, 3), (3, 4)), ((5, 2, 3), (3,)), ((3,), (5, 3, 4)), ((2, 3), (5, 3, 4)),
    ((5, 2, 3), (5, 3, 4)), ((1, 2, 3), (5, 3, 4)), ((5, 2, 3), (1, 3, 4)),
    ((2, 1, 2, 3), (5, 3, 4)), ((2, 5, 2, 3), (2, 1, 3, 4)), ((5, 2, 3), (1, 1, 3, 4)),
    ((4, 1, 2, 3), (3,)), ((3,), (2, 2, 3, 4)), ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((0,), (0,)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize(("sa", "sb"), MATMUL_SHAPES)
def test_matmul_matches_torch_for_every_shape_combination(torch, sa, sb, dtype):
    check(lambda lib, a, b: lib.matmul(a, b), [arr(*sa, dtype=dtype), arr(*sb, dtype=dtype)], torch, rtol=1e-5)


@pytest.mark.parametrize(("sa", "sb"), MATMUL_SHAPES)
def test_matmul_gradients_match_torch(torch, sa, sb):
    check_grads(lambda lib, a, b: a @ b, [arr(*sa), arr(*sb)], torch)


@pytest.mark.parametrize(("sa", "sb", "rg"), [
    ((3,), (3,), (1, 1)), ((2, 3), (3, 4), (1, 1)), ((2, 3), (3,), (1, 1)), ((5, 2, 3), (3, 4), (1, 1)),
    ((5, 2, 3), (5, 3, 4), (1, 1)), ((2, 3), (5, 3, 4), (1, 0)), ((5, 2, 3), (3,), (1, 1)),
    ((2, 3), (5, 3, 4), (0, 1)), ((3,), (5, 3, 4), (1, 1)), ((3,), (5, 3, 4), (0, 1)), ((3,), (3, 4), (1, 1)),
    ((1, 2, 3), (5, 3, 4), (1, 1)), ((1, 2, 3), (5, 3, 4), (0, 1)), ((5, 2, 3), (1, 3, 4), (0, 1)),
    ((5, 2, 3), (1, 3, 4), (1, 0)), ((1, 2, 3), (1, 3, 4), (1, 1)), ((1, 1, 3), (1, 3, 3, 1), (1, 1))])
def test_matmul_records_the_grad_fn_torch_records(torch, sa, sb, rg):
    names = []
    for lib in (core, torch):
        a = lib.tensor(arr(*sa)).requires_grad_(bool(rg[0]))
        b = lib.tensor(arr(*sb)).requires_grad_(bool(rg[1]))
        names.append(type((a @ b).grad_fn).__name__)
    assert names[0] == names[1]


def test_matmul_of_non_contiguous_inputs_matches_torch(torch):
    a, b = arr(4, 3, 2), arr(4, 5, 3)
    check(lambda lib, x, y: lib.matmul(x.transpose(1, 2), y.transpose(1, 2)), [a, b], torch)
    check(lambda lib, x, y: x.permute(2, 0, 1).mT @ y.T, [arr(3, 4, 2), arr(5, 3)], torch)
    check(lambda lib, x, y: x.expand(3, 2, 2) @ y, [arr(2, 2), arr(3, 2, 4)], torch)
    check_grads(lambda lib, x, y: x.transpose(1, 2) @ y.transpose(1, 2), [a, b], torch)


def test_matmul_without_grad_gives_a_fresh_contiguous_result():
    a, b = core.randn(3, 4), core.randn(4, 2)
    out = a @ b
    assert out.grad_fn is None and out.is_contiguous() and out.dtype is core.float32


@pytest.mark.parametrize(("sa", "sb", "match"), [
    ((2, 3), (4, 5), r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"),
    ((3,), (4,), "inconsistent tensor size"),
    ((2, 3), (4,), r"size mismatch, got input \(2\), mat \(2x3\), vec \(4\)"),
    ((3,), (4, 5), r"\(1x3 and 4x5\)"),
    ((5, 2, 3), (5, 4, 5), "Expected size for first two dimensions of batch2 tensor"),
    ((5, 2, 3), (4, 3, 5), "must match the size of tensor b"),
    ((5, 2, 3), (4, 5), r"\(10x3 and 4x5\)"),
    ((), (3,), "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
])
def test_matmul_shape_errors_match_torch(torch, sa, sb, match):
    check_error(lambda lib, a, b: lib.matmul(a, b), [arr(*sa), arr(*sb)], torch, match=match)


def test_matmul_refuses_mixed_dtypes_like_torch(torch):
    check_error(lambda lib, a, b: a @ b, [arr(2, 3, dtype=np.int64), arr(3, 2, dtype=np.float32)], torch,
                match="expected m1 and m2 to have the same dtype, but got: long int != float")
    check_error(lambda lib, a, b: a @ b, [arr(3, dtype=np.int64), arr(3, dtype=np.float32)], torch, match="dot")
    check_error(lambda lib, a, b: a @ b, [arr(2, 3) > 0, arr(3, 2) > 0], torch)


@pytest.mark.parametrize(("name", "shapes"), [
    ("mm", [(2, 3), (3, 4)]), ("bmm", [(5, 2, 3), (5, 3, 4)]), ("mv", [(2, 3), (3,)]),
    ("dot", [(3,), (3,)]), ("vdot", [(3,), (3,)]), ("inner", [(2, 3), (4, 3)]), ("inner", [(3,), (3,)]),
    ("inner", [(2, 5, 3), (4, 3)]), ("outer", [(3,), (4,)]), ("ger", [(3,), (4,)]),
    ("kron", [(2, 3), (3, 4)]), ("kron", [(2,), (3, 2)]), ("kron", [(2, 1, 3), (2, 2)]),
])
def test_products_match_torch_with_gradients(torch, name, shapes):
    check_grads(lambda lib, *xs: getattr(lib, name)(*xs), [arr(*s) for s in shapes], torch)
    check(lambda lib, *xs: getattr(lib, name)(*xs), [arr(*s, dtype=np.float32) for s in shapes], torch)


@pytest.mark.parametrize(("name", "shapes"), [
    ("addmm", [(2, 4), (2, 3), (3, 4)]), ("addmm", [(4,), (2, 3), (3, 4)]), ("addmv", [(2,), (2, 3), (3,)]),
    ("addbmm", [(2, 4), (5, 2, 3), (5, 3, 4)]), ("baddbmm", [(5, 2, 4), (5, 2, 3), (5, 3, 4)]),
    ("baddbmm", [(1, 4), (5, 2, 3), (5, 3, 4)]), ("addr", [(3, 4), (3,), (4,)]),
])
@pytest.mark.parametrize(("beta", "alpha"), [(1, 1), (0.5, 2.0), (0, 1)])
def test_fused_add_products_match_torch(torch, name, shapes, beta, alpha):
    fn = lambda lib, *xs: getattr(lib, name)(*xs, beta=beta, alpha=alpha)  # noqa: E731
    out, _ = check_grads(fn, [arr(*s) for s in shapes], torch)
    assert type(out.grad_fn).__name__ == name.capitalize() + "Backward0"


def test_addmm_with_zero_beta_ignores_nan_input(torch):
    check(lambda lib, i, a, b: lib.addmm(i, a, b, beta=0), [np.full((2, 2), np.nan), arr(2, 3), arr(3, 2)], torch)


@pytest.mark.parametrize(("fn", "shapes"), [
    (lambda lib, a, b: lib.mm(a, b), [(3,), (3, 2)]),
    (lambda lib, a, b: lib.bmm(a, b), [(2, 2, 3), (2, 4, 2)]),
    (lambda lib, a, b: lib.mv(a, b), [(2, 3), (2, 3)]),
    (lambda lib, a, b: lib.dot(a, b), [(2, 3), (2, 3)]),
    (lambda lib, a, b: lib.outer(a, b), [(3, 1), (2,)]),
    (lambda lib, a, b: lib.inner(a, b), [(2, 3), (2, 4)]),
    (lambda lib, a, b: lib.tensordot(a, b, dims=1), [(2, 3), (4, 5)]),
    (lambda lib, i, a, b: lib.addmm(i, a, b), [(3, 4), (2, 3), (3, 4)]),
])
def test_product_errors_match_torch(torch, fn, shapes):
    check_error(fn, [arr(*s) for s in shapes], torch)


@pytest.mark.parametrize(("dims", "sb"), [(2, (3, 4, 5)), (1, (4, 5)), (0, (2, 2)), (([1, 0], [0, 1]), (3, 2, 5)),
                                          (([2], [1]), (3, 4, 5)), (([-1], [0]), (4,))])
def test_tensordot_matches_torch(torch, dims, sb):
    check_grads(lambda lib, x, y: lib.tensordot(x, y, dims=dims), [arr(2, 3, 4), arr(*sb)], torch)


EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 4)]), ("i,i->", [(3,), (3,)]), ("i,j->ij", [(3,), (4,)]),
    ("ii->i", [(3, 3)]), ("ii", [(3, 3)]), ("iji->j", [(3, 2, 3)]), ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]), ("...ij,...jk->...ik", [(2, 2, 3), (1, 3, 4)]),
    ("...ij,jk", [(5, 2, 3), (3, 4)]), ("i...->...", [(2, 3, 4)]), ("...,...->...", [(2, 3), (3,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("ij,ij->ij", [(2, 3), (1, 3)]), ("bi,bj->bij", [(4, 2), (4, 3)]),
    ("iij,jk->ik", [(3, 3, 2), (2, 4)]), ("i,i,i->i", [(3,), (3,), (3,)]), (" ba , ca -> bc ", [(2, 3), (4, 3)]),
    ("Ab,bC->AC", [(2, 3), (3, 4)]), ("ij,k->ijk", [(2, 3), (4,)]), ("ijk,ilk->jl", [(2, 3, 4), (2, 5, 4)]),
]


@pytest.mark.parametrize(("equation", "shapes"), EINSUM_CASES)
def test_einsum_matches_torch_with_gradients(torch, equation, shapes):
    check_grads(lambda lib, *xs: lib.einsum(equation, *xs), [arr(*s) for s in shapes], torch)


def test_einsum_accepts_a_list_of_operands_sublists_and_ints(torch):
    check(lambda lib, a, b: lib.einsum("ij,jk->ik", [a, b]), [arr(2, 3), arr(3, 4)], torch)
    check(lambda lib, a, b: lib.einsum(a, [0, 1], b, [1, 2], [0, 2]), [arr(2, 3), arr(3, 4)], torch)
    check(lambda lib, a, b: lib.einsum(a, [Ellipsis, 1], b, [1]), [arr(2, 3), arr(3)], torch)
    check(lambda lib, a, b: lib.einsum("ij,jk->ik", a, b), [arr(2, 3, dtype=np.int64), arr(3, 4, dtype=np.int64)],
          torch)


def test_einsum_double_backward_matches_torch(torch):
    grads, x, y = [], arr(2, 3), arr(3, 4)
    for lib in (core, torch):
        a = lib.tensor(x, requires_grad=True)
        b = lib.tensor(y, requires_grad=True)
        (ga,) = lib.autograd.grad(lib.einsum("ij,jk->", a, b * b), a, create_graph=True)
        (gb,) = lib.autograd.grad((ga * ga).sum(), b)
        grads.append(gb)
    np.testing.assert_allclose(grads[0].detach().numpy(), grads[1].detach().numpy(), rtol=1e-10)


@pytest.mark.parametrize(("equation", "shapes", "match"), [
    ("i,i->", [(3,), (4,)], "subscript i has size 4 for operand 1"),
    ("ii->ii", [(3, 3)], "output subscript i appears more than once"),
    ("ij->k", [(3, 3)], "output subscript k does not appear"),
    ("ij,jk", [(3, 3)], "fewer operands"),
    ("ij", [(3,)], r"number of subscripts in the equation \(2\) does not match the number of dimensions \(1\)"),
    ("ii->i", [(3, 4)], "repeated"),
    ("i1->i", [(3, 4)], "invalid subscript"),
])
def test_einsum_errors_match_torch(torch, equation, shapes, match):
    check_error(lambda lib, *xs: lib.einsum(equation, *xs), [arr(*s) for s in shapes], torch, match=match)


def test_einsum_refuses_mixed_dtypes(torch):
    check_error(lambda lib, a, b: lib.einsum("i,i->", a, b), [arr(3, dtype=np.float32), arr(3, dtype=np.int64)],
                torch, match="expected scalar type Float but found Long")


# ----- cross, det, inverse, solve, matrix_power ---------------------------------------------------

def test_cross_matches_torch_with_gradients_and_broadcasting(torch):
    check_grads(lambda lib, a, b: lib.linalg.cross(a, b), [arr(4, 3), arr(4, 3)], torch)
    check_grads(lambda lib, a, b: lib.linalg.cross(a, b), [arr(4, 3), arr(1, 3)], torch)
    check_grads(lambda lib, a, b: lib.cross(a, b, dim=0), [arr(3, 4), arr(3, 4)], torch)
    check_error(lambda lib, a, b: lib.linalg.cross(a, b), [arr(4, 4), arr(4, 4)], torch, match="must have length 3")


def _well_conditioned(*shape):
    n = shape[-1]
    return arr(*shape) + 3 * np.eye(n)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 1)])
def test_det_inverse_and_friends_match_torch_with_gradients(torch, shape):
    m = _well_conditioned(*shape)
    check_grads(lambda lib, a: lib.det(a), [m], torch)
    check_grads(lambda lib, a: lib.linalg.det(a), [m], torch)
    check_grads(lambda lib, a: lib.inverse(a), [m], torch)
    check_grads(lambda lib, a: lib.linalg.inv(a), [m], torch)
    assert type(core.linalg.inv(core.tensor(m, requires_grad=True)).grad_fn).__name__ == "LinalgInvExBackward0"


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, -1, -2])
def test_matrix_power_matches_torch(torch, n):
    check_grads(lambda lib, a: lib.matrix_power(a, n), [_well_conditioned(2, 3, 3)], torch)
    if n >= 0:
        check(lambda lib, a: lib.linalg.matrix_power(a, n), [arr(3, 3, dtype=np.int64)], torch)


@pytest.mark.parametrize(("sa", "sb"), [((3, 3), (3,)), ((3, 3), (3, 2)), ((2, 3, 3), (2, 3)), ((2, 3, 3), (3, 1)),
                                        ((2, 3, 3), (2, 3, 4))])
def test_solve_matches_torch_with_gradients(torch, sa, sb):
    out, _ = check_grads(lambda lib, a, b: lib.linalg.solve(a, b), [_well_conditioned(*sa), arr(*sb)], torch)
    assert type(out.grad_fn).__name__ == "LinalgSolveExBackward0"


@pytest.mark.parametrize(("fn", "arrays", "match"), [
    (lambda lib, a: lib.det(a), [arr(3, 3, dtype=np.int64)], "Expected a floating point"),
    (lambda lib, a: lib.det(a), [arr(2, 3)], "square matrices, but they are 2 by 3"),
    (lambda lib, a: lib.inverse(a), [np.zeros((3, 3))], "singular"),
    (lambda lib, a, b: lib.linalg.solve(a, b), [np.zeros((3, 3)), arr(3)], "singular"),
    (lambda lib, a, b: lib.linalg.solve(a, b), [arr(3, 3), arr(4)], "Incompatible shapes"),
    (lambda lib, a: lib.matrix_power(a, 2), [arr(2, 3)], "square"),
    (lambda lib, a: lib.linalg.vector_norm(a), [arr(3, dtype=np.int64)], "Expected a floating point"),
])
def test_matrix_function_errors_match_torch(torch, fn, arrays, match):
    check_error(fn, arrays, torch, match=match)


def test_singular_matrices_raise_linalg_error():
    with pytest.raises(core.linalg.LinAlgError):
        core.linalg.inv(core.zeros(2, 2))
    assert issubclass(core.linalg.LinAlgError, RuntimeError)


# ----- norms --------------------------------------------------------------------------------------

@pytest.mark.parametrize("ord", [2, 1, 3, 0.5, math.inf, -math.inf, 0])
@pytest.mark.parametrize(("dim", "keepdim"), [(None, False), (1, False), ((0, 2), True), (-1, True)])
def test_vector_norm_matches_torch_with_gradients(torch, ord, dim, keepdim):
    x = arr(2, 3, 4)
    x[0, 0, 0] = x[0, 0, 1]  # a tie for the inf norms
    fn = lambda lib, a: lib.linalg.vector_norm(a, ord, dim, keepdim)  # noqa: E731
    check(fn, [x.astype(np.float32)], torch)
    check_grads(fn, [x], torch)


def test_norm_of_a_zero_vector_has_zero_gradient(torch):
    check_grads(lambda lib, a: lib.linalg.vector_norm(a), [np.zeros(3)], torch)


def test_vector_norm_with_dtype_matches_torch(torch):
    check(lambda lib, a: lib.linalg.vector_norm(a, dtype=lib.float64), [arr(5, dtype=np.float32)], torch)


@pytest.mark.parametrize(("ord", "dim"), [("fro", (-2, -1)), ("fro", (0, 2)), (1, (-2, -1)), (-1, (-2, -1)),
                                          (math.inf, (-2, -1)), (-math.inf, (1, 2))])
def test_matrix_norm_matches_torch(torch, ord, dim):
    check_grads(lambda lib, a: lib.linalg.matrix_norm(a, ord, dim), [arr(2, 3, 4)], torch)


@pytest.mark.parametrize(("args", "shape"), [((), (2, 3)), ((), (2, 3, 4)), ((2,), (5,)), (("fro",), (2, 3)),
                                             ((None, 1), (2, 3)), ((1, 0), (2, 3)), ((None, (0, 1)), (2, 3, 4))])
def test_linalg_norm_picks_vector_or_matrix_norm_like_torch(torch, args, shape):
    check_grads(lambda lib, a: lib.linalg.norm(a, *args), [arr(*shape)], torch)


def test_linalg_namespace_matmul_vecdot_multi_dot(torch):
    check_grads(lambda lib, a, b: lib.linalg.matmul(a, b), [arr(2, 2, 3), arr(3, 2)], torch)
    check_grads(lambda lib, a, b: lib.linalg.vecdot(a, b), [arr(2, 3), arr(2, 3)], torch)
    check_grads(lambda lib, a, b, c: lib.linalg.multi_dot([a, b, c]), [arr(2, 3), arr(3, 4), arr(4, 2)], torch)


# ----- gradcheck / gradgradcheck (finite differences, float64) -------------------------------------

def _leaf(*shape):
    return core.tensor(arr(*shape), requires_grad=True)


@pytest.mark.parametrize(("sa", "sb"), [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 2)),
                                        ((2, 2, 3), (3, 2)), ((2, 3), (2, 3, 2)), ((2, 1, 2, 3), (2, 3, 2))])
def test_matmul_passes_gradcheck_and_gradgradcheck(sa, sb):
    a, b = _leaf(*sa), _leaf(*sb)
    assert core.autograd.gradcheck(core.matmul, (a, b))
    assert core.autograd.gradgradcheck(core.matmul, (a, b))


@pytest.mark.parametrize(("equation", "shapes"), [("ij,jk->ik", [(2, 3), (3, 2)]), ("ii->i", [(3, 3)]),
                                                  ("bij,bjk", [(2, 2, 3), (2, 3, 2)]), ("i,j->", [(2,), (3,)]),
                                                  ("...i,i->...", [(2, 3), (3,)])])
def test_einsum_passes_gradcheck_and_gradgradcheck(equation, shapes):
    leaves = tuple(_leaf(*s) for s in shapes)
    fn = lambda *xs: core.einsum(equation, *xs)  # noqa: E731
    assert core.autograd.gradcheck(fn, leaves)
    assert core.autograd.gradgradcheck(fn, leaves)


@pytest.mark.parametrize("fn", [core.det, core.inverse, lambda a: core.linalg.solve(a, a[0]),
                                lambda a: core.linalg.vector_norm(a), lambda a: core.linalg.vector_norm(a, 3),
                                lambda a: core.matrix_power(a, 3),
                                lambda a: core.addmm(a, a, a, beta=0.5, alpha=2.0)])
def test_matrix_functions_pass_gradcheck_and_gradgradcheck(fn):
    a = core.tensor(_well_conditioned(3, 3), requires_grad=True)
    assert core.autograd.gradcheck(fn, (a,))
    assert core.autograd.gradgradcheck(fn, (a,))


@pytest.mark.parametrize("name", ["matmul", "mm"])
def test_products_write_into_out(torch, name):
    out = check(lambda lib, a, b: getattr(lib, name)(a, b, out=lib.empty(2, 2, dtype=lib.float64)),
                [arr(2, 3), arr(3, 2)], torch)
    assert out.shape == (2, 2)


@pytest.mark.parametrize(("equation", "shapes"), [("ij,jk->ik", [(0, 3), (3, 2)]), ("ij,ij->ij", [(0, 3), (1, 3)]),
                                                  ("ij->", [(0, 3)])])
def test_einsum_with_empty_operands_matches_torch(torch, equation, shapes):
    check(lambda lib, *xs: lib.einsum(equation, *xs), [arr(*s) for s in shapes], torch)


@pytest.mark.parametrize(("sa", "sb"), [((0, 2, 3), (3, 2)), ((0, 2, 3), (1, 3, 2)), ((2, 3, 0), (0, 2))])
@pytest.mark.parametrize("dtype", [np.int32, np.float16])
def test_matmul_of_empty_and_narrow_dtypes_matches_torch(torch, sa, sb, dtype):
    check(lambda lib, a, b: lib.matmul(a, b), [arr(*sa, dtype=dtype), arr(*sb, dtype=dtype)], torch)


@pytest.mark.parametrize(("name", "shapes"), [
    ("addmm_", [(2, 4), (2, 3), (3, 4)]), ("addmv_", [(2,), (2, 3), (3,)]), ("addbmm_", [(2, 4), (5, 2, 3), (5, 3, 4)]),
    ("baddbmm_", [(5, 2, 4), (5, 2, 3), (5, 3, 4)]), ("addr_", [(3, 4), (3,), (4,)]),
])
def test_in_place_fused_products_match_torch(torch, name, shapes):
    def fn(lib, x, m1, m2):
        y = x * 1  # a non-leaf, so the in-place op is recorded
        out = getattr(y, name)(m1, m2, beta=0.5, alpha=2.0)
        assert out is y and type(y.grad_fn).__name__ == name[:-1].capitalize() + "Backward0"
        return y
    check_grads(fn, [arr(*s) for s in shapes], torch)


def test_in_place_fused_product_refuses_a_leaf_requiring_grad(torch):
    check_error(lambda lib, x, a, b: x.requires_grad_().addmm_(a, b), [arr(2, 2), arr(2, 3), arr(3, 2)], torch)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
def test_slogdet_and_logdet_match_torch(torch, shape):
    m = _well_conditioned(*shape)
    check_grads(lambda lib, a: lib.linalg.slogdet(a).logabsdet, [m], torch)
    check(lambda lib, a: tuple(lib.slogdet(a)), [m], torch)
    check_grads(lambda lib, a: lib.logdet(a @ a.mT), [m], torch)
    check(lambda lib, a: lib.logdet(a), [-np.eye(3)], torch)


@pytest.mark.parametrize("matrix", [[[1.0, 2.0], [2.0, 4.0]], [[[1.0, 2.0], [2.0, 4.0]], [[2.0, 1.0], [1.0, 3.0]]],
                                    [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 0.0, 0.0]]])
def test_det_of_singular_matrices_has_torchs_gradient(torch, matrix):
    check_grads(lambda lib, a: lib.det(a), [np.array(matrix)], torch)


@pytest.mark.parametrize(("sa", "sb", "match"), [
    ((2, 3), (3,), "addmv input tensors must have the same dtype, but got Float, Long, and Float"),
    ((5, 2, 3), (3,), "addmv input tensors must have the same dtype"),
    ((5, 2, 3), (5, 3, 2), "expected scalar type Long but found Float"),
    ((2, 3), (5, 3, 2), "expected scalar type Long but found Float"),
    ((5, 2, 3), (3, 2), "expected m1 and m2 to have the same dtype, but got: long int != float"),
])
def test_matmul_dtype_errors_name_the_kernel_like_torch(torch, sa, sb, match):
    check_error(lambda lib, a, b: a @ b, [arr(*sa, dtype=np.int64), arr(*sb, dtype=np.float32)], torch, match=match)


@pytest.mark.parametrize(("fn", "arrays", "match"), [
    (lambda lib, a, b, c: lib.addmm(a, b, c), [arr(2, 4), arr(3), arr(3, 4)], "mat1 must be a matrix"),
    (lambda lib, a, b, c: lib.addmv(a, b, c), [arr(3), arr(2, 3), arr(3)], r"size mismatch, got input \(3\)"),
    (lambda lib, a, b, c: lib.addbmm(a, b, c), [arr(2, 4), arr(5, 2, 3), arr(4, 3, 4)], "same number of batches"),
    (lambda lib, a: lib.einsum("...i...", a), [arr(3, 3)], "ellipsis was already found"),
    (lambda lib, a: lib.einsum("i->>i", a), [arr(3)], "invalid subscript given at index 3"),
    (lambda lib: lib.einsum("i"), [], "at least one operand"),
])
def test_more_product_errors_match_torch(torch, fn, arrays, match):
    check_error(fn, arrays, torch, match=match)


def test_half_precision_norms_accumulate_without_overflow(torch):
    x = (arr(1000) * 100).astype(np.float16)
    check(lambda lib, a: lib.linalg.vector_norm(a), [x], torch, rtol=1e-3)
    check(lambda lib, a: lib.linalg.vector_norm(a, math.inf), [x], torch)
    check(lambda lib, a: lib.linalg.vector_norm(a), [np.array([np.inf, 1.0])], torch)
