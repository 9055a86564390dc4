"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Hugging Face peft's and diffusers' own packages on core (2026-12-05, corpus helper PEFT): huggingface/peft at its
v0.18.1 release (Apache-2.0; the first release after transformers 4.57 that still supports it) with transformers'
v4.57.6 package (``recipes_hf.HF_PACKAGE``) and accelerate's v1.12.0 package, which peft imports, fetched beside each
script. Each script is one of the library's own modules run as the module it is (``__package__`` set before its
first line) with a call to a driver in ``corpus_peft.py`` after its imports: small drivers in the style of peft's
docs and quicktour (``LoraConfig`` + ``get_peft_model``, ``print_trainable_parameters``, a few AdamW steps,
``merge_and_unload``, ``save_pretrained``/``from_pretrained`` of the adapter) on tiny random-initialised models.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_hf import HF, HF_PACKAGE

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
ACCELERATE_FILES = """__init__ accelerator big_modeling checkpointing commands/__init__ commands/accelerate_cli
commands/config/__init__ commands/config/cluster commands/config/config commands/config/config_args
commands/config/config_utils commands/config/default commands/config/sagemaker commands/config/update
commands/env commands/estimate commands/launch commands/menu/__init__ commands/menu/cursor
commands/menu/helpers commands/menu/input commands/menu/keymap commands/menu/selection_menu commands/merge
commands/test commands/to_fsdp2 commands/tpu commands/utils data_loader hooks inference launchers local_sgd
logging memory_utils optimizer parallelism_config scheduler state test_utils/__init__ test_utils/examples
test_utils/scripts/__init__ test_utils/scripts/external_deps/__init__
test_utils/scripts/external_deps/test_checkpointing test_utils/scripts/external_deps/test_ds_alst_ulysses_sp
test_utils/scripts/external_deps/test_ds_multiple_model test_utils/scripts/external_deps/test_metrics
test_utils/scripts/external_deps/test_peak_memory_usage test_utils/scripts/external_deps/test_performance
test_utils/scripts/external_deps/test_pippy test_utils/scripts/external_deps/test_zero3_integration
test_utils/scripts/test_cli test_utils/scripts/test_ddp_comm_hook
test_utils/scripts/test_distributed_data_loop test_utils/scripts/test_merge_weights
test_utils/scripts/test_notebook test_utils/scripts/test_ops test_utils/scripts/test_script
test_utils/scripts/test_sync test_utils/testing test_utils/training tracking utils/__init__ utils/ao
utils/bnb utils/constants utils/dataclasses utils/deepspeed utils/environment utils/fsdp_utils utils/imports
utils/launch utils/megatron_lm utils/memory utils/modeling utils/offload utils/operations utils/other
utils/random utils/rich utils/torch_xla utils/tqdm utils/transformer_engine utils/versions """.split()
PEFT_PACKAGE = [*((*HF[:2], *entry) if len(entry) == 2 else entry for entry in HF_PACKAGE),
                *((*PEFT[:2], f"src/peft/{name}.py", f"peft/{name}.py") for name in PEFT_FILES),
                *((*ACCELERATE[:2], f"src/accelerate/{name}.py", f"accelerate/{name}.py") for name in ACCELERATE_FILES)]
DRIVERS = "__import__('corpus_peft')"


def _peft(name, path, call, anchor, first="from __future__ import annotations\n"):
    """peft's ``src/peft/PATH`` run as its module (``__package__`` set after ``first``, a line before its imports),
    ``corpus_peft.CALL()`` inserted before ``anchor`` (after the module's imports)."""
    package = ".".join(["peft", *path.split("/")[:-1]])
    return _r(f"peft_{name}", PEFT, f"src/peft/{path}",
              [(first, f"{first}__package__ = {package!r}  # run as the package's module\n"),
               (anchor, f"{DRIVERS}.{call if '(' in call else call + '()'}\n\n\n{anchor}")], support=PEFT_PACKAGE)


LICENCE_END = "# limitations under the License.\n"  # the licence header's last line (a file without __future__)

RECIPES += [
    _peft("lora_mlp", "mapping_func.py", "lora_mlp", "def get_peft_model("),
    _peft("lora_bert", "tuners/lora/model.py", "lora_bert", "class LoraModel("),
    *(_peft(f"lora_{m}", "peft_model.py", f"lora_causal_lm({m!r})", "class PeftModel(") for m in ("gpt2", "llama")),
    _peft("ia3", "tuners/ia3/model.py", "ia3", "class IA3Model("),
    *(_peft(f"{kind}_tuning_{m}", "tuners/prefix_tuning/model.py", f"prompt_learning({m!r}, {kind!r})",
            "class PrefixEncoder(", LICENCE_END) for m in ("gpt2", "llama") for kind in ("prefix", "prompt")),
    _peft("lycoris", "tuners/loha/model.py", "lycoris", "class LoHaModel(", LICENCE_END),
    _peft("adalora", "tuners/adalora/model.py", "adalora", "class AdaLoraModel(", LICENCE_END),
]
