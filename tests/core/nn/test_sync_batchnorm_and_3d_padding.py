"""``nn.SyncBatchNorm`` (one process: BatchNorm's numbers) with ``convert_sync_batchnorm``, and the 3-D padding
modules, against PyTorch: reprs, values and the converted model's parameters."""

import numpy as np
import pytest

import core


def _model(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Conv2d(1, 3, 3), lib.nn.BatchNorm2d(3), lib.nn.ReLU(),
                             lib.nn.Sequential(lib.nn.Flatten(), lib.nn.BatchNorm1d(12)))


def test_convert_sync_batchnorm_keeps_parameters_buffers_and_mode_as_torch(torch):
    x = np.random.default_rng(0).standard_normal((5, 1, 4, 4)).astype(np.float32)
    outs = []
    for lib in (core, torch):
        model = _model(lib)
        model(lib.tensor(x))  # moves the running statistics
        model.eval()
        synced = lib.nn.SyncBatchNorm.convert_sync_batchnorm(model)
        assert type(synced[1]).__name__ == "SyncBatchNorm" and not synced[1].training
        assert synced[1].weight is model[1].weight and synced[3][1].running_mean is model[3][1].running_mean
        outs.append((repr(synced), synced(lib.tensor(x)).detach().numpy()))
    assert outs[0][0] == outs[1][0]
    np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-5, atol=1e-6)  # the conv rounds as NumPy's BLAS


def test_sync_batchnorm_trains_like_batchnorm_in_one_process(torch):
    x = np.random.default_rng(1).standard_normal((8, 3, 2, 2)).astype(np.float32)
    results = []
    for lib in (core, torch):
        layer = lib.nn.SyncBatchNorm(3, momentum=0.2, bias=False)
        results.append((repr(layer), layer(lib.tensor(x)).detach().numpy(), layer.running_var.numpy()))
    assert results[0][0] == results[1][0]
    for ours, theirs in zip(results[0][1:], results[1][1:]):
        np.testing.assert_array_equal(ours, theirs)
    with pytest.raises(ValueError, match="expected at least 2D input"):
        core.nn.SyncBatchNorm(3)(core.ones(3))


@pytest.mark.parametrize("name, args", [("ZeroPad3d", (2,)), ("ConstantPad3d", ((1, 2, 0, 1, 2, 0), 3.5)),
                                        ("ReflectionPad3d", (1,)), ("ReplicationPad3d", ((1, 0, 2, 1, 0, 1),)),
                                        ("CircularPad3d", (1,))])
def test_3d_padding_modules_pad_and_print_as_torch(name, args, torch):
    x = np.random.default_rng(2).standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
    ours, theirs = getattr(core.nn, name)(*args), getattr(torch.nn, name)(*args)
    assert repr(ours) == repr(theirs)
    np.testing.assert_array_equal(ours(core.tensor(x)).numpy(), theirs(torch.tensor(x)).numpy())
