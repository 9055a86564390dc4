"""Eager-mode static quantization, as torch's ``quantize.py``: ``propagate_qconfig_`` (each submodule takes its
parent's qconfig unless it has its own), ``prepare`` (an ``activation_post_process`` observer after each
quantizable leaf, run by a forward hook), ``convert`` (each observed module swapped for its quantized twin via
``from_float``) and ``quantize`` (prepare, calibrate with ``run_fn``, convert)."""

from __future__ import annotations

import copy
import warnings

import core
from core.ao.nn import intrinsic
from core.ao.nn import quantized as nnq
from core.ao.quantization.fake_quantize import FakeQuantize
from core.ao.quantization.observer import ObserverBase
from core.ao.quantization.stubs import DeQuantStub, QuantStub

__all__ = ["convert", "get_default_qat_module_mappings", "get_default_static_quant_module_mappings", "prepare",
           "prepare_qat", "propagate_qconfig_", "quantize", "quantize_qat"]


def get_default_static_quant_module_mappings() -> dict:
    """Float module type -> its static quantized type (the ones core has)."""
    nn = core.nn
    return {QuantStub: nnq.Quantize, DeQuantStub: nnq.DeQuantize, nn.Conv2d: nnq.Conv2d, nn.Linear: nnq.Linear,
            nn.ReLU6: nnq.ReLU6, nn.Dropout: nnq.Dropout, nnq.FloatFunctional: nnq.QFunctional,
            intrinsic.ConvReLU2d: nnq.ConvReLU2d, intrinsic.LinearReLU: nnq.LinearReLU,
            **dict(zip(get_default_qat_module_mappings().values(),
                       (nnq.Conv2d, nnq.Linear, nnq.ConvReLU2d, nnq.LinearReLU, nnq.Conv2d, nnq.ConvReLU2d,
                        nnq.Linear)))}


def get_default_qat_module_mappings() -> dict:
    """Float module type -> its QAT type, as ``prepare_qat`` swaps them."""
    from core.ao.nn import qat
    from core.ao.nn.intrinsic import qat as intrinsic_qat

    return {core.nn.Conv2d: qat.Conv2d, core.nn.Linear: qat.Linear, intrinsic.ConvReLU2d: intrinsic_qat.ConvReLU2d,
            intrinsic.LinearReLU: intrinsic_qat.LinearReLU, intrinsic.ConvBn2d: intrinsic_qat.ConvBn2d,
            intrinsic.ConvBnReLU2d: intrinsic_qat.ConvBnReLU2d, intrinsic.LinearBn1d: intrinsic_qat.LinearBn1d}


def propagate_qconfig_(module, qconfig_dict=None, prepare_custom_config_dict=None) -> None:
    """Gives every submodule a ``qconfig`` attribute: its own, else its parent's (``qconfig_dict`` maps types or
    qualified names to qconfigs)."""
    qconfig_dict = qconfig_dict or {}

    def visit(mod, parent_qconfig, prefix):
        qconfig = qconfig_dict.get(type(mod), parent_qconfig)
        qconfig = qconfig_dict.get(prefix, qconfig)
        qconfig = getattr(mod, "qconfig", qconfig)
        mod.qconfig = qconfig
        for name, child in mod.named_children():
            visit(child, qconfig, prefix + ("." if prefix else "") + name)

    visit(module, None, "")


def _observer_forward_hook(self, input, output):
    return self.activation_post_process(output)


def _add_observer_(module, observed: tuple) -> None:
    for child in module.children():
        if type(child) is core.nn.Dropout:  # (torch leaves it unobserved, and convert swaps it all the same)
            continue
        if type(child) is nnq.FloatFunctional:  # (its ops call their observer themselves)
            if getattr(child, "qconfig", None) is not None:
                child.activation_post_process = child.qconfig.activation()
        elif isinstance(child, intrinsic._FusedModule) or type(child) in observed:
            if getattr(child, "qconfig", None) is not None and not isinstance(child, DeQuantStub):
                child.add_module("activation_post_process", child.qconfig.activation())
                child.register_forward_hook(_observer_forward_hook)
        else:
            _add_observer_(child, observed)


def prepare(model, inplace: bool = False, allow_list=None, observer_non_leaf_module_list=None,
            prepare_custom_config_dict=None):
    """``model`` with observers after its quantizable modules (those with a qconfig)."""
    from core.ao.quantization import DEPRECATION_WARNING

    warnings.warn(DEPRECATION_WARNING, DeprecationWarning, stacklevel=2)
    if not inplace:
        model = copy.deepcopy(model)
    propagate_qconfig_(model)
    if not any(getattr(m, "qconfig", None) is not None for m in model.modules()):
        warnings.warn("None of the submodule got qconfig applied. Make sure you passed correct configuration "
                      "through `qconfig_dict` or by assigning the `.qconfig` attribute directly on submodules",
                      stacklevel=2)
    _add_observer_(model, tuple(get_default_static_quant_module_mappings()))
    return model


def _swap(mod, mapping: dict):
    if getattr(mod, "qconfig", None) is None or type(mod) not in mapping:
        return mod
    new = mapping[type(mod)].from_float(mod)
    for hook in mod._forward_pre_hooks.values():
        new.register_forward_pre_hook(hook)
    for hook in mod._forward_hooks.values():
        if hook is not _observer_forward_hook:
            new.register_forward_hook(hook)
    new.train(mod.training)
    return new


def _convert(module, mapping: dict) -> None:
    for name, child in list(module.named_children()):
        if not isinstance(child, intrinsic._FusedModule) and type(child) not in mapping:
            _convert(child, mapping)
        setattr(module, name, _swap(child, mapping))


def _remove_qconfig(module) -> None:
    for mod in module.modules():
        if "qconfig" in mod.__dict__:
            del mod.qconfig
        if isinstance(mod._modules.get("activation_post_process"), (ObserverBase, FakeQuantize)):
            del mod._modules["activation_post_process"]
            for key, hook in list(mod._forward_hooks.items()):
                if hook is _observer_forward_hook:
                    del mod._forward_hooks[key]


def convert(module, mapping=None, inplace: bool = False, remove_qconfig: bool = True,
            is_reference: bool = False, convert_custom_config_dict=None, use_precomputed_fake_quant: bool = False):
    """``module`` with each observed submodule swapped for its quantized twin (qparams from its observers)."""
    from core.ao.quantization import DEPRECATION_WARNING

    warnings.warn(DEPRECATION_WARNING, DeprecationWarning, stacklevel=2)
    if not inplace:
        module = copy.deepcopy(module)
    _convert(module, mapping or get_default_static_quant_module_mappings())
    if remove_qconfig:
        _remove_qconfig(module)
    return module


def quantize(model, run_fn, run_args, mapping=None, inplace: bool = False):
    """``prepare``, ``run_fn(model, *run_args)`` to calibrate, then ``convert``, on a copy in eval mode."""
    from core.ao.quantization import DEPRECATION_WARNING

    warnings.warn(DEPRECATION_WARNING, DeprecationWarning, stacklevel=2)
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    prepare(model, inplace=True)
    run_fn(model, *run_args)
    convert(model, mapping, inplace=True)
    return model


def prepare_qat(model, mapping=None, inplace: bool = False):
    """``model`` (in training mode) with its Conv2d/Linear (fused or not) swapped for their QAT twins, whose
    weights are fake-quantized, and a fake quantizer after each, ready to train and then ``convert``."""
    from core.ao.quantization import DEPRECATION_WARNING

    warnings.warn(DEPRECATION_WARNING, DeprecationWarning, stacklevel=2)
    if not model.training:
        raise AssertionError("prepare_qat only works on models in training mode")
    if not inplace:
        model = copy.deepcopy(model)
    propagate_qconfig_(model)
    _convert(model, mapping or get_default_qat_module_mappings())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        prepare(model, inplace=True)
    return model


def quantize_qat(model, run_fn, run_args, inplace: bool = False):
    """``prepare_qat``, ``run_fn(model, *run_args)`` to train, then ``convert`` in eval mode."""
    if not inplace:
        model = copy.deepcopy(model)
    model.train()
    prepare_qat(model, inplace=True)
    run_fn(model, *run_args)
    convert(model, inplace=True)
    return model
