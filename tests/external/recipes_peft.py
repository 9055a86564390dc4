"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Hugging Face peft's and diffusers' own packages on core (2026-12-05, corpus helper PEFT): huggingface/peft at its
v0.18.1 release (Apache-2.0; the first release after transformers 4.57 that still supports it) with transformers'
v4.57.6 package (``recipes_hf.HF_PACKAGE``) and accelerate's v1.12.0 package, which peft imports, fetched beside each
script. Each script is one of the library's own modules run as the module it is (``__package__`` set before its
first line) with a call to a driver in ``corpus_peft.py`` after its imports: small drivers in the style of peft's
docs and quicktour (``LoraConfig`` + ``get_peft_model``, ``print_trainable_parameters``, a few AdamW steps,
``merge_and_unload``, ``save_pretrained``/``from_pretrained`` of the adapter) on tiny random-initialised models.

huggingface/diffusers at its v0.36.0 release (Apache-2.0) the same way (its package but the pipelines other than
DDPM's and DDIM's, with the Hub's ``serialization`` package; ``fake_hf_hub`` stands in for the Hub, safetensors and
httpx, Pillow's modules are the runner's image-less stubs): drivers in the style of its docs and training examples
(``train_unconditional.py``): the DDPM, DDIM and Euler schedulers' ``add_noise``/``step`` loops, tiny
``UNet2DModel``/``UNet2DConditionModel`` training steps on the noise with an ``EMAModel``, classifier-free guidance,
a tiny ``AutoencoderKL``, and ``DDPMPipeline``/``DDIMPipeline`` with 3 steps from a seeded Generator
(``output_type`` "pt" and "np"; no "pil").
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_hf import HF, HF_PACKAGE
from recipes_lightning import ACCELERATE_FILES  # accelerate's modules (v1.14.0's list; v1.12.0 has the same)

RECIPES: list[dict] = []

PEFT = ("huggingface/peft", "e3398fc05c556f64a8e8dc248628bae657107488", "Apache-2.0")  # v0.18.1
ACCELERATE = ("huggingface/accelerate", "61ff83394592db1052be9e64ab46beb21d794d69", "Apache-2.0")  # v1.12.0
PEFT_FILES = """__init__ auto config functional helpers import_utils mapping mapping_func mixed_model optimizers/__init__
optimizers/lorafa optimizers/loraplus peft_model tuners/__init__ tuners/_buffer_dict tuners/adalora/__init__
tuners/adalora/bnb tuners/adalora/config tuners/adalora/gptq tuners/adalora/layer tuners/adalora/model
tuners/adaption_prompt/__init__ tuners/adaption_prompt/config tuners/adaption_prompt/layer
tuners/adaption_prompt/model tuners/adaption_prompt/utils tuners/boft/__init__ tuners/boft/config
tuners/boft/fbd/__init__ tuners/boft/layer tuners/boft/model tuners/bone/__init__ tuners/bone/config
tuners/bone/layer tuners/bone/model tuners/c3a/__init__ tuners/c3a/config tuners/c3a/layer tuners/c3a/model
tuners/c3a/utils tuners/cpt/__init__ tuners/cpt/config tuners/cpt/model tuners/delora/__init__
tuners/delora/config tuners/delora/layer tuners/delora/model tuners/fourierft/__init__
tuners/fourierft/config tuners/fourierft/layer tuners/fourierft/model tuners/hra/__init__ tuners/hra/config
tuners/hra/layer tuners/hra/model tuners/ia3/__init__ tuners/ia3/bnb tuners/ia3/config tuners/ia3/layer
tuners/ia3/model tuners/ln_tuning/__init__ tuners/ln_tuning/config tuners/ln_tuning/layer
tuners/ln_tuning/model tuners/loha/__init__ tuners/loha/config tuners/loha/layer tuners/loha/model
tuners/lokr/__init__ tuners/lokr/config tuners/lokr/layer tuners/lokr/model tuners/lora/__init__
tuners/lora/aqlm tuners/lora/arrow tuners/lora/awq tuners/lora/bnb tuners/lora/config tuners/lora/corda
tuners/lora/dora tuners/lora/eetq tuners/lora/eva tuners/lora/gptq tuners/lora/hqq tuners/lora/inc
tuners/lora/layer tuners/lora/model tuners/lora/torchao tuners/lora/tp_layer tuners/lora/variants
tuners/lycoris_utils tuners/miss/__init__ tuners/miss/config tuners/miss/layer tuners/miss/model
tuners/mixed/__init__ tuners/mixed/model tuners/multitask_prompt_tuning/__init__
tuners/multitask_prompt_tuning/config tuners/multitask_prompt_tuning/model tuners/oft/__init__
tuners/oft/aqlm tuners/oft/awq tuners/oft/bnb tuners/oft/config tuners/oft/eetq tuners/oft/gptq
tuners/oft/hqq tuners/oft/inc tuners/oft/layer tuners/oft/model tuners/osf/__init__ tuners/osf/config
tuners/osf/layer tuners/osf/model tuners/osf/utils tuners/p_tuning/__init__ tuners/p_tuning/config
tuners/p_tuning/model tuners/poly/__init__ tuners/poly/config tuners/poly/layer tuners/poly/model
tuners/poly/router tuners/prefix_tuning/__init__ tuners/prefix_tuning/config tuners/prefix_tuning/model
tuners/prompt_tuning/__init__ tuners/prompt_tuning/config tuners/prompt_tuning/model tuners/randlora/__init__
tuners/randlora/bnb tuners/randlora/config tuners/randlora/layer tuners/randlora/model tuners/road/__init__
tuners/road/bnb tuners/road/config tuners/road/layer tuners/road/model tuners/shira/__init__
tuners/shira/config tuners/shira/layer tuners/shira/mask_functions tuners/shira/model
tuners/trainable_tokens/__init__ tuners/trainable_tokens/config tuners/trainable_tokens/layer
tuners/trainable_tokens/model tuners/tuners_utils tuners/vblora/__init__ tuners/vblora/config
tuners/vblora/layer tuners/vblora/model tuners/vera/__init__ tuners/vera/bnb tuners/vera/config
tuners/vera/layer tuners/vera/model tuners/waveft/__init__ tuners/waveft/config tuners/waveft/constants
tuners/waveft/layer tuners/waveft/model tuners/waveft/wavelet tuners/waveft/waverec2d tuners/xlora/__init__
tuners/xlora/classifier tuners/xlora/config tuners/xlora/layer tuners/xlora/model utils/__init__
utils/constants utils/hotswap utils/incremental_pca utils/integrations utils/loftq_utils utils/merge_utils
utils/other utils/peft_types utils/save_and_load utils/warning """.split()
PEFT_PACKAGE = [*((*HF[:2], *entry) if len(entry) == 2 else entry for entry in HF_PACKAGE),
                *((*PEFT[:2], f"src/peft/{name}.py", f"peft/{name}.py") for name in PEFT_FILES),
                *((*ACCELERATE[:2], f"src/accelerate/{name}.py", f"accelerate/{name}.py") for name in ACCELERATE_FILES)]
DRIVERS = "__import__('corpus_peft')"
LICENCE_END = "# limitations under the License.\n"  # the licence header's last line (a file without __future__)


def _peft(name, path, call, anchor, first="from __future__ import annotations\n"):
    """peft's ``src/peft/PATH`` run as its module (``__package__`` set after ``first``, a line before its imports),
    ``corpus_peft.CALL()`` inserted before ``anchor`` (after the module's imports)."""
    package = ".".join(["peft", *path.split("/")[:-1]])
    return _r(f"peft_{name}", PEFT, f"src/peft/{path}",
              [(first, f"{first}__package__ = {package!r}  # run as the package's module\n"),
               (anchor, f"{DRIVERS}.{call if '(' in call else call + '()'}\n\n\n{anchor}")], support=PEFT_PACKAGE)


DIFFUSERS = ("huggingface/diffusers", "9380e58821092ad05e618fa8a259030136ba43c0", "Apache-2.0")  # v0.36.0
# its package but the pipelines (DDPM's and DDIM's and what every pipeline imports), its CLI and experiments
DIFFUSERS_FILES = """__init__ callbacks configuration_utils dependency_versions_check dependency_versions_table guiders/__init__
guiders/adaptive_projected_guidance guiders/adaptive_projected_guidance_mix guiders/auto_guidance
guiders/classifier_free_guidance guiders/classifier_free_zero_star_guidance
guiders/frequency_decoupled_guidance guiders/guider_utils guiders/perturbed_attention_guidance
guiders/skip_layer_guidance guiders/smoothed_energy_guidance guiders/tangential_classifier_free_guidance
hooks/__init__ hooks/_common hooks/_helpers hooks/context_parallel hooks/faster_cache hooks/first_block_cache
hooks/group_offloading hooks/hooks hooks/layer_skip hooks/layerwise_casting hooks/pyramid_attention_broadcast
hooks/smoothed_energy_guidance_utils hooks/taylorseer_cache hooks/utils image_processor loaders/__init__
loaders/ip_adapter loaders/lora_base loaders/lora_conversion_utils loaders/lora_pipeline loaders/peft
loaders/single_file loaders/single_file_model loaders/single_file_utils loaders/textual_inversion
loaders/transformer_flux loaders/transformer_sd3 loaders/unet loaders/unet_loader_utils loaders/utils
models/__init__ models/_modeling_parallel models/activations models/adapter models/attention
models/attention_dispatch models/attention_flax models/attention_processor models/auto_model
models/autoencoders/__init__ models/autoencoders/autoencoder_asym_kl models/autoencoders/autoencoder_dc
models/autoencoders/autoencoder_kl models/autoencoders/autoencoder_kl_allegro
models/autoencoders/autoencoder_kl_cogvideox models/autoencoders/autoencoder_kl_cosmos
models/autoencoders/autoencoder_kl_flux2 models/autoencoders/autoencoder_kl_hunyuan_video
models/autoencoders/autoencoder_kl_hunyuanimage models/autoencoders/autoencoder_kl_hunyuanimage_refiner
models/autoencoders/autoencoder_kl_hunyuanvideo15 models/autoencoders/autoencoder_kl_ltx
models/autoencoders/autoencoder_kl_magvit models/autoencoders/autoencoder_kl_mochi
models/autoencoders/autoencoder_kl_qwenimage models/autoencoders/autoencoder_kl_temporal_decoder
models/autoencoders/autoencoder_kl_wan models/autoencoders/autoencoder_oobleck
models/autoencoders/autoencoder_tiny models/autoencoders/consistency_decoder_vae models/autoencoders/vae
models/autoencoders/vq_model models/cache_utils models/controlnet models/controlnet_flux
models/controlnet_sd3 models/controlnet_sparsectrl models/controlnets/__init__ models/controlnets/controlnet
models/controlnets/controlnet_flax models/controlnets/controlnet_flux models/controlnets/controlnet_hunyuan
models/controlnets/controlnet_qwenimage models/controlnets/controlnet_sana models/controlnets/controlnet_sd3
models/controlnets/controlnet_sparsectrl models/controlnets/controlnet_union models/controlnets/controlnet_xs
models/controlnets/multicontrolnet models/controlnets/multicontrolnet_union models/downsampling
models/embeddings models/embeddings_flax models/lora models/model_loading_utils
models/modeling_flax_pytorch_utils models/modeling_flax_utils models/modeling_outputs
models/modeling_pytorch_flax_utils models/modeling_utils models/normalization models/resnet
models/resnet_flax models/transformers/__init__ models/transformers/auraflow_transformer_2d
models/transformers/cogvideox_transformer_3d models/transformers/consisid_transformer_3d
models/transformers/dit_transformer_2d models/transformers/dual_transformer_2d
models/transformers/hunyuan_transformer_2d models/transformers/latte_transformer_3d
models/transformers/lumina_nextdit2d models/transformers/pixart_transformer_2d
models/transformers/prior_transformer models/transformers/sana_transformer
models/transformers/stable_audio_transformer models/transformers/t5_film_transformer
models/transformers/transformer_2d models/transformers/transformer_allegro
models/transformers/transformer_bria models/transformers/transformer_bria_fibo
models/transformers/transformer_chroma models/transformers/transformer_chronoedit
models/transformers/transformer_cogview3plus models/transformers/transformer_cogview4
models/transformers/transformer_cosmos models/transformers/transformer_easyanimate
models/transformers/transformer_flux models/transformers/transformer_flux2
models/transformers/transformer_hidream_image models/transformers/transformer_hunyuan_video
models/transformers/transformer_hunyuan_video15 models/transformers/transformer_hunyuan_video_framepack
models/transformers/transformer_hunyuanimage models/transformers/transformer_kandinsky
models/transformers/transformer_ltx models/transformers/transformer_lumina2
models/transformers/transformer_mochi models/transformers/transformer_omnigen
models/transformers/transformer_ovis_image models/transformers/transformer_prx
models/transformers/transformer_qwenimage models/transformers/transformer_sana_video
models/transformers/transformer_sd3 models/transformers/transformer_skyreels_v2
models/transformers/transformer_temporal models/transformers/transformer_wan
models/transformers/transformer_wan_animate models/transformers/transformer_wan_vace
models/transformers/transformer_z_image models/unets/__init__ models/unets/unet_1d
models/unets/unet_1d_blocks models/unets/unet_2d models/unets/unet_2d_blocks models/unets/unet_2d_blocks_flax
models/unets/unet_2d_condition models/unets/unet_2d_condition_flax models/unets/unet_3d_blocks
models/unets/unet_3d_condition models/unets/unet_i2vgen_xl models/unets/unet_kandinsky3
models/unets/unet_motion_model models/unets/unet_spatio_temporal_condition models/unets/unet_stable_cascade
models/unets/uvit_2d models/upsampling models/vae_flax models/vq_model optimization quantizers/__init__
quantizers/auto quantizers/base quantizers/bitsandbytes/__init__ quantizers/bitsandbytes/bnb_quantizer
quantizers/bitsandbytes/utils quantizers/gguf/__init__ quantizers/gguf/gguf_quantizer quantizers/gguf/utils
quantizers/modelopt/__init__ quantizers/modelopt/modelopt_quantizer quantizers/pipe_quant_config
quantizers/quantization_config quantizers/quanto/__init__ quantizers/quanto/quanto_quantizer
quantizers/quanto/utils quantizers/torchao/__init__ quantizers/torchao/torchao_quantizer schedulers/__init__
schedulers/deprecated/__init__ schedulers/deprecated/scheduling_karras_ve
schedulers/deprecated/scheduling_sde_vp schedulers/scheduling_amused
schedulers/scheduling_consistency_decoder schedulers/scheduling_consistency_models
schedulers/scheduling_cosine_dpmsolver_multistep schedulers/scheduling_ddim
schedulers/scheduling_ddim_cogvideox schedulers/scheduling_ddim_flax schedulers/scheduling_ddim_inverse
schedulers/scheduling_ddim_parallel schedulers/scheduling_ddpm schedulers/scheduling_ddpm_flax
schedulers/scheduling_ddpm_parallel schedulers/scheduling_ddpm_wuerstchen
schedulers/scheduling_deis_multistep schedulers/scheduling_dpm_cogvideox
schedulers/scheduling_dpmsolver_multistep schedulers/scheduling_dpmsolver_multistep_flax
schedulers/scheduling_dpmsolver_multistep_inverse schedulers/scheduling_dpmsolver_sde
schedulers/scheduling_dpmsolver_singlestep schedulers/scheduling_edm_dpmsolver_multistep
schedulers/scheduling_edm_euler schedulers/scheduling_euler_ancestral_discrete
schedulers/scheduling_euler_discrete schedulers/scheduling_euler_discrete_flax
schedulers/scheduling_flow_match_euler_discrete schedulers/scheduling_flow_match_heun_discrete
schedulers/scheduling_flow_match_lcm schedulers/scheduling_heun_discrete schedulers/scheduling_ipndm
schedulers/scheduling_k_dpm_2_ancestral_discrete schedulers/scheduling_k_dpm_2_discrete
schedulers/scheduling_karras_ve_flax schedulers/scheduling_lcm schedulers/scheduling_lms_discrete
schedulers/scheduling_lms_discrete_flax schedulers/scheduling_pndm schedulers/scheduling_pndm_flax
schedulers/scheduling_repaint schedulers/scheduling_sasolver schedulers/scheduling_scm
schedulers/scheduling_sde_ve schedulers/scheduling_sde_ve_flax schedulers/scheduling_tcd
schedulers/scheduling_unclip schedulers/scheduling_unipc_multistep schedulers/scheduling_utils
schedulers/scheduling_utils_flax schedulers/scheduling_vq_diffusion training_utils utils/__init__
utils/accelerate_utils utils/constants utils/deprecation_utils utils/doc_utils
utils/dummy_bitsandbytes_objects utils/dummy_flax_and_transformers_objects utils/dummy_flax_objects
utils/dummy_gguf_objects utils/dummy_note_seq_objects utils/dummy_nvidia_modelopt_objects
utils/dummy_onnx_objects utils/dummy_optimum_quanto_objects utils/dummy_pt_objects
utils/dummy_torch_and_librosa_objects utils/dummy_torch_and_scipy_objects
utils/dummy_torch_and_torchsde_objects utils/dummy_torch_and_transformers_and_k_diffusion_objects
utils/dummy_torch_and_transformers_and_onnx_objects utils/dummy_torch_and_transformers_and_opencv_objects
utils/dummy_torch_and_transformers_and_sentencepiece_objects utils/dummy_torch_and_transformers_objects
utils/dummy_torchao_objects utils/dummy_transformers_and_torch_and_note_seq_objects
utils/dynamic_modules_utils utils/export_utils utils/hub_utils utils/import_utils utils/loading_utils
utils/logging utils/outputs utils/peft_utils utils/pil_utils utils/remote_utils
utils/source_code_parsing_utils utils/state_dict_utils utils/testing_utils utils/torch_utils
utils/typing_utils utils/versions video_processor
pipelines/__init__ pipelines/pipeline_utils pipelines/pipeline_loading_utils pipelines/transformers_loading_utils
pipelines/onnx_utils pipelines/ddpm/__init__ pipelines/ddpm/pipeline_ddpm pipelines/ddim/__init__
pipelines/ddim/pipeline_ddim""".split()

DIFFUSERS_PACKAGE = [*((*DIFFUSERS[:2], f"src/diffusers/{name}.py", f"diffusers/{name}.py") for name in DIFFUSERS_FILES),
                     *(entry for entry in HF_PACKAGE if "huggingface_hub/" in entry[-1])]  # the Hub's serialization


def _diffusers(name, path, call, anchor, support=()):
    """diffusers' ``src/diffusers/PATH`` run as its module (``__package__`` set after its licence header),
    ``corpus_peft.CALL()`` inserted before ``anchor`` (after the module's imports)."""
    package = ".".join(["diffusers", *path.split("/")[:-1]])
    return _r(f"diffusers_{name}", DIFFUSERS, f"src/diffusers/{path}",
              [(LICENCE_END, f"{LICENCE_END}__package__ = {package!r}  # run as the package's module\n"),
               (anchor, f"{DRIVERS}.{call if '(' in call else call + '()'}\n\n\n{anchor}")],
              support=[*DIFFUSERS_PACKAGE, *(e for e in support if e not in DIFFUSERS_PACKAGE)])


RECIPES += [
    _peft("lora_mlp", "mapping_func.py", "lora_mlp", "def get_peft_model("),
    _peft("lora_bert", "tuners/lora/model.py", "lora_bert", "class LoraModel("),
    *(_peft(f"lora_{m}", "peft_model.py", f"lora_causal_lm({m!r})", "class PeftModel(") for m in ("gpt2", "llama")),
    _peft("lora_seq2seq", "peft_model.py", "lora_seq2seq", "class PeftModel("),
    _peft("ia3", "tuners/ia3/model.py", "ia3", "class IA3Model("),
    *(_peft(f"{kind}_tuning_{m}", "tuners/prefix_tuning/model.py", f"prompt_learning({m!r}, {kind!r})",
            "class PrefixEncoder(", LICENCE_END) for m in ("gpt2", "llama") for kind in ("prefix", "prompt")),
    _peft("lycoris", "tuners/loha/model.py", "lycoris", "class LoHaModel(", LICENCE_END),
    *(_peft(f"tuners_{group}", "tuners/oft/model.py", f"more_tuners({group!r})", "class OFTModel(", LICENCE_END)
      for group in ("orthogonal", "random", "spectral", "sparse")),
    _peft("adalora", "tuners/adalora/model.py", "adalora", "class AdaLoraModel(", LICENCE_END),
    _diffusers("ddpm_scheduler", "schedulers/scheduling_ddpm.py", "schedulers('ddpm')", "@dataclass"),
    _diffusers("ddim_scheduler", "schedulers/scheduling_ddim.py", "schedulers('ddim')", "@dataclass"),
    _diffusers("euler_scheduler", "schedulers/scheduling_euler_discrete.py", "schedulers('euler')", "@dataclass"),
    _diffusers("more_schedulers", "schedulers/scheduling_dpmsolver_multistep.py", "more_schedulers",
               "class DPMSolverMultistepScheduler("),
    _diffusers("unet2d", "models/unets/unet_2d.py", "unet2d", "@dataclass"),
    _diffusers("unet2d_condition", "models/unets/unet_2d_condition.py", "unet2d_condition", "@dataclass"),
    _diffusers("autoencoder_kl", "models/autoencoders/autoencoder_kl.py", "autoencoder_kl", "class AutoencoderKL("),
    _diffusers("unet_lora", "models/unets/unet_2d_condition.py", "unet_lora", "@dataclass",
               support=PEFT_PACKAGE),
    _diffusers("ddpm_pipeline", "pipelines/ddpm/pipeline_ddpm.py", "pipeline('ddpm')", "class DDPMPipeline("),
    _diffusers("ddim_pipeline", "pipelines/ddim/pipeline_ddim.py", "pipeline('ddim')", "class DDIMPipeline("),
]
