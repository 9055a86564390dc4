"""Drivers for ``recipes_torchode.py`` (our text): torchode's solvers, controllers and adjoints on core.

Each driver builds a seeded problem (a closed-form linear ODE, or a small neural ODE whose vector field is an MLP),
solves it as torchode's README and documentation do (``AutoDiffAdjoint`` with a step method and a step size
controller, ``solve_ivp``, the backsolve adjoints), and prints what a user reads: solutions at the evaluation
points, the solver's statistics, gradients, and the losses of a few Adam steps fitting a trajectory. Floats are
printed in full (``tolist``), so a last-bit difference shows.
"""

from __future__ import annotations

import torch
import torch.nn as nn


def show(label, value):
    """A tensor in full (its shape, dtype and values), a dict of them item by item, anything else as it prints."""
    if isinstance(value, dict):
        for key in sorted(value):
            show(f"{label}.{key}", value[key])
        return
    if isinstance(value, torch.Tensor):
        t = value.detach()
        print(label, tuple(t.shape), t.dtype, t.flatten()[:48].tolist())
        return
    print(label, value)


class Field(nn.Module):
    """The documentation's neural ODE vector field: Linear, Softplus, Linear, Softplus, Linear."""

    def __init__(self, n_features=3, n_hidden=16):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_features, n_hidden), nn.Softplus(), nn.Linear(n_hidden, n_hidden),
                                    nn.Softplus(), nn.Linear(n_hidden, n_features))

    def forward(self, t, y):
        return self.layers(y)


def _method(to, name, term):
    return {"euler": to.Euler, "heun": to.Heun, "dopri5": to.Dopri5, "tsit5": to.Tsit5}[name](term=term)


def _controller(to, kind, term, dtype=torch.float32):
    if kind == "integral":
        return to.IntegralController(atol=1e-6, rtol=1e-3, term=term)
    if kind == "pid":
        return to.PIDController(atol=1e-6, rtol=1e-4, pcoeff=0.2, icoeff=0.5, dcoeff=0.0, term=term)
    return to.FixedStepController()


def linear(to, method="dopri5", controller="integral", dtype=torch.float32):
    """The README's example: dy/dt = -0.5 y from two initial values over two time spans."""
    def f(t, y):
        return -0.5 * y

    y0 = torch.tensor([[1.2], [5.0]], dtype=dtype)
    t_eval = torch.stack((torch.linspace(0, 5, 10, dtype=dtype), torch.linspace(3, 4, 10, dtype=dtype)))
    term = to.ODETerm(f)
    solver = to.AutoDiffAdjoint(_method(to, method, term), _controller(to, controller, term))
    problem = to.InitialValueProblem(y0=y0, t_eval=t_eval)
    dt0 = torch.full((2,), 0.25, dtype=dtype) if controller == "fixed" else None
    sol = solver.solve(problem, dt0=dt0)
    label = f"linear {method} {controller} {dtype}"
    show(label + " ts", sol.ts)
    show(label + " ys", sol.ys)
    show(label + " stats", sol.stats)
    show(label + " status", sol.status)
    exact = y0[:, None] * torch.exp(-0.5 * (t_eval - t_eval[:, :1]))[..., None]
    show(label + " exact error", (sol.ys - exact).abs().max())


def neural(to, method="dopri5", controller="integral", batch=3, steps=3, seed=0):
    """A neural ODE from seeded weights: its solution, the gradients through the solver (AutoDiffAdjoint), and a few
    Adam steps fitting its end state to a seeded target."""
    torch.manual_seed(seed)
    model = Field()
    term = to.ODETerm(model)
    solver = to.AutoDiffAdjoint(_method(to, method, term), _controller(to, controller, term))
    y0 = torch.randn(batch, 3)
    t_eval = torch.tile(torch.linspace(0.0, 1.5, 6), (batch, 1))
    target = torch.randn(batch, 3)
    dt0 = torch.full((batch,), 0.1) if controller == "fixed" else None
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    label = f"neural {method} {controller}"
    for step in range(steps):
        opt.zero_grad()
        sol = solver.solve(to.InitialValueProblem(y0=y0, t_eval=t_eval), dt0=dt0)
        loss = ((sol.ys[:, -1] - target) ** 2).mean()
        loss.backward()
        if step == 0:
            show(label + " ys", sol.ys)
            show(label + " stats", sol.stats)
            for name, p in model.named_parameters():
                show(f"{label} grad {name}", p.grad)
        opt.step()
        print(label, "step", step, "loss", loss.item())


def varying_spans(to, method="tsit5"):
    """Each batch element on its own time span and evaluation points (torchode's parallel stepping), with the
    problem's t_start/t_end given apart from t_eval, and extra arguments passed to the term."""
    torch.manual_seed(1)
    w = torch.randn(4, 4) * 0.5

    def f(t, y, args):
        return torch.tanh(y @ args) * torch.cos(t)[:, None]

    term = to.ODETerm(f, with_args=True)
    y0 = torch.randn(3, 4)
    t_eval = torch.stack([torch.linspace(0.0, 1.0, 5), torch.linspace(0.5, 3.0, 5), torch.linspace(-1.0, 0.0, 5)])
    problem = to.InitialValueProblem(y0=y0, t_start=t_eval[:, 0] - 0.25, t_end=t_eval[:, -1] + 0.25,
                                     t_eval=t_eval)
    solver = to.AutoDiffAdjoint(_method(to, method, term), to.PIDController(atol=1e-7, rtol=1e-5, pcoeff=0.3,
                                                                            icoeff=0.4, dcoeff=0.1, term=term))
    sol = solver.solve(problem, args=w)
    show("spans ys", sol.ys)
    show("spans stats", sol.stats)
    show("spans status", sol.status)
    backwards = to.InitialValueProblem(y0=y0, t_eval=t_eval.flip(1))
    sol = solver.solve(backwards, args=w)
    show("backwards ys", sol.ys)
    show("backwards stats", sol.stats)


def solve_ivp(to):
    """``to.solve_ivp`` with each registered method name, a max_steps limit and a given dt0."""
    def f(t, y):
        return torch.stack((y[:, 1], -torch.sin(y[:, 0]) - 0.1 * y[:, 1]), dim=1)

    y0 = torch.tensor([[1.0, 0.0], [2.5, 0.3]])
    t_eval = torch.tile(torch.linspace(0.0, 4.0, 7), (2, 1))
    for method in ("heun", "dopri5", "tsit5"):
        sol = to.solve_ivp(f, y0, t_eval, method=method)
        show(f"solve_ivp {method} ys", sol.ys)
        show(f"solve_ivp {method} stats", sol.stats)
    sol = to.solve_ivp(f, y0, t_eval, method="tsit5", max_steps=5)
    show("solve_ivp max_steps status", sol.status)
    sol = to.solve_ivp(f, y0, t_eval, method="dopri5", dt0=torch.tensor([0.01, 0.02]),
                       controller=to.IntegralController(atol=1e-5, rtol=1e-5, term=to.ODETerm(f)))
    show("solve_ivp dt0 ys", sol.ys)
    show("solve_ivp dt0 stats", sol.stats)


def backsolve(to, joint=False, batch=2):
    """Gradients by solving the adjoint equations backwards (BacksolveAdjoint with torch.func's vjp and vmap, or
    JointBacksolveAdjoint with autograd), next to AutoDiffAdjoint's on the same problem."""
    torch.manual_seed(2)
    model = Field(n_features=2, n_hidden=8)
    term = to.ODETerm(model)
    y0 = torch.randn(batch, 2, requires_grad=True)
    t_eval = torch.tile(torch.linspace(0.0, 1.0, 4), (batch, 1))
    problem = to.InitialValueProblem(y0=y0, t_eval=t_eval)
    step = to.Dopri5(term=term)
    control = to.IntegralController(atol=1e-7, rtol=1e-6, term=term)
    kind = "JointBacksolveAdjoint" if joint else "BacksolveAdjoint"
    adjoint = getattr(to, kind)(term, step, control)
    for label, solver in ((kind, adjoint), ("AutoDiffAdjoint", to.AutoDiffAdjoint(step, control))):
        model.zero_grad()
        y0.grad = None
        sol = solver.solve(problem)
        sol.ys.pow(2).sum().backward()
        show(f"{label} ys", sol.ys)
        show(f"{label} y0 grad", y0.grad)
        for name, p in model.named_parameters():
            show(f"{label} grad {name}", p.grad)


def interpolation(to):
    """Dense output: a solution evaluated at many points between few steps (each method's interpolation)."""
    def f(t, y):
        return torch.stack((-y[:, 1], y[:, 0]), dim=1)

    y0 = torch.tensor([[1.0, 0.0], [0.0, 2.0]], dtype=torch.float64)
    t_eval = torch.tile(torch.linspace(0.0, 6.0, 25, dtype=torch.float64), (2, 1))
    for method in ("euler", "heun", "dopri5", "tsit5"):
        term = to.ODETerm(f)
        controller = to.FixedStepController() if method == "euler" else \
            to.IntegralController(atol=1e-4, rtol=1e-4, term=term)
        solver = to.AutoDiffAdjoint(_method(to, method, term), controller)
        dt0 = torch.full((2,), 0.05, dtype=torch.float64) if method == "euler" else None
        sol = solver.solve(to.InitialValueProblem(y0=y0, t_eval=t_eval), dt0=dt0)
        show(f"interp {method} ys", sol.ys)
        show(f"interp {method} stats", sol.stats)
