"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Books, courses and small libraries, fifth batch (2026-12-05, corpus helper s21): lucidrains/x-transformers' own package
at v1.40 (October 2024, the last release that needs only einops; later ones import einx, loguru and
torch-einops-utils) and maciejkula/spotlight's (a recommender library: factorization and sequence models, its losses
and ``fit`` loops), each run through drivers of ours appended to the package's ``__init__`` (``corpus_books5.py``:
small seeded models, a few training steps, generation; MovieLens' download replaced by seeded interactions of its
shape); x-transformers' copy-task example and Spotlight's layer tests run as they are, shortened.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

EINOPS = ("arogozhnikov/einops", "ccb89f27599f26d7140a1bd2703305309fe3a3bd", "MIT")
EINOPS_PACKAGE = [(*EINOPS[:2], f"einops/{m}.py", f"einops/{m}.py") for m in (
    "__init__", "_backends", "_torch_specific", "einops", "packing", "parsing", "array_api",
    "layers/__init__", "layers/_einmix", "layers/torch")]

# lucidrains/x-transformers (MIT) at 11b0af9 (1.40.x, 2024-10-28).
XT = ("lucidrains/x-transformers", "11b0af9e8c338c471caa999421c2db98face9a9f", "MIT")
XT_PACKAGE = [*EINOPS_PACKAGE, *((f"x_transformers/{m}.py", f"x_transformers/{m}.py") for m in (
    "__init__", "attend", "autoregressive_wrapper", "continuous", "dpo", "multi_input", "nonautoregressive_wrapper",
    "x_transformers", "xl_autoregressive_wrapper", "xval"))]
XT_LAST = "from x_transformers.dpo import (\n    DPO\n)"
XT_NS = "ns = __import__('types').SimpleNamespace(**globals())\nb5 = __import__('corpus_books5')\n"


def _xt(name, *calls):
    """x_transformers/__init__.py run as a script beside its package, with driver ``calls`` on its names."""
    return _r(f"books5_xt_{name}", XT, "x_transformers/__init__.py",
              [(XT_LAST, XT_LAST + "\n" + XT_NS + "\n".join(f"b5.{c}" for c in calls) + "\n")], support=XT_PACKAGE)


RECIPES += [
    _xt("decoder", "xt_decoder(ns)"),
    _xt("decoder_rotary", "xt_decoder(ns, rotary_pos_emb=True, attn_dim_head=32, ff_glu=True, use_rmsnorm=True)",
        "xt_decoder(ns, rotary_xpos=True, attn_dim_head=32, attn_qk_norm=True, attn_qk_norm_dim_scale=True)"),
    _xt("decoder_alibi", "xt_decoder(ns, alibi_pos_bias=True, alibi_num_heads=1, ff_swish=True)",
        "xt_decoder(ns, rel_pos_bias=True, sandwich_norm=True, attn_gate_values=True)"),
    _xt("decoder_variants", "xt_encoder(ns, dynamic_pos_bias=True, dynamic_pos_bias_log_distance=True)",
        "xt_decoder(ns, attn_pre_talking_heads=True, attn_post_talking_heads=True, residual_attn=True)",
        "xt_decoder(ns, macaron=True, shift_tokens=1, gate_residual=True, use_scalenorm=True)",
        "xt_decoder(ns, attn_num_mem_kv=2, attn_one_kv_head=True, ff_relu_squared=True, resi_dual=True)"),
    _xt("encoder", "xt_encoder(ns)", "xt_encoder(ns, rotary_pos_emb=True, attn_dim_head=32, attn_sparse_topk=4, pre_norm=False)",
        "xt_encoder(ns, attn_head_scale=True, ff_post_act_ln=True, layer_dropout=0.0, cross_residual_attn=False)"),
    _xt("xtransformer", "xt_xtransformer(ns)"),
    _xt("cross_cache", "xt_cross_cache(ns)", "xt_cross_cache(ns, rotary_pos_emb=True, attn_kv_heads=2)"),
    _xt("decoder_flash", "xt_decoder(ns, attn_flash=True, attn_kv_heads=1, use_simple_rmsnorm=True, ff_no_bias=True)",
        "xt_decoder(ns, wrapper=dict(l2norm_embed=True, num_memory_tokens=2, emb_frac_gradient=0.5), "
        "attn_qk_norm=True, attn_flash=True)"),
    _xt("encoder_more", "xt_encoder(ns, attn_sigmoid=True, softclamp_output=True)",
        "xt_encoder(ns, attn_softclamp_logits=True, attn_l2_distance=True)",
        "xt_decoder(ns, attn_use_cope=True, attn_cope_max_pos=8)",
        "xt_encoder(ns, wrapper=dict(num_memory_tokens=2, use_abs_pos_emb=False), attn_hard=False, "
        "attn_value_dim_head=4, attn_gate_value_heads=True, add_value_residual=True)"),
    _xt("layers", "xt_layers(ns)"),
    _xt("vit", "xt_vit(ns)"),
    _xt("continuous", "xt_continuous(ns)"),
    _xt("nar", "xt_nar(ns)"),
    _xt("xl", "xt_xl(ns)"),
    _xt("xval", "xt_xval(ns)"),
    _xt("multi_input", "xt_multi_input(ns)"),
    _xt("dpo", "xt_dpo(ns)"),
]

# maciejkula/spotlight (MIT) at 75f4c8c (v0.1.6 and later fixes, 2020-02-09).
SPOTLIGHT = ("maciejkula/spotlight", "75f4c8c55090771b52b88ef1a00f75bb39f9f2a9", "MIT")
SPOTLIGHT_PACKAGE = [(f"spotlight/{m}.py", f"spotlight/{m}.py") for m in (
    "__init__", "cross_validation", "evaluation", "helpers", "interactions", "layers", "losses", "sampling",
    "torch_utils", "datasets/__init__", "datasets/synthetic", "factorization/__init__", "factorization/_components",
    "factorization/explicit", "factorization/implicit", "factorization/representations", "sequence/__init__",
    "sequence/implicit", "sequence/representations")]
SPOTLIGHT_LAST = "__version__ = 'v0.1.6'"


def _spotlight(name, *calls):
    """spotlight/__init__.py run as a script beside its package, with driver ``calls``."""
    return _r(f"books5_spotlight_{name}", SPOTLIGHT, "spotlight/__init__.py",
              [(SPOTLIGHT_LAST, SPOTLIGHT_LAST + "\nb5 = __import__('corpus_books5')\n"
                + "\n".join(f"b5.{c}" for c in calls) + "\n")], support=SPOTLIGHT_PACKAGE)


RECIPES += [
    _spotlight("explicit", "spotlight_factorization(globals(), 'explicit', ('regression', 'poisson', 'logistic'))"),
    _spotlight("implicit", "spotlight_factorization(globals(), 'implicit', ('pointwise', 'bpr', 'hinge', "
               "'adaptive_hinge'))"),
    _spotlight("implicit_bloom", "spotlight_factorization(globals(), 'implicit', ('bpr', 'adaptive_hinge'), "
               "bloom=0.5, l2=1e-4)", "spotlight_factorization(globals(), 'explicit', ('regression',), bloom=1.0)"),
    _spotlight("sequence_pooling", "spotlight_sequence(globals(), ('pooling',), ('pointwise', 'bpr', 'hinge', "
               "'adaptive_hinge'))"),
    _spotlight("sequence_lstm_cnn", "spotlight_sequence(globals(), ('lstm', 'cnn', 'mixture'))"),
    _spotlight("layers", "spotlight_layers(globals())"),
]

# rasbt/reasoning-from-scratch (Apache-2.0) at f79c9cd (2026-04-21): the book's own package, its Qwen3 model at a small
# configuration with seeded weights and a character tokenizer (the real one downloads Qwen3's vocabulary).
RFS = ("rasbt/reasoning-from-scratch", "f79c9cd0ae7d824aa4e9a9bc2ca4a85167f81958", "Apache-2.0")
RFS_PACKAGE = [(f"reasoning_from_scratch/{m}.py", f"reasoning_from_scratch/{m}.py") for m in (
    "__init__", "ch02", "ch03", "ch04", "ch05", "ch06", "ch07", "ch08", "qwen3", "qwen3_batched", "qwen3_optimized",
    "utils")]
RFS_LAST = '__version__ = "0.1.21"'


def _rfs(name, *calls):
    """reasoning_from_scratch/__init__.py run as a script beside its package, with driver ``calls``."""
    return _r(f"books5_rfs_{name}", RFS, "reasoning_from_scratch/__init__.py",
              [(RFS_LAST, RFS_LAST + "\nb5 = __import__('corpus_books5')\n" + "\n".join(f"b5.{c}" for c in calls)
                + "\n")], support=RFS_PACKAGE)


RECIPES += [
    _rfs("qwen3", "rfs_qwen3(globals())"),
    _rfs("variants", "rfs_variants(globals())"),
    _rfs("sampling", "rfs_sampling(globals())"),
    _rfs("grpo", "rfs_grpo(globals())"),
    _rfs("distill", "rfs_distill(globals())"),
]

# ga642381/ML2021-Spring: Hung-yi Lee's Machine Learning 2021 course, its PyTorch tutorial and homework notebooks (no
# licence stated; nothing of it is committed here). The homework downloads its data with gdown: corpus_books5 writes
# seeded files of the same layout instead.
ML21 = ("ga642381/ML2021-Spring", "94b2798d6e79dde49466f2416f36b45aaa958793", "none stated")
RECIPES += [
    _r("books5_ml21_pytorch_tutorial", ML21, "Pytorch/Pytorch_Tutorial.ipynb",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n")], keep_going=True),
    _r("books5_ml21_hw01_regression", ML21, "HW01/HW01.ipynb",
       [("tr_path = 'covid.train.csv'", "__import__('corpus_books5').covid_csv()\ntr_path = 'covid.train.csv'"),
        ("'n_epochs': 3000,", "'n_epochs': 30,"), ("'early_stop': 200,", "'early_stop': 10,")], keep_going=True),
    _r("books5_ml21_hw02_phoneme", ML21, "HW02/HW02-1.ipynb",
       [("data_root='./timit_11/'", "__import__('corpus_books5').timit()\ndata_root='./timit_11/'"),
        ("y = y.astype(np.int)", "y = y.astype(int)"),  # np.int left NumPy in 1.24
        ("num_epoch = 20 ", "num_epoch = 3 "),
        ("__shown = (gc.collect())", "__shown = (gc.collect()) and None")],  # how many objects it freed: not torch's
       keep_going=True),
    _r("books5_ml21_hw04_speaker", ML21, "HW04/HW04.ipynb",
       [("class myDataset(Dataset):", "__import__('corpus_books5').speaker_dataset()\nclass myDataset(Dataset):"),
        ('"n_workers": 8,', '"n_workers": 0,'), ('"batch_size": 32,', '"batch_size": 4,'),
        ('"valid_steps": 2000,', '"valid_steps": 4,'), ('"warmup_steps": 1000,', '"warmup_steps": 2,'),
        ('"save_steps": 10000,', '"save_steps": 4,'), ('"total_steps": 70000,', '"total_steps": 8,'),
        ("num_workers=8,", "num_workers=0,"),
        ("    writer.writerows(results)\n", "    writer.writerows(results)\n  print(open(output_path).read())\n")],
       keep_going=True),
]
TO_TENSOR = ("transforms.ToTensor(),", "transforms.Lambda(lambda x: x),  # the stand-in's images are tensors already")
RECIPES += [
    _r("books5_ml21_hw14_lifelong", ML21, "HW14/HW14.ipynb",
       [("datasets.MNIST(", "__import__('corpus_books5').transformed_mnist("), TO_TENSOR,
        ("transforms.Normalize((0.1307,), (0.3081,)),",  # the runner's torchvision is a stub: Normalize, written out
         "transforms.Lambda(lambda x: (x - 0.1307) / 0.3081),"), TO_TENSOR,
        ("task_number = 5", "task_number = 3"), ("epochs_per_task = 10", "epochs_per_task = 1"),
        ("from tqdm import trange\n", "from tqdm import trange\n"
         "tqdm.auto.trange = __import__('corpus_books5').trange  # the runner's tqdm stub has no trange\n")],
       keep_going=True),
]
