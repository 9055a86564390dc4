"""Drivers for Torch-Pruning's and geoopt's own Python packages (``recipes_pruning.py``; our text).

A recipe fetches one of the library's own files (a test script, an example, a package module) with the package
beside it, and appends calls to the drivers here; the runner loads the package from the script's folder in both
runs (``runner._fetched_packages``). The drivers call the library as its README, tutorials and tests do, on seeded
models and inputs, and print what a user reads: pruned shapes, parameter and MAC counts, importance scores, a
manifold's points, distances and an optimizer's iterates, at float32's precision (values below 1 to 7 decimals,
others to 8 significant digits: a value that is the small difference of larger ones, as a layer's output, keeps
the absolute error of its terms, which summation order sets; sums are of absolute values, to 9 digits).
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


def full(name, value, n=8) -> None:
    """``value`` (a tensor, or tuples/lists/dicts of them) as the module docstring says: shape, dtype, the first
    ``n`` values, the sum of absolute values."""
    if isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value):
        for i, v in enumerate(value):
            full(f"{name}[{i}]", v, n)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            full(f"{name}.{k}", v, n)
        return
    if not isinstance(value, torch.Tensor):
        print(name, type(value).__name__, value)
        return
    t = value.detach()
    if t.dtype == torch.bool or not t.is_floating_point():
        print(name, tuple(t.shape), str(t.dtype).replace("torch.", ""), t.flatten()[:n].tolist())
        return
    first = " ".join(f"{v:.7f}" if abs(v) < 1 else f"{v:.8g}" for v in t.flatten()[:n].tolist())
    total = t.double().abs().sum().item() if t.numel() else 0.0
    print(name, tuple(t.shape), str(t.dtype).replace("torch.", ""), f"[{first}]", f"abs-sum {total:.9g}")


def shapes(name, model) -> None:
    """Every parameter's shape, and the parameter count."""
    print(name, "parameters", sum(p.numel() for p in model.parameters()))
    for key, p in model.named_parameters():
        print(" ", key, tuple(p.shape))


def each(calls) -> None:
    """``calls``: ``name, function`` pairs, each called and its result shown (an exception is shown too)."""
    for name, fn in calls:
        try:
            full(name, fn())
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:150] if str(exc) else "")


# Torch-Pruning ------------------------------------------------------------------------------------------------------
class SmallNet(nn.Module):
    """A CNN with what Torch-Pruning's dependency graph must follow: conv-BN-ReLU, a residual add, a channel
    concatenation, a depthwise conv, a flatten into a linear layer and a GroupNorm."""

    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                   nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16))
        self.branch = nn.Conv2d(16, 8, 1)
        self.depthwise = nn.Conv2d(24, 24, 3, padding=1, groups=24)
        self.norm = nn.GroupNorm(4, 24)
        self.head = nn.Conv2d(24, 32, 3, stride=2, padding=1)
        self.fc1 = nn.Linear(32 * 4 * 4, 64)
        self.act = nn.PReLU()
        self.fc2 = nn.Linear(64, classes)

    def forward(self, x):
        x = self.stem(x)
        x = F.relu(x + self.block(x))
        x = torch.cat([x, self.branch(x)], dim=1)
        x = self.norm(self.depthwise(x))
        x = F.max_pool2d(F.relu(self.head(x)), 2)
        x = self.act(self.fc1(torch.flatten(x, 1)))
        return self.fc2(x)


def small_net(seed=0):
    torch.manual_seed(seed)
    model = SmallNet()
    with torch.no_grad():  # BN scales and shifts away from their defaults, so BN importance ranks channels
        for m in model.modules():
            if isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                m.weight.uniform_(0.2, 1.5)
                m.bias.uniform_(-0.3, 0.3)
    return model


def inputs(shape=(2, 3, 16, 16), seed=1):
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed))


def tp_graph():
    """The dependency graph of ``SmallNet``: every node's module, its ``grad_fn`` name and its dependencies, then
    every pruning group of the graph, as ``DependencyGraph`` traces them through ``grad_fn.next_functions``."""
    import torch_pruning as tp

    model, x = small_net(), inputs()
    DG = tp.DependencyGraph().build_dependency(model, example_inputs=x)
    for node in DG.module2node.values():
        grad_fn = type(node.grad_fn).__name__ if node.grad_fn is not None else None
        print(node.name, grad_fn, node.type, [n.name for n in node.inputs], [n.name for n in node.outputs])
        print("   deps", [str(d) for d in node.dependencies])
    for group in DG.get_all_groups(ignored_layers=[model.fc2], root_module_types=[nn.Conv2d, nn.Linear]):
        print(group)
        print("   pruning dims", [DG.get_out_channels(dep.target.module) if DG.is_out_channel_pruning_fn(dep.handler)
                                  else DG.get_in_channels(dep.target.module) for dep, _ in group])
    group = DG.get_pruning_group(model.stem[0], tp.prune_conv_out_channels, idxs=[0, 3, 5, 7])
    print(group.details())
    print("prunable", DG.check_pruning_group(group))
    group.prune()
    shapes("after stem group", model)
    full("output", model(x))


def _score_group(name, imp, DG, model):
    for i, group in enumerate(DG.get_all_groups(ignored_layers=[model.fc2], root_module_types=[nn.Conv2d, nn.Linear])):
        try:
            full(f"{name} group{i} {group[0][0].target.name}", imp(group))
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, i, "raised", type(exc).__name__, str(exc).splitlines()[0][:150])


def tp_importances():
    """Every importance criterion on every group of ``SmallNet``: magnitudes (p=1, 2; each group reduction and
    normaliser), LAMP, FPGM, BN scale, Taylor (after a loss's backward), Hessian (per-sample gradients accumulated),
    random (torch's seeded generator)."""
    import torch_pruning as tp

    model, x = small_net(), inputs()
    y = torch.tensor([1, 7])
    DG = tp.DependencyGraph().build_dependency(model, example_inputs=x)
    imps = [("l2", tp.importance.MagnitudeImportance(p=2)), ("l1", tp.importance.MagnitudeImportance(p=1))]
    for reduction in ["sum", "max", "prod", "first", "gate"]:
        imps.append((f"l2_{reduction}", tp.importance.GroupMagnitudeImportance(p=2, group_reduction=reduction)))
    for normalizer in ["max", "sum", "gaussian", "standarization", "lamp", None]:
        imps.append((f"l2_norm_{normalizer}", tp.importance.MagnitudeImportance(p=2, normalizer=normalizer)))
    imps += [("l2_bias", tp.importance.MagnitudeImportance(p=2, bias=True)),
             ("lamp", tp.importance.LAMPImportance(p=2)), ("fpgm", tp.importance.FPGMImportance()),
             ("bn_scale", tp.importance.BNScaleImportance())]
    for name, imp in imps:
        _score_group(name, imp, DG, model)
    F.cross_entropy(model(x), y).backward()
    for name, imp in [("taylor", tp.importance.TaylorImportance()),
                      ("taylor_multivariable", tp.importance.TaylorImportance(multivariable=True)),
                      ("taylor_max", tp.importance.GroupTaylorImportance(group_reduction="max", normalizer="max"))]:
        _score_group(name, imp, DG, model)
    hessian = tp.importance.HessianImportance()
    losses = F.cross_entropy(model(x), y, reduction="none")
    hessian.zero_grad()
    for loss in losses:
        model.zero_grad()
        loss.backward(retain_graph=True)
        hessian.accumulate_grad(model)
    _score_group("hessian", hessian, DG, model)
    torch.manual_seed(0)
    _score_group("random", tp.importance.RandomImportance(), DG, model)


def _prune(name, pruner_cls, imp, steps=2, train=None, **kw):
    import torch_pruning as tp

    model, x = small_net(), inputs()
    y = torch.tensor([1, 7])
    pruner = pruner_cls(model, x, importance=imp, iterative_steps=steps, ignored_layers=[model.fc2], **kw)
    base_macs, base_params = tp.utils.count_ops_and_params(model, x)
    print(name, "base", base_macs, base_params)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(steps):
        if train or isinstance(imp, tp.importance.GroupTaylorImportance):
            for _ in range(train or 1):
                optimizer.zero_grad()
                loss = F.cross_entropy(model(x), y)
                loss.backward()
                if hasattr(pruner, "regularize") and train:
                    pruner.update_regularizer() if hasattr(pruner, "update_regularizer") else None
                    pruner.regularize(model)
                optimizer.step()
                print(name, "loss", f"{loss.item():.9g}")
            optimizer.zero_grad()
            F.cross_entropy(model(x), y).backward()
        pruner.step()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.05)  # the pruned model's parameters
        macs, params = tp.utils.count_ops_and_params(model, x)
        print(name, "step", step, "current ratio", pruner.current_step, macs, params)
    shapes(name, model)
    full(f"{name} output", model(x))
    for key, p in list(model.named_parameters())[:6]:
        full(f"{name} {key}", p)


def tp_pruners(names):
    """MetaPruner (local and global, isomorphic, round_to, max ratio), MagnitudePruner on Taylor scores,
    BNScalePruner and GroupNormPruner with their sparsity regularisation during a few SGD steps, GrowingRegPruner:
    the pruned shapes, MAC and parameter counts, outputs and weights. ``names``: which of them run."""
    import torch_pruning as tp

    L2 = tp.importance.MagnitudeImportance
    runs = {
        "meta": lambda: _prune("meta", tp.pruner.MetaPruner, L2(p=2), pruning_ratio=0.5),
        "meta_global": lambda: _prune("meta_global", tp.pruner.MetaPruner, L2(p=2), pruning_ratio=0.4,
                                      global_pruning=True),
        "meta_isomorphic": lambda: _prune("meta_isomorphic", tp.pruner.MetaPruner, L2(p=2), pruning_ratio=0.4,
                                          global_pruning=True, isomorphic=True),
        "meta_round_to": lambda: _prune("meta_round_to", tp.pruner.MetaPruner, L2(p=1), pruning_ratio=0.3, round_to=4),
        "magnitude_taylor": lambda: _prune("magnitude_taylor", tp.pruner.MagnitudePruner,
                                           tp.importance.TaylorImportance(), pruning_ratio=0.5, max_pruning_ratio=0.6),
        "bn_scale": lambda: _prune("bn_scale", tp.pruner.BNScalePruner, tp.importance.BNScaleImportance(),
                                   pruning_ratio=0.5, train=2, reg=1e-3),
        "group_norm": lambda: _prune("group_norm", tp.pruner.GroupNormPruner,
                                     tp.importance.GroupMagnitudeImportance(p=2), pruning_ratio=0.5, train=2, reg=1e-3),
        "growing_reg": lambda: _prune("growing_reg", tp.pruner.GrowingRegPruner,
                                      tp.importance.GroupMagnitudeImportance(p=2), pruning_ratio=0.5, train=2,
                                      reg=1e-4, delta_reg=1e-4),
    }
    for name in names:
        runs[name]()


def tp_functions():
    """The low-level pruning functions on single layers (``tp.prune_conv_out_channels`` and friends), the
    ``tp.utils`` helpers and the model's state saved and loaded with ``tp.state_dict``/``tp.load_state_dict``."""
    import io

    import torch_pruning as tp

    torch.manual_seed(0)
    layers = [("conv_out", nn.Conv2d(4, 6, 3), "prune_conv_out_channels", [0, 2]),
              ("conv_in", nn.Conv2d(4, 6, 3), "prune_conv_in_channels", [1]),
              ("deconv_out", nn.ConvTranspose2d(4, 6, 2), "prune_conv_out_channels", [3, 4]),
              ("linear_out", nn.Linear(5, 7), "prune_linear_out_channels", [0, 6]),
              ("linear_in", nn.Linear(5, 7), "prune_linear_in_channels", [2]),
              ("bn", nn.BatchNorm2d(6), "prune_batchnorm_out_channels", [1, 2]),
              ("ln", nn.LayerNorm(6), "prune_layernorm_out_channels", [5]),
              ("gn", nn.GroupNorm(2, 6), "prune_groupnorm_out_channels", [0, 1]),
              ("prelu", nn.PReLU(6), "prune_prelu_out_channels", [3]),
              ("embedding", nn.Embedding(10, 6), "prune_embedding_out_channels", [0, 4]),
              ("lstm", nn.LSTM(4, 6), "prune_lstm_out_channels", [1]),
              ("mha", nn.MultiheadAttention(8, 2), "prune_multihead_attention_out_channels", [0, 4])]
    for name, layer, fn, idxs in layers:
        try:
            getattr(tp.pruner.function, fn)(layer, idxs)
            print(name, layer, sorted((k, tuple(v.shape)) for k, v in layer.state_dict().items()))
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:150])
    model, x = small_net(), inputs()
    print("params", tp.utils.count_params(model))
    print("ops", tp.utils.count_ops_and_params(model, x, layer_wise=False))
    macs, params, layer_macs, layer_params = tp.utils.count_ops_and_params(model, x, layer_wise=True)
    print(macs, params, sorted((type(k).__name__, v) for k, v in layer_macs.items())[:12])
    pruner = tp.pruner.MetaPruner(model, x, importance=tp.importance.MagnitudeImportance(), pruning_ratio=0.25,
                                  ignored_layers=[model.fc2])
    pruner.step()
    buffer = io.BytesIO()
    torch.save(tp.state_dict(model), buffer)
    buffer.seek(0)
    fresh = small_net(seed=5)
    tp.load_state_dict(fresh, torch.load(buffer, weights_only=False))
    shapes("loaded", fresh)
    print("same output", torch.equal(fresh(x), model(x)))
    full("loaded output", fresh(x))


def tp_torchvision(names, size=32):
    """torchvision's models (its own package beside the script) pruned by half with L2 magnitudes, the classifier
    kept: the MAC and parameter counts before and after, the pruned shapes' parameter count and the output."""
    import torch_pruning as tp
    import torchvision.models as models

    for name in names:
        torch.manual_seed(0)
        model = getattr(models, name)(num_classes=10).eval()
        with torch.no_grad():  # BN statistics and affine terms away from their defaults: the output is not ~0
            for m in model.modules():
                if isinstance(m, nn.BatchNorm2d):
                    m.running_mean.uniform_(-0.1, 0.1)
                    m.running_var.uniform_(0.5, 1.5)
                    m.weight.uniform_(0.5, 1.5)
                    m.bias.uniform_(-0.1, 0.1)
        x = inputs((1, 3, size, size))
        ignored = [m for m in model.modules() if isinstance(m, nn.Linear) and m.out_features == 10]
        pruner = tp.pruner.MetaPruner(model, x, importance=tp.importance.MagnitudeImportance(p=2), pruning_ratio=0.5,
                                      ignored_layers=ignored, round_to=8)
        base = tp.utils.count_ops_and_params(model, x)
        pruner.step()
        print(name, base, tp.utils.count_ops_and_params(model, x))
        full(f"{name} output", model(x))


def tp_vit(prune_num_heads):
    """torchvision's VisionTransformer at a small size (its own package), pruned as Torch-Pruning's torchvision
    example prunes it: ``num_heads`` from each attention, head dimensions or whole heads removed, ``hidden_dim``
    written back; the MACs, parameters, each layer's attention sizes and the output, before and after."""
    import torch_pruning as tp
    from torchvision.models.vision_transformer import VisionTransformer

    torch.manual_seed(0)
    model = VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=4, hidden_dim=64, mlp_dim=128,
                              num_classes=10).eval()
    with torch.no_grad():
        model.heads.head.weight.normal_(0, 0.2)  # (torchvision initialises the head to zero)
    x = inputs((2, 3, 32, 32))
    full("before", model(x))
    num_heads = {m: m.num_heads for m in model.modules() if isinstance(m, nn.MultiheadAttention)}
    imp = tp.importance.GroupMagnitudeImportance(p=2)
    pruner = tp.pruner.MetaPruner(model, x, importance=imp, pruning_ratio=0.5, global_pruning=False,
                                  ignored_layers=[model.heads], num_heads=num_heads, prune_num_heads=prune_num_heads,
                                  prune_head_dims=not prune_num_heads, head_pruning_ratio=0.5,
                                  output_transform=lambda out: out.sum())
    base = tp.utils.count_ops_and_params(model, x)
    pruner.step()
    for m in model.modules():
        if isinstance(m, nn.MultiheadAttention):
            if prune_num_heads:
                m.num_heads = pruner.num_heads[m]
            m.head_dim = m.embed_dim // m.num_heads
            print("attention", m.embed_dim, m.num_heads, m.head_dim, tuple(m.in_proj_weight.shape))
    model.hidden_dim = model.conv_proj.out_channels
    print("counts", base, tp.utils.count_ops_and_params(model, x))
    shapes("vit", model)
    full("after", model(x))


def tp_custom_and_rnn():
    """Torch-Pruning on what its tests cover beyond CNNs: a token model with a layer norm, an
    attention block (``nn.MultiheadAttention``) over tokens, a model with two inputs and two outputs, unwrapped
    ``nn.Parameter``s (a learnable positional embedding and a scale) and ``interactive`` pruning of each group."""
    import torch_pruning as tp

    class Tokens(nn.Module):
        def __init__(self):
            super().__init__()
            self.pos = nn.Parameter(torch.randn(1, 6, 32) * 0.02)
            self.attn = nn.MultiheadAttention(32, 4, batch_first=True)
            self.norm = nn.LayerNorm(32)
            self.ff = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32))
            self.proj = nn.Linear(32, 24)
            self.scale = nn.Parameter(torch.ones(24))
            self.out = nn.Linear(24, 5)

        def forward(self, ids):
            h = ids + self.pos
            h = self.norm(h + self.attn(h, h, h, need_weights=False)[0])
            h = h + self.ff(h)
            return self.out(self.proj(h).mean(1) * self.scale)

    class TwoWay(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(6, 16)
            self.b = nn.Linear(4, 16)
            self.mix = nn.Linear(16, 12)
            self.out1 = nn.Linear(12, 3)
            self.out2 = nn.Linear(12, 2)

        def forward(self, x, y):
            h = F.relu(self.mix(F.relu(self.a(x)) * torch.sigmoid(self.b(y))))
            return self.out1(h), self.out2(h)

    torch.manual_seed(0)
    model = Tokens()
    ids = torch.randn(3, 6, 32)
    full("tokens before", model(ids))
    pruner = tp.pruner.MetaPruner(model, ids, importance=tp.importance.MagnitudeImportance(p=2), pruning_ratio=0.5,
                                  ignored_layers=[model.out, model.attn], num_heads={model.attn: 4},
                                  unwrapped_parameters=[(model.pos, 2), (model.scale, 0)])
    for group in pruner.step(interactive=True):
        print(group.details())
        group.prune()
    shapes("tokens", model)
    full("tokens after", model(ids))
    torch.manual_seed(0)
    model = TwoWay()
    x, y = torch.randn(5, 6), torch.randn(5, 4)
    pruner = tp.pruner.MetaPruner(model, (x, y), importance=tp.importance.MagnitudeImportance(p=1), pruning_ratio=0.5,
                                  ignored_layers=[model.out1, model.out2],
                                  output_transform=lambda outs: outs[0].sum() + outs[1].sum())
    pruner.step()
    shapes("two way", model)
    full("two way after", model(x, y))


# geoopt -------------------------------------------------------------------------------------------------------------
class _Report:
    """A pytest plugin that prints each test's outcome (its id, then ``ok``, ``skipped`` and the reason, or the
    exception's type and first line) and nothing else: pytest's own report holds timings."""

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome != "passed":
            if report.outcome == "passed":
                print(report.nodeid.split("::", 1)[1], "ok")
            elif report.outcome == "skipped":
                reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
                print(report.nodeid.split("::", 1)[1], report.when, "skipped:", reason[:120])
            else:
                crash = getattr(report.longrepr, "reprcrash", None)
                message = crash.message.splitlines()[0][:150] if crash is not None else str(report.longrepr)[:150]
                print(report.nodeid.split("::", 1)[1], report.when, "failed:", message)

    def pytest_collectreport(self, report):
        if report.outcome != "passed":
            print("collection", report.outcome, str(report.longrepr).splitlines()[-1][:150])


def run_pytest(path, *args):
    """The test module at ``path`` (the script itself) run by pytest as its CI runs it, in this process (so
    ``import torch`` is whichever library the run aliases), with only ``_Report``'s lines printed: pytest's
    terminal output, cache, conftest files above the script's folder and the repository's configuration stay out."""
    import os

    import pytest

    folder = os.path.dirname(os.path.abspath(path))
    ini = os.path.join(folder, "pytest.ini")
    with open(ini, "w") as f:
        f.write("[pytest]\n")
    code = pytest.main([os.path.abspath(path), "-c", ini, "--rootdir", folder, "--confcutdir", folder,
                        "-p", "no:terminal", "-p", "no:cacheprovider", "-p", "no:randomly", "-W", "ignore", *args],
                       plugins=[_Report()])
    print("exit code", int(code))


def _manifold_calls(man, x, u, v):
    """``name, function`` pairs: a manifold's maps at ``x`` with tangent vectors ``u`` and ``v``."""
    return [("projx", lambda: man.projx(x)), ("proju", lambda: u), ("egrad2rgrad", lambda: man.egrad2rgrad(x, v)),
            ("retr", lambda: man.retr(x, u)), ("expmap", lambda: man.expmap(x, u)),
            ("inner", lambda: man.inner(x, u, v)), ("norm", lambda: man.norm(x, u)),
            ("transp", lambda: man.transp(x, man.retr(x, u), v)), ("retr_transp", lambda: man.retr_transp(x, u, v)),
            ("logmap", lambda: man.logmap(x, man.expmap(x, u))), ("dist", lambda: man.dist(x, man.expmap(x, u)))]


def geo_manifolds():
    """Each of geoopt's manifolds (Sphere, Stiefel, canonical Stiefel, PoincareBall, Stereographic, Lorentz, SPD,
    Birkhoff, Euclidean, Product, Scaled): a seeded random point and tangent vector, the projection, retraction,
    exponential and logarithmic maps, the transport, the inner product and the distance where it has them."""
    import geoopt

    torch.manual_seed(0)
    cases = [("sphere", geoopt.Sphere(), (3, 4)), ("stiefel", geoopt.EuclideanStiefel(), (5, 3)),
             ("canonical_stiefel", geoopt.CanonicalStiefel(), (5, 3)), ("ball", geoopt.PoincareBall(c=1.3), (4, 3)),
             ("stereographic", geoopt.Stereographic(k=0.7), (4, 3)), ("lorentz", geoopt.Lorentz(k=1.5), (4, 3)),
             ("spd", geoopt.SymmetricPositiveDefinite(), (2, 3, 3)), ("birkhoff", geoopt.BirkhoffPolytope(), (2, 3, 3)),
             ("euclidean", geoopt.Euclidean(ndim=1), (2, 3)),
             ("product", geoopt.ProductManifold((geoopt.Sphere(), 3), (geoopt.PoincareBall(), 2)), (4, 5)),
             ("scaled", geoopt.Scaled(geoopt.Sphere(), 2.0), (3, 4))]
    for name, man, shape in cases:
        print(name, man)
        x = man.projx(torch.randn(shape).double() * 0.3)
        if name in ("spd",):
            x = man.random(*shape, dtype=torch.float64)
        u = man.proju(x, torch.randn(shape).double() * 0.3)
        v = man.proju(x, torch.randn(shape).double() * 0.3)
        print(name, "point ok", man.check_point_on_manifold(x), "vector ok", man.check_vector_on_tangent(x, u))
        calls = _manifold_calls(man, x, u, v)
        for call, fn in calls:
            try:
                full(f"{name} {call}", fn())
            except Exception as exc:  # the failure is the output, in both libraries
                print(name, call, "raised", type(exc).__name__, str(exc).splitlines()[0][:150] if str(exc) else "")


def geo_optimizers():
    """geoopt's RiemannianSGD (plain, momentum, Nesterov, stabilised) and RiemannianAdam (plain, amsgrad) on a
    Rayleigh quotient over the sphere and a PCA over the Stiefel manifold, ManifoldParameters in a module with a
    Euclidean one beside them; each loss and the iterates, and the optimizer's state dict."""
    import geoopt

    torch.manual_seed(0)
    a = torch.randn(6, 6)
    a = a @ a.t()
    for name, make in [("sgd", lambda ps: geoopt.optim.RiemannianSGD(ps, lr=0.05)),
                       ("sgd_momentum", lambda ps: geoopt.optim.RiemannianSGD(ps, lr=0.05, momentum=0.9,
                                                                              dampening=0.1, weight_decay=1e-3)),
                       ("sgd_nesterov", lambda ps: geoopt.optim.RiemannianSGD(ps, lr=0.05, momentum=0.9, nesterov=True,
                                                                              stabilize=2)),
                       ("adam", lambda ps: geoopt.optim.RiemannianAdam(ps, lr=0.05)),
                       ("adam_amsgrad", lambda ps: geoopt.optim.RiemannianAdam(ps, lr=0.05, amsgrad=True,
                                                                               weight_decay=1e-3, stabilize=3))]:
        torch.manual_seed(1)
        module = nn.Module()
        module.v = geoopt.ManifoldParameter(geoopt.Sphere().random(6), manifold=geoopt.Sphere())
        module.w = geoopt.ManifoldParameter(geoopt.EuclideanStiefel().random(6, 2), manifold=geoopt.Stiefel())
        module.b = nn.Parameter(torch.zeros(2))
        optimizer = make(module.parameters())
        for step in range(8):
            optimizer.zero_grad()
            loss = -(module.v @ a @ module.v) - torch.trace(module.w.t() @ a @ module.w) + (module.b - 1).pow(2).sum()
            loss.backward()
            optimizer.step()
            print(name, step, f"{loss.item():.6f}")
        full(f"{name} v", module.v)
        full(f"{name} w", module.w)
        full(f"{name} b", module.b)
        print(name, "on sphere", module.v.manifold.check_point_on_manifold(module.v), type(module.v).__name__,
              "state", sorted(optimizer.state_dict()["state"][0]))


def geo_tensors_and_layers():
    """ManifoldTensor/ManifoldParameter as a user meets them: repr, manifold methods through the tensor, proj_,
    copy, deepcopy and pickling, a module's state dict, arithmetic results' types; the stereographic datasets and
    the Poincare ball's Mobius operations with their gradients."""
    import copy
    import io

    import geoopt

    torch.manual_seed(0)
    ball = geoopt.PoincareBall(c=1.0)
    t = geoopt.ManifoldTensor(torch.randn(3, 2) * 0.2, manifold=ball)
    print(t)
    print(repr(t * 2), type(t + 1).__name__, type(t.detach()).__name__, type(t.clone()).__name__)
    p = geoopt.ManifoldParameter(t)
    print(p, p.manifold, p.requires_grad, type(p.data).__name__)
    full("expmap0", p.expmap(torch.randn(3, 2) * 0.1))
    full("dist0", ball.dist0(p))
    q = copy.deepcopy(p)
    print(type(q).__name__, q.manifold, torch.equal(q, p))
    buffer = io.BytesIO()
    torch.save({"p": p}, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=False)["p"]
    print(type(loaded).__name__, loaded.manifold, torch.equal(loaded, p))
    x = (torch.randn(4, 2) * 0.3).requires_grad_()
    y = (torch.randn(4, 2) * 0.3).requires_grad_()
    out = ball.mobius_add(x, y) + ball.mobius_scalar_mul(torch.tensor(0.7), x)
    out = out + ball.mobius_matvec(torch.randn(2, 2), y)
    full("mobius", out)
    ball.dist(x, y).sum().backward()
    full("dist grad x", x.grad)
    full("dist grad y", y.grad)
    full("geodesic", ball.geodesic(torch.linspace(0, 1, 3)[:, None, None], x, y))
    full("weighted_midpoint", ball.weighted_midpoint(x.detach(), weights=torch.tensor([0.1, 0.2, 0.3, 0.4])))
    full("dist2plane", ball.dist2plane(x.detach(), y.detach(), torch.randn(4, 2)))
    full("wrapped normal", ball.wrapped_normal(3, 2, mean=torch.zeros(2)))
    full("random normal", ball.random_normal(3, 2))
