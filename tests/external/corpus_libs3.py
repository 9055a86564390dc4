"""Drivers for ``recipes_libs3.py``: third-party pure-PyTorch libraries (flow_matching, pytorch-crf, pytorch-struct,
cooper, Muon, pytorch-msssim, VICReg), each run on seeded inputs, printing every value and gradient with every digit
so that a difference in core shows."""

from __future__ import annotations

import torch


def show(name, t):
    """``t``'s shape, its first 12 values and the sum of its absolute values (float64), every digit."""
    if not isinstance(t, torch.Tensor):
        print(name, t)
        return
    flat = t.detach().reshape(-1)
    values = flat[:12].tolist()
    total = float(flat.double().abs().sum()) if flat.is_floating_point() else int(flat.long().sum())
    print(name, tuple(t.shape), t.dtype, values, total)


def grads(name, module):
    """Each parameter's gradient of ``module`` (after a backward), named."""
    for key, p in module.named_parameters():
        if p.grad is not None:
            show(f"{name} grad {key}", p.grad)


def _mlp(d_in, d_out, hidden=32):
    return torch.nn.Sequential(torch.nn.Linear(d_in, hidden), torch.nn.SiLU(), torch.nn.Linear(hidden, hidden),
                               torch.nn.SiLU(), torch.nn.Linear(hidden, d_out))


class _Velocity(torch.nn.Module):
    """flow_matching's README model: an MLP on ``(x, t)`` concatenated."""

    def __init__(self, dim=2, hidden=32):
        super().__init__()
        self.net = _mlp(dim + 1, dim, hidden)

    def forward(self, x, t, **extras):
        t = t.reshape(-1, 1).expand(x.shape[0], 1) if t.dim() <= 1 else t
        return self.net(torch.cat([x, t.to(x.dtype)], dim=-1))


def _checkerboard(n):
    """Seeded 2-D checkerboard samples (flow_matching's 2-D examples' data set)."""
    x1 = torch.rand(n) * 4 - 2
    x2_ = torch.rand(n) - torch.randint(high=2, size=(n,)) * 2
    x2 = x2_ + (torch.floor(x1) % 2)
    return torch.stack([x1, x2], dim=1) * 2


def fm_paths(fm_path, fm_sched):
    """AffineProbPath under each scheduler: x_t, dx_t, the six target conversions and their input gradients."""
    torch.manual_seed(0)
    x0, x1 = torch.randn(5, 3), torch.randn(5, 3)
    t = torch.rand(5)
    schedulers = [fm_sched.CondOTScheduler(), fm_sched.CosineScheduler(), fm_sched.VPScheduler(),
                  fm_sched.LinearVPScheduler(), fm_sched.PolynomialConvexScheduler(n=2.5),
                  fm_sched.VPScheduler(beta_min=0.5, beta_max=10.0)]
    for s in schedulers:
        out = s(t)
        for field in ("alpha_t", "sigma_t", "d_alpha_t", "d_sigma_t"):
            show(f"{type(s).__name__} {field}", getattr(out, field))
        if hasattr(s, "snr_inverse"):
            show(f"{type(s).__name__} snr_inverse", s.snr_inverse(torch.tensor([0.5, 1.0, 2.0, 7.0])))
        path = fm_path.AffineProbPath(scheduler=s)
        xt = x1.clone().requires_grad_()
        sample = path.sample(x_0=x0, x_1=xt, t=t)
        show("  x_t", sample.x_t)
        show("  dx_t", sample.dx_t)
        v, xt_, tc = sample.dx_t, sample.x_t, t[:, None]  # (the conversions broadcast t against x)
        conversions = [path.target_to_velocity(x1, xt_, tc), path.epsilon_to_velocity(x0, xt_, tc),
                       path.velocity_to_target(v, xt_, tc), path.epsilon_to_target(x0, xt_, tc),
                       path.velocity_to_epsilon(v, xt_, tc), path.target_to_epsilon(x1, xt_, tc)]
        for i, c in enumerate(conversions):
            show(f"  conversion {i}", c)
        (g,) = torch.autograd.grad(sum((c * (i + 1)).sum() for i, c in enumerate(conversions)), xt)
        show("  grad x_1", g)
    cond = fm_path.CondOTProbPath()
    show("CondOTProbPath x_t", cond.sample(x_0=x0, x_1=x1, t=t).x_t)


def fm_train(fm_path, fm_sched, fm_solver, dtype=torch.float32):
    """flow_matching's 2-D README example shortened: CondOT flow matching on a checkerboard (Adam, 40 steps), then
    ODESolver samples (euler, midpoint, rk4, dopri5) and the likelihood of a few points (exact divergence and
    Hutchinson's)."""
    torch.manual_seed(0)
    model = _Velocity().to(dtype)
    path = fm_path.AffineProbPath(scheduler=fm_sched.CondOTScheduler())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(40):
        x1 = _checkerboard(64).to(dtype)
        x0 = torch.randn_like(x1)
        t = torch.rand(x1.shape[0], dtype=dtype)
        sample = path.sample(t=t, x_0=x0, x_1=x1)
        loss = torch.pow(model(sample.x_t, sample.t) - sample.dx_t, 2).mean()
        opt.zero_grad()
        loss.backward()
        if step % 10 == 0 or step == 39:
            print("step", step, "loss", loss.item())
            grads("model", model)
        opt.step()
    solver = fm_solver.ODESolver(velocity_model=model)
    x_init = torch.randn(6, 2, dtype=dtype)
    grid = torch.linspace(0, 1, 5, dtype=dtype)
    for method, step in (("euler", 0.05), ("midpoint", 0.1), ("rk4", 0.25), ("dopri5", None)):
        out = solver.sample(x_init=x_init, step_size=step, method=method, time_grid=grid, return_intermediates=True)
        show(f"sample {method}", out)
    gauss = torch.distributions.Independent(torch.distributions.Normal(torch.zeros(2, dtype=dtype),
                                                                       torch.ones(2, dtype=dtype)), 1)
    x1 = _checkerboard(4).to(dtype)
    for exact in (True, False):
        x0, log_p = solver.compute_likelihood(x_1=x1, log_p0=gauss.log_prob, step_size=0.1, method="midpoint",
                                              exact_divergence=exact, time_grid=torch.tensor([1.0, 0.0], dtype=dtype))
        show(f"likelihood exact={exact} x0", x0)
        show(f"likelihood exact={exact} log_p", log_p)


def fm_solver_grads(fm_solver, fm_utils):
    """ODESolver with enable_grad: the gradient of a sample's loss with respect to the model's parameters and the
    initial point, and ``flow_matching.utils``' helpers."""
    torch.manual_seed(1)
    model = _Velocity(3, 16)
    solver = fm_solver.ODESolver(velocity_model=model)
    x_init = torch.randn(4, 3, requires_grad=True)
    for method, step in (("euler", 0.1), ("heun3", 0.2), ("rk4", 0.5)):
        model.zero_grad()
        out = solver.sample(x_init=x_init, step_size=step, method=method, enable_grad=True)
        (out ** 2).sum().backward()
        show(f"{method} out", out)
        show(f"{method} grad x_init", x_init.grad)
        grads(method, model)
        x_init.grad = None
    x = torch.randn(3, 4)
    show("unsqueeze_to_match", fm_utils.unsqueeze_to_match(torch.tensor([1.0, 2.0, 3.0]), x))
    show("unsqueeze_to_match prefix", fm_utils.unsqueeze_to_match(torch.tensor([1.0, 2.0, 3.0, 4.0]), x, "prefix"))
    show("expand_tensor_like", fm_utils.expand_tensor_like(torch.tensor([1.0, 2.0, 3.0]), x))
    y = x.clone().requires_grad_()
    show("gradient", fm_utils.gradient((y ** 3).sum(-1), y, create_graph=True))


class _Logits(torch.nn.Module):
    """A discrete flow's posterior model: embeddings of the tokens and of t, an MLP to each position's logits."""

    def __init__(self, vocab, length, hidden=16):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, hidden)
        self.time = torch.nn.Linear(1, hidden)
        self.net = _mlp(hidden * length, vocab * length, 32)
        self.vocab, self.length = vocab, length

    def forward(self, x, t, **extras):
        h = self.embed(x) + self.time(t.reshape(-1, 1, 1).expand(x.shape[0], 1, 1))
        return self.net(h.flatten(1)).reshape(x.shape[0], self.length, self.vocab)


class _Posterior(torch.nn.Module):
    """The model as MixtureDiscreteEulerSolver calls it: probabilities, not logits."""

    def __init__(self, logits):
        super().__init__()
        self.logits = logits

    def forward(self, x, t, **extras):
        return torch.softmax(self.logits(x, t), dim=-1)


def fm_discrete(fm_path, fm_sched, fm_solver, fm_loss):
    """Discrete flow matching: MixtureDiscreteProbPath samples, posterior_to_velocity, the generalized KL loss
    trained 30 Adam steps on seeded sequences, then MixtureDiscreteEulerSolver's samples (with a divergence-free
    term, intermediates, a time grid)."""
    torch.manual_seed(0)
    vocab, length = 6, 5
    path = fm_path.MixtureDiscreteProbPath(scheduler=fm_sched.PolynomialConvexScheduler(n=2.0))
    model = _Logits(vocab, length)
    loss_fn = fm_loss.MixturePathGeneralizedKL(path=path)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    base = torch.tensor([0, 1, 2, 3, 4])
    for step in range(30):
        x1 = (base + torch.randint(0, 2, (16, 1))) % vocab
        x0 = torch.randint(0, vocab, (16, length))
        t = torch.rand(16) * (1 - 1e-3)
        sample = path.sample(t=t, x_0=x0, x_1=x1)
        logits = model(sample.x_t, sample.t)
        loss = loss_fn(logits=logits, x_1=sample.x_1, x_t=sample.x_t, t=sample.t)
        opt.zero_grad()
        loss.backward()
        if step % 10 == 0 or step == 29:
            print("step", step, "loss", loss.item())
            show("  x_t", sample.x_t)
            grads("model", model)
        opt.step()
    show("posterior_to_velocity", path.posterior_to_velocity(logits.detach(), sample.x_t, sample.t))
    solver = fm_solver.MixtureDiscreteEulerSolver(model=_Posterior(model), path=path, vocabulary_size=vocab)
    uniform = fm_solver.MixtureDiscreteEulerSolver(model=_Posterior(model), path=path, vocabulary_size=vocab,
                                                   source_distribution_p=torch.full((vocab,), 1.0 / vocab))
    x_init = torch.randint(0, vocab, (8, length))
    with torch.no_grad():
        show("sample", solver.sample(x_init=x_init, step_size=0.1))
        show("sample div_free", uniform.sample(x_init=x_init, step_size=0.1, div_free=0.5))
        grid = torch.tensor([0.0, 0.3, 0.6, 0.999])
        show("sample grid", solver.sample(x_init=x_init, step_size=None, time_grid=grid, return_intermediates=True))


class _Tangent(torch.nn.Module):
    """A velocity field on a manifold: an MLP's output projected on the tangent space at x."""

    def __init__(self, manifold, dim):
        super().__init__()
        self.manifold, self.net = manifold, _mlp(dim + 1, dim, 16)

    def forward(self, x, t):
        v = self.net(torch.cat([x, t.reshape(-1, 1).expand(x.shape[0], 1)], dim=-1))
        return self.manifold.proju(x, v)


def fm_riemannian(fm_path, fm_sched, fm_solver, fm_manifolds):
    """Riemannian flow matching on the sphere and the flat torus: GeodesicProbPath samples and their targets, the
    manifolds' maps, a few Adam steps of the flow matching loss and RiemannianODESolver's euler/midpoint/rk4."""
    torch.manual_seed(0)
    for manifold, dim in ((fm_manifolds.Sphere(), 3), (fm_manifolds.FlatTorus(), 2)):
        name = type(manifold).__name__
        x = manifold.projx(torch.randn(6, dim))
        u = manifold.proju(x, torch.randn(6, dim))
        y = manifold.expmap(x, u)
        show(f"{name} expmap", y)
        show(f"{name} logmap", manifold.logmap(x, y))
        geo = fm_manifolds.geodesic(manifold, x, manifold.projx(torch.randn(6, dim)))
        show(f"{name} geodesic(0.3)", geo(torch.full((1,), 0.3)))
        path = fm_path.GeodesicProbPath(scheduler=fm_sched.CondOTScheduler(), manifold=manifold)
        model = _Tangent(manifold, dim)
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        for step in range(8):
            x0 = manifold.projx(torch.randn(16, dim))
            x1 = manifold.projx(torch.randn(16, dim) * 0.3 + 1.0)
            sample = path.sample(t=torch.rand(16), x_0=x0, x_1=x1)
            loss = ((model(sample.x_t, sample.t) - sample.dx_t) ** 2).sum(-1).mean()
            opt.zero_grad()
            loss.backward()
            print(name, "step", step, "loss", loss.item())
            opt.step()
        show(f"{name} x_t", sample.x_t)
        show(f"{name} dx_t", sample.dx_t)
        grads(name, model)
        solver = fm_solver.RiemannianODESolver(manifold=manifold, velocity_model=model)
        with torch.no_grad():
            for method in ("euler", "midpoint", "rk4"):
                show(f"{name} {method}", solver.sample(x[:4], step_size=0.1, method=method,
                                                       time_grid=torch.tensor([0.0, 0.5, 1.0]),
                                                       return_intermediates=True))


def fm_schedule_transform(fm_path, fm_sched, fm_solver):
    """ScheduleTransformedModel: a CondOT-trained velocity model sampled under the cosine and VP schedules."""
    torch.manual_seed(2)
    model = _Velocity(2, 16)
    x_init = torch.randn(5, 2)
    for new in (fm_sched.CosineScheduler(), fm_sched.LinearVPScheduler(), fm_sched.PolynomialConvexScheduler(n=3)):
        transformed = fm_sched.ScheduleTransformedModel(
            velocity_model=model, original_scheduler=fm_sched.CondOTScheduler(), new_scheduler=new)
        for t in (0.1, 0.5, 0.9):  # (one time for the batch, as its ODE solver calls it)
            x = x_init.clone().requires_grad_()
            out = transformed(x=x, t=torch.tensor(t))
            (g,) = torch.autograd.grad(out.pow(2).sum(), x)
            show(f"{type(new).__name__} t={t} transformed velocity", out)
            show(f"{type(new).__name__} t={t} grad", g)
        solver = fm_solver.ODESolver(velocity_model=transformed)
        with torch.no_grad():
            show(f"{type(new).__name__} sample", solver.sample(x_init=x_init, step_size=0.05, method="midpoint"))


def crf_forward_decode(CRF, dtype):
    """pytorch-crf's CRF: the log-likelihood under each reduction, with and without a mask, batch-first too, its
    gradients with respect to the emissions and the transitions, and Viterbi's best paths."""
    torch.manual_seed(0)
    crf = CRF(5).to(dtype)
    print(repr(crf))
    emissions = torch.randn(7, 3, 5, dtype=dtype, requires_grad=True)
    tags = torch.randint(0, 5, (7, 3))
    mask = torch.ones(7, 3, dtype=torch.uint8)
    mask[5:, 1] = 0
    mask[3:, 2] = 0
    for reduction in ("sum", "mean", "token_mean", "none"):
        for m in (None, mask):
            crf.zero_grad()
            llh = crf(emissions, tags, mask=m, reduction=reduction)
            (g,) = torch.autograd.grad(llh.sum(), emissions, retain_graph=True)
            llh.sum().backward()
            show(f"llh {reduction} mask={m is not None}", llh)
            show("  grad emissions", g)
            grads("  crf", crf)
    print("decode", crf.decode(emissions), crf.decode(emissions, mask=mask))
    first = CRF(5, batch_first=True).to(dtype)
    first.load_state_dict(crf.state_dict())
    show("batch_first llh", first(emissions.transpose(0, 1), tags.t(), mask=mask.t(), reduction="none"))
    print("batch_first decode", first.decode(emissions.transpose(0, 1), mask=mask.t()))


class _Tagger(torch.nn.Module):
    """A BiLSTM-CRF tagger: embeddings, a bidirectional LSTM, a linear emission layer and pytorch-crf's CRF."""

    def __init__(self, CRF, vocab=20, tags=4, hidden=8):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, 6)
        self.lstm = torch.nn.LSTM(6, hidden, bidirectional=True)
        self.emit = torch.nn.Linear(2 * hidden, tags)
        self.crf = CRF(tags)

    def emissions(self, words):
        return self.emit(self.lstm(self.embed(words))[0])


def crf_tagger(CRF):
    """A BiLSTM-CRF tagger trained 15 Adam steps on seeded sentences whose tags follow the words (the negative
    log-likelihood with a mask of lengths), then its decoded tags and every parameter's gradient."""
    torch.manual_seed(0)
    model = _Tagger(CRF)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    words = torch.randint(0, 20, (9, 6))
    tags = words % 4
    lengths = torch.tensor([9, 8, 8, 6, 5, 3])
    mask = torch.arange(9)[:, None] < lengths[None]
    for step in range(15):
        loss = -model.crf(model.emissions(words), tags, mask=mask, reduction="token_mean")
        opt.zero_grad()
        loss.backward()
        print("step", step, "loss", loss.item())
        opt.step()
    grads("tagger", model)
    with torch.no_grad():
        print("decoded", model.crf.decode(model.emissions(words), mask=mask))
        print("tags   ", [tags[:n, i].tolist() for i, n in enumerate(lengths.tolist())])


def _struct_report(name, dist, value=None):
    """A structured distribution's partition, marginals (and their gradient through a weighted sum), argmax,
    entropy, max and, given a ``value``, its log-probability."""
    show(f"{name} partition", dist.partition)
    show(f"{name} marginals", dist.marginals)
    show(f"{name} argmax", dist.argmax)
    show(f"{name} max", dist.max)
    show(f"{name} entropy", dist.entropy)
    if value is not None:
        show(f"{name} log_prob", dist.log_prob(value))


def struct_linear_chain(ts):
    """LinearChainCRF with lengths: partition, marginals, argmax, entropy, k-max, counts, cross entropy and KL to
    another, samples' log-probabilities, the gradient of the log-partition; HMM from its parameters."""
    torch.manual_seed(0)
    batch, n, c = 3, 6, 4
    phi = torch.randn(batch, n - 1, c, c, requires_grad=True)
    lengths = torch.tensor([6, 4, 5])
    dist = ts.LinearChainCRF(phi, lengths=lengths)
    _struct_report("linear-chain", dist, dist.argmax)
    show("topk(3)", dist.topk(3))
    show("count", dist.count)
    other = ts.LinearChainCRF(torch.randn(batch, n - 1, c, c), lengths=lengths)
    show("cross_entropy", dist.cross_entropy(other))
    show("kl", dist.kl(other))
    (g,) = torch.autograd.grad(dist.partition.sum() + (dist.marginals * phi.detach()).sum(), phi)
    show("grad phi", g)
    torch.manual_seed(1)
    samples = dist.sample((2,))
    show("samples", samples)
    show("samples log_prob", dist.log_prob(samples))
    seq = ts.LinearChainCRF.struct.from_parts(dist.argmax)[0]
    show("argmax as a sequence", seq)
    hmm = ts.HMM(torch.randn(c, c).log_softmax(0), torch.randn(7, c).log_softmax(0), torch.randn(c).log_softmax(0),
                 torch.randint(0, 7, (batch, n)))
    _struct_report("hmm", hmm)


def struct_semi_markov(ts):
    """SemiMarkovCRF (segments up to length 3): partition, marginals, argmax, entropy and the gradient."""
    torch.manual_seed(0)
    phi = torch.randn(2, 6, 3, 4, 4, requires_grad=True)
    dist = ts.SemiMarkovCRF(phi, lengths=torch.tensor([7, 5]))
    _struct_report("semi-markov", dist, dist.argmax)
    (g,) = torch.autograd.grad(dist.partition.sum(), phi)
    show("grad phi", g)
    show("topk(2)", dist.topk(2))


def struct_dependency(ts):
    """DependencyCRF (projective, single- and multi-root) and NonProjectiveDependencyCRF (the matrix-tree theorem):
    partitions, arc marginals, best trees, entropies and gradients."""
    torch.manual_seed(0)
    arcs = torch.randn(2, 5, 5, requires_grad=True)
    lengths = torch.tensor([5, 4])
    for multiroot in (True, False):
        dist = ts.DependencyCRF(arcs, lengths=lengths, multiroot=multiroot)
        _struct_report(f"dependency multiroot={multiroot}", dist, dist.argmax)
        (g,) = torch.autograd.grad(dist.partition.sum(), arcs)
        show("  grad arcs", g)
    arcs64 = arcs.detach().double().requires_grad_()
    for multiroot in (True, False):
        dist = ts.NonProjectiveDependencyCRF(arcs64, multiroot=multiroot)
        show(f"non-projective multiroot={multiroot} partition", dist.partition)
        show("  marginals", dist.marginals)
        show("  entropy", dist.entropy)
        (g,) = torch.autograd.grad(dist.partition.sum(), arcs64)
        show("  grad arcs", g)


def struct_trees(ts):
    """TreeCRF over labeled spans and SentCFG (a PCFG's terms, rules and roots): partitions, marginals, best trees,
    entropies and gradients."""
    torch.manual_seed(0)
    spans = torch.randn(2, 5, 5, 3, requires_grad=True)
    dist = ts.TreeCRF(spans, lengths=torch.tensor([5, 4]))
    _struct_report("tree", dist, dist.argmax)
    (g,) = torch.autograd.grad(dist.partition.sum(), spans)
    show("  grad spans", g)
    nt, t, n = 3, 2, 4
    terms = torch.randn(2, n, t).log_softmax(-1).requires_grad_()
    rules = torch.randn(2, nt, nt + t, nt + t).reshape(2, nt, -1).log_softmax(-1).reshape(2, nt, nt + t, nt + t)
    roots = torch.randn(2, nt).log_softmax(-1)
    cfg = ts.SentCFG((terms, rules.requires_grad_(), roots), lengths=torch.tensor([4, 3]))
    show("cfg partition", cfg.partition)
    show("cfg argmax spans", cfg.argmax[-1])
    show("cfg entropy", cfg.entropy)
    (gt, gr) = torch.autograd.grad(cfg.partition.sum(), (terms, rules))
    show("  grad terms", gt)
    show("  grad rules", gr)


def struct_training(ts):
    """A linear-chain CRF tagger trained 20 Adam steps: a Linear layer's emission scores plus a transition matrix as
    LinearChainCRF's potentials, the negative log-likelihood of seeded gold tag sequences (``to_parts``), then
    its parameters' gradients and the decoded tags. (AlignmentCRF needs genbmm's CUDA banded matrices: left out.)"""
    torch.manual_seed(0)
    batch, n, c, features = 4, 7, 3, 5
    emit = torch.nn.Linear(features, c)
    trans = torch.nn.Parameter(torch.zeros(c, c))
    opt = torch.optim.Adam([*emit.parameters(), trans], lr=0.1)
    x = torch.randn(batch, n, features)
    gold = (x[..., 0] > 0).long() + (x[..., 1] > 1).long()
    lengths = torch.tensor([7, 7, 5, 4])
    parts = ts.LinearChainCRF.struct.to_parts(gold, c, lengths=lengths).type_as(x)
    for step in range(20):
        scores = emit(x)
        phi = scores[:, 1:, :, None] + trans[None, None]  # (batch, n - 1, next tag, tag)
        phi = torch.cat([phi[:, :1] + scores[:, :1, None, :], phi[:, 1:]], dim=1)  # the first tag's score
        dist = ts.LinearChainCRF(phi, lengths=lengths)
        loss = -dist.log_prob(parts).mean()
        opt.zero_grad()
        loss.backward()
        print("step", step, "loss", loss.item())
        opt.step()
    grads("emit", emit)
    show("trans grad", trans.grad)
    show("decoded", ts.LinearChainCRF.struct.from_parts(dist.argmax)[0])
    show("gold", gold)


def struct_semirings(ts):
    """A linear chain's partition under each semiring (log, max, std, k-max, entropy, sparse-max, sample...),
    with the gradient of the log semiring's through the checkpointed version too."""
    torch.manual_seed(0)
    phi = torch.randn(2, 5, 3, 3, requires_grad=True)
    chain = ts.LinearChain
    other = torch.randn(2, 5, 3, 3)
    for name in ("LogSemiring", "MaxSemiring", "StdSemiring", "EntropySemiring", "SparseMaxSemiring",
                 "CrossEntropySemiring", "KLDivergenceSemiring"):
        pair = name in ("CrossEntropySemiring", "KLDivergenceSemiring")
        show(name, chain(getattr(ts, name)).sum([phi, other] if pair else phi))
    show("KMaxSemiring(3)", chain(ts.KMaxSemiring(3)).sum(phi))
    marg = chain(ts.LogSemiring).marginals(phi)
    show("log marginals", marg)
    (g,) = torch.autograd.grad(chain(ts.LogSemiring).sum(phi).sum(), phi)
    show("grad", g)
    torch.manual_seed(3)
    show("sampled", chain(ts.MultiSampledSemiring).marginals(phi))


def muon_newton_schulz(muon):
    """Muon's quintic Newton-Schulz orthogonalisation (bfloat16) of seeded matrices, wide, tall and batched, with
    each result's singular values and ``muon_update``'s Nesterov momentum step."""
    torch.manual_seed(0)
    for shape in ((4, 6), (6, 4), (2, 3, 5), (8, 8)):
        g = torch.randn(*shape)
        for steps in (1, 5):
            x = muon.zeropower_via_newtonschulz5(g, steps=steps)
            show(f"NS{steps} {shape}", x)
            show("  singular values", torch.linalg.svdvals(x.float().double()))
    grad, momentum = torch.randn(6, 4), torch.zeros(6, 4)
    for step in range(3):
        show(f"muon_update {step}", muon.muon_update(grad.clone(), momentum, beta=0.9))
        show("  momentum", momentum)


def muon_training(muon):
    """A 2-layer MLP trained 12 steps: SingleDeviceMuon on its hidden weight matrices, then
    SingleDeviceMuonWithAuxAdam (Muon for the matrices, its Adam for the biases and the head), losses and weights."""
    for aux in (False, True):
        torch.manual_seed(0)
        net = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.ReLU(), torch.nn.Linear(16, 16), torch.nn.ReLU(),
                                  torch.nn.Linear(16, 1))
        hidden = [net[0].weight, net[2].weight]
        if aux:
            rest = [net[0].bias, net[2].bias, *net[4].parameters()]
            opt = muon.SingleDeviceMuonWithAuxAdam([dict(params=hidden, use_muon=True, lr=0.02, weight_decay=0.01),
                                                    dict(params=rest, use_muon=False, lr=3e-3)])
        else:
            opt = muon.SingleDeviceMuon(hidden, lr=0.02, momentum=0.9)
        x = torch.randn(32, 6)
        y = (x[:, :1] * x[:, 1:2] - x[:, 2:3]).tanh()
        for step in range(12):
            loss = torch.nn.functional.mse_loss(net(x), y)
            opt.zero_grad()
            loss.backward()
            print("aux" if aux else "muon", "step", step, "loss", loss.item())
            opt.step()
        for key, p in net.named_parameters():
            show(f"  {key}", p)



def vicreg_training(vic):
    """VICReg's model and loss (main_vicreg.py, one process: no gather) on a small MLP backbone registered beside
    its ResNets, trained 10 steps by its LARS (biases and norms excluded from decay and adaptation) under its
    warm-up/cosine schedule, losses, learning rates and weights printed; ``off_diagonal`` on a seeded matrix."""
    import argparse

    torch.manual_seed(0)
    vic.resnet.__dict__["mlp_backbone"] = lambda **kwargs: (torch.nn.Sequential(
        torch.nn.Flatten(), torch.nn.Linear(48, 32), torch.nn.ReLU(), torch.nn.Linear(32, 24)), 24)
    args = argparse.Namespace(arch="mlp_backbone", mlp="32-32-16", batch_size=16, sim_coeff=25.0, std_coeff=25.0,
                              cov_coeff=1.0, base_lr=0.2, epochs=4, wd=1e-6)
    model = vic.VICReg(args)
    opt = vic.LARS(model.parameters(), lr=0, weight_decay=args.wd, weight_decay_filter=vic.exclude_bias_and_norm,
                   lars_adaptation_filter=vic.exclude_bias_and_norm)
    loader = [None] * 2  # (adjust_learning_rate reads the loader's length: two steps an epoch)
    images = torch.randn(16, 3, 4, 4)
    for step in range(10):
        x = images + 0.1 * torch.randn_like(images)
        y = images.flip(-1) + 0.1 * torch.randn_like(images)
        lr = vic.adjust_learning_rate(args, opt, loader, step)
        loss = model(x, y)
        opt.zero_grad()
        loss.backward()
        print("step", step, "lr", lr, "loss", loss.item())
        opt.step()
    grads("vicreg", model)
    for key, p in model.named_parameters():
        show(f"  {key}", p)
    show("off_diagonal", vic.off_diagonal(torch.arange(16.0).reshape(4, 4)))
