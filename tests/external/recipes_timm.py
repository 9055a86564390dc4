"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

timm's own Python code on core (2026-12-05, corpus helper s18 TIMM): huggingface/pytorch-image-models at the commit
of its v1.0.28 release (Apache-2.0), its pure-Python package fetched beside each script (``TIMM_PACKAGE``: the 258
modules ``import timm, timm.optim, timm.scheduler, timm.loss, timm.data, timm.utils`` loads; not the deprecated
shims, ``timm.task`` or the TFDS/WebDataset/HF readers), with torchvision's package at recipes_torchvision's pin
(timm's layers import its ``FrozenBatchNorm2d`` and its data transforms its ``transforms``: the runner loads it in
both runs, ``runner._real_torchvision``). ``huggingface_hub`` and ``safetensors``, which timm imports guarded, are
absent from both runs: models are built with ``pretrained=False``. Each script is one of timm's package modules
(``timm/models/__init__.py``, ``timm/optim/__init__.py``...) run as the module it is (``__package__`` set, so its
relative imports resolve), with calls to ``corpus_timm.py``'s drivers appended.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_torchvision import TV, TV_PACKAGE

RECIPES: list[dict] = []

TIMM = ("huggingface/pytorch-image-models", "8ef73809f622e0031bd7f4940265734aef8b9978", "Apache-2.0")  # v1.0.28
_MODULES = {
    "": "__init__ version",
    "data": "__init__ auto_augment config constants dataset dataset_factory dataset_info distributed_sampler "
            "imagenet_info loader mixup naflex_dataset naflex_loader naflex_mixup naflex_random_erasing "
            "naflex_transforms random_erasing real_labels transforms transforms_factory",
    "data/readers": "__init__ class_map img_extensions reader reader_factory reader_image_folder reader_image_in_tar",
    "layers": "__init__ _fx activations activations_me adaptive_avgmax_pool attention attention2d attention_pool "
              "attention_pool2d blur_pool bottleneck_attn cbam classifier cond_conv2d config conv2d_same "
              "conv_bn_act coord_attn create_act create_attn create_conv2d create_norm create_norm_act "
              "diff_attention drop eca evo_norm fast_norm filter_response_norm format gather_excite global_context "
              "grid grn halo_attn helpers hybrid_embed inplace_abn interpolate lambda_layer layer_scale linear "
              "mixed_conv2d mlp non_local_attn norm norm_act other_pool padding patch_dropout patch_embed pool1d "
              "pool2d_same pos_embed pos_embed_rel pos_embed_sincos selective_kernel separable_conv space_to_depth "
              "split_attn split_batchnorm squeeze_excite std_conv test_time_pool trace_utils typing weight_init",
    "loss": "__init__ asymmetric_loss binary_cross_entropy cross_entropy jsd",
    "models": "__init__ _builder _efficientnet_blocks _efficientnet_builder _factory _features _features_fx "
              "_helpers _hub _manipulate _pretrained _prune _registry beit byoanet byobnet cait coat convit "
              "convmixer convnext crossvit csatv2 cspnet davit deit densenet dla dpn edgenext efficientformer "
              "efficientformer_v2 efficientnet efficientvit_mit efficientvit_msra eva fasternet fastvit focalnet "
              "gcvit gemma4_vit ghostnet hardcorenas hgnet hiera hieradet_sam2 hrnet inception_next "
              "inception_resnet_v2 inception_v3 inception_v4 levit mambaout maxxvit metaformer mlp_mixer "
              "mobilenetv3 mobilenetv5 mobilevit mvitv2 naflexvit nasnet nest nextvit nfnet pit pnasnet pvt_v2 "
              "rdnet regnet repghost repvit res2net resnest resnet resnetv2 rexnet selecsls senet sequencer shvit "
              "sknet starnet swiftformer swin_transformer swin_transformer_v2 swin_transformer_v2_cr tiny_vit tnt "
              "tresnet twins vgg visformer vision_transformer vision_transformer_hybrid vision_transformer_relpos "
              "vision_transformer_sam vitamin volo vovnet xception xception_aligned xcit",
    "optim": "__init__ _helpers _optim_factory _param_groups _types adabelief adafactor adafactor_bv adahessian "
             "adamp adamw adan adopt kron lamb laprop lars lion lookahead madgrad mars muon nadam nadamw "
             "nvnovograd radam rmsprop_tf sgdp sgdw",
    "scheduler": "__init__ cosine_lr multistep_lr plateau_lr poly_lr scheduler scheduler_factory step_lr tanh_lr",
    "utils": "__init__ agc attention_extract checkpoint_saver clip_grad cuda decay_batch distributed jit log "
             "metrics misc model model_ema random summary",
}
TIMM_PACKAGE = [(p, p) for folder, names in _MODULES.items() for name in names.split()
                for p in ["/".join(filter(None, ("timm", folder, f"{name}.py")))]]
SUPPORT = TIMM_PACKAGE + [(*TV[:2], path, target) for path, target in TV_PACKAGE]  # torchvision from its repository
DRIVERS = "__import__('corpus_timm')"


def _timm(name, module, first, last, *calls, xfail=None):
    """timm/MODULE.py run as its module (``first``, its first line, gets ``__package__`` before it), the ``calls``
    to the drivers appended after ``last``, its last line (``t`` names the drivers)."""
    package = ".".join(["timm", *module.split("/")[:-1]])
    return _r(f"timm_{name}", TIMM, f"timm/{module}.py",
              [(first, f"__package__ = {package!r}  # run as the package's module\n{first}"),
               (last, "\n".join([last, "", f"t = {DRIVERS}", *calls]))], support=SUPPORT, xfail=xfail)


MODELS = ("models/__init__", "from .beit import *", "    get_arch_pretrained_cfgs as get_arch_pretrained_cfgs,\n)")


def _models(name, *calls, **kw):
    return _timm(f"models_{name}", *MODELS, *calls, **kw)


RECIPES += [
    _models("resnets", "t.classify('resnet18', frozen_bn=True)",
            "t.classify('resnet50d', frozen_bn=True, layers=(1, 1, 1, 1))"),
    _models("efficientnet", "t.classify('efficientnet_b0', frozen_bn=True, drop_path_rate=0.1)",
            "t.classify('regnetx_002', frozen_bn=True)"),
    _models("mobilenetv3", "t.classify('mobilenetv3_small_100', frozen_bn=True)",
            "t.classify('mobilenetv3_large_100', frozen_bn=True)"),
    _models("convnext_atto", "t.classify('convnext_atto', drop_path_rate=0.1)"),
    _models("convnext_nano", "t.classify('convnext_nano', depths=(1, 1, 2, 1), ls_init_value=0.1)"),
    _models("vit", "t.classify('vit_tiny_patch16_224', img_size=32, drop_path_rate=0.1, show_model=True)",
            "t.classify('deit_tiny_distilled_patch16_224', img_size=32, depth=4)"),
    _models("swin", "t.classify('swin_tiny_patch4_window7_224', img_size=32, window_size=4, depths=(1, 1, 2, 1))"),
    _models("mixer", "t.classify('mixer_s16_224', img_size=32)"),
    _models("hybrids", "t.classify('coat_lite_tiny', img_size=32)",
            "t.classify('levit_128s', img_size=32, frozen_bn=True)", "t.classify('poolformer_s12', depths=(1, 1, 2, 1))"),
    _models("mobile_vits", "t.classify('edgenext_xx_small', frozen_bn=True)",
            "t.classify('mobilevit_xxs', frozen_bn=True, shape=(3, 64, 64))"),
    _models("fastvit_densenet", "t.classify('fastvit_t8', frozen_bn=True)", "t.classify('densenet121', frozen_bn=True)"),
    _models("features", "t.features('resnet10t')", "t.features('mobilenetv3_small_100', out_indices=(1, 3))",
            "t.features('convnext_atto', shape=(3, 32, 32))",
            "t.features('vit_tiny_patch16_224', img_size=32, depth=3, out_indices=(1, 2), shape=(3, 32, 32))",
            "t.intermediates('vit_tiny_patch16_224', img_size=32, depth=3)",
            "t.intermediates('convnext_atto')"),
    _models("registry", "t.models_tour()"),
]

LAYERS = ("layers/__init__", "from ._fx import (", "    init_weight_vit,\n)")
OPTIM = ("optim/__init__", "from .adabelief import AdaBelief",
         "from ._param_groups import param_groups_layer_decay, param_groups_weight_decay, auto_group_layers")
RECIPES += [
    _timm("layers_blocks", *LAYERS, "t.layers_tour()"),
    _timm("layers_transformer", *LAYERS, "t.layers_tour2()"),
    _timm("optim_sgd_adam", *OPTIM, "t.optimizers(['sgd', 'momentum', 'sgdp', 'sgdw', 'adam', 'adamw', 'adamp', "
                                    "'nadam', 'nadamw', 'radam', 'adamax', 'adabelief', 'radabelief', 'laprop', "
                                    "'cadamw', 'lookahead_adamw', 'lookahead_sgd'])"),
    _timm("optim_more", *OPTIM, "t.optimizers(['adafactor', 'adafactorbv', 'adopt', 'lamb', 'lambc', 'lars', "
                                "'larc', 'nlars', 'adadelta', 'adagrad', 'adan', 'adanw', 'adahessian', 'lion', "
                                "'clion', 'madgrad', 'mars', 'muon', 'novograd', 'rmsprop', 'rmsproptf'])"),
    _timm("scheduler", "scheduler/__init__", "from .cosine_lr import CosineLRScheduler",
          "from .scheduler_factory import create_scheduler, create_scheduler_v2, scheduler_kwargs", "t.schedulers()"),
    _timm("loss", "loss/__init__", "from .asymmetric_loss import AsymmetricLossMultiLabel, AsymmetricLossSingleLabel",
          "from .jsd import JsdCrossEntropy", "t.losses()"),
    _timm("data", "data/__init__", "from .auto_augment import RandAugment, AutoAugment, rand_augment_ops, "
                                   "auto_augment_policy,\\", "from .transforms_factory import create_transform",
          "t.data_tour()"),
    _timm("utils", "utils/__init__", "from .agc import adaptive_clip_grad",
          "from .summary import update_summary, get_outdir", "t.utils_tour()"),
]

# more families (each at a small size or depth; BatchNorm frozen as above)
TINY_VIT = "img_size=32, depth=2, embed_dim=64, num_heads=2"
_FAMILIES = {
    "vit_variants": [f"'vit_base_patch16_reg4_gap_256', {TINY_VIT}", f"'vit_medium_patch16_rope_reg1_gap_256', {TINY_VIT}",
                     f"'beit_base_patch16_224', {TINY_VIT}", "'eva02_tiny_patch14_224', img_size=28, depth=2, "
                     "shape=(3, 28, 28)", "'convit_tiny', img_size=32, depth=2"],
    "vit_variants2": ["'xcit_nano_12_p16_224', img_size=32, depth=2", "'cait_xxs24_224', img_size=32, depth=2",
                      "'pit_ti_224', img_size=32", "'tnt_s_patch16_224', img_size=32, depth=2"],
    "twins": ["'twins_svt_small', img_size=32, depths=(1, 1, 1, 1)"],
    "pvt": ["'pvt_v2_b0', shape=(3, 64, 64)"],
    "efficientformerv2": ["'efficientformerv2_s0', img_size=64, shape=(3, 64, 64), frozen_bn=True"],
    "gcvit_levit": ["'gcvit_xxtiny', img_size=64, shape=(3, 64, 64)", "'levit_conv_128s', img_size=32, frozen_bn=True"],
    "maxvit": ["'maxvit_nano_rw_256', img_size=64, shape=(3, 64, 64), frozen_bn=True, steps=1"],
    "coatnet": ["'coatnet_nano_rw_224', img_size=64, shape=(3, 64, 64), frozen_bn=True, steps=1"],
    "hiera": ["'hiera_tiny_224', img_size=64, shape=(3, 64, 64), steps=1"],
    "swinv2": ["'swinv2_tiny_window8_256', img_size=64, window_size=4, depths=(1, 1, 1, 1), shape=(3, 64, 64), "
               "steps=1"],
    "mambaout": ["'mambaout_femto', depths=(1, 1, 2, 1), shape=(3, 64, 64)"],
    "mobile_more": ["'lcnet_050', shape=(3, 64, 64), frozen_bn=True", "'starnet_s050', shape=(3, 64, 64), "
                    "frozen_bn=True", "'mobilenetv4_conv_small', shape=(3, 64, 64), frozen_bn=True",
                    "'tinynet_e', shape=(3, 64, 64), frozen_bn=True"],
    "mobile_reparam": ["'fasternet_t0', shape=(3, 64, 64), frozen_bn=True", "'repghostnet_050', shape=(3, 64, 64), "
                       "frozen_bn=True", "'regnety_002', shape=(3, 64, 64), frozen_bn=True"],
    "hgnet_shvit": ["'hgnetv2_b0', shape=(3, 64, 64), frozen_bn=True", "'shvit_s1', shape=(3, 64, 64), frozen_bn=True"],
    "efficient_more": ["'efficientvit_b0', shape=(3, 64, 64), frozen_bn=True", "'efficientvit_m0', img_size=64, "
                       "shape=(3, 64, 64), frozen_bn=True", "'hardcorenas_a', shape=(3, 64, 64), frozen_bn=True"],
    "mixnet": ["'mixnet_s', shape=(3, 64, 64), frozen_bn=True"],
    "tf_efficientnetv2": ["'tf_efficientnetv2_b0', shape=(3, 64, 64), frozen_bn=True"],
    "dpn_vovnet": ["'dpn48b', shape=(3, 64, 64), frozen_bn=True", "'ese_vovnet19b_dw', shape=(3, 64, 64), "
                   "frozen_bn=True"],
    "ghostnetv2": ["'ghostnetv2_100', shape=(3, 64, 64), frozen_bn=True"],
    "rexnet": ["'rexnet_100', shape=(3, 64, 64), frozen_bn=True"],
    "inception_next_res2net": ["'inception_next_atto', shape=(3, 64, 64)", "'res2net50_14w_8s', layers=(1, 1, 1, 1), "
                               "shape=(3, 64, 64), frozen_bn=True"],
    "repvgg_repvit": ["'repvgg_a0', shape=(3, 64, 64), frozen_bn=True", "'repvit_m0_9', shape=(3, 64, 64), "
                      "frozen_bn=True"],
    "resnest": ["'resnest14d', shape=(3, 64, 64), frozen_bn=True"],
    "senet": ["'legacy_seresnet18', shape=(3, 64, 64), frozen_bn=True"],
    "sknet": ["'skresnet18', shape=(3, 64, 64), frozen_bn=True"],
    "hrnet": ["'hrnet_w18_small', shape=(3, 64, 64), frozen_bn=True"],
    "nfnet_sequencer": ["'nf_regnet_b0', shape=(3, 64, 64)", "'sequencer2d_s', layers=(1, 1, 1, 1)"],
    "xception": ["'xception41', shape=(3, 64, 64), frozen_bn=True"],
    "cspnet": ["'cspresnet50', shape=(3, 64, 64), frozen_bn=True"],
    "botnet": ["'botnet26t_256', img_size=64, shape=(3, 64, 64), frozen_bn=True"],
    "lambda_resnet": ["'lambda_resnet26t', img_size=64, shape=(3, 64, 64), frozen_bn=True"],
    "convnextv2_hgnet": ["'convnextv2_atto'", "'hgnet_tiny', shape=(3, 64, 64), frozen_bn=True"],
    "regnetz": ["'regnetz_b16', shape=(3, 64, 64), frozen_bn=True"],
    "gcresnet": ["'gcresnet33ts', shape=(3, 64, 64), frozen_bn=True"],
    "tiny_vit": ["'tiny_vit_5m_224', shape=(3, 64, 64), frozen_bn=True, steps=1"],
    "darknet": ["'darknet17', shape=(3, 64, 64), frozen_bn=True", "'cs3darknet_focus_s', shape=(3, 64, 64), "
                "frozen_bn=True"],
    "ghostnetv3": ["'ghostnetv3_050', shape=(3, 64, 64), frozen_bn=True"],
    "vit_relpos_sam": ["'vit_small_patch16_18x2_224', img_size=32, depth=1", "'vit_relpos_small_patch16_224', "
                       "img_size=32, depth=2", "'vit_srelpos_small_patch16_224', img_size=32, depth=2",
                       f"'vit_base_patch16_siglip_224', {TINY_VIT}", "'samvit_base_patch16', img_size=64, depth=2, "
                       "embed_dim=64, num_heads=2, global_attn_indexes=(1,), window_size=2, shape=(3, 64, 64)",
                       "'naflexvit_base_patch16_gap', depth=2, embed_dim=64, num_heads=2"],
    "inception_v4": ["'inception_v4', shape=(3, 75, 75), frozen_bn=True"],
}
RECIPES += [_models(name, *(f"t.classify({args})" for args in calls)) for name, calls in _FAMILIES.items()]
RECIPES += [
    _models("training", "t.training_tour()"),
    _models("adaptation", "t.adaptation_tour()"),
    _timm("utils_analysis", "utils/__init__", "from .agc import adaptive_clip_grad",
          "from .summary import update_summary, get_outdir", "t.analysis_tour()"),
]
