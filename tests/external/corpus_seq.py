"""Drivers for the sequence-model scripts (``recipes_seq.py``): xLSTM's blocks on their pure-PyTorch backends,
pytorch-tcn's TCN and its streaming inference, torchdyn's neural ODEs. Each builds seeded models at small sizes and
prints outputs, gradients and a few training steps' losses with every digit (``repr`` of Python floats)."""

from __future__ import annotations

import torch


def _show(name, t, n=16):
    """``name``, the shape and the first ``n`` values of ``t`` with every digit, and the sum of their magnitudes.
    A value under 16 machine epsilons of the tensor's largest prints as 0: the rounding residue of a sum that cancels
    exactly (the sLSTM's input-gate bias gradient: 1e-21 beside 1e-3 in float64, in another order in each library),
    not a result."""
    flat = t.detach().reshape(-1)
    eps = torch.finfo(flat.dtype).eps if flat.is_floating_point() else 0.0
    floor = 16 * eps * float(flat.abs().max()) if flat.numel() else 0.0
    values = [float(v) if abs(v) > floor else 0.0 for v in flat[:n].tolist()]
    print(name, tuple(t.shape), values, "abs sum", float(flat.double().abs().sum()))


def _close(name, a, b):
    """Whether two routes to the same values agree (their residual is rounding noise, not printed)."""
    print(name, torch.allclose(a, b, rtol=1e-4, atol=1e-6))


def _grads(model, n=6):
    for name, p in model.named_parameters():
        if p.grad is not None:
            _show("  grad " + name, p.grad, n)


# ---------------------------------------------------------------- xLSTM


def xlstm_backends(xl, dtype=torch.float32):
    """The mLSTM cell's parallel stabilized form against its recurrent step, token by token, with gradients."""
    from xlstm.blocks.mlstm.backends import parallel_stabilized_simple, recurrent_step_stabilized_simple
    torch.manual_seed(0)
    B, NH, S, DH = 2, 3, 7, 5
    q, k, v = (torch.randn(B, NH, S, DH, dtype=dtype, requires_grad=True) for _ in range(3))
    ig, fg = (torch.randn(B, NH, S, 1, dtype=dtype, requires_grad=True) for _ in range(2))
    h = parallel_stabilized_simple(q, k, v, ig, fg)
    _show("parallel h", h, 24)
    (h * torch.linspace(-1, 1, h.numel(), dtype=dtype).reshape(h.shape)).sum().backward()
    for name, t in (("q", q), ("k", k), ("v", v), ("igate", ig), ("fgate", fg)):
        _show("  grad " + name, t.grad, 12)
    mask = torch.tril(torch.ones(S, S, dtype=torch.bool))
    h2 = parallel_stabilized_simple(q, k, v, ig, fg, lower_triangular_matrix=mask, stabilize_rowwise=False)
    _show("parallel (global max)", h2, 12)
    c = torch.zeros(B, NH, DH, DH, dtype=dtype)
    n = torch.zeros(B, NH, DH, 1, dtype=dtype)
    m = torch.zeros(B, NH, 1, 1, dtype=dtype)
    with torch.no_grad():
        for t in range(S):
            ht, (c, n, m) = recurrent_step_stabilized_simple(c, n, m, q[:, :, t:t + 1], k[:, :, t:t + 1],
                                                            v[:, :, t:t + 1], ig[:, :, t:t + 1], fg[:, :, t:t + 1])
            _show(f"step {t}", ht, 8)
    _show("c", c, 12)
    _show("n", n)
    print("m", m.reshape(-1).tolist())


def _mlstm_layer(xl, dtype, **kw):
    kw.setdefault("conv1d_kernel_size", 4)
    cfg = xl.mLSTMLayerConfig(embedding_dim=16, context_length=8, num_heads=2, qkv_proj_blocksize=4, **kw)
    layer = xl.mLSTMLayer(cfg).to(dtype)
    layer.reset_parameters()
    return layer


def mlstm_layer(xl, dtype=torch.float32, **kw):
    """mLSTMLayer: the parallel forward and its input and parameter gradients, then the same sequence step by step."""
    torch.manual_seed(1)
    layer = _mlstm_layer(xl, dtype, **kw)
    print(layer)
    x = torch.randn(2, 8, 16, dtype=dtype, requires_grad=True)
    y = layer(x)
    _show("forward", y, 24)
    (y ** 2).mean().backward()
    _show("grad x", x.grad, 12)
    _grads(layer)
    state = {}
    with torch.no_grad():
        for t in range(8):
            yt, state = layer.step(x[:, t:t + 1], **state)
            _show(f"step {t}", yt, 6)
            _close("  step == forward", yt, y[:, t:t + 1])


def _slstm_layer(xl, dtype, **kw):
    kw.setdefault("num_heads", 2)
    kw.setdefault("conv1d_kernel_size", 4)
    cfg = xl.sLSTMLayerConfig(embedding_dim=16, backend="vanilla", **kw)
    layer = xl.sLSTMLayer(cfg).to(dtype)
    return layer


def slstm_layer(xl, dtype=torch.float32, **kw):
    """sLSTMLayer on the vanilla backend: forward with gradients, then step by step with the carried states."""
    torch.manual_seed(2)
    layer = _slstm_layer(xl, dtype, **kw)
    print(layer)
    x = torch.randn(2, 6, 16, dtype=dtype, requires_grad=True)
    y = layer(x)
    _show("forward", y, 24)
    (y ** 2).mean().backward()
    _show("grad x", x.grad, 12)
    _grads(layer)
    with torch.no_grad():
        y2, state = layer(x, return_last_state=True)
        _show("forward again", y2, 8)
        for key, value in state.items():
            _show("  state " + key, value, 8)
        state = {}
        for t in range(6):
            yt, state = layer.step(x[:, t:t + 1], **state)
            _show(f"step {t}", yt, 6)


def _stack_config(xl, cls=None, slstm_at=(1,), num_blocks=3, dim=32, context=12, bias_init="powerlaw_blockdependent",
                  conv=4, **kw):
    cls = cls or xl.xLSTMBlockStackConfig
    return cls(
        mlstm_block=xl.mLSTMBlockConfig(mlstm=xl.mLSTMLayerConfig(conv1d_kernel_size=conv, qkv_proj_blocksize=4,
                                                                   num_heads=4)),
        slstm_block=xl.sLSTMBlockConfig(slstm=xl.sLSTMLayerConfig(backend="vanilla", num_heads=4,
                                                                  conv1d_kernel_size=conv, bias_init=bias_init),
                                        feedforward=xl.FeedForwardConfig(proj_factor=1.3, act_fn="gelu")),
        context_length=context, num_blocks=num_blocks, embedding_dim=dim, slstm_at=list(slstm_at), **kw)


def block_stack(xl, dtype=torch.float32, **kw):
    """The README's xLSTMBlockStack at a small size (vanilla sLSTM backend): forward, gradients, steps."""
    torch.manual_seed(3)
    cfg = _stack_config(xl, **kw)
    print(cfg)
    stack = xl.xLSTMBlockStack(cfg).to(dtype)
    stack.reset_parameters()
    print(stack)
    print("parameters", sum(p.numel() for p in stack.parameters()))
    x = torch.randn(2, cfg.context_length, cfg.embedding_dim, dtype=dtype, requires_grad=True)
    y = stack(x)
    print("same shape", y.shape == x.shape)
    _show("y", y, 24)
    y.pow(2).mean().backward()
    _show("grad x", x.grad, 12)
    _grads(stack, 4)
    state = None
    with torch.no_grad():
        for t in range(4):
            yt, state = stack.step(x[:, t:t + 1], state)
            _show(f"step {t}", yt, 6)
            _close("  step == forward", yt, y[:, t:t + 1])
    print(sorted(state), {k: sorted(v) for k, v in state.items()})


def lm_train(xl, dtype=torch.float32, steps=4, vocab=40, **kw):
    """xLSTMLMModel: the README's model at a small size trained by AdamW on its weight-decay groups (as the package's
    experiments/main.py does), then greedy generation through ``step``."""
    torch.manual_seed(4)
    cfg = _stack_config(xl, cls=xl.xLSTMLMModelConfig, vocab_size=vocab, **kw)
    model = xl.xLSTMLMModel(cfg).to(dtype)
    model.reset_parameters()
    decay, no_decay = model.get_weight_decay_optim_groups()
    print("groups", len(decay), len(no_decay), sum(p.numel() for p in decay), sum(p.numel() for p in no_decay))
    opt = torch.optim.AdamW([{"weight_decay": 0.1, "params": decay}, {"weight_decay": 0.0, "params": no_decay}],
                            lr=3e-3)
    data = torch.randint(0, vocab, (3, cfg.context_length + 1))
    for step in range(steps):
        logits = model(data[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, vocab), data[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        print("step", step, "loss", loss.item(), "grad norm", norm.item())
    _show("logits", logits, 12)
    model.eval()
    with torch.no_grad():
        idx = data[:1, :1]
        state = None
        out = [int(idx)]
        for _ in range(8):
            logits, state = model.step(idx, state)
            idx = logits[:, -1:].argmax(-1)
            out.append(int(idx))
            print("  logit max", logits.max().item())
        print("generated", out)


def components(xl, dtype=torch.float32):
    """xLSTM's components alone: CausalConv1d (forward and step), LinearHeadwiseExpand, LayerNorm,
    MultiHeadLayerNorm, GatedFeedForward, and its initialisers."""
    from xlstm.components import conv, feedforward, init, linear_headwise, ln
    torch.manual_seed(5)
    c = conv.CausalConv1d(conv.CausalConv1dConfig(feature_dim=6, kernel_size=3)).to(dtype)
    x = torch.randn(2, 5, 6, dtype=dtype, requires_grad=True)
    y = c(x)
    _show("causal conv", y, 24)
    y.sum().backward()
    _show("  grad x", x.grad)
    _grads(c)
    state = None
    with torch.no_grad():
        for t in range(5):
            yt, state = c.step(x[:, t:t + 1], conv_state=state)
            _close(f"  step {t} == forward", yt, y[:, t:t + 1])
    lh = linear_headwise.LinearHeadwiseExpand(linear_headwise.LinearHeadwiseExpandConfig(in_features=8, num_heads=2,
                                                                                         bias=True)).to(dtype)
    print(lh)
    z = torch.randn(3, 4, 8, dtype=dtype)
    _show("headwise", lh(z))
    for cls, args in ((ln.LayerNorm, dict(ndim=8)), (ln.LayerNorm, dict(ndim=8, weight=False, bias=True)),
                      (ln.MultiHeadLayerNorm, dict(ndim=8))):
        m = cls(**args).to(dtype)
        inp = torch.randn(2, 2, 3, 4, dtype=dtype) if cls is ln.MultiHeadLayerNorm else z
        _show(cls.__name__ + " " + str(args), m(inp))
    try:  # (four heads of 2 where the norm has 8 channels in 2 groups: group_norm's weight check)
        ln.MultiHeadLayerNorm(ndim=8)(torch.randn(2, 3, 2, 4, dtype=dtype))
    except RuntimeError as e:
        print("MultiHeadLayerNorm, 3 heads:", e)
    ff = feedforward.GatedFeedForward(feedforward.FeedForwardConfig(proj_factor=1.3, act_fn="gelu", embedding_dim=8,
                                                                     dropout=0.0)).to(dtype)
    ff.reset_parameters()
    out = ff(z)
    _show("gated ffn", out)
    out.sum().backward()
    _grads(ff)
    w = torch.empty(16, 8, dtype=dtype)
    for name, f in (("small_init", lambda: init.small_init_init_(w, dim=8)),
                    ("wang", lambda: init.wang_init_(w, dim=8, num_blocks=3)),
                    ("bias_linspace", lambda: init.bias_linspace_init_(torch.empty(6, dtype=dtype), start=3.0,
                                                                       end=6.0))):
        _show(name, f())


# ---------------------------------------------------------------- pytorch-tcn


def tcn_train(pt, dtype=torch.float32, steps=3, length=24, **kw):
    """TCN (its README's model at a small size): forward, input and parameter gradients, a few Adam steps' losses,
    then (causal) the same sequence streamed block by block through ``inference`` with its internal buffers."""
    torch.manual_seed(6)
    kw.setdefault("dropout", 0.0)
    model = pt.TCN(3, [8, 8, 12], kernel_size=3, **kw).to(dtype)
    print(model)
    shape = (2, length, 3) if kw.get("input_shape") == "NLC" else (2, 3, length)
    x = torch.randn(*shape, dtype=dtype, requires_grad=True)
    y = model(x)
    _show("y", y, 24)
    y.pow(2).mean().backward()
    _show("grad x", x.grad, 12)
    _grads(model, 4)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    target = torch.randn(y.shape, dtype=dtype)
    for step in range(steps):
        loss = torch.nn.functional.mse_loss(model(x.detach()), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("step", step, "loss", loss.item())
    if kw.get("causal", True):
        model.eval()
        with torch.no_grad():
            full = model(x)
            model.reset_buffers()
            time = 1 if kw.get("input_shape") == "NLC" else 2
            blocks = [model.inference(block) for block in x.detach()[:1].split(4, dim=time)]
            streamed = torch.cat(blocks, dim=time)
            _show("streamed", streamed, 12)
            _close("streamed == full", streamed, full[:1])
            print("buffers", [tuple(b.shape) for b in model.get_buffers()])


def temporal_convs(pt, dtype=torch.float32):
    """TemporalConv1d and TemporalConvTranspose1d (causal, streaming with internal and external buffers)."""
    torch.manual_seed(7)
    for make in (lambda: pt.TemporalConv1d(4, 6, 3, dilation=2, causal=True),
                 lambda: pt.TemporalConv1d(4, 6, 5, causal=False),
                 lambda: pt.TemporalConvTranspose1d(4, 6, 4, stride=2, causal=True),
                 lambda: pt.TemporalConvTranspose1d(4, 6, 6, stride=3, causal=False)):
        conv = make().to(dtype)
        print(conv)
        x = torch.randn(2, 4, 12, dtype=dtype, requires_grad=True)
        y = conv(x)
        _show("  y", y, 12)
        y.sum().backward()
        _show("  grad x", x.grad, 8)
        _grads(conv, 4)
        if conv.causal:
            conv.eval()
            with torch.no_grad():
                conv.reset_buffer()
                parts = [conv(p, inference=True) for p in x.detach().split(3, dim=2)]
                streamed = torch.cat(parts, dim=2)
                _show("  streamed", streamed, 8)
                _close("  streamed == full", streamed, conv(x))


# ---------------------------------------------------------------- torchdyn


def _field(dtype, dim=2, hidden=16):
    torch.manual_seed(8)
    return torch.nn.Sequential(torch.nn.Linear(dim, hidden), torch.nn.Tanh(), torch.nn.Linear(hidden, dim)).to(dtype)


def neural_ode(td, solver="tsit5", sensitivity="autograd", dtype=torch.float64, steps=3, **kw):
    """torchdyn's NeuralODE (its quickstart's model, seeded stand-in data): the trajectory, its loss's gradients and
    a few Adam steps, under ``solver`` and ``sensitivity``."""
    from torchdyn.core import NeuralODE
    model = NeuralODE(_field(dtype), solver=solver, sensitivity=sensitivity, **kw).to(dtype)
    print(model)
    torch.manual_seed(9)
    x = torch.randn(6, 2, dtype=dtype)
    target = torch.randn(6, 2, dtype=dtype)
    t_span = torch.linspace(0, 1, 5, dtype=dtype)
    t_eval, traj = model(x, t_span)
    _show("t_eval", t_eval)
    _show("trajectory", traj, 24)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(steps):
        _, traj = model(x, t_span)
        loss = ((traj[-1] - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        if step == 0:
            _grads(model, 6)
        opt.step()
        print("step", step, "loss", loss.item())


def odeint_solvers(td, dtype=torch.float64):
    """``torchdyn.numerics.odeint`` on its Van der Pol and Lorenz systems with each fixed and adaptive solver, and
    its symplectic and multiple-shooting forms."""
    from torchdyn.numerics import Lorenz, VanDerPol, odeint, odeint_mshooting, odeint_symplectic
    torch.manual_seed(10)
    x0 = torch.randn(4, 2, dtype=dtype)
    t_span = torch.linspace(0, 1, 6, dtype=dtype)
    vdp = VanDerPol(alpha=0.5)
    for solver in ("euler", "midpoint", "rk4", "rk-4", "tsit5", "dopri5", "ieuler"):
        try:
            t, sol = odeint(vdp, x0, t_span, solver=solver, atol=1e-5, rtol=1e-5)
            _show(f"vdp {solver}", sol[-1])
            print("  t", t.tolist())
        except (KeyError, ValueError, NotImplementedError) as e:
            print(solver, type(e).__name__, e)
    lorenz = Lorenz()
    x3 = torch.randn(3, 3, dtype=dtype)
    t, sol = odeint(lorenz, x3, torch.linspace(0, 0.5, 4, dtype=dtype), solver="dopri5", atol=1e-6, rtol=1e-6)
    _show("lorenz dopri5", sol)
    print("  t", t.tolist())
    x4 = torch.randn(5, 4, dtype=dtype)  # (positions and velocities: a harmonic oscillator's acceleration field)
    for name, run in (("symplectic", lambda: odeint_symplectic(lambda t, x: -x[:, :2], x4, t_span, solver="alf")),
                      ("multiple shooting", lambda: odeint_mshooting(vdp, x0, t_span, solver="mszero", fine_steps=2,
                                                                     maxiter=3))):
        try:
            t, sol = run()
            _show(name, sol[-1])
        except (RuntimeError, ValueError, TypeError, KeyError) as e:
            print(name, type(e).__name__, e)


def augmented_node(td, dtype=torch.float64, steps=4):
    """The augmentation tutorial in miniature: ``Augmenter`` then a NeuralODE on the augmented state (with
    ``DepthCat``'s time input), classification of seeded two-moons-like points with cross-entropy and Adam."""
    from torchdyn.core import NeuralODE
    from torchdyn.nn import Augmenter, DataControl, DepthCat
    torch.manual_seed(11)
    f = torch.nn.Sequential(DepthCat(1), torch.nn.Linear(5, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4)).to(dtype)
    model = torch.nn.Sequential(Augmenter(augment_dims=2), NeuralODE(f, solver="rk4", sensitivity="autograd"),
                                ).to(dtype)
    head = torch.nn.Linear(4, 2).to(dtype)
    x = torch.randn(16, 2, dtype=dtype)
    y = (x[:, 0] * x[:, 1] > 0).long()
    t_span = torch.linspace(0, 1, 3, dtype=dtype)
    model[1].t_span = t_span
    opt = torch.optim.Adam([*model.parameters(), *head.parameters()], lr=1e-2)
    for step in range(steps):
        _, traj = model[1](model[0](x), t_span)
        loss = torch.nn.functional.cross_entropy(head(traj[-1]), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("step", step, "loss", loss.item())
    dc = torch.nn.Sequential(DataControl(), torch.nn.Linear(4, 2)).to(dtype)
    _, traj = NeuralODE(dc, solver="euler")(x, t_span)  # (NeuralODE hands DataControl the initial condition)
    _show("data control", traj[-1])


def galerkin(td, dtype=torch.float64):
    """torchdyn's Galerkin layers (GalLinear with each basis, GalConv2d) inside a NeuralODE: outputs and gradients."""
    from torchdyn.core import NeuralODE
    from torchdyn.nn import Chebychev, DepthCat, Fourier, GalConv2d, GalLinear, Polynomial
    torch.manual_seed(12)
    for basis in (Fourier(3), Polynomial(2), Chebychev(3)):
        f = torch.nn.Sequential(DepthCat(1), GalLinear(2, 8, expfunc=basis), torch.nn.Tanh(),
                                torch.nn.Linear(8, 2)).to(dtype)
        node = NeuralODE(f, solver="rk4")
        x = torch.randn(4, 2, dtype=dtype, requires_grad=True)
        _, traj = node(x, torch.linspace(0, 1, 3, dtype=dtype))
        _show(type(basis).__name__, traj[-1])
        traj[-1].pow(2).sum().backward()
        _show("  grad x", x.grad)
    conv = torch.nn.Sequential(DepthCat(1), GalConv2d(2, 4, 3, padding=1, expfunc=Fourier(2)), torch.nn.Tanh(),
                               torch.nn.Conv2d(4, 2, 3, padding=1)).to(dtype)
    node = NeuralODE(conv, solver="euler")
    x = torch.randn(2, 2, 5, 5, dtype=dtype)
    _, traj = node(x, torch.linspace(0, 1, 3, dtype=dtype))
    _show("GalConv2d", traj[-1])


def energy_models(td, dtype=torch.float64):
    """torchdyn's Hamiltonian, Lagrangian and Gaussian-normalising-flow vector fields: their outputs through
    ``torch.autograd.grad`` and a NeuralODE over a HNN."""
    from torchdyn.core import NeuralODE
    from torchdyn.models.energy import HNN, LNN
    torch.manual_seed(13)
    net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1)).to(dtype)
    hnn = HNN(net)
    x = torch.randn(5, 2, dtype=dtype)
    _show("HNN field", hnn(x))
    _, traj = NeuralODE(hnn, solver="rk4")(x, torch.linspace(0, 1, 4, dtype=dtype))
    _show("HNN trajectory", traj[-1])
    lnn = LNN(torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Softplus(), torch.nn.Linear(16, 1)).to(dtype))
    _show("LNN field", lnn(x))
