"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Third-party libraries and model code, second batch (2026-12-05, corpus helper B): einops (its documentation
notebooks, run on core through its torch backend, and as the support package of the model files), lucidrains'
vit-pytorch model files (ViT, CaiT, DeepViT, T2T, CCT, CrossViT, PiT, LeViT, CvT, NesT, MaxViT, MobileViT, XCiT...
and the MAE/SimMIM/MPP trainers around them), rtqichen's torchdiffeq (fixed-grid and adaptive solvers, the adjoint),
KevinMusgrave's pytorch-metric-learning losses and VincentStimper's normflows. Each model file is fetched as its
script with einops beside it, and a call to a driver in ``corpus_libraries2.py`` (our text) is appended: a small
seeded configuration, forward, backward, a few Adam steps, the state_dict's keys.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

DRIVERS = "__import__('corpus_libraries2')"

EINOPS = ("arogozhnikov/einops", "ccb89f27599f26d7140a1bd2703305309fe3a3bd", "MIT")
EINOPS_PACKAGE = [(*EINOPS[:2], f"einops/{m}.py", f"einops/{m}.py") for m in (
    "__init__", "_backends", "_torch_specific", "einops", "packing", "parsing", "array_api",
    "layers/__init__", "layers/torch", "layers/_einmix")]


def _then(tail, call):
    """Append ``call`` (a driver call) after ``tail``, the module's last lines."""
    return (tail, f"{tail}\n\n\n{call}\n")


RECIPES += [
    _r("lib2_einops_for_deep_learning", EINOPS, "docs/2-einops-for-deep-learning.ipynb",
       [("normal(size=[10, 32, 100, 200])", "normal(size=[10, 32, 40, 80])")],  # 6.4 million doubles took 1 s
       support=[*((p, t) for _, _, p, t in EINOPS_PACKAGE), ("docs/utils/__init__.py", "utils/__init__.py")],
       keep_going=True),
    _r("lib2_einops_einmix", EINOPS, "docs/3-einmix-layer.ipynb",
       support=[*((p, t) for _, _, p, t in EINOPS_PACKAGE), ("docs/utils/__init__.py", "utils/__init__.py")],
       keep_going=True),
    _r("lib2_einops_pack_unpack", EINOPS, "docs/4-pack-and-unpack.ipynb",
       support=[*((p, t) for _, _, p, t in EINOPS_PACKAGE), ("docs/utils/__init__.py", "utils/__init__.py")],
       keep_going=True),
    _r("lib2_einops_pytorch_examples", EINOPS, "scripts/pytorch_examples_source/Pytorch.ipynb",
       support=[(p, t) for _, _, p, t in EINOPS_PACKAGE], keep_going=True),
]

VIT = ("lucidrains/vit-pytorch", "69d24fe9e3024c0d4b02761123b8583a24ebed1e", "MIT")
VIT_PACKAGE = [(f"vit_pytorch/{m}.py", f"vit_pytorch/{m}.py") for m in ("__init__", "vit", "simple_vit", "mae", "dino")]
IMG = "(3, 32, 32)"
SMALL = "image_size=32, patch_size=8, num_classes=5, dim=32, depth=2, heads=4, mlp_dim=64, dim_head=8"


def _vit(module, tail, *calls, package=False, name=None, edits=(), extra=()):
    """vit_pytorch/MODULE.py with einops beside it (and the vit_pytorch package, with ``extra`` modules, where it
    imports it)."""
    return _r(name or f"lib2_vit_{module}", VIT, f"vit_pytorch/{module}.py",
              [*edits, _then(tail, "\n".join(f"{DRIVERS}.{c}" for c in calls))],
              support=[*EINOPS_PACKAGE, *(VIT_PACKAGE if package else ()),
                       *((f"vit_pytorch/{m}.py", f"vit_pytorch/{m}.py") for m in extra)])


def _cls(make, shape=IMG, **kw):
    options = "".join(f", {k}={v!r}" for k, v in kw.items())
    return f"classifier(lambda: {make}, {shape}, classes=5{options})"


RECIPES += [
    _vit("vit", "        return self.mlp_head(x)", _cls(f"ViT({SMALL}, dropout=0.1, emb_dropout=0.1)"),
         _cls(f"ViT({SMALL}, pool='mean', channels=1)", "(1, 32, 32)")),
    _vit("simple_vit", "        return self.linear_head(x)", _cls(f"SimpleViT({SMALL})")),
    _vit("cait", "        return self.mlp_head(x[:, 0])",
         _cls(f"CaiT({SMALL}, cls_depth=1, dropout=0.1, emb_dropout=0.1, layer_dropout=0.05)")),
    _vit("deepvit", "        return self.mlp_head(x)", _cls(f"DeepViT({SMALL}, dropout=0.1, emb_dropout=0.1)")),
    _vit("t2t", "        return self.mlp_head(x)", _cls(
        "T2TViT(image_size=32, num_classes=5, dim=32, depth=2, heads=4, mlp_dim=64, dim_head=8, "
        "t2t_layers=((7, 4), (3, 2), (3, 2)))"), package=True),
    _vit("cct", "        return self.classifier(x)",
         _cls("CCT(img_size=32, embedding_dim=32, n_conv_layers=2, kernel_size=3, stride=1, padding=1, "
              "pooling_kernel_size=3, pooling_stride=2, pooling_padding=1, num_layers=2, num_heads=4, mlp_ratio=2.0, "
              "num_classes=5, positional_embedding='learnable')"),
         _cls("CCT(img_size=(16, 32), embedding_dim=32, n_conv_layers=1, kernel_size=3, stride=2, padding=1, "
              "pooling_kernel_size=3, pooling_stride=2, pooling_padding=1, num_layers=1, num_heads=2, mlp_ratio=2.0, "
              "num_classes=5, positional_embedding='sine')", "(3, 16, 32)")),
    _vit("cross_vit", "        return sm_logits + lg_logits", _cls(
        "CrossViT(image_size=32, num_classes=5, depth=1, sm_dim=32, sm_patch_size=8, sm_enc_depth=1, sm_enc_heads=2, "
        "sm_enc_mlp_dim=64, sm_enc_dim_head=8, lg_dim=48, lg_patch_size=16, lg_enc_depth=1, lg_enc_heads=2, "
        "lg_enc_mlp_dim=64, lg_enc_dim_head=8, cross_attn_depth=1, cross_attn_heads=2, cross_attn_dim_head=8)")),
    _vit("pit", "        return self.mlp_head(x[:, 0])", _cls(
        "PiT(image_size=32, patch_size=4, dim=16, num_classes=5, depth=(1, 1, 1), heads=2, mlp_dim=32, dim_head=8, "
        "dropout=0.1, emb_dropout=0.1)")),
    _vit("levit", "            return out, distill\n\n        return out", _cls(
        "LeViT(image_size=64, num_classes=5, stages=3, dim=(16, 24, 32), depth=1, heads=(2, 3, 4), mlp_mult=2, "
        "dim_key=8, dim_value=8, dropout=0.1)", "(3, 64, 64)")),
    _vit("cvt", "        return self.to_logits(latents)", _cls(
        "CvT(num_classes=5, s1_emb_dim=16, s1_heads=1, s2_emb_dim=24, s2_heads=2, s2_depth=1, s3_emb_dim=32, "
        "s3_heads=2, s3_depth=1, dropout=0.1)", sgd=True)),
    _vit("nest", "        return self.mlp_head(x)", _cls(
        "NesT(image_size=32, patch_size=4, dim=16, heads=2, num_hierarchies=2, block_repeats=(1, 1), num_classes=5, "
        "dim_head=8)")),
    _vit("max_vit", "        return self.mlp_head(x)", _cls(
        "MaxViT(num_classes=5, dim_conv_stem=16, dim=16, dim_head=8, depth=(1, 1), window_size=4, "
        "mbconv_expansion_rate=2, dropout=0.1)", sgd=True)),
    _vit("mobile_vit", "        return self.to_logits(x)", _cls(
        "MobileViT(image_size=(32, 32), dims=[16, 24, 32], channels=[8, 8, 16, 16, 24, 24, 32, 32, 40, 40, 64], "
        "num_classes=5)")),
    _vit("xcit", "        return self.mlp_head(cls_tokens[:, 0])", _cls(
        f"XCiT({SMALL}, cls_depth=1, dropout=0.1, emb_dropout=0.1, layer_dropout=0.05)")),
    _vit("local_vit", "        return self.mlp_head(x[:, 0])", _cls(f"ViT({SMALL}, dropout=0.1)")),
    _vit("rvt", "        return self.mlp_head(x[:, 0])", _cls(f"RvT({SMALL})"),
         _cls(f"RvT({SMALL}, use_rotary=False, use_ds_conv=False, use_glu=False)")),
    _vit("parallel_vit", "        return self.mlp_head(x)", _cls(f"ViT({SMALL}, num_parallel_branches=2, dropout=0.1)")),
    _vit("vit_for_small_dataset", "        return self.mlp_head(x)", _cls(f"ViT({SMALL}, dropout=0.1, emb_dropout=0.1)")),
    _vit("vit_with_patch_merger", "        return self.mlp_head(x)", _cls(f"ViT({SMALL}, patch_merge_layer=1, "
                                                                            "patch_merge_num_tokens=4)")),
    _vit("ats_vit", "            return logits, token_ids\n\n        return logits", _cls(
        f"ViT({SMALL}, max_tokens_per_depth=(12, 6))")),
    _vit("vit_3d", "        return self.mlp_head(x)", _cls(
        "ViT(image_size=16, image_patch_size=8, frames=4, frame_patch_size=2, num_classes=5, dim=32, depth=2, heads=4, "
        "mlp_dim=64, dim_head=8, dropout=0.1)", "(3, 4, 16, 16)")),
    _vit("simple_vit_3d", "        return self.linear_head(x)", _cls(
        "SimpleViT(image_size=16, image_patch_size=8, frames=4, frame_patch_size=2, num_classes=5, dim=32, depth=2, "
        "heads=4, mlp_dim=64, dim_head=8)", "(3, 4, 16, 16)")),
    _vit("simple_vit_with_qk_norm", "        return self.linear_head(x)", _cls(f"SimpleViT({SMALL})")),
    _vit("simple_vit_with_register_tokens", "        return self.linear_head(x)",
         _cls(f"SimpleViT({SMALL}, num_register_tokens=2)")),
    _vit("simple_vit_with_patch_dropout", "        return self.linear_head(x)",
         _cls(f"SimpleViT({SMALL}, patch_dropout=0.25)")),
    _vit("mae", "        return recon_loss",
         "trainer(lambda: MAE(encoder=__import__('vit_pytorch').ViT(" + SMALL + "), masking_ratio=0.75, "
         "decoder_dim=16, decoder_depth=1, decoder_dim_head=8), lambda: torch.randn(2, 3, 32, 32))", package=True),
    _vit("simmim", "        return recon_loss",
         "trainer(lambda: SimMIM(encoder=__import__('vit_pytorch').ViT(" + SMALL + "), masking_ratio=0.5), "
         "lambda: torch.randn(2, 3, 32, 32))", package=True),
]

TORCHDIFFEQ = ("rtqichen/torchdiffeq", "657943acefa826ef04c025ebeb1ff5e9d60dc268", "MIT")
TORCHDIFFEQ_PACKAGE = [(f"torchdiffeq/{m}.py", f"torchdiffeq/{m}.py") for m in (
    "__init__ _impl/__init__ _impl/adaptive_heun _impl/adjoint _impl/bosh3 _impl/dopri5 _impl/dopri8 "
    "_impl/event_handling _impl/fehlberg2 _impl/fixed_adams _impl/fixed_grid _impl/fixed_grid_implicit _impl/interp "
    "_impl/misc _impl/odeint _impl/rk_common _impl/scipy_wrapper _impl/solvers _impl/tsit5").split()]
NO_SCIPY = "with __import__('corpus_libraries2').no_scipy():  # its SciPy wrapper's import\n    import torchdiffeq\n"


def _ode_demo(name, argv, xfail=None):
    """torchdiffeq's ode_demo.py (the spiral fit) on a shorter run: ``argv`` its command line."""
    return _r(name, TORCHDIFFEQ, "examples/ode_demo.py",
              [("args = parser.parse_args()", f"args = parser.parse_args({argv!r})\ntorch.manual_seed(0)"),
               ("if args.adjoint:\n", NO_SCIPY + "if args.adjoint:\n"),
               ("t = torch.linspace(0., 25., args.data_size)", "t = torch.linspace(0., 5., args.data_size)")],
              support=TORCHDIFFEQ_PACKAGE, xfail=xfail)


RECIPES += [
    _r("lib2_torchdiffeq_solvers", TORCHDIFFEQ, "torchdiffeq/__init__.py",
       [*((f"from ._impl import {f}\n", "") for f in ("odeint", "odeint_adjoint", "odeint_event", "odeint_dense")),
        _then('__version__ = "0.2.5"', NO_SCIPY + f"{DRIVERS}.ode(torchdiffeq)")],
       support=TORCHDIFFEQ_PACKAGE),
    _ode_demo("lib2_torchdiffeq_ode_demo", ["--data_size", "100", "--niters", "6", "--test_freq", "3",
                                            "--batch_time", "6", "--batch_size", "8"]),
    _ode_demo("lib2_torchdiffeq_ode_demo_adjoint", ["--data_size", "100", "--niters", "3", "--test_freq", "3",
                                                    "--batch_time", "5", "--batch_size", "8", "--adjoint"]),
]

PML = ("KevinMusgrave/pytorch-metric-learning", "216a792c22b0154d3d3bf008a7317edc7d677e71", "MIT")
PML_PACKAGE = [(f"src/pytorch_metric_learning/{m}.py", f"pytorch_metric_learning/{m}.py") for m in (
    "__init__ distances/__init__ distances/base_distance distances/batched_distance distances/cosine_similarity "
    "distances/dot_product_similarity distances/lp_distance distances/snr_distance reducers/__init__ "
    "reducers/avg_non_zero_reducer reducers/base_reducer reducers/class_weighted_reducer reducers/divisor_reducer "
    "reducers/do_nothing_reducer reducers/mean_reducer reducers/multiple_reducers reducers/per_anchor_reducer "
    "reducers/sum_reducer reducers/threshold_reducer regularizers/__init__ regularizers/base_regularizer "
    "regularizers/center_invariant_regularizer regularizers/lp_regularizer regularizers/regular_face_regularizer "
    "regularizers/sparse_centers_regularizer regularizers/zero_mean_regularizer miners/__init__ miners/angular_miner "
    "miners/base_miner miners/batch_easy_hard_miner miners/batch_hard_miner miners/distance_weighted_miner "
    "miners/embeddings_already_packaged_as_triplets miners/hdc_miner miners/multi_similarity_miner "
    "miners/pair_margin_miner miners/triplet_margin_miner miners/uniform_histogram_miner utils/__init__ "
    "utils/common_functions utils/distributed utils/loss_and_miner_utils utils/module_with_records "
    "utils/module_with_records_and_reducer losses/__init__ losses/angular_loss losses/arcface_loss "
    "losses/base_loss_wrapper losses/base_metric_loss_function losses/circle_loss losses/contrastive_loss "
    "losses/cosface_loss losses/cross_batch_memory losses/dynamic_soft_margin_loss losses/fast_ap_loss "
    "losses/generic_pair_loss losses/histogram_loss losses/instance_loss losses/intra_pair_variance_loss "
    "losses/large_margin_softmax_loss losses/lifted_structure_loss losses/manifold_loss losses/margin_loss "
    "losses/mixins losses/multi_similarity_loss losses/multiple_losses losses/n_pairs_loss losses/nca_loss "
    "losses/normalized_softmax_loss losses/ntxent_loss losses/p2s_grad_loss losses/pnp_loss losses/proxy_anchor_loss "
    "losses/proxy_losses losses/ranked_list_loss losses/self_supervised_loss losses/signal_to_noise_ratio_losses "
    "losses/soft_triple_loss losses/sphereface_loss losses/subcenter_arcface_loss losses/supcon_loss losses/tcm_loss "
    "losses/triplet_margin_loss losses/tuplet_margin_loss losses/vicreg_loss").split()]
PML_IMPORT = ("with __import__('corpus_libraries2').scipy_for_metric_learning():\n"
              "    from pytorch_metric_learning import distances, losses, miners, reducers, regularizers\n")


def _pml(name, *calls):
    """pytorch_metric_learning/__init__.py (its version) as the script, the package beside it, then ``calls``."""
    body = "\n".join(f"{DRIVERS}.{c}" for c in calls)
    return _r(f"lib2_metric_{name}", PML, "src/pytorch_metric_learning/__init__.py",
              [_then('__version__ = "2.8.1"', f"{PML_IMPORT}print(__version__)\n{body}")], support=PML_PACKAGE)


def _m(loss, miner=None):
    return f"metric(lambda: losses.{loss}" + (f", miner=miners.{miner})" if miner else ")")


RECIPES += [
    _pml("pair_losses", _m("ContrastiveLoss()"), _m("ContrastiveLoss(pos_margin=0.1, neg_margin=1.5)",
                                                    "PairMarginMiner(pos_margin=0.2, neg_margin=0.8)"),
         _m("MultiSimilarityLoss()", "MultiSimilarityMiner(epsilon=0.1)"), _m("CircleLoss(m=0.4, gamma=80)"),
         _m("NTXentLoss(temperature=0.07)"), _m("SupConLoss(temperature=0.1)"), _m("LiftedStructureLoss()"),
         _m("GeneralizedLiftedStructureLoss(neg_margin=1.0)"), _m("IntraPairVarianceLoss()"),
         _m("SignalToNoiseRatioContrastiveLoss()"), _m("NCALoss(softmax_scale=1)"), _m("NPairsLoss()")),
    _pml("triplet_losses", _m("TripletMarginLoss(margin=0.2)"),
         _m("TripletMarginLoss(margin=0.1, swap=True, smooth_loss=True)", "TripletMarginMiner(margin=0.3, "
            "type_of_triplets='semihard')"), _m("TripletMarginLoss(distance=distances.CosineSimilarity(), "
            "reducer=reducers.ThresholdReducer(low=0))", "BatchHardMiner()"),
         _m("AngularLoss(alpha=40)"), _m("MarginLoss(margin=0.2, nu=0, beta=1.2, learn_beta=True, num_classes=4)"),
         _m("TupletMarginLoss()"), _m("FastAPLoss(num_bins=10)"), _m("HistogramLoss(n_bins=10)"),
         _m("RankedListLoss(margin=0.4, Tn=10)"), "metric(lambda: losses.ManifoldLoss(l=6, K=3), inputs='embeddings')",
         _m("PNPLoss()"),
         _m("TripletMarginLoss(embedding_regularizer=regularizers.LpRegularizer())")),
    _pml("classification_losses", _m("ArcFaceLoss(num_classes=4, embedding_size=6)"),
         _m("CosFaceLoss(num_classes=4, embedding_size=6)"), _m("SubCenterArcFaceLoss(num_classes=4, embedding_size=6)"),
         _m("SphereFaceLoss(num_classes=4, embedding_size=6)"),
         _m("LargeMarginSoftmaxLoss(num_classes=4, embedding_size=6, margin=3)"),
         _m("NormalizedSoftmaxLoss(num_classes=4, embedding_size=6)"), _m("ProxyNCALoss(num_classes=4, embedding_size=6)"),
         _m("ProxyAnchorLoss(num_classes=4, embedding_size=6)"), _m("SoftTripleLoss(num_classes=4, embedding_size=6)"),
         _m("ArcFaceLoss(num_classes=4, embedding_size=6, weight_regularizer=regularizers.RegularFaceRegularizer())"),
         _m("CosFaceLoss(num_classes=4, embedding_size=6, weight_regularizer=regularizers.CenterInvariantRegularizer())"),
         _m("P2SGradLoss(descriptors_dim=6, num_classes=4)"), _m("InstanceLoss()"),
         _m("ThresholdConsistentMarginLoss()"), "metric(lambda: losses.VICRegLoss(), inputs='pairs')",
         "metric(lambda: losses.SelfSupervisedLoss(losses.NTXentLoss(temperature=0.1)), inputs='pairs')"),
]

NORMFLOWS = ("VincentStimper/normalizing-flows", "c6616b1a9f04c0e894b9e045e66bd504db17ef5e", "MIT")
NORMFLOWS_PACKAGE = [(f"normflows/{m}.py", f"normflows/{m}.py") for m in (
    "__init__ core distributions/__init__ distributions/base distributions/decoder distributions/encoder "
    "distributions/linear_interpolation distributions/mh_proposal distributions/prior distributions/target "
    "flows/__init__ flows/affine/__init__ flows/affine/autoregressive flows/affine/coupling flows/affine/glow "
    "flows/base flows/mixing flows/neural_spline/__init__ flows/neural_spline/autoregressive "
    "flows/neural_spline/coupling flows/neural_spline/wrapper flows/normalization flows/periodic flows/planar "
    "flows/radial flows/reshape flows/residual flows/stochastic nets/__init__ nets/cnn nets/lipschitz nets/made "
    "nets/mlp nets/resnet sampling/__init__ sampling/hais transforms utils/__init__ utils/eval utils/masks utils/nn "
    "utils/optim utils/preprocessing utils/splines").split()]


def _normflows(name, *calls):
    """normflows/__init__.py (its version) as the script, the package beside it, then ``calls``."""
    body = "\n".join(f"{DRIVERS}.{c}" for c in calls)
    return _r(f"lib2_normflows_{name}", NORMFLOWS, "normflows/__init__.py",
              [("from .core import *\nfrom . import core\nfrom . import flows\nfrom . import distributions\n"
                "from . import transforms\nfrom . import nets\nfrom . import utils\nfrom . import sampling\n"
                "from .sampling import HAIS\n", ""),  # the package's relative imports (it is imported below)
               _then('__version__ = "1.7.3"', f"import normflows\nprint(__version__)\n{body}")],
              support=NORMFLOWS_PACKAGE)


RECIPES += [
    _normflows("coupling", "flows(normflows, 'real_nvp')", "flows(normflows, 'masked_affine')",
               "flows(normflows, 'real_nvp', reverse=True)"),
    _normflows("splines", "flows(normflows, 'neural_spline')", "flows(normflows, 'coupled_spline')",
               "flows(normflows, 'maf')"),
    _normflows("planar_residual", "flows(normflows, 'planar', reverse=True, steps=6)", "flows(normflows, 'residual')"),
]

MAIN = "if __name__ == '__main__':"


def _vit_main(module, *calls, package=False):
    """A vit_pytorch module with its own full-size ``__main__`` demo: the driver runs in its place."""
    body = "\n".join(f"{DRIVERS}.{c}" for c in calls)
    return _r(f"lib2_vit_{module}", VIT, f"vit_pytorch/{module}.py",
              [(MAIN, f"{body}\nif False:  # the demo's full-size model (our driver's small one runs above)")],
              support=[*EINOPS_PACKAGE, *(VIT_PACKAGE if package else ())])


VIT_PKG = "__import__('vit_pytorch')"
RECIPES += [
    _vit_main("vit_1d", _cls("ViT(seq_len=32, patch_size=8, num_classes=5, dim=32, depth=2, heads=4, mlp_dim=64, "
                             "dim_head=8, dropout=0.1, emb_dropout=0.1)", "(3, 32)")),
    _vit_main("simple_vit_1d", _cls("SimpleViT(seq_len=32, patch_size=8, num_classes=5, dim=32, depth=2, heads=4, "
                                    "mlp_dim=64, dim_head=8)", "(3, 32)")),
    _vit_main("simple_vit_with_fft", _cls(f"SimpleViT({SMALL}, freq_patch_size=4)")),
    _vit_main("simple_vit_with_value_residual", _cls(f"SimpleViT({SMALL})")),
    _vit_main("vit_nd", _cls("ViTND(ndim=3, input_shape=(4, 8, 8), patch_size=(2, 4, 4), num_classes=5, dim=32, "
                             "depth=2, heads=4, mlp_dim=64, dim_head=8, dropout=0.1, emb_dropout=0.1)", "(3, 4, 8, 8)")),
    _vit_main("look_vit", _cls("LookViT(dim=32, image_size=32, num_classes=5, depth=2, patch_size=8, heads=4, "
                               "dim_head=8, highres_patch_size=4, highres_mlp_factor=2, cross_attn_heads=2, "
                               "cross_attn_dim_head=8, patch_conv_kernel_size=3)")),
    _vit_main("normalized_vit", _cls("nViT(image_size=32, patch_size=8, num_classes=5, dim=32, depth=2, heads=4, "
                                     "mlp_dim=64, dim_head=8)")),
    _vit("learnable_memory_vit", "        return self.mlp_head(memory_cls_tokens)",
         _cls(f"Adapter(vit=ViT({SMALL}), num_memories_per_layer=3, num_classes=5)")),
    _vit("twins_svt", "        return self.layers(x)", _cls(
        "TwinsSVT(num_classes=5, s1_emb_dim=16, s1_patch_size=4, s1_local_patch_size=4, s1_global_k=4, s1_depth=1, "
        "s2_emb_dim=24, s2_patch_size=2, s2_local_patch_size=2, s2_global_k=2, s2_depth=1, s3_emb_dim=32, "
        "s3_patch_size=2, s3_local_patch_size=2, s3_global_k=2, s3_depth=1, s4_emb_dim=40, s4_patch_size=2, "
        "s4_local_patch_size=1, s4_global_k=1, s4_depth=1)")),
    _vit("recorder", "        return pred, attns",
         f"features(lambda: Recorder({VIT_PKG}.ViT({SMALL})), lambda: torch.randn(2, 3, 32, 32))", package=True),
    _vit("extractor", "        return pred, latents",
         f"features(lambda: Extractor({VIT_PKG}.ViT({SMALL})), lambda: torch.randn(2, 3, 32, 32))", package=True),
]

IMAGES = "lambda: torch.randn(2, 3, 32, 32)"
RECIPES += [
    _vit_main("vivit", _cls("ViViT(image_size=16, image_patch_size=8, frames=4, frame_patch_size=2, num_classes=5, "
                            "dim=32, spatial_depth=1, temporal_depth=1, heads=4, mlp_dim=64, dim_head=8, "
                            "use_flash_attn=False)", "(3, 4, 16, 16)"),
              _cls("ViViT(image_size=16, image_patch_size=8, frames=4, frame_patch_size=2, num_classes=5, dim=32, "
                   "spatial_depth=1, temporal_depth=1, heads=4, mlp_dim=64, dim_head=8, variant='factorized_self_"
                   "attention', use_flash_attn=True)", "(3, 4, 16, 16)")),
    _vit("simple_flash_attn_vit", "        return self.linear_head(x)", _cls(f"SimpleViT({SMALL}, use_flash=True)"),
         _cls(f"SimpleViT({SMALL}, use_flash=False)")),  # (its use_flash=False path calls an einsum it never imports)
    _vit("max_vit_with_registers", "        return self.mlp_head(x)", _cls(
        "MaxViT(num_classes=5, dim_conv_stem=16, dim=16, dim_head=8, depth=(1, 1), window_size=4, "
        "mbconv_expansion_rate=2, dropout=0.1, num_register_tokens=2)", sgd=True)),
    _vit("cct_3d", "        return self.classifier(x)", _cls(
        "CCT(img_size=16, num_frames=4, embedding_dim=32, n_conv_layers=1, frame_kernel_size=3, kernel_size=3, "
        "stride=1, padding=1, pooling_kernel_size=3, pooling_stride=2, pooling_padding=1, num_layers=2, num_heads=4, "
        "mlp_ratio=2.0, num_classes=5, positional_embedding='learnable')", "(3, 4, 16, 16)")),
    _vit("vit_with_patch_dropout", "        return self.mlp_head(x)", _cls(f"ViT({SMALL}, patch_dropout=0.25)")),
    _vit("mp3", "        return loss", f"trainer(lambda: MP3(ViT(num_classes=5, image_size=32, patch_size=8, dim=32, "
         f"depth=2, heads=4, mlp_dim=64, dim_head=8), masking_ratio=0.5), {IMAGES})"),
    _vit("distill", "        return loss * (1 - alpha) + distill_loss * alpha",
         f"trainer(lambda: DistillWrapper(teacher={VIT_PKG}.ViT({SMALL}), student=DistillableViT({SMALL}), "
         "temperature=3, alpha=0.5), lambda: (torch.randn(2, 3, 32, 32), torch.tensor([1, 3])))",
         f"trainer(lambda: DistillWrapper(teacher={VIT_PKG}.ViT({SMALL}), student=DistillableViT({SMALL}), hard=True, "
         "mlp_layernorm=True), lambda: (torch.randn(2, 3, 32, 32), torch.tensor([1, 3])))", package=True,
         extra=("t2t", "efficient")),
]

DDPM = ("lucidrains/denoising-diffusion-pytorch", "faed4db28e724735323fa91c70aa9b28a6e1cbac", "MIT")
DDPM_SUPPORT = [*EINOPS_PACKAGE, ("denoising_diffusion_pytorch/attend.py", "denoising_diffusion_pytorch/attend.py"),
                # the package's __init__ imports its trainers (accelerate, ema_pytorch, PIL...): its version
                # module (one line) stands in for it
                ("denoising_diffusion_pytorch/version.py", "denoising_diffusion_pytorch/__init__.py")]

RECIPES += [
    _r("lib2_ddpm_karras_unet", DDPM, "denoising_diffusion_pytorch/karras_unet.py",
       [(MAIN, f"{DRIVERS}.denoiser(lambda: KarrasUnet(image_size=8, dim=16, dim_max=32, num_classes=5, channels=4, "
               "num_downsamples=2, num_blocks_per_stage=1, attn_res=(4, 2), attn_dim_head=8), (4, 8, 8), classes=5, "
               "scheduler=lambda o: InvSqrtDecayLRSched(o, t_ref=2, sigma_ref=1.0))\n"
               "if False:  # the demo's full-size model (our driver's small one runs above)")],
       support=DDPM_SUPPORT),
    _r("lib2_ddpm_karras_unet_1d", DDPM, "denoising_diffusion_pytorch/karras_unet_1d.py",
       [(MAIN, f"{DRIVERS}.denoiser(lambda: KarrasUnet1D(seq_len=16, dim=16, dim_max=32, num_classes=5, channels=4, "
               "num_downsamples=2, num_blocks_per_stage=1, attn_res=(8, 4), attn_dim_head=8), (4, 16), classes=5)\n"
               "if False:  # the demo's full-size model (our driver's small one runs above)")],
       support=DDPM_SUPPORT),
    _r("lib2_ddpm_simple_diffusion", DDPM, "denoising_diffusion_pytorch/simple_diffusion.py",
       [_then("        return self.p_losses(img, times, *args, loss_reduction = loss_reduction, **kwargs)",
              f"{DRIVERS}.diffusion(lambda: GaussianDiffusion(UViT(16, dim_mults=(1, 2), vit_depth=1, "
              "attn_dim_head=8, attn_heads=2), image_size=16, num_sample_steps=4))")],
       support=EINOPS_PACKAGE),
]

NAVIT = "image_size=32, patch_size=8, num_classes=5, dim=32, depth=2, heads=4, mlp_dim=64, dim_head=8"
RECIPES += [
    _vit("na_vit", "        return self.mlp_head(x)",
         f"navit(lambda: NaViT({NAVIT}, dropout=0.1, emb_dropout=0.1, token_dropout_prob=0.25))"),
    _vit_main("na_vit_nested_tensor",  # its transformer on jagged nested tensors (torch.nested)
              f"navit(lambda: NaViT({NAVIT}, dropout=0.1, emb_dropout=0.1, token_dropout_prob=0.25), nested=True)"),
    _vit_main("na_vit_nested_tensor_3d",  # the same on volumes of 2 and 4 frames
              f"navit(lambda: NaViT({NAVIT}, max_frames=4, frame_patch_size=2, dropout=0.1, emb_dropout=0.1, "
              "token_dropout_prob=0.25), nested=True, frames=(2, 4, 2, 4, 2))"),
]

PERCEIVER = ("lucidrains/perceiver-pytorch", "96097c6a27cc64fc1f196d3a58d32b8a82f573e1", "MIT")
ROTARY = ("lucidrains/rotary-embedding-torch", "8bb4643d1c29f944c47d2e807452ac437689af18", "MIT")
MIXER = ("lucidrains/mlp-mixer-pytorch", "b102a9b25cb8bd2360db36cbd252dc4e670fd5e4", "MIT")
SIREN = ("lucidrains/siren-pytorch", "3555d895b213d243e8aa4db1913d01154cdcdd6b", "MIT")
MIXER_TAIL = "        nn.Linear(dim, num_classes)\n    )"


def _lucid(name, source, path, tail, *calls):
    """A lucidrains module with einops beside it and driver ``calls`` appended."""
    return _r(f"lib2_{name}", source, path, [_then(tail, "\n".join(f"{DRIVERS}.{c}" for c in calls))],
              support=EINOPS_PACKAGE)


RECIPES += [
    _lucid("perceiver", PERCEIVER, "perceiver_pytorch/perceiver_pytorch.py", "        return self.to_logits(x)",
           _cls("Perceiver(input_channels=3, input_axis=2, num_freq_bands=4, max_freq=10.0, depth=2, num_latents=8, "
                "latent_dim=16, cross_heads=1, latent_heads=2, cross_dim_head=8, latent_dim_head=8, num_classes=5, "
                "attn_dropout=0.1, ff_dropout=0.1, weight_tie_layers=True)", "(16, 16, 3)")),
    _lucid("perceiver_io", PERCEIVER, "perceiver_pytorch/perceiver_io.py", "        return logits",
           "language_model(lambda: PerceiverLM(num_tokens=50, dim=16, depth=2, max_seq_len=12, num_latents=8, "
           "latent_dim=16, cross_heads=1, latent_heads=2, cross_dim_head=8, latent_dim_head=8))"),
    _lucid("rotary_embedding", ROTARY, "rotary_embedding_torch/rotary_embedding_torch.py", "        return freqs",
           "rotary(__import__('types').SimpleNamespace(**globals()))"),
    _lucid("mlp_mixer", MIXER, "mlp_mixer_pytorch/mlp_mixer_pytorch.py", MIXER_TAIL,
           _cls("MLPMixer(image_size=16, channels=3, patch_size=4, dim=32, depth=2, num_classes=5, dropout=0.1)",
                "(3, 16, 16)")),
    _lucid("mlp_mixer_permutator", MIXER, "mlp_mixer_pytorch/permutator.py", MIXER_TAIL,
           _cls("Permutator(image_size=16, patch_size=4, dim=32, depth=2, num_classes=5, segments=4)", "(3, 16, 16)")),
    _lucid("mlp_mixer_3d", MIXER, "mlp_mixer_pytorch/mlp_mixer_3d_pytorch.py", MIXER_TAIL,
           _cls("MLPMixer3D(image_size=16, time_size=4, channels=3, patch_size=4, time_patch_size=2, dim=32, depth=2, "
                "num_classes=5)", "(3, 4, 16, 16)")),
    _lucid("siren", SIREN, "siren_pytorch/siren_pytorch.py", "            return F.mse_loss(img, out)\n\n        return out",
           "trainer(lambda: SirenWrapper(SirenNet(dim_in=2, dim_hidden=32, dim_out=3, num_layers=3, "
           "final_activation=nn.Sigmoid()), image_width=8, image_height=8), lambda: torch.rand(1, 3, 8, 8), steps=5)",
           "trainer(lambda: SirenWrapper(SirenNet(dim_in=2, dim_hidden=32, dim_out=3, num_layers=3, dropout=0.1, "
           "w0_initial=10.0), image_width=8, image_height=8), lambda: torch.rand(1, 3, 8, 8), steps=3)"),
]
