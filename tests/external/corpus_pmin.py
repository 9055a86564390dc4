"""Drivers for pytorch-minimize's scripts (``recipes_pmin.py``): each minimizer on seeded problems with its result
printed with every digit (the solution, the value, the gradient, the iteration and evaluation counts), least
squares, the constrained methods, the ``Minimizer`` optimizer, and the MNIST stand-in its example trains on."""

from __future__ import annotations

import types

import torch


def _show(name, t):
    t = torch.as_tensor(t)
    print(name, tuple(t.shape), [float(v) for v in t.detach().reshape(-1)[:12].tolist()])


def _result(name, res):
    """An OptimizeResult's fields, tensors with every digit."""
    print(name, "success", bool(res.get("success", False)), "status", res.get("status"),
          "message", res.get("message"), "nit", res.get("nit"), "nfev", res.get("nfev"))
    for key in ("x", "fun", "grad", "jac"):
        if isinstance(res.get(key), torch.Tensor):
            _show(f"  {key}", res[key])


def rosen(torchmin, method, dtype=torch.float32):
    """``method`` on the Rosenbrock function from three starts (2-D, 5-D, a batch of 3x2), the iterates of the
    first five steps (``return_all``) and a callback's record."""
    from torchmin.benchmarks import rosen as f

    torch.manual_seed(0)
    for x0 in (torch.tensor([-1.2, 1.0], dtype=dtype), torch.zeros(5, dtype=dtype), torch.randn(3, 2, dtype=dtype)):
        res = torchmin.minimize(f, x0, method=method, max_iter=200)
        _result(f"{method} {tuple(x0.shape)} {dtype}", res)
    seen = []
    res = torchmin.minimize(f, torch.tensor([1.0, 8.0], dtype=dtype), method=method, max_iter=5, return_all=True,
                            callback=lambda x: seen.append(float(f(x))))
    _result(f"{method} 5 steps", res)
    print("  callback", seen)
    for i, x in enumerate(res.get("allvecs") or []):
        _show(f"  iterate {i}", x)


def benchmarks(torchmin):
    """The Rosenbrock function, its gradient, Hessian and Hessian-vector product against autograd's."""
    from torchmin.benchmarks import rosen, rosen_der, rosen_hess, rosen_hess_prod

    torch.manual_seed(1)
    for dtype in (torch.float32, torch.float64):
        x = torch.randn(6, dtype=dtype, requires_grad=True)
        p = torch.randn(6, dtype=dtype)
        _show("rosen", rosen(x))
        _show("rosen no reduce", rosen(torch.randn(4, 3, dtype=dtype), reduce=False))
        _show("rosen_der", rosen_der(x.detach()))
        _show("autograd grad", torch.autograd.grad(rosen(x), x)[0])
        _show("rosen_hess", rosen_hess(x.detach()))
        _show("autograd hessian", torch.autograd.functional.hessian(rosen, x.detach()))
        _show("rosen_hess_prod", rosen_hess_prod(x.detach(), p))
        _show("autograd hvp", torch.autograd.functional.hvp(rosen, x.detach(), p)[1])


def quadratic(torchmin):
    """Every method on a seeded ill-conditioned quadratic in float64 and on a least-squares matrix problem."""
    torch.manual_seed(2)
    a = torch.randn(6, 6, dtype=torch.float64)
    h = a @ a.T + 0.1 * torch.eye(6, dtype=torch.float64)
    b = torch.randn(6, dtype=torch.float64)

    def f(x):
        return 0.5 * x @ h @ x - b @ x

    x_star = torch.linalg.solve(h, b)
    _show("solution", x_star)
    x_data, y_data = torch.randn(40, 4), torch.randn(40, 3)
    for method in ("bfgs", "l-bfgs", "cg", "newton-cg", "newton-exact", "dogleg", "trust-ncg", "trust-exact"):
        res = torchmin.minimize(f, torch.zeros(6, dtype=torch.float64), method=method, max_iter=100)
        _result(f"quadratic {method}", res)
        res = torchmin.minimize(lambda w: ((y_data - x_data @ w) ** 2).sum(), torch.zeros(4, 3), method=method,
                                max_iter=30, tol=1e-6)
        _result(f"lstsq {method}", res)


def newton_options(torchmin):
    """Newton with the exact Hessian on a non-convex start under each ``handle_npd`` rule, Tikhonov damping and
    line searches; Newton-CG's ``twice_diffable`` and ``cg_max_iter``."""
    from torchmin.benchmarks import rosen as f

    for npd in ("grad", "cauchy", "eig", "lu"):
        for opts in ({}, {"tikhonov": 1e-3}, {"line_search": "none", "lr": 0.5}):
            x0 = torch.tensor([-0.5, 2.0, 0.7], dtype=torch.float64)
            res = torchmin.minimize(f, x0, method="newton-exact", max_iter=40, options={"handle_npd": npd, **opts})
            _result(f"newton-exact {npd} {opts}", res)
    for opts in ({"twice_diffable": False}, {"cg_max_iter": 2}, {"line_search": "none", "lr": 0.3}):
        res = torchmin.minimize(f, torch.tensor([-1.0, 1.0, 1.5]), method="newton-cg", max_iter=40, options=opts)
        _result(f"newton-cg {opts}", res)
    for opts in ({"max_trust_radius": 0.5}, {"initial_trust_radius": 0.1}):
        for method in ("trust-ncg", "trust-exact", "dogleg"):
            res = torchmin.minimize(f, torch.tensor([-1.0, 1.0, 1.5], dtype=torch.float64), method=method,
                                    max_iter=40, options=opts)
            _result(f"{method} {opts}", res)


def line_search(torchmin):
    """BFGS, L-BFGS and CG with and without the strong-Wolfe line search, L-BFGS's history, BFGS's inverse Hessian
    and printed progress (``disp=2``)."""
    from torchmin.benchmarks import rosen as f

    x0 = torch.tensor([-1.2, 1.0, 0.5, -0.3])
    for method, opts in (("bfgs", {"line_search": "none", "lr": 0.01}), ("bfgs", {"inv_hess": False}),
                         ("l-bfgs", {"history_size": 3}), ("l-bfgs", {"line_search": "none", "lr": 0.005}),
                         ("cg", {"line_search": "strong-wolfe"}), ("bfgs", {"line_search": "strong-wolfe"})):
        res = torchmin.minimize(f, x0, method=method, max_iter=60, options=opts)
        _result(f"{method} {opts}", res)
        if "hess_inv" in res and isinstance(res["hess_inv"], torch.Tensor):
            _show("  hess_inv", res["hess_inv"])
    torchmin.minimize(f, x0, method="bfgs", max_iter=8, disp=2)
    torchmin.minimize(f, x0, method="newton-cg", max_iter=4, disp=2)


def least_squares(torchmin):
    """Trust-region-reflective least squares (lsmr and exact solvers) on a curve fit, with bounds and ``verbose``."""
    torch.manual_seed(3)
    t = torch.linspace(0, 3, 30, dtype=torch.float64)
    y = 2.5 * torch.exp(-1.3 * t) + 0.5 + 0.01 * torch.randn(30, dtype=torch.float64)

    def residual(p):
        return p[0] * torch.exp(-p[1] * t) + p[2] - y

    for solver in ("lsmr", "exact"):
        res = torchmin.least_squares(residual, torch.tensor([1.0, 1.0, 0.0], dtype=torch.float64), tr_solver=solver)
        _result(f"least_squares {solver}", res)
        _show("  cost", res.cost)
        _show("  fun", res.fun)
    res = torchmin.least_squares(residual, torch.tensor([1.0, 1.0, 0.0], dtype=torch.float64),
                                 bounds=(torch.tensor([0.0, 0.0, 0.0], dtype=torch.float64),
                                         torch.tensor([2.0, 5.0, 1.0], dtype=torch.float64)), verbose=2)
    _result("least_squares bounded", res)
    res = torchmin.least_squares(lambda p: torch.stack([10 * (p[1] - p[0] ** 2), 1 - p[0]]),
                                 torch.tensor([-1.2, 1.0]), x_scale=2.0)
    _result("least_squares rosen", res)


def constrained(torchmin):
    """L-BFGS-B with bounds (some active at the solution), Frank-Wolfe on the Birkhoff polytope and in a trace-norm
    ball."""
    from torchmin.benchmarks import rosen as f

    x0 = torch.tensor([-1.0, 1.5, 0.5], dtype=torch.float64)
    for bounds in ((-2.0, 2.0), (torch.tensor([-2.0, 1.2, -1.0], dtype=torch.float64), 3.0), (0.0, 0.5)):
        res = torchmin.minimize_constr(f, x0, method="l-bfgs-b", bounds=bounds, max_iter=100)
        _result(f"l-bfgs-b {bounds}", res)
    torch.manual_seed(4)
    target = torch.rand(4, 4)
    res = torchmin.minimize_constr(lambda x: ((x - target) ** 2).sum(), torch.full((4, 4), 0.25),
                                   method="frank-wolfe", constr="birkhoff", max_iter=50)
    _result("frank-wolfe birkhoff", res)
    m = torch.randn(5, 4, dtype=torch.float64)
    res = torchmin.minimize_constr(lambda x: ((x - m) ** 2).sum(), torch.zeros(5, 4, dtype=torch.float64),
                                   method="frank-wolfe", constr="tracenorm", options={"t": 2.0}, max_iter=40)
    _result("frank-wolfe tracenorm", res)


def minimizer(torchmin):
    """The ``Minimizer`` optimizer over a small network's parameters with each method: the closure's losses and the
    parameters after one ``step``."""
    torch.manual_seed(5)
    x = torch.randn(64, 3)
    y = torch.sin(x[:, :1]) + x[:, 1:2] * x[:, 2:]
    for method in ("bfgs", "l-bfgs", "cg", "newton-cg", "newton-exact", "trust-ncg", "dogleg", "trust-exact"):
        torch.manual_seed(6)
        net = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
        opt = torchmin.Minimizer(net.parameters(), method=method, max_iter=15, tol=1e-8)
        losses = []

        def closure(opt=opt, net=net, losses=losses):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(net(x), y)
            losses.append(float(loss))
            return loss

        loss = opt.step(closure)
        print(method, "final", float(loss), "evaluations", len(losses), losses[:6])
        _show("  weight", net[0].weight)
        _show("  bias", net[2].bias)


def logistic(torchmin):
    """L2-regularised logistic regression on seeded blobs by each method (float64), its accuracy."""
    torch.manual_seed(7)
    x = torch.cat([torch.randn(50, 2) + 1.5, torch.randn(50, 2) - 1.5]).double()
    y = torch.cat([torch.ones(50), torch.zeros(50)]).double()
    x = torch.cat([x, torch.ones(100, 1, dtype=torch.float64)], 1)

    def nll(w):
        return torch.nn.functional.binary_cross_entropy_with_logits(x @ w, y) + 1e-2 * (w[:2] ** 2).sum()

    for method in ("bfgs", "l-bfgs", "newton-cg", "newton-exact", "trust-exact", "trust-ncg", "dogleg", "cg"):
        res = torchmin.minimize(nll, torch.zeros(3, dtype=torch.float64), method=method, max_iter=100)
        _result(f"logistic {method}", res)
        print("  accuracy", float(((x @ res.x > 0).double() == y).double().mean()))


def mnist(train=True):
    """A seeded MNIST stand-in with the real dataset's ``data`` (uint8, N x 28 x 28) and ``targets``: each class a
    blurred prototype plus noise (256 training, 128 test images)."""
    g = torch.Generator().manual_seed(0)
    protos = torch.rand(10, 28, 28, generator=g)
    g.manual_seed(1 if train else 2)
    n = 256 if train else 128
    targets = torch.randint(0, 10, (n,), generator=g)
    images = 0.6 * protos[targets] + 0.4 * torch.rand(n, 28, 28, generator=g)
    return types.SimpleNamespace(data=(images * 255).to(torch.uint8), targets=targets)
