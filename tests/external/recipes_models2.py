"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Research model code, second batch (2026-12-05, corpus helper I): time-series forecasting models (the Time-Series-
Library, LTSF-Linear), self-supervised learners (SimSiam, SimCLR, BYOL, Barlow Twins), meta-learning (MAML), capsules,
Bayesian layers (blitz), a mixture density network and NCF. Each model file is the script, with its package's files
beside it, a call to ``corpus_models2.stand_ins()`` before its imports where a layer imports a package the corpus
lacks, and a driver from ``corpus_models2`` appended after its last statement.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_libraries2 import EINOPS_PACKAGE

RECIPES: list[dict] = []

TSLIB = ("thuml/Time-Series-Library", "4e938a1767106324dd753b2a44832bf870a0252e", "MIT")
TSLIB_SUPPORT = [*EINOPS_PACKAGE, ("utils/masking.py", "utils/masking.py"), ("layers/__init__.py", "layers/__init__.py"),
                 ("models/__init__.py", "models/__init__.py"), ("models/PatchTST.py", "models/PatchTST.py")] + [
    (f"layers/{m}.py", f"layers/{m}.py") for m in (
        "AutoCorrelation", "Autoformer_EncDec", "Conv_Blocks", "Crossformer_EncDec", "ETSformer_EncDec", "Embed",
        "FourierCorrelation", "MultiWaveletCorrelation", "Pyraformer_EncDec", "SelfAttention_Family", "StandardNorm",
        "Transformer_EncDec", "TimeFilter_layers", "MSGBlock")]
TSLIB_TAIL = "            return dec_out  # [B, N]\n        return None"
STAND_INS = ("import torch", "__import__('corpus_models2').stand_ins()  # reformer_pytorch, scipy: see corpus_models2\n"
                             "import torch")


def _tslib(name, model, call, tail=TSLIB_TAIL, **kw):
    """models/MODEL.py with the stand-ins before its imports and ``series(Model, ...)`` appended."""
    run = f"{tail}\n\n\nimport torch\ntorch.manual_seed(0)\nfrom corpus_models2 import series\n{call}\n"
    return _r(f"tslib_{name}", TSLIB, f"models/{model}.py", [STAND_INS, (tail, run)], support=TSLIB_SUPPORT, **kw)


RECIPES += [
    _tslib("autoformer", "Autoformer", "series(Model)"),
    _tslib("autoformer_imputation", "Autoformer", "series(Model, task='imputation')"),
    _tslib("informer", "Informer", "series(Model, sgd=True)"),  # its distilling ConvLayer: Conv1d, BatchNorm1d
    _tslib("informer_classification", "Informer", "series(Model, task='classification')"),
    _tslib("fedformer_fourier", "FEDformer", "series(Model, 'fourier', 'random', 4)"),  # 4 modes: an einsum each
    _tslib("patchtst", "PatchTST", "series(Model, sgd=True)"),  # its encoder's norm is BatchNorm1d
    _tslib("patchtst_anomaly", "PatchTST", "series(Model, task='anomaly_detection', sgd=True)"),
    _tslib("dlinear", "DLinear", "series(Model)\nseries(Model, True, task='classification')"),
    _tslib("timesnet", "TimesNet", "series(Model)"),
    _tslib("timesnet_imputation", "TimesNet", "series(Model, task='imputation')"),
    _tslib("itransformer", "iTransformer", "series(Model)\nseries(Model, task='classification')"),
    _tslib("transformer", "Transformer", "series(Model)"),
    _tslib("nonstationary_transformer", "Nonstationary_Transformer", "series(Model)",
           tail="            return dec_out  # [B, L, D]\n        return None"),
    _tslib("crossformer", "Crossformer", "series(Model, seg_len=8)"),
    _tslib("micn", "MICN", "series(Model)"),
    _tslib("lightts", "LightTS", "series(Model)\nseries(Model, task='classification')"),
    _tslib("segrnn", "SegRNN", "series(Model)"),
    _tslib("tsmixer", "TSMixer", "series(Model)", tail="raise ValueError('Only forecast tasks implemented yet')"),
    _tslib("tide", "TiDE", "series(Model)",
           tail='is temporarily not supported")\n        return None'),
    _tslib("frets", "FreTS", "series(Model)", tail="raise ValueError('Only forecast tasks implemented yet')"),
    _tslib("timemixer", "TimeMixer", "series(Model)", tail="raise ValueError('Other tasks implemented yet')"),
    _tslib("pyraformer", "Pyraformer", "series(Model)"),
    _tslib("etsformer", "ETSformer", "series(Model)"),
    _tslib("scinet", "SCINet", "series(Model)", tail="w(1, max_length, self.pe_hidden_size)\n\n        return signal"),
    _tslib("timexer", "TimeXer", "series(Model)",
           tail="_len:, :]  # [B, L, D]\n        else:\n            return None"),
    _tslib("pattn", "PAttn", "series(Model)", tail="ueeze(1).repeat(1, self.pred_len, 1))\n        return dec_out"),
    _tslib("multipatchformer", "MultiPatchFormer", "series(Model)",
           tail='temporarily not supported"\n            )\n        return None'),
    _tslib("mamba_simple", "MambaSimple", "series(Model)",
           tail="mean(-1, keepdim=True) + self.eps) * self.weight\n        return output"),
    _tslib("temporal_fusion_transformer", "TemporalFusionTransformer", "series(Model, enc_in=7, dec_in=7, c_out=7)",
           tail="t], dim=1)\n            return dec_out  # [B, T, D]\n        return None"),
    _tslib("timefilter", "TimeFilter", "series(Model)\nseries(Model, task='classification')",
           tail=", x_mark_enc)\n            return dec_out  # [B, N]\n        return None"),
    _tslib("msgnet", "MSGNet", "series(Model)", tail=", x_mark_enc)\n            return dec_out  # [B, N]\n        return None"),
    _tslib("kanad", "KANAD", "series(Model, task='anomaly_detection')",  # its only task
           tail=' KANAD is temporarily not supported"\n            )\n        return None'),
    _tslib("timesnet_classification", "TimesNet", "series(Model, task='classification', pred_len=0)"),  # as exp/ sets it
    _tslib("crossformer_imputation", "Crossformer", "series(Model, task='imputation', seg_len=8)"),
    _tslib("segrnn_anomaly", "SegRNN", "series(Model, task='anomaly_detection')"),
    _tslib("film", "FiLM", "series(Model)", tail=", x_mark_enc)\n            return dec_out  # [B, N]\n        return None"),
]


def _then(name, source, path, tail, call, edits=(), **kw):
    """``path`` with ``call`` (a ``corpus_models2`` driver) appended after ``tail``, its last lines, and a seed."""
    run = f"{tail}\n\n\nimport torch\ntorch.manual_seed(0)\nimport corpus_models2\n{call}\n"
    return _r(name, source, path, [*edits, (tail, run)], **kw)


SIMSIAM = ("facebookresearch/simsiam", "a7bc1772896d0dad0806c51f0bb6f3b16d290468", "CC-BY-NC-4.0")
SIMCLR = ("sthalles/SimCLR", "1848fc934ad844ae630e6c452300433fe99acfd9", "MIT")
BYOL = ("lucidrains/byol-pytorch", "299312613c1f44923e7869d1c82be7d536c2c42b", "MIT")
BYOL_TAIL = "        loss = loss_one + loss_two\n        return loss.mean()"
BYOL_EDITS = [("from torchvision import transforms as T",  # its default augmentation: identity modules, unused
               "T = __import__('corpus_models2').identity_transforms()")]
MAML = ("dragen1860/MAML-Pytorch", "98a00d41724c133bd29619a2fb2cc46dd128a368", "MIT")
MAML_TAIL = "def main():\n    pass"
OMNIGLOT = ("[('conv2d', [8, 1, 3, 3, 2, 0]), ('relu', [True]), ('bn', [8]), ('conv2d', [8, 8, 3, 3, 2, 0]),"
            " ('relu', [True]), ('bn', [8]), ('conv2d', [8, 8, 2, 2, 1, 0]), ('relu', [True]), ('bn', [8]),"
            " ('flatten', []), ('linear', [3, 8])]")
MINIIMAGENET = ("[('conv2d', [8, 3, 3, 3, 1, 0]), ('leakyrelu', [0.2, True]), ('bn', [8]), ('max_pool2d', [2, 2, 0]),"
                " ('conv2d', [8, 8, 3, 3, 1, 0]), ('tanh', []), ('bn', [8]), ('avg_pool2d', [2, 1, 0]),"
                " ('flatten', []), ('linear', [3, 8 * 2 * 2])]")  # no ReLU before BatchNorm: where a channel is positive
# over the batch, its conv bias's gradient is rounding noise, which the meta-learner's Adam makes a full step
RECIPES += [
    _then("simsiam_builder", SIMSIAM, "simsiam/builder.py", "        return p1, p2, z1.detach(), z2.detach()",
          "corpus_models2.simsiam(SimSiam)"),
    _then("simclr_info_nce", SIMCLR, "simclr.py", "        logging.info(f\"Model checkpoint and metadata has been saved at {self.writer.log_dir}.\")",
          "corpus_models2.info_nce(SimCLR, accuracy)",
          [("import logging", "__import__('corpus_models2').stand_ins()  # yaml (utils.py's, for a config file)\n"
                              "import logging")], support=[("utils.py", "utils.py")]),
    _then("byol", BYOL, "byol_pytorch/byol_pytorch.py", BYOL_TAIL, "corpus_models2.byol(BYOL)", BYOL_EDITS,
          support=EINOPS_PACKAGE),
    _then("byol_simsiam_mlp", BYOL, "byol_pytorch/byol_pytorch.py", BYOL_TAIL,
          "corpus_models2.byol(BYOL, use_momentum=False, use_simplicial_embeddings=False)", BYOL_EDITS,
          support=EINOPS_PACKAGE),
    _then("maml_omniglot", MAML, "meta.py", MAML_TAIL, f"corpus_models2.maml(Meta, {OMNIGLOT}, 12)",
          support=[("learner.py", "learner.py")]),
    _then("maml_miniimagenet", MAML, "meta.py", MAML_TAIL, f"corpus_models2.maml(Meta, {MINIIMAGENET}, 12, imgc=3)",
          support=[("learner.py", "learner.py")]),
]

BARLOW = ("facebookresearch/barlowtwins", "8e8d284ca0bc02f88b92328e53f9b901e86b4a3c", "MIT")
CAPSULES = ("gram-ai/capsule-networks", "6eeda0882bff819b2e788be40cf87fe69f20f26a", "none stated")
RECIPES += [
    _then("barlowtwins", BARLOW, "main.py", "        return y1, y2",
          "corpus_models2.barlow_twins(BarlowTwins, LARS, adjust_learning_rate, off_diagonal)",
          [("torchvision.models.resnet50(zero_init_residual=True)",  # torchvision is the runner's stub
            "__import__('corpus_models2').small_resnet(zero_init_residual=True)"),
           ("sizes = [2048]", "sizes = [8]"),  # the small encoder's features
           ("if __name__ == '__main__':\n    main()", "")]),  # its command line needs a dataset folder
    _r("capsule_network", CAPSULES, "capsule_network.py",
       [("Variable(torch.zeros(*priors.size())).cuda()", "Variable(torch.zeros(*priors.size()))"),  # on the CPU
        ("Variable(torch.eye(NUM_CLASSES)).cuda()", "Variable(torch.eye(NUM_CLASSES))"),
        # PyTorch >= 1.0 keeps the transposed capsules' layout in x * y, which .view cannot flatten (both refuse)
        ("self.decoder((x * y[:, :, None]).view(", "self.decoder((x * y[:, :, None]).reshape("),
        ("    from torch.optim import Adam\n",
         "    from torch.optim import Adam\n    torch.manual_seed(0)\n"
         "    __import__('corpus_models2').capsules(CapsuleNet, CapsuleLoss, augmentation, Adam)\n"
         "    raise SystemExit  # torchnet's engine, visdom and MNIST\n")]),
]

BLITZ = ("piEsposito/blitz-bayesian-deep-learning", "5af11742484852c8bf69ad6fef27c230a2a0ecc2", "GPL-3.0")
BLITZ_PACKAGE = [(f"blitz/{m}.py", f"blitz/{m}.py") for m in (
    "__init__", "losses/__init__", "losses/kl_divergence", "modules/__init__", "modules/base_bayesian_module",
    "modules/conv_bayesian_layer", "modules/embedding_bayesian_layer", "modules/gru_bayesian_layer",
    "modules/linear_bayesian_layer", "modules/lstm_bayesian_layer", "modules/weight_sampler", "utils/__init__",
    "utils/variational_estimator", "utils/layer_wrappers")]
MDN = ("sagelywizard/pytorch-mdn", "b5744b88eea88bc138fc19bc66c87e81dd5e340a", "MIT")
NCF = ("guoyang9/NCF", "89ff06ffcd2bca6bb773b54925265c208a28d318", "none stated")
RECIPES += [
    _r("blitz_bayesian_lenet", BLITZ, "blitz/examples/bayesian_LeNet_mnist.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"),
        ("dsets.MNIST(", "__import__('corpus_support').fake_mnist_small("),
        ("dsets.MNIST(", "__import__('corpus_support').fake_mnist_small("),
        ("range(100)", "range(2)"), ("iteration%250==0", "iteration%1==0")],  # 2 epochs of the 32 stand-in digits
       support=BLITZ_PACKAGE),
    _r("mdn_example", MDN, "example/example.py",
       [("import torch\n", "import torch\ntorch.manual_seed(0)\n"), ("range(1000)", "range(200)"),
        ("if epoch % 100 == 99:", "if epoch % 20 == 19:"),
        ("print(f' {round(epoch/10)}%', end='')", "print(f' {round(epoch/2)}% {loss.item():.6f}', end='')"),
        ("samples = mdn.sample(pi, sigma, mu)\n", "samples = mdn.sample(pi, sigma, mu)\nprint(samples[:6])\n")],
       support=[("mdn/mdn.py", "mdn.py")]),
    _then("ncf_models", NCF, "model.py", "\t\tprediction = self.predict_layer(concat)\n\t\treturn prediction.view(-1)",
          "corpus_models2.ncf(NCF)"),
]
RECIPES += [
    _then("blitz_bayesian_layers", BLITZ, "blitz/utils/layer_wrappers.py",
          '    setattr(nn_module, "sample", sample_radial)\n    return nn_module',
          "corpus_models2.bayesian_layers()", support=BLITZ_PACKAGE),
]

LTSF = ("cure-lab/LTSF-Linear", "0c113668a3b88c4c4ee586b8c5ec3e539c4de5a6", "Apache-2.0")
RECIPES += [
    _then("ltsf_dlinear", LTSF, "models/DLinear.py",
          "        return x.permute(0,2,1) # to [Batch, Output length, Channel]",
          "corpus_models2.linear_forecast(Model)"),
    _then("ltsf_nlinear", LTSF, "models/NLinear.py", "        x = x + seq_last\n        return x # [Batch, Output length, Channel]",
          "corpus_models2.linear_forecast(Model)"),
    _then("ltsf_linear", LTSF, "models/Linear.py",
          "            x = self.Linear(x.permute(0,2,1)).permute(0,2,1)\n        return x # [Batch, Output length, Channel]",
          "corpus_models2.linear_forecast(Model)"),
]
RECIPES += [
    _then("maml_second_order", MAML, "meta.py", MAML_TAIL,
          f"corpus_models2.maml_second_order(Learner, {OMNIGLOT}, 12)", support=[("learner.py", "learner.py")]),
    _then("maml_second_order_pooling", MAML, "meta.py", MAML_TAIL,
          f"corpus_models2.maml_second_order(Learner, {MINIIMAGENET}, 12, imgc=3)", support=[("learner.py", "learner.py")]),
]
RECIPES += [
    _then("tslib_multiwavelet_layers", TSLIB, "layers/MultiWaveletCorrelation.py",
          "        x[..., ::2, :, :] = x_e\n        x[..., 1::2, :, :] = x_o\n        return x",
          "corpus_models2.multiwavelets(MultiWaveletTransform, MultiWaveletCross)",
          [("import torch\n", "__import__('corpus_models2').stand_ins()  # scipy's eval_legendre\nimport torch\n"),
           # the first of the file's two identical evenOdd endings gets a blank line, so the driver follows the last
           ("x[..., 1::2, :, :] = x_o\n        return x", "x[..., 1::2, :, :] = x_o\n\n        return x")]),
]
