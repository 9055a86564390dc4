"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

lucidrains' x-transformers on core (2026-12-06, corpus helper s26 XTRANSFORMERS): lucidrains/x-transformers at its
2.16.1 release (2026-02-12, MIT) with einx v0.3.0 and einops (``recipes_lucidrains``' pins), its package fetched
beside each script and loaded in both runs (``runner._fetched_packages``). Two kinds of script:
- ``xt_test_*``: its own ``tests/test_x_transformers.py`` through pytest (``corpus_pruning.run_pytest``), in groups
  picked by ``-k`` so each runs in reasonable time on a CPU;
- ``xt_*``: ``x_transformers/__init__.py`` run as a script beside its package with drivers of ours appended
  (``corpus_xtransformers.py``): the README's usage examples (decoder-only GPT, encoder, encoder-decoder, ViT,
  continuous and xVal transformers, XL recurrence, the feature flags) at tiny sizes on seeded data, each printing
  logits, losses, gradients and a few SGD steps' losses to the last bit, and sampling with the wrappers.
loguru (imported at module level, only ``logger.warning`` called) is ``fake_lucidrains_deps.py``'s.
"""

from __future__ import annotations

from recipe_kit import _r
from recipes_lucidrains import EINOPS_PACKAGE, EINX_PACKAGE

RECIPES: list[dict] = []

XT = ("lucidrains/x-transformers", "7921e1a91a52e14edc9d39062bf6ac87250e3a53", "MIT")
XT_PACKAGE = [*EINOPS_PACKAGE, *EINX_PACKAGE, *((f"x_transformers/{m}.py", f"x_transformers/{m}.py") for m in (
    "__init__", "attend", "autoregressive_wrapper", "belief_state_wrapper", "continuous", "dpo",
    "entropy_based_tokenizer", "free_transformer", "gpt_vae", "multi_input", "neo_mlp", "nonautoregressive_wrapper",
    "up_wrapper", "x_transformers", "xl_autoregressive_wrapper", "xval"))]


def _test(name, select, xfail=None):
    """tests/test_x_transformers.py through pytest, the tests ``-k select`` picks."""
    first = "import pytest\n"
    run = (first, "if __name__ == '__main__':  # (pytest imports the file as a module)\n"
           f"    __import__('corpus_pruning').run_pytest(__file__, '-k', {select!r})\n    raise SystemExit\n" + first)
    return _r(f"xt_test_{name}", XT, "tests/test_x_transformers.py", [run], support=XT_PACKAGE, xfail=xfail)


# 51 of its 124 tests in three groups. All 124 pass on core at this pin (2026-12-06, AMD EPYC Zen 4, one thread,
# at load 6-10): six groups took 36, 772, 729, 190, 627 and 489 s on core (12 min in torch in all); the three
# heaviest (width 512 and 12 layers over 1024 tokens: the layer options, the embedders and output heads, the
# belief-state wrapper's 16 variants, continuous and MDLM wrappers) stay out, their features at tiny sizes in the
# drivers below. Their sizes are the package's own, their asserts shapes, cache parity and tokenizer lengths.
RECIPES += [
    _test("small", "kv_cache or cope or neo_mlp or custom_alibi or custom_rotary or cross_attn_rotary or hybrid_cache "
          "or caching_when or max_token_len or muon or kv_input_residual or belief_attn or derf or pope or seq_start "
          "or pos_emb_parity or external_projects or negative_weights or attn_pooler or stochastic_attn or qk_clip"),
    _test("wrappers", "beam_search or prepend_embed or test_up"),
    _test("free", "test_free"),
]

XT_LAST = "from x_transformers.entropy_based_tokenizer import EntropyBasedTokenizer"
XT_NS = "import torch\nns = __import__('types').SimpleNamespace(**globals())\nxt = __import__('corpus_xtransformers')\n"


def _xt(name, *calls, xfail=None):
    """x_transformers/__init__.py run as a script beside its package, with driver ``calls`` on its names."""
    return _r(f"xt_{name}", XT, "x_transformers/__init__.py",
              [(XT_LAST, XT_LAST + "\n" + XT_NS + "\n".join(f"xt.{c}" for c in calls) + "\n")], support=XT_PACKAGE,
              xfail=xfail)


# The README's models with what 2.x added (each flag as its README section or test names it), and its wrappers.
RECIPES += [
    _xt("decoder", "decoder(ns)", "decoder(ns, rotary_pos_emb=True, attn_dim_head=16, rotary_emb_dim=16, attn_kv_heads=1)"),
    _xt("decoder_value_residual", "decoder(ns, add_value_residual=True)",
        "decoder(ns, add_value_residual=True, learned_value_residual_mix=False, generate=False)"),
    _xt("decoder_forgetting", "decoder(ns, attn_data_dependent_alibi=True)",
        "decoder(ns, attn_data_dependent_alibi=True, attn_num_mem_kv=1, generate=False)",
        "decoder(ns, attn_data_dependent_alibi=True, attn_data_dependent_alibi_per_row=True, generate=False)"),
    _xt("decoder_hyper_connections", "decoder(ns, num_residual_streams=4)",
        "decoder(ns, num_residual_streams=4, qkv_receive_diff_residuals=True, generate=False)"),
    _xt("decoder_lime", "decoder(ns, integrate_layers=True)",
        "decoder(ns, integrate_layers=True, num_residual_streams=2, generate=False)"),
    _xt("decoder_norms", "decoder(ns, use_dynamic_tanh=True, dynamic_tanh_init_alpha=1.5)",
        "decoder(ns, use_derf=True, generate=False)", "decoder(ns, attn_value_rmsnorm=True, generate=False)"),
    _xt("decoder_polar", "decoder(ns, polar_pos_emb=True)", "cache_parity(ns, 'polar')"),
    _xt("decoder_rotary_cache", "cache_parity(ns, 'rotary')"),
    _xt("decoder_sinks", "decoder(ns, attn_head_learned_sink=True)",
        "decoder(ns, attn_cog_signed=True, attn_head_learned_sink=True, generate=False)"),
    _xt("decoder_orthog_values", "decoder(ns, attn_orthog_projected_values=True, attn_kv_heads=1)",
        "decoder(ns, attn_orthog_projected_values=True, attn_orthog_projected_values_per_head=True, generate=False)"),
    _xt("decoder_latent_attention", "decoder(ns, attn_use_latent_q=True, attn_dim_latent_q=16, attn_use_latent_kv=True, "
        "attn_dim_latent_kv=16, attn_latent_rope_subheads=2, rotary_pos_emb=False)"),
    _xt("decoder_laser", "decoder(ns, attn_laser=True)", "decoder(ns, reinject_input=True, generate=False)",
        "decoder(ns, reinject_input=True, learned_reinject_input_gate=True, generate=False)"),
    _xt("decoder_ff", "decoder(ns, ff_custom_activation=torch.nn.Sigmoid())",
        "decoder(ns, ff_glu=True, ff_swish=True, ff_no_bias=True, generate=False)",
        "decoder(ns, attn_softclamp_logits=True, attn_logit_softclamp_value=5., generate=False)"),
    _xt("encoder", "encoder(ns)", "encoder(ns, attn_value_rmsnorm=True, use_rmsnorm=True)",
        "encoder(ns, attn_data_dependent_alibi=True)", "encoder(ns, num_residual_streams=3)"),
    _xt("encoder_more", "encoder(ns, add_value_residual=True, rotary_pos_emb=True)",
        "encoder(ns, use_dynamic_tanh=True)", "encoder(ns, attn_gate_values=True, attn_swiglu_values=True)"),
    _xt("hybrid", "hybrid(ns)", "hybrid(ns, fold=2)"),
    _xt("wrapper_outputs", "wrapper_outputs(ns)"),
    _xt("autoregressive", "autoregressive(ns)"),
    _xt("external_kv", "external_kv(ns)"),
    _xt("attention_tools", "attention_tools(ns)"),
    _xt("continuous", "continuous(ns)", "continuous(ns, rollout_steps=3)"),
    _xt("continuous_probabilistic", "continuous(ns, probabilistic=True)"),
    _xt("belief_state", "belief_state(ns)", "belief_state(ns, backward_ar_loss_weight=0.5, pred_distance=True)"),
    _xt("entropy_tokenizer", "entropy_tokenizer(ns)"),
    _xt("up_wrapper", "up_wrapper(ns)"),
    _xt("gpt_vae", "gpt_vae(ns)"),
    _xt("free_transformer", "free_transformer(ns)", "free_transformer(ns, per_token_latents=True, dec_head_depth=1)"),
    _xt("neo_mlp", "neo_mlp(ns)"),
    _xt("mdlm", "mdlm(ns)", "mdlm(ns, use_simple_mdlm_loss_weight=False)"),
]

# Its training scripts, shortened: 3 steps (gradient accumulation 2) at width 32, depth 2, 2 heads, on 32-byte
# sequences; enwik8 (a 36 MB download) is the script's own text, split 3:1; no ``.cuda()``. They print each step's
# losses, the validation loss and a sample (the entropy tokenizer's segments) as the scripts do.
ENWIK8 = [("NUM_BATCHES = int(1e5)", "NUM_BATCHES = 3"),
          ("with gzip.open('./data/enwik8.gz') as file:", "with open(__file__, 'rb') as file:"),
          ("np.split(data, [int(90e6)])", "np.split(data, [len(data) * 3 // 4])"),
          ("return full_seq.cuda()", "return full_seq")]
SMALL = [("dim = 512,", "dim = 32,"), ("heads = 8", "heads = 2")]


def _train(name, sizes, *edits, xfail=None):
    """train_NAME.py at ``sizes`` (its SEQ_LEN, GENERATE_LENGTH and GRADIENT_ACCUMULATE_EVERY lines) with ``edits``."""
    return _r(f"xt_train_{name}", XT, f"train_{name}.py", [*ENWIK8, *sizes, *SMALL, *edits], support=XT_PACKAGE,
              xfail=xfail)


def _sizes(seq, accumulate):
    return [(f"SEQ_LEN = {seq}", "SEQ_LEN = 32"), (f"GENERATE_LENGTH = {seq}", "GENERATE_LENGTH = 16"),
            (f"GRADIENT_ACCUMULATE_EVERY = {accumulate}", "GRADIENT_ACCUMULATE_EVERY = 2")]


RECIPES += [
    _train("enwik8", _sizes(1024, 4), ("depth = 6,", "depth = 2,"), ("model.cuda()", ""),
           ("import wandb", "wandb = __import__('corpus_xtransformers').Wandb()")),
    _train("belief_state", _sizes(256, 8), ("depth = 6,", "depth = 2,"), ("model.cuda()", "")),
    _train("entropy_tokenizer", _sizes(1024, 4), ("depth = 6,", "depth = 2,"), ("model.cuda()", ""),
           ("entropy_threshold = 2.5", "entropy_threshold = 5.4")),
    _train("gpt_vae", _sizes(512, 4), ("depth = 6,", "depth = 2,"), ("enc_depth = 3,", "enc_depth = 1,"),
           (").cuda()", ")"), (").cuda()", ")")),
    _train("free", _sizes(512, 4), ("PRIME_LENGTH = 32", "PRIME_LENGTH = 8"), ("dec_head_depth = 4,", "dec_head_depth = 1,"),
           ("dec_tail_depth = 4,", "dec_tail_depth = 1,"), ("enc_depth = 3,", "enc_depth = 1,"), (").cuda()", ")")),
    _r("xt_train_copy", XT, "train_copy.py",
       [("NUM_BATCHES = int(1e5)", "NUM_BATCHES = 6"), ("GENERATE_EVERY  = 100", "GENERATE_EVERY  = 5"),
        ("BATCH_SIZE = 32", "BATCH_SIZE = 4"), ("ENC_SEQ_LEN = 32", "ENC_SEQ_LEN = 8"),
        ("DEC_SEQ_LEN = 64 + 1", "DEC_SEQ_LEN = 16 + 1"), ("dim = 128,", "dim = 32,"), ("enc_heads = 8,", "enc_heads = 2,"),
        ("dec_heads = 8,", "dec_heads = 2,")], support=XT_PACKAGE),
]

# The README's other models with 2.x options, attention through torch's scaled_dot_product_attention (``flash``) and
# its Adam/AdamW training.
RECIPES += [
    _xt("flash", "decoder(ns, attn_flash=True)",
        "decoder(ns, attn_flash=True, attn_kv_heads=1, attn_num_mem_kv=2, generate=False)",
        "encoder(ns, attn_flash=True)", "encoder(ns, attn_flash=True, attn_head_learned_sink=True)"),
    _xt("adam", "decoder(ns, optimizer='adam', generate=False)",
        "decoder(ns, optimizer='adamw', rotary_pos_emb=True, attn_dim_head=16, generate=False)"),
    _xt("xtransformer", "xtransformer(ns)",
        "xtransformer(ns, enc_rotary_pos_emb=True, dec_rotary_pos_emb=True, cross_attn_tokens_dropout=0.)",
        "xtransformer(ns, enc_attn_cog_signed=True, dec_attn_cog_signed=True, dec_add_value_residual=True)"),
    _xt("vit", "vit(ns)", "vit(ns, num_residual_streams=2, use_dynamic_tanh=True)",
        "vit(ns, attn_value_rmsnorm=True, add_value_residual=True)"),
]
