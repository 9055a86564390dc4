"""ATen's native forms at ``torch.*`` against PyTorch: native_layer_norm/native_batch_norm's triples (and which of
them carry a gradient), native_dropout's draws and mask, conv_tbc, constant_pad_nd and the old matrix norms."""

import numpy as np
import pytest

import core


def _both(fn, torch):
    return fn(core), fn(torch)


def _close(ours, theirs, **kw):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=kw.get("rtol", 1e-6),
                               atol=kw.get("atol", 1e-6))
    assert tuple(ours.shape) == tuple(theirs.shape)


def test_native_layer_norm_returns_output_mean_and_rstd_as_torch(torch):
    def run(lib):
        x = lib.tensor(np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32), requires_grad=True)
        w, b = lib.ones(3, 4) * 2, lib.zeros(3, 4) + 0.5
        return lib.native_layer_norm(x, [3, 4], w, b, 1e-5)
    ours, theirs = _both(run, torch)
    for a, b in zip(ours, theirs):
        _close(a, b)
    assert [t.requires_grad for t in ours] == [t.requires_grad for t in theirs] == [True, False, False]


@pytest.mark.parametrize("training", [True, False])
def test_native_batch_norm_returns_torchs_saved_statistics_and_updates_running_ones(training, torch):
    def run(lib):
        x = lib.tensor(np.arange(24.0, dtype=np.float32).reshape(2, 3, 4) ** 1.5)
        mean, var = lib.zeros(3), lib.ones(3)
        out = lib.native_batch_norm(x, None, None, mean, var, training, 0.1, 1e-5)
        return (*out, mean, var)
    ours, theirs = _both(run, torch)
    for a, b in zip(ours, theirs):
        _close(a, b, rtol=1e-5)


def test_native_dropout_draws_torchs_mask_and_scales_the_kept_values(torch):
    def run(lib):
        lib.manual_seed(3)
        return lib.native_dropout(lib.arange(1.0, 13.0).view(3, 4), 0.4, True)
    (out, mask), (tout, tmask) = _both(run, torch)
    np.testing.assert_array_equal(mask.numpy(), tmask.numpy())
    _close(out, tout)
    assert str(mask.dtype) == "torch.bool"


def test_native_dropout_outside_training_keeps_everything(torch):
    (out, mask), (tout, tmask) = _both(lambda lib: lib.native_dropout(lib.ones(2, 2), 0.5, False), torch)
    np.testing.assert_array_equal(out.numpy(), tout.numpy())
    assert mask.numpy().all() and tmask.numpy().all()


def test_conv_tbc_convolves_time_batch_channel_inputs_as_torch(torch):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in ((7, 2, 3), (3, 3, 5), (5,))]

    def run(lib):
        x, w, b = (lib.tensor(a, requires_grad=True) for a in arrays)
        out = lib.conv_tbc(x, w, b, 1)
        out.square().sum().backward()
        return out, x.grad, w.grad, b.grad
    for a, b in zip(*_both(run, torch)):
        _close(a, b, rtol=1e-5, atol=1e-5)


@pytest.fixture
def warn_always():
    core.set_warn_always(True)
    yield
    core.set_warn_always(False)


def test_constant_pad_nd_and_old_norm_names_match_torch(torch, warn_always):
    torch.set_warn_always(True)
    try:
        def run(lib):
            x = lib.tensor([[3.0, -1.0, 2.0], [0.5, 4.0, -2.0]])
            with pytest.warns(UserWarning, match="at::frobenius_norm is deprecated"):
                frobenius = lib.frobenius_norm(x, (0, 1), True)
            with pytest.warns(UserWarning, match="at::nuclear_norm is deprecated"):
                nuclear = lib.nuclear_norm(x, True), lib.nuclear_norm(x, (0, 1))
            return (lib.constant_pad_nd(x, (1, 2, 0, 1), 9.0), frobenius, *nuclear)
        for a, b in zip(*_both(run, torch)):
            _close(a, b)
    finally:
        torch.set_warn_always(False)


def test_native_group_norm_returns_per_group_statistics_as_torch(torch):
    def run(lib):
        x = lib.tensor(np.arange(24.0, dtype=np.float32).reshape(2, 4, 1, 3) ** 1.3, requires_grad=True)
        return lib.native_group_norm(x, lib.ones(4) * 2, lib.zeros(4), 2, 4, 3, 2, 1e-5)
    for a, b in zip(*_both(run, torch)):
        _close(a, b, rtol=1e-5)


def test_aten_entry_points_with_integer_enums_match_torch(torch):
    rng = np.random.default_rng(0)
    img, w = rng.standard_normal((1, 2, 5, 5)).astype(np.float32), rng.standard_normal((3, 2, 2, 2)).astype(np.float32)
    theta = np.array([[[0.9, 0.1, 0.0], [-0.2, 1.1, 0.1]]], dtype=np.float32)

    def run(lib):
        x = lib.tensor(img)
        grid = lib.affine_grid_generator(lib.tensor(theta), [1, 2, 3, 3], False)
        log_probs = lib.tensor(rng_logits).log_softmax(2)
        return (lib.convolution(x, lib.tensor(w), None, [1, 1], [1, 0], [1, 1], False, [0, 0], 1),
                lib.convolution(x, lib.tensor(w).transpose(0, 1), None, [2, 2], [0, 0], [1, 1], True, [1, 1], 1),
                grid, lib.grid_sampler(x, grid, 0, 1, False), lib.grid_sampler_2d(x, grid, 1, 2, True),
                lib.ctc_loss(log_probs, lib.tensor([[1, 2], [2, 2]]), [5, 4], [2, 2], 0, 2, False),
                lib.native_channel_shuffle(lib.arange(8.0).view(1, 4, 2), 2),
                lib.norm_except_dim(x, 2, 1), lib.norm_except_dim(x, 2, -1), lib.fill(x, 2.5))
    rng_logits = np.random.default_rng(1).standard_normal((5, 2, 3)).astype(np.float32)
    for a, b in zip(*_both(run, torch)):
        _close(a, b, rtol=1e-5, atol=1e-5)


def test_in_place_feature_dropouts_and_detach_match_torch(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        x, y = lib.ones(2, 3, 2), lib.ones(2, 3, 2)
        lib.feature_dropout_(x, 0.5, True)
        lib.feature_alpha_dropout_(y, 0.5, True)
        z = lib.ones(2) * 3
        assert lib.detach_(z) is z
        results.append((x, y))
    for a, b in zip(*results):
        _close(a, b)
