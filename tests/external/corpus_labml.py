"""The drivers for labml's annotated paper implementations (``recipes_labml.py``; our code).

A module of ``labml_nn`` is the script, with the package's files it imports beside it; where the module has no
``_test()`` or ``__main__`` block of its own, one of these drivers is appended after its last statement and builds
its model as the repository's ``experiment.py`` does (smaller: width 16, 2 layers, 4 heads, 12 tokens), trains it
a few optimizer steps on seeded random tokens or images and prints the losses, a gradient norm and an output slice.
The classes are handed in from the script's namespace (the module run as ``__main__``).
"""

from __future__ import annotations

import importlib

D_MODEL, HEADS, D_FF, N_TOKENS, SEQ_LEN, BATCH = 16, 4, 32, 12, 8, 2


def _torch():
    return importlib.import_module("torch")


def _report(model, loss, step):
    torch = _torch()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)
    print(f"step {step}: loss {loss.item():.6f} grad norm {norm.item():.6f}")


def _tokens(seq_len=SEQ_LEN, batch=BATCH):
    """[seq_len, batch] inputs and their next-token targets, as labml's autoregressive experiments shape them."""
    torch = _torch()
    data = torch.randint(0, N_TOKENS, (seq_len + 1, batch))
    return data[:-1], data[1:]


def train_lm(model, steps=3, lr=1e-3, optimizer=None, extra_loss=None, **data):
    """Next-token training of an autoregressive ``model`` (its output: logits, or a tuple led by them)."""
    torch = _torch()
    torch.manual_seed(0)
    x, y = _tokens(**data)
    opt = optimizer or torch.optim.Adam(model.parameters(), lr=lr)
    print("parameters:", sum(p.numel() for p in model.parameters()))
    for step in range(steps):
        out = model(x)
        logits = out[0] if isinstance(out, tuple) else out
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        if extra_loss is not None:
            loss = loss + extra_loss(out)
        opt.zero_grad()
        loss.backward()
        _report(model, loss, step)
        opt.step()
    model.eval()
    with torch.no_grad():
        out = model(x)
    logits = out[0] if isinstance(out, tuple) else out
    print("eval logits", tuple(logits.shape), logits[-1, 0, :4])
    print("argmax", logits.argmax(-1).T.tolist())
    return model


def _wrap(transformer, call=None):
    """labml's AutoregressiveModel: embedding, ``transformer``, a linear generator."""
    nn = _torch().nn

    class AutoregressiveModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.src_embed = nn.Embedding(N_TOKENS, D_MODEL)
            self.transformer = transformer
            self.generator = nn.Linear(D_MODEL, N_TOKENS)

        def forward(self, x):
            h = self.src_embed(x)
            h = call(self.transformer, h) if call else self.transformer(h)
            return self.generator(h[0] if isinstance(h, tuple) else h)

    return AutoregressiveModel()


def _subsequent_mask(n):
    return _torch().tril(_torch().ones(n, n)).to(_torch().bool).unsqueeze(-1)


def encoder_lm(attn=None, layer=None, causal=True, n_layers=2, **kw):
    """labml's Encoder of ``layer`` (a TransformerLayer with ``attn`` as its self-attention unless given), as the
    experiments configure ``TransformerConfigs.encoder_attn``/``encoder_layer`` (AFT, FNet, MLP-mixer, gMLP...),
    trained on next tokens (with the causal mask where the mixing takes one)."""
    torch = _torch()
    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.models import Encoder, TransformerLayer

    torch.manual_seed(0)
    if layer is None:
        layer = TransformerLayer(d_model=D_MODEL, self_attn=attn, feed_forward=FeedForward(D_MODEL, D_FF, 0.0),
                                 dropout_prob=0.0)
    encoder = Encoder(layer, n_layers)
    return train_lm(_wrap(encoder, lambda enc, h: enc(h, _subsequent_mask(len(h)) if causal else None)), **kw)


def switch(SwitchTransformer, SwitchTransformerLayer, SwitchFeedForward, MultiHeadAttention, FeedForward):
    """The switch transformer with 4 experts, cross-entropy plus its load-balancing loss (as its experiment)."""
    torch = _torch()
    torch.manual_seed(0)
    n_experts = 4
    model = SwitchTransformer(
        SwitchTransformerLayer(d_model=D_MODEL, attn=MultiHeadAttention(HEADS, D_MODEL, 0.0),
                               feed_forward=SwitchFeedForward(capacity_factor=1.2, drop_tokens=True,
                                                              is_scale_prob=True, n_experts=n_experts,
                                                              expert=FeedForward(D_MODEL, D_FF, 0.0),
                                                              d_model=D_MODEL),
                               dropout_prob=0.0), 2)
    stats = {}

    def call(t, h):
        res, counts, route_prob, n_dropped, route_prob_max = t(h, _subsequent_mask(len(h)))
        stats.update(counts=counts, route_prob=route_prob, n_dropped=n_dropped, route_prob_max=route_prob_max)
        return res

    def balance(_):
        counts, route_prob = stats["counts"], stats["route_prob"]
        total = counts.sum(dim=-1, keepdims=True)
        loss = n_experts * ((counts / total) * (route_prob / total)).sum()
        print("counts", counts.tolist(), "dropped", stats["n_dropped"], "lb loss", f"{loss.item():.6f}")
        return 0.01 * loss

    train_lm(_wrap(model, call), extra_loss=balance, seq_len=16)


def feedback(FeedbackTransformer, FeedbackTransformerLayer, FeedbackAttention, FeedForward, kv=False,
             FeedbackTransformerKV=None):
    """The feedback transformer (memory of every layer's outputs), and its KV-precomputed variant."""
    torch = _torch()
    torch.manual_seed(0)
    layer = FeedbackTransformerLayer(d_model=D_MODEL, attn=FeedbackAttention(HEADS, D_MODEL, 0.0,
                                                                             is_kv_precomputed=kv),
                                     feed_forward=FeedForward(D_MODEL, D_FF, 0.0), dropout_prob=0.0)
    model = FeedbackTransformerKV(layer, 2, D_MODEL, HEADS) if kv else FeedbackTransformer(layer, 2)
    train_lm(_wrap(model))


def xl(TransformerXL, TransformerXLLayer, RelativeMultiHeadAttention, FeedForward, segments=3):
    """Transformer-XL over consecutive segments, its memories carried (detached) from one segment to the next."""
    torch = _torch()
    torch.manual_seed(0)
    model = TransformerXL(TransformerXLLayer(d_model=D_MODEL, self_attn=RelativeMultiHeadAttention(HEADS, D_MODEL, 0.0),
                                             feed_forward=FeedForward(D_MODEL, D_FF, 0.0), dropout_prob=0.0), 2)
    embed, generator = torch.nn.Embedding(N_TOKENS, D_MODEL), torch.nn.Linear(D_MODEL, N_TOKENS)
    params = [*model.parameters(), *embed.parameters(), *generator.parameters()]
    opt = torch.optim.Adam(params, lr=1e-3)
    mem = []
    for seg in range(segments):
        x, y = _tokens()
        m_len = len(mem[0]) if mem else 0
        mask = _subsequent_mask(len(x))
        if m_len:
            mask = torch.cat((mask.new_ones(len(x), m_len, 1), mask), dim=1)
        out, new_mem = model(embed(x), mem, mask)
        loss = torch.nn.functional.cross_entropy(generator(out).reshape(-1, N_TOKENS), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        mem = [torch.cat((m, n), dim=0)[-SEQ_LEN:].detach() if mem else n.detach() for m, n in
               zip(mem or new_mem, new_mem)]
        print(f"segment {seg}: loss {loss.item():.6f} memory {[tuple(m.shape) for m in mem]}")
    print(out[-1, 0, :4])


def compressive(CompressiveTransformer, CompressiveTransformerLayer, Conv1dCompression, AttentionReconstructionLoss,
                RelativeMultiHeadAttention, FeedForward, segments=3):
    """The compressive transformer over consecutive segments: the last segment's features are the memory, the one
    before is compressed 4:1 by its Conv1d, and the attention-reconstruction loss trains the compression."""
    torch = _torch()
    torch.manual_seed(0)
    model = CompressiveTransformer(CompressiveTransformerLayer(
        d_model=D_MODEL, self_attn=RelativeMultiHeadAttention(HEADS, D_MODEL, 0.0),
        feed_forward=FeedForward(D_MODEL, D_FF, 0.0), dropout_prob=0.0,
        compress=Conv1dCompression(4, D_MODEL)), 2)
    embed, generator = torch.nn.Embedding(N_TOKENS, D_MODEL), torch.nn.Linear(D_MODEL, N_TOKENS)
    opt = torch.optim.Adam([*model.parameters(), *embed.parameters(), *generator.parameters()], lr=1e-3)
    reconstruction = AttentionReconstructionLoss(model.layers)
    mem, c_mem = [], []
    for seg in range(segments):
        x, y = _tokens()
        m_len = (len(mem[0]) if mem else 0) + (len(c_mem[0]) if c_mem else 0)
        mask = _subsequent_mask(len(x))
        if m_len:
            mask = torch.cat((mask.new_ones(len(x), m_len, 1), mask), dim=1)
        out, new_mem = model(embed(x), mem, c_mem, mask)
        loss = torch.nn.functional.cross_entropy(generator(out).reshape(-1, N_TOKENS), y.reshape(-1))
        if mem:
            ar_loss = reconstruction(new_mem, mem)
            print(f"reconstruction loss {ar_loss.item():.6f}")
            loss = loss + ar_loss
            with torch.no_grad():
                c_mem = [layer.compress(m) for layer, m in zip(model.layers, mem)]
        opt.zero_grad()
        loss.backward()
        opt.step()
        mem = new_mem
        print(f"segment {seg}: loss {loss.item():.6f} memory {len(mem[0])} compressed {len(c_mem[0]) if c_mem else 0}")
    print(out[-1, 0, :4])


def _images(n=8, channels=3, size=8):
    torch = _torch()
    return torch.randn(n, channels, size, size), torch.randint(0, 4, (n,))


def norm_cnn(norm, conv=None, steps=3, channels=6):
    """A small CNN with ``norm`` after its first convolution (bias-free: a bias before a normalisation gets only
    rounding noise as its gradient), trained by SGD with momentum as the normalisation experiments' MNIST models;
    prints the losses, the layer's buffers, and train- and eval-mode outputs."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(conv or nn.Conv2d(3, channels, 3, padding=1, bias=False), norm, nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(), nn.Linear(channels * 16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = _images()
    for step in range(steps):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        _report(model, loss, step)
        opt.step()
    for name, buf in norm.named_buffers():
        print(name, buf.flatten()[:6])
    print("train", model(x)[0])
    model.eval()
    print("eval", model(x)[0])
    print("state", sorted(model.state_dict()))


def deep_norm(DeepNormTransformerLayer, n_layers=2):
    """DeepNorm's autoregressive transformer as its experiment builds it (alpha, beta from the layer count)."""
    import copy

    torch = _torch()
    from labml_nn.transformers import MultiHeadAttention
    from labml_nn.transformers.feed_forward import FeedForward

    torch.manual_seed(0)
    alpha, beta = (2.0 * n_layers) ** (1 / 4), (8.0 * n_layers) ** (-1 / 4)
    layer = DeepNormTransformerLayer(d_model=D_MODEL, self_attn=MultiHeadAttention(HEADS, D_MODEL, 0.0),
                                     feed_forward=FeedForward(D_MODEL, D_FF, 0.0), deep_norm_alpha=alpha,
                                     deep_norm_beta=beta)
    train_lm(_wrap(torch.nn.Sequential(*[copy.deepcopy(layer) for _ in range(n_layers)])))


def optimize(make, steps=6, show_lr=None, hessian_every=0):
    """An MLP fitted to a seeded regression by the optimizer ``make(params)``: prints the losses, the learning rate
    its ``get_lr`` gives (where ``show_lr``) and a parameter slice; Sophia's Hessian estimate every few steps."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1))
    x = torch.randn(32, 5)
    y = x.sum(1, keepdim=True).sin()
    opt = make(model.parameters())
    for step in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if hessian_every and step % hessian_every == hessian_every - 1:
            out = model(x)
            samples = torch.distributions.Normal(out, 1.0).sample()
            opt.zero_grad()
            nn.functional.mse_loss(out, samples).backward()
            opt.update_hessian(len(x))
        line = f"step {step}: loss {loss.item():.6f}"
        if show_lr:
            group = opt.param_groups[0]
            line += f" lr {opt.get_lr(opt.state[group['params'][0]], group):.8f}"
        print(line)
    print(model[0].weight[0])
    state = opt.state[model[0].weight]
    print(sorted(state), {k: v for k, v in state.items() if not hasattr(v, "shape") or v.dim() == 0})
