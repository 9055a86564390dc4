"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

The rest of Sebastian Raschka's "Build a Large Language Model (From Scratch)" (rasbt/LLMs-from-scratch at
28c65cdfbc, 2026-04-16, the newest commit the mirror holds and the one recipes_classics' ``rasbt_*`` recipes pin;
2026-12-06, corpus helper s28 LLM):

- ``llm_model_*``: chapter 5's bonus from-scratch models (Llama 3.2, Qwen3 dense and MoE, Gemma 3, OLMo 3, Tiny
  Aya, Qwen3.5 with its Gated DeltaNet layers; each with and without its KV cache) at a small size (the config's
  sizes overridden just before the model is built, dtype kept) and their seeded initialisation; where the notebook
  would download the released weights and tokenizer, ``corpus_llm.decoder`` prints the logits of a seeded batch,
  greedy generation (through the notebook's ``KVCache``) and two AdamW steps.
- ``llm_ch04_*``: chapter 4's bonus attention variants (multi-head latent attention, sliding-window attention,
  mixture of experts), generating greedily in bfloat16 from a small seeded model (``--emb_dim`` and friends).
- ``llm_ch06_*``/``llm_ch07_*``: chapters 6 and 7's scripts in their ``--test_mode`` (the book's own small model
  and data cut), on ``corpus_llm``'s seeded spam-collection stand-in and the repository's instruction data; pandas
  is ``corpus_llm.pandas``; losses print with every digit.
- ``llm_ch06_experiment_*``: chapter 6's bonus experiments (random weights; trainable layers, token positions, LoRA,
  padding, causal mask options) on a shrunk GPT-2; ``llm_ch06_notebook``, ``llm_appendix_e`` (LoRA),
  ``llm_ch07_notebook`` and ``llm_ch07_dpo``: the notebooks with GPT-2 shrunk to its seeded initialisation instead
  of OpenAI's weights, shorter data and generation.
- ``llm_pkg_test_*``: the ``llms_from_scratch`` package's own tests through pytest (beside the package).

Not covered: ch05's Llama 2/3 conversion notebooks (several full-size configs, sentencepiece and Hugging Face
downloads between their cells), ``10_llm-training-speed`` and ch04's FLOPs notebook (GPU, thop).
"""

from __future__ import annotations

from recipe_kit import RASBT, _r

RECIPES: list[dict] = []

NO_VERSIONS = ('    print(f"{p} version: {version(p)}")', "    pass  # huggingface_hub, tokenizers: not installed")


def _model(name, path, build, config, tiny, stop, xfail=None, support=()):
    """A standalone from-scratch model notebook, ``config`` overridden by ``tiny`` just before ``build`` (the line
    that builds the model), ``corpus_llm.decoder`` run and the script stopped at ``stop`` (where the released
    weights or the tokenizer would be downloaded)."""
    override = f"{config} = {{**{config}, **{tiny}}}\n"
    drive = ("__import__('corpus_llm').decoder(model, model.cfg['vocab_size'] if hasattr(model, 'cfg') else "
             f"{config}['vocab_size'], globals())\nraise SystemExit  # the rest loads the released weights\n")
    return _r(f"llm_model_{name}", RASBT, path, [NO_VERSIONS, (build, override + build), (stop, drive + stop)],
              xfail=xfail, support=support)


SMALL = {"vocab_size": 512, "context_length": 64, "emb_dim": 64, "n_heads": 4, "n_layers": 2, "hidden_dim": 128}
QWEN = {**SMALL, "head_dim": 16, "n_kv_groups": 2}
SLIDING = {"sliding_window": 4, "layer_types": ["sliding_attention", "full_attention"]}
LLAMA32 = {**SMALL, "n_kv_groups": 2, "rope_freq": {"factor": 4.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                                     "original_context_length": 32}}
QWEN_MOE = {**QWEN, "num_experts": 4, "num_experts_per_tok": 2, "moe_hidden_dim": 32}
GEMMA3 = {**SMALL, "head_dim": 16, "n_kv_groups": 2, "query_pre_attn_scalar": 16, **SLIDING}
OLMO3 = {**SMALL, "head_dim": 16, "n_kv_heads": 2, "rope_orig_max": 32, **SLIDING}
AYA = {**SMALL, "head_dim": 16, "n_kv_heads": 2, **SLIDING}
QWEN35 = {**QWEN, "linear_key_head_dim": 16, "linear_value_head_dim": 16, "linear_num_key_heads": 2,
          "linear_num_value_heads": 4, "layer_types": ["linear_attention", "full_attention"]}
QWEN35_HELPERS = [("ch05/16_qwen3.5/qwen3_5_transformers.py", "qwen3_5_transformers.py")]  # its Gated DeltaNet

RECIPES += [
    _model("llama32", "ch05/07_gpt_to_llama/standalone-llama32.ipynb", "model = Llama3Model(LLAMA32_CONFIG)",
           "LLAMA32_CONFIG", LLAMA32, "import tiktoken\nfrom tiktoken.load import load_tiktoken_bpe"),
    _model("qwen3", "ch05/11_qwen3/standalone-qwen3.ipynb", "model = Qwen3Model(QWEN3_CONFIG)", "QWEN3_CONFIG",
           QWEN, "def load_weights_into_qwen("),
    _model("qwen3_kv", "ch05/11_qwen3/standalone-qwen3-plus-kvcache.ipynb", "model = Qwen3Model(QWEN3_CONFIG)",
           "QWEN3_CONFIG", QWEN, "def load_weights_into_qwen("),
    _model("qwen3_moe", "ch05/11_qwen3/standalone-qwen3-moe.ipynb", "with device:\n    model = Qwen3Model(QWEN3_CONFIG)",
           "QWEN3_CONFIG", QWEN_MOE, "def load_weights_into_qwen("),
    _model("qwen3_moe_kv", "ch05/11_qwen3/standalone-qwen3-moe-plus-kvcache.ipynb",
           "with device:\n    model = Qwen3Model(QWEN3_CONFIG)", "QWEN3_CONFIG", QWEN_MOE, "def load_weights_into_qwen("),
    _model("gemma3", "ch05/12_gemma3/standalone-gemma3.ipynb", "model = Gemma3Model(GEMMA3_CONFIG_270M)",
           "GEMMA3_CONFIG_270M", GEMMA3, "def load_weights_into_gemma("),
    _model("gemma3_kv", "ch05/12_gemma3/standalone-gemma3-plus-kvcache.ipynb", "model = Gemma3Model(GEMMA3_CONFIG_270M)",
           "GEMMA3_CONFIG_270M", GEMMA3, "def load_weights_into_gemma("),
    _model("olmo3", "ch05/13_olmo3/standalone-olmo3.ipynb", "model = Olmo3Model(OLMO3_CONFIG)", "OLMO3_CONFIG", OLMO3,
           "def load_weights_into_olmo("),
    _model("olmo3_kv", "ch05/13_olmo3/standalone-olmo3-plus-kv-cache.ipynb", "model = Olmo3Model(OLMO3_CONFIG)",
           "OLMO3_CONFIG", OLMO3, "def load_weights_into_olmo("),
    _model("tiny_aya", "ch05/15_tiny-aya/standalone-tiny-aya.ipynb", "model = TinyAyaModel(TINY_AYA_CONFIG)",
           "TINY_AYA_CONFIG", AYA, "from tokenizers import Tokenizer"),
    _model("tiny_aya_kv", "ch05/15_tiny-aya/standalone-tiny-aya-plus-kv-cache.ipynb",
           "model = TinyAyaModel(TINY_AYA_CONFIG)", "TINY_AYA_CONFIG", AYA, "from tokenizers import Tokenizer"),
    _model("qwen35", "ch05/16_qwen3.5/qwen3.5.ipynb", "model = Qwen3_5Model(QWEN3_5_CONFIG)", "QWEN3_5_CONFIG", QWEN35,
           "def load_weights_into_qwen3_5(", support=QWEN35_HELPERS),
    _model("qwen35_kv", "ch05/16_qwen3.5/qwen3.5-plus-kv-cache.ipynb", "model = Qwen3_5Model(QWEN3_5_CONFIG)",
           "QWEN3_5_CONFIG", QWEN35, "def load_weights_into_qwen3_5(", support=QWEN35_HELPERS),
]

WALL_CLOCK = [("{total_time:.2f} sec", "(a wall-clock time)"),
              ("{int(len(token_ids[0])/total_time)} tokens/sec", "(tokens per second)")]


def _variant(name, path, args, timed=None):
    """A chapter 4 bonus script's ``main()`` on a small model (its own command-line sizes), in bfloat16 as written
    (``timed``: the feed-forward's average wall-clock time per call, which the script prints, left out)."""
    edits = [("args = parser.parse_args()", f"args = parser.parse_args({args!r})"), *WALL_CLOCK]
    edits += [("{avg_ffn_time:.3f} ms", "(a wall-clock time)")] if timed else []
    return _r(f"llm_ch04_{name}", RASBT, path, edits)


SIZES = ["--emb_dim", "64", "--n_heads", "4", "--n_layers", "2", "--max_new_tokens", "12"]
RECIPES += [
    _variant("mla", "ch04/05_mla/gpt_with_kv_mla.py", [*SIZES, "--latent_dim", "16"]),
    _variant("mha_for_mla", "ch04/05_mla/gpt_with_kv_mha.py", SIZES),
    _variant("swa", "ch04/06_swa/gpt_with_kv_swa.py", [*SIZES, "--sliding_window_size", "4"]),
    _variant("swa_stride", "ch04/06_swa/gpt_with_kv_swa.py",
             [*SIZES, "--sliding_window_size", "6", "--sliding_window_stride", "1"]),
    _variant("moe", "ch04/07_moe/gpt_with_kv_moe.py",
             [*SIZES, "--hidden_dim", "128", "--num_experts", "4", "--num_experts_per_tok", "2"], timed=True),
    _variant("moe_no_cache", "ch04/07_moe/gpt_with_kv_moe.py",
             [*SIZES, "--hidden_dim", "128", "--num_experts", "4", "--no_kv_cache"], timed=True),
    _variant("ffn", "ch04/07_moe/gpt_with_kv_ffn.py", [*SIZES, "--hidden_dim", "128"], timed=True),
]

# chapters 6 and 7: the fine-tuning scripts in the --test_mode the book's CI runs them in (GPT-2 weights unused there)
NO_DOWNLOAD_IMPORT = ("from gpt_download import download_and_load_gpt2", "")  # it imports TensorFlow (not installed)
PANDAS = ("import pandas as pd", "from corpus_llm import pandas as pd")
NO_MINUTES = ('print(f"Training completed in {execution_time_minutes:.2f} minutes.")',
              "print(train_losses, val_losses)  # (a wall-clock time in minutes before; the losses' every digit now)")
SPAM = ("        download_and_unzip_spam_data(url, zip_path, extracted_path, data_file_path)\n",
        "        __import__('corpus_llm').spam_data(data_file_path)  # a seeded stand-in for the UCI download\n"
        "        download_and_unzip_spam_data(url, zip_path, extracted_path, data_file_path)\n")
CH06 = [("ch06/01_main-chapter-code/previous_chapters.py", "previous_chapters.py")]
CH07 = [("ch07/01_main-chapter-code/previous_chapters.py", "previous_chapters.py"),
        ("ch07/01_main-chapter-code/instruction-data.json", "instruction-data.json")]

RECIPES += [
    _r("llm_ch06_class_finetune", RASBT, "ch06/01_main-chapter-code/gpt_class_finetune.py",
       [NO_DOWNLOAD_IMPORT, PANDAS, SPAM, ("args = parser.parse_args()", "args = parser.parse_args(['--test_mode'])"),
        NO_MINUTES, ("num_epochs = 5", "num_epochs = 3"), ("eval_freq=50", "eval_freq=5")], support=CH06),  # (last-bit differences within the comparison's rtol: README's known differences)
    _r("llm_ch07_instruction_finetune", RASBT, "ch07/01_main-chapter-code/gpt_instruction_finetuning.py",
       [NO_DOWNLOAD_IMPORT, ('        print(f"{p} version: {version(p)}")', "        pass  # not installed"),
        ("args = parser.parse_args()", "args = parser.parse_args(['--test_mode'])"), NO_MINUTES,
        ("max_new_tokens=256,", "max_new_tokens=12,"),
        ('        test_data[i]["model_response"] = response_text\n',
         '        test_data[i]["model_response"] = response_text\n        print(token_ids.tolist())\n')],
       support=CH07),
]


def _experiment(name, args, xfail=None):
    """ch06's additional experiments (random weights, its options) on a shrunk GPT-2 small: 48 wide, 2 layers."""
    return _r(f"llm_ch06_experiment_{name}", RASBT, "ch06/02_bonus_additional-experiments/additional_experiments.py",
              [NO_DOWNLOAD_IMPORT, PANDAS,
               ('"gpt2-small (124M)": {"emb_dim": 768, "n_layers": 12, "n_heads": 12}',
                '"gpt2-small (124M)": {"emb_dim": 48, "n_layers": 2, "n_heads": 2}'),
               ("        in_features = 768", "        in_features = 48"),
               ("args = parser.parse_args()", f"args = parser.parse_args({['--weights', 'random', *args]!r})"),
               ("            download_and_unzip(url, zip_path, extract_to, new_file_path)\n",
                "            __import__('corpus_llm').spam_data(new_file_path)  # a seeded stand-in for the download\n"
                "            download_and_unzip(url, zip_path, extract_to, new_file_path)\n"),
               ("all_exist = all(", "all_exist = False and all("),  # the stand-in data written every run
               NO_MINUTES, ("eval_freq=50", "eval_freq=4")],
              support=[("ch06/02_bonus_additional-experiments/previous_chapters.py", "previous_chapters.py")],
              xfail=xfail)


RECIPES += [
    _experiment("last_block", ["--num_epochs", "2"]),
    _experiment("all_flexible", ["--trainable_layers", "all", "--trainable_token_pos", "flexible", "--num_epochs", "1"]),
    _experiment("lora", ["--trainable_layers", "lora", "--lora_rank", "4", "--lora_alpha", "8", "--num_epochs", "1"]),
    _experiment("lora_alternative", ["--trainable_layers", "lora_alternative", "--lora_rank", "2", "--num_epochs", "1",
                                     "--average_embeddings"]),  # (a last-bit difference within the comparison's rtol: README)
    _experiment("first_token", ["--trainable_token_pos", "first", "--disable_causal_mask", "--num_epochs", "1",
                                "--context_length", "48"]),
    _experiment("no_padding", ["--no_padding", "--batch_size", "1", "--accumulation_steps", "4", "--num_epochs", "1",
                               "--trainable_layers", "last_two_blocks"]),
    _experiment("ignore_index", ["--ignore_index", "50256", "--context_length", "40", "--num_epochs", "1",
                                 "--trainable_layers", "last_layer"]),
]

# the llms_from_scratch package's own tests (pkg/llms_from_scratch/tests), beside the package, through pytest
PKG = [(f"pkg/llms_from_scratch/{m}.py", f"llms_from_scratch/{m}.py") for m in (
    "__init__ appendix_a appendix_d appendix_e ch02 ch03 ch04 ch05 ch06 ch07 generate llama3 qwen3 utils "
    "kv_cache/__init__ kv_cache/generate kv_cache/gpt2 kv_cache/llama3 kv_cache/qwen3 kv_cache/utils "
    "kv_cache_batched/__init__ kv_cache_batched/generate kv_cache_batched/qwen3 kv_cache_batched/utils").split()]
VERDICT_HERE = ("file_path = tmp_path / \"the-verdict.txt\"", "file_path = \"the-verdict.txt\"  # beside the test")


def _pkg_test(name, edits=(), support=(), xfail=None, deselect=""):
    """pkg/llms_from_scratch/tests/test_NAME.py through pytest beside the package (``deselect``: a ``-k`` expression
    leaving out the tests that build the released models' full sizes, Llama 3.2 1B and Qwen3 0.6B: minutes each)."""
    args = f", '-k', {deselect!r}" if deselect else ""
    run = ("# Copyright", "__import__('corpus_llm').fake_missing()  # tiktoken.load, nbformat, psutil: not installed\n"
           "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__{args})\n    raise SystemExit\n# Copyright")
    return _r(f"llm_pkg_test_{name}", RASBT, f"pkg/llms_from_scratch/tests/test_{name}.py", [run, *edits],
              support=[*PKG, *support], xfail=xfail)


VERDICT = [("ch02/01_main-chapter-code/the-verdict.txt", "the-verdict.txt")]
SHRUNK = [('"emb_dim": 768,', '"emb_dim": 96,'), ('"n_layers": 12,', '"n_layers": 2,')]  # GPT-2 124M's training: minutes
RECIPES += [
    _pkg_test("appendix_a"), _pkg_test("ch02", support=VERDICT), _pkg_test("ch03"), _pkg_test("ch04"),
    _pkg_test("ch05", [VERDICT_HERE, *SHRUNK], support=VERDICT),
    _pkg_test("appendix_d", [VERDICT_HERE, *SHRUNK], support=VERDICT),
    _pkg_test("generate", support=VERDICT), _pkg_test("llama3", deselect="not test_model_variants"),
    _pkg_test("qwen3", deselect="not (test_model_variants or test_model_KV_noKV or test_model_batched_KV)"),
    _pkg_test("ch07", [('file_path = tmp_path / "instruction-data.json"', 'file_path = "instruction-data.json"')],
              support=[("ch07/01_main-chapter-code/instruction-data.json", "instruction-data.json")]),
]

# the chapter notebooks of chapters 6 and 7, appendix E (LoRA) and chapter 7's DPO bonus: GPT-2 small or medium shrunk
# to 48 wide and 2 layers at its seeded initialisation instead of OpenAI's weights, shorter data and generation
VERSIONS = ('    print(f"{p} version: {version(p)}")', "    pass  # tensorflow, pandas: not installed")
SMALL_GPT2 = ('"gpt2-small (124M)": {"emb_dim": 768, "n_layers": 12, "n_heads": 12}',
              '"gpt2-small (124M)": {"emb_dim": 48, "n_layers": 2, "n_heads": 2}')
MEDIUM_GPT2 = ('"gpt2-medium (355M)": {"emb_dim": 1024, "n_layers": 24, "n_heads": 16}',
               '"gpt2-medium (355M)": {"emb_dim": 48, "n_layers": 2, "n_heads": 2}')
NO_WEIGHTS = [("settings, params = download_and_load_gpt2(", "settings = params = None  # seeded weights\n_ = dict("),
              ("load_weights_into_gpt(model, params)", "pass  # the seeded initialisation instead of GPT-2's weights")]
SPLIT = ("val_data = data[train_portion + test_portion:]",
         "val_data = data[train_portion + test_portion:]\n"
         "train_data, test_data, val_data = train_data[:40], test_data[:3], val_data[:16]  # a shorter run")
SHORT_GENERATION = ("max_new_tokens=256,", "max_new_tokens=16,")
NOTEBOOK_MINUTES = ('__shown = (print(f"Training completed in {execution_time_minutes:.2f} minutes."))',
                    "__shown = None  # (a wall-clock time)")
GEMM_24 = ("float32 GEMM order: the attention's context products (T, T) @ (T, 24) (2 heads of 24, T the padded "
           "batch's length, 60-90), where core keeps NumPy's GEMM (MKL's order for 24 columns is not known to "
           "core._small_gemm): a (61, 61) @ (61, 24) product differs from torch's in 28% of its outputs by an ulp; "
           "the first DPO evaluation's loss differs in the 8th digit (0.6931433916091919 vs 0.6931434035301208), "
           "its rewards, near 0, in the 3rd (1.6164779663085937e-05 vs 1.6045570373535156e-05)")
SPAM_NOTEBOOK = ("try:\n    download_and_unzip_spam_data(url, zip_path, extracted_path, data_file_path)",
                 "__import__('corpus_llm').spam_data(data_file_path)  # a seeded stand-in for the UCI download\n"
                 "try:\n    download_and_unzip_spam_data(url, zip_path, extracted_path, data_file_path)")

RECIPES += [
    _r("llm_ch06_notebook", RASBT, "ch06/01_main-chapter-code/ch06.ipynb",
       [VERSIONS, SPAM_NOTEBOOK, PANDAS, NO_DOWNLOAD_IMPORT, SMALL_GPT2, *NO_WEIGHTS, ("num_epochs = 5", "num_epochs = 2"),
        ("eval_freq=50", "eval_freq=5"),
        (NOTEBOOK_MINUTES[0], "__shown = print(train_losses, val_losses, train_accs, val_accs)  # every digit")],
       support=CH06),
    _r("llm_appendix_e", RASBT, "appendix-E/01_main-chapter-code/appendix-E.ipynb",
       [VERSIONS, ("import pandas as pd\nfrom previous_chapters import (",
                   "from corpus_llm import pandas as pd\nimport previous_chapters\n"
                   "previous_chapters.pd = pd  # (the runner's pandas stub there too)\nfrom previous_chapters import ("),
        SPAM_NOTEBOOK, NO_DOWNLOAD_IMPORT, SMALL_GPT2, *NO_WEIGHTS, ("in_features=768", "in_features=48"),
        ("num_epochs = 5", "num_epochs = 2"),
        (NOTEBOOK_MINUTES[0], "__shown = print(train_losses, val_losses, train_accs, val_accs)  # every digit")],
       support=[("appendix-E/01_main-chapter-code/previous_chapters.py", "previous_chapters.py")]),
    _r("llm_ch07_notebook", RASBT, "ch07/01_main-chapter-code/ch07.ipynb",
       [('    print(f"{p} version: {version(p)}")', "    pass  # not installed"), SPLIT, NO_DOWNLOAD_IMPORT,
        MEDIUM_GPT2, *NO_WEIGHTS, SHORT_GENERATION, SHORT_GENERATION,
        (NOTEBOOK_MINUTES[0], "__shown = print(train_losses, val_losses)  # every digit"),
        ("import psutil", "raise SystemExit  # the rest scores the responses with a local Ollama server\nimport psutil")],
       support=CH07),  # (last-bit differences within the comparison's rtol: README)
    _r("llm_ch07_dpo", RASBT, "ch07/04_preference-tuning-with-dpo/dpo-from-scratch.ipynb",
       [('    print(f"{p} version: {version(p)}")', "    pass  # not installed"), SPLIT, MEDIUM_GPT2,
        ("if not finetuned_model_path.exists():", "if True:  # (the stand-in checkpoint below is written every run)"),
        ("model = GPTModel(BASE_CONFIG)\n\nmodel.load_state_dict(",
         "torch.manual_seed(123)  # a seeded stand-in for chapter 7's fine-tuned checkpoint\n"
         "torch.save(GPTModel(BASE_CONFIG).state_dict(), 'gpt2-medium355M-sft.pth')\n"
         "model = GPTModel(BASE_CONFIG)\n\nmodel.load_state_dict("),
        *[SHORT_GENERATION] * 5, (NOTEBOOK_MINUTES[0], "__shown = print(tracking)  # every digit")],
       support=[("ch07/04_preference-tuning-with-dpo/previous_chapters.py", "previous_chapters.py"),
                ("ch07/04_preference-tuning-with-dpo/instruction-data-with-preference.json",
                 "instruction-data-with-preference.json")], xfail=GEMM_24),
]
