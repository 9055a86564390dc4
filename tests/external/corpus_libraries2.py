"""Drivers for the third-party library and model modules of ``recipes_libraries2.py`` (our text).

A recipe fetches one module (a vit-pytorch model file, a torchdiffeq solver, a metric-learning loss...) as its
script, with its support packages (einops) beside it, and appends one call to a driver here. The drivers build a
small seeded model, run forward, backward and a few optimizer steps, and print what a user of the library sees:
the output's shape and values, the losses, the parameter count and the ``state_dict``'s keys and shapes.
``import torch`` resolves to core in core's run, so einops (which picks its backend from ``sys.modules['torch']``)
runs on core there.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def _keys(model, *, limit=12):
    """The state_dict's size, its first and last keys with shapes (a deep model has hundreds)."""
    state = model.state_dict()
    items = [f"{k}{tuple(v.shape)}" for k, v in state.items()]
    shown = items if len(items) <= 2 * limit else [*items[:limit], "...", *items[-limit:]]
    print("state_dict:", len(items), "entries,", sum(v.numel() for v in state.values()), "numbers")
    print("  " + "\n  ".join(shown))


def _values(t):
    """The first values to 5 decimals (fixed, not significant, digits: a logit near 0 is rounding noise)."""
    return [f"{v:.5f}" for v in t.detach().flatten()[:6].tolist()]


def _optimizer(params, lr, sgd):
    """Adam, or SGD with momentum where a conv's bias feeds a BatchNorm: that bias's gradient is rounding noise
    (the batch mean removes it), which Adam's first step would turn into a full learning-rate step."""
    return torch.optim.SGD(params, lr=lr * 50, momentum=0.9) if sgd else torch.optim.Adam(params, lr=lr)


def classifier(make, shape, *, classes, steps=3, lr=1e-3, batch=2, train_mode=True, sgd=False):
    """``make()`` (seeded) on a ``(batch, *shape)`` input: logits, cross-entropy for ``steps`` steps, eval logits."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    _keys(model)
    x = torch.randn(batch, *shape)
    y = torch.randint(0, classes, (batch,))
    opt = _optimizer(model.parameters(), lr, sgd)
    model.train(train_mode)
    for step in range(steps):
        opt.zero_grad()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)
        opt.step()
        print(step, tuple(logits.shape), f"loss {loss.item():.6g}", f"grad norm {norm.item():.6g}")
    print("no grad:", [n for n, p in model.named_parameters() if p.grad is None])
    model.eval()
    with torch.no_grad():
        out = model(x)
    print("eval", tuple(out.shape), _values(out))
    return model


def trainer(make, batch, *, steps=3, lr=1e-3):
    """A training wrapper (MAE, SimMIM, MPP, a distiller...) whose ``model(batch)`` (``model(*batch)`` for a tuple)
    is the loss: Adam for ``steps``."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters() if p.requires_grad))
    _keys(model)
    x = batch()
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr)
    for step in range(steps):
        opt.zero_grad()
        loss = model(*x) if isinstance(x, tuple) else model(x)
        loss.backward()
        opt.step()
        print(step, f"loss {loss.item():.6g}")
    return model


def features(make, *inputs, steps=2, lr=1e-3):
    """A module whose output is a tensor (or tuple of tensors) of features: shapes, values, a mean-square fit."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    _keys(model)
    args = [f() for f in inputs]
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(steps):
        opt.zero_grad()
        out = model(*args)
        outs = out if isinstance(out, (tuple, list)) else [out]
        for o in outs:
            print(step, "output", tuple(o.shape), _values(o))
        loss = sum(o.float().square().mean() for o in outs if o.is_floating_point())
        loss.backward()
        opt.step()
        print(step, f"loss {loss.item():.6g}")
    return model


def no_scipy():
    """``scipy`` and ``scipy.integrate`` (torchdiffeq's SciPy wrapper imports ``solve_ivp``, never called here) as
    empty modules while a block runs: SciPy is not installed."""
    import types

    from corpus_gym import modules_installed

    integrate = types.ModuleType("scipy.integrate")
    integrate.solve_ivp = None
    return modules_installed({"scipy": types.ModuleType("scipy"), "scipy.integrate": integrate})


class _Field(torch.nn.Module):
    """ode_demo's cubic spiral ``dy/dt = y**3 A`` with a learnable ``A`` and a time-dependent term; counts calls."""

    def __init__(self, dtype):
        super().__init__()
        self.A = torch.nn.Parameter(torch.tensor([[-0.1, 2.0], [-2.0, -0.1]], dtype=dtype))
        self.b = torch.nn.Parameter(torch.tensor([0.05, -0.02], dtype=dtype))
        self.calls = 0

    def forward(self, t, y):
        self.calls += 1
        return torch.mm(y ** 3, self.A) + self.b * torch.cos(t)


def _report_solution(name, field, sol, *params):
    loss = sol.square().mean()
    grads = torch.autograd.grad(loss, [field.A, field.b, *params])
    print(name, tuple(sol.shape), sol.dtype, "calls", field.calls, [f"{v:.6f}" for v in sol[-1].flatten().tolist()],
          f"loss {loss.item():.6f}", "grads", [f"{g.abs().sum().item():.6f}" for g in grads])


def ode(tdq):
    """torchdiffeq's solvers on the spiral: fixed-grid (float32), adaptive (float64: a step's acceptance must not
    hinge on the last bit), the adjoint method, a tuple state, an event and dense output, then a short fit."""
    torch.manual_seed(0)
    print("version", tdq.__version__)
    t = torch.linspace(0.0, 1.5, 4)
    for method in ("euler", "midpoint", "heun3", "rk4", "explicit_adams", "implicit_adams", "implicit_euler"):
        field = _Field(torch.float32)
        y0 = torch.tensor([[1.2, 0.0]], requires_grad=True)
        step = 0.05 if method in ("euler", "explicit_adams") else 0.25
        sol = tdq.odeint(field, y0, t, method=method, options={"step_size": step})
        _report_solution(method, field, sol, y0)
    for method in ("dopri5", "dopri8", "tsit5", "fehlberg2"):
        field = _Field(torch.float64)
        y0 = torch.tensor([[1.2, 0.0]], dtype=torch.float64, requires_grad=True)
        sol = tdq.odeint(field, y0, t.double(), method=method, rtol=1e-4, atol=1e-6)
        _report_solution(method, field, sol, y0)
    field = _Field(torch.float64)
    y0 = torch.tensor([[1.2, 0.0]], dtype=torch.float64, requires_grad=True)
    sol = tdq.odeint_adjoint(field, y0, t.double(), method="dopri5", rtol=1e-5, atol=1e-7)
    loss = sol.square().mean()
    loss.backward()
    print("adjoint", f"loss {loss.item():.6f}", "calls", field.calls, [f"{v:.6f}" for v in field.A.grad.flatten()],
          [f"{v:.6f}" for v in y0.grad.flatten()])
    field = _Field(torch.float64)
    sol = tdq.odeint(lambda t, s: (field(t, s[0]), -s[1] * 0.5), (y0.detach(), torch.ones(3, dtype=torch.float64)),
                     t.double(), method="rk4", options={"step_size": 0.1})
    print("tuple state", [tuple(s.shape) for s in sol], [f"{v:.6f}" for v in sol[1][-1].tolist()])
    field = _Field(torch.float64)
    event_t, sol = tdq.odeint_event(field, y0.detach(), torch.tensor(0.0, dtype=torch.float64),
                                    event_fn=lambda t, y: y[0, 0] - 0.5, method="dopri5", rtol=1e-6, atol=1e-8)
    print("event", f"{event_t.item():.6f}", tuple(sol.shape), [f"{v:.6f}" for v in sol[-1].flatten().tolist()])
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))
    target = tdq.odeint(_Field(torch.float32), torch.tensor([[1.0, 0.5]]), t, method="rk4",
                        options={"step_size": 0.1}).detach()
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    for step in range(3):
        opt.zero_grad()
        pred = tdq.odeint(lambda t, y: net(y), torch.tensor([[1.0, 0.5]]), t, method="midpoint",
                          options={"step_size": 0.25})
        loss = (pred - target).abs().mean()
        loss.backward()
        opt.step()
        print("fit", step, f"{loss.item():.6f}")


def scipy_for_metric_learning():
    """``scipy.special.binom`` (LargeMarginSoftmaxLoss's coefficients, as ``math.comb``) and an empty
    ``scipy.stats`` (its ``rankdata`` is never called here) while a block runs: SciPy is not installed."""
    import math
    import types

    from corpus_gym import modules_installed

    special, stats = types.ModuleType("scipy.special"), types.ModuleType("scipy.stats")
    special.binom = lambda n, k: float(math.comb(int(n), int(k)))
    scipy = types.ModuleType("scipy")
    scipy.special, scipy.stats = special, stats
    return modules_installed({"scipy": scipy, "scipy.special": special, "scipy.stats": stats})


def _embedder():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 6))
    x = torch.randn(24, 8)
    labels = torch.arange(24) % 4
    return net, x, labels


def metric(make, *, miner=None, steps=3, inputs="labels"):
    """A metric-learning loss (``make()``) on a seeded 4-class batch of 24 embeddings: its repr, the loss under
    SGD for ``steps`` (the loss's own parameters too: proxies, class centres), the miner's tuples.
    ``inputs="embeddings"``: a loss of the embeddings alone; ``"pairs"``: of two views (the input, jittered)."""
    net, x, labels = _embedder()
    loss_fn = make()
    print(loss_fn)
    params = list(net.parameters()) + list(loss_fn.parameters())
    print("loss parameters:", [tuple(p.shape) for p in loss_fn.parameters()])
    opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
    jittered = x + 0.1 * torch.randn(x.shape)
    for step in range(steps):
        opt.zero_grad()
        emb = net(x)
        if inputs == "pairs":
            loss = loss_fn(emb, ref_emb=net(jittered))
        elif inputs == "embeddings":
            loss = loss_fn(emb)
        elif miner is not None:
            tuples = miner(emb, labels)
            print(step, "mined", [tuple(t.shape) for t in tuples], [int(t.sum()) for t in tuples])
            loss = loss_fn(emb, labels, tuples)
        else:
            loss = loss_fn(emb, labels)
        loss.backward()
        opt.step()
        grad = sum(p.grad.abs().sum().item() for p in params if p.grad is not None)
        print(step, f"loss {loss.item():.6f}", f"|grad| {grad:.6f}")
    return loss_fn


def _flow_layers(nf, kind):
    """``kind``'s flow layers on 2-d data, as normflows' README and example notebooks build them (fewer, smaller)."""
    layers = []
    for i in range(3):
        if kind == "real_nvp":
            layers += [nf.flows.AffineCouplingBlock(nf.nets.MLP([1, 16, 16, 2], init_zeros=True)),
                       nf.flows.Permute(2, mode="swap")]
        elif kind == "masked_affine":
            mask = torch.tensor([1.0, 0.0]) if i % 2 == 0 else torch.tensor([0.0, 1.0])
            layers += [nf.flows.MaskedAffineFlow(mask, nf.nets.MLP([2, 16, 2], init_zeros=True),
                                                 nf.nets.MLP([2, 16, 2], init_zeros=True)), nf.flows.ActNorm(2)]
        elif kind == "neural_spline":
            layers += [nf.flows.AutoregressiveRationalQuadraticSpline(2, 1, 16), nf.flows.LULinearPermute(2)]
        elif kind == "coupled_spline":
            layers += [nf.flows.CoupledRationalQuadraticSpline(2, 1, 16), nf.flows.Permute(2, mode="shuffle")]
        elif kind == "maf":
            layers += [nf.flows.MaskedAffineAutoregressive(2, 16, num_blocks=1), nf.flows.Permute(2)]
        elif kind == "residual":
            net = nf.nets.LipschitzMLP([2, 16, 16, 2], init_zeros=False, lipschitz_const=0.9)
            layers += [nf.flows.Residual(net, reduce_memory=True, exact_trace=True), nf.flows.ActNorm(2)]
        elif kind == "planar":
            layers += [nf.flows.Planar((2,)), nf.flows.Radial((2,))]
    return layers


def flows(nf, kind, *, steps=4, reverse=False):
    """A normflows ``NormalizingFlow`` of ``kind`` layers on a diagonal Gaussian: trained ``steps`` Adam steps on
    the forward KL to TwoMoons samples (``reverse``: the reverse KL to its density), then log_prob, sampling and
    the forward/inverse round trip."""
    torch.manual_seed(0)
    target = nf.distributions.target.TwoMoons()
    model = nf.NormalizingFlow(nf.distributions.base.DiagGaussian(2), _flow_layers(nf, kind), target)
    print(kind, "parameters:", sum(p.numel() for p in model.parameters()))
    _keys(model, limit=5)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    x = target.sample(64)
    for step in range(steps):
        opt.zero_grad()
        loss = model.reverse_kld(32) if reverse else model.forward_kld(x)
        loss.backward()
        opt.step()
        print(step, f"loss {loss.item():.6f}")
    model.eval()
    grid = torch.tensor([[0.0, 0.0], [1.5, 0.5], [-1.5, -0.5], [2.5, 0.0]])
    with torch.no_grad():
        z, log_q = model.sample(5)
        print("sample", tuple(z.shape), [f"{v:.5f}" for v in log_q.tolist()])
        if kind != "planar":  # planar and radial flows have no inverse, so no density of given points
            print("log_prob", [f"{v:.5f}" for v in model.log_prob(grid).tolist()])
            back = model.forward(model.inverse(grid))
            print("round trip within 1e-5:", (back - grid).abs().max().item() < 1e-5)


def denoiser(make, shape, *, classes=None, steps=3, scheduler=None):
    """A diffusion denoiser ``make()`` (Karras' magnitude-preserving U-Net): noisy ``(2, *shape)`` inputs, a noise
    level and class labels in, the mean-square error to the clean input under Adam (and ``scheduler(opt)``)."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    _keys(model, limit=6)
    clean = torch.randn(2, *shape)
    time = torch.rand(2)
    labels = torch.randint(0, classes, (2,)) if classes else None
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = scheduler(opt) if scheduler else None
    for step in range(steps):
        opt.zero_grad()
        noisy = clean + time.view(-1, *[1] * len(shape)) * torch.randn(clean.shape)
        out = model(noisy, time=time, class_labels=labels)
        loss = F.mse_loss(out, clean)
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        print(step, tuple(out.shape), f"loss {loss.item():.6f}", [f"{g['lr']:.6g}" for g in opt.param_groups])
    model.eval()
    with torch.no_grad():
        print("eval", _values(model(clean, time=time, class_labels=labels)))


def diffusion(make, *, steps=3, image_size=16, channels=3, samples=2):
    """A diffusion wrapper ``make()`` whose ``model(images)`` is the training loss: Adam steps on seeded images in
    [0, 1], then ``sample(batch_size=samples)``."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    images = torch.rand(4, channels, image_size, image_size)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        opt.zero_grad()
        loss = model(images)
        loss.backward()
        opt.step()
        print(step, f"loss {loss.item():.6f}")
    model.eval()
    with torch.no_grad():
        out = model.sample(batch_size=samples)
    print("sample", tuple(out.shape), f"{out.min().item():.5f} {out.max().item():.5f} {out.mean().item():.5f}")


def navit(make, *, steps=2, nested=False, frames=None):
    """NaViT on images of different sizes: lists of lists (packed per batch element), then grouped by the model,
    cross-entropy under Adam; ``nested``: the nested-tensor NaViT, one image per batch element (volumes of
    ``frames`` frames each where given)."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    sizes = [(32, 32), (16, 16), (16, 32), (32, 16), (8, 32)]
    images = [torch.randn(3, h, w) for h, w in sizes]
    if frames:
        images = [torch.randn(3, f, h, w) for f, (h, w) in zip(frames, sizes)]
    labels = torch.tensor([0, 1, 2, 3, 4])
    calls = [("lists", lambda: model([images[:2], images[2:4], images[4:]])),
             ("grouped", lambda: model(images, group_images=True, group_max_seq_len=24))]
    if nested:
        calls = [("images", lambda: model(images))]
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for name, call in calls:
        for step in range(steps):
            opt.zero_grad()
            logits = call()
            loss = F.cross_entropy(logits, labels)
            loss.backward()
            opt.step()
            print(name, step, tuple(logits.shape), f"loss {loss.item():.6f}")
    model.eval()
    with torch.no_grad():
        print("eval", _values(calls[0][1]()))


def language_model(make, *, tokens=50, seq_len=12, steps=3):
    """A token model ``make()`` (PerceiverLM) on a seeded batch with a padding mask: next-token cross-entropy."""
    torch.manual_seed(0)
    model = make()
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    _keys(model, limit=6)
    seq = torch.randint(0, tokens, (2, seq_len + 1))
    mask = torch.ones(2, seq_len, dtype=torch.bool)
    mask[1, -3:] = False
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        opt.zero_grad()
        logits = model(seq[:, :-1], mask=mask)
        loss = F.cross_entropy(logits.transpose(1, 2), seq[:, 1:])
        loss.backward()
        opt.step()
        print(step, tuple(logits.shape), f"loss {loss.item():.6f}")


def rotary(lib):
    """rotary-embedding-torch: rotated queries and keys (plain, interpolated, xpos, learned, with an offset), the
    axial pixel frequencies, and a gradient through them."""
    torch.manual_seed(0)
    q, k = torch.randn(2, 4, 6, 8, requires_grad=True), torch.randn(2, 4, 6, 8)
    for make in (lambda: lib.RotaryEmbedding(dim=8), lambda: lib.RotaryEmbedding(dim=4, interpolate_factor=2.0),
                 lambda: lib.RotaryEmbedding(dim=8, learned_freq=True), lambda: lib.RotaryEmbedding(dim=8, theta=500)):
        rot = make()
        rq, rk = rot.rotate_queries_or_keys(q), rot.rotate_queries_or_keys(k, offset=2)
        (rq * rk).sum().backward()
        print(tuple(rq.shape), _values(rq[0, 0, 1]), _values(rk[1, 2, 3]), f"{q.grad.abs().sum().item():.5f}",
              [f"{p.grad.abs().sum().item():.5f}" for p in rot.parameters() if p.grad is not None])
        q.grad = None
    xpos = lib.RotaryEmbedding(dim=8, use_xpos=True, xpos_scale_base=16)
    rq, rk = xpos.rotate_queries_and_keys(q, k)
    print("xpos", _values(rq[0, 1, 5]), _values(rk[1, 0, 2]))
    pixel = lib.RotaryEmbedding(dim=4, freqs_for="pixel", max_freq=16)
    freqs = pixel.get_axial_freqs(3, 5)
    image = torch.randn(2, 3, 5, 8)
    print("axial", tuple(freqs.shape), _values(lib.apply_rotary_emb(freqs, image)[1, 2, 4]))
