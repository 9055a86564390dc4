"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

labml's annotated paper implementations (2026-12-05, corpus helper s17): each script is one ``labml_nn`` module,
run as ``__main__`` with the package files it imports beside it (``labml`` itself is ``fake_labml.py``). A module's
own ``_test()``/``__main__`` block runs as it is (its plots' numbers printed instead); where it has none, a driver
from ``corpus_labml`` is appended after its last statement.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

LABML = ("labmlai/annotated_deep_learning_paper_implementations", "e6b3c8a6a2cdae4071bcde1abeaaf9a2bc37bd53", "MIT")


def _pkg(*paths):
    """``labml_nn/PATH`` files, each at its place in the script's folder."""
    return [(f"labml_nn/{p}", f"labml_nn/{p}") for p in paths]


BASE = _pkg("__init__.py", "utils/__init__.py")
TRANSFORMERS = BASE + _pkg("transformers/__init__.py", "transformers/configs.py", "transformers/models.py",
                           "transformers/mha.py", "transformers/feed_forward.py", "transformers/positional_encoding.py",
                           "transformers/utils.py", "transformers/xl/__init__.py", "transformers/xl/relative_mha.py")


def _lab(name, path, edits=(), support=TRANSFORMERS, **kw):
    return _r(f"labml_{name}", LABML, f"labml_nn/{path}", edits, support=support, **kw)


def _then(name, path, tail, call, edits=(), support=TRANSFORMERS, **kw):
    """``path`` with ``call`` (a ``corpus_labml`` driver) appended after ``tail``, its last lines."""
    run = f"{tail}\n\n\nimport torch\ntorch.manual_seed(0)\nimport corpus_labml\n{call}\n"
    return _lab(name, path, [*edits, (tail, run)], support, **kw)


XL_RELATIVE = [("from .relative_mha import", "from labml_nn.transformers.xl.relative_mha import"),
               ("from ..feed_forward import", "from labml_nn.transformers.feed_forward import")]  # run as __main__

RECIPES += [
    # the modules' own tests: labml's inspect() prints each value's repr
    _lab("xl_shift_right", "transformers/xl/relative_mha.py"),
    _lab("rope", "transformers/rope/__init__.py", support=TRANSFORMERS + _pkg("transformers/rope/__init__.py")),
    _lab("alibi", "transformers/alibi/__init__.py"),
    _lab("subsequent_mask", "transformers/utils.py"),
    _then("aft", "transformers/aft/__init__.py", "if __name__ == '__main__':\n    _test_local_mask()",
          "corpus_labml.encoder_lm(AFTLocal(16, 8, 4))"),
    # models with drivers: labml's experiment.py configurations, small
    _then("gmlp", "transformers/gmlp/__init__.py", "        return z1 * z2",
          "corpus_labml.encoder_lm(layer=GMLPBlock(16, 32, 8))"),
    _then("fnet", "transformers/fnet/__init__.py", "        return torch.real(fft_seq)",
          "corpus_labml.encoder_lm(FNetMix(), causal=False)"),
    _then("mlp_mixer", "transformers/mlp_mixer/__init__.py", "        x = x.transpose(0, 2)\n\n        #\n        return x",
          "from labml_nn.transformers.feed_forward import FeedForward\n"
          "corpus_labml.encoder_lm(MLPMixer(FeedForward(8, 32, 0.0, activation=torch.nn.GELU())), causal=False)"),
    _then("primer_ez", "transformers/primer_ez/__init__.py",
          "        self.value = nn.Sequential(self.value, SpatialDepthWiseConvolution(self.d_k))",
          "corpus_labml.encoder_lm(MultiDConvHeadAttention(4, 16, 0.0))"),
    _then("switch", "transformers/switch/__init__.py",
          "        return x, torch.stack(counts), torch.stack(route_prob), n_dropped, torch.stack(route_prob_max)",
          "corpus_labml.switch(SwitchTransformer, SwitchTransformerLayer, SwitchFeedForward, MultiHeadAttention, "
          "FeedForward)"),
    _then("feedback", "transformers/feedback/__init__.py", "        self.mem_key.free()\n        self.mem_value.free()",
          "corpus_labml.feedback(FeedbackTransformer, FeedbackTransformerLayer, FeedbackAttention, FeedForward)"),
    _then("feedback_kv", "transformers/feedback/__init__.py", "        self.mem_key.free()\n        self.mem_value.free()",
          "corpus_labml.feedback(FeedbackTransformer, FeedbackTransformerLayer, FeedbackAttention, FeedForward, "
          "kv=True, FeedbackTransformerKV=FeedbackTransformerKV)"),
    _then("xl", "transformers/xl/__init__.py", "        return self.norm(x), new_mem",
          "corpus_labml.xl(TransformerXL, TransformerXLLayer, RelativeMultiHeadAttention, FeedForward)", XL_RELATIVE),
    _then("compressive", "transformers/compressive/__init__.py", "        return sum(losses)",
          "corpus_labml.compressive(CompressiveTransformer, CompressiveTransformerLayer, Conv1dCompression, "
          "AttentionReconstructionLoss, RelativeMultiHeadAttention, FeedForward)"),
    _then("hour_glass", "transformers/hour_glass/__init__.py", "LinearUpsampling(x')$\n    \"\"\"\n\n    def __init__(self):\n        super().__init__()\n"
          "        raise NotImplementedError",
          "corpus_labml.train_lm(corpus_labml._wrap(HourGlass(4, 16, 0.0, 32, [2, 2])))"),
    _then("fast_weights", "transformers/fast_weights/__init__.py", "        return self.norm(x)",
          "corpus_labml.train_lm(corpus_labml._wrap(FastWeightsAttentionTransformer(FastWeightsAttentionTransformerLayer("
          "d_model=16, attn=FastWeightsAttention(4, 16, 0.0, DPFP(nu=1)), feed_forward=FeedForward(16, 32, 0.0), "
          "dropout_prob=0.0), 2)))"),
]
