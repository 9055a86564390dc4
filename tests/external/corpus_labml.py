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


def _fit(model, loss_fn, steps=3, lr=1e-3, params=None, sgd=False):
    """Adam (or SGD with momentum) on ``loss_fn()``, printing each loss and gradient norm."""
    torch = _torch()
    params = params if params is not None else model.parameters()
    opt = torch.optim.SGD(params, lr=lr, momentum=0.9) if sgd else torch.optim.Adam(params, lr=lr)
    for step in range(steps):
        loss = loss_fn()
        opt.zero_grad()
        loss.backward()
        _report(model, loss, step)
        opt.step()


def ddpm(DenoiseDiffusion, n_steps=10):
    """DDPM as its experiment: labml's U-Net (small: 32 channels, two resolutions, attention at the second),
    trained two steps on seeded 1x8x8 images, then ``n_steps`` of reverse sampling."""
    torch = _torch()
    from labml_nn.diffusion.ddpm.unet import UNet

    torch.manual_seed(0)
    eps_model = UNet(image_channels=1, n_channels=32, ch_mults=(1, 2), is_attn=(False, True), n_blocks=1)
    diffusion = DenoiseDiffusion(eps_model=eps_model, n_steps=n_steps, device=torch.device("cpu"))
    x0 = torch.randn(2, 1, 8, 8)
    _fit(eps_model, lambda: diffusion.loss(x0), steps=2, lr=2e-5)
    print("q_sample", diffusion.q_sample(x0, torch.tensor([0, n_steps - 1]))[0, 0, 0])
    with torch.no_grad():
        x = torch.randn(1, 1, 8, 8)
        for t_ in range(n_steps):
            t = n_steps - t_ - 1
            x = diffusion.p_sample(x, x.new_full((1,), t, dtype=torch.long))
    print("sample", x[0, 0, :2], x.mean().item(), x.std().item())


def wgan_gp(GradientPenalty, steps=2):
    """WGAN-GP's critic step: Wasserstein losses (labml's) plus the gradient penalty at real images, whose
    gradient (``autograd.grad(create_graph=True)``) trains the critic too."""
    torch = _torch()
    nn = torch.nn
    from labml_nn.gan.wasserstein import DiscriminatorLoss, GeneratorLoss

    torch.manual_seed(0)
    generator = nn.Sequential(nn.Linear(4, 32), nn.LeakyReLU(0.2), nn.Linear(32, 16))
    critic = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    d_loss, g_loss, penalty = DiscriminatorLoss(), GeneratorLoss(), GradientPenalty()
    d_opt = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.999))
    g_opt = torch.optim.Adam(generator.parameters(), lr=1e-3, betas=(0.5, 0.999))
    real = torch.randn(8, 16) + 1
    for step in range(steps):
        x = real.clone().requires_grad_()
        f_real, f_fake = critic(x), critic(generator(torch.randn(8, 4)).detach())
        loss_true, loss_false = d_loss(f_real, f_fake)
        gp = penalty(x, f_real)
        loss = loss_true + loss_false + 10.0 * gp
        d_opt.zero_grad()
        loss.backward()
        d_opt.step()
        g = g_loss(critic(generator(torch.randn(8, 4))))
        g_opt.zero_grad()
        g.backward()
        g_opt.step()
        print(f"step {step}: critic {loss_true.item():.6f} {loss_false.item():.6f} gp {gp.item():.6f} "
              f"generator {g.item():.6f}")


def gan_logits(DiscriminatorLogitsLoss, GeneratorLogitsLoss, steps=2):
    """The original GAN's smoothed-label BCE-with-logits losses on a small generator and discriminator."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)
    generator = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 16), nn.Tanh())
    disc = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    d_loss, g_loss = DiscriminatorLogitsLoss(0.2), GeneratorLogitsLoss(0.2)
    d_opt, g_opt = torch.optim.Adam(disc.parameters(), lr=2e-4), torch.optim.Adam(generator.parameters(), lr=2e-4)
    for step in range(steps):
        real, fake = torch.rand(8, 16) * 2 - 1, generator(torch.randn(8, 4))
        lt, lf = d_loss(disc(real), disc(fake.detach()))
        d_opt.zero_grad()
        (lt + lf).backward()
        d_opt.step()
        g = g_loss(disc(generator(torch.randn(8, 4))))
        g_opt.zero_grad()
        g.backward()
        g_opt.step()
        print(f"step {step}: {lt.item():.6f} {lf.item():.6f} {g.item():.6f}")


def capsules(Squash, Router, MarginLoss, steps=2):
    """The capsule network of its MNIST experiment, small: 12x12 images, 36 primary capsules of 8, 4 digit
    capsules of 8 after 3 routing iterations, margin loss plus a reconstruction loss."""
    torch = _torch()
    nn, F = torch.nn, torch.nn.functional
    torch.manual_seed(0)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 16, 5)
            self.conv2 = nn.Conv2d(16, 4 * 8, 3, stride=2)
            self.squash = Squash()
            self.digit_capsules = Router(4 * 3 * 3, 4, 8, 8, 3)
            self.decoder = nn.Sequential(nn.Linear(8 * 4, 64), nn.ReLU(), nn.Linear(64, 144), nn.Sigmoid())

        def forward(self, data):
            x = self.conv2(F.relu(self.conv1(data)))
            caps = self.squash(x.view(x.shape[0], 8, 4 * 3 * 3).permute(0, 2, 1))
            caps = self.digit_capsules(caps)
            with torch.no_grad():
                pred = (caps ** 2).sum(-1).argmax(-1)
                mask = torch.eye(4)[pred]
            rec = self.decoder((caps * mask[:, :, None]).view(x.shape[0], -1)).view(-1, 1, 12, 12)
            return caps, rec, pred

    model, margin = Model(), MarginLoss(n_labels=4)
    data, labels = torch.rand(4, 1, 12, 12), torch.tensor([0, 1, 2, 3])

    def loss():
        caps, rec, pred = model(data)
        print("pred", pred.tolist())
        return margin(caps, labels) + 0.0005 * F.mse_loss(rec, data)

    _fit(model, loss, steps=steps)


def lora(Linear, Embedding, steps=3):
    """LoRA: the frozen base weights (loaded from a plain layer) with trainable rank-2 updates."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)
    emb, lin = Embedding(N_TOKENS, D_MODEL, r=2, alpha=4), Linear(D_MODEL, N_TOKENS, bias=True, r=2, alpha=4)
    model = nn.Sequential(emb, lin)
    with torch.no_grad():  # the pre-trained weights LoRA adapts (left as torch.empty by the layers)
        emb.weight.copy_(torch.randn(N_TOKENS, D_MODEL))
        lin.weight.copy_(torch.randn(N_TOKENS, D_MODEL) * 0.2)
        lin.bias.zero_()
    print(sorted((n, p.requires_grad, tuple(p.shape)) for n, p in model.named_parameters()))
    x, y = _tokens()
    trainable = [p for p in model.parameters() if p.requires_grad]
    _fit(model, lambda: nn.functional.cross_entropy(model(x).reshape(-1, N_TOKENS), y.reshape(-1)), steps=steps,
         lr=1e-2, params=trainable)
    print(lin.lora_b[:2], emb.lora_a[:2])


def ppo(ClippedPPOLoss, ClippedValueFunctionLoss, GAE, steps=3):
    """PPO's update as its experiment: GAE advantages over 2 workers x 8 steps of seeded rewards, then the clipped
    policy and value losses and the entropy bonus of a small actor-critic, a few Adam steps on the same batch."""
    import numpy as np

    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)
    rng = np.random.RandomState(0)
    workers, worker_steps = 2, 8
    model = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 3 + 1))
    obs = torch.randn(workers * worker_steps, 4)
    with torch.no_grad():
        out = model(obs)
        pi = torch.distributions.Categorical(logits=out[:, :3])
        actions = pi.sample()
        sampled_log_pi, sampled_value = pi.log_prob(actions), out[:, 3]
    values = np.concatenate([sampled_value.numpy().reshape(workers, worker_steps), np.zeros((workers, 1))], axis=1)
    done = rng.rand(workers, worker_steps) < 0.2
    rewards = rng.rand(workers, worker_steps).astype(np.float32)
    advantages = GAE(workers, worker_steps, 0.99, 0.95)(done, rewards, values.astype(np.float32))
    print("advantages", np.round(advantages, 5).tolist())
    advantage = torch.tensor(advantages.reshape(-1), dtype=torch.float32)
    sampled_return = sampled_value + advantage
    norm_adv = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
    policy_loss, value_loss = ClippedPPOLoss(), ClippedValueFunctionLoss()

    def loss():
        out = model(obs)
        pi = torch.distributions.Categorical(logits=out[:, :3])
        p = policy_loss(pi.log_prob(actions), sampled_log_pi, norm_adv, 0.1)
        v = value_loss(out[:, 3], sampled_value, sampled_return, 0.1)
        entropy = pi.entropy().mean()
        print(f"policy {p.item():.6f} value {v.item():.6f} entropy {entropy.item():.6f} "
              f"clip fraction {policy_loss.clip_fraction:.4f}")
        return -(p - 0.5 * v + 0.01 * entropy)

    _fit(model, loss, steps=steps, lr=1e-2)


def dqn(QFuncLoss, ReplayBuffer, steps=2):
    """Double DQN with prioritized replay as its experiment, the dueling ``Model`` fed 4x84x84 frames: the buffer's
    sampled batch, QFuncLoss's TD errors as the new priorities."""
    import random

    import numpy as np

    torch = _torch()
    from labml_nn.rl.dqn.model import Model

    torch.manual_seed(0)
    rng = np.random.RandomState(0)
    model, target = Model(), Model()
    target.load_state_dict(model.state_dict())
    buffer = ReplayBuffer(16, 0.6)
    for _ in range(8):
        buffer.add(rng.randint(0, 255, (4, 84, 84)).astype(np.uint8), rng.randint(4), float(rng.rand()),
                   rng.randint(0, 255, (4, 84, 84)).astype(np.uint8), bool(rng.rand() < 0.2))
    loss_func = QFuncLoss(0.99)
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    for step in range(steps):
        random.seed(step)  # ReplayBuffer.sample draws from Python's generator
        s = buffer.sample(4, 0.4)
        obs = torch.tensor(s["obs"], dtype=torch.float32) / 255
        next_obs = torch.tensor(s["next_obs"], dtype=torch.float32) / 255
        with torch.no_grad():
            double_q, target_q = model(next_obs), target(next_obs)
        q = model(obs)
        td, loss = loss_func(q, torch.tensor(s["action"]), double_q, target_q,
                             torch.tensor(s["done"], dtype=torch.float32),
                             torch.tensor(s["reward"], dtype=torch.float32),
                             torch.tensor(s["weights"], dtype=torch.float32))
        buffer.update_priorities(s["indexes"], np.abs(td.detach().numpy()) + 1e-6)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.6f} indexes {sorted(s['indexes'].tolist())} "
              f"weights {np.round(s['weights'], 5).tolist()}")


def evidence(loss_cls, KLDivergenceLoss, TrackStatistics, steps=3):
    """Evidential classification as its experiment: ReLU/softplus evidence of an MLP, the chosen Bayes-risk loss
    plus the annealed KL regulariser, and the statistics it tracks."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))
    x, target = torch.randn(16, 8), torch.eye(4)[torch.randint(0, 4, (16,))]
    loss_func, kl, stats = loss_cls(), KLDivergenceLoss(), TrackStatistics()

    def loss():
        ev = nn.functional.softplus(model(x))
        stats(ev, target)
        a, b = loss_func(ev, target), kl(ev, target)
        print(f"loss {a.item():.6f} kl {b.item():.6f}")
        return a + 0.1 * b

    _fit(model, loss, steps=steps, lr=1e-2)


def recurrent(model, steps=3, seq_len=6, batch=3, input_size=5):
    """An RNN of labml's (LSTM, HyperLSTM, RHN: ``[seq_len, batch, input]`` in, ``(outputs, state)`` out) trained
    to regress a running sum, with the state carried over one more segment."""
    torch = _torch()
    torch.manual_seed(0)
    head = torch.nn.Linear(model_hidden(model), 1)
    x = torch.randn(seq_len, batch, input_size)
    y = x.sum(-1, keepdim=True).cumsum(0) / 4
    params = [*model.parameters(), *head.parameters()]

    def loss():
        out, _ = model(x)
        return torch.nn.functional.mse_loss(head(out), y)

    _fit(model, loss, steps=steps, lr=1e-2, params=params)
    out, state = model(x)
    out2, _ = model(x, state)
    print("outputs", tuple(out.shape), out[-1, 0, :4], out2[-1, 0, :4])


def model_hidden(model):
    return getattr(model, "hidden_size", None) or model.cells[0].hidden_size


def images(model, classes=4, steps=3, size=16, channels=3, batch=4, lr=1e-3, segmentation=False, sgd=False):
    """An image model (ResNet, U-Net, ConvMixer, ViT) trained a few Adam steps on seeded images: cross-entropy over
    ``classes``, or per-pixel BCE for a segmentation mask; then its eval-mode output. ``sgd``: SGD with momentum
    instead, where a convolution's bias feeds BatchNorm (its gradient is rounding noise, which Adam makes a full
    step, so the running means would follow the last bits of the summation order)."""
    torch = _torch()
    F = torch.nn.functional
    torch.manual_seed(0)
    x = torch.randn(batch, channels, size, size)
    if segmentation:
        y = (torch.rand(batch, 1, size, size) > 0.5).float()
        _fit(model, lambda: F.binary_cross_entropy_with_logits(model(x), y), steps=steps, lr=lr, sgd=sgd)
    else:
        y = torch.randint(0, classes, (batch,))
        _fit(model, lambda: F.cross_entropy(model(x), y), steps=steps, lr=lr, sgd=sgd)
    model.eval()
    with torch.no_grad():
        out = model(x)
    print("eval", tuple(out.shape), out.flatten()[:6])
    print("parameters", sum(p.numel() for p in model.parameters()), len(model.state_dict()))


def vit(VisionTransformer, PatchEmbeddings, LearnedPositionalEmbeddings, ClassificationHead):
    """labml's ViT as its CIFAR-10 experiment builds it, small: 16x16 images in 4x4 patches."""
    from labml_nn.transformers import MultiHeadAttention, TransformerLayer
    from labml_nn.transformers.feed_forward import FeedForward

    layer = TransformerLayer(d_model=D_MODEL, self_attn=MultiHeadAttention(HEADS, D_MODEL, 0.0),
                             feed_forward=FeedForward(D_MODEL, D_FF, 0.0), dropout_prob=0.0)
    images(VisionTransformer(layer, 2, PatchEmbeddings(D_MODEL, 4, 3), LearnedPositionalEmbeddings(D_MODEL),
                             ClassificationHead(D_MODEL, 32, 4)))


def gat(layer_cls, steps=3, n_nodes=10):
    """Two graph attention layers (GAT or GATv2, as the Cora experiment stacks them) on a seeded random graph,
    trained on half the nodes' labels; dropout on, so the masks come from the seeded generator."""
    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)

    class GAT(nn.Module):
        def __init__(self):
            super().__init__()
            self.layer1 = layer_cls(8, 16, 4, is_concat=True, dropout=0.2)
            self.activation = nn.ELU()
            self.output = layer_cls(16, 3, 1, is_concat=False, dropout=0.2)
            self.dropout = nn.Dropout(0.2)

        def forward(self, x, adj_mat):
            x = self.activation(self.layer1(self.dropout(x), adj_mat))
            return self.output(self.dropout(x), adj_mat)

    model = GAT()
    x, labels = torch.randn(n_nodes, 8), torch.randint(0, 3, (n_nodes,))
    adj = torch.rand(n_nodes, n_nodes) < 0.3
    adj = (adj | adj.T | torch.eye(n_nodes, dtype=torch.bool)).unsqueeze(-1)
    train = torch.arange(n_nodes) % 2 == 0
    _fit(model, lambda: nn.functional.cross_entropy(model(x, adj)[train], labels[train]), steps=steps, lr=5e-3)
    model.eval()
    out = model(x, adj)
    print("accuracy", (out.argmax(-1)[~train] == labels[~train]).sum().item(), out[0])


def ponder(ParityPonderGRU, ReconstructionLoss, RegularizationLoss, steps=3):
    """PonderNet on the parity task as its experiment: halting probabilities, the reconstruction and KL
    regularisation losses, expected steps."""
    torch = _torch()
    from labml_nn.adaptive_computation.parity import ParityDataset

    torch.manual_seed(0)
    data = ParityDataset(8, 8)
    x, y = (torch.stack(t) for t in zip(*[data[i] for i in range(8)]))
    model = ParityPonderGRU(8, 16, 6)
    rec, reg = ReconstructionLoss(torch.nn.BCEWithLogitsLoss(reduction="none")), RegularizationLoss(0.2, 6)

    def loss():
        p, y_hat, p_sampled, y_hat_sampled = model(x)
        steps_ = (p * torch.arange(1, p.shape[0] + 1)[:, None]).sum(dim=0)
        print("expected steps", steps_[:4], "halting", p[:, 0], (y_hat_sampled > 0).tolist())
        return rec(p, y_hat, y.to(torch.float)) + 0.01 * reg(p)

    _fit(model, loss, steps=steps, lr=3e-3)


def stand_ins():
    """Hugging Face's ``transformers`` for Stable Diffusion's CLIP embedder module, which imports its tokenizer and
    text model at the top (the recipes hand the sampler their own conditioning instead), and ``tokenizers`` for
    GPT-NeoX's tokenizer module (the recipe feeds token ids): modules whose ``__file__`` lies in the script's
    folder, so the runner drops them after the script."""
    import os
    import sys
    import types

    for name, attrs in (("transformers", ("CLIPTokenizer", "CLIPTextModel")), ("tokenizers", ("Tokenizer",))):
        module = types.ModuleType(name)
        module.__file__ = os.path.join(os.getcwd(), "stand_in.py")
        module.__dict__.update(dict.fromkeys(attrs))
        sys.modules[name] = module


def stylegan(MappingNetwork, Generator, Discriminator, GradientPenalty, PathLengthPenalty, steps=2):
    """StyleGAN 2's training step as its experiment (small: 8x8 images, latent 16): style mixing, per-block noise,
    the critic's Wasserstein-hinge losses with the R1 gradient penalty, the generator's loss with the path length
    penalty (both through ``autograd.grad(create_graph=True)``), gradient clipping."""
    torch = _torch()
    from labml_nn.gan.wasserstein import DiscriminatorLoss, GeneratorLoss

    torch.manual_seed(0)
    log_resolution, d_latent, batch = 3, 16, 4
    mapping, generator = MappingNetwork(d_latent, 2), Generator(log_resolution, d_latent, 8, 16)
    discriminator, n_blocks = Discriminator(log_resolution, 8, 16), generator.n_blocks
    d_loss, g_loss, gp, plp = DiscriminatorLoss(), GeneratorLoss(), GradientPenalty(), PathLengthPenalty(0.99)
    d_opt = torch.optim.Adam(discriminator.parameters(), lr=1e-3, betas=(0.0, 0.99))
    g_opt = torch.optim.Adam(generator.parameters(), lr=1e-3, betas=(0.0, 0.99))
    m_opt = torch.optim.Adam(mapping.parameters(), lr=1e-5, betas=(0.0, 0.99))
    real_images = torch.rand(batch, 3, 8, 8) * 2 - 1

    def generate():
        if torch.rand(()).item() < 0.9:
            cross = int(torch.rand(()).item() * n_blocks)
            w2, w1 = mapping(torch.randn(batch, d_latent)), mapping(torch.randn(batch, d_latent))
            w = torch.cat((w1[None].expand(cross, -1, -1), w2[None].expand(n_blocks - cross, -1, -1)), dim=0)
        else:
            w = mapping(torch.randn(batch, d_latent))[None].expand(n_blocks, -1, -1)
        noise, resolution = [], 4
        for i in range(n_blocks):
            n1 = None if i == 0 else torch.randn(batch, 1, resolution, resolution)
            noise.append((n1, torch.randn(batch, 1, resolution, resolution)))
            resolution *= 2
        return generator(w, noise), w

    for step in range(steps):
        d_opt.zero_grad()
        fake, _ = generate()
        fake_out = discriminator(fake.detach())
        real = real_images.clone().requires_grad_()
        real_out = discriminator(real)
        lr_, lf = d_loss(real_out, fake_out)
        penalty = gp(real, real_out)
        (lr_ + lf + 0.5 * 10.0 * penalty * 4).backward()
        norm = torch.nn.utils.clip_grad_norm_(discriminator.parameters(), max_norm=1.0)
        d_opt.step()
        g_opt.zero_grad()
        m_opt.zero_grad()
        fake, w = generate()
        gen = g_loss(discriminator(fake))
        path = plp(w, fake)
        if not torch.isnan(path):
            gen = gen + path
        gen.backward()
        torch.nn.utils.clip_grad_norm_(generator.parameters(), max_norm=1.0)
        torch.nn.utils.clip_grad_norm_(mapping.parameters(), max_norm=1.0)
        g_opt.step()
        m_opt.step()
        print(f"step {step}: critic {lr_.item():.6f} {lf.item():.6f} gp {penalty.item():.6f} clip {norm.item():.6f} "
              f"generator {gen.item():.6f} path {path.item():.6f}")
    print("steps", plp.steps.item(), "exp_sum_a", plp.exp_sum_a.item())
    print(fake[0, :, 0, :3])


def stable_diffusion(DDIMSampler, steps=4):
    """Stable Diffusion's DDIM sampling (labml's LatentDiffusion: its U-Net with cross-attention, the autoencoder)
    at a small size, with classifier-free guidance on seeded conditioning; the latents decoded, then DDIM's
    image-to-image ``paint`` from a noised encoding."""
    torch = _torch()
    from labml_nn.diffusion.stable_diffusion.latent_diffusion import LatentDiffusion
    from labml_nn.diffusion.stable_diffusion.model.autoencoder import Autoencoder, Decoder, Encoder
    from labml_nn.diffusion.stable_diffusion.model.unet import UNetModel

    torch.manual_seed(0)
    unet = UNetModel(in_channels=4, out_channels=4, channels=32, n_res_blocks=1, attention_levels=[1],
                     channel_multipliers=[1, 2], n_heads=2, tf_layers=1, d_cond=16)
    encoder = Encoder(channels=32, channel_multipliers=[1, 2], n_resnet_blocks=1, in_channels=3, z_channels=4)
    decoder = Decoder(channels=32, channel_multipliers=[1, 2], n_resnet_blocks=1, out_channels=3, z_channels=4)
    model = LatentDiffusion(unet, Autoencoder(encoder, decoder, 4, 4), None, 0.18215, 1000, 0.00085, 0.012)
    model.eval()
    sampler = DDIMSampler(model, n_steps=steps, ddim_eta=0.5)
    print("time steps", sampler.time_steps.tolist(), "sigma", sampler.ddim_sigma)
    cond, uncond = torch.randn(1, 3, 16), torch.zeros(1, 3, 16)
    with torch.no_grad():
        x = sampler.sample(shape=[1, 4, 4, 4], cond=cond, uncond_scale=2.0, uncond_cond=uncond)
        print("latent", x[0, 0])
        image = model.autoencoder_decode(x)
        print("image", tuple(image.shape), image[0, 0, 0, :4])
        z = model.autoencoder_encode(image)
        noised = sampler.q_sample(z, 2)
        painted = sampler.paint(noised, cond, 2, uncond_scale=2.0, uncond_cond=uncond)
        print("painted", painted[0, 0, 0])


def mlm(MLM, steps=2):
    """BERT's masking (labml's MLM: 15% chosen, of which 10% randomised and 10% left) on seeded token batches, and a
    small encoder trained on the masked positions (the labels' 0s are ignored)."""
    torch = _torch()
    torch.manual_seed(0)
    mlm_ = MLM(padding_token=0, mask_token=N_TOKENS - 1, no_mask_tokens=[1], n_tokens=N_TOKENS, masking_prob=0.3)
    x = torch.randint(2, N_TOKENS - 1, (16, 3))
    x[-2:, 0] = 0
    masked, labels = mlm_(x)
    print("masked", masked.T.tolist())
    print("labels", labels.T.tolist())
    from labml_nn.transformers import MultiHeadAttention
    from labml_nn.transformers.feed_forward import FeedForward
    from labml_nn.transformers.models import Encoder, TransformerLayer

    layer = TransformerLayer(d_model=D_MODEL, self_attn=MultiHeadAttention(HEADS, D_MODEL, 0.0),
                             feed_forward=FeedForward(D_MODEL, D_FF, 0.0), dropout_prob=0.0)
    model = _wrap(Encoder(layer, 2), lambda enc, h: enc(h, None))
    _fit(model, lambda: torch.nn.functional.cross_entropy(model(masked).reshape(-1, N_TOKENS), labels.reshape(-1),
                                                          ignore_index=0), steps=steps)


# Captum (pytorch/captum): its own unit tests, each test file a script


def captum_stand_ins():
    """The matplotlib modules Captum's visualisation imports that the runner does not stub (``matplotlib.axes``,
    ``matplotlib.image``, ``matplotlib.figure``, ``mpl_toolkits.axes_grid1``): stubs like the runner's; and
    ``parameterized`` (not installed), whose ``expand`` some test files use. All are dropped after the script."""
    import os
    import sys
    import types

    stub = type(sys.modules["matplotlib"])
    for name in ("matplotlib.axes", "matplotlib.image", "matplotlib.figure", "mpl_toolkits.axes_grid1"):
        module = stub(name)
        module.__file__ = os.path.join(os.getcwd(), "stand_in.py")
        sys.modules[name] = module
    module = types.ModuleType("parameterized")  # its tests' parameter lists
    module.__file__ = os.path.join(os.getcwd(), "stand_in.py")
    module.parameterized, module.param = _Parameterized, _Param
    sys.modules["parameterized"] = sys.modules["parameterized.parameterized"] = module


class _Param:
    """``parameterized.param``: one test's positional and keyword arguments."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


class _Parameterized:
    """``parameterized.parameterized.expand``: one test method per parameter tuple, named ``test_x_0``, ``test_x_1``...
    (the package appends a slug of the first parameter too), put in the class body being defined."""

    @staticmethod
    def expand(params, name_func=None, **kwargs):
        import functools
        import sys

        def decorate(func):
            namespace = sys._getframe(1).f_locals
            for i, p in enumerate(params):
                if not isinstance(p, _Param):
                    p = _Param(*p) if isinstance(p, (tuple, list)) else _Param(p)

                def test(self, _p=p):
                    return func(self, *_p.args, **_p.kwargs)

                namespace[f"{func.__name__}_{i}"] = functools.wraps(func)(test)
            return None  # the undecorated name is no test

        return decorate


def run_tests(namespace, every=1):
    """Run the script's ``unittest.TestCase`` classes (as ``python -m unittest`` would: classes and methods in name
    order; only every ``every``-th test where the whole file takes seconds) and print each test's outcome, with the
    last line of a failure's or error's traceback (its exception); no timings."""
    import unittest

    cases = sorted((v for v in namespace.values() if isinstance(v, type) and issubclass(v, unittest.TestCase)
                    and v.__module__ == "__main__"), key=lambda c: c.__name__)
    tests = [test for case in cases for test in unittest.defaultTestLoader.loadTestsFromTestCase(case)]
    counts = {"ok": 0, "FAIL": 0, "ERROR": 0, "skip": 0}
    for test in tests[::every]:
        result = unittest.TestResult()
        test.run(result)
        outcome, detail = "ok", ""
        for kind, found in (("FAIL", result.failures), ("ERROR", result.errors)):
            if found:
                outcome, detail = kind, found[0][1].strip().splitlines()[-1]
        if result.skipped:
            outcome, detail = "skip", result.skipped[0][1]
        counts[outcome] += 1
        print(f"{type(test).__name__}.{test._testMethodName}: {outcome} {detail}".rstrip())
    print(counts)


def sketch_rnn(StrokesDataset, EncoderRNN, DecoderRNN, ReconstructionLoss, KLDivLoss, Sampler, steps=3):
    """Sketch-RNN's training step as its experiment (small: latent 16, hidden 32, 4 mixture components) on seeded
    random strokes through its ``StrokesDataset``: the bivariate Gaussian mixture's reconstruction loss plus the KL
    term, clipped gradients; then its sampler at temperature 0.4 (the plot's strokes printed)."""
    import numpy as np

    torch = _torch()
    torch.manual_seed(0)
    rng = np.random.RandomState(0)
    strokes = [np.concatenate([rng.randint(-20, 20, (n, 2)), rng.rand(n, 1) < 0.2], axis=1) for n in (12, 15, 14, 20)]
    dataset = StrokesDataset(strokes, 25)
    print("scale", dataset.scale, "data", tuple(dataset.data.shape))
    data, mask = dataset.data.transpose(0, 1), dataset.mask.transpose(0, 1)
    encoder, decoder = EncoderRNN(16, 32), DecoderRNN(16, 32, 4)
    reconstruction, kl = ReconstructionLoss(), KLDivLoss()
    opt = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()], lr=1e-3)
    for step in range(steps):
        z, mu, sigma_hat = encoder(data)
        inputs = torch.cat([data[:-1], z.unsqueeze(0).expand(data.shape[0] - 1, -1, -1)], 2)
        dist, q_logits, _ = decoder(inputs, z, None)
        kl_loss, rec_loss = kl(sigma_hat, mu), reconstruction(mask, data[1:], dist, q_logits)
        loss = rec_loss + 0.5 * kl_loss
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(encoder.parameters(), 1.0)
        torch.nn.utils.clip_grad_norm_(decoder.parameters(), 1.0)
        opt.step()
        print(f"step {step}: kl {kl_loss.item():.6f} reconstruction {rec_loss.item():.6f}")
    Sampler.plot = staticmethod(lambda seq: print("sampled", tuple(seq.shape), seq[:4]))
    Sampler(encoder, decoder).sample(data[:, :1], 0.4)


def cycle_gan(GeneratorResNet, Discriminator, ReplayBuffer, weights_init_normal, steps=1):
    """CycleGAN's training step as its Configs does it (small: 32x32 images, 2 residual blocks): identity, GAN (MSE)
    and cycle (L1) losses for both generators, the discriminators on replay-buffer samples, Adam with its linear
    learning-rate decay (LambdaLR)."""
    import itertools

    torch = _torch()
    nn = torch.nn
    torch.manual_seed(0)
    shape = (3, 32, 32)  # its discriminator halves it four times and instance-normalises
    g_xy, g_yx = GeneratorResNet(3, 2), GeneratorResNet(3, 2)
    d_x, d_y = Discriminator(shape), Discriminator(shape)
    for m in (g_xy, g_yx, d_x, d_y):
        m.apply(weights_init_normal)
    g_opt = torch.optim.Adam(itertools.chain(g_xy.parameters(), g_yx.parameters()), lr=2e-4, betas=(0.5, 0.999))
    d_opt = torch.optim.Adam(itertools.chain(d_x.parameters(), d_y.parameters()), lr=2e-4, betas=(0.5, 0.999))
    decay = torch.optim.lr_scheduler.LambdaLR(g_opt, lambda e: 1.0 - max(0, e - 1) / 3)
    mse, l1 = nn.MSELoss(), nn.L1Loss()
    buffer_x, buffer_y = ReplayBuffer(2), ReplayBuffer(2)
    x, y = torch.rand(2, *shape) * 2 - 1, torch.rand(2, *shape) * 2 - 1
    true_labels = torch.ones(2, *d_x.output_shape)
    false_labels = torch.zeros(2, *d_x.output_shape)
    for step in range(steps):
        identity = l1(g_yx(x), x) + l1(g_xy(y), y)
        gen_y, gen_x = g_xy(x), g_yx(y)
        gan = mse(d_y(gen_y), true_labels) + mse(d_x(gen_x), true_labels)
        cycle = l1(g_yx(gen_y), x) + l1(g_xy(gen_x), y)
        loss_g = gan + 10.0 * cycle + 5.0 * identity
        g_opt.zero_grad()
        loss_g.backward()
        g_opt.step()
        gen_x, gen_y = buffer_x.push_and_pop(gen_x), buffer_y.push_and_pop(gen_y)
        loss_d = (mse(d_x(x), true_labels) + mse(d_x(gen_x), false_labels) + mse(d_y(y), true_labels)
                  + mse(d_y(gen_y), false_labels))
        d_opt.zero_grad()
        loss_d.backward()
        d_opt.step()
        decay.step()
        print(f"step {step}: generator {loss_g.item():.6f} (gan {gan.item():.6f} cycle {cycle.item():.6f} identity "
              f"{identity.item():.6f}) discriminator {loss_d.item():.6f} lr {decay.get_last_lr()[0]:.6f}")
    print(gen_y[0, 0, 0, :4])


def neox(Embedding, TransformerLayer, FinalNorm, ReadoutLayer, steps=2):
    """GPT-NeoX's layers as labml's generator stacks them (small: width 16, 4 heads, partial rotary embeddings),
    2 Adam steps of next-token loss, then greedy generation as its ``samples/generate.py`` runs it: the whole
    prompt once, then one token at a time through the key/value cache, checked against recomputing the prefix."""
    torch = _torch()
    nn = torch.nn
    from labml_nn.neox.utils.cache import get_cache

    torch.manual_seed(0)
    model = nn.Sequential(Embedding(N_TOKENS, D_MODEL), TransformerLayer(D_MODEL, HEADS),
                          TransformerLayer(D_MODEL, HEADS), FinalNorm(D_MODEL), ReadoutLayer(D_MODEL, N_TOKENS))
    x = torch.randint(0, N_TOKENS, (2, 9))
    _fit(model, lambda: nn.functional.cross_entropy(model(x[:, :-1]).reshape(-1, N_TOKENS), x[:, 1:].reshape(-1)),
         steps=steps, lr=1e-2)
    cache = get_cache()
    ids = x[0, :5].tolist()
    with torch.no_grad():
        cache.set("use_cache", True)
        cache.set("state_ids", (None, 1))
        ids.append(model(torch.tensor(ids)[None])[0, -1].argmax().item())
        for i in range(1, 6):
            cache.set("state_ids", (i, i + 1))
            ids.append(model(torch.tensor(ids[-1:])[None])[0, -1].argmax().item())
        cache.set("use_cache", False)
        full = model(torch.tensor(ids)[None])[0].argmax(-1).tolist()
    print("cached generation", ids, "recomputed", full[4:-1])
