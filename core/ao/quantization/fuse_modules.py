"""``fuse_modules``: conv+bn(+relu) folded into one conv (eval mode), conv+relu, linear+relu and bn+relu as the
``nn.intrinsic`` Sequentials ``convert`` quantizes as one module; the other modules of a group become
``nn.Identity``, as torch's. ``fuse_modules_qat`` keeps conv+bn(+relu) unfolded as ``intrinsic.ConvBn2d``/
``ConvBnReLU2d`` for ``prepare_qat``."""

from __future__ import annotations

import copy

import core
from core.ao.nn import intrinsic
from core.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval

__all__ = ["fuse_known_modules", "fuse_modules", "fuse_modules_qat"]


def _check_bn(conv, bn, is_qat: bool) -> None:
    """torch's checks before a conv and its batch norm fuse: the same mode, and for QAT a batch norm that matches
    the conv and tracks statistics with affine parameters."""
    if conv.training != bn.training:
        raise AssertionError("Conv and BN both must be in the same mode (train or eval).")
    if is_qat:
        if bn.num_features != conv.out_channels:
            raise AssertionError("Output channel of Conv2d must match num_features of BatchNorm2d.")
        if not bn.affine:
            raise AssertionError("Only support fusing BatchNorm2d with affine set to True")
        if not bn.track_running_stats:
            raise AssertionError("Only support fusing BatchNorm2d with tracking_running_stats set to True")


def _fused(mods: list, is_qat: bool = False):
    """The fused module for ``mods`` (one of torch's default patterns); conv+bn(+relu) stay unfolded for QAT."""
    nn = core.nn
    types = tuple(type(m) for m in mods)
    if types in ((nn.Conv2d, nn.BatchNorm2d), (nn.Conv2d, nn.BatchNorm2d, nn.ReLU)):
        _check_bn(mods[0], mods[1], is_qat)
        if is_qat:
            return intrinsic.ConvBnReLU2d(*mods) if len(mods) == 3 else intrinsic.ConvBn2d(*mods)
        conv = fuse_conv_bn_eval(mods[0], mods[1])
        return intrinsic.ConvReLU2d(conv, mods[2]) if len(mods) == 3 else conv
    if types == (nn.Linear, nn.BatchNorm1d):
        linear, bn = mods
        if linear.training != bn.training:
            raise AssertionError("Linear and BN both must be in the same mode (train or eval).")
        if not is_qat:
            return fuse_linear_bn_eval(linear, bn)
        if bn.num_features != linear.out_features:
            raise AssertionError("Output features of Linear must match num_features of BatchNorm1d")
        if not bn.affine:
            raise AssertionError("Only support fusing BatchNorm1d with affine set to True")
        if not bn.track_running_stats:
            raise AssertionError("Only support fusing BatchNorm1d with tracking_running_stats set to True")
        return intrinsic.LinearBn1d(linear, bn)
    if types == (nn.Conv2d, nn.ReLU):
        return intrinsic.ConvReLU2d(*mods)
    if types == (nn.Linear, nn.ReLU):
        return intrinsic.LinearReLU(*mods)
    if types == (nn.BatchNorm2d, nn.ReLU):
        return intrinsic.BNReLU2d(*mods)
    raise AssertionError(f"did not find fuser method for: {types} ")


def fuse_known_modules(mod_list, is_qat=False, additional_fuser_method_mapping=None):
    """``[fused, Identity, ...]`` for a list of modules, the fused one keeping the first's pre hooks and the last's
    hooks, as torch's."""
    fused = _fused(mod_list, is_qat)
    for hook in mod_list[0]._forward_pre_hooks.values():
        fused.register_forward_pre_hook(hook)
    for hook in mod_list[-1]._forward_hooks.values():
        fused.register_forward_hook(hook)
    identities = [core.nn.Identity() for _ in mod_list[1:]]
    for identity, mod in zip(identities, mod_list[1:]):
        identity.training = mod.training
    return [fused, *identities]


def _get(model, name: str):
    for part in name.split("."):
        model = getattr(model, part)
    return model


def _set(model, name: str, value) -> None:
    *parents, last = name.split(".")
    for part in parents:
        model = getattr(model, part)
    setattr(model, last, value)


def _fuse_modules(model, modules_to_fuse, is_qat: bool, inplace: bool, fuser_func):
    if not inplace:
        model = copy.deepcopy(model)
    groups = modules_to_fuse if all(isinstance(g, (list, tuple)) for g in modules_to_fuse) else [modules_to_fuse]
    for group in groups:
        new = fuser_func([_get(model, n) for n in group], is_qat, None)
        for name, mod in zip(group, new):
            _set(model, name, mod)
    return model


def fuse_modules(model, modules_to_fuse, inplace: bool = False, fuser_func=fuse_known_modules,
                 fuse_custom_config_dict=None):
    """Fuses each group of submodule names in ``modules_to_fuse`` (one list, or a list of lists), folding batch
    norms into convs (eval mode)."""
    return _fuse_modules(model, modules_to_fuse, False, inplace, fuser_func)


def fuse_modules_qat(model, modules_to_fuse, inplace: bool = False, fuser_func=fuse_known_modules,
                     fuse_custom_config_dict=None):
    """``fuse_modules`` for quantization-aware training (training mode): conv+bn(+relu) become
    ``intrinsic.ConvBn2d``/``ConvBnReLU2d``, which ``prepare_qat`` turns into QAT modules that keep training the
    batch norm."""
    return _fuse_modules(model, modules_to_fuse, True, inplace, fuser_func)
