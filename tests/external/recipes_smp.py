"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

segmentation_models.pytorch's own Python code on core (2026-12-05, corpus helper s20 SMP):
qubvel-org/segmentation_models.pytorch at its v0.5.0 release (MIT), its package fetched beside each script
(``SMP_PACKAGE``: every module of ``segmentation_models_pytorch``) with timm's (``recipes_timm.TIMM_PACKAGE``, v1.0.28)
and torchvision's (``recipes_torchvision``'s pin), which smp's encoders import. The runner loads all three in both runs;
``fake_smp_deps.py`` stands in for ``huggingface_hub`` (with its ``PyTorchModelHubMixin``), ``safetensors`` and ``tqdm``.
Each script is smp's ``__init__.py`` run as the package's module (``__package__`` set before its first line) with
calls to ``corpus_smp.py``'s drivers appended: every architecture from ``smp.create_model`` with small encoders and
``encoder_weights=None``, classification heads, encoders, losses, metrics, ``save_pretrained``/``from_pretrained``
and the binary-segmentation example's training loop on seeded images.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_timm import TIMM, TIMM_PACKAGE
from recipes_torchvision import TV, TV_PACKAGE

RECIPES: list[dict] = []

SMP = ("qubvel-org/segmentation_models.pytorch", "420ce84b0c2df0286fa9bb2bd1499eea625c9b33", "MIT")  # v0.5.0
_MODULES = """__init__ __version__ base/__init__ base/heads base/hub_mixin base/initialization base/model
base/modules base/utils datasets/__init__ datasets/oxford_pet decoders/__init__ decoders/deeplabv3/__init__
decoders/deeplabv3/decoder decoders/deeplabv3/model decoders/dpt/__init__ decoders/dpt/decoder decoders/dpt/model
decoders/fpn/__init__ decoders/fpn/decoder decoders/fpn/model decoders/linknet/__init__ decoders/linknet/decoder
decoders/linknet/model decoders/manet/__init__ decoders/manet/decoder decoders/manet/model decoders/pan/__init__
decoders/pan/decoder decoders/pan/model decoders/pspnet/__init__ decoders/pspnet/decoder decoders/pspnet/model
decoders/segformer/__init__ decoders/segformer/decoder decoders/segformer/model decoders/unet/__init__
decoders/unet/decoder decoders/unet/model decoders/unetplusplus/__init__ decoders/unetplusplus/decoder
decoders/unetplusplus/model decoders/upernet/__init__ decoders/upernet/decoder decoders/upernet/model
encoders/__init__ encoders/_base encoders/_dpn encoders/_efficientnet encoders/_inceptionresnetv2
encoders/_inceptionv4 encoders/_legacy_pretrained_settings encoders/_preprocessing encoders/_senet encoders/_utils
encoders/_xception encoders/densenet encoders/dpn encoders/efficientnet encoders/inceptionresnetv2
encoders/inceptionv4 encoders/mix_transformer encoders/mobilenet encoders/mobileone encoders/resnet encoders/senet
encoders/timm_efficientnet encoders/timm_sknet encoders/timm_universal encoders/timm_vit encoders/vgg
encoders/xception losses/__init__ losses/_functional losses/constants losses/dice losses/focal losses/jaccard
losses/lovasz losses/mcc losses/soft_bce losses/soft_ce losses/tversky metrics/__init__ metrics/functional
utils/__init__ utils/base utils/functional utils/losses utils/meter utils/metrics utils/train"""
SMP_PACKAGE = [(p, p) for name in _MODULES.split() for p in [f"segmentation_models_pytorch/{name}.py"]]
SUPPORT = (SMP_PACKAGE + [(*TIMM[:2], path, target) for path, target in TIMM_PACKAGE]
           + [(*TV[:2], path, target) for path, target in TV_PACKAGE])
FIRST = "from . import datasets"
LAST = '    "__version__",\n]'


def _smp(name, *calls, xfail=None):
    """smp's ``__init__.py`` run as the package's module, the ``calls`` to ``corpus_smp``'s drivers (``s``) after it."""
    return _r(f"smp_{name}", SMP, "segmentation_models_pytorch/__init__.py",
              [(FIRST, f"__package__ = 'segmentation_models_pytorch'  # run as the package's module\n{FIRST}"),
               (LAST, "\n".join([LAST, "", "s = __import__('corpus_smp')", *calls]))], support=SUPPORT, xfail=xfail)


RECIPES += [
    _smp("unet", "s.segment('Unet', 'resnet18', steps=1)", "s.segment('Unet', 'tu-test_resnet', depth=3, decoder_channels=(64, 32, 16), size=64)"),
    _smp("unet_aux", "s.segment('Unet', 'tu-test_resnet', aux=True, decoder_attention_type='scse')"),
    # one step: the second step's gradient norm follows float32 rounding (0.7639 vs 0.7636; in float64 core's and
    # torch's agree to 15 digits)
    _smp("unetplusplus", "s.segment('UnetPlusPlus', 'resnet18', depth=4, decoder_channels=(64, 32, 16, 8), steps=1)"),
    _smp("fpn", "s.segment('FPN', 'tu-test_resnet')", "s.segment('FPN', 'tu-test_efficientnet', decoder_merge_policy='cat')"),
    _smp("pspnet", "s.segment('PSPNet', 'tu-test_resnet', aux=True)"),
    _smp("deeplabv3", "s.segment('DeepLabV3', 'tu-test_resnet', decoder_channels=64)"),
    _smp("deeplabv3plus", "s.segment('DeepLabV3Plus', 'tu-test_resnet', decoder_channels=64)"),
    _smp("linknet", "s.segment('Linknet', 'tu-test_resnet')", "s.segment('Linknet', 'mobilenet_v2', steps=1)"),
    _smp("manet", "s.segment('MAnet', 'tu-test_resnet', decoder_channels=(64, 32, 16, 8, 4))"),
    _smp("pan", "s.segment('PAN', 'tu-test_resnet', decoder_channels=16, size=128, steps=1)"),
    _smp("upernet", "s.segment('UPerNet', 'tu-test_resnet', decoder_channels=32)"),
    _smp("segformer", "s.segment('Segformer', 'tu-test_resnet', decoder_segmentation_channels=32)",
         "s.segment('Segformer', 'mit_b0', steps=1)"),
    _smp("dpt", "s.segment('DPT', 'tu-test_vit', size=32, steps=1)"),
    _smp("efficientnet", "s.segment('Unet', 'efficientnet-b0', steps=1)",
         "s.segment('FPN', 'timm-efficientnet-b0', steps=1)"),
    _smp("timm_universal", "s.segment('Unet', 'tu-test_convnext', depth=4, decoder_channels=(64, 32, 16, 8))", "s.segment('FPN', 'tu-mobilenetv3_small_050')",
         "s.segment('Unet', 'tu-test_byobnet')"),
    _smp("encoders", "s.encoders('resnet18', 'mobilenet_v2')"),
    _smp("encoders_more", "s.encoders('mit_b0', 'timm-regnetx_002', 'timm-efficientnet-b0')"),
    _smp("losses", "s.losses()"),
    _smp("metrics", "s.metrics()"),
    _smp("pretrained", "s.pretrained_round_trip()",
         "s.pretrained_round_trip('DeepLabV3Plus', 'mobilenet_v2', aux_params={'classes': 3})"),
    _smp("train_binary", "s.training_loop('FPN', 'tu-test_resnet')"),
]


def _smp_test(name, path, first):
    """tests/PATH, one of smp's own test modules, run by pytest in the script's process (``corpus_pruning.run_pytest``:
    each test's outcome printed), smp's package beside it."""
    run = ("if __name__ == '__main__':  # the module run by pytest, which imports it again\n"
           "    __import__('corpus_pruning').run_pytest(__file__)\n    raise SystemExit\n")
    return _r(f"smp_test_{name}", SMP, f"tests/{path}", [(first, run + first)], support=SUPPORT)


RECIPES += [
    _smp_test("losses", "test_losses.py", "import pytest\n"),
    _smp_test("preprocessing", "test_preprocessing.py", "import numpy as np\n"),
]
