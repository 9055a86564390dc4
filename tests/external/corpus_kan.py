"""Drivers for pykan's package (``recipes_kan.py``): B-splines, KANLayer, MultKAN's grids, regularisers, symbolic
fits, pruning and training, values printed in full (our text).

Each driver takes the package's names as ``kan`` (the script's ``import kan``, loaded from its folder). Models are
built with ``auto_save=False`` (no checkpoint files) unless a driver checks checkpoints.
"""

from __future__ import annotations

import torch


def _show(name, value):
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            _show(f"{name}[{i}]", v)
        return
    if not isinstance(value, torch.Tensor):
        print(name, repr(value))
        return
    print(name, value.dtype, tuple(value.shape), value.tolist() if value.numel() <= 48 else
          [value.sum().item(), value.abs().max().item(), value.flatten()[:8].tolist()])


def _dataset(kan, n_var=2, train_num=200, seed=0, f=None):
    f = f or (lambda x: torch.exp(torch.sin(torch.pi * x[:, [0]]) + x[:, [1]] ** 2))
    return kan.create_dataset(f, n_var=n_var, train_num=train_num, test_num=100, seed=seed)


def splines(kan):
    """B_batch of several orders, coef2curve, curve2coef's least squares, extend_grid, and their gradients."""
    from kan.spline import B_batch, coef2curve, curve2coef, extend_grid
    torch.manual_seed(0)
    grid = torch.linspace(-1, 1, 6)[None, :].expand(3, 6)
    ext = extend_grid(grid, k_extend=3)
    _show("extended grid", ext)
    x = (torch.rand(20, 3) * 2 - 1).requires_grad_(True)
    _show("B_batch k=0", B_batch(x, grid, k=0).float())  # (a product of comparisons: no gradient)
    for k in range(1, 4):
        basis = B_batch(x, extend_grid(grid, k_extend=k), k=k)
        _show(f"B_batch k={k}", basis)
        _show(f"B_batch k={k} grad", torch.autograd.grad(basis.pow(2).sum(), x)[0])
    coef = torch.randn(3, 2, 8)
    curve = coef2curve(x, ext, coef, k=3)
    _show("coef2curve", curve)
    _show("coef2curve grad", torch.autograd.grad(curve.sum(), x)[0])
    y = torch.sin(3 * x.detach())[:, :, None].expand(20, 3, 2) * torch.tensor([1.0, -0.5])
    fitted = curve2coef(x.detach(), y, ext, k=3)
    _show("curve2coef", fitted)
    _show("curve2coef residual", coef2curve(x.detach(), ext, fitted, k=3) - y)


def layer(kan, **kwargs):
    """A KANLayer's forward (its four outputs), gradients of its parameters, grid updates from samples and from a
    parent layer."""
    from kan.KANLayer import KANLayer
    torch.manual_seed(0)
    lay = KANLayer(in_dim=3, out_dim=2, num=5, k=3, **kwargs)
    x = torch.randn(16, 3)
    y, preacts, postacts, postspline = lay(x)
    for name, t in (("y", y), ("preacts", preacts), ("postacts", postacts), ("postspline", postspline)):
        _show(f"layer {name}", t)
    y.pow(2).mean().backward()
    for name, p in lay.named_parameters():
        _show(f"layer {name}", p.detach())
        if p.grad is not None:
            _show(f"layer {name} grad", p.grad)
    lay.update_grid_from_samples(x * 1.5)
    _show("layer grid after update", lay.grid)
    _show("layer coef after update", lay.coef.detach())
    _show("layer forward after update", lay(x)[0])
    fine = KANLayer(in_dim=3, out_dim=2, num=10, k=3)
    fine.initialize_grid_from_parent(lay, x)
    _show("fine grid", fine.grid)
    _show("fine coef", fine.coef.detach())
    sub = lay.get_subset([0, 2], [1])
    _show("subset forward", sub(x[:, [0, 2]])[0])


def model(kan, width=(2, 5, 1), **kwargs):
    """A KAN's forward, its cached activations, attribution scores and each regulariser with gradients."""
    net = kan.KAN(width=list(width), grid=5, k=3, seed=1, auto_save=False, **kwargs)
    data = _dataset(kan, n_var=width[0] if isinstance(width[0], int) else width[0][0])
    out = net(data["train_input"][:32])
    _show("forward", out)
    _show("acts", [a for a in net.acts])
    net.attribute()
    _show("feature_score", net.feature_score)
    _show("edge_scores", net.edge_scores)
    for metric in ("edge_forward_spline_n", "edge_forward_sum", "edge_forward_spline_u", "edge_backward",
                   "node_backward"):
        net.zero_grad()
        out = net(data["train_input"][:32])
        if metric == "edge_backward":
            net.attribute()
        if metric == "node_backward":
            net.node_attribute()
        reg = net.get_reg(metric, 1.0, 2.0, 0.1, 0.1)
        (out.pow(2).mean() + 0.01 * reg).backward()
        _show(f"reg {metric}", reg.detach())
        _show(f"reg {metric} grads", [p.grad for p in net.get_params() if p.grad is not None])


def train(kan, opt="LBFGS", steps=4, width=(2, 5, 1), grid=5, auto_save=False, **fit):
    """A KAN fitted to exp(sin(pi x) + y^2) by ``opt``: the fit's recorded losses (each digit), parameters after
    (``auto_save``: checkpoints in ``./model``, which ``refine`` and ``prune`` log to)."""
    net = kan.KAN(width=list(width), grid=grid, k=3, seed=1, auto_save=auto_save)
    data = _dataset(kan, n_var=width[0] if isinstance(width[0], int) else width[0][0])
    results = net.fit(data, opt=opt, steps=steps, **fit)
    for key, values in results.items():
        print(key, [float(v) for v in values])
    for name, p in net.named_parameters():
        _show(f"trained {name}", p.detach())
    _show("trained test forward", net(data["test_input"][:8]))
    return net, data


def grids(kan):
    """Grid updates from samples, refinement to finer grids (training in between), and a grid extension."""
    net, data = train(kan, steps=3, auto_save=True)
    net.update_grid_from_samples(data["train_input"] * 0.8)
    _show("grid 0", net.act_fun[0].grid)
    _show("after grid update", net(data["test_input"][:8]))
    for g in (10, 20):
        net = net.refine(g)
        _show(f"refined {g} forward", net(data["test_input"][:8]))
        results = net.fit(data, opt="LBFGS", steps=2)
        print("refined", g, [float(v) for v in results["train_loss"]])


def symbolic(kan):
    """fix_symbolic's fitted affine parameters (its grid search and least squares), suggest_symbolic, auto_symbolic
    on a small library, the symbolic formula and the symbolic model's forward."""
    net, data = train(kan, steps=4, width=(2, 1, 1), lamb=0.001)
    net.get_act(data["train_input"])
    print(net.fix_symbolic(0, 0, 0, "sin", verbose=False))
    _show("affine", net.symbolic_fun[0].affine.detach())
    print(net.suggest_symbolic(0, 1, 0, lib=["x", "x^2", "sin", "exp", "tanh"], verbose=False))
    net.auto_symbolic(lib=["x", "x^2", "sin", "exp"], verbose=1)
    _show("symbolic forward", net(data["test_input"][:8]))
    formula, variables = net.symbolic_formula()
    print("formula", [kan.ex_round(f, 4) for f in formula], variables)


def prune(kan):
    """Training with regularisation, then pruning nodes, edges and inputs: the pruned widths, masks and forwards."""
    net, data = train(kan, steps=4, width=(3, 5, 1), auto_save=True, lamb=0.01)
    net.attribute()
    _show("node scores", net.node_scores)
    pruned = net.prune(node_th=0.05, edge_th=0.05)
    print("pruned width", pruned.width)
    _show("pruned forward", pruned(data["test_input"][:8]))
    _show("masks", [m.detach() for m in [lay.mask for lay in pruned.act_fun]])
    inputs = net.prune_input(threshold=0.05)
    print("inputs kept", inputs.width, inputs.input_id.tolist())


def mult(kan):
    """A MultKAN with multiplication nodes (width [[2, 0], [2, 1], [1, 0]]): forward, training, node scores."""
    net, data = train(kan, steps=3, width=([2, 0], [2, 1], [1, 0]))
    net.attribute()
    _show("mult node scores", net.node_scores)
    _show("mult subnode scores", net.subnode_scores)
    _show("mult n_sum n_mult", [torch.tensor(net.width_in), torch.tensor(net.width_out)])


def hessian(kan):
    """utils' batch_jacobian, batch_hessian and get_derivative's Hessian of the loss (create_graph)."""
    from kan.utils import batch_hessian, batch_jacobian, get_derivative, model2param
    net = kan.KAN(width=[2, 3, 1], grid=3, k=3, seed=0, auto_save=False)
    data = _dataset(kan, train_num=16)
    x = data["train_input"][:6]
    _show("jacobian", batch_jacobian(net, x))
    _show("hessian", batch_hessian(net, x))
    _show("param count", model2param(net).shape[0])
    h = get_derivative(net, data["train_input"], data["train_label"], derivative="hessian")
    _show("loss hessian", h)
