"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Hugging Face transformers' own modeling code on core (2026-12-05, corpus helper HF): huggingface/transformers at its
v4.57.6 release (Apache-2.0), the Python files its modeling modules import fetched beside each script
(``HF_PACKAGE``). 4.57.6 rather than 5.x: the 5.x releases need huggingface_hub 1.x or 2.x, whose strict dataclasses
their configurations are built on (a stand-in would be a reimplementation), while 4.57.6 imports only names from
the Hub (``fake_hf_hub.py`` stands in for them, for safetensors and tokenizers, in both runs; the Hub's own
``serialization`` package, which ``save_pretrained`` calls, is fetched from huggingface_hub's v0.36.2 release) and
supports torch >= 2.2. The pin is the release tag (``v4.57.6``): the repository is too large to mirror whole here. Each script is
one of transformers' ``modeling_*.py`` files run as the module it is (``__package__`` set before its first line), a
call to a driver in ``corpus_hf.py`` inserted before its ``__all__`` with the module's namespace: tiny
random-initialised configs, forwards with padded masks, a few AdamW steps on the loss from ``labels``, greedy
``generate``; ``eager`` and ``sdpa`` attention.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

HF = ("huggingface/transformers", "v4.57.6", "Apache-2.0")  # the release tag (see above)
_MODULES = {
    "": "__init__ activations audio_utils cache_utils configuration_utils convert_slow_tokenizer "
        "dependency_versions_check dependency_versions_table dynamic_module_utils feature_extraction_utils "
        "image_processing_base image_processing_utils image_processing_utils_fast image_transforms image_utils "
        "masking_utils model_debugging_utils modeling_attn_mask_utils modeling_flash_attention_utils "
        "modeling_gguf_pytorch_utils modeling_layers modeling_outputs modeling_rope_utils modeling_utils "
        "optimization processing_utils pytorch_utils safetensors_conversion tokenization_utils "
        "tokenization_utils_base tokenization_utils_fast trainer_pt_utils trainer_utils video_processing_utils "
        "video_utils",
    "distributed": "__init__ configuration_utils",
    "generation": "__init__ candidate_generator configuration_utils logits_process stopping_criteria utils",
    "generation/continuous_batching": "__init__ cache cache_manager continuous_api requests scheduler",
    "integrations": "__init__ accelerate aqlm deepspeed eager_paged flash_attention flash_paged flex_attention fsdp "
                    "ggml hqq hub_kernels npu_flash_attention peft sdpa_attention sdpa_paged spqr tensor_parallel",
    "loss": "__init__ loss_d_fine loss_deformable_detr loss_for_object_detection loss_grounding_dino loss_rt_detr "
            "loss_utils",
    "models": "__init__",
    "models/auto": "__init__ auto_factory configuration_auto feature_extraction_auto image_processing_auto "
                   "modeling_auto processing_auto tokenization_auto",
    "models/encoder_decoder": "__init__ configuration_encoder_decoder",
    "onnx": "__init__ config utils",
    "quantizers": "__init__ auto base quantizer_aqlm quantizer_auto_round quantizer_awq quantizer_bitnet "
                  "quantizer_bnb_4bit quantizer_bnb_8bit quantizer_compressed_tensors quantizer_eetq "
                  "quantizer_fbgemm_fp8 quantizer_finegrained_fp8 quantizer_fp_quant quantizer_gptq quantizer_higgs "
                  "quantizer_hqq quantizer_mxfp4 quantizer_quanto quantizer_quark quantizer_spqr quantizer_torchao "
                  "quantizer_vptq quantizers_utils",
    "utils": "__init__ auto_docstring backbone_utils chat_template_utils constants deprecation doc dummy_flax_objects "
             "dummy_mistral_common_objects dummy_sentencepiece_and_tokenizers_objects dummy_tf_objects "
             "dummy_torchvision_objects dummy_vision_objects generic hub import_utils logging metrics "
             "model_parallel_utils peft_utils quantization_config versions fx",
}
_MODELS = ("bert", "distilbert", "gpt2", "llama", "roberta", "t5", "vit", "albert", "electra", "deberta_v2",
           "mistral", "qwen2", "gemma", "phi", "gpt_neox", "mixtral", "bart", "clip", "swin", "convnext", "resnet",
           "wav2vec2", "opt", "bloom", "falcon", "gptj", "codegen", "gpt_neo", "mpnet", "xlm_roberta", "funnel",
           "longformer", "deit", "beit", "dinov2", "regnet", "segformer", "pegasus", "marian", "whisper")
_EXTRA = {"whisper": " english_normalizer generation_whisper tokenization_whisper"}
HF_PACKAGE = [(f"src/{p}", p) for folder, names in
              [*_MODULES.items(), *((f"models/{m}", f"__init__ configuration_{m} modeling_{m}{_EXTRA.get(m, '')}")
                                   for m in _MODELS)]
              for name in names.split() for p in ["/".join(filter(None, ("transformers", folder, f"{name}.py")))]]
HUB = ("huggingface/huggingface_hub", "664c484e261175deeb80c2aa3b525457a1f6fa5c", "Apache-2.0")  # v0.36.2
HF_PACKAGE += [(*HUB[:2], f"src/huggingface_hub/serialization/{m}.py", f"huggingface_hub/serialization/{m}.py")
               for m in ("__init__", "_base", "_tensorflow", "_torch")]
DRIVERS = "__import__('corpus_hf')"


GENERATED = "#           This file was automatically generated from"  # the second line of a modular model's file


def _hf(name, model, call, first="# coding=utf-8\n"):
    """transformers/models/MODEL/modeling_MODEL.py run as its module (``__package__`` set before ``first``, a line
    before its imports), ``corpus_hf.CALL(globals())`` before its ``__all__``."""
    return _r(f"hf_{name}", HF, f"src/transformers/models/{model}/modeling_{model}.py",
              [(first, f"__package__ = 'transformers.models.{model}'  # run as the package's module\n{first}"),
               ("\n__all__ = ", f"\n{DRIVERS}.{call}(globals())\n\n__all__ = ")], support=HF_PACKAGE)


RECIPES += [
    _hf("bert", "bert", "bert"),
    _hf("bert_fx", "bert", "fx_tour"),
    _hf("bert_deploy", "bert", "deploy_tour"),
    _hf("bert_heads", "bert", "heads_tour"),
    _hf("roberta", "roberta", "roberta"),
    _hf("distilbert", "distilbert", "distilbert"),
    _hf("gpt2", "gpt2", "gpt2"),
    _hf("llama", "llama", "llama"),
    _hf("llama_generation", "llama", "generation_tour"),
    _hf("llama_training", "llama", "training_tour"),
    _hf("llama_save_load", "llama", "save_load_tour"),
    _hf("t5", "t5", "t5"),
    *(_hf(m, m, m) for m in ("albert", "electra", "deberta_v2", "bart", "clip", "swin", "convnext", "resnet",
                             "wav2vec2", "opt", "bloom", "falcon", "gptj", "codegen", "gpt_neo", "mpnet", "xlm_roberta", "funnel",
           "longformer", "deit", "beit", "dinov2", "regnet", "segformer", "pegasus", "marian", "whisper")),
    *(_hf(m, m, m, GENERATED) for m in ("mistral", "qwen2", "gemma", "phi", "gpt_neox", "mixtral")),
    _hf("vit", "vit", "vit"),
]
