"""Drivers for ``recipes_xtransformers.py`` (our text): lucidrains' x-transformers 2.16 on core.

Each driver builds the package's models at tiny sizes from seeded weights, as its README and tests do, and prints
what a user reads (logits, embeddings, losses, gradients, samples) as digests: shape, dtype, the absolute sum and
the largest magnitude to 10 significant digits and the first values in full (``repr`` of the float32 value), so a
last-bit difference shows. Training is SGD with momentum, whose trajectory is torch's bit for bit when each step's
gradients are. ``recipes_books5``' drivers cover the 1.40 release's README features; these cover what 2.x added.
"""

from __future__ import annotations

import torch


def show(label, value):
    """A tensor's (or a tuple's, a float's) digest on one line."""
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            show(f"{label}[{i}]", v)
        return
    if not isinstance(value, torch.Tensor):
        print(label, repr(value))
        return
    t = value.detach()
    if not t.is_floating_point():
        print(label, tuple(t.shape), t.dtype, t.flatten()[:24].tolist())
        return
    f = t.double()
    head = f.flatten()[:4].tolist()
    print(label, tuple(t.shape), t.dtype, f"abs-sum {f.abs().sum().item():.10g} max {f.abs().max().item()!r}"
          if t.numel() else "empty", head)


def _sgd_steps(model, loss_fn, steps=3, lr=0.05, optimizer="sgd"):
    """``steps`` SGD steps with momentum (or Adam's, AdamW's, as the README trains) on ``loss_fn()``; prints each
    loss and gradient norm in full."""
    opt = (torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9) if optimizer == "sgd" else
           getattr(torch.optim, {"adam": "Adam", "adamw": "AdamW"}[optimizer])(model.parameters(), lr=lr / 10))
    for step in range(steps):
        loss = loss_fn()
        if isinstance(loss, tuple):
            loss = loss[0]
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        print(f"step {step}: loss {loss.item()!r} grad norm {norm.item()!r}")


def _tokens(*shape, num_tokens=32):
    return torch.randint(0, num_tokens, shape)


def decoder(ns, wrapper=None, generate=True, optimizer="sgd", **layers):
    """A TransformerWrapper over a Decoder with ``layers``' options (``wrapper``'s for the wrapper): logits,
    embeddings, three AutoregressiveWrapper SGD steps, then greedy, top-k and top-p samples with the kv cache."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=32, max_seq_len=16, **(wrapper or {}),
                                attn_layers=ns.Decoder(dim=16, depth=2, heads=2, **{"attn_dim_head": 8, **layers}))
    print("parameters", sum(p.numel() for p in net.parameters()))
    x = _tokens(2, 10)
    show("logits", net(x))
    show("embeddings", net(x, return_embeddings=True))
    model = ns.AutoregressiveWrapper(net)
    _sgd_steps(model, lambda: model(_tokens(3, 12)), optimizer=optimizer)
    show("token_emb weight", net.token_emb.emb.weight)
    if not generate:
        return
    prompt = _tokens(2, 3)
    for name, kw in (("greedy", dict(temperature=0.)), ("top_k", dict(filter_logits_fn="top_k")),
                     ("top_p", dict(filter_logits_fn="top_p")), ("no cache", dict(cache_kv=False, temperature=0.))):
        torch.manual_seed(1)
        show(f"generate {name}", model.generate(prompt, 5, **kw))


def encoder(ns, wrapper=None, **layers):
    """A TransformerWrapper over an Encoder with ``layers``' options: logits under a padding mask, the masked
    cross-entropy, the token embedding's gradient and three SGD steps."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=32, max_seq_len=16, **(wrapper or {}),
                                attn_layers=ns.Encoder(dim=16, depth=2, heads=2, **{"attn_dim_head": 8, **layers}))
    x = _tokens(2, 10)
    mask = torch.ones(2, 10, dtype=torch.bool)
    mask[1, 7:] = False
    logits = net(x, mask=mask)
    show("logits", logits)

    def loss_fn():
        out = net(x, mask=mask)
        return torch.nn.functional.cross_entropy(out[mask], x[mask])

    loss = loss_fn()
    loss.backward()
    show("token_emb grad", net.token_emb.emb.weight.grad)
    net.zero_grad()
    _sgd_steps(net, loss_fn)


def hybrid(ns, fold=1, encoder_too=True):
    """Attention layers with a GRU beside each attention (``attn_hybrid_module``, folded axially by ``fold``): a
    decoder's logits, its incremental decoding through the cache (the GRU's hidden state carried) against the
    parallel pass, and a bidirectional-GRU encoder under a mask, with a gradient."""
    torch.manual_seed(0)
    dec = ns.TransformerWrapper(num_tokens=32, max_seq_len=16, attn_layers=ns.Decoder(
        dim=16, depth=2, heads=2, attn_dim_head=8, attn_hybrid_fold_axial_dim=fold,
        attn_hybrid_module=torch.nn.GRU(16, 16, batch_first=True)))
    x = _tokens(2, 8)
    full = dec(x)
    show("parallel", full)
    if fold == 1:
        out1, cache = dec(x[:, :5], return_intermediates=True)
        out2, cache = dec(x[:, 5:6], cache=cache, return_intermediates=True, input_not_include_cache=True)
        out3 = dec(x[:, :7], cache=cache)
        show("cached", torch.cat((out1, out2, out3), dim=1))
    if encoder_too:
        enc = ns.TransformerWrapper(num_tokens=32, max_seq_len=16, attn_layers=ns.Encoder(
            dim=16, depth=2, heads=2, attn_dim_head=8, attn_hybrid_fold_axial_dim=fold,
            attn_hybrid_module=torch.nn.GRU(16, 8, batch_first=True, bidirectional=True)))
        mask = torch.ones(2, 8, dtype=torch.bool)
        mask[0, 6:] = False
        out = enc(x, mask=mask)
        show("encoder", out)
        out[mask].square().mean().backward()
        show("gru weight grad", enc.attn_layers.layers[0][1].hybrid_module.fn.weight_hh_l0.grad)


def cache_parity(ns, pos="rotary"):
    """Incremental decoding through the kv cache against the parallel pass (its ``test_pos_emb_parity`` and
    ``test_seq_start_pos_parity`` at small sizes): the last positions' outputs of both."""
    torch.manual_seed(0)
    model = ns.Decoder(dim=16, depth=2, heads=2, attn_dim_head=8, **{f"{pos}_pos_emb": True})
    model.eval()
    seq = torch.randn(2, 9, 16)
    parallel = model(seq)
    outs = []
    out, cache = model(seq[:, :5], return_hiddens=True)
    outs.append(out[:, -1:])
    for i in range(3):
        out, cache = model(seq[:, 5 + i:6 + i], cache=cache, return_hiddens=True)
        outs.append(out[:, -1:])
    show("parallel", parallel[:, 4:8])
    show("sequential", torch.cat(outs, dim=1))
    net = ns.TransformerWrapper(num_tokens=32, max_seq_len=32, input_not_include_cache=True,
                                attn_layers=ns.Decoder(dim=16, depth=2, heads=2, attn_dim_head=8))
    net.eval()
    x = _tokens(2, 6)
    start = torch.tensor([3, 0])
    show("seq_start_pos parallel", net(x, seq_start_pos=start))
    cache, outs = None, []
    for i in range(6):
        logits, cache = net(x[:, i:i + 1], cache=cache, seq_start_pos=start, return_intermediates=True)
        outs.append(logits)
    show("seq_start_pos sequential", torch.cat(outs, dim=1))


def wrapper_outputs(ns):
    """TransformerWrapper's output options: CLS tokens, average pooling, attention pooling, a squeezed logit,
    a custom ``to_logits``, mixture of softmaxes, sigsoftmax, several output heads, memory tokens interspersed and
    a continuous prediction head, each with a gradient."""
    for name, kw, layers in (
            ("cls", dict(use_cls_token=True, num_cls_tokens=2), "Encoder"),
            ("average pool", dict(average_pool_embed=True), "Encoder"),
            ("attn pool", dict(attn_pool=True, num_pooled_tokens=3, attn_pool_depth=2, dim_pooled_tokens=6), "Encoder"),
            ("squeeze", dict(logits_dim=1, squeeze_out_last_dim=True), "Encoder"),
            ("to_logits", dict(to_logits=torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.Tanh())), "Decoder"),
            ("mixture of softmax", dict(mixture_of_softmax=True, mixture_of_softmax_k=3), "Decoder"),
            ("sigsoftmax", dict(sigsoftmax_logits=True), "Decoder"),
            ("output heads", dict(num_output_heads=2), "Decoder"),
            ("memory tokens", dict(num_memory_tokens=2, memory_tokens_interspersed_every=4), "Decoder"),
            ("ff deep embed", dict(ff_deep_embed=True), "Decoder"),
            ("recycling", dict(recycling=True, train_max_recycle_steps=2), "Decoder")):
        run = dict(recycle_steps=2) if name == "recycling" else {}  # (eval asks for the number of steps)
        torch.manual_seed(0)
        net = ns.TransformerWrapper(num_tokens=32, max_seq_len=16, **kw,
                                    attn_layers=getattr(ns, layers)(dim=16, depth=2, heads=2, attn_dim_head=8))
        net.eval()
        out = net(_tokens(2, 8), **run)
        show(name, out)
        net.train()
        torch.manual_seed(2)
        out = net(_tokens(2, 8))
        out = out if isinstance(out, torch.Tensor) else torch.stack(tuple(out))
        out.float().square().mean().backward()
        show(f"{name} emb grad", net.token_emb.emb.weight.grad)
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=32, max_seq_len=16, add_continuous_pred_head=True,
                                attn_layers=ns.Decoder(dim=16, depth=2, heads=2, attn_dim_head=8))
    model = ns.AutoregressiveWrapper(net)
    loss = model(_tokens(2, 9))
    show("continuous head loss", loss)


def autoregressive(ns):
    """AutoregressiveWrapper's 2.x sampling: beam search (deterministic and stochastic, with its beams' scores),
    prompts given as a list of tensors of several lengths, prepended embeddings with a mask, contrastive decoding
    against an amateur model, and the kv cache's agreement with uncached greedy decoding."""
    torch.manual_seed(0)
    net = ns.TransformerWrapper(num_tokens=32, max_seq_len=24, attn_layers=ns.Decoder(dim=16, depth=2, heads=2))
    model = ns.AutoregressiveWrapper(net)
    _sgd_steps(model, lambda: model(_tokens(3, 12)), steps=2)
    x = _tokens(2, 4)
    show("beam search", model.beam_search(x[:, :1], 6, beams=3))
    beams, scores = model.beam_search(x[:, :2], 5, beams=3, return_beams_and_scores=True)
    show("beams", beams)
    show("scores", scores)
    torch.manual_seed(3)
    show("stochastic beams", model.beam_search(x[:, :1], 5, beams=3, stochastic=True))
    torch.manual_seed(4)
    show("list prompts", model.generate([_tokens(3), _tokens(5), _tokens(2)], 6))
    prepend = torch.randn(2, 3, 16)
    prepend_mask = torch.tensor([[True, False, True], [True, True, True]])
    loss = model(_tokens(2, 8), prepend_embeds=prepend, prepend_mask=prepend_mask)
    show("prepend loss", loss)
    with_cache = model.generate(x[:, :1], 6, temperature=0., prepend_embeds=prepend, prepend_mask=prepend_mask)
    without = model.generate(x[:, :1], 6, temperature=0., prepend_embeds=prepend, prepend_mask=prepend_mask,
                             cache_kv=False)
    show("prepend greedy", with_cache)
    print("cache agrees", torch.equal(with_cache, without))
    torch.manual_seed(0)
    amateur = ns.TransformerWrapper(num_tokens=32, max_seq_len=24, attn_layers=ns.Decoder(dim=8, depth=1, heads=1))
    torch.manual_seed(5)
    show("contrastive", model.generate(x, 5, amateur_model=amateur, filter_logits_fn="top_k",
                                       contrastive_decode_kwargs=dict(beta=0.5, alpha=torch.tensor(0.1))))
    for name in ("top_a", "min_p"):
        torch.manual_seed(6)
        show(name, model.generate(x, 5, filter_logits_fn=name))


def external_kv(ns):
    """Self-attention over extra keys and values: given tensors with a mask, another model's intermediates
    (detached), and cross-attention key/value residuals; outputs and an input gradient."""
    torch.manual_seed(0)
    model = ns.TransformerWrapper(num_tokens=32, max_seq_len=16,
                                  attn_layers=ns.Decoder(dim=16, depth=2, heads=2, attn_dim_head=8))
    seq = _tokens(2, 6)
    kvs = [(torch.randn(2, 2, 4, 8), torch.randn(2, 2, 4, 8)) for _ in range(2)]
    kv_mask = torch.tensor([[True, True, False, True], [False, True, True, True]])
    show("additional kv", model(seq, self_attn_additional_kv=kvs, additional_kv_mask=kv_mask))
    _, inter = model(seq, return_intermediates=True)
    action = ns.Decoder(dim=16, depth=2, heads=2, attn_dim_head=8)
    x = torch.randn(2, 5, 16, requires_grad=True)
    out = action(x, self_attn_additional_kv=inter, detach_additional_kv=True,
                 additional_kv_mask=torch.tensor([[True] * 6, [True] * 3 + [False] * 3]))
    show("intermediates as kv", out)
    out.square().mean().backward()
    show("input grad", x.grad)
    cross = ns.Decoder(dim=16, depth=2, heads=2, attn_dim_head=8, cross_attend=True)
    tokens, context = torch.randn(2, 4, 16), torch.randn(2, 6, 16)
    show("cross kv residuals", cross(tokens, context=context, cross_attn_kv_residuals=torch.randn(2, 2, 6, 16)))


def attention_tools(ns):
    """An Attention module's own tools: QK-clip (MuonClip) rescaling its query/key weights from the
    intermediates, on a module and on a whole TransformerWrapper; the Muon parameter groups; gumbel-softmax
    (stochastic hard) attention and its log-probabilities."""
    from x_transformers.attend import log_prob_from_hard_attend

    torch.manual_seed(0)
    attn = ns.Attention(dim=16, dim_out=12, heads=2, dim_head=8)
    x = torch.randn(1, 10, 16) * 4
    out, inter = attn(x, return_intermediates=True)
    show("attention out", out)
    attn.qk_clip_(inter, tau=2.)
    show("q weight clipped", attn.to_q.weight)
    show("k weight clipped", attn.to_k.weight)
    net = ns.TransformerWrapper(num_tokens=32, max_seq_len=16,
                                attn_layers=ns.Decoder(dim=16, depth=2, heads=2, attn_dim_head=8))
    _, inter = net(_tokens(1, 8), return_intermediates=True)
    net.attn_qk_clip_(inter, tau=0.5)
    show("wrapper q weight clipped", net.attn_layers.layers[0][1].to_q.weight)
    print("muon parameters", len(list(attn.muon_parameters())), len(list(ns.FeedForward(dim=16).muon_parameters())),
          len(ns.Encoder(dim=16, depth=2).muon_parameters()))
    stochastic = ns.Attention(dim=16, heads=2, dim_head=8, gumbel_softmax=True)
    torch.manual_seed(1)
    out, inter = stochastic(torch.randn(1, 6, 16), return_intermediates=True)
    show("gumbel attention", out)
    show("log probs", log_prob_from_hard_attend(inter))


def continuous(ns, probabilistic=False, rollout_steps=1, batch=2):
    """ContinuousTransformerWrapper (probabilistic: a Normal's mean and variance per step) with its autoregressive
    wrapper: loss with multi-step rollouts, SGD steps, generation with and without the cache, and external
    projections in and out."""
    from x_transformers.x_transformers import AttentionLayers

    torch.manual_seed(0)
    net = ns.ContinuousTransformerWrapper(dim_in=6, dim_out=6, max_seq_len=16, probabilistic=probabilistic,
                                          attn_layers=ns.Decoder(dim=16, depth=2, heads=2, attn_dim_head=8))
    x = torch.randn(batch, 10, 6)
    show("out", net(x))
    model = ns.ContinuousAutoregressiveWrapper(net)
    mask = torch.ones(batch, 10, dtype=torch.bool)
    _sgd_steps(model, lambda: model(x, mask=mask, rollout_steps=rollout_steps), steps=2)
    start = torch.randn(1, 6)
    torch.manual_seed(1)
    show("generated", model.generate(start, 4, cache_kv=True))
    torch.manual_seed(1)
    show("generated uncached", model.generate(start, 4, cache_kv=False))
    proj = ns.ContinuousTransformerWrapper(project_in=torch.nn.Linear(5, 16, bias=False),
                                           project_out=torch.nn.Linear(16, 5, bias=False),
                                           attn_layers=AttentionLayers(dim=16, depth=1, heads=2))
    show("external projections", proj(torch.randn(1, 7, 5)))


def belief_state(ns, **kwargs):
    """BeliefStateWrapper (a forward and a backward decoder trained jointly): its loss (the backward pass runs
    inside), gradients, and generation conditioned on a goal suffix."""
    from x_transformers.belief_state_wrapper import BeliefStateWrapper

    torch.manual_seed(0)
    fwd, bwd = (ns.TransformerWrapper(num_tokens=32, max_seq_len=16,
                                      attn_layers=ns.Decoder(dim=16, depth=2, heads=2, rotary_pos_emb=True,
                                                             rotary_emb_dim=32))
                for _ in range(2))
    model = BeliefStateWrapper(forward_decoder=fwd, backward_decoder=bwd, **kwargs)
    seq = _tokens(2, 8)
    lens = torch.tensor([8, 5])
    loss = model(seq, lens=lens)
    show("loss", loss)
    show("forward emb grad", fwd.token_emb.emb.weight.grad)
    show("backward emb grad", bwd.token_emb.emb.weight.grad)
    torch.manual_seed(1)
    show("sampled", model.generate_with_suffix_cond(seq[:, :1], 6, suffix=_tokens(2, 2)))


def entropy_tokenizer(ns):
    """EntropyBasedTokenizer: a decoder's next-token entropies segment a sequence into tokens (lengths,
    segmented pieces) with and without a maximum token size and with lengths."""
    from x_transformers.entropy_based_tokenizer import EntropyBasedTokenizer

    torch.manual_seed(0)
    model = ns.TransformerWrapper(num_tokens=32, max_seq_len=32, attn_layers=ns.Decoder(dim=16, depth=2, heads=2))
    seq = _tokens(2, 20)
    tokenizer = EntropyBasedTokenizer(model, entropy_threshold=3.2)
    show("token lengths", tokenizer(seq))
    show("with lens", tokenizer(seq, torch.tensor([20, 13])))
    for i, pieces in enumerate(tokenizer(seq, return_segmented_seq=True)):
        print("segmented", i, [p.tolist() for p in pieces])
    capped = EntropyBasedTokenizer(model, entropy_threshold=100, max_token_size=4)
    show("max token size", capped(seq[:1], lens=torch.tensor([14])))
    show("unbatched", tokenizer(seq[0]))


def up_wrapper(ns):
    """UniversalPretrainWrapper (pretraining on sequences sampled from a random synthetic generator): its
    losses over SGD steps."""
    from x_transformers.up_wrapper import UniversalPretrainWrapper

    torch.manual_seed(0)
    model = ns.TransformerWrapper(num_tokens=32, max_seq_len=32, attn_layers=ns.Decoder(dim=16, depth=2, heads=2))
    up = UniversalPretrainWrapper(model, seq_len=12, num_reset=4, batch_size=2, buffer_size=8)
    _sgd_steps(up, up, steps=3)


def gpt_vae(ns):
    """GPTVAE: a decoder conditioned on a latent from an encoder of the sequence; loss, gradients, SGD steps and
    generation styled by another sequence's latents."""
    from x_transformers.gpt_vae import GPTVAE

    torch.manual_seed(0)
    model = GPTVAE(num_tokens=32, max_seq_len=32, dim=16, depth=2, enc_depth=1, heads=2, dim_latent=8)
    seq = _tokens(2, 12)
    _sgd_steps(model, lambda: model(seq), steps=3)
    torch.manual_seed(1)
    show("generated", model.generate(seq[:, :4], 6, seq_for_latents=_tokens(2, 12)))


def free_transformer(ns, **kwargs):
    """FreeTransformer (a decoder with binary latents injected midway, trained as a VAE): its losses,
    gradients, SGD steps and generation from given latents."""
    from x_transformers.free_transformer import FreeTransformer

    torch.manual_seed(0)
    model = FreeTransformer(num_tokens=32, max_seq_len=32, dim=16, heads=2, dec_tail_depth=2, enc_depth=1,
                            kl_loss_weight=1., latent_bits=4, **{"dec_head_depth": 0, **kwargs})
    seq = _tokens(1, 12)
    loss, (ar_loss, aux_loss) = model(seq, return_all_losses=True)
    show("losses", (loss, ar_loss, aux_loss))
    _sgd_steps(model, lambda: model(seq), steps=2)
    torch.manual_seed(1)
    show("generated", model.generate(seq[:, :1], 8, latents=torch.tensor(5)))


def neo_mlp(ns):
    """NeoMLP (an MLP as message passing over input, hidden and output tokens): outputs, gradients and SGD."""
    torch.manual_seed(0)
    mlp = ns.NeoMLP(dim_in=5, dim_out=3, dim_hidden=8, depth=2, dim_model=16)
    x, y = torch.randn(4, 5), torch.randn(4, 3)
    show("out", mlp(x))
    _sgd_steps(mlp, lambda: torch.nn.functional.mse_loss(mlp(x), y), steps=3)


def mdlm(ns, **kwargs):
    """NonAutoregressiveWrapper's simple masked-diffusion (MDLM) loss and its SGD steps, then demasking."""
    torch.manual_seed(0)
    model = ns.TransformerWrapper(num_tokens=33, logits_dim=32, max_seq_len=12,
                                  attn_layers=ns.Encoder(dim=16, depth=2, heads=2, rotary_pos_emb=True))
    nar = ns.NonAutoregressiveWrapper(model, mask_id=32, steps=3, **kwargs)
    seq = _tokens(2, 12)
    _sgd_steps(nar, lambda: nar(seq).loss, steps=2)
    nar.eval()
    torch.manual_seed(1)
    show("generated", nar.generate(batch_size=2))


def xtransformer(ns, **kwargs):
    """XTransformer (the README's encoder-decoder) on the copy task with 2.x options on both sides: loss, SGD
    steps, the cross-attention's gradient and a greedy generated copy."""
    torch.manual_seed(0)
    model = ns.XTransformer(dim=16, tie_token_emb=True, return_tgt_loss=True, enc_num_tokens=18, enc_depth=2,
                            enc_heads=2, enc_max_seq_len=8, dec_num_tokens=18, dec_depth=2, dec_heads=2,
                            dec_max_seq_len=17, enc_attn_dim_head=8, dec_attn_dim_head=8, **kwargs)

    def batch():
        src = torch.randint(2, 18, (4, 8))
        return src, torch.cat((torch.ones(4, 1, dtype=torch.long), src, src), 1), torch.ones(4, 8).bool()

    src, tgt, src_mask = batch()
    _sgd_steps(model, lambda: model(src, tgt, mask=src_mask))
    model.eval()
    sample = model.generate(src[:1], torch.ones(1, 1).long(), 8, mask=src_mask[:1], temperature=0.)
    show("sample", sample)


def vit(ns, **layers):
    """ViTransformerWrapper classifying images, with 2.x layer options: logits, embeddings, SGD steps."""
    torch.manual_seed(0)
    model = ns.ViTransformerWrapper(image_size=16, patch_size=4, num_classes=5,
                                    attn_layers=ns.Encoder(dim=16, depth=2, heads=2, attn_dim_head=8, **layers))
    img, labels = torch.randn(2, 3, 16, 16), torch.tensor([1, 3])
    show("logits", model(img))
    show("embeddings", model(img, return_embeddings=True))
    _sgd_steps(model, lambda: torch.nn.functional.cross_entropy(model(img), labels))


class Wandb:
    """Weights & Biases as ``train_enwik8.py`` uses it, disabled: ``init``, ``run.name`` and ``log`` do nothing."""

    def __init__(self):
        self.run = type("Run", (), {})()

    def init(self, *args, **kwargs):
        return self.run

    def log(self, *args, **kwargs):
        pass
