"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

open_clip's own Python code on core (2026-12-05, corpus helper s21 OPENCLIP): mlfoundations/open_clip at its v3.3.0
release (MIT), its package fetched beside each script (``OPENCLIP_PACKAGE``: every module of ``src/open_clip``, its
144 model configs and its BPE vocabulary, ``bpe_simple_vocab_16e6.txt.gz``, which ``import open_clip`` reads to build
its default tokenizer; and the modules of ``src/open_clip_train`` the drivers call: ``distributed``, ``precision``,
``scheduler``, ``train``, ``zero_shot``), with timm's (``recipes_timm.TIMM_PACKAGE``, v1.0.28: its towers) and torchvision's
(``recipes_torchvision``'s pin: its transforms) beside it. The CoCa scripts hold transformers' package too
(``recipes_hf.HF_PACKAGE``, v4.57.6, with its ``generation/beam_search.py``): CoCa's ``generate`` takes its logits
processors, stopping criteria and ``BeamSearchScorer`` from it. The runner loads all of them in both runs;
``fake_openclip_deps.py`` stands in for ftfy, regex, the Hub, safetensors and tqdm. Each script is open_clip's
``__init__.py`` run as the package's module (``__package__`` set before its first line) with calls to
``corpus_openclip.py``'s drivers appended: small model configs of ours built without pretrained weights.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_hf import HF, HF_PACKAGE
from recipes_timm import TIMM, TIMM_PACKAGE
from recipes_torchvision import TV, TV_PACKAGE

RECIPES: list[dict] = []

OPENCLIP = ("mlfoundations/open_clip", "30573618fc375b12f094ef64cb3a1391cf611c45", "MIT")  # v3.3.0
_MODULES = """__init__ coca_model constants convert factory hf_configs hf_model loss model modified_resnet openai
pos_embed pretrained push_to_hf_hub timm_model tokenizer transform transformer utils version zero_shot_classifier
zero_shot_metadata"""
_CONFIGS = """EVA01-g-14-plus EVA01-g-14 EVA02-B-16 EVA02-E-14-plus EVA02-E-14 EVA02-L-14-336 EVA02-L-14 MobileCLIP-B
MobileCLIP-S1 MobileCLIP-S2 MobileCLIP2-B MobileCLIP2-L-14 MobileCLIP2-S0 MobileCLIP2-S2 MobileCLIP2-S3
MobileCLIP2-S4 PE-Core-B-16 PE-Core-L-14-336 PE-Core-S-16-384 PE-Core-T-16-384 PE-Core-bigG-14-448 RN101-quickgelu
RN101 RN50-quickgelu RN50 RN50x16-quickgelu RN50x16 RN50x4-quickgelu RN50x4 RN50x64-quickgelu RN50x64
ViT-B-16-SigLIP-256 ViT-B-16-SigLIP-384 ViT-B-16-SigLIP-512 ViT-B-16-SigLIP-i18n-256 ViT-B-16-SigLIP
ViT-B-16-SigLIP2-256 ViT-B-16-SigLIP2-384 ViT-B-16-SigLIP2-512 ViT-B-16-SigLIP2 ViT-B-16-plus-240 ViT-B-16-plus
ViT-B-16-quickgelu ViT-B-16 ViT-B-32-256 ViT-B-32-SigLIP2-256 ViT-B-32-plus-256 ViT-B-32-quickgelu ViT-B-32
ViT-H-14-378-quickgelu ViT-H-14-378 ViT-H-14-CLIPA-336 ViT-H-14-CLIPA ViT-H-14-quickgelu ViT-H-14-worldwide-378
ViT-H-14-worldwide-quickgelu ViT-H-14-worldwide ViT-H-14 ViT-H-16 ViT-L-14-280 ViT-L-14-336-quickgelu ViT-L-14-336
ViT-L-14-CLIPA-336 ViT-L-14-CLIPA ViT-L-14-quickgelu ViT-L-14-worldwide-quickgelu ViT-L-14-worldwide ViT-L-14
ViT-L-16-320 ViT-L-16-SigLIP-256 ViT-L-16-SigLIP-384 ViT-L-16-SigLIP2-256 ViT-L-16-SigLIP2-384 ViT-L-16-SigLIP2-512
ViT-L-16 ViT-M-16-alt ViT-M-16 ViT-M-32-alt ViT-M-32 ViT-S-16-alt ViT-S-16 ViT-S-32-alt ViT-S-32
ViT-SO400M-14-SigLIP-378 ViT-SO400M-14-SigLIP-384 ViT-SO400M-14-SigLIP ViT-SO400M-14-SigLIP2-378
ViT-SO400M-14-SigLIP2 ViT-SO400M-16-SigLIP-i18n-256 ViT-SO400M-16-SigLIP2-256 ViT-SO400M-16-SigLIP2-384
ViT-SO400M-16-SigLIP2-512 ViT-bigG-14-CLIPA-336 ViT-bigG-14-CLIPA ViT-bigG-14-quickgelu ViT-bigG-14-worldwide-378
ViT-bigG-14-worldwide ViT-bigG-14 ViT-e-14 ViT-g-14 ViT-gopt-16-SigLIP2-256 ViT-gopt-16-SigLIP2-384 ViTamin-B-LTT
ViTamin-B ViTamin-L-256 ViTamin-L-336 ViTamin-L-384 ViTamin-L ViTamin-L2-256 ViTamin-L2-336 ViTamin-L2-384
ViTamin-L2 ViTamin-S-LTT ViTamin-S ViTamin-XL-256 ViTamin-XL-336 ViTamin-XL-384 coca_ViT-B-32 coca_ViT-L-14
coca_base coca_roberta-ViT-B-32 convnext_base convnext_base_w convnext_base_w_320 convnext_large convnext_large_d
convnext_large_d_320 convnext_small convnext_tiny convnext_xlarge convnext_xxlarge convnext_xxlarge_320
mt5-base-ViT-B-32 mt5-xl-ViT-H-14 nllb-clip-base-siglip nllb-clip-base nllb-clip-large-siglip nllb-clip-large
roberta-ViT-B-32 swin_base_patch4_window7_224 vit_medium_patch16_gap_256 vit_relpos_medium_patch16_cls_224
xlm-roberta-base-ViT-B-32 xlm-roberta-large-ViT-H-14"""
OPENCLIP_PACKAGE = ([(f"src/open_clip/{m}.py", f"open_clip/{m}.py") for m in _MODULES.split()]
                    + [(f"src/open_clip/model_configs/{c}.json", f"open_clip/model_configs/{c}.json")
                       for c in _CONFIGS.split()]
                    + [("src/open_clip/bpe_simple_vocab_16e6.txt.gz", "open_clip/bpe_simple_vocab_16e6.txt.gz")]
                    + [(f"src/open_clip_train/{m}.py", f"open_clip_train/{m}.py")
                       for m in ("__init__", "distributed", "precision", "scheduler", "train", "zero_shot")])
SUPPORT = (OPENCLIP_PACKAGE + [(*TIMM[:2], path, target) for path, target in TIMM_PACKAGE]
           + [(*TV[:2], path, target) for path, target in TV_PACKAGE])
WITH_HF = SUPPORT + [(*HF[:2], *entry) if len(entry) == 2 else entry for entry in HF_PACKAGE] + [
    (*HF[:2], f"src/transformers/generation/{m}.py", f"transformers/generation/{m}.py")
    for m in ("beam_search", "beam_constraints")]
FIRST = "from .version import __version__"
LAST = "from .zero_shot_metadata import OPENAI_IMAGENET_TEMPLATES, SIMPLE_IMAGENET_TEMPLATES, IMAGENET_CLASSNAMES"


FP16_ATTENTION = ("float16 attention: the OpenAI-format model's weights are float16 and its attention runs through "
                  "scaled_dot_product_attention in float16, which PyTorch's CPU flash kernel computes on its half "
                  "brgemm path (CPU-dependent, as litgpt's bf16 one) and core as float32 products rounded to half "
                  "where that kernel stores (_flash_reduced): on the 2026-12-05 machine 20% of a 17x16 head's "
                  "outputs differ by a float16 ulp or two, which the towers carry to the 4th digit (0.10516 vs "
                  "0.10492)")


def _oc(name, *calls, xfail=None, hf=False):
    """open_clip's ``__init__.py`` run as the package's module, the ``calls`` to ``corpus_openclip``'s drivers (``o``)
    after it."""
    return _r(f"openclip_{name}", OPENCLIP, "src/open_clip/__init__.py",
              [(FIRST, f"__package__ = 'open_clip'  # run as the package's module\n{FIRST}"),
               (LAST, "\n".join([LAST, "", "o = __import__('corpus_openclip')", *calls]))],
              support=WITH_HF if hf else SUPPORT, xfail=xfail)


RECIPES += [
    _oc("vit", "o.clip('tiny-vit', o.vit_cfg(), show_model=True)"),
    _oc("model_tour", "o.model_tour('tiny-vit', o.vit_cfg())"),
    _oc("tokenizer", "o.tokenizers()"),
    _oc("losses", "o.losses()"),
    _oc("transformer", "o.transformer_pieces()"),
    _oc("coca", "o.coca()"),
    _oc("coca_generate", "o.coca(steps=0, generate=[('top_k', {'top_k': 5}), ('top_p', {'top_p': 0.5}), "
        "('beam_search', {'num_beams': 4, 'num_beam_groups': 2, 'min_seq_len': 2})])", hf=True),
    _oc("text_towers", "o.text_towers(argmax={}, first={'pool_type': 'first'}, last={'pool_type': 'last', "
        "'no_causal_mask': True}, cls={'embed_cls': True}, eos={'pool_type': 'eos', 'eos_id': 49407, 'proj_bias': "
        "True}, mlp={'proj_type': 'mlp'}, no_proj={'proj_type': 'none'}, layer_scale={'ls_init_value': 0.1}, "
        "custom={'block_type': 'custom', 'qk_norm': True, 'scale_fc': True})"),
    _oc("vision_towers", "o.vision_towers(tok={}, avg={'pool_type': 'avg'}, none={'pool_type': 'none'}, "
        "attn_pool={'attentional_pool': True, 'attn_pooler_queries': 4, 'attn_pooler_heads': 2, "
        "'output_tokens': True}, sincos={'pos_embed_type': 'sin_cos_2d', 'no_ln_pre': True}, "
        "final_ln={'final_ln_after_pool': True, 'pool_type': 'avg', 'ls_init_value': 0.1}, "
        "custom={'block_type': 'custom', 'scale_heads': True, 'scale_attn_inner': True}, "
        "patch_dropout={'patch_dropout': 0.5})"),
]
RECIPES += [
    _oc("rn", "o.clip('tiny-rn', o.rn_cfg())", "o.resnet_tour()"),
    _oc("timm_vit", "o.clip('timm-vit', o.timm_cfg('test_vit', timm_pool='', timm_proj='linear'))"),
    # (rot_attn pooling needs a model whose default config names its pool size: timm's test models name none)
    _oc("timm_resnet_attnpool", "o.clip('timm-rn-rot', o.timm_cfg('resnet10t', timm_pool='rot_attn', timm_proj='', "
        "image_size=32), steps=1)"),
    _oc("timm_convnext_mlp", "o.clip('timm-convnext', o.timm_cfg('test_convnext', timm_pool='avg', "
        "timm_proj='mlp', timm_drop=0.1, timm_drop_path=0.1))"),
    _oc("siglip", "o.clip('tiny-sigmoid', o.vit_cfg(init_logit_bias=-10, custom_text=True, "
        "vision={'pool_type': 'avg', 'final_ln_after_pool': True}, text={'pool_type': 'last', "
        "'no_causal_mask': True, 'proj_bias': True, 'norm_kwargs': {'eps': 1e-6}}))"),
    _oc("custom_text", "o.clip('tiny-custom', o.vit_cfg(custom_text=True, text={'embed_cls': True, "
        "'pool_type': 'first', 'proj_type': 'mlp'}))", "o.model_tour('tiny-custom-tour', o.vit_cfg(custom_text=True))"),
    _oc("forced", "o.clip('tiny-forced', o.vit_cfg(), force_quick_gelu=True, force_patch_dropout=0.25, "
        "force_image_size=24, force_context_length=10)"),
    _oc("attn_pool_clip", "o.clip('tiny-attnpool', o.vit_cfg(vision={'attentional_pool': True, "
        "'attn_pooler_queries': 4, 'attn_pooler_heads': 4, 'pos_embed_type': 'sin_cos_2d', 'ls_init_value': 0.1, "
        "'act_kwargs': {'approximate': 'tanh'}}, text={'ls_init_value': 0.1}, nonscalar_logit_scale=True))"),
    _oc("zero_shot", "o.zero_shot()"),
    _oc("schedulers", "o.schedulers()"),
    _oc("factory", "o.factory_tour()"),
    _oc("preprocessing", "o.preprocessing()"),
    _oc("openai_weights", "o.openai_weights(half_forward=False)"),
    _oc("fp16", "o.openai_weights()", xfail=FP16_ATTENTION),
    _oc("hf_text", "o.hf_text()", hf=True),
    _oc("train", "o.training()"),
    _oc("train_accum", "o.training(epochs=1, accum_freq=3)"),
    _oc("train_distill", "o.training(epochs=1, distill=True)"),
    _oc("train_coca", "o.training('tiny-coca-train', epochs=1, coca=True)"),
    _oc("local_dir", "o.local_dir()"),
    _oc("partial_locks", "o.partial_locks()"),
    _oc("coca_generate_options", "o.coca(steps=0, generate=[('top_k', {'top_k': 3, 'temperature': 0.7, "
        "'repetition_penalty': 1.3, 'fixed_output_length': True, 'min_seq_len': 3}), ('top_p', {'top_p': 0.9, "
        "'text': o.torch.tensor([[49406, 320, 1125]]).repeat(2, 1)}), ('beam_search', {'num_beams': 2, "
        "'num_beam_groups': 1, 'min_seq_len': 3, 'fixed_output_length': True})])", hf=True),
]
