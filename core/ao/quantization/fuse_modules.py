"""``fuse_modules``: conv+bn(+relu) folded into one conv (eval mode), conv+relu, linear+relu and bn+relu as the
``nn.intrinsic`` Sequentials ``convert`` quantizes as one module; the other modules of a group become
``nn.Identity``, as torch's."""

from __future__ import annotations

import copy

import core
from core.ao.nn import intrinsic
from core.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval

__all__ = ["fuse_known_modules", "fuse_modules"]


def _fused(mods: list):
    """The fused module for ``mods`` (one of torch's default patterns)."""
    nn = core.nn
    types = tuple(type(m) for m in mods)
    if types in ((nn.Conv2d, nn.BatchNorm2d), (nn.Conv2d, nn.BatchNorm2d, nn.ReLU)):
        if mods[0].training:
            raise AssertionError("Fusion only for eval!")
        conv = fuse_conv_bn_eval(mods[0], mods[1])
        return intrinsic.ConvReLU2d(conv, mods[2]) if len(mods) == 3 else conv
    if types == (nn.Linear, nn.BatchNorm1d):
        if mods[0].training:
            raise AssertionError("Fusion only for eval!")
        return fuse_linear_bn_eval(mods[0], mods[1])
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
    fused = _fused(mod_list)
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


def fuse_modules(model, modules_to_fuse, inplace: bool = False, fuser_func=fuse_known_modules,
                 fuse_custom_config_dict=None):
    """Fuses each group of submodule names in ``modules_to_fuse`` (one list, or a list of lists)."""
    if not inplace:
        model = copy.deepcopy(model)
    groups = modules_to_fuse if all(isinstance(g, (list, tuple)) for g in modules_to_fuse) else [modules_to_fuse]
    for group in groups:
        new = fuser_func([_get(model, n) for n in group])
        for name, mod in zip(group, new):
            _set(model, name, mod)
    return model
