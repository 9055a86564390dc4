"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Research model code, second batch (2026-12-05, corpus helper I): time-series forecasting models (the Time-Series-
Library), self-supervised learners, meta-learning, capsules. Each model file is the script, with its package's files
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
        "Transformer_EncDec")]
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
    _tslib("fedformer_fourier", "FEDformer", "series(Model)"),
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
]
