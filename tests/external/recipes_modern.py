"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Modern model code (2026-12-05, corpus helper s17): Lightning-AI's litgpt (its GPT with RoPE, grouped-query
attention through SDPA, a KV cache, LLaMA/Gemma MLPs and a mixture of experts), mistral-inference's complex RoPE
(``torch.polar``, ``view_as_complex``) and its MoE routing, state-spaces' S4D (complex diagonal state-space kernels,
``torch.fft.rfft``/``irfft`` convolutions) and yandex-research's rtdl models (MLP, ResNet, FT-Transformer on
tabular data). Each module is fetched as its script and a call to a driver in ``corpus_modern.py`` (our text) is
appended: a small seeded model, forward, backward, optimizer steps and what a user prints.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_libraries2 import EINOPS_PACKAGE

RECIPES: list[dict] = []

DRIVERS = "__import__('corpus_modern')"

LITGPT = ("Lightning-AI/litgpt", "26857050fe3ff627cd714fe92f5838f51a3d5efa", "Apache-2.0")
MISTRAL = ("mistralai/mistral-inference", "2557e12d0e1878a1562ece30434820f80aa3e12a", "Apache-2.0")
S4 = ("state-spaces/s4", "e757cef57d89e448c413de7325ed5601aceaac13", "Apache-2.0")
TORCHTUNE = ("pytorch/torchtune", "bd2a0fc7c31430972728494fa01aaeeb0ebf1ba1", "BSD-3-Clause")
RTDL = ("yandex-research/rtdl-revisiting-models", "e3ed46cac38568785289d8fa16b8cfa585bde27e", "Apache-2.0")


def _then(tail, call):
    """Append ``call`` (a driver call) after ``tail``, the module's last lines."""
    return (tail, f"{tail}\n\n\n{call}\n")


# litgpt's model.py imports litgpt.config (PyYAML) and litgpt.scripts.convert_hf_checkpoint (Lightning): the
# driver module puts stand-ins for both in sys.modules first. config.py finds its MLP and norm classes in
# ``litgpt.model``, so model.py is also its own support file there.
LITGPT_PRELUDE = ("from litgpt.config import Config\n",
                  f"{DRIVERS}.litgpt_stand_ins()\nfrom litgpt.config import Config\n")
LITGPT_TAIL = "        torch.nn.init.ones_(self.weight)"
LITGPT_SUPPORT = [("litgpt/config.py", "litgpt/config.py"), ("litgpt/model.py", "litgpt/model.py")]


BF16_CACHE = ("bfloat16 attention over litgpt's KV cache: torch's CPU flash kernel, given a mask over all 16 cached "
              "keys (12 masked), rounds ~1% of its outputs unlike its own causal 4-key result (torch alone shows it; "
              "its bf16 brgemm path, CPU-dependent); core gives the 4-key result, and a greedy token flips")


def _litgpt(label, xfail=None, **config):
    args = ", ".join(f"{k}={v!r}" for k, v in config.items())
    return _r(f"modern_litgpt_{label}", LITGPT, "litgpt/model.py",
              [LITGPT_PRELUDE, _then(LITGPT_TAIL, f"{DRIVERS}.litgpt(GPT, Config, {args})")],
              support=LITGPT_SUPPORT, xfail=xfail)


RECIPES += [
    # Pythia-like: LayerNorm, parallel residual, GELU MLP, a quarter of each head rotated
    _litgpt("pythia", name="pythia-like"),
    # LLaMA-like: RMSNorm, SwiGLU, grouped-query attention (2 key/value groups for 4 heads), full RoPE
    _litgpt("llama", name="llama-like", norm_class_name="RMSNorm", mlp_class_name="LLaMAMLP", intermediate_size=64,
            n_query_groups=2, rotary_percentage=1.0, parallel_residual=False, bias=False),
    # Gemma-like: tanh-approximate GELU MLP, scaled embeddings, logit soft-capping (attention without SDPA)
    _litgpt("gemma", name="gemma-like", norm_class_name="RMSNorm", mlp_class_name="GemmaMLP", intermediate_size=64,
            n_query_groups=1, rotary_percentage=1.0, parallel_residual=False, bias=False, scale_embeddings=True,
            gelu_approximate="tanh", attention_logit_softcapping=50.0, final_logit_softcapping=30.0),
    # the LLaMA-like model in bfloat16, as litgpt's generate runs it
    _litgpt("llama_bf16", xfail=BF16_CACHE, dtype="bfloat16", name="llama-like", norm_class_name="RMSNorm", mlp_class_name="LLaMAMLP",
            intermediate_size=64, n_query_groups=2, rotary_percentage=1.0, parallel_residual=False, bias=False),
    # Mixtral-like: a mixture of 4 SwiGLU experts, 2 per token
    _litgpt("mixtral", name="mixtral-like", norm_class_name="RMSNorm", mlp_class_name="LLaMAMoE",
            intermediate_size=48, n_expert=4, n_expert_per_token=2, n_query_groups=2, rotary_percentage=1.0,
            parallel_residual=False, bias=False),
    _r("modern_mistral_rope", MISTRAL, "src/mistral_inference/rope.py",
       [_then("    return torch.polar(torch.ones_like(freqs_2d), freqs_2d)",
              f"{DRIVERS}.mistral_rope(precompute_freqs_cis, apply_rotary_emb, precompute_freqs_cis_2d)")]),
    _r("modern_mistral_moe", MISTRAL, "src/mistral_inference/moe.py",
       [("from simple_parsing.helpers import Serializable\n",  # simple_parsing is not installed; unused here
         "Serializable = object\n"),
        _then("        return results", f"{DRIVERS}.mistral_moe(MoeLayer, MoeArgs)")]),
    # s4d.py imports DropoutNd from the repository's src/models/nn package: its dropout.py stands as that package
    _r("modern_s4d", S4, "models/s4/s4d.py",
       [_then("        return y, None # Return a dummy state to satisfy this repo's interface, but this can be modified",
              f"{DRIVERS}.s4d(S4D, S4DKernel)")],
       support=[*EINOPS_PACKAGE, ("src/models/nn/dropout.py", "src/models/nn/__init__.py")]),
    _r("modern_rtdl", RTDL, "package/rtdl_revisiting_models.py",
       [_then("        x = self.backbone(x)\n        return x",
              f"{DRIVERS}.rtdl(__import__('sys').modules[__name__])")]),
    *(_r(f"modern_s4_{label}", S4, "models/s4/s4.py",
         [("from scipy import special as ss\n", ""),  # scipy is not installed; s4.py never uses it
          ("from pytorch_lightning.utilities import rank_zero_only\n",  # its logger's multi-GPU guard
           "rank_zero_only = lambda f: f  # one process\n"),
          _then("self.layer.default_state(*batch_shape)\n\n    @property\n    def d_output(self):\n        return self.d_model",
                f"{DRIVERS}.s4(S4Block, {args})")],
         support=EINOPS_PACKAGE, xfail=xfail)
      for label, args, xfail in (
          ("dplr", "mode='dplr', init='diag-lin'", None),
          ("diag_zoh", "mode='diag', disc='zoh', init='diag-inv'", None),
          ("diag_bilinear", "mode='diag', disc='bilinear', init='diag-lin'", None),
          ("diag_dss", "mode='diag', disc='dss', init='diag-inv', real_transform='none'", None),
          ("legs", "mode='dplr'", "the HiPPO-LegS init diagonalises a Hermitian matrix with linalg.eigh: MKL's "
                                  "cheevd (torch) and NumPy's LAPACK (core) flip the signs of different eigenvector "
                                  "columns (both valid), and B, P and so the kernel follow them"))),
    # torchtune/modules/attention.py with the modules it and the driver import beside it; torchtune.utils (whose
    # package imports the whole library) is a stand-in from the driver module
    *(_r(f"modern_torchtune_attention_{label}", TORCHTUNE, "torchtune/modules/attention.py",
         [("import logging\n", f"import logging\n{DRIVERS}.torchtune_stand_ins()\n"),
          _then("        return self.output_proj(output)", f"{DRIVERS}.torchtune_attention(MultiHeadAttention, {args})")],
         support=[(f"torchtune/modules/{m}.py", f"torchtune/modules/{m}.py")
                  for m in ("attention_utils", "kv_cache", "rms_norm", "position_embeddings", "feed_forward")])
      for label, args in (("gqa", "num_kv_heads=2"), ("mqa_qk_norm", "num_kv_heads=1, qk_norm=True"),
                          ("mha", "num_kv_heads=4"))),
]
