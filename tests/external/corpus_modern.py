"""Drivers for the modern model code of ``recipes_modern.py`` (our text): LLM blocks, state-space layers, tabular nets.

A recipe fetches one module (litgpt's ``model.py``, mistral-inference's ``rope.py``/``moe.py``, S4D, rtdl's models)
as its script and appends a call to a driver here. Each driver builds a small seeded model, runs forward, backward
and a few optimizer steps (and greedy generation with the KV cache for a language model), and prints what a user
sees: shapes, dtypes, losses, gradient norms and the first values.
"""

from __future__ import annotations

import sys
import types

import torch
import torch.nn as nn
import torch.nn.functional as F


def litgpt_stand_ins():
    """What litgpt's ``model.py`` and ``config.py`` import but no driver uses: PyYAML (for ``Config.from_file``;
    a bare module where it is not installed) and ``litgpt.scripts.convert_hf_checkpoint`` (its
    ``qkv_reassemble`` converts legacy checkpoints; the real module imports Lightning)."""
    try:
        import yaml  # noqa: F401
    except ImportError:
        sys.modules["yaml"] = types.ModuleType("yaml")
    scripts = types.ModuleType("litgpt.scripts")
    convert = types.ModuleType("litgpt.scripts.convert_hf_checkpoint")
    convert.qkv_reassemble = None
    scripts.convert_hf_checkpoint = convert
    sys.modules["litgpt.scripts"] = scripts
    sys.modules["litgpt.scripts.convert_hf_checkpoint"] = convert


def _values(t, n=6):
    """The first values to 5 decimals (fixed digits: a value near 0 is rounding noise in significant digits)."""
    return [f"{v:.5f}" for v in t.detach().flatten()[:n].tolist()]


def _grads(model):
    for name, p in model.named_parameters():
        if p.grad is None:
            print(" ", name, tuple(p.shape), "no grad")
        else:
            print(" ", name, tuple(p.shape), p.dtype, f"grad norm {p.grad.norm().item():.5g}")


# --- mistral-inference ---------------------------------------------------------------------------------------------

def mistral_rope(precompute_freqs_cis, apply_rotary_emb, precompute_freqs_cis_2d):
    """Complex RoPE: ``torch.polar`` tables, ``view_as_complex``/``view_as_real`` on (tokens, heads, head_dim)."""
    torch.manual_seed(0)
    freqs = precompute_freqs_cis(16, 10, 10000.0)
    print("freqs_cis", freqs.dtype, tuple(freqs.shape), freqs[3, :3])
    print("abs", freqs.abs().min().item(), "angle", _values(freqs.angle()[3]))
    xq = torch.randn(10, 4, 16, requires_grad=True)
    xk = torch.randn(10, 2, 16, requires_grad=True)
    q, k = apply_rotary_emb(xq, xk, freqs)
    print("q", q.dtype, tuple(q.shape), _values(q[5, 1]))
    print("k", k.dtype, tuple(k.shape), _values(k[7, 0]))
    print("norms kept:", torch.allclose(q.norm(dim=-1), xq.norm(dim=-1), atol=1e-5))
    scores = torch.einsum("thd,shd->hts", q[:, :2], k)
    loss = scores.square().mean()
    loss.backward()
    print("loss", f"{loss.item():.6g}", "grad q", _values(xq.grad[2, 0]), "grad k", _values(xk.grad[4, 1]))
    half = apply_rotary_emb(xq.detach().half(), xk.detach().half(), freqs)
    print("half:", half[0].dtype, _values(half[0][1, 2].float()))
    grid = precompute_freqs_cis_2d(16, 3, 4, 10000.0)
    print("2d", grid.dtype, tuple(grid.shape), grid[2, 3, :4])
    flat = grid[torch.tensor([0, 2]), torch.tensor([1, 3])]
    print("indexed", tuple(flat.shape), torch.view_as_real(flat)[1, :2].tolist())


class _Expert(nn.Module):
    """mistral's FeedForward: w2(silu(w1(x)) * w3(x))."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


def mistral_moe(MoeLayer, MoeArgs):
    """Top-2 of 4 experts routing on 12 tokens: topk, softmax, ``torch.where`` and index-add through autograd."""
    torch.manual_seed(0)
    dim = 8
    layer = MoeLayer([_Expert(dim, 16) for _ in range(4)], nn.Linear(dim, 4, bias=False),
                     MoeArgs(num_experts=4, num_experts_per_tok=2))
    x = torch.randn(12, dim)
    routed = torch.topk(layer.gate(x), 2)
    print("experts per token", routed.indices.tolist())
    opt = torch.optim.AdamW(layer.parameters(), lr=1e-2)
    for step in range(3):
        opt.zero_grad()
        out = layer(x)
        loss = (out - x.flip(0)).pow(2).mean()
        loss.backward()
        opt.step()
        print(step, tuple(out.shape), f"loss {loss.item():.6g}", _values(out[0], 4))
    _grads(layer)
    with torch.no_grad():
        bf = layer.to(torch.bfloat16)(x.to(torch.bfloat16))
    print("bfloat16", bf.dtype, _values(bf[3].float(), 4))


# --- S4D ----------------------------------------------------------------------------------------------------------

def s4d(S4D, S4DKernel):
    """state-spaces' example.py model, shrunk: encoder, two S4D layers (complex diagonal SSM kernels through
    rfft/irfft convolution), LayerNorm, mean pooling, decoder; its optimizer groups from each parameter's ``_optim``."""
    torch.manual_seed(0)
    kernel = S4DKernel(4, N=8)
    k = kernel(L=16)
    print("kernel", k.dtype, tuple(k.shape), _values(k[1]))
    print("C", tuple(kernel.C.shape), "view_as_complex", torch.view_as_complex(kernel.C).dtype)

    class Model(nn.Module):
        def __init__(self, d_input=3, d_output=10, d_model=16, n_layers=2, dropout=0.1):
            super().__init__()
            self.encoder = nn.Linear(d_input, d_model)
            self.s4_layers = nn.ModuleList(S4D(d_model, d_state=16, dropout=dropout, transposed=True, lr=0.001)
                                           for _ in range(n_layers))
            self.norms = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(n_layers))
            self.dropouts = nn.ModuleList(nn.Dropout1d(dropout) for _ in range(n_layers))
            self.decoder = nn.Linear(d_model, d_output)

        def forward(self, x):
            x = self.encoder(x).transpose(-1, -2)
            for layer, norm, dropout in zip(self.s4_layers, self.norms, self.dropouts):
                z, _ = layer(x)
                x = norm((dropout(z) + x).transpose(-1, -2)).transpose(-1, -2)
            return self.decoder(x.transpose(-1, -2).mean(dim=1))

    model = Model()
    # example.py's setup_optimizer: parameters with an ``_optim`` dict get their own group
    all_parameters = list(model.parameters())
    params = [p for p in all_parameters if not hasattr(p, "_optim")]
    optimizer = torch.optim.AdamW(params, lr=0.01, weight_decay=0.01)
    hps = [dict(s) for s in sorted({frozenset(p._optim.items()) for p in all_parameters if hasattr(p, "_optim")},
                                   key=sorted)]
    for hp in hps:
        optimizer.add_param_group({"params": [p for p in all_parameters if getattr(p, "_optim", None) == hp], **hp})
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, 3)
    for i, g in enumerate(optimizer.param_groups):
        print(f"group {i}:", len(g["params"]), "tensors", {k: g[k] for k in ("lr", "weight_decay")})
    x = torch.randn(4, 32, 3)
    y = torch.randint(0, 10, (4,))
    for step in range(3):
        model.train()
        optimizer.zero_grad()
        out = model(x)
        loss = F.cross_entropy(out, y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        print(step, f"loss {loss.item():.6g}", "C grad", _values(model.s4_layers[0].kernel.C.grad[0], 4))
    _grads(model)
    model.eval()
    with torch.no_grad():
        print("eval", _values(model(x)[0]))


# --- litgpt -------------------------------------------------------------------------------------------------------

def litgpt(GPT, Config, *, steps=2, new_tokens=5, dtype=None, **config):
    """litgpt's GPT on a small ``Config``: weights by ``_init_weights``, training steps, then greedy generation with
    the KV cache, checked against the full forward's logits."""
    torch.manual_seed(0)
    cfg = Config(block_size=32, vocab_size=64, padding_multiple=16, n_layer=2, n_embd=32, n_head=4, **config)
    print(cfg.name or "config", "head_size", cfg.head_size, "query groups", cfg.n_query_groups,
          "rope_n_elem", cfg.rope_n_elem, cfg.norm_class_name, cfg.mlp_class_name)
    model = GPT(cfg)
    model.apply(model._init_weights)
    if dtype is not None:  # litgpt's fabric.init_module(dtype) / model.to(dtype)
        model = model.to(getattr(torch, dtype))
    print("parameters", sum(p.numel() for p in model.parameters()), "buffers",
          [(n, tuple(b.shape)) for n, b in model.named_buffers()])
    idx = torch.randint(0, cfg.vocab_size, (2, 12))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.1)
    for step in range(steps):
        logits = model(idx[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), idx[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        print(step, tuple(logits.shape), f"loss {loss.item():.6g}", f"grad norm {norm.item():.6g}")
    chunks = model(idx[:, :-1], lm_head_chunk_size=4)
    print("chunks", [tuple(c.shape) for c in chunks])
    model.eval()
    prompt = idx[:1, :4]
    model.max_seq_length = 16
    model.set_kv_cache(batch_size=1)
    with torch.no_grad():
        out = model(prompt, input_pos=torch.arange(4))
        tokens = prompt[0].tolist()
        for _ in range(new_tokens):
            nxt = int(out[0, -1].argmax())
            tokens.append(nxt)
            out = model(torch.tensor([[nxt]]), input_pos=torch.tensor([len(tokens) - 1]))
        full = model(torch.tensor([tokens]), input_pos=torch.arange(len(tokens)))
        model.clear_kv_cache()
        plain = model(torch.tensor([tokens]))
    print("generated", tokens)
    print("cached last logits", out.dtype, _values(out[0, -1].float()))
    print("cache vs full forward:", torch.allclose(out[0, -1], plain[0, -1], atol=1e-4),
          torch.allclose(full, plain, atol=1e-4))


# --- rtdl -----------------------------------------------------------------------------------------------------------

def rtdl(m):
    """rtdl_revisiting_models' MLP, ResNet and FT-Transformer on random tabular data (3 numeric features, 2
    categorical ones with 3 and 5 values): a regression loss, AdamW steps, eval outputs."""
    torch.manual_seed(0)
    x_num = torch.randn(8, 3)
    x_cat = torch.stack([torch.randint(0, 3, (8,)), torch.randint(0, 5, (8,))], dim=1)
    y = torch.randn(8, 1)
    mlp = m.MLP(d_in=3, d_out=1, n_blocks=2, d_block=16, dropout=0.1)
    resnet = m.ResNet(d_in=3, d_out=1, n_blocks=2, d_block=16, d_hidden=None, d_hidden_multiplier=2.0,
                      dropout1=0.15, dropout2=0.0)
    ftt = m.FTTransformer(n_cont_features=3, cat_cardinalities=[3, 5], d_out=1, n_blocks=2, d_block=16,
                          attention_n_heads=4, attention_dropout=0.1, ffn_d_hidden=None,
                          ffn_d_hidden_multiplier=4 / 3, ffn_dropout=0.1, residual_dropout=0.0)
    default = m.FTTransformer.get_default_kwargs(n_blocks=2)
    print("default kwargs", sorted(default.items()))
    for name, model, call in (("MLP", mlp, lambda: mlp(x_num)), ("ResNet", resnet, lambda: resnet(x_num)),
                              ("FTTransformer", ftt, lambda: ftt(x_num, x_cat))):
        print(name, sum(p.numel() for p in model.parameters()), "parameters")
        if model is resnet:
            # the biases of the input projection and of each block's last linear feed a BatchNorm: their gradient
            # is rounding noise (the batch mean removes it), which Adam's first step turns into a full lr step
            opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        else:
            params = ftt.make_parameter_groups() if model is ftt else model.parameters()
            opt = torch.optim.AdamW(params, lr=1e-3, weight_decay=1e-5)
        model.train()
        for step in range(3):
            opt.zero_grad()
            loss = F.mse_loss(call(), y)
            loss.backward()
            opt.step()
            print(" ", step, f"loss {loss.item():.6g}")
        model.eval()
        with torch.no_grad():
            print("  eval", _values(call()))
    print("groups", [(len(g["params"]), g.get("weight_decay")) for g in ftt.make_parameter_groups()])


# --- S4 -------------------------------------------------------------------------------------------------------------

def s4(S4Block, *, steps=2, length=32, **layer_args):
    """The standalone S4 block (a GLU-gated FFT convolution with an S4 kernel) on (batch, channels, length): AdamW
    steps, then the same sequence again through the recurrent view (``setup_step``/``step``) in eval mode."""
    torch.manual_seed(0)
    block = S4Block(8, d_state=16, dropout=0.1, transposed=True, **layer_args)
    print(type(block.layer.kernel).__name__, sum(p.numel() for p in block.parameters()), "parameters")
    for name, p in block.named_parameters():
        print(" ", name, tuple(p.shape), p.dtype, getattr(p, "_optim", ""))
    x = torch.randn(2, 8, length)
    target = torch.randn(2, 8, length)
    opt = torch.optim.AdamW(block.parameters(), lr=1e-2, weight_decay=0.0)
    for step in range(steps):
        opt.zero_grad()
        y, _ = block(x)
        loss = F.mse_loss(y, target)
        loss.backward()
        opt.step()
        print(step, tuple(y.shape), f"loss {loss.item():.6g}")
    _grads(block)
    block.eval()
    with torch.no_grad():
        y, _ = block(x)
        print("conv", _values(y[0, :, -1]))
        block.setup_step()
        state = block.default_state(2)
        print("state", state.dtype, tuple(state.shape))
        outs = []
        for t in range(length):
            y_t, state = block.step(x[:, :, t], state)
            outs.append(y_t)
        rec = torch.stack(outs, dim=-1)
        print("recurrent", _values(rec[0, :, -1]))
        print("recurrent == conv:", torch.allclose(rec, y, atol=1e-3))


# --- torchtune ------------------------------------------------------------------------------------------------------

def torchtune_stand_ins():
    """What torchtune's ``attention_utils`` imports from ``torchtune.utils`` (whose package imports the whole
    library): the flex-attention guard (False: flex attention compiles kernels; SDPA runs) and its logger."""
    import logging

    guard = types.ModuleType("torchtune.utils._import_guard")
    guard._SUPPORTS_FLEX_ATTENTION = False
    log = types.ModuleType("torchtune.utils._logging")
    log.get_logger = lambda level=None: logging.getLogger("torchtune")
    log.log_once = lambda logger, msg, level=logging.INFO: None
    utils = types.ModuleType("torchtune.utils")
    utils._import_guard, utils._logging = guard, log
    sys.modules.update({"torchtune.utils": utils, "torchtune.utils._import_guard": guard,
                        "torchtune.utils._logging": log})


def torchtune_attention(MultiHeadAttention, *, num_kv_heads=2, qk_norm=False):
    """torchtune's MultiHeadAttention as its Llama builders make it (RoPE, grouped-query heads, RMSNorm, SwiGLU
    FeedForward after it): causal training steps, a packed batch's block-causal mask, then decoding with its
    KVCache against the full forward."""
    from torchtune.modules.attention_utils import create_block_causal_mask
    from torchtune.modules.feed_forward import FeedForward
    from torchtune.modules.position_embeddings import RotaryPositionalEmbeddings
    from torchtune.modules.rms_norm import RMSNorm

    torch.manual_seed(0)
    dim, heads, head_dim = 32, 4, 8
    attn = MultiHeadAttention(
        embed_dim=dim, num_heads=heads, num_kv_heads=num_kv_heads, head_dim=head_dim,
        q_proj=nn.Linear(dim, heads * head_dim, bias=False),
        k_proj=nn.Linear(dim, num_kv_heads * head_dim, bias=False),
        v_proj=nn.Linear(dim, num_kv_heads * head_dim, bias=False),
        output_proj=nn.Linear(heads * head_dim, dim, bias=False),
        pos_embeddings=RotaryPositionalEmbeddings(head_dim, max_seq_len=32),
        q_norm=RMSNorm(head_dim, eps=1e-5) if qk_norm else None,
        k_norm=RMSNorm(head_dim, eps=1e-5) if qk_norm else None,
        max_seq_len=32)
    norm = RMSNorm(dim)
    mlp = FeedForward(gate_proj=nn.Linear(dim, 64, bias=False), down_proj=nn.Linear(64, dim, bias=False),
                      up_proj=nn.Linear(dim, 64, bias=False))
    model = nn.ModuleList([attn, norm, mlp])
    print("parameters", sum(p.numel() for p in model.parameters()), "buffers",
          [(n, tuple(b.shape)) for n, b in model.named_buffers()])

    def block(x, **kw):
        n = norm(x)
        h = x + attn(n, n, **kw)
        return h + mlp(norm(h))

    x = torch.randn(2, 10, dim)
    target = torch.randn(2, 10, dim)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    for step in range(2):
        opt.zero_grad()
        loss = F.mse_loss(block(x), target)
        loss.backward()
        opt.step()
        print(step, f"loss {loss.item():.6g}")
    _grads(model)
    mask = create_block_causal_mask([torch.tensor([3, 4, 3]), torch.tensor([6, 4])])
    print("block-causal mask", mask.dtype, tuple(mask.shape), mask[0, 3].tolist())
    with torch.no_grad():
        packed = block(x, mask=mask)
        print("packed", _values(packed[0, 4]))
        # the first packed sample alone gives the same rows
        print("packed == alone:", torch.allclose(packed[:1, :3], block(x[:1, :3]), atol=1e-5))
        full = block(x)
        attn.setup_cache(batch_size=2, dtype=torch.float32, max_seq_len=16)
        causal = torch.tril(torch.ones(16, 16, dtype=torch.bool))
        out = block(x[:, :6], mask=causal[None, :6].expand(2, 6, 16), input_pos=torch.arange(6)[None].expand(2, 6))
        steps = [out]
        for t in range(6, 10):
            steps.append(block(x[:, t:t + 1], mask=causal[None, t:t + 1].expand(2, 1, 16),
                               input_pos=torch.tensor([[t], [t]])))
        cached = torch.cat(steps, dim=1)
        print("kv cache", tuple(attn.kv_cache.k_cache.shape), "size", attn.kv_cache.size)
        attn.reset_cache()
        print("after reset", attn.kv_cache.size)
    print("cached", _values(cached[1, -1]))
    print("cached == full:", torch.allclose(cached, full, atol=1e-5))
