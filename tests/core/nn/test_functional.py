"""nn.functional activations, losses, norms and helpers against PyTorch in float64 (values and grads)."""

import numpy as np
import pytest

import core
import core.nn.functional as F
from core.autograd import gradgradcheck
from tests.core.oracle import check, check_error, check_grads

rng = np.random.default_rng(1)


def randn(*shape):
    return rng.standard_normal(shape)


ACTIVATIONS = [
    ("leaky_relu", {}), ("leaky_relu", {"negative_slope": 0.2}), ("hardtanh", {"min_val": -0.5}),
    ("relu6", {}), ("threshold", {"threshold": 0.3, "value": -1.0}),
    ("elu", {"alpha": 0.7}), ("selu", {}),
    ("celu", {"alpha": 2.0}),
    ("gelu", {}), ("gelu", {"approximate": "tanh"}),
    ("silu", {}), ("softplus", {"beta": 2.0, "threshold": 3.0}),
    ("relu", {}), ("sigmoid", {}), ("tanh", {}),
    ("logsigmoid", {}), ("softsign", {}), ("mish", {}),
    ("hardswish", {}), ("hardsigmoid", {}),
]


@pytest.mark.parametrize("name, kw", ACTIVATIONS, ids=[f"{a[0]}-{i}" for i, a in enumerate(ACTIVATIONS)])
def test_activation_matches_torch_with_gradients(torch, name, kw):
    # NOTE: rtol 1e-7, not tighter: PyTorch's hardsigmoid/hardswish kernels use a float32 1/6 even in float64.
    check_grads(lambda lib, x: getattr(lib.nn.functional, name)(x * 1, **kw), [randn(4, 5) * 3], torch,
                rtol=1e-7, atol=1e-12)


def test_piecewise_linear_activations_in_place_match_torch(torch):
    for name in ("leaky_relu", "hardtanh", "relu6"):
        check_grads(lambda lib, x, name=name: getattr(lib.nn.functional, name)(x * 1, inplace=True),
                    [randn(3, 4) * 3], torch)
    t = core.tensor(randn(5))
    expected = torch.nn.functional.leaky_relu(torch.tensor(t.numpy()), 0.1).numpy()
    assert F.leaky_relu(t, 0.1, inplace=True) is t and np.allclose(t.numpy(), expected)


def test_in_place_activation_on_a_leaf_that_requires_grad_raises():
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        F.leaky_relu(core.randn(3, requires_grad=True), inplace=True)


def test_leaky_relu_has_torch_grad_fn_name_and_exact_second_derivative():
    x = core.tensor(randn(3, 3), requires_grad=True)
    assert F.leaky_relu(x).grad_fn.name() == "LeakyReluBackward0"
    assert gradgradcheck(lambda a: F.leaky_relu(a, 0.3), (x,))


def test_smooth_activations_pass_gradgradcheck():
    x = core.tensor(randn(2, 3), requires_grad=True)
    for fn in (F.elu, F.gelu, lambda a: F.gelu(a, "tanh"), F.silu, F.softplus):
        assert gradgradcheck(fn, (x,))


def test_softmax_family_and_implicit_dim_warning(torch):
    check_grads(lambda lib, x: lib.nn.functional.softmax(x, dim=-1), [randn(3, 4)], torch, rtol=1e-9)
    check_grads(lambda lib, x: lib.nn.functional.log_softmax(x, 0), [randn(3, 4)], torch, rtol=1e-9)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        F.softmax(core.randn(2, 3))


def test_activation_errors_match_torch(torch):
    check_error(lambda lib, x: lib.nn.functional.gelu(x, approximate="fast"), [randn(3)], torch)
    check_error(lambda lib, x: lib.nn.functional.hardtanh(x, 2.0, 1.0), [randn(3)], torch)


# ----- losses ------------------------------------------------------------------------------------

REDUCTIONS = ["mean", "sum", "none"]


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_regression_losses_match_torch(torch, reduction):
    x, y = randn(4, 3), randn(4, 3)
    for fn in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
        check_grads(lambda lib, a, b, fn=fn: getattr(lib.nn.functional, fn)(a, b, reduction=reduction), [x, y], torch,
                    rtol=1e-9)
    check_grads(lambda lib, a, b: lib.nn.functional.smooth_l1_loss(a, b, reduction=reduction, beta=0.5), [x, y], torch)
    check_grads(lambda lib, a, b: lib.nn.functional.huber_loss(a, b, reduction=reduction, delta=0.3), [x, y], torch)


def test_mse_loss_warns_when_the_target_broadcasts():
    with pytest.warns(UserWarning, match=r"Using a target size \(torch.Size\(\[8\]\)\) that is different to the "
                                         r"input size \(torch.Size\(\[8, 1\]\)\)"):
        F.mse_loss(core.zeros(8, 1), core.zeros(8))


def test_loss_with_unknown_reduction_raises_value_error(torch):
    check_error(lambda lib, a: lib.nn.functional.mse_loss(a, a, reduction="avg"), [randn(3)], torch,
                match="avg is not a valid value for reduction")


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_with_class_indices_weights_ignore_index_and_smoothing(torch, reduction):
    x = randn(5, 4)
    t = np.array([0, 3, 1, -100, 2])
    w = np.abs(randn(4))
    check_grads(lambda lib, a: lib.nn.functional.cross_entropy(a, lib.tensor(t), reduction=reduction), [x], torch,
                rtol=1e-9)
    check_grads(lambda lib, a: lib.nn.functional.cross_entropy(a, lib.tensor(t), lib.tensor(w), reduction=reduction,
                                                               label_smoothing=0.2), [x], torch, rtol=1e-9)


def test_cross_entropy_with_n_d_inputs_and_probability_targets(torch):
    t = rng.integers(0, 3, (2, 4, 5))
    check_grads(lambda lib, a: lib.nn.functional.cross_entropy(a, lib.tensor(t), ignore_index=1), [randn(2, 3, 4, 5)],
                torch, rtol=1e-9)
    p = np.abs(randn(4, 3))
    p /= p.sum(1, keepdims=True)
    for reduction in REDUCTIONS:
        check_grads(lambda lib, a, b, r=reduction: lib.nn.functional.cross_entropy(a, b, reduction=r,
                                                                                    label_smoothing=0.1),
                    [randn(4, 3), p], torch, rtol=1e-9)


def test_nll_loss_matches_torch_and_checks_targets(torch):
    t = np.array([2, 0, 1])
    check_grads(lambda lib, a: lib.nn.functional.nll_loss(a, lib.tensor(t)), [randn(3, 4)], torch, rtol=1e-9)
    check_grads(lambda lib, a: lib.nn.functional.nll_loss(a, lib.tensor(1)), [randn(4)], torch, rtol=1e-9)
    check_error(lambda lib, a: lib.nn.functional.nll_loss(a, lib.tensor([0, 5, 1])), [randn(3, 4)], torch,
                match="Target 5 is out of bounds")
    check_error(lambda lib, a: lib.nn.functional.nll_loss(a, lib.tensor([0, 1])), [randn(3, 4)], torch,
                match=r"Expected input batch_size \(3\) to match target batch_size \(2\)")
    check_error(lambda lib, a: lib.nn.functional.nll_loss(a, lib.tensor([0.0, 1.0, 2.0])), [randn(3, 4)], torch)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy_losses_match_torch(torch, reduction):
    p = 1 / (1 + np.exp(-randn(4, 3)))
    t = rng.random((4, 3))
    w = rng.random((4, 3))
    check_grads(lambda lib, a, b: lib.nn.functional.binary_cross_entropy(a, b, reduction=reduction), [p, t], torch,
                rtol=1e-9)
    check_grads(lambda lib, a, b: lib.nn.functional.binary_cross_entropy(a, b, lib.tensor(w), reduction=reduction),
                [p, t], torch, rtol=1e-9)
    pw = rng.random(3) + 0.5
    check_grads(lambda lib, a, b: lib.nn.functional.binary_cross_entropy_with_logits(
        a, b, reduction=reduction, pos_weight=lib.tensor(pw)), [randn(4, 3), t], torch, rtol=1e-9)


def test_binary_cross_entropy_shape_errors_match_torch(torch):
    check_error(lambda lib, a, b: lib.nn.functional.binary_cross_entropy(a, b), [rng.random(3), rng.random(2)],
                torch, match="Using a target size")
    check_error(lambda lib, a, b: lib.nn.functional.binary_cross_entropy_with_logits(a, b),
                [rng.random(3), rng.random(2)], torch, match="must be the same as input size")


def test_kl_div_matches_torch(torch):
    p = np.abs(randn(3, 4))
    for log_target in (False, True):
        for reduction in ("sum", "batchmean", "none"):
            check_grads(lambda lib, a, b, r=reduction, lt=log_target: lib.nn.functional.kl_div(
                a, b, reduction=r, log_target=lt),
                        [randn(3, 4), np.log(p) if log_target else p], torch, rtol=1e-9)


# ----- norms and helpers -------------------------------------------------------------------------

def test_batch_norm_training_updates_running_stats_like_torch(torch):
    x = randn(6, 3, 2)
    stats = {}
    for lib in (core, torch):
        rm, rv = lib.zeros(3, dtype=lib.float64), lib.ones(3, dtype=lib.float64)
        lib.nn.functional.batch_norm(lib.tensor(x), rm, rv, training=True, momentum=0.3)
        stats[lib.__name__] = (rm.numpy(), rv.numpy())
    np.testing.assert_allclose(stats["core"][0], stats["torch"][0], rtol=1e-12)
    np.testing.assert_allclose(stats["core"][1], stats["torch"][1], rtol=1e-12)
    w, b = randn(3), randn(3)
    check_grads(lambda lib, a, ww, bb: lib.nn.functional.batch_norm(a, None, None, ww, bb, training=True),
                [x, w, b], torch, rtol=1e-8, atol=1e-10)
    check_grads(lambda lib, a: lib.nn.functional.batch_norm(a, lib.tensor(w), lib.tensor(np.abs(b))), [x], torch,
                rtol=1e-9)


def test_layer_and_group_norm_match_torch(torch):
    x, w, b = randn(2, 3, 4), randn(3, 4), randn(3, 4)
    check_grads(lambda lib, a, ww, bb: lib.nn.functional.layer_norm(a, (3, 4), ww, bb), [x, w, b], torch,
                rtol=1e-8, atol=1e-10)
    check_grads(lambda lib, a: lib.nn.functional.group_norm(a, 3), [randn(2, 6, 3)], torch, rtol=1e-8, atol=1e-10)


def test_norm_errors_match_torch(torch):
    check_error(lambda lib, a: lib.nn.functional.layer_norm(a, (4,)), [randn(2, 3)], torch,
                match=r"Given normalized_shape=\[4\], expected input with shape \[\*, 4\]")
    check_error(lambda lib, a: lib.nn.functional.batch_norm(a, lib.zeros(3), lib.ones(3), training=True),
                [randn(1, 3)], torch, match="Expected more than 1 value per channel when training")


def test_linear_and_bilinear_match_torch(torch):
    check_grads(lambda lib, x, w, b: lib.nn.functional.linear(x, w, b), [randn(2, 5, 3), randn(4, 3), randn(4)],
                torch, rtol=1e-9)
    check_grads(lambda lib, x1, x2, w, b: lib.nn.functional.bilinear(x1, x2, w, b),
                [randn(5, 3), randn(5, 2), randn(4, 3, 2), randn(4)], torch, rtol=1e-9)


def test_embedding_matches_torch_and_keeps_padding_row_gradient_zero(torch):
    idx = np.array([[0, 2, 4], [2, 2, 1]])
    check_grads(lambda lib, w: lib.nn.functional.embedding(lib.tensor(idx), w, padding_idx=2), [randn(5, 3)], torch)
    check_error(lambda lib, w: lib.nn.functional.embedding(lib.tensor([5]), w), [randn(5, 3)], torch,
                match="index out of range in self")
    w = core.tensor(randn(5, 3), requires_grad=True)
    assert gradgradcheck(lambda ww: F.embedding(core.tensor(idx), ww, padding_idx=2), (w,))


@pytest.mark.parametrize("kw", [{"pad": (1, 2)}, {"pad": (1, 2, 2, 1), "mode": "reflect"},
                                {"pad": (1, 2, 0, 3), "mode": "replicate"}, {"pad": (2, 1, 1, 1), "mode": "circular"},
                                {"pad": (1, -1, 2, 0), "value": 3.0}])
def test_pad_matches_torch_with_gradients(torch, kw):
    check_grads(lambda lib, x: lib.nn.functional.pad(x, **kw), [randn(2, 3, 4, 5)], torch)


def test_pad_errors_match_torch(torch):
    x = [randn(2, 3)]
    check_error(lambda lib, a: lib.nn.functional.pad(a, (1,)), x, torch, match="divisible by 2")
    check_error(lambda lib, a: lib.nn.functional.pad(a, (1, 1, 1, 1, 1, 1)), x, torch)
    check_error(lambda lib, a: lib.nn.functional.pad(a[None], (3, 3), mode="reflect"), x, torch)
    check_error(lambda lib, a: lib.nn.functional.pad(a, (1, 1), mode="foo"), x, torch)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_non_constant_pad_accepts_torchs_padding_size_and_rank_pairs_only(torch, mode):
    """A ReflectionPad2d applied to a 5-D volume must fail as in PyTorch, not pad two of its dims."""
    for ndim in range(1, 7):
        for size in (2, 4, 6, 8):
            if size // 2 > ndim:
                continue
            x = [randn(*([3] * ndim))]
            if (size, ndim) in {(2, 2), (2, 3), (4, 3), (4, 4), (6, 4), (6, 5)}:
                check(lambda lib, a, size=size: lib.nn.functional.pad(a, (1,) * size, mode=mode), x, torch)
            else:
                check_error(lambda lib, a, size=size: lib.nn.functional.pad(a, (1,) * size, mode=mode), x, torch,
                            match=f"Padding size {size} is not supported for {ndim}D input tensor")


def test_one_hot_matches_torch(torch):
    check(lambda lib, t: lib.nn.functional.one_hot(t), [np.array([0, 3, 1])], torch)
    check(lambda lib, t: lib.nn.functional.one_hot(t, 5), [np.array([[0, 3], [1, 2]])], torch)
    check_error(lambda lib, t: lib.nn.functional.one_hot(t, 2), [np.array([3])], torch, match="smaller than")
    check_error(lambda lib, t: lib.nn.functional.one_hot(t), [np.array([1.0])], torch, match="LongTensor")


def test_dropout_scales_kept_units_is_reproducible_and_identity_in_eval():
    x = core.ones(1000)
    core.manual_seed(3)
    a = F.dropout(x, 0.3)
    core.manual_seed(3)
    b = F.dropout(x, 0.3)
    kept = a.numpy()[a.numpy() != 0]
    assert np.allclose(kept, 1 / 0.7) and np.array_equal(a.numpy(), b.numpy())
    assert 0.2 < (a.numpy() == 0).mean() < 0.4
    assert F.dropout(x, 0.3, training=False) is x
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout(x, 1.5)


def test_normalize_matches_torch(torch):
    check_grads(lambda lib, x: lib.nn.functional.normalize(x, dim=1), [randn(3, 4)], torch, rtol=1e-9)
