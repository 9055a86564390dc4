"""``torch.ao.quantization`` (also ``torch.quantization``): ``quantize_dynamic``, as the dynamic quantization
tutorial uses it, and eager-mode static quantization (``QuantStub``, ``fuse_modules``, ``prepare``, ``convert``,
``quantize``: see ``quantize.py``).

``quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)`` returns a copy of ``model`` (``inplace=False``), in eval
mode, whose ``nn.Linear`` submodules (exactly that type, as torch's mapping matches) are
``torch.ao.nn.quantized.dynamic.Linear``, numerically FBGEMM's (see that module), and its ``nn.LSTM``/``nn.GRU``
ones ``dynamic.LSTM``/``GRU`` when asked. The specification may be a set of module types or a dict of types or
submodule names; only ``nn.Linear``, ``nn.LSTM`` and ``nn.GRU`` with ``qint8`` are converted: the RNN cells torch's
default specification also lists, ``float16`` and the weight-only ``quint8`` embeddings stay float here. Like
torch 2.13, each call warns that ``torch.ao.quantization`` is deprecated.
"""

from __future__ import annotations

import copy
import warnings

import core
from core import _dtype
from core._quantized import qint8
from core.ao.nn.quantized.dynamic import GRU as DynamicGRU
from core.ao.nn.quantized.dynamic import LSTM as DynamicLSTM
from core.ao.nn.quantized.dynamic import Linear as DynamicLinear
from core.ao.quantization import observer, qconfig
from core.ao.quantization.observer import MinMaxObserver, PerChannelMinMaxObserver, PlaceholderObserver
from core.ao.quantization.qconfig import (
    QConfig,
    default_dynamic_qconfig,
    default_qconfig,
    get_default_qconfig,
    per_channel_dynamic_qconfig,
)

__all__ = ["DEPRECATION_WARNING", "DeQuantStub", "HistogramObserver", "MinMaxObserver", "PerChannelMinMaxObserver",
           "PlaceholderObserver", "QConfig", "QuantStub", "QuantWrapper", "convert", "default_dynamic_qconfig",
           "default_qconfig", "fuse_modules", "get_default_dynamic_quant_module_mappings", "get_default_qconfig",
           "get_default_static_quant_module_mappings", "observer", "per_channel_dynamic_qconfig", "prepare",
           "propagate_qconfig_", "qconfig", "quantize", "quantize_dynamic"]

DEPRECATION_WARNING = (
    "torch.ao.quantization is deprecated and will be removed in 2.10. \n"
    "For migrations of users: \n"
    "1. Eager mode quantization (torch.ao.quantization.quantize, torch.ao.quantization.quantize_dynamic), please "
    "migrate to use torchao eager mode quantize_ API instead \n"
    "2. FX graph mode quantization (torch.ao.quantization.quantize_fx.prepare_fx,torch.ao.quantization.quantize_fx."
    "convert_fx, please migrate to use torchao pt2e quantization API instead (prepare_pt2e, convert_pt2e) \n"
    "3. pt2e quantization has been migrated to torchao (https://github.com/pytorch/ao/tree/main/torchao/quantization"
    "/pt2e) \n"
    "see https://github.com/pytorch/ao/issues/2259 for more details")


def get_default_dynamic_quant_module_mappings() -> dict:
    """Float module type -> its dynamic quantized type (``nn.Linear``, ``nn.LSTM`` and ``nn.GRU`` in core)."""
    return {core.nn.Linear: DynamicLinear, core.nn.LSTM: DynamicLSTM, core.nn.GRU: DynamicGRU}


def _selected(spec, dtype) -> tuple[dict, dict]:
    """``{type: qconfig}`` and ``{submodule name: qconfig}``: what ``spec`` asks to quantize, and how."""
    if spec is None:
        if dtype is not qint8 and dtype is not _dtype.float16:
            raise ValueError(f"Don't know how to quantize with default settings for {dtype}. Provide full qconfig "
                             "please")
        spec = {core.nn.Linear, core.nn.LSTM, core.nn.GRU}
    elif isinstance(spec, set) and dtype is not qint8 and dtype is not _dtype.float16:
        raise RuntimeError("Unknown dtype specified for quantize_dynamic: ", str(dtype))
    chosen = dict(spec) if isinstance(spec, dict) else dict.fromkeys(spec, default_dynamic_qconfig)  # (None: skip)
    return ({k: q for k, q in chosen.items() if isinstance(k, type)},
            {k: q for k, q in chosen.items() if isinstance(k, str)})


def _qconfig(child, qualified: str, types: dict, names: dict):
    """The qconfig that applies to a submodule: by its name (the longest enclosing one), else by its type."""
    enclosing = [n for n in names if qualified == n or qualified.startswith(n + ".")]
    return names[max(enclosing, key=len)] if enclosing else types.get(type(child))


def _convert(module, types: dict, names: dict, mapping: dict, prefix: str = "") -> None:
    for name, child in list(module.named_children()):
        qualified = f"{prefix}{name}"
        qconfig = _qconfig(child, qualified, types, names)
        target = mapping.get(type(child))
        if qconfig is not None and target is not None:
            setattr(module, name, target.from_float(child, qconfig=qconfig))
        else:
            _convert(child, types, names, mapping, qualified + ".")


def quantize_dynamic(model, qconfig_spec=None, dtype=qint8, mapping=None, inplace: bool = False):
    """``model`` with its Linear layers dynamically quantized (see the module docstring)."""
    warnings.warn(DEPRECATION_WARNING, DeprecationWarning, stacklevel=2)
    types, names = _selected(qconfig_spec, dtype)
    if not inplace:
        model = copy.deepcopy(model)
    model.eval()
    if dtype is qint8:
        _convert(model, types, names, mapping or get_default_dynamic_quant_module_mappings())
    return model


from core.ao.quantization.fake_quantize import (  # noqa: E402
    FakeQuantize,
    FusedMovingAvgObsFakeQuantize,
    default_fake_quant,
    default_per_channel_weight_fake_quant,
    default_weight_fake_quant,
    disable_fake_quant,
    disable_observer,
    enable_fake_quant,
    enable_observer,
)
from core.ao.quantization.fuse_modules import (  # noqa: E402  (they import DEPRECATION_WARNING)
    fuse_modules,
    fuse_modules_qat,
)
from core.ao.quantization.observer import (  # noqa: E402
    HistogramObserver,
    MovingAverageMinMaxObserver,
    MovingAveragePerChannelMinMaxObserver,
    default_observer,
    default_per_channel_weight_observer,
    default_weight_observer,
)
from core.ao.quantization.qconfig import get_default_qat_qconfig  # noqa: E402
from core.ao.quantization.quantize import (  # noqa: E402
    convert,
    get_default_qat_module_mappings,
    get_default_static_quant_module_mappings,
    prepare,
    prepare_qat,
    propagate_qconfig_,
    quantize,
    quantize_qat,
)
from core.ao.quantization.stubs import DeQuantStub, QuantStub, QuantWrapper  # noqa: E402

__all__ += ["FakeQuantize", "FusedMovingAvgObsFakeQuantize", "MovingAverageMinMaxObserver",
            "MovingAveragePerChannelMinMaxObserver", "default_fake_quant", "default_observer",
            "default_per_channel_weight_fake_quant", "default_per_channel_weight_observer",
            "default_weight_fake_quant", "default_weight_observer", "disable_fake_quant", "disable_observer",
            "enable_fake_quant", "enable_observer", "fuse_modules_qat", "get_default_qat_module_mappings",
            "get_default_qat_qconfig",
            "prepare_qat", "quantize_qat"]
