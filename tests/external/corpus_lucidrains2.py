"""Drivers for ``recipes_lucidrains2.py`` (our text): more of lucidrains' packages on core.

Each driver builds the package's model, layer or optimizer at a small size from seeded weights, runs it as the
package's README does, trains it a few steps and prints what a user reads (outputs, losses, gradients, parameters)
as digests that show a last-bit difference: shape, dtype, the exact sum and absolute sum of the values (``math.fsum``
of their float64 values, so no summation order of ours enters) and the first values in full (``repr`` of each
float32 as a Python float); integer tensors in full (their first 32 entries).
"""

from __future__ import annotations

import io
import math
import os
import shutil
import tempfile

import torch


def show(label, value):
    """A tensor's (or a tuple's, a list's, a float's) digest on one line."""
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            show(f"{label}[{i}]", v)
        return
    if not isinstance(value, torch.Tensor):
        print(label, repr(value))
        return
    t = value.detach()
    if not t.is_floating_point():
        print(label, tuple(t.shape), t.dtype, t.flatten()[:32].tolist())
        return
    values = t.double().flatten().tolist()
    print(label, tuple(t.shape), t.dtype, "sum", repr(math.fsum(values)), "abs", repr(math.fsum(map(abs, values))),
          values[:4])


def _grads(label, params):
    """The gradients' digests, one line each (parameters without a gradient are skipped)."""
    for name, p in params:
        if p.grad is not None:
            show(f"{label} grad {name}", p.grad)


def _mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16), torch.nn.GELU(),
                               torch.nn.Linear(16, 1))


def _regression(model, opt, steps=6, closure=False, step_kwargs=None):
    """``steps`` optimizer steps of ``model`` on a seeded regression (a sine of the inputs' sum), each loss in full."""
    x = torch.randn(32, 6)
    y = torch.sin(x.sum(-1, keepdim=True))
    for step in range(steps):
        def loss_fn():
            opt.zero_grad()
            loss = (model(x) - y).pow(2).mean()
            loss.backward()
            return loss
        loss = opt.step(loss_fn, **(step_kwargs or {})) if closure else None
        if loss is None:
            loss = loss_fn()
            opt.step(**(step_kwargs or {}))
        print(f"step {step} loss", repr(loss.item()))
    for name, p in model.named_parameters():
        show(f"param {name}", p)


# --- lion-pytorch -----------------------------------------------------------------------------------------------------

def lion(module="lion_pytorch", closure=False, **options):
    """Lion from ``module`` (its plain, foreach or cautious form) training a small MLP six steps, then its state."""
    Lion = __import__(module, fromlist=["Lion"]).Lion
    model = _mlp()
    opt = Lion(model.parameters(), lr=1e-3, **options)
    _regression(model, opt, closure=closure)
    show("exp_avg", opt.state[model[0].weight]["exp_avg"])
    state = opt.state_dict()
    print("state keys", sorted(state["state"]), state["param_groups"][0]["betas"])


# --- adam-atan2-pytorch -----------------------------------------------------------------------------------------------

def adam_atan2(module, name, muon=False, steps=6, step_kwargs=None, **options):
    """``name`` from ``adam_atan2_pytorch.module`` training a small MLP ``steps`` steps (a Muon or polar variant gets
    the 2-D weights as its own group), then its state's tensors and a ``state_dict`` round trip."""
    cls = getattr(__import__(f"adam_atan2_pytorch.{module}", fromlist=[name]), name)
    model = _mlp()
    if muon:
        matrices = [p for p in model.parameters() if p.ndim == 2]
        opt = cls(matrices, list(model.parameters()), lr=1e-2, **options)
    else:
        opt = cls(model.parameters(), lr=1e-2, **options)
    _regression(model, opt, steps=steps, step_kwargs=step_kwargs)
    for key, value in sorted(opt.state[model[0].weight].items()):
        if isinstance(value, torch.Tensor):
            show(f"state {key}", value)
        elif not isinstance(value, dict):
            print(f"state {key}", value)
    buffer = io.BytesIO()
    torch.save(opt.state_dict(), buffer)
    buffer.seek(0)
    opt.load_state_dict(torch.load(buffer, weights_only=True))
    print("reloaded", len(opt.state_dict()["state"]))


def adam_atan2_orthog():
    """The orthogonalised-gradient AdamAtan2 as its RL test uses it: one stream stored, another projected against it,
    its per-stream EMAs and ``reset_``."""
    from adam_atan2_pytorch.adam_atan2_with_orthog_grad import AdamAtan2
    model = _mlp()
    opt = AdamAtan2(model.parameters(), lr=1e-2, orthog_grad=True)
    x = torch.randn(16, 6)
    for step in range(4):
        opt.zero_grad()
        out = model(x)
        out.sum().backward()
        opt.step(store_grad_key="rl_grad", orthog_against_key=None)
        opt.zero_grad()
        loss = (model(x) ** 2).mean()
        loss.backward()
        opt.step(store_grad_key=None, orthog_against_key="rl_grad")
        print(f"step {step} loss", repr(loss.item()))
    show("rl_grad ema", opt.state[model[0].weight]["grad_emas"]["rl_grad"])
    for name, p in model.named_parameters():
        show(f"param {name}", p)
    opt.reset_(key="rl_grad")
    show("after reset", opt.state[model[0].weight]["grad_emas"]["rl_grad"])


# --- ema-pytorch ------------------------------------------------------------------------------------------------------

def _noisy_steps(net, ema, steps, lr=0.1):
    """``steps`` SGD steps of ``net`` on seeded data, ``ema.update()`` after each."""
    opt = torch.optim.SGD(net.parameters(), lr=lr)
    x = torch.randn(8, 6)
    for step in range(steps):
        loss = net(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update()
        print(f"step {step} loss", repr(loss.item()))


def ema(**options):
    """EMA around a small net with a BatchNorm buffer, its warm-up decay, the EMA model's outputs and weights, a
    ``state_dict`` round trip and ``update_model_with_ema``."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.BatchNorm1d(8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    from ema_pytorch import EMA
    ema = EMA(net, **{"beta": 0.9, "update_after_step": 2, "update_every": 1, **options})
    _noisy_steps(net, ema, 8)
    print("step", ema.step.item(), "decay", repr(ema.get_current_decay()))
    data = torch.randn(4, 6)
    ema.eval()
    show("ema output", ema(data))
    for name, p in ema.ema_model.named_parameters():
        show(f"ema {name}", p)
    show("ema running_mean", ema.ema_model[1].running_mean)
    buffer = io.BytesIO()
    torch.save(ema.state_dict(), buffer)
    buffer.seek(0)
    ema.load_state_dict(torch.load(buffer, weights_only=True))
    ema.update_model_with_ema()
    show("online after update_model_with_ema", net[0].weight)


def karras_ema():
    """KarrasEMA (the power-function EMA) at a gamma and a sigma_rel: its betas and weights after eight updates."""
    from ema_pytorch import KarrasEMA
    for kwargs in ({"gamma": 6.94}, {"sigma_rel": 0.15}):
        torch.manual_seed(0)
        net = torch.nn.Linear(6, 4)
        ema = KarrasEMA(net, update_every=1, **kwargs)
        _noisy_steps(net, ema, 8)
        print(kwargs, "beta", repr(ema.beta))
        show("karras weight", ema.ema_model.weight)
        show("karras output", ema(torch.randn(2, 6)))


def post_hoc_ema():
    """PostHocEMA as its README runs it: two sigma_rels, checkpoints (float16 files) every 4 of 20 steps in a fresh
    folder, then EMAs synthesized for other sigma_rels by its least-squares weights."""
    from ema_pytorch import PostHocEMA
    torch.manual_seed(0)
    net = torch.nn.Linear(6, 4)
    folder = tempfile.mkdtemp()
    try:
        emas = PostHocEMA(net, sigma_rels=(0.05, 0.28), update_every=1, checkpoint_every_num_steps=4,
                          checkpoint_folder=os.path.join(folder, "ckpt"))
        for _ in range(20):
            with torch.no_grad():
                net.weight.copy_(torch.randn_like(net.weight))
                net.bias.copy_(torch.randn_like(net.bias))
            emas.update()
        print("checkpoints", sorted(os.listdir(os.path.join(folder, "ckpt"))))
        data = torch.randn(2, 6)
        show("ema outputs", emas(data))
        for sigma_rel in (0.15, 0.1):
            synthesized = emas.synthesize_ema_model(sigma_rel=sigma_rel)
            show(f"synthesized {sigma_rel} weight", synthesized.ema_model.weight)
            show(f"synthesized {sigma_rel} output", synthesized(data))
        synthesized = emas.synthesize_ema_model(gamma=10., step=12)
        show("synthesized gamma 10 at step 12", synthesized.ema_model.bias)
    finally:
        shutil.rmtree(folder)


def ema_pytree():
    """EMAPytree over a dict of tensors (a tree of parameters outside any module)."""
    from ema_pytorch import EMAPytree
    torch.manual_seed(0)
    tree = {"w": torch.randn(3, 4), "b": [torch.randn(4), torch.randn(2)]}
    ema = EMAPytree(tree, beta=0.9, update_after_step=1, update_every=1)
    for _ in range(6):
        for t in (tree["w"], *tree["b"]):
            t.add_(torch.randn_like(t) * 0.1)
        ema.update()
    show("ema w", ema.ema_pytree["w"])
    show("ema b", ema.ema_pytree["b"])


# --- linformer --------------------------------------------------------------------------------------------------------

def linformer_lm(steps=3, **options):
    """LinformerLM(num_tokens=64, dim=32, seq_len=16, depth=2, k=8, heads=4, **options): logits, the loss's gradients
    and three Adam steps' losses on seeded tokens."""
    from linformer import LinformerLM
    torch.manual_seed(0)
    model = LinformerLM(num_tokens=64, dim=32, seq_len=16, depth=2, k=8, heads=4, **options)
    tokens = torch.randint(0, 64, (2, 17))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        logits = model(tokens[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.transpose(1, 2), tokens[:, 1:])
        opt.zero_grad()
        loss.backward()
        print(f"step {step} loss", repr(loss.item()))
        if step == 0:
            show("logits", logits)
            _grads("step 0", list(model.named_parameters())[:6])
        opt.step()
    model.eval()
    show("eval logits, 12 tokens", model(tokens[:, :12]))


def linformer_attention():
    """LinformerSelfAttention on its own, with a ``context`` (cross attention) and at a shorter length, and
    Linformer's stack, each with the input's gradient."""
    from linformer import Linformer, LinformerSelfAttention
    torch.manual_seed(0)
    attn = LinformerSelfAttention(dim=24, seq_len=20, k=6, heads=3, one_kv_head=True)
    x = torch.randn(2, 20, 24, requires_grad=True)
    context = torch.randn(2, 14, 24)
    out = attn(x, context=context)
    out.pow(2).sum().backward()
    show("cross attention", out)
    show("input grad", x.grad)
    show("short sequence", attn(torch.randn(1, 9, 24)))
    stack = Linformer(dim=24, seq_len=20, depth=2, k=6, heads=3, share_kv=True, dim_head=16)
    out = stack(x)
    out.sum().backward()
    show("stack out", out)
    show("stack proj_k grad", stack.net.layers[0][0].fn.proj_k.grad)


# --- lambda-networks --------------------------------------------------------------------------------------------------

def lambda_layer(steps=3, **options):
    """LambdaLayer(dim=8, dim_k=4, heads=2, dim_out=8, **options) on 2x8x6x6 images: output, gradients and three SGD
    steps with a 1x1 convolution head (its BatchNorms in training mode, then eval)."""
    from lambda_networks import LambdaLayer
    torch.manual_seed(0)
    layer = LambdaLayer(dim=8, dim_k=4, heads=2, dim_out=8, **options)
    head = torch.nn.Conv2d(8, 3, 1)
    params = [*layer.parameters(), *head.parameters()]
    opt = torch.optim.SGD(params, lr=0.01, momentum=0.9)
    x = torch.randn(2, 8, 6, 6)
    target = torch.randn(2, 3, 6, 6)
    for step in range(steps):
        out = layer(x)
        loss = (head(out) - target).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        print(f"step {step} loss", repr(loss.item()))
        if step == 0:
            show("out", out)
            _grads("step 0", layer.named_parameters())
        opt.step()
    show("running_mean", layer.norm_q.running_mean)
    layer.eval()
    show("eval out", layer(x))


# --- soft-moe-pytorch -------------------------------------------------------------------------------------------------

def soft_moe(shape=(2, 16, 16), dynamic=False, steps=3, mask=False, **options):
    """SoftMoE (or DynamicSlotsSoftMoE) on ``shape`` with **options: the output, the input's and slot embeddings'
    gradients, and three AdamW steps on a regression to seeded targets."""
    from soft_moe_pytorch import DynamicSlotsSoftMoE, SoftMoE
    torch.manual_seed(0)
    dim = shape[1] if len(shape) == 4 else shape[-1]
    moe = DynamicSlotsSoftMoE(dim=dim, **options) if dynamic else SoftMoE(dim=dim, **options)
    opt = torch.optim.AdamW(moe.parameters(), lr=1e-3)
    x = torch.randn(*shape, requires_grad=True)
    target = torch.randn(*shape)
    kwargs = {"mask": torch.arange(shape[1]) < torch.tensor([[shape[1]], [shape[1] - 5]])} if mask else {}
    for step in range(steps):
        out = moe(x, **kwargs)
        loss = (out - target).pow(2).mean()
        opt.zero_grad()
        x.grad = None
        loss.backward()
        print(f"step {step} loss", repr(loss.item()))
        if step == 0:
            show("out", out)
            show("input grad", x.grad)
            _grads("step 0", list(moe.named_parameters())[:4])
        opt.step()


def soft_moe_noise():
    """SoftMoE's gumbel-noised dispatch (``add_noise``) and a single-token input."""
    from soft_moe_pytorch import SoftMoE
    torch.manual_seed(0)
    moe = SoftMoE(dim=16, num_slots=2, num_experts=4)
    x = torch.randn(2, 10, 16)
    show("noised", moe(x, add_noise=True, noise_mult=0.5))
    show("single token", moe(torch.randn(3, 16)))


# --- minGRU-pytorch ---------------------------------------------------------------------------------------------------

def min_gru(lstm=False, **options):
    """minGRU (or minLSTM) as its README runs it: the parallel scan's output and gradients, then the same sequence
    step by step through ``prev_hidden``, and whether the two agree."""
    from minGRU_pytorch.minGRU import minGRU
    from minGRU_pytorch.minLSTM import minLSTM
    torch.manual_seed(0)
    rnn = (minLSTM if lstm else minGRU)(16, **options)
    x = torch.randn(2, 24, 16, requires_grad=True)
    out = rnn(x)
    out.pow(2).mean().backward()
    show("parallel", out)
    show("input grad", x.grad)
    _grads("", rnn.named_parameters())
    prev = None
    steps = []
    with torch.no_grad():
        for token in x.unbind(dim=1):
            step_out, prev = rnn(token[:, None, :], prev, return_next_prev_hidden=True)
            steps.append(step_out)
    sequential = torch.cat(steps, dim=1)
    show("sequential", sequential)
    print("allclose", torch.allclose(out, sequential, atol=1e-4))
    with torch.no_grad():
        first, hidden = rnn(x[:, :10], return_next_prev_hidden=True)
        rest = rnn(x[:, 10:], hidden)
    show("resumed", rest)


def _decode(model, prompt, length, cache):
    """train.py's base_decoding: greedy here (argmax), with the minLM's recurrent cache or without."""
    out, prev = prompt.clone(), None
    for _ in range(length - prompt.shape[-1]):
        if cache:
            logits, next_prev = model(out, return_prev_hiddens=True, prev_hiddens=prev)
            prev = next_prev
        else:
            logits = model(out)
        out = torch.cat((out, logits[:, -1].argmax(-1, keepdim=True)), dim=-1)
    return out


def min_lm(hybrid=False, steps=3, **options):
    """minLM (or hybridLM) at width 32, depth 2 on 65 seeded tokens: three Adam steps with gradient clipping as
    train.py takes them, the logits, and greedy decoding with and without the recurrent cache."""
    from minGRU_pytorch.hybridLM import hybridLM
    from minGRU_pytorch.minLM import minLM
    torch.manual_seed(0)
    model = hybridLM(num_tokens=64, dim=32, depth=2, heads=2, dim_head=16, **options) if hybrid \
        else minLM(num_tokens=64, dim=32, depth=2, **options)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = torch.randint(0, 64, (2, 33))
    for step in range(steps):
        loss = model(data, return_loss=True)
        loss.backward()
        print(f"step {step} loss", repr(loss.item()))
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        print(f"step {step} grad norm", repr(norm.item()))
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        show("logits", model(data[:, :12]))
        prompt = data[:, :6]
        plain = _decode(model, prompt, 16, cache=False)
        print("decoded", plain.tolist())
        if not hybrid and model.can_cache:
            cached = _decode(model, prompt, 16, cache=True)
            print("cached decode equal", torch.equal(plain, cached))


# --- PaLM-pytorch -----------------------------------------------------------------------------------------------------

def palm(steps=3, **options):
    """PaLM(num_tokens=64, dim=32, depth=2, heads=4, dim_head=8) in its AutoregressiveWrapper: three Adam steps with
    gradient clipping as train.py takes them, the logits, and sampling with ``generate`` (top-k, multinomial, an eos
    token)."""
    from palm_pytorch import PaLM
    from palm_pytorch.autoregressive_wrapper import AutoregressiveWrapper
    torch.manual_seed(0)
    net = PaLM(num_tokens=64, dim=32, depth=2, heads=4, dim_head=8, **options)
    model = AutoregressiveWrapper(net, max_seq_len=32)
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    data = torch.randint(0, 64, (2, 33))
    for step in range(steps):
        loss = model(data)
        loss.backward()
        print(f"step {step} loss", repr(loss.item()))
        if step == 0:
            _grads("step 0", list(model.named_parameters())[:4])
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        opt.zero_grad()
    show("logits", net(data[:, :10]))
    print("sample", model.generate(data[:, :4], 12).tolist())
    print("sample t=0.7", model.generate(data[:1, :4], 12, temperature=0.7, filter_thres=0.5).tolist())
    print("sample eos", model.generate(data[:, :4], 20, eos_token=int(data[0, 5])).tolist())


# --- MEGABYTE-pytorch -------------------------------------------------------------------------------------------------

def megabyte(steps=3, dim=(32, 16), depth=(1, 1), max_seq_len=(8, 4), generate=True, **options):
    """MEGABYTE(num_tokens=64, dim, depth, max_seq_len, dim_head=8, heads=2, **options) on seeded (2, 8, 4) ids: the
    loss, three Adam steps, logits of a flat sequence (padded to the patch size), and ``generate`` from nothing (its
    start-token path) and from a prime, top-k and gumbel sampling."""
    from MEGABYTE_pytorch import MEGABYTE
    torch.manual_seed(0)
    model = MEGABYTE(num_tokens=64, dim=dim, depth=depth, max_seq_len=max_seq_len, dim_head=8, heads=2, **options)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ids = torch.randint(0, 64, (2, *max_seq_len))
    for step in range(steps):
        loss = model(ids, return_loss=True)
        opt.zero_grad()
        loss.backward()
        print(f"step {step} loss", repr(loss.item()))
        if step == 0:
            _grads("step 0", list(model.named_parameters())[:5])
        opt.step()
    model.eval()
    with torch.no_grad():
        show("logits of 10 flat tokens", model(ids.reshape(2, -1)[:, :10]))
        if generate:
            print("generated", model.generate(temperature=0.9, filter_thres=0.9).tolist())
            print("from a prime", model.generate(prime=ids.reshape(2, -1)[:, :5], filter_thres=0.5).tolist())
