"""Drivers for e3nn's and torchsde's own packages (``recipes_e3nn.py``; our text).

A recipe fetches one of the package's modules (``e3nn/__init__.py``, ``torchsde/__init__.py``) as its script, with
the packages beside it, and appends calls to the drivers here. They use the libraries as their documentation and
tests do: seeded inputs, small irreps and SDEs, and every number printed to full precision (``show``: tensors to 6
decimals and their sum), so both runs are compared digit for digit.
"""

from __future__ import annotations

import torch
from corpus_pyro import attempt, show

# e3nn ------------------------------------------------------------------------------------------------------------


def e3nn_irreps():
    """``o3.Irreps``' algebra: parsing, simplify, sort, dimensions, slices, and its products and spherical harmonics."""
    from e3nn import o3

    irreps = o3.Irreps("3x0e + 2x1o + 0e + 2e + 1o")
    for name, value in [("irreps", irreps), ("dim", irreps.dim), ("num_irreps", irreps.num_irreps),
                        ("simplify", irreps.simplify()), ("sort", irreps.sort().irreps), ("ls", irreps.ls),
                        ("lmax", irreps.lmax), ("slices", irreps.slices()), ("spherical_harmonics",
                        o3.Irreps.spherical_harmonics(3)), ("mul", 2 * o3.Irreps("1o")),
                        ("filter", irreps.filter(keep=["0e", "1o"])), ("count", irreps.count("1o")),
                        ("product", list(o3.Irrep("1o") * o3.Irrep("2e"))), ("repr", repr(irreps))]:
        print(name, value)


def e3nn_rotations():
    """Rotations in each parametrisation and back, Wigner D matrices of each ``l`` and the 3j symbols."""
    from e3nn import o3

    torch.manual_seed(0)
    R = o3.rand_matrix(3)
    show("rand_matrix", R)
    a, b, c = o3.matrix_to_angles(R)
    show("angles", torch.stack([a, b, c]))
    show("angles_to_matrix", o3.angles_to_matrix(a, b, c))
    show("quaternion", o3.matrix_to_quaternion(R))
    show("axis_angle", torch.cat([*o3.matrix_to_axis_angle(R)[:1], o3.matrix_to_axis_angle(R)[1][:, None]], 1))
    show("compose", torch.stack(o3.compose_angles(a, b, c, c, b, a)))
    show("xyz_to_angles", torch.stack(o3.xyz_to_angles(torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]]))))
    for l in range(4):
        show(f"wigner_D_{l}", o3.wigner_D(l, a, b, c))
        show(f"Irrep_{l}o_D", o3.Irrep(l, -1).D_from_matrix(-R))
    for ls in [(1, 1, 0), (1, 1, 2), (1, 2, 3), (2, 2, 2)]:
        show(f"wigner_3j{ls}", o3.wigner_3j(*ls))
    show("irreps_D", o3.Irreps("2x0e + 1o + 2e").D_from_angles(a, b, c))


def e3nn_spherical_harmonics():
    """Spherical harmonics up to ``l = 4`` in each normalisation, with gradients, and their equivariance."""
    from e3nn import o3

    torch.manual_seed(1)
    x = torch.randn(5, 3, requires_grad=True)
    for normalization in ("integral", "component", "norm"):
        y = o3.spherical_harmonics(list(range(5)), x, normalize=True, normalization=normalization)
        show(f"sh_{normalization}", y)
    y = o3.spherical_harmonics("0e + 1o + 2e", x, normalize=False)
    y.pow(2).sum().backward()
    show("sh_grad", x.grad)
    R = o3.rand_matrix()
    irreps = o3.Irreps.spherical_harmonics(3)
    lhs = o3.spherical_harmonics(irreps, x.detach() @ R.T, True)
    rhs = o3.spherical_harmonics(irreps, x.detach(), True) @ irreps.D_from_matrix(R).T
    print("sh equivariant", bool((lhs - rhs).abs().max() < 1e-5))
    show("sh_alpha_beta", o3.spherical_harmonics_alpha_beta([0, 1, 2], torch.tensor([0.3, 1.2]), torch.tensor([0.7,
                                                                                                              2.0])))
    show("legendre", o3.Legendre([0, 1, 2, 3])(torch.tensor([0.1, 0.5, -0.7]), torch.tensor([0.9, 0.8, 0.6])))


def e3nn_tensor_products():
    """``FullyConnectedTensorProduct``, ``ElementwiseTensorProduct``, ``FullTensorProduct``, a custom
    ``TensorProduct``'s instructions, ``o3.Linear`` and ``o3.Norm``: forward values, weight gradients, one SGD step."""
    from e3nn import o3

    torch.manual_seed(2)
    irreps_1, irreps_2 = o3.Irreps("2x0e + 1o + 2e"), o3.Irreps("0e + 1o")
    x1, x2 = irreps_1.randn(4, -1), irreps_2.randn(4, -1)
    cases = [("fctp", o3.FullyConnectedTensorProduct(irreps_1, irreps_2, "3x0e + 2x1o + 1e + 2e")),
             ("elementwise", o3.ElementwiseTensorProduct("0e + 1o + 2e", "1o + 1o + 0e")),
             ("full", o3.FullTensorProduct(irreps_1, irreps_2)),
             ("tp_uvu", o3.TensorProduct(irreps_1, irreps_2, "2x0e + 1o + 2e + 0e",
                                         [(0, 0, 0, "uvu", True), (1, 1, 3, "uvu", True), (1, 0, 1, "uvu", True),
                                          (2, 0, 2, "uvu", False)], internal_weights=True)),
             ("tp_component", o3.FullyConnectedTensorProduct(irreps_1, irreps_2, "0e + 1o",
                                                             irrep_normalization="norm", path_normalization="path"))]
    for name, tp in cases:
        print(name, tp, tp.weight_numel)
        a = x1 if name != "elementwise" else o3.Irreps("0e + 1o + 2e").randn(4, -1)
        b = x2 if name != "elementwise" else o3.Irreps("1o + 1o + 0e").randn(4, -1)
        out = tp(a, b)
        show(f"{name}.out", out)
        if tp.weight_numel:
            out.pow(2).mean().backward()
            show(f"{name}.weight_grad", tp.weight.grad)
    lin = o3.Linear("2x0e + 1o + 2e", "3x0e + 2x1o")
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    for step in range(3):
        loss = lin(x1).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("linear loss", step, repr(loss.item()))
    show("norm", o3.Norm(irreps_1)(x1))
    show("tp right", o3.FullyConnectedTensorProduct(irreps_1, irreps_2, "0e + 1o", compile_right=True).right(x2))


def e3nn_nn():
    """``nn.Gate``, ``nn.BatchNorm`` (train and eval), ``nn.NormActivation``, ``nn.Activation``,
    ``nn.FullyConnectedNet``, ``nn.Dropout`` and ``nn.Extract`` on seeded features, with gradients."""
    from e3nn import nn, o3

    torch.manual_seed(3)
    gate = nn.Gate("4x0e + 2x0o", [torch.relu, torch.abs], "3x0e + 1x0o", [torch.sigmoid, torch.tanh], "3x1o + 1x2e")
    x = gate.irreps_in.randn(5, -1, requires_grad=True)
    y = gate(x)
    show("gate", y)
    y.pow(2).sum().backward()
    show("gate grad", x.grad)
    bn = nn.BatchNorm("3x0e + 2x1o + 2e", affine=True, instance=False)
    z = bn.irreps.randn(6, -1)
    show("batchnorm train", bn(z))
    show("batchnorm running_mean", bn.running_mean)
    show("batchnorm running_var", bn.running_var)
    bn.eval()
    show("batchnorm eval", bn(z))
    show("instance norm", nn.BatchNorm("2x0e + 1o", instance=True, normalization="norm")(o3.Irreps("2x0e + 1o").randn(
        2, 7, -1)))
    show("norm activation", nn.NormActivation("2x0e + 1o + 2e", torch.sigmoid)(o3.Irreps("2x0e + 1o + 2e").randn(3,
                                                                                                              -1)))
    show("activation", nn.Activation("2x0e + 0o", [torch.tanh, torch.tanh])(o3.Irreps("2x0e + 0o").randn(3, -1)))
    fc = nn.FullyConnectedNet([3, 8, 8, 2], torch.nn.functional.silu)
    print(fc)
    show("fc", fc(torch.randn(4, 3)))
    drop = nn.Dropout("2x0e + 1o", p=0.5)
    show("dropout", drop(o3.Irreps("2x0e + 1o").randn(4, -1)))
    show("extract", nn.Extract("1e + 0e + 0e", ["0e", "1e"], [(1,), (0,)])(torch.arange(5.0)))


def e3nn_math_io():
    """``math.soft_one_hot_linspace`` in each basis, ``soft_unit_step``, ``normalize2mom``, Bessel functions, the
    reduced-tensor and Cartesian-tensor change of basis (``io.CartesianTensor``), ``SphericalTensor``."""
    from e3nn import io, math, o3

    x = torch.linspace(-1.0, 2.0, 7)
    for basis in ("gaussian", "cosine", "smooth_finite", "fourier", "bessel"):
        for cutoff in (True, False):
            show(f"soft_one_hot {basis} {cutoff}", math.soft_one_hot_linspace(x, -0.5, 1.5, 5, basis, cutoff))
    show("soft_unit_step", math.soft_unit_step(x))
    torch.manual_seed(4)
    act = math.normalize2mom(torch.tanh)
    show("normalize2mom", act(x))
    print("normalize2mom cst", repr(float(act.cst)))
    show("bessel", math.soft_one_hot_linspace(x, 0.0, 2.0, 4, "bessel", True))
    ct = io.CartesianTensor("ij=ji")
    print("cartesian", ct)
    t = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0], [3.0, 5.0, 6.0]])
    show("from_cartesian", ct.from_cartesian(t))
    show("to_cartesian", ct.to_cartesian(ct.from_cartesian(t)))
    ct3 = io.CartesianTensor("ijk=-jik=-ikj")
    print("antisym", ct3)
    irreps, Q = o3.ReducedTensorProducts("ij=-ji", i="1o")
    print("reduced", irreps)
    show("reduced Q", Q)
    st = io.SphericalTensor(2, 1, -1)
    print("spherical tensor", st)
    show("with_peaks_at", st.with_peaks_at(torch.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])))
    show("signal_xyz", st.signal_xyz(st.randn(2, -1, normalization="norm"), torch.tensor([[1.0, 0.0, 0.0]])))
    show("norm_act", st.norm(st.randn(3, -1)))


def e3nn_equivariance():
    """``util.test.assert_equivariant`` and ``equivariance_error`` on e3nn's gate-points network and a tensor
    product, with seeded random rotations, parities and translations."""
    from e3nn import o3
    from e3nn.util.test import equivariance_error

    torch.manual_seed(5)
    tp = o3.FullyConnectedTensorProduct("2x0e + 1o", "1o + 1e", "0e + 1o + 1e + 2e")
    errors = equivariance_error(tp, args_in=[tp.irreps_in1.randn(3, -1), tp.irreps_in2.randn(3, -1)],
                                irreps_in=[tp.irreps_in1, tp.irreps_in2], irreps_out=[tp.irreps_out])
    for key, value in sorted(errors.items(), key=str):
        print("equivariance", key, bool(value.max() < 1e-5))


def e3nn_fx_codegen():
    """The ``torch.fx`` code e3nn generates: the traced graph of a tensor product (``opt_einsum_fx`` optimised), its
    ``GraphModule``'s code and its result against the instructions' eager loop."""
    import e3nn
    from e3nn import o3

    torch.manual_seed(6)
    for specialized in (True, False):
        for optimize in (True, False):
            e3nn.set_optimization_defaults(specialized_code=specialized, optimize_einsums=optimize)
            tp = o3.FullyConnectedTensorProduct("2x0e + 1o", "0e + 1o", "0e + 1o + 1e")
            x1, x2 = tp.irreps_in1.randn(3, -1), tp.irreps_in2.randn(3, -1)
            show(f"fx {specialized} {optimize}", tp(x1, x2))
    e3nn.set_optimization_defaults(specialized_code=True, optimize_einsums=True)


# torchsde --------------------------------------------------------------------------------------------------------


class _SDE(torch.nn.Module):
    """A small neural SDE of each noise type, as torchsde's README and tests write them."""

    def __init__(self, noise_type, sde_type, d=3, m=2):
        super().__init__()
        self.noise_type, self.sde_type, self.d, self.m = noise_type, sde_type, d, m
        self.mu = torch.nn.Linear(d, d)
        self.sigma = torch.nn.Linear(d, d * m if noise_type == "general" else 1 if noise_type == "scalar" else d)

    def f(self, t, y):
        return torch.sin(t) * torch.tanh(self.mu(y))

    def g(self, t, y):
        s = torch.sigmoid(self.sigma(y))
        if self.noise_type == "general":
            return s.view(-1, self.d, self.m)
        if self.noise_type == "scalar":
            return s.unsqueeze(-1).expand(-1, self.d, 1)
        if self.noise_type == "additive":
            return torch.sigmoid(self.sigma.bias).expand(y.size(0), self.d).unsqueeze(-1) * torch.eye(self.d)
        return s


def sde_methods(adaptive=False):
    """``sdeint`` with each method its noise type allows, on a seeded Brownian interval; ``adaptive``: Euler's and
    the midpoint method's adaptive steps (step-doubling error estimates) instead."""
    import torchsde

    cases = [("diagonal", "ito", ["euler", "milstein", "srk"]),
             ("diagonal", "stratonovich", ["midpoint", "heun", "euler_heun", "milstein", "reversible_heun"]),
             ("scalar", "ito", ["euler", "milstein", "srk"]), ("additive", "ito", ["euler", "srk"]),
             ("general", "ito", ["euler"]), ("general", "stratonovich", ["midpoint", "reversible_heun"])]
    ts = torch.linspace(0.0, 1.0, 5)
    for noise, sde_type, methods in cases:
        torch.manual_seed(7)
        sde = _SDE(noise, sde_type)
        y0 = torch.full((2, 3), 0.1)
        m = 1 if noise == "scalar" else sde.m if noise == "general" else 3
        for method in methods if not adaptive else ():
            levy = "space-time" if method == "srk" else "none"
            bm = torchsde.BrownianInterval(0.0, 1.0, (2, m), entropy=11, levy_area_approximation=levy)
            with torch.no_grad():
                attempt(f"{noise} {sde_type} {method}", torchsde.sdeint, sde, y0, ts, bm=bm, method=method, dt=0.05)
        for method in methods[:1] if adaptive and methods[0] in ("euler", "midpoint") else ():
            bm = torchsde.BrownianInterval(0.0, 1.0, (2, m), entropy=12)
            with torch.no_grad():
                attempt(f"{noise} {sde_type} {method} adaptive", torchsde.sdeint, sde, y0, ts, bm=bm, method=method,
                        dt=0.1, adaptive=True, rtol=1e-3, atol=1e-4)


def sde_gradients():
    """Gradients through ``sdeint`` (backpropagation through the solver) and ``sdeint_adjoint`` with the adjoint
    methods, and ``logqp`` (the latent SDE's KL term)."""
    import torchsde

    ts = torch.linspace(0.0, 0.5, 3)
    for name, method, adjoint_method, sde_type in [("euler", "euler", "euler", "ito"),
                                                  ("milstein", "milstein", "milstein", "ito"),
                                                  ("midpoint", "midpoint", "midpoint", "stratonovich"),
                                                  ("reversible_heun", "reversible_heun", "adjoint_reversible_heun",
                                                   "stratonovich")]:
        for adjoint in (False, True):
            torch.manual_seed(8)
            sde = _SDE("diagonal", sde_type)
            y0 = torch.full((2, 3), 0.2, requires_grad=True)
            bm = torchsde.BrownianInterval(0.0, 0.5, (2, 3), entropy=13)
            if adjoint:
                ys = torchsde.sdeint_adjoint(sde, y0, ts, bm=bm, method=method, adjoint_method=adjoint_method,
                                             dt=0.05)
            else:
                ys = torchsde.sdeint(sde, y0, ts, bm=bm, method=method, dt=0.05)
            ys[-1].pow(2).sum().backward()
            show(f"{name} adjoint={adjoint} ys", ys)
            show(f"{name} adjoint={adjoint} y0.grad", y0.grad)
            show(f"{name} adjoint={adjoint} mu.grad", sde.mu.weight.grad)


def sde_brownian():
    """``BrownianInterval``, ``BrownianTree`` and ``BrownianPath`` queried at seeded entropy, with Levy areas, and
    ``brownian_interval_like``; the increments come from torch's generator, so the numbers are torch's bit for bit."""
    import torchsde

    for levy in ("none", "space-time", "davie", "foster"):
        bm = torchsde.BrownianInterval(0.0, 1.0, (2, 3), entropy=21, levy_area_approximation=levy)
        show(f"interval {levy} W", bm(0.2, 0.7))
        if levy != "none":
            show(f"interval {levy} W,H", bm(0.1, 0.4, return_U=True))
        if levy in ("davie", "foster"):
            show(f"interval {levy} W,H,A", bm(0.3, 0.9, return_U=True, return_A=True))
        show(f"interval {levy} point", bm(0.5))
    bm = torchsde.BrownianInterval(0.0, 1.0, (3,), entropy=22, tol=1e-6, cache_size=4, halfway_tree=True)
    show("interval halfway", torch.stack([bm(0.1 * i, 0.1 * i + 0.1) for i in range(10)]))
    tree = torchsde.BrownianTree(0.0, torch.zeros(2, 2), t1=1.0, entropy=23, tol=1e-4)
    show("tree", torch.stack([tree(t) for t in (0.1, 0.5, 0.9, 0.25)]))
    path = torchsde.BrownianPath(0.0, torch.zeros(2, 2), entropy=24)
    show("path", torch.stack([path(t) for t in (0.3, 0.1, 0.8)]))
    like = torchsde.brownian_interval_like(torch.zeros(2, 3), t1=2.0, entropy=25)
    show("interval_like", like(0.5, 1.5))
