"""Drivers for ``recipes_lucidrains.py`` (our text): lucidrains' vector-quantize-pytorch and friends on core.

Each driver builds a quantizer (or attention layer) at a small size from seeded weights, runs it as the package's
README and tests do (training-mode forwards that update EMA codebooks, eval-mode round trips through the indices),
trains it for a few steps with an encoder and decoder around it, and prints what a user reads (quantized outputs,
codes, losses, gradients, codebooks) as digests: shape, dtype, the absolute sum, the largest magnitude and the first
values to 8 significant digits; integer codes in full.
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
        print(label, f"{value:.8g}" if isinstance(value, float) else value)
        return
    t = value.detach()
    if not t.is_floating_point():
        print(label, tuple(t.shape), t.dtype, t.flatten()[:24].tolist())
        return
    f = t.double()
    head = ", ".join(f"{x:.8g}" for x in f.flatten()[:4].tolist())
    print(label, tuple(t.shape), t.dtype, f"abs-sum {f.abs().sum().item():.8g} max {f.abs().max().item():.8g}"
          if t.numel() else "empty", f"[{head}]")


def _losses(out):
    """The loss part of a quantizer's output tuple: the last element (a tensor, or a tuple of them)."""
    return out[-1]


def _total(loss):
    if isinstance(loss, torch.Tensor):
        return loss.sum()
    return sum(_total(x) for x in loss if isinstance(x, torch.Tensor))


def _train(quantizer, shape, steps=3, lr=0.1, channel_first=False, call=None, **forward):
    """``steps`` SGD steps with momentum of an encoder (a Linear on the feature axis), ``quantizer`` and a decoder,
    on seeded inputs of ``shape``: each step's reconstruction loss, the quantizer's outputs and the gradients'
    norms. (SGD's trajectory is torch's bit for bit; Adam's divides by a float32 ``sqrt``, which in torch is MKL's
    vector sqrt, not correctly rounded.)"""
    dim = shape[1] if channel_first else shape[-1]
    encoder, decoder = torch.nn.Linear(dim, dim), torch.nn.Linear(dim, dim)
    params = [*encoder.parameters(), *decoder.parameters(), *quantizer.parameters()]
    opt = torch.optim.SGD([p for p in params if p.requires_grad], lr=lr, momentum=0.9)
    call = call or (lambda h: quantizer(h, **forward))
    for step in range(steps):
        x = torch.randn(*shape)
        h = encoder(x.movedim(1, -1)).movedim(-1, 1) if channel_first else encoder(x)
        out = call(h)
        quantized = out[0] if isinstance(out, tuple) else out
        recon = decoder(quantized.movedim(1, -1)).movedim(-1, 1) if channel_first else decoder(quantized)
        loss = (recon - x).pow(2).mean()
        aux = _losses(out) if isinstance(out, tuple) and len(out) > 2 else None
        total = loss + (_total(aux) if aux is not None else 0.)
        opt.zero_grad()
        total.backward()
        print(f"step {step}: recon {loss.item():.8g} total {total.item():.8g}")
        show(f"step {step} quantized", quantized)
        if isinstance(out, tuple):
            show(f"step {step} codes", out[1])
            if aux is not None:
                show(f"step {step} aux", aux)
        norms = [p.grad.norm().item() for p in params if p.grad is not None]
        print(f"step {step} grad norms", " ".join(f"{n:.8g}" for n in norms))
        opt.step()
    return x


# --- vector-quantize-pytorch -----------------------------------------------------------------------------------------

def vq(ns, shape=(2, 24, 16), channel_first=False, eval_roundtrip=True, **options):
    """VectorQuantize(dim=16, codebook_size=32, **options) trained 3 steps (its EMA codebook updated in each
    training forward), its codebook, then in eval mode the output rebuilt from the indices."""
    torch.manual_seed(0)
    dim = shape[1] if channel_first else shape[-1]
    quantizer = ns.VectorQuantize(dim=dim, codebook_size=32, **options)
    x = _train(quantizer, shape, channel_first=channel_first)
    show("codebook", quantizer.codebook)
    if hasattr(quantizer._codebook, "cluster_size"):
        show("cluster size", quantizer._codebook.cluster_size)
    quantizer.eval()
    quantized, indices, loss = quantizer(x)
    show("eval quantized", quantized)
    show("eval codes", indices)
    show("eval loss", loss)
    if eval_roundtrip:
        rebuilt = quantizer.get_output_from_indices(indices)
        print("rebuilt from indices", tuple(rebuilt.shape), torch.allclose(rebuilt, quantized, atol=1e-6))


def vq_breakdown(ns, **options):
    """VectorQuantize's ``return_loss_breakdown`` and ``freeze_codebook``, a padding mask and ``lens``, and the
    cross-entropy loss against given ``indices``."""
    torch.manual_seed(0)
    quantizer = ns.VectorQuantize(dim=16, codebook_size=32, orthogonal_reg_weight=1.,
                                  codebook_diversity_loss_weight=0.5, **options)
    x = torch.randn(2, 12, 16, requires_grad=True)
    quantized, indices, loss, breakdown = quantizer(x, return_loss_breakdown=True)
    show("quantized", quantized)
    show("codes", indices)
    show("loss", loss)
    for name, value in breakdown._asdict().items():
        show(f"breakdown {name}", value)
    (quantized.sum() + loss.sum()).backward()
    show("input grad", x.grad)
    before = quantizer.codebook.clone()
    quantizer(x, freeze_codebook=True)
    print("frozen codebook unchanged", torch.equal(before, quantizer.codebook))
    mask = torch.arange(12) < torch.tensor([[12], [7]])
    quantized, indices, loss = quantizer(x.detach(), mask=mask)
    show("masked quantized", quantized)
    show("masked codes", indices)
    show("masked loss", loss)
    quantized, indices, loss = quantizer(x.detach(), lens=torch.tensor([12, 5]))
    show("lens codes", indices)
    show("lens loss", loss)
    quantizer.eval()
    _, ce_loss = quantizer(x.detach(), indices=torch.randint(0, 32, (2, 12)))
    show("cross-entropy loss", ce_loss)


def vq_learnable(ns):
    """A learnable codebook without EMA (``ema_update=False``) trained by the outer optimizer, and one with
    ``in_place_codebook_optimizer`` (the codebook's own SGD step inside each forward)."""
    torch.manual_seed(0)
    quantizer = ns.VectorQuantize(dim=16, codebook_size=32, learnable_codebook=True, ema_update=False)
    _train(quantizer, (2, 24, 16))
    show("learned codebook", quantizer.codebook)
    torch.manual_seed(0)
    quantizer = ns.VectorQuantize(dim=16, codebook_size=32, learnable_codebook=True, ema_update=False,
                                  in_place_codebook_optimizer=lambda params: torch.optim.SGD(params, lr=0.5))
    _train(quantizer, (2, 24, 16))
    show("in-place codebook", quantizer.codebook)


def rvq(ns, shape=(2, 24, 16), channel_first=False, codebook_size=32, eval_roundtrip=True, **options):
    """ResidualVQ(dim=16, num_quantizers=3, **options) trained 3 steps, its codes through ``get_codes_from_indices``
    and ``get_output_from_indices`` in eval mode, ``return_all_codes`` (with a beam search, which the package's
    eval mode refuses with an einops error in torch too, the training steps only)."""
    torch.manual_seed(0)
    dim = shape[1] if channel_first else shape[-1]
    quantizer = ns.ResidualVQ(dim=dim, num_quantizers=3, codebook_size=codebook_size, **options)
    x = _train(quantizer, shape, channel_first=channel_first)
    if "beam_size" in options:
        return
    quantizer.eval()
    quantized, indices, losses, all_codes = quantizer(x, return_all_codes=True)
    show("eval quantized", quantized)
    show("eval codes", indices)
    show("eval losses", losses)
    show("all codes", all_codes)
    if eval_roundtrip:
        codes = quantizer.get_codes_from_indices(indices)
        show("codes from indices", codes)
        rebuilt = quantizer.get_output_from_indices(indices)
        print("rebuilt from indices", tuple(rebuilt.shape), torch.allclose(rebuilt, quantized, atol=1e-5))


def grouped_rvq(ns, **options):
    """GroupedResidualVQ(dim=16, groups=2, num_quantizers=2) trained 3 steps, then its eval-mode round trip."""
    torch.manual_seed(0)
    quantizer = ns.GroupedResidualVQ(dim=16, groups=2, num_quantizers=2, codebook_size=16, **options)
    x = _train(quantizer, (2, 20, 16))
    quantizer.eval()
    quantized, indices, losses = quantizer(x)
    show("eval quantized", quantized)
    show("eval codes", indices)
    rebuilt = quantizer.get_output_from_indices(indices)
    print("rebuilt from indices", tuple(rebuilt.shape), torch.allclose(rebuilt, quantized, atol=1e-5))


def fsq(ns, levels=(8, 5, 5, 5), shape=(2, 24, 4), channel_first=False, **options):
    """FSQ(levels) on ``shape`` (dim given where it differs from len(levels): projections in and out): trained 3
    steps through its straight-through rounding, then indices to codes and codes to indices."""
    torch.manual_seed(0)
    dim = shape[1] if channel_first else shape[-1]
    kwargs = {} if dim == len(levels) and "num_codebooks" not in options else {"dim": dim}
    quantizer = ns.FSQ(levels=list(levels), channel_first=channel_first, **kwargs, **options)
    print("codebook size", quantizer.codebook_size)
    show("implicit codebook", quantizer.implicit_codebook)
    x = _train(quantizer, shape, channel_first=channel_first)
    quantized, indices = quantizer(x)
    show("quantized", quantized)
    show("indices", indices)
    codes = quantizer.indices_to_codes(indices)
    show("codes from indices", codes)
    if quantizer.dim == len(levels) * quantizer.num_codebooks and not channel_first:
        print("codes to indices", torch.equal(quantizer.codes_to_indices(codes), indices))


def residual_fsq(ns, grouped=False, **options):
    """ResidualFSQ (or GroupedResidualFSQ) trained 3 steps, then ``return_all_codes`` and the eval round trip."""
    torch.manual_seed(0)
    if grouped:
        quantizer = ns.GroupedResidualFSQ(dim=16, groups=2, levels=[8, 5, 5], num_quantizers=2, **options)
    else:
        quantizer = ns.ResidualFSQ(dim=16, levels=[8, 5, 5, 3], num_quantizers=3, **options)
    x = _train(quantizer, (2, 20, 16))
    quantizer.eval()
    quantized, indices, *rest = quantizer(x, return_all_codes=True)
    show("eval quantized", quantized)
    show("eval codes", indices)
    show("all codes", rest[-1])
    rebuilt = quantizer.get_output_from_indices(indices)
    print("rebuilt from indices", tuple(rebuilt.shape), torch.allclose(rebuilt, quantized, atol=1e-5))


def lfq(ns, shape=(2, 24, 16), codebook_size=256, mask=False, **options):
    """LFQ(codebook_size, dim) with its entropy and commitment losses trained 3 steps, ``return_loss_breakdown``
    and ``indices_to_codes``."""
    torch.manual_seed(0)
    quantizer = ns.LFQ(codebook_size=codebook_size, dim=shape[-1], **options)
    forward = {"mask": torch.arange(shape[1]) < torch.tensor([[shape[1]], [shape[1] // 2]])} if mask else {}
    x = _train(quantizer, shape, **forward)
    (quantized, indices, loss), breakdown = quantizer(x, return_loss_breakdown=True, **forward)
    for name, value in breakdown._asdict().items():
        show(f"breakdown {name}", value)
    quantizer.eval()
    quantized, indices, loss = quantizer(x, **forward)
    show("eval quantized", quantized)
    show("eval codes", indices)
    rebuilt = quantizer.indices_to_codes(indices)
    print("rebuilt from indices", tuple(rebuilt.shape), torch.allclose(rebuilt, quantized, atol=1e-5))


def residual_lfq(ns, grouped=False, **options):
    """ResidualLFQ (or GroupedResidualLFQ) trained 3 steps, then the eval round trip through the indices."""
    torch.manual_seed(0)
    if grouped:
        quantizer = ns.GroupedResidualLFQ(dim=16, groups=2, codebook_size=64, num_quantizers=2, **options)
    else:
        quantizer = ns.ResidualLFQ(dim=16, codebook_size=64, num_quantizers=3, **options)
    x = _train(quantizer, (2, 20, 16))
    quantizer.eval()
    quantized, indices, losses = quantizer(x)
    show("eval quantized", quantized)
    show("eval codes", indices)
    show("eval losses", losses)
    rebuilt = quantizer.get_output_from_indices(indices)
    print("rebuilt from indices", tuple(rebuilt.shape), torch.allclose(rebuilt, quantized, atol=1e-5))


def latent_quantize(ns, levels=(5, 5, 8), dim=16, **options):
    """LatentQuantize(levels, dim) trained 3 steps (its learnable per-dimension values), then its codebook and the
    indices' round trip."""
    torch.manual_seed(0)
    quantizer = ns.LatentQuantize(levels=list(levels), dim=dim, **options)
    x = _train(quantizer, (2, dim, 24), channel_first=True)  # (batch, dim, ...): it moves the dim axis last
    quantized, indices, loss = quantizer(x)
    show("quantized", quantized)
    show("indices", indices)
    show("loss", loss)
    show("values per latent", list(quantizer.values_per_latent))
    show("codes from indices", quantizer.indices_to_codes(indices))


def latent_quantize_image(ns):
    """LatentQuantize on an image feature map (batch, dim, height, width), the README's second example."""
    torch.manual_seed(0)
    quantizer = ns.LatentQuantize(levels=[5, 5, 8], dim=16, commitment_loss_weight=0.1,
                                  quantization_loss_weight=0.1)
    image_feats = torch.randn(2, 16, 8, 8, requires_grad=True)
    quantized, indices, loss = quantizer(image_feats)
    show("quantized", quantized)
    show("indices", indices)
    show("loss", loss)
    (quantized.square().sum() + loss).backward()
    show("input grad", image_feats.grad)
    show("values grad", [p.grad for p in quantizer.values_per_latent])


def random_projection(ns):
    """RandomProjectionQuantizer (BEST-RQ): indices of normalised, randomly projected inputs, and its cross-entropy
    loss against given indices."""
    torch.manual_seed(0)
    quantizer = ns.RandomProjectionQuantizer(dim=32, num_codebooks=4, codebook_dim=8, codebook_size=64)
    x = torch.randn(2, 16, 32)
    indices = quantizer(x)
    show("indices", indices)
    show("projections", quantizer.rand_projs)
    logits = torch.randn(2, 16, 4, 64, requires_grad=True)
    loss = torch.nn.functional.cross_entropy(logits.flatten(0, 2), indices.flatten())
    loss.backward()
    show("student loss", loss)
    show("student grad", logits.grad)


def sim_vq(ns, residual=False, **options):
    """SimVQ (a frozen codebook through a learned linear transform) or ResidualSimVQ trained 3 steps, then its
    eval round trip."""
    torch.manual_seed(0)
    if residual:
        quantizer = ns.ResidualSimVQ(dim=16, num_quantizers=3, codebook_size=32, **options)
    else:
        quantizer = ns.SimVQ(dim=16, codebook_size=32, **options)
    x = _train(quantizer, (2, 24, 16))
    quantizer.eval()
    quantized, indices, loss = quantizer(x)
    show("eval quantized", quantized)
    show("eval codes", indices)
    show("eval loss", loss)
    rebuilt = quantizer.get_output_from_indices(indices) if residual else quantizer.indices_to_codes(indices)
    print("rebuilt from indices", tuple(rebuilt.shape), torch.allclose(rebuilt, quantized, atol=1e-5))


def binary_mapper(ns):
    """BinaryMapper(bits=4): sampled one-hot codes with the straight-through gradient and the KL aux loss, unreduced,
    and the deterministic eval codes."""
    torch.manual_seed(0)
    mapper = ns.BinaryMapper(bits=4)
    logits = torch.randn(3, 5, 4, requires_grad=True)
    one_hot, indices, aux = mapper(logits, return_indices=True)
    show("one hot", one_hot)
    show("indices", indices)
    show("aux loss", aux)
    weights = torch.randn(16)
    ((one_hot * weights).sum() + aux).backward()
    show("logits grad", logits.grad)
    _, _, unreduced = mapper(logits, return_indices=True, reduce_aux_kl_loss=False)
    show("unreduced aux", unreduced)
    mapper.eval()
    first, _ = mapper(logits, deterministic=True)
    second, _ = mapper(logits, deterministic=True)
    print("deterministic", torch.equal(first, second), first.argmax(-1).flatten().tolist())


def sequential(ns):
    """The package's ``Sequential`` around a VectorQuantize: the quantizer's codes and loss pass through."""
    torch.manual_seed(0)
    model = ns.Sequential(torch.nn.Linear(8, 16), ns.VectorQuantize(dim=16, codebook_size=8),
                          torch.nn.Linear(16, 8))
    print(model)
    out, indices, loss = model(torch.randn(2, 6, 8))
    show("out", out)
    show("codes", indices)
    show("loss", loss)


# --- local-attention ------------------------------------------------------------------------------------------------

def local_attention(ns, heads=2, seq=24, dim_head=8, masked=False, **options):
    """LocalAttention(window_size=8, **options) on seeded queries, keys and values (2, heads, seq, dim_head): the
    output, optionally under a padding mask, and the gradients of the three inputs."""
    torch.manual_seed(0)
    attn = ns.LocalAttention(window_size=8, dim=dim_head, **options)
    q, k, v = (torch.randn(2, heads, seq, dim_head, requires_grad=True) for _ in range(3))
    kwargs = {"mask": torch.arange(seq) < torch.tensor([[seq], [seq - 5]])} if masked else {}
    out = attn(q, k, v, **kwargs)
    show("out", out)
    (out * torch.randn_like(out)).sum().backward()
    for name, t in (("q", q), ("k", k), ("v", v)):
        show(f"{name} grad", t.grad)


def local_mha_cache(ns, window_size=8, use_attn_bias=False, **options):
    """The package's cache test at a small size: a causal LocalMHA's output for the last token, computed from the
    whole sequence and from the cache of the sequence before it, with a DynamicPositionBias or without."""
    torch.manual_seed(0)
    attn_bias = None
    if use_attn_bias:
        bias_mlp = ns.DynamicPositionBias(dim=8, heads=2)
        bias_mlp.eval()
        attn_bias = bias_mlp(window_size, window_size * 2)
        show("attn bias", attn_bias)
    mha = ns.LocalMHA(dim=16, heads=2, dim_head=8, window_size=window_size, causal=True, **options)
    mha.eval()
    seq = torch.randn(2, 20, 16)
    _, cache = mha(seq, return_cache=True)
    show("cache", cache)
    next_token = torch.randn(2, 1, 16)
    full = mha(torch.cat((seq, next_token), dim=1), attn_bias=attn_bias)[:, -1]
    cached = mha(next_token, cache=cache, attn_bias=attn_bias)[:, -1]
    show("without cache", full)
    show("with cache", cached)
    print("cache agrees", torch.allclose(full, cached, atol=1e-5))


def local_transformer(ns, steps=3, **options):
    """LocalTransformer (a language model of local-attention layers) trained ``steps`` SGD steps on its own loss
    (``return_loss``), then sampled with and without the key/value cache."""
    torch.manual_seed(0)
    model = ns.LocalTransformer(num_tokens=20, max_seq_len=32, dim=16, depth=2, heads=2, dim_head=8,
                                local_attn_window_size=8, **options)
    print("parameters", sum(p.numel() for p in model.parameters()))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(steps):
        x = torch.randint(0, 20, (2, 25))
        loss = model(x, return_loss=True)
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        print(f"step {step}: loss {loss.item():.8g} grad norm {norm.item():.8g}")
    model.eval()
    show("logits", model(torch.randint(0, 20, (2, 12))))
    prime = torch.randint(0, 20, (1, 4))
    for cache in (True, False):
        torch.manual_seed(1)
        show(f"generate kv cache {cache}", model.generate(prime, 10, use_kv_cache=cache))


# --- mixture-of-experts ---------------------------------------------------------------------------------------------

class _ThreeLayerExperts(torch.nn.Module):
    """The README's custom experts: a 3-layer MLP per expert as batched weights (our text, its shapes)."""

    def __init__(self, dim, num_experts=4):
        super().__init__()
        self.w1 = torch.nn.Parameter(torch.randn(num_experts, dim, dim * 2) * 0.1)
        self.w2 = torch.nn.Parameter(torch.randn(num_experts, dim * 2, dim * 2) * 0.1)
        self.w3 = torch.nn.Parameter(torch.randn(num_experts, dim * 2, dim) * 0.1)
        self.act = torch.nn.LeakyReLU(inplace=True)

    def forward(self, x):
        hidden1 = self.act(torch.einsum('end,edh->enh', x, self.w1))
        hidden2 = self.act(torch.einsum('end,edh->enh', hidden1, self.w2))
        return torch.einsum('end,edh->enh', hidden2, self.w3)


def moe(ns, hierarchical=False, custom_experts=False, leaky=False, steps=3, **options):
    """MoE (or HeirarchicalMoE) of 4 experts on (2, 12, 8) inputs: output and balancing loss in training mode (its
    top-2 gating draws the second expert's threshold), three SGD steps, then eval mode."""
    torch.manual_seed(0)
    if leaky:
        options["activation"] = torch.nn.LeakyReLU
    if hierarchical:
        layer = ns.HeirarchicalMoE(dim=8, num_experts=(2, 2), **options)
    else:
        experts = _ThreeLayerExperts(8, 4) if custom_experts else None
        layer = ns.MoE(dim=8, num_experts=4, hidden_dim=16, experts=experts, **options)
    print("parameters", sum(p.numel() for p in layer.parameters()))
    head = torch.nn.Linear(8, 8)
    opt = torch.optim.SGD([*layer.parameters(), *head.parameters()], lr=0.1, momentum=0.9)
    for step in range(steps):
        x = torch.randn(2, 12, 8)
        out, aux_loss = layer(x)
        loss = (head(out) - x).pow(2).mean() + aux_loss.sum()
        opt.zero_grad()
        loss.backward()
        print(f"step {step}: loss {loss.item():.8g}")
        show(f"step {step} out", out)
        show(f"step {step} aux", aux_loss)
        print(f"step {step} grad norms", " ".join(f"{p.grad.norm().item():.8g}" for p in layer.parameters()
                                                   if p.grad is not None))
        opt.step()
    layer.eval()
    out, aux_loss = layer(torch.randn(2, 12, 8))
    show("eval out", out)
    show("eval aux", aux_loss)


def top2_gating(ns, **options):
    """The gate alone: its dispatch and combine tensors (which expert and capacity slot each token goes to) and the
    balancing loss, in training and eval mode."""
    torch.manual_seed(0)
    gating = __import__("sys").modules[ns.MoE.__module__].Top2Gating  # (the package does not export it)
    gate = gating(dim=8, num_gates=4, **options)
    x = torch.randn(2, 10, 8, requires_grad=True)
    dispatch, combine, loss = gate(x)
    show("dispatch", dispatch)
    print("dispatch slots", dispatch.nonzero().tolist()[:12])
    show("combine", combine)
    show("loss", loss)
    (combine.sum() + loss).backward()
    show("input grad", x.grad)
    gate.eval()
    dispatch, combine, loss = gate(x.detach())
    show("eval combine", combine)


# --- performer-pytorch ----------------------------------------------------------------------------------------------

def performer_lm(ns, steps=3, causal=True, **options):
    """PerformerLM (FAVOR+ attention: orthogonal random features from a QR of Gaussian blocks) of 2 layers, trained
    ``steps`` SGD steps through AutoregressiveWrapper (or on a token loss when not causal), its features redrawn,
    then sampled."""
    torch.manual_seed(0)
    net = ns.PerformerLM(num_tokens=20, max_seq_len=32, dim=16, depth=2, heads=2, dim_head=8, causal=causal,
                         nb_features=16, **options)
    print("parameters", sum(p.numel() for p in net.parameters()))
    model = ns.AutoregressiveWrapper(net) if causal else net
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for step in range(steps):
        x = torch.randint(0, 20, (2, 17))
        loss = model(x) if causal else torch.nn.functional.cross_entropy(net(x).transpose(1, 2), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.8g}")
    torch.manual_seed(2)
    net.performer.proj_updater.redraw_projections()  # (what training does every feature_redraw_interval steps)
    net.fix_projection_matrices_()
    net.eval()
    show("logits", net(torch.randint(0, 20, (2, 12))))
    if causal:
        torch.manual_seed(1)
        show("generate", model.generate(torch.randint(0, 20, (1, 3)), 8))


def fast_attention(ns, causal=False, **options):
    """FastAttention on seeded (2, 2, 12, 8) queries, keys and values, and the three inputs' gradients."""
    torch.manual_seed(0)
    attn = ns.FastAttention(dim_heads=8, nb_features=16, causal=causal, **options)
    show("projection", attn.projection_matrix)
    q, k, v = (torch.randn(2, 2, 12, 8, requires_grad=True) for _ in range(3))
    out = attn(q, k, v)
    show("out", out)
    (out * torch.randn_like(out)).sum().backward()
    for name, t in (("q", q), ("k", k), ("v", v)):
        show(f"{name} grad", t.grad)
