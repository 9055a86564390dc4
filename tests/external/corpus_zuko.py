"""Drivers for zuko's package (``recipes_zuko.py``), called from ``zuko/__init__.py`` run beside the package.

Each driver builds zuko's flows, transforms and distributions on seeded data and prints, at full precision, what a
user reads off them: training losses, log-densities, samples (seeded), rsample gradients, a transform's values,
inverses and log-determinants. A call that raises prints the exception's type and message.
"""

from __future__ import annotations

import torch


def show(name, value):
    """``name`` and a tensor's values (or a list's) at full precision."""
    if isinstance(value, torch.Tensor):
        value = value.detach().tolist()
    elif isinstance(value, (tuple, list)):
        value = [v.detach().tolist() if isinstance(v, torch.Tensor) else v for v in value]
    print(name, value)


def guard(fn):
    """``fn()``, or the exception it raises printed (the script's next calls run)."""
    try:
        fn()
    except Exception as exc:
        print("raises", type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "")


def _moons(n=64, seed=0):
    """Two seeded noisy half circles (a stand-in for scikit-learn's make_moons) and their labels as contexts."""
    g = torch.Generator().manual_seed(seed)
    label = torch.randint(0, 2, (n,), generator=g)
    angle = torch.rand(n, generator=g) * torch.pi
    x = torch.stack([torch.cos(angle) - label, torch.sin(angle) * (1 - 2 * label) - 0.5 * label], dim=-1)
    return x + 0.1 * torch.randn(n, 2, generator=g), label.unsqueeze(-1).to(x.dtype)


def flow(zuko, make, steps=4, conditional=True, lr=1e-2, rsample=True):
    """``make()``'s flow trained ``steps`` SGD steps with momentum on seeded moons (conditioned on the moon's label),
    its losses, then log-densities, seeded samples and the gradient of an rsample. (SGD: Adam divides by torch's
    float32 sqrt, MKL's vector sqrt, an ulp off in some elements on an AMD CPU; GF's bisection inverse and CNF's
    adaptive steps amplify that past the comparison's tolerance.)"""
    torch.manual_seed(0)
    model = make()
    x, c = _moons()
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for step in range(steps):
        dist = model(c) if conditional else model()
        loss = -dist.log_prob(x).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("step", step, repr(loss.item()))
    with torch.no_grad():
        dist = model(c[:4]) if conditional else model()
        show("log_prob", dist.log_prob(x[:4]))
        torch.manual_seed(1)
        show("sample", dist.sample((3,)).flatten()[:12])
    if rsample:
        dist = model(c[:4]) if conditional else model()
        if dist.has_rsample:
            model.zero_grad()
            torch.manual_seed(2)
            dist.rsample().square().sum().backward()
            show("rsample grad", next(p for p in model.parameters() if p.grad is not None).grad.flatten()[:8])


def transforms(zuko):
    """zuko.transforms' transforms at seeded parameters: values, inverses and log-determinants (float64)."""
    T = zuko.transforms
    torch.manual_seed(0)
    x = torch.randn(5, 3, dtype=torch.float64)
    cases = [
        ("affine", lambda: T.MonotonicAffineTransform(torch.randn(3, dtype=torch.float64),
                                                      torch.randn(3, dtype=torch.float64))),
        ("rqs", lambda: T.MonotonicRQSTransform(*torch.randn(3, 3, 8, dtype=torch.float64)[:, :, :8].unbind(0)[:2],
                                                torch.randn(3, 7, dtype=torch.float64))),
        ("bernstein", lambda: T.BernsteinTransform(torch.randn(3, 8, dtype=torch.float64))),
        ("bounded_bernstein", lambda: T.BoundedBernsteinTransform(torch.randn(3, 8, dtype=torch.float64))),
        ("sos", lambda: T.SOSPolynomialTransform(torch.randn(3, 2, 4, dtype=torch.float64))),
        ("gaussianization", lambda: T.GaussianizationTransform(torch.randn(3, 4, dtype=torch.float64),
                                                               torch.randn(3, 4, dtype=torch.float64))),
        ("softclip", lambda: T.SoftclipTransform(bound=2.0)),
        ("circular_shift", lambda: T.CircularShiftTransform(bound=3.0)),
        ("signed_power", lambda: T.SignedPowerTransform(torch.rand(3, dtype=torch.float64) + 0.5)),
        ("additive", lambda: T.AdditiveTransform(torch.randn(3, dtype=torch.float64))),
        ("permutation", lambda: T.PermutationTransform(torch.tensor([2, 0, 1]))),
        ("rotation", lambda: T.RotationTransform(torch.randn(3, 3, dtype=torch.float64))),
        ("lu", lambda: T.LULinearTransform(torch.randn(3, 3, dtype=torch.float64))),
        ("composed", lambda: T.ComposedTransform(T.SoftclipTransform(3.0),
                                                 T.MonotonicAffineTransform(torch.ones(3, dtype=torch.float64),
                                                                            torch.zeros(3, dtype=torch.float64)))),
        ("dependent", lambda: T.DependentTransform(T.SignedPowerTransform(torch.full((3,), 1.5, dtype=torch.float64)),
                                                   1)),
    ]
    for name, make in cases:
        def one(name=name, make=make):
            t = make()
            y = t(x)
            show(f"{name} y", y)
            show(f"{name} inv", t.inv(y))
            show(f"{name} ladj", t.log_abs_det_jacobian(x, y))
            if hasattr(t, "call_and_ladj"):
                show(f"{name} call_and_ladj", t.call_and_ladj(x)[1])
        guard(one)


def distributions(zuko):
    """zuko.distributions' distributions: log-densities of seeded points, seeded samples (and rsample gradients)."""
    D = zuko.distributions
    torch.manual_seed(0)
    base = D.DiagNormal(torch.zeros(2), torch.ones(2))
    cases = [
        ("diag_normal", lambda: D.DiagNormal(torch.randn(2), torch.rand(2) + 0.5)),
        ("box_uniform", lambda: D.BoxUniform(-torch.ones(2), torch.ones(2))),
        ("generalized_normal", lambda: torch.distributions.Independent(D.GeneralizedNormal(torch.tensor([1.5, 3.0])),
                                                                       1)),
        ("joint", lambda: D.Joint(torch.distributions.Uniform(0.0, 1.0), torch.distributions.Normal(0.0, 2.0))),
        ("mixture", lambda: D.Mixture(D.DiagNormal(torch.randn(3, 2), torch.ones(3, 2)), torch.randn(3))),
        ("truncated", lambda: D.Truncated(torch.distributions.Normal(0.0, 1.0), -1.0, 2.0)),
        ("sort", lambda: D.Sort(torch.distributions.Normal(0.0, 1.0), 3)),
        ("topk", lambda: D.TopK(torch.distributions.Normal(0.0, 1.0), 2, 4)),
        ("minimum", lambda: D.Minimum(torch.distributions.Normal(0.0, 1.0), 3)),
        ("maximum", lambda: D.Maximum(torch.distributions.Normal(0.0, 1.0), 3)),
        ("flow", lambda: D.NormalizingFlow(zuko.transforms.SoftclipTransform(2.0), base)),
        ("transformed_uniform", lambda: D.TransformedUniform(zuko.transforms.SoftclipTransform(2.0),
                                                             -torch.ones(2), torch.ones(2))),
    ]
    for name, make in cases:
        def one(name=name, make=make):
            torch.manual_seed(3)
            d = make()
            s = d.sample((4,))
            show(f"{name} sample", s)
            show(f"{name} log_prob", d.log_prob(s))
            if d.has_rsample:
                show(f"{name} rsample", d.rsample((2,)))
            print(name, repr(d).splitlines()[0])
        guard(one)


def mixtures(zuko):
    """zuko.mixtures.GMM, unconditional and conditional, full and diagonal covariance, trained a few steps."""
    flow(zuko, lambda: zuko.mixtures.GMM(2, 1, components=3), rsample=False)
    flow(zuko, lambda: zuko.mixtures.GMM(2, components=4, covariance_type="diagonal"), conditional=False,
         rsample=False)
    flow(zuko, lambda: zuko.mixtures.GMM(2, 1, components=2, covariance_type="spherical", epsilon=1e-4),
         rsample=False)


def bayesian(zuko):
    """zuko.bayesian.BayesianModel: a variational MLP's sampled forward passes and KL under its reparametrization."""
    torch.manual_seed(0)
    net = zuko.nn.MLP(3, 1, hidden_features=[8])
    model = zuko.bayesian.BayesianModel(net, init_logvar=-6.0)
    x = torch.randn(4, 3)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(3):
        with model.reparameterize() as sampled:
            y = sampled(x)
        loss = (y - 1).square().mean() + 1e-3 * model.kl_divergence()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("step", step, repr(loss.item()))
    with model.reparameterize(local_trick=True) as sampled:
        show("local trick", sampled(x))


def utils(zuko):
    """zuko.utils: bisection, broadcasting, Gauss-Legendre quadrature and the adaptive ODE integrator with its
    adjoint gradient."""
    U = zuko.utils
    f = lambda x: torch.tanh(x) + x ** 3  # noqa: E731
    y = torch.linspace(-2, 2, 5, dtype=torch.float64)
    guard(lambda: show("bisection", U.bisection(f, y, torch.full_like(y, -3.0), torch.full_like(y, 3.0), n=40)))
    guard(lambda: show("broadcast", [t.shape for t in U.broadcast(torch.zeros(2, 1), torch.ones(3), ignore=0)]))
    a = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
    guard(lambda: show("gauss_legendre", U.gauss_legendre(lambda x: torch.exp(-a * x ** 2), torch.zeros(2,
                       dtype=torch.float64), torch.ones(2, dtype=torch.float64), n=8)))

    def ode():
        w = torch.tensor([[0.0, 1.0], [-1.0, -0.1]], dtype=torch.float64, requires_grad=True)
        x0 = torch.tensor([1.0, 0.0], dtype=torch.float64, requires_grad=True)
        x1 = U.odeint(lambda t, x: x @ w.T * (1 + 0.1 * t), x0, 0.0, 2.0, phi=(w,), atol=1e-8, rtol=1e-8)
        x1.sum().backward()
        show("odeint", [x1, x0.grad, w.grad])
    guard(ode)
