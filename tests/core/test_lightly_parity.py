"""What lightly's self-supervised losses and model utilities need of core, compared with PyTorch: the norm layers'
private bases (``nn.modules.batchnorm._NormBase``, which instance norms share with batch norms but are not
``_BatchNorm``s) and ``torch.distributed.nn``'s autograd-aware collectives (Barlow Twins' ``all_reduce``)."""

from __future__ import annotations

import functools
import subprocess
import sys
import types
import warnings

import numpy as np
import pytest

import core


def _layers(lib):
    nn = lib.nn
    return [nn.BatchNorm1d(3), nn.BatchNorm2d(3), nn.BatchNorm3d(3), nn.SyncBatchNorm(3), nn.LazyBatchNorm1d(),
            nn.InstanceNorm1d(3), nn.InstanceNorm2d(3, affine=True), nn.InstanceNorm3d(3), nn.LazyInstanceNorm2d(),
            nn.LayerNorm(3), nn.GroupNorm(1, 3)]


def test_norm_layers_are_norm_bases_and_batch_norms_as_torchs(torch):
    from core.nn.modules.batchnorm import _BatchNorm, _NormBase
    from core.nn.modules.instancenorm import _InstanceNorm

    bases = {"core": (_NormBase, _BatchNorm, _InstanceNorm),
             "torch": (torch.nn.modules.batchnorm._NormBase, torch.nn.modules.batchnorm._BatchNorm,
                       torch.nn.modules.instancenorm._InstanceNorm)}
    got = {name: [tuple(isinstance(layer, base) for base in bases[name]) for layer in _layers(lib)]
           for name, lib in (("core", core), ("torch", torch))}
    assert got["core"] == got["torch"]
    assert not issubclass(_InstanceNorm, _BatchNorm) and issubclass(_InstanceNorm, _NormBase)


def test_instance_norm_keeps_norm_base_state_dict_and_repr(torch):
    for affine, track in ((True, True), (False, False)):
        layers = [lib.nn.InstanceNorm2d(4, affine=affine, track_running_stats=track) for lib in (core, torch)]
        assert repr(layers[0]) == repr(layers[1])
        assert list(layers[0].state_dict()) == list(layers[1].state_dict())


def test_convert_sync_batchnorm_leaves_instance_norms_as_torchs(torch):
    made = []
    for lib in (core, torch):
        net = lib.nn.Sequential(lib.nn.Conv2d(2, 3, 1), lib.nn.InstanceNorm2d(3, track_running_stats=True),
                                lib.nn.BatchNorm2d(3))
        made.append([type(m).__name__ for m in lib.nn.SyncBatchNorm.convert_sync_batchnorm(net)])
    assert made[0] == made[1] == ["Conv2d", "InstanceNorm2d", "SyncBatchNorm"]


def test_swa_update_bn_resets_only_batch_norms_as_torchs(torch):
    x = np.random.default_rng(0).standard_normal((6, 3, 4, 4)).astype(np.float32)
    stats = []
    for lib in (core, torch):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Conv2d(3, 3, 1), lib.nn.InstanceNorm2d(3, track_running_stats=True),
                                lib.nn.BatchNorm2d(3))
        net[1].running_mean.fill_(5.0)
        net[1].eval()  # update_bn turns training on only for the layers it resets
        lib.optim.swa_utils.update_bn([lib.from_numpy(x)], net)
        stats.append([net[1].running_mean.numpy().copy(), net[2].running_mean.numpy().copy(), net[1].training])
    np.testing.assert_allclose(stats[0][0], stats[1][0], rtol=1e-6)
    np.testing.assert_allclose(stats[0][1], stats[1][1], rtol=1e-5, atol=1e-6)
    assert stats[0][2] == stats[1][2]


def test_replace_all_batch_norm_modules_skips_instance_norms_as_torchs(torch):
    kept = []
    for lib in (core, torch):
        net = lib.nn.Sequential(lib.nn.InstanceNorm2d(3, track_running_stats=True), lib.nn.BatchNorm2d(3))
        lib.func.replace_all_batch_norm_modules_(net)
        kept.append([m.track_running_stats for m in net])
    assert kept[0] == kept[1] == [True, False]


def test_distributed_nn_collectives_before_init_raise_torchs_value_error(torch):
    """torch checked in a fresh process: its functions bind ``group.WORLD`` as a default when first imported, so
    after another test's init/destroy cycle they hold a destroyed group and no longer raise."""
    code = ("import torch, torch.distributed.nn as n\ntry:\n    n.all_reduce(torch.ones(2))\n"
            "except ValueError as e:\n    print(e)")
    torchs = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True).stdout
    assert "Default process group has not been initialized" in torchs
    from core.distributed import nn as functional

    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        functional.all_reduce(core.ones(2))


_NAMES = ["all_reduce", "broadcast", "reduce", "all_gather", "gather", "all_to_all", "scatter", "reduce_scatter",
          "all_to_all_single"]


def _world(functional, lib):
    """``functional``'s collectives with the current default group passed to each call: their own default is bound
    when the module is first imported (torch's too) and may be a group another test destroyed."""
    group = lib.distributed.group.WORLD
    return types.SimpleNamespace(**{n: functools.partial(getattr(functional, n), group=group) for n in _NAMES})


_CALLS = {"all_reduce": lambda w, lib, y: w.all_reduce(y), "broadcast": lambda w, lib, y: w.broadcast(y, 0),
          "reduce": lambda w, lib, y: w.reduce(y, 0), "all_gather": lambda w, lib, y: w.all_gather(y),
          "gather": lambda w, lib, y: w.gather(y), "all_to_all": lambda w, lib, y: w.all_to_all([y.clone()], [y]),
          "scatter": lambda w, lib, y: w.scatter([y]),
          "reduce_scatter": lambda w, lib, y: w.reduce_scatter(lib.empty(2, 3), [y]),
          "all_to_all_single": lambda w, lib, y: w.all_to_all_single(lib.empty(2, 3), y)}


@pytest.mark.parametrize("name", _NAMES)
def test_distributed_nn_collectives_over_one_rank_as_torchs(name, world_of_one):
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    results = []
    for lib in world_of_one:
        functional = __import__(f"{lib.__name__}.distributed.nn.functional", fromlist=["all_reduce"])
        t = lib.tensor(x, requires_grad=True)
        y = t * 3.0
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = _CALLS[name](_world(functional, lib), lib, y)
        outs = out if isinstance(out, tuple) else (out,)
        (sum(o.sum() for o in outs) * lib.arange(1, 2).float()).sum().backward()
        results.append((type(out).__name__, len(outs), [o.detach().numpy().copy() for o in outs],
                        t.grad.numpy().copy(), [w.category.__name__ for w in caught], outs[0] is not y))
    (kind_t, n_t, vals_t, grad_t, warn_t, new_t), (kind_c, n_c, vals_c, grad_c, warn_c, new_c) = results
    assert (kind_c, n_c, warn_c, new_c) == (kind_t, n_t, warn_t, new_t)
    for a, b in zip(vals_c, vals_t):
        np.testing.assert_array_equal(a, b)
    if name != "gather":  # torch's _Gather backward scatters into an uninitialised buffer (its values are garbage)
        np.testing.assert_array_equal(grad_c, grad_t)


def test_barlow_twins_style_all_reduce_gradient_as_torchs(world_of_one):
    """A cross-correlation summed over ranks with ``dist.nn.all_reduce`` (lightly's BarlowTwinsLoss with
    ``gather_distributed=True``): the loss and the inputs' gradients."""
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal((8, 4)).astype(np.float32) for _ in range(2))
    got = []
    for lib in world_of_one:
        za, zb = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        na, nb = (za - za.mean(0)) / za.std(0), (zb - zb.mean(0)) / zb.std(0)
        c = lib.distributed.nn.all_reduce(na.T @ nb / 8)
        loss = (lib.diagonal(c) - 1).pow(2).sum() + 5e-3 * (c - lib.diag(lib.diagonal(c))).pow(2).sum()
        loss.backward()
        got.append((loss.item(), za.grad.numpy().copy(), zb.grad.numpy().copy()))
    assert got[0][0] == pytest.approx(got[1][0], rel=1e-6)
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[0][2], got[1][2], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0])
def test_cdist_of_transposed_token_features_as_torchs(p, torch):
    """cdist between a (batch, tokens, dim) view made by ``transpose`` (conv features flattened, as lightly's DSE
    regularizer's k-means++ passes them) and a few of its rows: core raised TypeError for p=2 on such a layout."""
    x = np.random.default_rng(3).standard_normal((4, 6, 9)).astype(np.float32)
    got = []
    for lib in (core, torch):
        feats = lib.from_numpy(x).transpose(1, 2).requires_grad_()
        d = lib.cdist(feats, feats[:, :2].detach(), p=p)
        d.sum().backward()
        got.append((d.detach().numpy().copy(), feats.grad.numpy().copy()))
    np.testing.assert_allclose(got[0][0], got[1][0], rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-5, atol=1e-6)

