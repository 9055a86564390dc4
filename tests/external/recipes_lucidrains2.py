"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

More of lucidrains' small packages on core (2026-12-06, corpus helper s27 LUCID3), each at a release tag (MIT), its
package fetched beside each script and loaded from the script's folder in both runs (einops' package from
``recipes_lucidrains``' pin where one imports it): lion-pytorch 0.2.3, adam-atan2-pytorch at its newest commit
(0.4.0 in its pyproject; the repository tags no release past 0.2.4, which lacks the tests), ema-pytorch 0.7.9,
linformer 0.2.3, lambda-networks 0.4.0, soft-moe-pytorch 0.1.9, minGRU-pytorch 0.2.1, PaLM-pytorch 0.2.2 and
MEGABYTE-pytorch 0.3.6 (its ``beartype`` is ``fake_lucidrains_deps``', so the runner loads it as a fetched package).
Two kinds of script:
- ``lucid2_<pkg>_*``: the package's ``__init__.py`` run as a script beside its package with drivers of ours appended
  (``corpus_lucidrains2.py``): its README's usage at tiny sizes on seeded data, forward, backward and a few
  optimizer steps printed to the last bit, and its sampling and caching paths;
- its own tests through pytest (adam-atan2-pytorch's) and its training scripts shortened (minGRU's and PaLM's
  ``train.py``: 3 steps at width 32, depth 2, on the script's own text as enwik8, no ``.cuda()``).
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_lucidrains import EINOPS_PACKAGE

RECIPES: list[dict] = []

NS = "\nlr2 = __import__('corpus_lucidrains2')\n"


def _package(repo, commit, package, modules, einops=False):
    """(source, support files) of ``package`` at ``commit``: its ``modules``, with einops' package if it imports it."""
    files = [(f"{package}/{m}.py", f"{package}/{m}.py") for m in ("__init__", *modules)]
    return (repo, commit, "MIT"), [*(EINOPS_PACKAGE if einops else ()), *files]


def _driver(prefix, source_package, last, name, *calls, xfail=None):
    """``<package>/__init__.py`` run as a script beside its package, driver ``calls`` appended after its ``last``
    line."""
    (source, support), package = source_package
    return _r(f"lucid2_{prefix}_{name}", source, f"{package}/__init__.py",
              [(last, last + NS + "\n".join(f"lr2.{c}" for c in calls) + "\n")], support=support, xfail=xfail)


# lucidrains/lion-pytorch (MIT) at its 0.2.3 release (2024-11-27).
LION = (_package("lucidrains/lion-pytorch", "6a74fdc0ba572ab5683dc0270c66c20ecbc02d09", "lion_pytorch",
                 ("lion_pytorch", "foreach", "cautious_lion")), "lion_pytorch")
LION_LAST = "from lion_pytorch.lion_pytorch import Lion"
RECIPES += [
    _driver("lion", LION, LION_LAST, "plain", "lion()", "lion(weight_decay=0.1, betas=(0.95, 0.98))",
            "lion(closure=True, weight_decay=1e-2, decoupled_weight_decay=True)"),
    _driver("lion", LION, LION_LAST, "foreach", "lion('lion_pytorch.foreach')",
            "lion('lion_pytorch.foreach', weight_decay=0.1, decoupled_weight_decay=True)"),
    _driver("lion", LION, LION_LAST, "cautious", "lion('lion_pytorch.cautious_lion')",
            "lion('lion_pytorch.cautious_lion', weight_decay=0.1, cautious_factor=0.5)"),
]

# lucidrains/adam-atan2-pytorch (MIT) at its newest commit (2026-07-17, version 0.4.0 in its pyproject).
ATAN2 = _package("lucidrains/adam-atan2-pytorch", "b42d7cbe2905956d6eb973cd4feb1082645674e8", "adam_atan2_pytorch",
                 ("adam_atan2", "adam_atan2_clip_grok", "adam_atan2_with_orthog_grad",
                  "adam_atan2_with_wasserstein_reg", "adopt", "adopt_atan2", "foreach", "muon_adam_atan2",
                  "polar_adam_atan2"), einops=True)
ATAN2_LAST = "Adopt = AdoptAtan2"
A2 = (ATAN2, "adam_atan2_pytorch")
RECIPES += [
    _r("lucid2_atan2_tests", ATAN2[0], "tests/test_optimizers.py",
       [("import torch\n", "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
         "    __import__('corpus_pruning').run_pytest(__file__)\n    raise SystemExit\nimport torch\n")],
       support=ATAN2[1]),
    _driver("atan2", A2, ATAN2_LAST, "adam", "adam_atan2('adam_atan2', 'AdamAtan2')",
            "adam_atan2('adam_atan2', 'AdamAtan2', weight_decay=0.1, cautious_wd=True, cautious_factor=0.)",
            "adam_atan2('adam_atan2', 'AdamAtan2', regen_reg_rate=0.01, decoupled_wd=True, weight_decay=0.01)"),
    _driver("atan2", A2, ATAN2_LAST, "foreach", "adam_atan2('foreach', 'AdamAtan2')",
            "adam_atan2('foreach', 'AdamAtan2', weight_decay=0.1, regen_reg_rate=0.01)"),
    _driver("atan2", A2, ATAN2_LAST, "adopt", "adam_atan2('adopt', 'Adopt')",
            "adam_atan2('adopt_atan2', 'AdoptAtan2')", "adam_atan2('adopt_atan2', 'AdoptAtan2', cautious_factor=0.)"),
    _driver("atan2", A2, ATAN2_LAST, "clip_grok", "adam_atan2('adam_atan2_clip_grok', 'AdamAtan2ClipGrok')",
            "adam_atan2('adam_atan2_with_wasserstein_reg', 'AdamAtan2', regen_reg_rate=0.01)"),
    _driver("atan2", A2, ATAN2_LAST, "orthog", "adam_atan2_orthog()",
            "adam_atan2('adam_atan2_with_orthog_grad', 'AdamAtan2')"),
    _driver("atan2", A2, ATAN2_LAST, "muon", "adam_atan2('muon_adam_atan2', 'MuonAdamAtan2', muon=True)",
            "adam_atan2('muon_adam_atan2', 'MuonAdamAtan2', muon=True, muon_lr=0.02, cautious_factor=0.)"),
    _driver("atan2", A2, ATAN2_LAST, "polar", "adam_atan2('polar_adam_atan2', 'PolarAdamAtan2', muon=True)"),
]

# lucidrains/ema-pytorch (MIT) at its 0.7.9 release (2025-12-19).
EMA = (_package("lucidrains/ema-pytorch", "72d498dc544bd43f7ebe963cc8533021dde44f88", "ema_pytorch",
                ("ema_pytorch", "ema_pytree_pytorch", "post_hoc_ema")), "ema_pytorch")
EMA_LAST = "    PostHocEMA\n)"
RECIPES += [
    _driver("ema", EMA, EMA_LAST, "ema", "ema()", "ema(power=3 / 4, min_value=0.5)",
            "ema(use_foreach=True, update_model_with_ema_every=3, update_model_with_ema_beta=0.5)"),
    _driver("ema", EMA, EMA_LAST, "ema_names", "ema(param_or_buffer_names_no_ema={'1.running_mean'})",
            "ema(ignore_startswith_names={'3.'}, include_online_model=False)"),
    _driver("ema", EMA, EMA_LAST, "karras", "karras_ema()"),
    _driver("ema", EMA, EMA_LAST, "post_hoc", "post_hoc_ema()"),
    _driver("ema", EMA, EMA_LAST, "pytree", "ema_pytree()"),
]

# lucidrains/linformer (MIT) at its 0.2.3 release (2024-01-05).
LINFORMER = (_package("lucidrains/linformer", "970e1c3f12fbdc494f60a2bed5e807563850f585", "linformer",
                      ("linformer", "reversible")), "linformer")
LINFORMER_LAST = "from linformer.linformer import LinformerLM, Linformer, LinformerSelfAttention"
RECIPES += [
    _driver("linformer", LINFORMER, LINFORMER_LAST, "lm", "linformer_lm()", "linformer_lm(one_kv_head=True)"),
    _driver("linformer", LINFORMER, LINFORMER_LAST, "lm_shared", "linformer_lm(share_kv=True, dim_head=16)"),
    _driver("linformer", LINFORMER, LINFORMER_LAST, "reversible", "linformer_lm(reversible=True)"),
    _driver("linformer", LINFORMER, LINFORMER_LAST, "attention", "linformer_attention()"),
]

# lucidrains/lambda-networks (MIT) at its 0.4.0 release (2020-11-18).
LAMBDA = (_package("lucidrains/lambda-networks", "1b6ab6f8c9ad7905a592c0af1ac2855b57a66cfc", "lambda_networks",
                   ("lambda_networks",), einops=True), "lambda_networks")
LAMBDA_LAST = "λLayer = LambdaLayer"
RECIPES += [
    _driver("lambda", LAMBDA, LAMBDA_LAST, "global", "lambda_layer(n=6)", "lambda_layer(n=6, dim_u=2)"),
    _driver("lambda", LAMBDA, LAMBDA_LAST, "local", "lambda_layer(r=3)", "lambda_layer(r=5, dim_u=2)"),
]

# lucidrains/soft-moe-pytorch (MIT) at its 0.1.9 release (2025-04-02).
SOFT_MOE = (_package("lucidrains/soft-moe-pytorch", "f3779d58860bb302a45459fc7ab5c5e24005d46c", "soft_moe_pytorch",
                     ("soft_moe", "soft_moe_with_dynamic_slots", "distributed"), einops=True), "soft_moe_pytorch")
SOFT_MOE_LAST = "from soft_moe_pytorch.soft_moe_with_dynamic_slots import DynamicSlotsSoftMoE"
RECIPES += [
    _driver("soft_moe", SOFT_MOE, SOFT_MOE_LAST, "soft_moe", "soft_moe(seq_len=16, num_experts=4)",
            "soft_moe(num_slots=2, num_experts=4, geglu=True)"),
    _driver("soft_moe", SOFT_MOE, SOFT_MOE_LAST, "variants", "soft_moe(num_slots=3, num_experts=2, use_layernorm=True)",
            "soft_moe(seq_len=16, num_experts=4, mask=True)", "soft_moe(shape=(2, 8, 4, 4), num_slots=2, num_experts=2)",
            "soft_moe_noise()"),
    _driver("soft_moe", SOFT_MOE, SOFT_MOE_LAST, "dynamic", "soft_moe(dynamic=True, num_experts=4)",
            "soft_moe(shape=(2, 15, 16), dynamic=True, num_experts=4, geglu=True)",
            "soft_moe(shape=(2, 14, 16), dynamic=True, num_experts=4, mask=True)"),
]

# lucidrains/minGRU-pytorch (MIT) at its 0.2.1 release (2025-03-13).
MINGRU = (_package("lucidrains/minGRU-pytorch", "38b26e119a2e85e70ea53825dc09b91b021afa06", "minGRU_pytorch",
                   ("minGRU", "minLSTM", "minLM", "hybrid", "hybridLM"), einops=True), "minGRU_pytorch")
MINGRU_LAST = "from minGRU_pytorch.minGRU import minGRU"
RECIPES += [
    _driver("mingru", MINGRU, MINGRU_LAST, "gru", "min_gru()", "min_gru(expansion_factor=1.5)"),
    _driver("mingru", MINGRU, MINGRU_LAST, "lstm", "min_gru(lstm=True)", "min_gru(lstm=True, expansion_factor=1.5)"),
    _driver("mingru", MINGRU, MINGRU_LAST, "lm", "min_lm()", "min_lm(use_lstm=True, ff_mult=2)"),
    _driver("mingru", MINGRU, MINGRU_LAST, "lm_conv", "min_lm(enable_conv=True, conv_kernel_size=3)"),
    _driver("mingru", MINGRU, MINGRU_LAST, "hybrid", "min_lm(hybrid=True)"),
]

ENWIK8 = [("NUM_BATCHES = int(1e5)", "NUM_BATCHES = 3"),
          ("return full_seq.cuda()", "return full_seq")]
MINGRU_TRAIN = [*ENWIK8, ("GRAD_ACCUM_EVERY = 4", "GRAD_ACCUM_EVERY = 2"), ("PRIME_LENGTH = 128", "PRIME_LENGTH = 8"),
                ("GENERATE_LENGTH = 512", "GENERATE_LENGTH = 24"), ("SEQ_LEN = 512", "SEQ_LEN = 32"),
                ("dim = 512,", "dim = 32,"), ("depth = 6,", "depth = 2,"), (").cuda()", ")"),
                ('with gzip.open("./data/enwik8.gz") as file:', "with open(__file__, 'rb') as file:"),
                ("np.split(data, [int(90e6)])", "np.split(data, [len(data) * 3 // 4])"),
                ("inp = inp.cuda()", "inp = inp")]
RECIPES += [
    _r("lucid2_mingru_train", MINGRU[0][0], "train.py", MINGRU_TRAIN, support=MINGRU[0][1]),
    _r("lucid2_mingru_train_lstm", MINGRU[0][0], "train.py",
       [*MINGRU_TRAIN, ("use_lstm = False", "use_lstm = True")], support=MINGRU[0][1]),
    _r("lucid2_mingru_train_hybrid", MINGRU[0][0], "train_hybrid.py",
       [*MINGRU_TRAIN, ("dim_head = 64,", "dim_head = 16,"), ("heads = 8", "heads = 2")], support=MINGRU[0][1]),
]

# lucidrains/PaLM-pytorch (MIT) at its 0.2.2 release (2022-07-29); its Triton kernels stay out (no Triton here).
PALM = (_package("lucidrains/PaLM-pytorch", "7164d13d5a831647edb5838544017f387130f987", "palm_pytorch",
                 ("palm_pytorch", "autoregressive_wrapper"), einops=True), "palm_pytorch")
PALM_LAST = "from palm_pytorch.palm_pytorch import PaLM"
RECIPES += [
    _driver("palm", PALM, PALM_LAST, "palm", "palm()"),
    _driver("palm", PALM, PALM_LAST, "palm_wide", "palm(ff_mult=2)"),
    _r("lucid2_palm_train", PALM[0][0], "train.py",
       [*ENWIK8, ("from palm_pytorch.triton import PaLM", "from palm_pytorch import PaLM"),
        ("GRADIENT_ACCUMULATE_EVERY = 4", "GRADIENT_ACCUMULATE_EVERY = 2"), ("GENERATE_LENGTH = 512", "GENERATE_LENGTH = 16"),
        ("SEQ_LEN = 1024", "SEQ_LEN = 32"),
        ("PaLM(num_tokens=256, dim=512, depth=8)", "PaLM(num_tokens=256, dim=32, depth=2, heads=2, dim_head=16)"),
        ("model.cuda()", ""),
        ('with gzip.open("./examples/enwik8_deepspeed/data/enwik8.gz") as file:', "with open(__file__, 'rb') as file:"),
        ("np.fromstring(file.read(int(95e6)), dtype=np.uint8)",  # (NumPy 2 removed fromstring's binary mode)
         "np.frombuffer(file.read(int(95e6)), dtype=np.uint8).copy()"),
        ("np.split(X, [int(90e6)])", "np.split(X, [len(X) * 3 // 4])")], support=PALM[0][1]),
]

# lucidrains/MEGABYTE-pytorch (MIT) at its 0.3.6 release (2024-12-27); beartype is fake_lucidrains_deps' (the runner
# loads the package as a fetched one for it).
MEGABYTE = (_package("lucidrains/MEGABYTE-pytorch", "21eec73ae6e9268ad5b77be3c5dd5cbd7daeaa4d", "MEGABYTE_pytorch",
                     ("megabyte", "attend"), einops=True), "MEGABYTE_pytorch")
MEGABYTE_LAST = "from MEGABYTE_pytorch.megabyte import MEGABYTE"
MEGABYTE_GEMM = ("float32 GEMM rounding: Attend's q @ k^T is einsum('b h i d, b h j d -> b h i j'), which PyTorch "
                 "lowers to a bmm of (9, 8) @ (8, 9) matrices; k, a chunk of to_kv's output rearranged, cannot be viewed "
                 "as a batch, so its copy is row-major, and MKL's kernel for 9 untransposed columns adds some of them in "
                 "an order core._small_gemm does not reproduce ('N = 9 ... not found': NumPy's GEMM is kept), 26 of "
                 "324 scores an ulp apart; the softmax carries that to the logits (690 elements) and a cancelling "
                 "gradient element past 1e-5")
RECIPES += [
    _driver("megabyte", MEGABYTE, MEGABYTE_LAST, "megabyte", "megabyte()", xfail=MEGABYTE_GEMM),
    _driver("megabyte", MEGABYTE, MEGABYTE_LAST, "variants", "megabyte(rel_pos=True, generate=False)",
            "megabyte(pos_emb=True, flash_attn=True, generate=False)", xfail=MEGABYTE_GEMM),
    _driver("megabyte", MEGABYTE, MEGABYTE_LAST, "three_stages", "megabyte(dim=(32, 24, 16), depth=(1, 1, 1), "
            "max_seq_len=(4, 2, 2), rel_pos=True)"),
]
