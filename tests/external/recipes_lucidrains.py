"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

lucidrains' small focused libraries as their own packages (2026-12-06, corpus helper s22 LUCIDRAINS):
vector-quantize-pytorch at its 1.27.21 release (February 2026) with einx v0.3.0 and einops, loaded from each
script's folder in both runs (``runner._fetched_packages``); each script is the package's ``__init__`` run beside it
with drivers of ours appended (``corpus_lucidrains.py``: small seeded quantizers trained a few steps, their codes,
losses, gradients and codebooks), and the package's autoencoder examples run as they are, shortened, on seeded
FashionMNIST stand-ins. einx's ``frozendict`` and the examples' ``fire`` and ``tqdm`` are ``fake_lucidrains_deps.py``.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

EINOPS = ("arogozhnikov/einops", "ccb89f27599f26d7140a1bd2703305309fe3a3bd", "MIT")
EINOPS_PACKAGE = [(*EINOPS[:2], f"einops/{m}.py", f"einops/{m}.py") for m in (
    "__init__", "_backends", "_torch_specific", "einops", "packing", "parsing", "array_api",
    "layers/__init__", "layers/_einmix", "layers/torch")]

# fferflo/einx (MIT) at v0.3.0 (2024-06-11; the release vector-quantize-pytorch 1.27.21 was published against).
EINX = ("fferflo/einx", "af49870cb5535c030c1f1697e02d013836400179", "MIT")
EINX_PACKAGE = [(*EINX[:2], f"einx/{m}.py", f"einx/{m}.py") for m in (
    "__init__ backend/__init__ backend/_dask backend/_jax backend/_mlx backend/_numpy backend/_tensorflow "
    "backend/_tinygrad backend/_torch backend/base backend/register experimental/__init__ experimental/op/__init__ "
    "experimental/op/shard expr/__init__ expr/solver expr/stage1 expr/stage2 expr/stage3 expr/util nn/__init__ "
    "nn/equinox nn/flax nn/haiku nn/keras nn/nn nn/torch op/__init__ op/arange op/dot op/elementwise op/index "
    "op/rearrange op/reduce op/solve op/util op/vmap op/vmap_with_axis traceback_util tracer/__init__ "
    "tracer/compile tracer/decorator tracer/input tracer/optimize tracer/tensor tracer/tracer tree_util types").split()]

# lucidrains/vector-quantize-pytorch (MIT) at its 1.27.21 release (2026-02-12).
VQ = ("lucidrains/vector-quantize-pytorch", "20bfdf13c67237b78a977b7de3ed666591c6a95d", "MIT")
VQ_PACKAGE = [*EINOPS_PACKAGE, *EINX_PACKAGE, *((f"vector_quantize_pytorch/{m}.py", f"vector_quantize_pytorch/{m}.py")
                                                for m in (
    "__init__", "binary_mapper", "finite_scalar_quantization", "latent_quantization", "lookup_free_quantization",
    "random_projection_quantizer", "residual_fsq", "residual_lfq", "residual_sim_vq", "residual_vq", "sim_vq", "utils",
    "vector_quantize_pytorch"))]
VQ_LAST = "from vector_quantize_pytorch.utils import Sequential"
VQ_NS = "ns = __import__('types').SimpleNamespace(**globals())\nlr = __import__('corpus_lucidrains')\n"


def _vq(name, *calls, xfail=None):
    """vector_quantize_pytorch/__init__.py run as a script beside its package, with driver ``calls`` on its names."""
    return _r(f"lucid_vq_{name}", VQ, "vector_quantize_pytorch/__init__.py",
              [(VQ_LAST, VQ_LAST + "\n" + VQ_NS + "\n".join(f"lr.{c}" for c in calls) + "\n")], support=VQ_PACKAGE,
              xfail=xfail)


RECIPES += [
    _vq("ema", "vq(ns)", "vq(ns, decay=0.9, commitment_weight=0.5, rotation_trick=False)"),
    _vq("cosine", "vq(ns, use_cosine_sim=True)", "vq(ns, use_cosine_sim=True, codebook_dim=8, rotation_trick=False)"),
    _vq("kmeans", "vq(ns, kmeans_init=True, kmeans_iters=4)",
        "vq(ns, kmeans_init=True, kmeans_iters=3, use_cosine_sim=True)"),
    _vq("dead_code", "vq(ns, threshold_ema_dead_code=2)", "vq(ns, threshold_ema_dead_code=1, heads=2, codebook_dim=8, eval_roundtrip=False)"),
    _vq("heads", "vq(ns, heads=4, codebook_dim=4, separate_codebook_per_head=True, eval_roundtrip=False)",
        "vq(ns, heads=2, separate_codebook_per_head=False, codebook_dim=8, eval_roundtrip=False)"),
    _vq("image", "vq(ns, shape=(2, 16, 4, 4), channel_first=True, accept_image_fmap=True, orthogonal_reg_weight=10, "
        "orthogonal_reg_max_codes=16, orthogonal_reg_active_codes_only=False)",
        "vq(ns, shape=(2, 16, 6), channel_first=True, channel_last=False)"),
    _vq("stochastic", "vq(ns, stochastic_sample_codes=True, sample_codebook_temp=0.1)",
        "vq(ns, straight_through=True, stochastic_sample_codes=True, rotation_trick=False)"),
    _vq("losses", "vq(ns, commitment_use_cross_entropy_loss=True)",
        "vq(ns, layernorm_after_project_in=True, codebook_dim=8, codebook_diversity_loss_weight=1.)",
        xfail="the encoder's gradients differ in the last bits from the first step: the cross-entropy commitment "
        "loss reads the package's cdist, whose float32 sqrt is MKL's vector sqrt in torch (not correctly rounded; "
        "with a float64 sqrt both runs agree bit for bit), and the diversity loss's cdist backward is a 48x32 @ "
        "32x8 product, where OpenBLAS and MKL add in other orders (292 of 384 elements differ by an ulp); three SGD "
        "steps grow that to 1e-4 in a printed gradient norm"),
    _vq("directional", "vq(ns, directional_reparam=True)", "vq(ns, affine_param=True)",
        "vq(ns, sync_update_v=0.2, learnable_codebook=True, ema_update=False, rotation_trick=False)"),
    _vq("breakdown", "vq_breakdown(ns)", "vq_breakdown(ns, use_cosine_sim=True)"),
    _vq("learnable", "vq_learnable(ns)"),
    _vq("residual", "rvq(ns)", "rvq(ns, shared_codebook=True, stochastic_sample_codes=True, sample_codebook_temp=0.1)"),
    _vq("residual_more", "rvq(ns, kmeans_init=True, kmeans_iters=3, use_cosine_sim=True)",
        "rvq(ns, quantize_dropout=True, quantize_dropout_cutoff_index=1)"),
    _vq("residual_sizes", "rvq(ns, codebook_size=(32, 16, 8))"),
    _vq("residual_qinco", "rvq(ns, implicit_neural_codebook=True, codebook_size=16)",
        "rvq(ns, quant_grad_frac=0.1, codebook_dim=8)"),
    _vq("residual_beam", "rvq(ns, shape=(1, 24, 16), beam_size=3, codebook_size=16)"),
    _vq("residual_beam_weights", "rvq(ns, shape=(1, 24, 16), beam_size=2, eval_beam_size=3, "
        "beam_score_quantizer_weights=[1., 0.5, 0.25], codebook_size=16)"),
    _vq("grouped", "grouped_rvq(ns)", "grouped_rvq(ns, shared_codebook=True, use_cosine_sim=True)"),
    _vq("fsq", "fsq(ns)", "fsq(ns, levels=(8, 6, 5), shape=(2, 24, 16))",
        "fsq(ns, levels=(7, 5, 5), shape=(2, 12, 4, 4), channel_first=True)"),
    _vq("fsq_more", "fsq(ns, levels=(8, 5, 5), shape=(2, 24, 12), num_codebooks=2)",
        "fsq(ns, levels=(8, 5, 5, 5), preserve_symmetry=True)", "fsq(ns, levels=(4, 4, 4), preserve_symmetry=True, noise_dropout=0.5)"),
    _vq("residual_fsq", "residual_fsq(ns)", "residual_fsq(ns, quantize_dropout=True)",
        "residual_fsq(ns, grouped=True)"),
    _vq("lfq", "lfq(ns)", "lfq(ns, codebook_size=16, shape=(2, 24, 4), entropy_loss_weight=0.1, diversity_gamma=1.)"),
    _vq("lfq_more", "lfq(ns, num_codebooks=2, codebook_size=16, shape=(2, 20, 8))",
        "lfq(ns, mask=True, commitment_loss_weight=0.25, frac_per_sample_entropy=0.5)",
        "lfq(ns, spherical=True, codebook_size=64, soft_clamp_input_value=10.)",
        "lfq(ns, experimental_softplus_entropy_loss=True, cosine_sim_project_in=True)"),
    _vq("residual_lfq", "residual_lfq(ns)", "residual_lfq(ns, quantize_dropout=True)",
        "residual_lfq(ns, grouped=True)"),  # (its 40x64 @ 64x6 entropy-loss product: MKL's order, _remainder_rows)
    _vq("latent_quantize", "latent_quantize(ns)", "latent_quantize(ns, levels=(4, 8), dim=12, optimize_values=False, quantization_loss_weight=0.5)",
        "latent_quantize_image(ns)"),
    _vq("random_projection", "random_projection(ns)"),
    _vq("sim_vq", "sim_vq(ns)", "sim_vq(ns, rotation_trick=False)", "sim_vq(ns, residual=True)"),
    _vq("binary_mapper", "binary_mapper(ns)", "sequential(ns)"),
]

# The package's own examples: a convolutional autoencoder on FashionMNIST around each quantizer, trained with AdamW;
# their progress bars' descriptions (losses, active codes) are what they print.
VQ_EXAMPLE_EDITS = [("datasets.FashionMNIST(", "__import__('corpus_support').fake_fashion_mnist_small("),
                    ("train_iter = 1000,", "train_iter = 4,"), ("batch_size = 256", "batch_size = 16")]
RECIPES += [_r(f"lucid_vq_example_{name}", VQ, f"examples/{file}.py", VQ_EXAMPLE_EDITS, support=VQ_PACKAGE)
            for name, file in (("vq", "autoencoder"), ("fsq", "autoencoder_fsq"), ("lfq", "autoencoder_lfq"),
                               ("sim_vq", "autoencoder_sim_vq"))]

# lucidrains/local-attention (MIT) at its 1.10.0 release (2025-01-12; later ones import hyper-connections).
LOCAL = ("lucidrains/local-attention", "b44c268e6c1c238c86c37834b46381f9477a37fe", "MIT")
LOCAL_PACKAGE = [*EINOPS_PACKAGE, *((f"local_attention/{m}.py", f"local_attention/{m}.py")
                                    for m in ("__init__", "local_attention", "rotary", "transformer"))]
LOCAL_LAST = "from local_attention.transformer import LocalTransformer, LocalMHA, DynamicPositionBias"


def _local(name, *calls, xfail=None):
    """local_attention/__init__.py run as a script beside its package, with driver ``calls`` on its names."""
    return _r(f"lucid_local_{name}", LOCAL, "local_attention/__init__.py",
              [(LOCAL_LAST, LOCAL_LAST + "\n" + VQ_NS + "\n".join(f"lr.{c}" for c in calls) + "\n")],
              support=LOCAL_PACKAGE, xfail=xfail)


RECIPES += [
    _local("attention", "local_attention(ns, causal=True)", "local_attention(ns, causal=False, look_forward=1)",
           "local_attention(ns, causal=True, exact_windowsize=True, seq=22, autopad=True)"),
    _local("attention_more", "local_attention(ns, masked=True, causal=False, use_rotary_pos_emb=False)",
           "local_attention(ns, causal=True, use_xpos=True, xpos_scale_base=16, look_backward=2)",
           "local_attention(ns, shared_qk=True, causal=True)"),
    _local("mha_cache", "local_mha_cache(ns)", "local_mha_cache(ns, use_attn_bias=True, exact_windowsize=True)",
           "local_mha_cache(ns, use_rotary_pos_emb=False, qk_rmsnorm=True, gate_values_per_head=True)"),
    _local("transformer", "local_transformer(ns)"),
    _local("transformer_variants", "local_transformer(ns, use_dynamic_pos_bias=True, ff_mult=2)",
           "local_transformer(ns, use_xpos=True, qk_rmsnorm=True)"),
]

# lucidrains/mixture-of-experts (MIT) at its 0.2.3 release (2023-08-21).
MOE = ("lucidrains/mixture-of-experts", "b6cb2ec6980216882ae2cf8b928d42210dec3f85", "MIT")
MOE_LAST = "from mixture_of_experts.mixture_of_experts import MoE, HeirarchicalMoE, Experts"


def _moe(name, *calls, xfail=None):
    """mixture_of_experts/__init__.py run as a script beside its package, with driver ``calls`` on its names."""
    return _r(f"lucid_moe_{name}", MOE, "mixture_of_experts/__init__.py",
              [(MOE_LAST, MOE_LAST + "\n" + VQ_NS + "\n".join(f"lr.{c}" for c in calls) + "\n")],
              support=[("mixture_of_experts/mixture_of_experts.py", "mixture_of_experts/mixture_of_experts.py")],
              xfail=xfail)


RECIPES += [
    _moe("moe", "moe(ns)", "moe(ns, leaky=True, second_policy_train='all', second_policy_eval='none')"),
    _moe("policies", "moe(ns, second_threshold_train=0.3, capacity_factor_train=2.)",
         "moe(ns, second_policy_eval='all', capacity_factor_eval=1., loss_coef=0.1)"),
    _moe("custom_experts", "moe(ns, custom_experts=True)"),
    _moe("hierarchical", "moe(ns, hierarchical=True)", "moe(ns, hierarchical=True, second_policy_train='all')",
         xfail="float32 GEMM rounding: the experts' second layer is a batch of 8x32 @ 32x8 products (2048 "
         "multiply-adds each, past the small-bmm route that adds in PyTorch's order), where OpenBLAS and MKL add the 32 "
         "products in other orders; a cancelling output element prints -0.0017633684 vs -0.0017633878 at step 2"),
    _moe("gating", "top2_gating(ns)", "top2_gating(ns, second_policy_train='none', capacity_factor_train=1.)"),
]

# lucidrains/performer-pytorch (MIT) at its 1.1.4 release (2022-02-02), on local-attention 1.10.0 (above) and
# lucidrains/axial-positional-embedding (MIT) at 0.3.0 (2025-01-04, einops only).
PERFORMER = ("lucidrains/performer-pytorch", "fc8b78441b1e27eb5d9b01fc738a8772cee07127", "MIT")
AXIAL = ("lucidrains/axial-positional-embedding", "66d52f6de022c89034901ede3ccf583aa7500c0b", "MIT")
PERFORMER_PACKAGE = [*EINOPS_PACKAGE,
                     *((*LOCAL[:2], f"local_attention/{m}.py", f"local_attention/{m}.py")
                       for m in ("__init__", "local_attention", "rotary", "transformer")),
                     *((*AXIAL[:2], f"axial_positional_embedding/{m}.py", f"axial_positional_embedding/{m}.py")
                       for m in ("__init__", "axial_positional_embedding")),
                     *((f"performer_pytorch/{m}.py", f"performer_pytorch/{m}.py")
                       for m in ("__init__", "autoregressive_wrapper", "performer_enc_dec", "performer_pytorch",
                                 "reversible"))]
PERFORMER_LAST = "from performer_pytorch.performer_enc_dec import PerformerEncDec"


def _performer(name, *calls, xfail=None):
    """performer_pytorch/__init__.py run as a script beside its package, with driver ``calls`` on its names."""
    return _r(f"lucid_performer_{name}", PERFORMER, "performer_pytorch/__init__.py",
              [(PERFORMER_LAST, PERFORMER_LAST + "\n" + VQ_NS + "\n".join(f"lr.{c}" for c in calls) + "\n")],
              support=PERFORMER_PACKAGE, xfail=xfail)


RECIPES += [
    _performer("lm", "performer_lm(ns)"),
    _performer("lm_variants", "performer_lm(ns, causal=False, generalized_attention=True, ff_glu=True)",
               "performer_lm(ns, local_attn_heads=1, local_window_size=8, use_scalenorm=True, shift_tokens=True)"),
    _performer("lm_reversible", "performer_lm(ns, reversible=True, ff_chunks=2, use_rezero=True)"),
    _performer("lm_axial", "performer_lm(ns, causal=False, rotary_position_emb=False, axial_position_emb=True, "
               "axial_position_shape=(4, 8), tie_embed=True)"),
    _performer("fast_attention", "fast_attention(ns)", "fast_attention(ns, causal=True)",
               "fast_attention(ns, generalized_attention=True)", "fast_attention(ns, no_projection=True)",
               xfail="float32 QR: FAVOR+'s random features are torch.linalg.qr of Gaussian 8x8 blocks, whose Q "
               "MKL's LAPACK and NumPy's round differently (51 of 64 entries, up to 4e-7); the queries' gradient has "
               "cancelling elements (-1.4e-05 from terms of 0.1) that show it: -1.4060719e-05 vs -1.4078269e-05"),
]
