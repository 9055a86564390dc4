"""Drivers for ``recipes_meta.py`` (our text): meta-learning and differentiable optimisation on core.

Each driver builds a small seeded network, adapts it on seeded regression or classification tasks through the
library (higher's differentiable optimizers and patched modules, learn2learn's MAML, MetaSGD, GBML, learnable
optimizers), differentiates the query loss through the inner steps (second-order autograd: ``create_graph=True``
through the updates) and prints what a user reads: inner and meta losses, adapted parameters and meta-gradients as
digests that show a last-bit difference: shape, dtype, the exact sum and absolute sum (``math.fsum`` of the float64
values, so no summation order of ours enters) and the first values in full.
"""

from __future__ import annotations

import math

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


def _grads(label, module):
    for name, p in module.named_parameters():
        show(f"{label} {name}", p.grad)


def _mlp(inputs=4, hidden=16, outputs=1, seed=0, act="Tanh"):
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(inputs, hidden), getattr(torch.nn, act)(),
                               torch.nn.Linear(hidden, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, outputs))


def _tasks(count=3, shots=8, inputs=4, seed=1, dtype=None):
    """``count`` seeded regression tasks: (support x, support y, query x, query y), y = a * sin(x @ w + b)."""
    g = torch.Generator().manual_seed(seed)
    tasks = []
    for _ in range(count):
        w, a, b = torch.randn(inputs, 1, generator=g), torch.rand(1, generator=g) * 2 + 0.5, torch.rand(1, generator=g)
        xs, xq = torch.randn(shots, inputs, generator=g), torch.randn(shots, inputs, generator=g)
        task = (xs, a * torch.sin(xs @ w + b), xq, a * torch.sin(xq @ w + b))
        tasks.append(task if dtype is None else tuple(t.to(dtype) for t in task))
    return tasks


def _classes(count=2, ways=3, shots=4, channels=1, size=28, seed=2):
    """``count`` seeded few-shot image tasks: (support x, support labels, query x, query labels)."""
    g = torch.Generator().manual_seed(seed)
    tasks = []
    for _ in range(count):
        means = torch.randn(ways, channels, size, size, generator=g)
        labels = torch.arange(ways).repeat_interleave(shots)
        xs = means[labels] + 0.5 * torch.randn(ways * shots, channels, size, size, generator=g)
        xq = means[labels] + 0.5 * torch.randn(ways * shots, channels, size, size, generator=g)
        tasks.append((xs, labels, xq, labels.clone()))
    return tasks


# --- higher ---------------------------------------------------------------------------------------------------------

def higher_inner(opt_name, steps=3, outer=2, track=True, copy_initial_weights=False, dtype=None, act="Tanh",
                 **opt_kwargs):
    """MAML with higher: ``opt_name``'s differentiable form adapts the MLP on each task's support set ``steps``
    times, the query losses' meta-gradients (through the inner steps) train the MLP with Adam ``outer`` times."""
    import higher

    model = _mlp(act=act).to(dtype or torch.float32)
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    print("higher", opt_name, opt_kwargs, "track", track, "copy", copy_initial_weights, dtype, act)
    for outer_step in range(outer):
        meta_opt.zero_grad()
        inner_opt = getattr(torch.optim, opt_name)(model.parameters(), **opt_kwargs)
        total = 0.0
        for i, (xs, ys, xq, yq) in enumerate(_tasks(dtype=dtype)):
            with higher.innerloop_ctx(model, inner_opt, copy_initial_weights=copy_initial_weights,
                                      track_higher_grads=track) as (fmodel, diffopt):
                for step in range(steps):
                    loss = torch.nn.functional.mse_loss(fmodel(xs), ys)
                    show(f"outer {outer_step} task {i} inner {step} loss", loss)
                    diffopt.step(loss)
                query = torch.nn.functional.mse_loss(fmodel(xq), yq)
                show(f"outer {outer_step} task {i} query", query)
                if outer_step == outer - 1 and i == 0:
                    show("adapted params", list(fmodel.parameters()))
                    show("diffopt state", [v for group in diffopt.state for index in sorted(group)
                                           for _, v in sorted(group[index].items())
                                           if isinstance(v, torch.Tensor)])
                if track or not copy_initial_weights:
                    query.backward()
                total += query.item()
        print("meta loss", repr(total))
        _grads(f"outer {outer_step} meta-grad", model)
        meta_opt.step()
    show("meta params", list(model.parameters()))


def higher_learned_lr(opt_name="SGD", **opt_kwargs):
    """The inner learning rate as a tensor meta-parameter (``override={'lr': ...}``): its meta-gradient."""
    import higher

    model = _mlp()
    lr = torch.tensor([0.05, 0.1], requires_grad=True)  # one per parameter group
    meta_opt = torch.optim.SGD([*model.parameters(), lr], lr=1e-2)
    for outer_step in range(2):
        meta_opt.zero_grad()
        groups = [{"params": model[0].parameters()}, {"params": [*model[2].parameters(), *model[4].parameters()]}]
        inner_opt = getattr(torch.optim, opt_name)(groups, lr=0.1, **opt_kwargs)
        for i, (xs, ys, xq, yq) in enumerate(_tasks()):
            with higher.innerloop_ctx(model, inner_opt, override={"lr": list(lr.unbind())}) as (fmodel, diffopt):
                for _ in range(3):
                    diffopt.step(torch.nn.functional.mse_loss(fmodel(xs), ys))
                query = torch.nn.functional.mse_loss(fmodel(xq), yq)
                show(f"outer {outer_step} task {i} query", query)
                query.backward()
        show(f"outer {outer_step} lr grad", lr.grad)
        _grads(f"outer {outer_step} meta-grad", model)
        meta_opt.step()
        show(f"outer {outer_step} lr", lr)


def higher_grad_callback():
    """``diffopt.step(loss, grad_callback=...)``: the gradients clipped by their norm before each differentiable
    step, and ``higher.optim.get_trainable_opt_params`` / ``apply_trainable_opt_params`` as its README shows."""
    import higher

    model = _mlp()
    inner_opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
    opt_params = higher.optim.get_trainable_opt_params(inner_opt)
    show("trainable lr", opt_params["lr"])

    def clip(grads):
        norm = torch.sqrt(sum((g * g).sum() for g in grads))
        show("grad norm", norm)
        return [g * torch.clamp(1.0 / norm, max=1.0) for g in grads]

    for i, (xs, ys, xq, yq) in enumerate(_tasks(2)):
        with higher.innerloop_ctx(model, inner_opt, copy_initial_weights=False) as (fmodel, diffopt):
            higher.optim.apply_trainable_opt_params(diffopt, opt_params)
            for _ in range(3):
                diffopt.step(torch.nn.functional.mse_loss(fmodel(xs), ys), grad_callback=clip)
            query = torch.nn.functional.mse_loss(fmodel(xq), yq)
            show(f"task {i} query", query)
            grads = torch.autograd.grad(query, [*model.parameters(), *opt_params["lr"]], allow_unused=True)
            show(f"task {i} meta-grads", list(grads))


def higher_monkeypatch(parts=("mlp",)):
    """``higher.monkeypatch``: a functional MLP called with explicit parameter lists, gradients of gradients through
    it, its ``fast_params`` history and ``parameters(time=...)``; a BatchNorm conv net and an LSTM patched alike."""
    import higher

    if "mlp" in parts:
        _patched_mlp(higher)
    if "conv" in parts:
        _patched_conv(higher)
    if "lstm" in parts:
        _patched_lstm(higher)


def _patched_mlp(higher):

    model = _mlp()
    fmodel = higher.monkeypatch(model, copy_initial_weights=True)
    xs, ys, xq, yq = _tasks(1)[0]
    params = list(fmodel.parameters())
    for step in range(3):
        loss = torch.nn.functional.mse_loss(fmodel(xs, params=params), ys)
        grads = torch.autograd.grad(loss, params, create_graph=True)
        params = [p - 0.1 * g for p, g in zip(params, grads)]
        fmodel.update_params(params)
        show(f"step {step} loss", loss)
    query = torch.nn.functional.mse_loss(fmodel(xq), yq)
    show("query", query)
    show("grad wrt initial", list(torch.autograd.grad(query, fmodel.parameters(time=0), retain_graph=True)))
    print("history", len(fmodel._fast_params))
    hvp = torch.autograd.grad(grads[0].pow(2).sum(), list(fmodel.parameters(time=0))[0])[0]
    show("second order", hvp)


def _patched_conv(higher):
    torch.manual_seed(3)
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
                              torch.nn.MaxPool2d(2), torch.nn.Flatten(), torch.nn.Linear(4 * 3 * 3, 3))
    xs, labels, xq, lq = _classes(1, size=8)[0]
    with higher.innerloop_ctx(net, torch.optim.Adam(net.parameters(), lr=0.01), copy_initial_weights=False) as (f, d):
        for step in range(2):
            loss = torch.nn.functional.cross_entropy(f(xs), labels)
            show(f"conv step {step} loss", loss)
            d.step(loss)
        query = torch.nn.functional.cross_entropy(f(xq), lq)
        query.backward()
    show("conv query", query)
    _grads("conv meta-grad", net)
    show("running mean", net[1].running_mean)


def _patched_lstm(higher):
    torch.manual_seed(4)
    lstm = torch.nn.LSTM(3, 5, batch_first=True)
    seq = torch.randn(2, 6, 3)
    with higher.innerloop_ctx(lstm, torch.optim.RMSprop(lstm.parameters(), lr=0.01)) as (f, d):
        for step in range(2):
            out, (h, c) = f(seq)
            loss = out.pow(2).mean() + h.sum()
            show(f"lstm step {step} loss", loss)
            d.step(loss)
        out, _ = f(seq)
        show("lstm adapted", list(f.parameters()))
        show("lstm meta-grad", list(torch.autograd.grad(out.sum(), f.parameters(time=0))))


def higher_groups():
    """Two parameter groups with their own hyperparameters (Adam: lr, betas, weight decay) under higher, the
    per-step ``override`` of the learning rates as tensors, and ``track_higher_grads`` switched off for the last
    step (its update detached from the graph, as the package's docs describe)."""
    import higher

    model = _mlp()
    groups = [{"params": model[0].parameters(), "lr": 0.02, "betas": (0.8, 0.9)},
              {"params": [*model[2].parameters(), *model[4].parameters()], "weight_decay": 0.05}]
    inner_opt = torch.optim.Adam(groups, lr=0.05)
    lrs = torch.tensor([0.03, 0.06], requires_grad=True)
    for i, (xs, ys, xq, yq) in enumerate(_tasks(2)):
        with higher.innerloop_ctx(model, inner_opt, copy_initial_weights=False) as (fmodel, diffopt):
            for step in range(3):
                loss = torch.nn.functional.mse_loss(fmodel(xs), ys)
                show(f"task {i} inner {step}", loss)
                diffopt.step(loss, override={"lr": [lrs[0] * (step + 1), lrs[1]]})
            fmodel.track_higher_grads = False
            diffopt.step(torch.nn.functional.mse_loss(fmodel(xs), ys))
            query = torch.nn.functional.mse_loss(fmodel(xq), yq)
            show(f"task {i} query", query)
            show(f"task {i} adapted", list(fmodel.parameters()))
    fmodel.track_higher_grads = True
    with higher.innerloop_ctx(model, inner_opt, copy_initial_weights=False) as (fmodel, diffopt):
        for _ in range(2):
            diffopt.step(torch.nn.functional.mse_loss(fmodel(xs), ys), override={"lr": list(lrs.unbind())})
        query = torch.nn.functional.mse_loss(fmodel(xq), yq)
        grads = torch.autograd.grad(query, [lrs, *model.parameters()])
    show("lr and meta grads", list(grads))


def l2l_functional_updates():
    """learn2learn's ``maml_update`` and ``meta_sgd_update`` called on a cloned module with gradients taken by hand
    (``create_graph=True``), three steps, then the query loss's gradient back to the initial weights and the
    per-parameter learning rates."""
    import learn2learn as l2l

    model = _mlp()
    lrs = [torch.full_like(p, 0.05).requires_grad_() for p in model.parameters()]
    for i, (xs, ys, xq, yq) in enumerate(_tasks(2)):
        for update in ("maml", "meta_sgd"):
            clone = l2l.clone_module(model)
            for step in range(3):
                loss = _mse(clone, xs, ys)
                grads = torch.autograd.grad(loss, clone.parameters(), create_graph=True)
                if update == "maml":
                    clone = l2l.algorithms.maml_update(clone, 0.1, grads)
                else:
                    clone = l2l.algorithms.meta_sgd_update(clone, lrs, grads)
                show(f"task {i} {update} step {step}", loss)
            query = _mse(clone, xq, yq)
            show(f"task {i} {update} query", query)
            targets = [*model.parameters(), *(lrs if update == "meta_sgd" else ())]
            show(f"task {i} {update} meta-grads", list(torch.autograd.grad(query, targets)))


# --- learn2learn ----------------------------------------------------------------------------------------------------

def _mse(model, x, y):
    return torch.nn.functional.mse_loss(model(x), y)


def l2l_maml(first_order=False, steps=2, outer=2, algorithm="MAML", dtype=None, act="Tanh", **kwargs):
    """learn2learn's MAML (or MetaSGD): clone, adapt on the support set, query loss, Adam on the meta-parameters."""
    import learn2learn as l2l

    model = _mlp(act=act).to(dtype or torch.float32)
    if algorithm == "MAML":
        learner = l2l.algorithms.MAML(model, lr=0.1, first_order=first_order, **kwargs)
    else:
        learner = l2l.algorithms.MetaSGD(model, lr=0.1, first_order=first_order, **kwargs)
    opt = torch.optim.Adam(learner.parameters(), lr=1e-2)
    print(algorithm, "first_order", first_order, kwargs)
    for outer_step in range(outer):
        opt.zero_grad()
        total = 0.0
        for i, (xs, ys, xq, yq) in enumerate(_tasks(dtype=dtype)):
            clone = learner.clone()
            for step in range(steps):
                loss = _mse(clone, xs, ys)
                show(f"outer {outer_step} task {i} inner {step}", loss)
                clone.adapt(loss)
            query = _mse(clone, xq, yq)
            query.backward()
            total += query.item()
            if outer_step == 0 and i == 0:
                show("adapted", list(clone.parameters()))
        print(f"outer {outer_step} meta loss", repr(total))
        _grads(f"outer {outer_step} meta-grad", learner)
        opt.step()
    show("meta params", list(learner.parameters()))


def l2l_gbml(transform_name, adapt_transform=False, first_order=False):
    """learn2learn's GBML with a learned gradient transform (ModuleTransform of a Linear, KroneckerTransform of a
    KroneckerLinear, MetaCurvatureTransform): the transforms' meta-gradients."""
    import learn2learn as l2l

    transform = {"module": lambda: l2l.optim.ModuleTransform(torch.nn.Linear),
                 "kronecker": lambda: l2l.optim.KroneckerTransform(l2l.nn.KroneckerLinear),
                 "metacurvature": lambda: l2l.optim.MetaCurvatureTransform}[transform_name]()
    model = _mlp(hidden=6)
    torch.manual_seed(5)
    gbml = l2l.algorithms.GBML(model, transform, lr=0.1, adapt_transform=adapt_transform, first_order=first_order)
    opt = torch.optim.SGD(gbml.parameters(), lr=1e-2)
    for outer_step in range(2):
        opt.zero_grad()
        for i, (xs, ys, xq, yq) in enumerate(_tasks(2)):
            clone = gbml.clone()
            for step in range(2):
                loss = _mse(clone, xs, ys)
                show(f"outer {outer_step} task {i} inner {step}", loss)
                clone.adapt(loss)
            query = _mse(clone, xq, yq)
            show(f"outer {outer_step} task {i} query", query)
            query.backward()
        _grads(f"outer {outer_step} meta-grad", gbml)
        opt.step()


def l2l_learnable_optimizer():
    """learn2learn's LearnableOptimizer (a Linear gradient transform per parameter, its README's hypergradient
    loop): the model trained with it, the transform trained on the loss after each step."""
    import learn2learn as l2l

    model = _mlp(hidden=6)
    torch.manual_seed(6)
    meta = l2l.optim.LearnableOptimizer(model, l2l.optim.ModuleTransform(torch.nn.Linear), lr=0.1)
    meta_opt = torch.optim.Adam(meta.parameters(), lr=1e-2)
    for step, (xs, ys, _, _) in enumerate(_tasks(5)):  # the loop of its hypergrad_mnist example
        meta.zero_grad()
        meta_opt.zero_grad()
        loss = _mse(model, xs, ys)
        loss.backward()
        meta_opt.step()  # the transforms, from the loss through the previous step's update
        meta.step()  # the model
        show(f"step {step} loss", loss)
    show("scales", list(meta.parameters()))
    show("model", list(model.parameters()))
    xs, ys, xq, yq = _tasks(1)[0]
    update = l2l.optim.ParameterUpdate(model.parameters(), l2l.optim.ModuleTransform(torch.nn.Linear))
    loss = _mse(model, xs, ys)
    updates = update(loss, list(model.parameters()), create_graph=True)
    show("parameter updates", list(updates))
    l2l.update_module(model, updates=[-0.1 * u for u in updates])
    query = _mse(model, xq, yq)
    show("updated query", query)
    show("update grads", list(torch.autograd.grad(query, update.parameters())))


def l2l_utils():
    """clone_module, update_module, detach_module, clone_distribution and magic_box as learn2learn documents."""
    import learn2learn as l2l

    model = _mlp()
    xs, ys, xq, yq = _tasks(1)[0]
    clone = l2l.clone_module(model)
    loss = _mse(clone, xs, ys)
    grads = torch.autograd.grad(loss, clone.parameters(), create_graph=True)
    l2l.update_module(clone, updates=[-0.05 * g for g in grads])
    query = _mse(clone, xq, yq)
    query.backward()
    show("query", query)
    _grads("meta-grad", model)
    detached = l2l.clone_module(model)
    l2l.detach_module(detached, keep_requires_grad=True)
    print("detached", [p.requires_grad for p in detached.parameters()], [p.grad_fn for p in detached.parameters()])
    mean = torch.randn(3, requires_grad=True)
    normal = torch.distributions.Normal(mean, torch.ones(3))
    clone_normal = l2l.clone_distribution(normal)
    sample = torch.tensor([0.5, -0.2, 1.0])
    show("log prob grad", torch.autograd.grad(clone_normal.log_prob(sample).sum(), mean))
    log_probs = clone_normal.log_prob(sample)
    box = l2l.magic_box(log_probs.cumsum(0))
    show("magic box", box)
    objective = (box * torch.tensor([1.0, 2.0, -1.0])).sum()
    first = torch.autograd.grad(objective, mean, create_graph=True)[0]
    show("magic box grad", first)
    show("magic box second", torch.autograd.grad(first.sum(), mean))


def l2l_nn():
    """learn2learn.nn: KroneckerLinear, KroneckerRNN, KroneckerLSTM, Scale, Lambda, Flatten, the prototypical
    classifier (euclidean, cosine) and MetaModule/ParameterTransform, each with outputs and gradients."""
    import learn2learn as l2l

    torch.manual_seed(7)
    x = torch.randn(5, 3, 4)
    for name, layer in [("kron", l2l.nn.KroneckerLinear(3, 4)), ("kron psd", l2l.nn.KroneckerLinear(3, 4, psd=True))]:
        torch.nn.init.normal_(layer.left)
        torch.nn.init.normal_(layer.right)
        out = layer(x)
        out.pow(2).sum().backward()
        show(name, out)
        _grads(name, layer)
    h = torch.zeros(5, 3, 4)
    rnn = l2l.nn.KroneckerRNN(3, 4)
    out, h = rnn(x, h)
    show("kron rnn", [out, h])
    lstm = l2l.nn.KroneckerLSTM(3, 4)
    out, (h, c) = lstm(x, (torch.zeros(5, 3, 4), torch.zeros(5, 3, 4)))
    (out.sum() + c.sum()).backward()
    show("kron lstm", [out, h, c])
    scale = l2l.nn.Scale((4,), alpha=0.5)
    show("scale", scale(x))
    net = torch.nn.Sequential(l2l.nn.Lambda(lambda t: t * 2), l2l.nn.Flatten(), torch.nn.Linear(12, 4))
    show("lambda flatten", net(x))
    support, labels = torch.randn(9, 6), torch.tensor([0, 1, 2, 0, 1, 2, 0, 1, 2])
    for distance in ("euclidean", "cosine"):
        classifier = l2l.nn.PrototypicalClassifier(support, labels, distance=distance)
        logits = classifier(torch.randn(4, 6))
        show(f"protonet {distance}", logits)
        show(f"protonet {distance} accuracy", l2l.utils.accuracy(logits, torch.tensor([0, 1, 2, 0])))
    wrapped = l2l.nn.MetaModule(_mlp(), substitutions={torch.nn.Linear: lambda linear: torch.nn.Sequential(
        linear, torch.nn.LayerNorm(linear.out_features))}, freeze_module=True)
    out = wrapped(torch.randn(3, 4))
    out.sum().backward()
    show("metamodule", out)
    print([(n, p.requires_grad) for n, p in wrapped.named_parameters()])
    transformed = l2l.nn.ParameterTransform(torch.nn.Linear(4, 3), l2l.optim.ModuleTransform(l2l.nn.Scale))
    out = transformed(torch.randn(2, 4))
    out.pow(2).sum().backward()
    show("parameter transform", out)
    _grads("parameter transform", transformed)


def l2l_vision(name, ways=3, shots=2):
    """One of learn2learn's vision models adapted with MAML on seeded few-shot images: each inner and query loss,
    the meta-gradients' digests after one meta-step."""
    import learn2learn as l2l

    torch.manual_seed(8)
    import numpy as np
    np.random.seed(8)
    build, channels, size = {
        "omniglot_fc": (lambda: l2l.vision.models.OmniglotFC(8 * 8, ways, sizes=[16, 8]), 1, 8),
        "omniglot_cnn": (lambda: l2l.vision.models.OmniglotCNN(ways, hidden_size=8, layers=2), 1, 12),
        "cnn4": (lambda: l2l.vision.models.CNN4(ways, hidden_size=8, layers=2, channels=3), 3, 12),
        "mini_imagenet_cnn": (lambda: l2l.vision.models.MiniImagenetCNN(ways, hidden_size=8, layers=4), 3, 84),
    }[name]
    model = build()
    maml = l2l.algorithms.MAML(model, lr=0.1)
    opt = torch.optim.Adam(maml.parameters(), lr=1e-3)
    opt.zero_grad()
    for i, (xs, labels, xq, lq) in enumerate(_classes(2, ways=ways, shots=shots, channels=channels, size=size)):
        if name == "omniglot_fc":
            xs, xq = xs.flatten(1), xq.flatten(1)
        clone = maml.clone()
        for step in range(2):
            loss = torch.nn.functional.cross_entropy(clone(xs), labels)
            show(f"task {i} inner {step}", loss)
            clone.adapt(loss)
        logits = clone(xq)
        query = torch.nn.functional.cross_entropy(logits, lq)
        show(f"task {i} query", query)
        show(f"task {i} accuracy", l2l.utils.accuracy(logits, lq))
        query.backward()
    _grads("meta-grad", maml)
    opt.step()
    show("params", list(maml.parameters())[:4])


class OmniglotNShot:
    """higher's example loader (``support/omniglot_loaders.py``, which downloads Omniglot) as a seeded stand-in:
    ``x_train``/``x_test`` of 4 and 2 "characters" (class means of 28x28 images), ``next(mode)`` a batch of
    ``batchsz`` tasks of ``n_way`` classes, ``k_shot`` support and ``k_query`` query images each (the means plus
    noise), labels 0..n_way-1, as float32 and int64 tensors on ``device``."""

    def __init__(self, root, batchsz, n_way, k_shot, k_query, imgsz, device=None):
        import numpy as np

        self.rng = np.random.RandomState(0)
        self.batchsz, self.n_way, self.k_shot, self.k_query, self.imgsz = batchsz, n_way, k_shot, k_query, imgsz
        self.device = device
        self.x_train = self.rng.rand(4 * batchsz, 1, imgsz, imgsz).astype("float32")
        self.x_test = self.rng.rand(2 * batchsz, 1, imgsz, imgsz).astype("float32")

    def next(self, mode="train"):
        import numpy as np

        batch = []
        for _ in range(self.batchsz):
            means = self.rng.rand(self.n_way, 1, self.imgsz, self.imgsz).astype("float32")
            parts = []
            for shots in (self.k_shot, self.k_query):
                labels = np.repeat(np.arange(self.n_way), shots)
                images = means[labels] + 0.3 * self.rng.randn(len(labels), 1, self.imgsz, self.imgsz)
                parts += [images.astype("float32"), labels]
            batch.append(parts)
        return tuple(torch.from_numpy(np.stack([task[k] for task in batch])).to(self.device) for k in range(4))
