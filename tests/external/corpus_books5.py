"""Drivers for ``recipes_books5.py`` (our text): lucidrains' x-transformers and maciejkula's Spotlight on core.

Each driver builds a library's models at small sizes from seeded weights, trains them for a few steps and prints what
a user reads (logits, losses, samples, predictions) as digests: shape, dtype, the absolute sum and largest magnitude
and the first values, to 6 significant digits, so core and torch are compared number for number without printing
sums that cancel to rounding noise.
"""

from __future__ import annotations

import numpy as np
import torch


def show(label, value):
    """A tensor's (or a tuple's, a float's) digest on one line."""
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            show(f"{label}[{i}]", v)
        return
    if isinstance(value, np.ndarray):
        value = torch.from_numpy(np.ascontiguousarray(value))
    if not isinstance(value, torch.Tensor):
        print(label, f"{value:.6g}" if isinstance(value, float) else value)
        return
    t = value.detach()
    if t.dtype in (torch.bool, torch.int64, torch.int32):
        print(label, tuple(t.shape), t.dtype, t.flatten()[:16].tolist())
        return
    f = t.double()
    head = ", ".join(f"{x:.5f}" for x in f.flatten()[:4].tolist())
    print(label, tuple(t.shape), t.dtype, f"abs-sum {f.abs().sum().item():.6g} max {f.abs().max().item():.6g}"
          if t.numel() else "empty", f"[{head}]")


def _train(model, batches, steps=3, lr=1e-3, **kwargs):
    """``steps`` Adam steps of ``model(*batch)``'s loss; prints each loss and the gradient norm."""
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(steps):
        batch = batches()
        loss = model(*batch, **kwargs)
        if isinstance(loss, tuple):
            loss = loss[0]
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        print(f"step {step}: loss {loss.item():.6g} grad norm {norm.item():.6g}")


# --- x-transformers -------------------------------------------------------------------------------------------------

def xt_decoder(ns, wrapper=None, **layers):
    """TransformerWrapper over a Decoder with ``layers``' options: logits, a few AutoregressiveWrapper training steps,
    then generation with top-k, top-p, min-p and greedy decoding, with and without the key/value cache."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=20, max_seq_len=16, **(wrapper or {}),
                                attn_layers=ns.Decoder(dim=16, depth=2, heads=2, **{"attn_dim_head": 8, **layers}))
    print("parameters", sum(p.numel() for p in net.parameters()))
    x = torch.randint(0, 20, (2, 10))
    show("logits", net(x))
    show("embeddings", net(x, return_embeddings=True))
    model = ns.AutoregressiveWrapper(net)
    _train(model, lambda: (torch.randint(0, 20, (4, 12)),))
    prompt = torch.randint(0, 20, (2, 3))
    for name, kw in (("top_k", dict(filter_logits_fn="top_k")), ("top_p", dict(filter_logits_fn="top_p")),
                     ("min_p", dict(filter_logits_fn="min_p")), ("greedy", dict(temperature=0.)),
                     ("no cache", dict(cache_kv=False)), ("eos", dict(eos_token=3))):
        torch.manual_seed(1)
        show(f"generate {name}", model.generate(prompt, 5, **kw))


def xt_encoder(ns, wrapper=None, **layers):
    """TransformerWrapper over an Encoder with ``layers``' options: logits with a padding mask, their gradient and
    one SGD step's change."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=20, max_seq_len=16, **(wrapper or {}),
                                attn_layers=ns.Encoder(dim=16, depth=2, heads=2, **{"attn_dim_head": 8, **layers}))
    x = torch.randint(0, 20, (2, 10))
    mask = torch.ones(2, 10, dtype=torch.bool)
    mask[1, 7:] = False
    logits = net(x, mask=mask)
    show("logits", logits)
    loss = torch.nn.functional.cross_entropy(logits[mask], x[mask])
    loss.backward()
    print(f"loss {loss.item():.6g}")
    show("token_emb grad", net.token_emb.emb.weight.grad)
    out, inter = net(x, mask=mask, return_intermediates=True)
    print("intermediates", len(inter.hiddens), [tuple(h.shape) for h in inter.hiddens][:3])
    show("attn maps", net(x, mask=mask, return_attn=True)[1][0])


def xt_cross_cache(ns, **layers):
    """A decoder cross-attending to a context (x-transformers' own kv-cache test at small sizes): logits of the
    whole sequence against those computed from the cache of the shorter one."""
    torch.manual_seed(0)
    model = ns.TransformerWrapper(num_tokens=30, max_seq_len=32,
                                  attn_layers=ns.Decoder(dim=16, depth=2, heads=4, cross_attend=True, **layers))
    model.eval()
    prompts = torch.zeros((2, 6), dtype=torch.long)
    context = torch.randn(2, 5, 16)
    logits, cache = model(prompts, context=context, return_intermediates=True)
    sampled = logits[:, -1].argmax(dim=-1, keepdim=True)
    prompts = torch.cat((prompts, sampled), dim=-1)
    full = model(prompts, context=context)
    cached = model(prompts, context=context, cache=cache)
    show("next logits", full[:, -1])
    print("cache agrees", torch.allclose(full[:, -1], cached[:, -1], atol=1e-5))
    context_mask = torch.ones(2, 5, dtype=torch.bool)
    context_mask[0, 3:] = False
    show("masked context", model(prompts, context=context, context_mask=context_mask)[:, -1])


def xt_layers(ns):
    """The attention-layer stacks on their own, on embeddings: a PrefixDecoder (bidirectional over a prefix),
    a CrossAttender, an Encoder with adaptive layer norm and layer scale on a condition (DiT's ada-LN-zero), one
    with U-Net skips, and their gradients."""
    torch.manual_seed(0)
    x = torch.randn(2, 8, 16, requires_grad=True)
    prefix = ns.PrefixDecoder(dim=16, depth=2, heads=2, attn_dim_head=8)
    show("prefix decoder", prefix(x, prefix_attn_len=3))
    cross = ns.CrossAttender(dim=16, depth=2, heads=2)
    context = torch.randn(2, 5, 16)
    show("cross attender", cross(x, context=context))
    ada = ns.Encoder(dim=16, depth=2, heads=2, use_adaptive_layernorm=True, use_adaptive_layerscale=True,
                     dim_condition=6)
    out = ada(x, condition=torch.randn(2, 6))
    show("adaptive", out)
    skips = ns.Encoder(dim=16, depth=4, heads=2, unet_skips=True)
    out = out + skips(x)
    show("unet skips", out)
    out.square().mean().backward()
    show("input grad", x.grad)


def xt_xtransformer(ns):
    """XTransformer on the copy task of its example: a few training steps and a generated copy."""
    torch.manual_seed(0)
    model = ns.XTransformer(dim=16, tie_token_emb=True, return_tgt_loss=True, enc_num_tokens=18, enc_depth=2,
                            enc_heads=2, enc_max_seq_len=8, dec_num_tokens=18, dec_depth=2, dec_heads=2,
                            dec_max_seq_len=17)

    def batch():
        src = torch.randint(2, 18, (4, 8))
        return src, torch.cat((torch.ones(4, 1, dtype=torch.long), src, src), 1), torch.ones(4, 8).bool()

    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for i in range(4):
        src, tgt, src_mask = batch()
        loss = model(src, tgt, mask=src_mask)
        loss.backward()
        opt.step()
        opt.zero_grad()
        print(f"{i}: {loss.item():.6g}")
    model.eval()
    src, _, src_mask = batch()
    sample = model.generate(src[:1], torch.ones(1, 1).long(), 8, mask=src_mask[:1])
    show("sample", sample)
    print("incorrects", (src[:1] != sample).sum().item())


def xt_vit(ns):
    """ViTransformerWrapper classifying images, and its embeddings."""
    torch.manual_seed(0)
    model = ns.ViTransformerWrapper(image_size=16, patch_size=4, num_classes=5,
                                    attn_layers=ns.Encoder(dim=16, depth=2, heads=2))
    img = torch.randn(2, 3, 16, 16)
    show("logits", model(img))
    show("embeddings", model(img, return_embeddings=True))
    loss = torch.nn.functional.cross_entropy(model(img), torch.tensor([1, 3]))
    loss.backward()
    print(f"loss {loss.item():.6g}")
    show("patch embedding grad", model.patch_to_embedding[1].weight.grad)


def xt_continuous(ns):
    """ContinuousTransformerWrapper and its autoregressive wrapper: outputs, training, generation."""
    torch.manual_seed(0)
    net = ns.ContinuousTransformerWrapper(dim_in=6, dim_out=6, max_seq_len=16,
                                          attn_layers=ns.Decoder(dim=16, depth=2, heads=2, rotary_pos_emb=True))
    x = torch.randn(2, 10, 6)
    show("out", net(x))
    model = ns.ContinuousAutoregressiveWrapper(net)
    _train(model, lambda: (torch.randn(2, 10, 6),), mask=torch.ones(2, 10).bool())
    show("generated", model.generate(torch.randn(2, 4, 6), 3))
    enc = ns.ContinuousTransformerWrapper(dim_in=6, max_seq_len=0, average_pool_embed=True,
                                          attn_layers=ns.Encoder(dim=16, depth=1, heads=2))
    show("pooled", enc(x))


def xt_nar(ns):
    """NonAutoregressiveWrapper (MaskGIT-style): training loss and a few demasking steps."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=21, logits_dim=20, max_seq_len=12,
                                attn_layers=ns.Encoder(dim=16, depth=2, heads=2))
    model = ns.NonAutoregressiveWrapper(net, mask_id=20, steps=3)
    _train(model, lambda: (torch.randint(0, 20, (4, 12)),))
    model.eval()
    show("generated", model.generate(batch_size=2))


def xt_xl(ns):
    """XLAutoregressiveWrapper over a Transformer-XL style decoder with memories: segment-wise loss and generation."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=20, max_seq_len=8, max_mem_len=8,
                                attn_layers=ns.Decoder(dim=16, depth=2, heads=2, rel_pos_bias=True))
    model = ns.XLAutoregressiveWrapper(net)
    _train(model, lambda: (torch.randint(0, 20, (2, 25)),), steps=2)
    torch.manual_seed(1)
    show("generated", model.generate(torch.randint(0, 20, (1, 10)), 6))


def xt_xval(ns):
    """XValTransformerWrapper: numbers as a scaled token; its loss and generation."""
    torch.manual_seed(0)
    model = ns.XValTransformerWrapper(num_tokens=10, numerical_token_id=3, max_seq_len=12,
                                      attn_layers=ns.Decoder(dim=16, depth=2, heads=2))
    wrapper = ns.XValAutoregressiveWrapper(model)
    ids = torch.randint(0, 4, (2, 12))
    nums = torch.randn(2, 12)
    mask = torch.ones(2, 11).bool()  # the targets' mask
    _train(wrapper, lambda: (ids, nums), mask=mask)
    torch.manual_seed(1)
    out = wrapper.generate(ids[:, :4], nums[:, :4], 4)
    show("generated", tuple(out))


def xt_multi_input(ns):
    """MultiInputTransformerWrapper: two token streams summed into one sequence, logits per output head."""
    torch.manual_seed(0)
    model = ns.MultiInputTransformerWrapper(num_tokens=dict(pitch=10, tone=5), max_seq_len=10,
                                            attn_layers=ns.Decoder(dim=16, depth=2, heads=2))
    x = dict(pitch=torch.randint(0, 10, (2, 8)), tone=torch.randint(0, 5, (2, 8)))
    out = model(x)
    for key in sorted(out):
        show(key, out[key])


def xt_dpo(ns):
    """DPO over a TransformerWrapper: the preference loss and a training step."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=20, max_seq_len=12, attn_layers=ns.Decoder(dim=16, depth=2, heads=2))
    dpo = ns.DPO(net, beta=0.1, pad_id=-1)
    seq = lambda: torch.randint(0, 20, (2, 10))  # noqa: E731
    prompt_mask = torch.zeros(2, 10).bool()
    prompt_mask[:, :4] = True
    _train(dpo, lambda: (seq(), seq()), prompt_mask=prompt_mask, steps=2)


# --- Spotlight ------------------------------------------------------------------------------------------------------

def _spotlight_deps():
    """scikit-learn's ``murmurhash3_32``, which Spotlight imports: ``fake_books5_deps``' stand-in."""
    __import__("fake_books5_deps").install()


def _interactions(ns, n=400, users=30, items=25, seed=42):
    """Seeded synthetic interactions with ratings and timestamps (the MovieLens download's shape, not its data)."""
    from spotlight.interactions import Interactions

    rng = np.random.RandomState(seed)
    return Interactions(rng.randint(0, users, n).astype(np.int32), rng.randint(0, items, n).astype(np.int32),
                        ratings=rng.randint(1, 6, n).astype(np.float32), timestamps=np.arange(n, dtype=np.int32),
                        num_users=users, num_items=items)


def spotlight_factorization(ns, kind, losses, bloom=None, **options):
    """``kind`` ("explicit" or "implicit") factorization models fitted for two epochs per loss: per-epoch losses
    (verbose), predictions, RMSE or MRR scores; ``bloom``: a compression ratio, the network a BilinearNet over
    BloomEmbedding layers (two hash functions), as Spotlight's own bloom tests build it."""
    _spotlight_deps()
    from spotlight.cross_validation import random_train_test_split
    from spotlight.evaluation import mrr_score, precision_recall_score, rmse_score
    from spotlight.factorization.explicit import ExplicitFactorizationModel
    from spotlight.factorization.implicit import ImplicitFactorizationModel

    data = _interactions(ns)
    train, test = random_train_test_split(data, random_state=np.random.RandomState(42))
    print(train, test)
    for loss in losses:
        Model = ExplicitFactorizationModel if kind == "explicit" else ImplicitFactorizationModel
        if bloom:
            from spotlight.factorization.representations import BilinearNet
            from spotlight.layers import BloomEmbedding

            options["representation"] = BilinearNet(
                data.num_users, data.num_items, embedding_dim=8,
                user_embedding_layer=BloomEmbedding(data.num_users, 8, compression_ratio=bloom, num_hash_functions=2),
                item_embedding_layer=BloomEmbedding(data.num_items, 8, compression_ratio=bloom, num_hash_functions=2))
        model = Model(loss=loss, n_iter=2, batch_size=64, embedding_dim=8, learning_rate=1e-2,
                      random_state=np.random.RandomState(42), **options)
        model.fit(train, verbose=True)
        show(f"{loss} predict user 0", model.predict(0))
        show(f"{loss} predict pairs", model.predict(np.array([0, 1, 2]), np.array([3, 4, 5])))
        if kind == "explicit":
            print(f"{loss} rmse {rmse_score(model, test):.6g}")
        else:
            show(f"{loss} mrr", mrr_score(model, test, train=train))
            show(f"{loss} precision/recall@5", precision_recall_score(model, test, train=train, k=5))


def spotlight_sequence(ns, representations, losses=("pointwise",)):
    """ImplicitSequenceModel on synthetic Markov sequences for each representation and loss: losses, predictions and
    sequence MRR."""
    _spotlight_deps()
    from spotlight.cross_validation import user_based_train_test_split
    from spotlight.datasets import synthetic
    from spotlight.evaluation import sequence_mrr_score
    from spotlight.sequence.implicit import ImplicitSequenceModel

    data = synthetic.generate_sequential(num_users=20, num_items=15, num_interactions=300, concentration_parameter=0.1,
                                         order=2, random_state=np.random.RandomState(42))
    train, test = user_based_train_test_split(data, random_state=np.random.RandomState(42))
    train, test = train.to_sequence(max_sequence_length=8), test.to_sequence(max_sequence_length=8)
    print(train, test)
    for representation in representations:
        for loss in losses:
            model = ImplicitSequenceModel(loss=loss, representation=representation, n_iter=2, batch_size=16,
                                          embedding_dim=8, learning_rate=1e-2, random_state=np.random.RandomState(42))
            model.fit(train, verbose=True)
            show(f"{representation} {loss} predict", model.predict(test.sequences[0]))
            show(f"{representation} {loss} mrr", sequence_mrr_score(model, test))


def spotlight_layers(ns):
    """Spotlight's ScaledEmbedding, ZeroEmbedding and BloomEmbedding (hashed, compressed), forward and backward, and
    its losses on seeded scores."""
    _spotlight_deps()
    from spotlight import losses
    from spotlight.layers import BloomEmbedding, ScaledEmbedding, ZeroEmbedding

    torch.manual_seed(0)
    idx = torch.randint(0, 50, (4, 6))
    for layer in (ScaledEmbedding(50, 8), ZeroEmbedding(50, 1), BloomEmbedding(50, 8, compression_ratio=0.4),
                  BloomEmbedding(50, 8, num_hash_functions=2, compression_ratio=0.2)):
        out = layer(idx)
        out.sum().backward()
        show(type(layer).__name__, out)
        show("  grad", next(layer.parameters()).grad)
    pos, neg = torch.randn(16, requires_grad=True), torch.randn(16)
    negs = torch.randn(3, 16)
    for name in ("pointwise_loss", "bpr_loss", "hinge_loss"):
        loss = getattr(losses, name)(pos, neg)
        show(name, loss)
    show("adaptive_hinge_loss", losses.adaptive_hinge_loss(pos, negs))
    ratings = torch.rand(16) * 5
    show("regression_loss", losses.regression_loss(ratings, pos))
    show("poisson_loss", losses.poisson_loss(ratings, pos.exp()))
    show("logistic_loss", losses.logistic_loss((ratings > 2.5).float() * 2 - 1, pos))


# --- Build a Reasoning Model (From Scratch) -------------------------------------------------------------------------

class CharTokenizer:
    """A character-level stand-in for the book's Qwen3 tokenizer (which downloads its vocabulary): byte values mod
    the vocabulary, id 0 the end-of-text token; ``chat_wrapped`` adds chat markers as the real one adds its template."""

    def __init__(self, vocab_size=128):
        self.vocab_size, self.eos_token_id, self.pad_token_id = vocab_size, 0, 0

    def encode(self, prompt, chat_wrapped=None):
        text = f"<|user|>{prompt}<|assistant|>" if chat_wrapped or chat_wrapped is None else prompt
        return [1 + ord(c) % (self.vocab_size - 1) for c in text]

    def decode(self, token_ids):
        if isinstance(token_ids, int):
            token_ids = [token_ids]
        return "".join(chr(31 + (i % 95)) if i else "" for i in token_ids)


def rfs_config(dtype=None):
    """A two-layer Qwen3 with the 0.6B model's structure (QK norm, grouped-query attention, RoPE) at small sizes."""
    return {"vocab_size": 128, "context_length": 256, "emb_dim": 32, "n_heads": 4, "n_layers": 2, "hidden_dim": 64,
            "head_dim": 8, "qk_norm": True, "n_kv_groups": 2, "rope_base": 1_000_000.0,
            "dtype": dtype or torch.float32}


def rfs_qwen3(pkg):
    """Chapter 2: the Qwen3 model's logits and greedy generation with and without the KV cache (the same tokens),
    streamed; the model in bfloat16 as the book loads it."""
    from reasoning_from_scratch import ch02, qwen3

    torch.manual_seed(123)
    model = qwen3.Qwen3Model(rfs_config())
    print("parameters", sum(p.numel() for p in model.parameters()))
    tok = CharTokenizer()
    ids = torch.tensor(tok.encode("Explain large language models.")).unsqueeze(0)
    show("logits", model(ids))
    plain = ch02.generate_text_basic(model, ids, 8)
    cached = ch02.generate_text_basic_cache(model, ids, 8)
    show("generated", plain)
    print("cache agrees", torch.equal(plain, cached))
    streamed = torch.cat(list(ch02.generate_text_basic_stream_cache(model, ids, 8, eos_token_id=0)), dim=1)
    print("streamed agrees", torch.equal(plain, streamed), repr(tok.decode(streamed.squeeze(0).tolist())))
    show("rope cos", qwen3.compute_rope_params(8, context_length=6)[0])
    torch.manual_seed(123)
    bf16 = qwen3.Qwen3Model(rfs_config(torch.bfloat16))
    out = bf16(ids)
    show("bf16 logits", out)
    show("bf16 generated", ch02.generate_text_basic_cache(bf16, ids, 4))


def rfs_variants(pkg):
    """The book's optimized and batched Qwen3 models loaded with the plain one's weights: their logits, greedy
    generation with its preallocated KV cache, and batched generation of left-padded prompts (with per-row stops)."""
    from reasoning_from_scratch import ch02, qwen3, qwen3_batched, qwen3_optimized

    torch.manual_seed(123)
    model = qwen3.Qwen3Model(rfs_config())
    tok = CharTokenizer()
    ids = torch.tensor(tok.encode("What is 2+3?")).unsqueeze(0)
    ref = model(ids)
    fast = qwen3_optimized.Qwen3Model(rfs_config())
    fast.load_state_dict(model.state_dict())
    show("optimized logits", fast(ids))
    print("optimized close", torch.allclose(ref, fast(ids), atol=1e-5))
    show("optimized generated", qwen3_optimized.generate_text_basic_cache(fast, ids, 6))
    show("plain generated", ch02.generate_text_basic_cache(model, ids, 6))
    batched = qwen3_batched.Qwen3Model(rfs_config())
    batched.load_state_dict(model.state_dict(), strict=False)
    prompts = [tok.encode("What is 2+3?"), tok.encode("Hi")]
    width = max(map(len, prompts))
    padded = torch.tensor([[0] * (width - len(p)) + p for p in prompts])
    mask = torch.tensor([[False] * (width - len(p)) + [True] * len(p) for p in prompts])
    show("batched logits", batched(padded, attn_mask=mask)[:, -1])
    show("batched generated", qwen3_batched.generate_text_basic_batched_cache(batched, padded, 6, attn_mask=mask,
                                                                             pad_id=0))
    show("batched with stops", qwen3_batched.generate_text_basic_batched_cache_stop(batched, padded, 6, eos_token_id=5,
                                                                                    attn_mask=mask, pad_id=0))


def rfs_sampling(pkg):
    """Chapters 4 and 5: temperature scaling, top-p filtering, sampled generation, the heuristic scores and the
    next-token and answer log-probabilities."""
    from reasoning_from_scratch import ch04, ch05, qwen3

    torch.manual_seed(0)
    logits = torch.randn(2, 10)
    show("scaled", ch04.scale_logits_by_temperature(logits, 0.5))
    probas = torch.softmax(logits, dim=-1)
    for p in (0.5, 0.9, 1.0):
        show(f"top_p {p}", ch04.top_p_filter(probas, p))
    torch.manual_seed(123)
    model = qwen3.Qwen3Model(rfs_config())
    tok = CharTokenizer()
    ids = torch.tensor(tok.encode("Solve x+1=3.")).unsqueeze(0)
    for temp in (0.0, 0.7, 1.5):
        torch.manual_seed(7)
        out = torch.cat(list(ch04.generate_text_temp_stream_cache(model, ids, 6, temperature=temp)), dim=1)
        show(f"temperature {temp}", out)
    torch.manual_seed(7)
    show("top_p 0.8", torch.cat(list(ch04.generate_text_top_p_stream_cache(model, ids, 6, temperature=0.9,
                                                                           top_p=0.8)), dim=1))
    for answer in ("The answer is \\boxed{4}.", "It is 4", "four"):
        print(repr(answer), f"{ch05.heuristic_score(answer):.6g}")
    show("next-token probas", ch05.calc_next_token_probas(model, tok, "2+2=", "cpu"))
    show("answer logprob", ch05.avg_logprob_answer(model, tok, "2+2=", "4", device="cpu"))


def rfs_grpo(pkg, steps=2):
    """Chapters 6 and 7: GRPO on the tiny model: rollouts sampled with top-p, verifiable rewards graded with SymPy,
    advantages, the policy-gradient loss and its Adam steps; log-probabilities and entropies of a rollout."""
    from reasoning_from_scratch import ch06, ch07, qwen3

    torch.manual_seed(123)
    model = qwen3.Qwen3Model(rfs_config())
    tok = CharTokenizer()
    for text, truth in (("so \\boxed{\\frac{1}{2}}", "0.5"), ("\\boxed{3}", "4"), ("x = 2", "2")):
        print(repr(text), truth, ch06.reward_rlvr(text, truth))
    graded = ch06.reward_rlvr
    # an untrained model never writes \\boxed{2}: a stand-in reward gives the rollouts
    # different advantages, so the policy-gradient loss and its steps are not zero (the parity of the characters' codes)
    ch06.reward_rlvr = lambda text, truth: float(sum(map(ord, text)) % 2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        torch.manual_seed(10 + step)
        stats = ch06.compute_grpo_loss(model=model, tokenizer=tok, example={"problem": "1+1?", "answer": "2"},
                                       device="cpu", num_rollouts=3, max_new_tokens=5, temperature=0.9, top_p=0.9)
        opt.zero_grad()
        stats["loss_tensor"].backward()
        opt.step()
        print(f"step {step}: loss {stats['loss']:.6g} rewards {stats['rewards']}",
              [s["gen_len"] for s in stats["samples"]], [repr(s["text"]) for s in stats["samples"]])
    ch06.reward_rlvr = graded
    token_ids = torch.tensor(tok.encode("1+1?") + [5, 9, 13])
    show("logprob/entropy", ch07.sequence_logprob_and_entropy(model, token_ids, len(token_ids) - 3))
    advantages, adv_avg, adv_std = ch07.compute_advantage_stats([1.0, 0.0, 0.5, 0.0])
    show("advantages", advantages)
    print(f"mean {adv_avg:.5f} std {adv_std:.5f}")  # (the mean: rounding noise around 0)
    print("moving average", [f"{v:.6g}" for v in ch07.moving_average([1.0, 2.0, 4.0, 3.0, 5.0, 0.0, 2.0, 8.0])])
    print("format reward", ch07.reward_format(torch.tensor([1, 2, 151667, 7, 151668]), 2))


def rfs_distill(pkg):
    """Chapter 8: distillation data built into examples, their answer-only losses and a short training run with
    validation and checkpoints (AdamW, gradient clipping)."""
    from reasoning_from_scratch import ch08, qwen3

    torch.manual_seed(123)
    model = qwen3.Qwen3Model(rfs_config())
    tok = CharTokenizer()
    data = [{"problem": f"What is {a}+{b}?", "message_thinking": f"{a} plus {b}",
             "message_content": f"\\boxed{{{a + b}}}"}
            for a, b in ((1, 2), (3, 4), (2, 2), (5, 1))] + [{"problem": "broken"}]
    print(ch08.format_distilled_answer(data[0]))
    examples, skipped = ch08.build_examples(data, tok)
    print("examples", len(examples), "skipped", skipped, [e["prompt_len"] for e in examples])
    ch08.compute_length(examples)
    ch08.compute_length(examples, answer_only=True)
    show("loss", ch08.compute_example_loss(model, examples[0], "cpu"))
    print(f"val loss {ch08.evaluate_examples(model, examples[2:], 'cpu'):.6g}")
    ch08.train_distillation(model, examples[:2], examples[2:], "cpu", epochs=2, lr=1e-3, grad_clip_norm=1.0,
                            log_every=1, checkpoint_dir="checkpoints", csv_log_path="metrics.csv")
    print(open("metrics.csv").read().splitlines()[0])


# --- ML2021 Spring (Hung-yi Lee's course) homework data stand-ins ---------------------------------------------------

def covid_csv(train_rows=300, test_rows=90, seed=0):
    """HW01's ``covid.train.csv``/``covid.test.csv`` (downloaded in the notebook), seeded: an id, 40 one-hot states
    and three days of 18 survey features (the last day's ``tested_positive`` only in the training file)."""
    import csv

    rng = np.random.RandomState(seed)
    header = ["id", *(f"state{i}" for i in range(40)),
              *(f"f{d}_{j}" for d in range(3) for j in range(18))]
    for path, rows, with_target in (("covid.train.csv", train_rows, True), ("covid.test.csv", test_rows, False)):
        with open(path, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(header if with_target else header[:-1])
            for i in range(rows):
                states = np.eye(40)[rng.randint(40)]
                days = np.round(rng.uniform(0, 40, 54), 4)
                writer.writerow([i, *states.astype(int), *(days if with_target else days[:-1])])


def timit(train_frames=640, test_frames=160, seed=0):
    """HW02's ``timit_11/*.npy`` (downloaded in the notebook), seeded: 11 frames of 39 MFCCs a row, 39 phoneme
    classes stored as strings as the course's files store them."""
    import os

    rng = np.random.RandomState(seed)
    os.makedirs("timit_11", exist_ok=True)
    np.save("timit_11/train_11.npy", rng.randn(train_frames, 429).astype(np.float32))
    np.save("timit_11/train_label_11.npy", rng.randint(0, 39, train_frames).astype(str))
    np.save("timit_11/test_11.npy", rng.randn(test_frames, 429).astype(np.float32))


def speaker_dataset(speakers=6, utterances=10, seed=0):
    """HW04's ``Dataset`` folder (VoxCeleb mel-spectrograms, downloaded in the notebook), seeded: ``mapping.json``,
    ``metadata.json``, ``testdata.json`` and a (frames, 40) tensor file per utterance, written with the running
    library's ``torch.save`` (the notebook reads them with its ``torch.load``)."""
    import json
    import os

    g = torch.Generator().manual_seed(seed)
    os.makedirs("Dataset", exist_ok=True)
    names = [f"id{10000 + i}" for i in range(speakers)]
    meta, test = {}, []
    for s, name in enumerate(names):
        meta[name] = []
        for u in range(utterances):
            frames = int(torch.randint(100, 160, (1,), generator=g))
            path = f"uttr-{s}-{u}.pt"
            torch.save(torch.randn(frames, 40, generator=g) + s * 0.1, os.path.join("Dataset", path))
            meta[name].append({"feature_path": path, "mel_len": frames})
    for u in range(6):
        path = f"test-{u}.pt"
        torch.save(torch.randn(120, 40, generator=g), os.path.join("Dataset", path))
        test.append({"feature_path": path, "mel_len": 120})
    mapping = {"speaker2id": {n: i for i, n in enumerate(names)},
               "id2speaker": {str(i): n for i, n in enumerate(names)}}
    for file, content in (("mapping.json", mapping), ("metadata.json", {"n_mels": 40, "speakers": meta}),
                          ("testdata.json", {"n_mels": 40, "utterances": test})):
        with open(os.path.join("Dataset", file), "w") as f:
            json.dump(content, f)


def transformed_mnist(root=None, train=True, transform=None, download=False):
    """HW14's MNIST (downloaded in the notebook): ``corpus_support``'s seeded images, 64 for training and 32 for
    testing, each through the notebook's ``transform`` (its padding and pixel permutation per task)."""
    base = __import__("corpus_support").fake_mnist(root, train=train, size=64 if train else 32)

    class Transformed(type(base)):
        def __getitem__(self, i):
            image, label = super().__getitem__(i)
            return (transform(image) if transform else image), label

    base.__class__ = Transformed
    return base


class trange:  # (tqdm's name)
    """``tqdm.auto.trange`` drawing nothing (the runner's tqdm stub has no trange): ``range(n)``, with the bar's
    ``set_description``, ``set_postfix``, ``update`` and ``close`` doing nothing."""

    def __init__(self, *args, **kwargs):
        self._range = range(*args)

    def __iter__(self):
        return iter(self._range)

    def __len__(self):
        return len(self._range)

    def set_description(self, *args, **kwargs):
        pass

    set_description_str = set_postfix = set_postfix_str = update = close = refresh = set_description
