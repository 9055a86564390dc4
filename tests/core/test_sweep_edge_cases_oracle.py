"""What the OpInfo sweep (``test_opinfo_sweep.py``) found core getting wrong, one focused oracle test each: argument
forms (0-d inputs, defaults passed explicitly, empty indices and batches), torch's own numerics (float32 trigamma,
its J0/Y1 approximations, matrix_exp's Taylor scheme, the orthogonal polynomials' fused steps, half-precision i0e),
gradients (as_strided_scatter, wide and tall LU, index_fill, prod reductions through zeros, segment_reduce's ties),
the private ops it reaches (``_softmax_backward_data``, ``_safe_softmax``, ``_chunk_cat``, pool backwards...), and
the in-place/``out=`` forms of the elementwise ops."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_error, check_grads, run_both


@pytest.mark.parametrize(("shape", "index"), [((), 0), ((5,), 2), ((5,), -1)])
def test_take_with_a_zero_dim_index_gives_a_zero_dim_result(torch, shape, index):
    x = np.arange(float(np.prod(shape))).reshape(shape)
    check(lambda lib, t: lib.take(t, lib.tensor(index)), [x], torch)
    check_grads(lambda lib, t: lib.take(t, lib.tensor(index)), [x], torch)


@pytest.mark.parametrize("x", [np.array(2.0), np.array([2.0, 3.0]), np.array([2, 3])])
@pytest.mark.parametrize("n", [None, 2, 3])
def test_linalg_vander_takes_a_zero_dim_x_and_integer_inputs(torch, x, n):
    if n is None and x.size == 1:
        check_error(lambda lib, t: lib.linalg.vander(t), [x], torch)  # (N = 1: "N must be greater than 1.")
    else:
        check(lambda lib, t: lib.linalg.vander(t, N=n), [x], torch)


def test_linalg_vander_refuses_n_of_one_and_bools(torch):
    check_error(lambda lib, t: lib.linalg.vander(t, N=1), [np.array([2.0, 3.0])], torch)
    check_error(lambda lib, t: lib.linalg.vander(t), [np.array([True, False])], torch)


@pytest.mark.parametrize("x", [np.array(True), np.array([True, False]), np.array(2.5), np.array([1, 2])])
def test_sum_to_an_empty_size_is_a_full_sum(torch, x):
    check(lambda lib, t: t.sum_to_size(()), [x], torch)


def test_gradient_takes_its_defaults_passed_explicitly(torch):
    x = np.array([1.0, 4.0, 9.0, 16.0, 25.0])
    check(lambda lib, t: lib.gradient(t, dim=None, spacing=None, edge_order=1), [x], torch)


@pytest.mark.parametrize("value", [2, 2.5, True])
def test_fill_is_differentiable_with_a_zero_gradient(torch, value):
    check_grads(lambda lib, t: lib.fill(t, value) * t, [np.array([1.0, -2.0, 3.0])], torch)


def test_fill_with_a_tensor_value_sends_it_the_gradients_sum(torch):
    check_grads(lambda lib, t, v: lib.fill(t, v) * 2, [np.array([1.0, -2.0, 3.0]), np.array(0.5)], torch)
    check_error(lambda lib, t: lib.fill(t, lib.ones(2)), [np.array([1.0, 2.0])], torch)


@pytest.mark.parametrize(("sa", "sb", "dims"), [((1, 1, 1), (2, 1, 2), ((0, 1), (2, 0))), ((3, 1), (1, 4), ([1], [0])),
                                                ((3, 4), (1, 5), ([1], [0]))])
def test_tensordot_contracts_a_size_one_dim_with_any_size(torch, sa, sb, dims):
    rng = np.random.default_rng(1)
    check_grads(lambda lib, a, b: lib.tensordot(a, b, dims=dims), [rng.standard_normal(sa), rng.standard_normal(sb)],
                torch)


@pytest.mark.parametrize("beta", [True, False])
@pytest.mark.parametrize("alpha", [True, False])
@pytest.mark.parametrize("self_shape", [(2, 3), (), (1, 3)])
def test_addr_of_bools_is_a_logical_outer_product(torch, beta, alpha, self_shape):
    target = np.resize(np.array([True, False, False]), self_shape)
    check(lambda lib, t, u, v: lib.addr(t, u, v, beta=beta, alpha=alpha),
          [target, np.array([True, False]), np.array([False, True, True])], torch)


@pytest.mark.parametrize("kwargs", [dict(kernel_size=2, stride=1, padding=1, ceil_mode=True),
                                    dict(kernel_size=2, padding=1, count_include_pad=False),
                                    dict(kernel_size=2, divisor_override=3)])
def test_avg_pool3d_of_integers_divides_as_integers(torch, kwargs):
    x = np.arange(-30, 51).reshape(1, 1, 3, 3, 9)
    check(lambda lib, t: lib.nn.functional.avg_pool3d(t, **kwargs), [x], torch)


def test_unfold_takes_a_batch_of_zero(torch):
    check(lambda lib, t: lib.nn.functional.unfold(t, 2, 1, 0, 1), [np.zeros((0, 1, 5, 5))], torch)


@pytest.mark.filterwarnings("ignore:index_reduce\\(\\) is in beta")  # torch's note
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce_into_a_zero_dim_tensor(torch, reduce, include_self):
    check(lambda lib, t: t.index_reduce(0, lib.tensor([0]), lib.full_like(t, 5.0), reduce, include_self=include_self),
          [np.array(2.0)], torch)


def test_fold_and_unfold_backpropagate_a_batch_of_zero(torch):
    check_grads(lambda lib, t: lib.nn.functional.unfold(t, 2, 1, 0, 1), [np.zeros((0, 1, 5, 5))], torch)
    check_grads(lambda lib, t: lib.nn.functional.fold(t, (3, 3), 2), [np.zeros((0, 4, 4))], torch)


@pytest.mark.parametrize("reduce", ["amax", "amin", "prod"])
def test_scatter_reduce_into_a_zero_dim_tensor_backpropagates(torch, reduce):
    check_grads(lambda lib, t, s: t.scatter_reduce(0, lib.tensor(0), s, reduce), [np.array(7.0), np.array(-5.0)],
                torch)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_polygamma_at_its_poles_is_signed_infinity(torch, n):
    check(lambda lib, t: lib.polygamma(n, t), [np.array([0.0, -1.0, -2.0, -3.5, 2.0])], torch, rtol=1e-12)
    check(lambda lib, t: lib.polygamma(n, t), [np.array([True, False])], torch)


@pytest.mark.parametrize("fn", [lambda lib, x: lib.linalg.inv(x), lambda lib, x: lib.linalg.eigh(x)[0],
                                lambda lib, x: lib.linalg.eigvalsh(x), lambda lib, x: lib.linalg.pinv(x),
                                lambda lib, x: lib.pinverse(x), lambda lib, x: lib.bmm(x, x.mT)])
@pytest.mark.parametrize("shape", [(0, 0, 0), (2, 0, 0)])
def test_linear_algebra_of_empty_matrices_backpropagates(torch, fn, shape):
    check_grads(fn, [np.zeros(shape)], torch)


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (0, 2, 2)])
def test_ldl_factor_of_empty_matrices(torch, shape):
    check(lambda lib, a: lib.linalg.ldl_factor_ex(a), [np.zeros(shape)], torch)


@pytest.mark.parametrize("index", [[[-1, 0], [-3, 2]], [[-4, 0], [3, 1]]])
def test_take_along_dim_wraps_its_indices_modulo_the_size(torch, index):
    check_grads(lambda lib, t: lib.take_along_dim(t, lib.tensor(index), 1), [np.arange(6.0).reshape(2, 3)], torch)


@pytest.mark.parametrize("accumulate", [True, False])
def test_put_into_a_zero_dim_tensor(torch, accumulate):
    check(lambda lib, t: lib.put(t, lib.tensor([0, 0]), lib.tensor([1.0, 5.0]), accumulate=accumulate),
          [np.array(2.0, dtype=np.float32)], torch)
    check(lambda lib, t: lib.put(t, lib.tensor(0), lib.tensor(3.0), accumulate=accumulate),
          [np.array(2.0, dtype=np.float32)], torch)


def test_prelu_of_a_zero_dim_input_stays_zero_dim(torch):
    check_grads(lambda lib, x, w: lib.nn.functional.prelu(x, w), [np.array(-2.0), np.array([0.25])], torch)


@pytest.mark.parametrize("pad", [(-1, 1, -2, 1), (1, -1, 2, -2), (2, 1, 1, 2), (-2, -1, 0, 0), (0, 0, -1, 3)])
def test_circular_padding_with_negative_pads_crops_then_wraps(torch, pad):
    x = np.arange(48.0).reshape(1, 3, 4, 4)
    check_grads(lambda lib, t: lib.nn.functional.pad(t, pad, mode="circular"), [x], torch)


@pytest.mark.parametrize(("shape", "pad"), [((0, 3, 3), (1, 1, 1, 1, 1, 1)), ((2, 0), (1, 1)), ((0, 2), (1, 2))])
def test_constant_padding_of_an_empty_dim_fills_it(torch, shape, pad):
    check_grads(lambda lib, t: lib.nn.functional.pad(t, pad, value=1.5), [np.zeros(shape)], torch)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_group_norm_takes_a_batch_of_zero(torch, dtype):
    check_grads(lambda lib, x, w, b: lib.nn.functional.group_norm(x, 1, w, b),
                [np.zeros((0, 2, 3), dtype=dtype), np.ones(2, dtype=dtype), np.zeros(2, dtype=dtype)], torch)


@pytest.mark.parametrize(("values", "kwargs"), [([3.0, 3.0], {}), ([3.0, 4.0], {"range": (1.0, 1.0)}), ([], {}),
                                                (1.0, {}), ([1.0, 2.0, 5.0], {"range": (0.5, 4.5), "density": True})])
def test_histogram_widens_an_empty_range_by_a_half(torch, values, kwargs):
    check(lambda lib, t: tuple(lib.histogram(t, 2, **kwargs)), [np.array(values, dtype=np.float32)], torch)


@pytest.mark.parametrize(("values", "kwargs"), [([1.0, 2.0], {"range": (3.0, 1.0)}), ([1.0, np.inf], {})])
def test_histogram_refuses_a_reversed_or_infinite_range(torch, values, kwargs):
    check_error(lambda lib, t: lib.histogram(t, 2, **kwargs), [np.array(values, dtype=np.float32)], torch)


@pytest.mark.parametrize("range_", [None, [0.0, 4.0, 1.0, 1.0]])
def test_histogramdd_widens_an_empty_range_by_a_half(torch, range_):
    points = np.array([[3.0, 3.0], [3.0, 3.0]], dtype=np.float32)
    check(lambda lib, t: (lib.histogramdd(t, [2, 3], range=range_).hist,
                          *lib.histogramdd(t, [2, 3], range=range_).bin_edges), [points], torch)


@pytest.mark.parametrize("op", [lambda lib, x, i: lib.gather(x, 0, i), lambda lib, x, i: x.scatter(0, i, 1.0),
                                lambda lib, x, i: x.scatter_add(0, i, x[:0]),
                                lambda lib, x, i: x.scatter_reduce(0, i, x[:0], "sum")])
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_an_empty_index_of_any_dtype_is_taken(torch, op, dtype):
    check(lambda lib, x: op(lib, x, lib.zeros(0, dtype=getattr(lib, dtype))), [np.arange(5.0)], torch)
    check_error(lambda lib, x: op(lib, x, lib.zeros(1, dtype=getattr(lib, dtype))), [np.arange(5.0)], torch)


@pytest.mark.parametrize("accumulate", [True, False])
def test_put_of_bools_and_ints_into_a_zero_dim_tensor_and_at_a_zero_dim_index(torch, accumulate):
    check(lambda lib, t: lib.put(t, lib.tensor([0, 0]), lib.tensor([True, False]), accumulate=accumulate),
          [np.array(False)], torch)
    check(lambda lib, t: lib.put(t, lib.tensor([0, 0]), lib.tensor([1, 4], dtype=lib.int32), accumulate=accumulate),
          [np.array(3, dtype=np.int32)], torch)
    check_grads(lambda lib, t, s: lib.put(t, lib.tensor(1), s, accumulate=accumulate),
                [np.array([1.0, 2.0]), np.array(5.0)], torch)


@pytest.mark.parametrize("fn", [lambda lib, x: lib.nn.functional.avg_pool3d(x, (2, 3, 1), stride=(2, 1, 2)),
                                lambda lib, x: lib.nn.functional.max_pool3d(x, 2),
                                lambda lib, x: lib.nn.functional.local_response_norm(x[:, :, 0, 0], 1)])
def test_pooling_and_local_response_norm_take_a_batch_of_zero(torch, fn):
    check(fn, [np.zeros((0, 1, 4, 5, 4))], torch)


@pytest.mark.parametrize("shape", [(1, 0, 4, 5, 4), (0, 4, 5, 4), (2, 3, 0, 5, 4)])
def test_pool3d_refuses_other_empty_dims(torch, shape):
    check_error(lambda lib, x: lib.nn.functional.avg_pool3d(x, 2), [np.zeros(shape)], torch)


def test_solvers_take_a_zero_by_zero_system(torch):
    check(lambda lib, a, b: tuple(lib.linalg.solve_ex(a, b)), [np.zeros((0, 0)), np.zeros(0)], torch)
    check(lambda lib, a, b: lib.linalg.ldl_solve(a, lib.zeros(0, dtype=lib.int32), b),
          [np.zeros((0, 0)), np.zeros((0, 5))], torch)


@pytest.mark.parametrize("ord", [0.5, -1, -0.5, 1.2, 1.5, 2.5, 3])
@pytest.mark.parametrize("x", [[0.0] * 5, [0.0, 1.0, -2.0, 0.0, 3.0]])
def test_vector_norm_below_order_two_has_torch_subgradients_at_zero(torch, ord, x):
    check_grads(lambda lib, t: lib.linalg.norm(t, ord), [np.array(x)], torch, rtol=1e-12)
    check_grads(lambda lib, t: lib.linalg.vector_norm(t, ord), [np.array(x)], torch, rtol=1e-12)


@pytest.mark.parametrize("name", ["igamma", "igammac"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_regularized_gamma_takes_torch_boundary_values(torch, name, dtype):
    a = np.array([0.0, 0.0, 0.0, 1.0, -1.0, 1.0, np.inf, np.inf, 2.0, 2.0, 0.5, np.nan, 1.0], dtype=dtype)
    x = np.array([-1.0, 0.0, 1.0, -6.0, 1.0, 0.0, 1.0, np.inf, np.inf, 1.5, 0.2, 1.0, np.nan], dtype=dtype)
    check(lambda lib, s, t: getattr(lib, name)(s, t), [a, x], torch)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.hstack([]), lambda lib, x: lib.vstack([]), lambda lib, x: lib.dstack([]),
    lambda lib, x: lib.nn.functional.conv2d(x.reshape(1, 1, 2, 3), x.reshape(1, 1, 2, 3)[..., :2], dilation=0),
    lambda lib, x: lib.nn.functional.conv1d(x.reshape(1, 2, 3), x.reshape(1, 2, 3), dilation=-1),
    lambda lib, x: lib.nn.functional.embedding(lib.tensor([0]), x),
    lambda lib, x: lib.nn.functional.group_norm(x, 1),
    lambda lib, x: lib.nn.functional.triplet_margin_loss(x, x, x, margin=-1.0),
    lambda lib, x: lib.nn.functional.triplet_margin_loss(x, x, x, margin=0),
])
def test_argument_checks_raise_torchs_error_types(torch, call):
    check_error(call, [np.arange(6.0)], torch)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.nn.functional.max_pool1d(x.reshape(1, 1, 6), 2, padding=-1),
    lambda lib, x: lib.nn.functional.avg_pool1d(x.reshape(1, 1, 6), 2, padding=-1),
    lambda lib, x: lib.nn.functional.max_pool2d(x.reshape(1, 1, 2, 3), 2, padding=-1),
    lambda lib, x: lib.nn.functional.avg_pool2d(x.reshape(1, 1, 2, 3), 2, padding=-1),
    lambda lib, x: lib.nn.functional.avg_pool3d(x.reshape(1, 1, 1, 2, 3), 1, padding=-1),
    lambda lib, x: lib.nn.functional.prelu(x.reshape(1, 6, 1), lib.ones(6, 1)),
    lambda lib, x: lib.gradient(x.reshape(2, 3), dim=(1, 1)),
    lambda lib, x: lib.gradient(x.reshape(2, 3), dim=3),
])
def test_pool_prelu_and_gradient_argument_checks_raise_torchs_error_types(torch, call):
    check_error(call, [np.arange(6.0)], torch)


@pytest.mark.parametrize("name", ["chebyshev_polynomial_t", "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
                                  "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p"])
def test_orthogonal_polynomials_need_a_tensor_argument(torch, name):
    check_error(lambda lib: getattr(lib.special, name)(2, 3), [], torch)
    check(lambda lib, x: getattr(lib.special, name)(x, 3), [np.array([0.5, -1.0, 2.0])], torch, rtol=1e-12)
    check(lambda lib, n: getattr(lib.special, name)(0.5, n), [np.array([0, 1, 4])], torch, rtol=1e-12)


@pytest.mark.parametrize("name", ["zeta", "xlog1py"])
def test_binary_special_functions_need_a_tensor_argument(torch, name):
    check_error(lambda lib: getattr(lib.special, name)(2, 3), [], torch)
    check(lambda lib, x: getattr(lib.special, name)(x, 3), [np.array([2.0, 3.5])], torch, rtol=1e-12)
    check(lambda lib, q: getattr(lib.special, name)(2, q), [np.array([2.0, 3.5])], torch, rtol=1e-12)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x.reshape(1, 2, 3), (1, -1)),
    lambda lib, x: lib.nn.functional.adaptive_max_pool2d(x.reshape(1, 2, 3), (-2, 1)),
    lambda lib, x: lib.nn.functional.adaptive_avg_pool1d(x.reshape(2, 3), -1),
    lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x.reshape(2, 3), (2, 2)),
    lambda lib, x: lib.nn.functional.adaptive_max_pool2d(x.reshape(2, 3), (2, 2)),
])
def test_adaptive_pools_refuse_negative_sizes_and_too_few_dims(torch, call):
    check_error(call, [np.arange(6.0)], torch)


def test_adaptive_avg_pool2d_of_a_2d_input_says_torchs_words(torch):
    check_error(lambda lib, t: lib.nn.functional.adaptive_avg_pool2d(t, 2), [np.ones((3, 4), np.float32)], torch,
                match=r"adaptive_avg_pool2d\(\): Expected 3D or 4D tensor, but got \[3, 4\]")


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0, 4)])
def test_batch_norm_of_an_empty_input_is_a_copy_of_it(torch, shape, training):
    stats = shape[1] if len(shape) > 1 else 0
    fn = lambda lib, x: lib.nn.functional.batch_norm(  # noqa: E731
        x, lib.zeros(stats, dtype=lib.float64), lib.ones(stats, dtype=lib.float64), training=training)
    check(fn, [np.zeros(shape)], torch)
    check_grads(fn, [np.zeros(shape)], torch)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_of_a_nonempty_vector_raises_torchs_errors(torch, training):
    bn = lambda lib, x, rm: lib.nn.functional.batch_norm(x, rm, rm, training=training)  # noqa: E731
    check_error(lambda lib, x: bn(lib, x, lib.zeros(0, dtype=lib.float64)), [np.ones(3)], torch)
    check_error(lambda lib, x: bn(lib, x, lib.zeros(3, dtype=lib.float64)), [np.ones(3)], torch)
    check_error(lambda lib, x: bn(lib, x, None), [np.ones(3)], torch)
    check_error(lambda lib, x: bn(lib, x, None), [np.ones(1)], torch)


@pytest.mark.parametrize(("x", "target"), [(np.array(0.3), np.array(0)), (np.array(0.3), np.array(-1)),
                                           (np.array(0.3), np.array([0])), (np.array([0.3]), np.array(0))])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_multilabel_margin_loss_takes_a_zero_dim_sample(torch, x, target, reduction):
    fn = lambda lib, t, y: lib.nn.functional.multilabel_margin_loss(t, y, reduction=reduction)  # noqa: E731
    check(fn, [x, target], torch)
    check_error(lambda lib, t: lib.nn.functional.multilabel_margin_loss(t, lib.tensor(1)), [x], torch)


def _grad_flags(results):
    return [t.requires_grad for t in results]


@pytest.mark.parametrize("driver", ["gelsy", "gelsd", "gels", "gelss"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 3), (2, 5, 3)])
def test_lstsq_residuals_require_grad_even_empty_and_are_real(torch, driver, shape):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(shape), rng.standard_normal((*shape[:-1], 2))
    fn = lambda lib, A, B: tuple(lib.linalg.lstsq(A, B, driver=driver))  # noqa: E731
    ours, theirs, _, _ = run_both(fn, [a, b], torch, requires_grad=True)
    assert_same(ours, theirs, rtol=1e-6)
    assert _grad_flags(ours) == _grad_flags(theirs)
    assert [type(t.grad_fn).__name__ for t in ours] == [type(t.grad_fn).__name__ for t in theirs]
    check(fn, [a + 1j * rng.standard_normal(shape), b + 0j], torch, rtol=1e-6)  # (real residuals, values)


def test_lstsq_empty_residuals_give_no_gradient(torch):
    rng = np.random.default_rng(1)
    for lib in (core, torch):
        A, B = (lib.tensor(rng.standard_normal((5, 3)), requires_grad=True) for _ in range(2))
        assert lib.autograd.grad(lib.linalg.lstsq(A, B[:, :2]).residuals.sum(), A, allow_unused=True) == (None,)


@pytest.mark.parametrize("affine", [False, True])
def test_native_group_norm_statistics_require_grad_and_carry_gradients(torch, affine):
    x, w = np.random.default_rng(2).standard_normal((2, 4, 3)), np.linspace(0.5, 2.0, 4)
    fn = lambda lib, t, g: lib.native_group_norm(t, g if affine else None, None, 2, 4, 3, 2, 0.5)  # noqa: E731
    ours, theirs, _, _ = run_both(fn, [x, w], torch, requires_grad=True)
    assert_same(ours, theirs)
    assert _grad_flags(ours) == _grad_flags(theirs) == [True, True, True]
    assert [type(t.grad_fn).__name__ for t in ours] == [type(t.grad_fn).__name__ for t in theirs]
    check_grads(lambda lib, t, g: lib.cat([r.flatten() for r in fn(lib, t, g)]), [x, w], torch)


@pytest.mark.parametrize("weights", [
    dict(aweights=np.ones((5, 5))), dict(fweights=np.ones(1, np.int64)), dict(aweights=np.ones(1)),
    dict(fweights=-np.ones(5, np.int64)), dict(aweights=-np.ones(5)), dict(fweights=np.ones(5, bool)),
    dict(aweights=np.ones(5, np.int64)), dict(aweights=np.zeros(5)),
])
def test_cov_checks_its_weights_as_torch(torch, weights):
    name, w = next(iter(weights.items()))
    check_error(lambda lib, x, v: lib.cov(x, **{name: v}), [np.arange(5.0), w], torch,
                match=r"^cov\(\): (expected|fweights|aweights|weights)")


def test_cov_with_both_weights_still_matches(torch):
    check(lambda lib, x, f, a: lib.cov(x, fweights=f, aweights=a),
          [np.arange(10.0).reshape(2, 5) ** 2, np.array([1, 2, 0, 1, 3]), np.linspace(0.1, 1, 5)], torch)


@pytest.mark.parametrize(("shape", "dim", "index", "source"), [
    ((3, 2), 0, [0, 1], (2,)), ((3, 2), 0, [0, 1], (2, 1)), ((3,), 0, [1], ()), ((), 0, [0], (1,)),
    ((3, 1), 0, [0, 1], (2,)), ((3, 2), 1, [0], (3,)),
])
def test_index_add_refuses_a_source_of_another_shape(torch, shape, dim, index, source):
    check_error(lambda lib, x, s: x.index_add(dim, lib.tensor(index), s), [np.zeros(shape), np.ones(source)], torch,
                match="source tensor shape must match|out of bounds of the source")


@pytest.mark.parametrize(("shape", "dim", "index", "source"), [((3, 2), 0, [0, 2], (2, 2)), ((), 0, [0], ()),
                                                               ((3, 2), -1, [1], (3, 1))])
def test_index_add_of_matching_shapes_still_adds(torch, shape, dim, index, source):
    check(lambda lib, x, s: x.index_add(dim, lib.tensor(index), s), [np.zeros(shape), np.ones(source)], torch)


@pytest.mark.parametrize("weight_shape", [(), (5, 4)])
def test_multi_margin_loss_refuses_a_weight_that_is_not_1d(torch, weight_shape):
    check_error(lambda lib, x, y, w: lib.nn.functional.multi_margin_loss(x, y, weight=w),
                [np.ones((5, 4)), np.zeros(5, np.int64), np.ones(weight_shape)], torch, match="one-dimensional")


@pytest.mark.parametrize("name", ["layer_norm", "rms_norm"])
@pytest.mark.parametrize(("normalized", "weight"), [((), None), ((2, 2), None), ((3,), (2,)), ((3,), (1, 3))])
def test_layer_and_rms_norm_check_their_shapes_as_torch(torch, name, normalized, weight):
    arrays = [np.ones((2, 2, 3)), None if weight is None else np.ones(weight)]
    check_error(lambda lib, x, w: getattr(lib.nn.functional, name)(x, normalized, w), arrays, torch,
                match=r"^(Expected normalized_shape to be at least 1-d|Given normalized_shape=|Expected weight to be)")


@pytest.mark.parametrize(("weight", "bias"), [((1, 2), None), (None, (1, 2))])
def test_native_layer_norm_refuses_parameters_of_another_shape(torch, weight, bias):
    arrays = [np.ones((1, 2, 3)), *(None if s is None else np.ones(s) for s in (weight, bias))]
    check_error(lambda lib, x, w, b: lib.native_layer_norm(x, (1, 2, 3), w, b, 1e-5), arrays, torch,
                match="to be of same shape as normalized_shape")


@pytest.mark.parametrize(("call", "match"), [
    (lambda lib, x: lib.nn.functional.adaptive_max_pool1d(x.reshape(1, 2, 3), ()), "should contain one int"),
    (lambda lib, x: lib.nn.functional.adaptive_max_pool1d(x.reshape(1, 2, 3), (1, 2)), "should contain one int"),
    (lambda lib, x: lib.nn.functional.adaptive_max_pool3d(x.reshape(3, 2, 1), (2, 2, 2)), "at least 4"),
    (lambda lib, x: lib.nn.functional.adaptive_max_pool3d(x.reshape(1, 1, 1, 1, 6)[..., :1], (-1, 0, 2)),
     "negative dimension -1"),
])
def test_adaptive_max_pools_refuse_bad_sizes_with_torchs_errors(torch, call, match):
    check_error(call, [np.arange(6.0)], torch, match=match)


def test_adaptive_max_pool1d_takes_a_one_int_tuple(torch):
    check(lambda lib, x: lib.nn.functional.adaptive_max_pool1d(x.reshape(1, 2, 3), (2,)), [np.arange(6.0)], torch)


@pytest.mark.parametrize(("shapes", "left"), [
    (((), (), ()), True), (((5, 3), (3,), (5,)), True), (((5, 0), (5,), (5, 5)), True), (((5, 3), (4,), (5, 5)), True),
    (((5, 3), (3,), (4, 5)), True), (((5, 3), (3,), (5, 2)), False), (((5, 3), (1, 3), (5, 2)), True),
    (((5, 3), (3,), (1, 5, 2)), True), (((3, 5), (5,), (3, 2)), True),
])
def test_ormqr_checks_its_shapes_as_torch(torch, shapes, left):
    check_error(lambda lib, a, tau, c: lib.ormqr(a, tau, c, left), [np.ones(s) for s in shapes], torch,
                match=r"^torch\.ormqr: ")


@pytest.mark.parametrize(("shapes", "left"), [(((5, 3), (3,), (5, 2)), True), (((3, 5), (3,), (2, 3)), False)])
def test_ormqr_of_fitting_shapes_still_multiplies(torch, shapes, left):
    a = np.random.default_rng(3).standard_normal(shapes[0])
    c = np.arange(float(np.prod(shapes[2]))).reshape(shapes[2])
    check(lambda lib, x, c: lib.ormqr(*lib.geqrf(x), c, left), [a, c], torch)


def test_narrow_copy_past_the_last_dim_is_a_runtime_error(torch):
    check_error(lambda lib, x: x.narrow_copy(3, 0, 0), [np.ones((2, 3, 4))], torch, match="Expected dim <")
    check_error(lambda lib, x: x.narrow_copy(-4, 0, 0), [np.ones((2, 3, 4))], torch)  # (an IndexError in both)


def test_histogramdd_wants_one_bin_count_per_coordinate(torch):
    check_error(lambda lib, x: lib.histogramdd(x, [1, 1, 1]), [np.ones((5, 2))], torch, match="size of bins")
    check(lambda lib, x: lib.histogramdd(x, [2, 3]), [np.arange(10.0).reshape(5, 2)], torch)


@pytest.mark.parametrize("out_dtype", ["float64", "int64", "bfloat16"])
@pytest.mark.parametrize("which", [0, 1])
def test_aminmax_and_gather_want_out_of_their_results_dtype(torch, out_dtype, which):
    def aminmax(lib, x):
        outs = [lib.empty(4), lib.empty(4)]
        outs[which] = lib.empty(4, dtype=getattr(lib, out_dtype))
        return lib.aminmax(x, dim=0, out=tuple(outs))

    def gather(lib, x):
        return lib.gather(x, 1, lib.zeros(3, 2, dtype=lib.int64), out=lib.empty(3, 2, dtype=getattr(lib, out_dtype)))

    for call in (aminmax, gather):
        check_error(call, [np.ones((3, 4), np.float32)], torch, match="Expected out tensor to have dtype float, but")


def test_aminmax_and_gather_fill_an_out_of_their_dtype(torch):
    check(lambda lib, x: lib.aminmax(x, dim=0, out=(lib.empty(4), lib.empty(4))), [np.arange(12.0).reshape(3, 4)
                                                                                  .astype(np.float32)], torch)
    check(lambda lib, x: lib.gather(x, 1, lib.ones(3, 2, dtype=lib.int64), out=lib.empty(3, 2)),
          [np.arange(12.0).reshape(3, 4).astype(np.float32)], torch)


@pytest.mark.parametrize(("shape", "kwargs"), [
    ((3, 3, 3), dict(kernel_size=1, stride=0)), ((3, 3, 3), dict(kernel_size=1, stride=-1)),
    ((3, 3, 3), dict(kernel_size=0)), ((3, 3, 3), dict(kernel_size=1, dilation=0)), ((0, 10), dict(kernel_size=1)),
    ((2, 0, 10), dict(kernel_size=1)), ((3,), dict(kernel_size=1)),
])
def test_max_pool1d_checks_its_input_and_sizes_as_torch(torch, shape, kwargs):
    check_error(lambda lib, x: lib.nn.functional.max_pool1d(x, **kwargs), [np.ones(shape)], torch,
                match=r"^max_pool1d(\(\) \w+ must be greater than zero|: Expected 2D or 3D)")


def test_max_pool1d_still_pools_an_empty_batch(torch):
    check(lambda lib, x: lib.nn.functional.max_pool1d(x, 2), [np.ones((0, 2, 10))], torch)


@pytest.mark.parametrize("name", ["hsplit", "vsplit", "dsplit"])
@pytest.mark.parametrize("sections", ["abc", 2.0, None])
def test_directional_splits_refuse_what_is_not_an_int_or_indices(torch, name, sections):
    check_error(lambda lib, x: getattr(lib, name)(x, sections), [np.ones((4, 4, 4))], torch,
                match="received an invalid combination of arguments")


@pytest.mark.parametrize(("dtype", "value"), [("int64", 1e30), ("int64", float("inf")), ("int8", 300),
                                              ("float16", 1e10), ("int64", 2 + 1j)])
@pytest.mark.parametrize("inplace", [False, True])
def test_masked_fill_refuses_a_tensor_value_that_overflows(torch, dtype, value, inplace):
    def fill(lib, mask):
        x = lib.zeros(2, dtype=getattr(lib, dtype))
        return (x.masked_fill_ if inplace else x.masked_fill)(mask, lib.tensor(value))

    check_error(fill, [np.array([True, False])], torch, match="without overflow")


@pytest.mark.parametrize(("dtype", "value"), [("int64", 3.7), ("uint8", -1), ("bool", 5), ("float32", 1e300)])
def test_masked_fill_casts_a_tensor_value_that_fits(torch, dtype, value):
    check(lambda lib, m: lib.zeros(2, dtype=getattr(lib, dtype)).masked_fill(m, lib.tensor(value)),
          [np.array([True, False])], torch)


@pytest.mark.parametrize(("parts", "out"),
                         [("float64", "complex64"), ("float32", "complex128"), ("float32", "float32")])
def test_complex_wants_out_of_its_result_dtype(torch, parts, out):
    check_error(lambda lib, re: lib.complex(re, re, out=lib.empty(2, dtype=getattr(lib, out))),
                [np.ones(2, getattr(np, parts))], torch, match="for argument 'out'")
    check(lambda lib, re: lib.complex(re, re, out=lib.empty(2, dtype=lib.complex64)), [np.ones(2, np.float32)], torch)


@pytest.mark.parametrize(("x", "w", "bias"), [
    ((3,), (2, 4, 3), None), ((2, 2, 3), (4, 3), None), ((2, 3), (3,), None), ((2, 3), (4, 2), None),
    ((2, 3), (4, 3), (3,)),
])
def test_linear_cross_entropy_checks_its_shapes_as_torch(torch, x, w, bias):
    target = np.zeros(x[:-1] + w[1:-1], np.int64) if len(x) < 3 else np.zeros(2, np.int64)
    arrays = [np.ones(x), np.ones(w), target, None if bias is None else np.ones(bias)]
    check_error(lambda lib, i, lw, y, b: lib.nn.functional.linear_cross_entropy(i, lw, y, linear_bias=b), arrays,
                torch, match=r"^(expected|K-dimensional loss defined by linear_weight shape)")


def test_linear_cross_entropy_of_k_dimensional_weights_still_matches(torch):
    rng = np.random.default_rng(4)
    arrays = [rng.standard_normal((2, 3)), rng.standard_normal((4, 5, 3)), np.array([[0, 1, 2, 3, 0], [1] * 5]),
              rng.standard_normal((4, 5))]
    check(lambda lib, i, lw, y, b: lib.nn.functional.linear_cross_entropy(i, lw, y, linear_bias=b, reduction="none"),
          arrays, torch)


@pytest.mark.parametrize("name", ["__radd__", "__rmul__", "__rand__", "__ror__", "__rxor__"])
def test_reflected_c_methods_refuse_a_self_that_is_not_a_tensor(torch, name):
    check_error(lambda lib, t: getattr(lib.Tensor, name)(2, t), [np.array([1, 2])], torch,
                match=f"descriptor '{name}' for 'torch._C.TensorBase' objects doesn't apply to a 'int' object")
    check(lambda lib, t: getattr(t, name)(3), [np.array([1, 2])], torch)
    assert getattr(core.tensor([1, 2]), name)("a") is NotImplemented  # (Python then tries str's method, as torch)


@pytest.mark.parametrize("call", [
    lambda lib, x, o: lib.index_select(x, 1, lib.tensor([0, 1]), out=o),
    lambda lib, x, o: lib.gather(x, 1, lib.zeros(3, 2, dtype=lib.int64), out=o),
])
def test_an_expanded_out_is_refused_as_internal_overlap(torch, call):
    check_error(lambda lib, x, z: call(lib, x, z.expand(3, 2)), [np.ones((3, 6)), np.zeros((1, 2))], torch,
                match="more than one element of the written-to tensor refers to a single memory location")


def test_float32_trigamma_is_torchs_float32_computation_near_its_poles(torch):
    # torch's float32 trigamma reflects through sinf(pi * x) in float32, which loses digits near the negative poles
    x = np.array([-7.9506, -8.0676, -3.9730, -0.4999, -1e-3, 0.3, 0.5, 1.0, 7.5, 1e4, -2.0, 0.0], np.float32)
    check(lambda lib, t: lib.polygamma(1, t), [x], torch, rtol=1.3e-6, atol=1e-5)
    check(lambda lib, t: lib.special.polygamma(1, t), [x], torch, rtol=1.3e-6, atol=1e-5)
    check(lambda lib, t: t.polygamma(1), [x], torch, rtol=1.3e-6, atol=1e-5)


@pytest.mark.parametrize("name", ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1"])
def test_bessel_j_and_y_are_torchs_approximations_near_their_zeros(torch, name):
    x = np.array([-5.4215, 5.5761, -5.4398, 4.9, 5.0, 5.0001, 2.4048, 3.8317, 7.0156, 0.0, 1e-6, 30.0, -2.0])
    check(lambda lib, t: getattr(lib.special, name)(t), [x], torch, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize(("shape", "size", "stride", "offset"), [((5,), (2,), (2,), 1), ((1,), (), (), 0),
                                                                 ((2, 3), (2, 2), (3, 1), 1), ((4,), (2,), (1,), None)])
def test_as_strided_scatter_sends_self_torchs_gradient(torch, shape, size, stride, offset):
    # torch's gradient of self is grad at the scattered places (its as_strided_scatter_backward), src gets the same
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(shape), rng.standard_normal(size)]
    check_grads(lambda lib, x, s: lib.as_strided_scatter(x, s, size, stride, offset), arrays, torch)
    check_grads(lambda lib, x, s: x.as_strided_scatter(s, size, stride, offset), arrays, torch)
    ours, theirs, _, _ = run_both(lambda lib, x, s: lib.as_strided_scatter(x, s, size, stride, offset), arrays, torch,
                                  requires_grad=True)
    assert ours.grad_fn.name() == theirs.grad_fn.name()


def test_as_strided_scatter_refuses_what_torch_refuses(torch):
    check_error(lambda lib, x, s: lib.as_strided_scatter(x, s, (2,), (1,), 0), [np.zeros(4), np.zeros(3)], torch,
                match="expected src to have a size equal to the slice of self")
    check_error(lambda lib, x, s: lib.as_strided_scatter(x.t().requires_grad_(), s, (2,), (1,), 0),
                [np.zeros((3, 2)), np.zeros(2)], torch, match="only supported for contiguous inputs")


def test_max_pool_with_indices_backward_scatters_to_the_indices(torch):
    rng = np.random.default_rng(5)
    for shape, pool, kernel in (((2, 3, 5, 6), "max_pool2d", (3, 2)), ((1, 2, 3, 4, 5), "max_pool3d", (2, 2, 2))):
        def call(lib, x, g, pool=pool, kernel=kernel):
            out, idx = getattr(lib.nn.functional, pool)(x.detach(), kernel, 1, 0, 1, True, return_indices=True)
            grad = g[tuple(slice(0, n) for n in out.shape)]
            name = f"{pool}_with_indices_backward"
            return getattr(lib.ops.aten, name)(grad, x, list(kernel), [1] * len(kernel), [0] * len(kernel),
                                               [1] * len(kernel), True, idx)
        check_grads(call, [rng.standard_normal(shape), rng.standard_normal(shape)], torch)
        ours, theirs, _, _ = run_both(call, [rng.standard_normal(shape), rng.standard_normal(shape)], torch,
                                      requires_grad=True)
        assert ours.grad_fn.name() == theirs.grad_fn.name()


@pytest.mark.parametrize(("dim", "scale"), [(0, 0.0), (1, 2.0), (-1, 1.0)])
def test_softmax_backward_data_and_native_dropout_backward(torch, dim, scale):
    rng = np.random.default_rng(6)
    g, y = rng.standard_normal((3, 4)), np.abs(rng.standard_normal((3, 4)))
    check_grads(lambda lib, a, b: lib._softmax_backward_data(a, b, dim, lib.float64), [g, y], torch)
    check_grads(lambda lib, a, b: lib.ops.aten._softmax_backward_data(a, b, dim, lib.float64), [g, y], torch)
    check(lambda lib, a, b: lib._softmax_backward_data(a, b, 1, lib.float32), [g.astype(np.float32),
                                                                             y.astype(np.float32)], torch)
    check_error(lambda lib, a, b: lib._softmax_backward_data(a, b, 1, lib.float32), [g.astype(np.float32), y], torch,
                match="expected scalar type Float but found Double")
    mask = rng.random((3, 4)) > 0.5
    check_grads(lambda lib, a, m: lib.ops.aten.native_dropout_backward(a, m, scale), [g, mask], torch)


@pytest.mark.parametrize("dim", [0, 1])
def test_safe_softmax_gives_zeros_and_no_gradient_on_fully_masked_slices(torch, dim):
    x = np.array([[1.0, -np.inf, 2.0], [-np.inf, -np.inf, -np.inf], [0.5, 0.25, -1.0]])
    check_grads(lambda lib, t: lib._safe_softmax(t, dim), [x], torch)
    check(lambda lib, t: lib.ops.aten._safe_softmax(t, dim, lib.float32), [x], torch)
    ours, theirs, _, _ = run_both(lambda lib, t: lib._safe_softmax(t, 1), [x], torch, requires_grad=True)
    assert ours.grad_fn.name() == theirs.grad_fn.name()


@pytest.mark.parametrize("training", [True, False])
def test_native_batch_norm_legit_and_with_update_update_the_running_statistics(torch, training):
    rng = np.random.default_rng(7)
    x, w, b = rng.standard_normal((4, 3, 5)), rng.standard_normal(3), rng.standard_normal(3)

    def legit(lib, x, w, b):
        mean, var = lib.zeros(3, dtype=lib.float64), lib.ones(3, dtype=lib.float64)
        out = lib._native_batch_norm_legit(x, w, b, mean, var, training, 0.3, 1e-5)
        return (*out, mean, var)

    check(legit, [x, w, b], torch)
    check_grads(lambda lib, x, w, b: legit(lib, x, w, b)[0], [x, w, b], torch)
    check_grads(lambda lib, x, w, b: lib._native_batch_norm_legit(x, w, b, True, 0.1, 1e-5)[0], [x, w, b], torch)

    def with_update(lib, x, w, b):
        mean, var = lib.zeros(3, dtype=lib.float64), lib.ones(3, dtype=lib.float64)
        return (*lib.ops.aten._batch_norm_with_update(x, w, b, mean, var, 0.3, 1e-5), mean, var)

    check(with_update, [x, w, b], torch)


def test_unsafe_masked_index_clamps_the_masked_off_indices(torch):
    x = np.arange(20.0).reshape(4, 5)
    mask = np.array([[True, False, True], [False, True, True]])
    rows, cols = np.array([[0], [3]]), np.array([[1, 9, -7]])  # (9 and -7 lie outside: masked off or clamped)
    check_grads(lambda lib, t, m, r, c: lib._unsafe_masked_index(t, m, [r, c], -1.5), [x, mask, rows, cols], torch)
    row_mask = np.array([[[True] * 5], [[False, True, False, True, False]]])
    check(lambda lib, t, m, r: lib._unsafe_masked_index(t, m, [r], 7), [x.astype(np.int64), row_mask, rows], torch)
    values = np.ones((2, 3))
    check_grads(lambda lib, t, m, r, c, v: lib._unsafe_masked_index_put_accumulate(t, m, [r, c], v),
                [x, mask, rows, np.array([[1, 1, -2]]), values], torch)
    check_error(lambda lib, t, m, r: lib._unsafe_masked_index(t, m, [r], 0), [x, mask[0], np.array([0.5])], torch,
                match="^_unsafe_masked_index found unexpected index type Double$")
    check(lambda lib, t, m, r: lib._unsafe_masked_index(t, m, [r], 7), [x, np.array([[2.5], [0.0]]), rows], torch)


@pytest.mark.parametrize(("shapes", "dim", "chunks"), [
    ([(1, 2, 3), (1, 2, 3)], -1, 5), ([(2, 7), (2, 3)], 1, 3), ([(3, 3, 2, 1), (1, 4, 2, 2)], 0, 2),
    ([(2, 4), (2, 3, 2)], 1, 2)])
def test_chunk_cat_pads_and_interleaves_chunks(torch, shapes, dim, chunks):
    rng = np.random.default_rng(8)
    arrays = [rng.standard_normal(s) for s in shapes]
    check(lambda lib, *ts: lib._chunk_cat(list(ts), dim, chunks), arrays, torch)
    ours, theirs, _, _ = run_both(lambda lib, *ts: lib._chunk_cat(list(ts), dim, chunks), arrays, torch,
                                  requires_grad=True)
    assert ours.requires_grad and theirs.requires_grad
    for result in (theirs, ours):  # (torch defines no derivative for it)
        with pytest.raises(RuntimeError, match="derivative for aten::_chunk_cat is not implemented"):
            result.sum().backward()


def test_chunk_cat_refuses_what_torch_refuses(torch):
    check_error(lambda lib, a, b: lib._chunk_cat([a, b], 0, 0), [np.ones((2, 3)), np.ones((2, 3))], torch)
    check_error(lambda lib: lib._chunk_cat([], 0, 2), [], torch, match="non-empty input tensor list")
    check_error(lambda lib, a, b: lib._chunk_cat([a, b], 1, 2), [np.ones((2, 3)), np.ones((3, 3))], torch,
                match="same sizes of 0,...,dim-1")
    check_error(lambda lib, a, b: lib._chunk_cat([a, b], -1, 2), [np.ones((2, 3)), np.ones((2, 3, 1))], torch,
                match="non-negative dim")


@pytest.mark.parametrize("name", ["_upsample_bilinear2d_aa", "_upsample_bicubic2d_aa"])
def test_antialiased_upsample_aten_forms(torch, name):
    x = np.random.default_rng(9).standard_normal((2, 3, 10, 12))
    check(lambda lib, t: getattr(lib.ops.aten, name)(t, [4, 5], False), [x], torch)
    check(lambda lib, t: getattr(lib.ops.aten, name).vec(t, None, True, [0.5, 0.75]), [x], torch)
    check_grads(lambda lib, t: getattr(lib.ops.aten, name)(t, output_size=[3, 7], align_corners=True,
                                                           scale_factors=None), [x], torch)


@pytest.mark.parametrize("reduce", ["max", "min"])
@pytest.mark.parametrize("fn", ["_segment_reduce", "segment_reduce"])
def test_segment_reduce_splits_only_a_positive_gradient_among_ties(torch, reduce, fn):
    # torch's kernel divides a tied segment's gradient by the tie count only where it is > 0 (the weights that
    # check_grads draws are positive for the first segment, negative for the last)
    data = np.array([2.0, 2.0, 2.0, 2.0, 7.0 if reduce == "min" else -1.0])
    check_grads(lambda lib, d, n: getattr(lib, fn)(d, reduce, lengths=n, initial=None), [data, np.array([2, 0, 3])],
                torch)


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (2, 3, 6), (2, 6, 3), (1, 4), (4, 1), (3, 3)])
def test_lu_gradients_of_wide_and_tall_matrices(torch, shape):
    a = np.random.default_rng(10).standard_normal(shape)
    check_grads(lambda lib, t: lib.linalg.lu_factor(t)[0], [a], torch)
    check_grads(lambda lib, t: lib.linalg.lu_factor_ex(t)[0], [a], torch)  # (torch.lu's too: it calls this)
    check_grads(lambda lib, t: lib.linalg.lu(t)[1], [a], torch)
    check_grads(lambda lib, t: lib.linalg.lu(t)[2], [a], torch)
    check_grads(lambda lib, t: sum((w * f).sum() for w, f in zip((0.5, -2.0), lib.linalg.lu(t)[1:])), [a], torch)


@pytest.mark.parametrize("scale", [1e-6, 0.02, 0.3, 1.0, 2.5, 30.0])
@pytest.mark.parametrize("shape", [(5, 5), (3, 4, 4), (1, 1), (2, 1, 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matrix_exp_is_torchs_taylor_scheme_with_its_degrees_and_squarings(torch, scale, shape, dtype):
    # float32 keeps torch's rounding (a few 1e-6 at norm 30), a batch takes degree 18 throughout as torch's does
    x = (np.random.default_rng(11).standard_normal(shape) * scale).astype(dtype)
    tol = 2e-7 if dtype == np.float32 else 1e-14
    check(lambda lib, a: lib.linalg.matrix_exp(a), [x], torch, rtol=tol, atol=tol * np.exp(np.abs(x).sum(-2).max()))
    check_grads(lambda lib, a: lib.matrix_exp(a), [x], torch, rtol=tol * 10, atol=tol * 10 * np.exp(2 * scale * 5))


@pytest.mark.parametrize("shape", [(1, 0, 3), (0,), (2, 0)])
def test_in_place_and_out_on_an_empty_tensor_from_numpy(torch, shape):
    # an empty array from NumPy has strides (0, 0, ...): nothing is written, so nothing overlaps
    def run(lib, _):
        x = lib.from_numpy(np.empty(shape, np.float32))
        x.reciprocal_().add_(1)
        return lib.exp(lib.ones(shape), out=lib.from_numpy(np.empty(shape, np.float32)))
    check(run, [np.zeros(1)], torch)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.bool_])
def test_i0_and_mvlgamma_in_place_refuse_an_integer_tensor(torch, dtype):
    check_error(lambda lib, t: t.i0_(), [np.ones(3, dtype)], torch, match="can't be cast to the desired output type")
    if dtype is not np.bool_:
        check_error(lambda lib, t: t.mvlgamma_(2), [np.ones(3, dtype)], torch,
                    match="^mvlgamma: result type (Long|Int) can't be cast to the desired output type Float$")


@pytest.mark.parametrize("name", ["softplus", "logsigmoid", "hardshrink", "softshrink"])
def test_nn_activations_take_out(torch, name):
    x = np.array([-2.0, -0.25, 0.0, 0.3, 4.0], np.float32)
    check(lambda lib, t: getattr(lib.nn.functional, name)(t, out=lib.empty(5)), [x], torch)
    ours = getattr(core.nn.functional, name)(core.tensor(x), out=core.empty(5))
    assert ours.shape == (5,)
    check_error(lambda lib, t: getattr(lib.nn.functional, name)(t, out=lib.empty(5, dtype=lib.float64)), [x], torch,
                match="^Found dtype Double but expected Float$")


def test_frexp_and_igamma_of_bfloat16(torch):
    x = np.array([1.5, -3.0, 0.0, 0.1, 40.0])
    def frexp(lib, t):  # (the oracle reads bfloat16 as float32)
        mantissa, exponent = lib.frexp(t.to(lib.bfloat16))
        assert mantissa.dtype == lib.bfloat16
        return mantissa.float(), exponent

    check(frexp, [x], torch)
    for name in ("igamma", "igammac"):
        def both(lib, a, b, name=name):
            out = getattr(lib, name)(a.to(lib.bfloat16), b.to(lib.bfloat16))
            assert out.dtype == lib.bfloat16
            return out.float()
        check(both, [np.abs(x) + 0.5, np.abs(x)], torch, rtol=1e-2)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("n", [5, 33, 70])
def test_half_precision_i0e_rounds_as_torchs_scalar_and_vector_loops(torch, dtype, n):
    x = np.random.default_rng(12).uniform(-40, 40, n)

    def bits(lib, t):
        return lib.special.i0e(t.to(getattr(lib, dtype))).view(lib.int16)

    check(bits, [x], torch)


POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
               "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p"]


@pytest.mark.parametrize("name", POLYNOMIALS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_orthogonal_polynomials_equal_torchs_bits(torch, name, dtype):
    # each recurrence step a fused multiply-add, the trigonometric forms through the C library's acos/cos/sin
    # (a float32 Hermite value near a root was 3e-5 off before: the OpInfo samples at OPINFO_SWEEP_SAMPLES=16)
    rng = np.random.default_rng(13)
    x, n = rng.uniform(-3, 3, 400).astype(dtype), rng.integers(-1, 14, 400).astype(dtype)
    check(lambda lib, a, b: getattr(lib.special, name)(a, b), [x, n], torch, rtol=0, atol=0)


@pytest.mark.parametrize("index_shape", [(2, 0), (0,), (3, 0, 4)])
def test_gather_takes_an_empty_index_of_any_shape(torch, index_shape):
    # torch checks neither the dims nor the dtype of an empty index (found at OPINFO_SWEEP_SAMPLES=16)
    check_grads(lambda lib, x: lib.gather(x, 0, lib.zeros(index_shape, dtype=lib.uint8)), [np.arange(5.0)], torch)


def test_index_fill_sends_the_value_each_filled_place_once(torch):
    check_grads(lambda lib, x, v: x.index_fill(-1, lib.tensor([4, 3, 3, 4, 0]), v),
                [np.arange(20.0).reshape(4, 5), np.array(-7.5)], torch)


@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_and_index_reduce_prod_gradients_through_zeros(torch, include_self):
    # a zero self gets the product of what is scattered onto it; a lone zero source, the product of the rest
    x = np.array([[0.0, 13.0], [0.0, 0.0], [15.0, 19.0]])
    src = np.array([[2.0, 0.0], [0.0, 0.0], [2.0, 3.0], [1.5, 0.5]])
    index = np.array([0, 1, 2, 0])
    check_grads(lambda lib, a, b: a.index_reduce(0, lib.tensor(index), b, "prod", include_self=include_self),
                [x, src], torch)
    check_grads(lambda lib, a, b: a.scatter_reduce(0, lib.tensor(np.stack([index, index[::-1]], 1)), b, "prod",
                                                   include_self=include_self), [x, src], torch)


def test_antialiased_upsample_default_overload_samples_at_the_given_scales(torch):
    x = np.random.default_rng(14).standard_normal((2, 3, 10, 20))
    check(lambda lib, t: lib.ops.aten._upsample_bilinear2d_aa(t, [3, 3], False, 1.7, 0.9), [x], torch)
    check(lambda lib, t: lib.ops.aten._upsample_bicubic2d_aa(t, [4, 6], True, scales_h=1.7, scales_w=0.9), [x],
          torch)


def test_group_norm_and_local_response_norm_of_empty_batches(torch):
    check_grads(lambda lib, x, w, b: lib.native_group_norm(x, w, b, 0, 2, 1, 1, 1e-5)[0],
                [np.zeros((0, 2)), np.ones(2), np.zeros(2)], torch)
    check(lambda lib, x: lib.nn.functional.local_response_norm(x, 1, alpha=3e-5, beta=0.5, k=1.25),
          [np.zeros((0, 1, 2), np.int64)], torch)  # (handed back as it is: int64 stays)
    check_error(lambda lib, x: lib.nn.functional.local_response_norm(x, 2), [np.zeros((2, 3))], torch,
                match="^Expected 3D or higher dimensionality +input \\(got 2 dimensions\\)$")


@pytest.mark.parametrize("shape", [(0, 0), (3, 2)])
def test_householder_product_without_reflectors_still_records(torch, shape):
    # the identity's columns, yet torch's result requires grad (its node sends A nothing)
    ours, theirs, _, _ = run_both(lambda lib, a, t: lib.linalg.householder_product(a, t), [np.zeros(shape),
                                                                                         np.zeros(0)], torch,
                                  requires_grad=True)
    assert_same(ours, theirs)
    assert ours.requires_grad and theirs.requires_grad


def test_bfloat16_max_pools_scatter_amax_histc_and_isin(torch):
    # (each refused bfloat16: NumPy's iinfo of its 'V' kind, or Tensor.numpy(); found sweeping narrow dtypes)
    x = np.random.default_rng(15).standard_normal((1, 2, 4, 4))

    def run(lib, t):
        b = t.to(lib.bfloat16)
        pooled, where = lib.nn.functional.adaptive_max_pool2d(b, 2, return_indices=True)
        flat = b.reshape(-1, 4)[:4]
        reduced = flat.scatter_reduce(0, lib.zeros(4, 4, dtype=lib.int64), flat, "amax", include_self=False)
        return (pooled.float(), where, lib.nn.functional.max_pool3d(b, 2).float(), reduced.float(),
                lib.histc(b, bins=4).float(), lib.isin(b, b[0, 0, 0]))

    check(run, [x], torch)


def test_integer_addbmm_bilinear_and_unravel_index_keep_torchs_dtypes(torch):
    rng = np.random.default_rng(16)
    for dtype in (np.int32, np.uint8):
        a, b1, b2 = (rng.integers(0, 4, s).astype(dtype) for s in ((2, 5), (3, 2, 4), (3, 4, 5)))
        check(lambda lib, x, y, z: lib.addbmm(x, y, z), [a, b1, b2], torch)
        x1, x2, w = (rng.integers(0, 3, s).astype(dtype) for s in ((4, 2), (4, 3), (5, 2, 3)))
        check(lambda lib, p, q, r: lib.nn.functional.bilinear(p, q, r), [x1, x2, w], torch)
        check(lambda lib, i: lib.unravel_index(i, (3, 4)), [np.array([5, 3, 11], dtype)], torch)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("p", [2, 3, 0, float("inf")])
def test_half_precision_dist_sums_in_float32(torch, dtype, p):
    # (a float16 2-norm of 25 differences of ~600 overflowed to inf; torch's norm sums in float32)
    x = np.random.default_rng(17).standard_normal((5, 5)) * 300
    check(lambda lib, a, b: lib.dist(a.to(getattr(lib, dtype)), b.to(getattr(lib, dtype)), p).float(), [x, -x],
          torch, rtol=1e-2)
