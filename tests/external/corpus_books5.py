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

def xt_decoder(ns, **layers):
    """TransformerWrapper over a Decoder with ``layers``' options: logits, a few AutoregressiveWrapper training steps,
    then generation with top-k, top-p, min-p and greedy decoding, with and without the key/value cache."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=20, max_seq_len=16,
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


def xt_encoder(ns, **layers):
    """TransformerWrapper over an Encoder with ``layers``' options: logits with a padding mask, their gradient and
    one SGD step's change."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=20, max_seq_len=16,
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


def spotlight_factorization(ns, kind, losses, **options):
    """``kind`` ("explicit" or "implicit") factorization models fitted for two epochs per loss: per-epoch losses
    (verbose), predictions, RMSE or MRR scores."""
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
