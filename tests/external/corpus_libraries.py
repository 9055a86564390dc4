"""Drivers for the third-party library modules of ``recipes_libraries.py``.

A recipe fetches one library module (an optimizer, a scheduler, a loss, a model summary...) as its script and
appends one call to a driver here, which trains a tiny seeded model with it and prints what a user of the library
sees: losses, learning rates, the optimizer's repr, its ``state`` and ``state_dict``, a ``load_state_dict``
round trip. The drivers are our text; the library's is fetched. ``import torch`` resolves to core in core's run.
"""

from __future__ import annotations

import copy

import torch
import torch.nn.functional as F
from torch import nn


def _data():
    """A seeded 3-class problem and a small MLP (the same numbers in both libraries)."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 3))
    x = torch.randn(24, 6)
    y = torch.randint(0, 3, (24,))
    return model, x, y


def _summary(value):
    """A state entry as text that does not depend on summation order: a tensor's shape, dtype and abs-sum."""
    if isinstance(value, torch.Tensor):
        return f"tensor{tuple(value.shape)} {value.dtype} |sum|={value.double().abs().sum().item():.6g}"
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value)


def _print_state(opt):
    print("state:", type(opt.state).__name__, len(opt.state))
    for i, group in enumerate(opt.param_groups):
        for j, p in enumerate(group["params"]):
            entries = opt.state.get(p, {})
            print(f"  group {i} param {j}:", {k: _summary(v) for k, v in sorted(entries.items())})


def optimizer(make, *, steps=10, closure=False, create_graph=False, groups=False):
    """Train the MLP with ``make(params)`` for ``steps`` steps, then show its state and round-trip its state_dict.

    ``closure``: the step gets the closure (SAM, Adahessian's and the line-search optimizers' form);
    ``create_graph``: backward keeps the graph (second-order optimizers); ``groups``: two parameter groups.
    """
    model, x, y = _data()
    params = ([{"params": model[0].parameters()}, {"params": model[2].parameters(), "weight_decay": 0.0}]
              if groups else model.parameters())
    opt = make(params)
    print(opt)
    print("defaults:", sorted(opt.defaults))

    def loss_fn():
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward(create_graph=create_graph)
        return loss

    for step in range(steps):
        if closure:
            loss = opt.step(loss_fn)
        else:
            loss = loss_fn()
            opt.step()
        print(step, f"{loss.item():.7g}")
    _print_state(opt)
    state = opt.state_dict()
    print("state_dict:", {k: list(v) if isinstance(v, dict) else len(v) for k, v in sorted(state.items())})
    print("param_groups:", [{k: v for k, v in g.items() if k != "params"} for g in state["param_groups"]])
    print("params:", [g["params"] for g in state["param_groups"]])
    twin = copy.deepcopy(model)
    opt2 = make(twin.parameters() if not groups else
                [{"params": twin[0].parameters()}, {"params": twin[2].parameters(), "weight_decay": 0.0}])
    opt2.load_state_dict(copy.deepcopy(state))
    for o, m in ((opt, model), (opt2, twin)):
        def again(o=o, m=m):
            o.zero_grad()
            loss = F.cross_entropy(m(x), y)
            loss.backward(create_graph=create_graph)
            return loss
        if closure:
            o.step(again)
        else:
            again()
            o.step()
    same = all(torch.equal(a, b) for a, b in zip(model.parameters(), twin.parameters()))
    print("round trip takes the same step:", same)
    print("final loss:", f"{F.cross_entropy(model(x), y).item():.7g}")


def scheduler(make, *, epochs=12, lr=0.1, metric=False):
    """SGD on the MLP with ``make(optimizer)`` stepped once an epoch; prints the learning rates it sets."""
    model, x, y = _data()
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    sched = make(opt)
    print("initial lr:", [g["lr"] for g in opt.param_groups], "last_epoch:", sched.last_epoch)
    for epoch in range(epochs):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        if metric:
            sched.step(epoch, metrics=loss.item()) if metric == "epoch" else sched.step(metrics=loss.item())
        else:
            sched.step()
        try:  # REX's own step never sets _last_lr
            last = [f"{v:.8g}" for v in sched.get_last_lr()]
        except AttributeError as error:
            last = f"AttributeError: {error}"
        print(epoch, f"{loss.item():.7g}", [f"{g['lr']:.8g}" for g in opt.param_groups], last)
    state = sched.state_dict()
    print("state_dict keys:", sorted(state))
    print("state_dict numbers:", {k: v for k, v in sorted(state.items()) if isinstance(v, (int, float, list))})


def sam(SAM, *, adaptive=False, steps=8):
    """davda54's SAM around SGD with momentum: the two-step form, then ``step(closure)``, then a state_dict trip."""
    model, x, y = _data()
    opt = SAM(model.parameters(), torch.optim.SGD, rho=0.5 if adaptive else 0.05, adaptive=adaptive,
              lr=0.1, momentum=0.9)
    print(opt)
    print("defaults:", opt.defaults)
    print("shares param_groups:", opt.param_groups is opt.base_optimizer.param_groups)
    for step in range(steps):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.first_step(zero_grad=True)
        F.cross_entropy(model(x), y).backward()
        opt.second_step(zero_grad=True)
        print(step, f"{loss.item():.7g}")

    def closure():
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        return loss
    for step in range(3):
        F.cross_entropy(model(x), y).backward()
        print("closure step", step, opt.step(closure))
        opt.zero_grad()
    _print_state(opt)
    _print_state(opt.base_optimizer)
    state = opt.state_dict()
    twin = copy.deepcopy(model)
    opt2 = SAM(twin.parameters(), torch.optim.SGD, rho=0.05, adaptive=adaptive, lr=0.1, momentum=0.9)
    opt2.load_state_dict(state)
    print("loaded rho:", [g["rho"] for g in opt2.param_groups], opt2.base_optimizer.param_groups is opt2.param_groups)
    print("final loss:", f"{F.cross_entropy(model(x), y).item():.7g}")


def ema(ExponentialMovingAverage, *, steps=8):
    """fadel's ExponentialMovingAverage over an SGD run: update, average_parameters, store/restore, state_dict."""
    model, x, y = _data()
    model.register_buffer("seen", torch.zeros(()))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    avg = ExponentialMovingAverage(model.parameters(), decay=0.9, use_num_updates=True)
    for step in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        avg.update()
        model.seen += 1
        print(step, f"{loss.item():.7g}", avg.num_updates, f"{avg.shadow_params[0].abs().sum().item():.6g}")
    with avg.average_parameters():
        print("with the averages:", f"{F.cross_entropy(model(x), y).item():.7g}")
    print("back to the weights:", f"{F.cross_entropy(model(x), y).item():.7g}")
    state = avg.state_dict()
    print("state_dict:", sorted(state), state["decay"], state["num_updates"], len(state["shadow_params"]))
    twin = ExponentialMovingAverage(model.parameters(), decay=0.5)
    try:  # average_parameters() left the parameters' clones (made under autograd) in collected_params
        twin.load_state_dict(state)
    except RuntimeError as error:
        print("RuntimeError:", error)
    state = {**state, "collected_params": None}
    twin.load_state_dict(state)
    print("loaded:", twin.decay, twin.num_updates,
          all(torch.equal(a, b) for a, b in zip(twin.shadow_params, avg.shadow_params)))
    avg.store()
    avg.copy_to()
    print("copied:", f"{F.cross_entropy(model(x), y).item():.7g}")
    avg.restore()
    print("restored:", f"{F.cross_entropy(model(x), y).item():.7g}")
    try:
        twin.load_state_dict({**state, "decay": 2.0})
    except ValueError as error:
        print("ValueError:", error)


def focal(FocalLoss, focal_loss, *, steps=8):
    """AdeelH's focal loss: its repr, gamma=0 against cross_entropy, ignore_index, 4-d inputs, then a training run."""
    model, x, y = _data()
    logits = model(x)
    print(FocalLoss(gamma=2.0))
    alpha = torch.tensor([0.5, 1.0, 2.0])
    print(focal_loss(alpha=alpha, gamma=0.0, reduction="mean"))
    plain = FocalLoss(gamma=0.0)(logits, y)
    print("gamma 0:", f"{plain.item():.6g}", f"{F.cross_entropy(logits, y).item():.6g}")
    y_ignored = y.clone()
    y_ignored[:5] = -100
    for reduction in ("mean", "sum", "none"):
        loss = focal_loss(alpha=alpha, gamma=2.0, reduction=reduction)(logits, y_ignored)
        print(reduction, tuple(loss.shape), f"{loss.sum().item():.6g}")
    images = torch.randn(2, 3, 4, 5)
    masks = torch.randint(0, 3, (2, 4, 5))
    print("4-d:", f"{FocalLoss(gamma=1.5)(images, masks).item():.6g}")
    print("all ignored:", FocalLoss(gamma=2.0)(logits[:2], torch.tensor([-100, -100])))
    criterion = focal_loss(alpha=alpha, gamma=2.0)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for step in range(steps):
        opt.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.7g}")


def summary(summary, summary_string):
    """sksq96's torchsummary on its own test models (``test_model.py`` beside the script), on the CPU."""
    from test_model import MultipleInputNet, SingleInputNet

    torch.manual_seed(0)
    print(summary(SingleInputNet(), (1, 28, 28), device="cpu"))
    print(summary(MultipleInputNet(), [(1, 300), (1, 300)], device="cpu"))
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Flatten(), nn.Linear(8 * 4 * 4, 10))
    net[1].weight.requires_grad_(False)
    text, (total, trainable) = summary_string(net, (3, 8, 8), batch_size=4, device="cpu")
    print(text)
    print(type(total).__name__, total, trainable)
    print(summary(nn.LSTM(4, 6, batch_first=True), (5, 4), device="cpu"))


def torchinfo(summary):
    """TylerYep's torchinfo on small models: its tables (every column, depth, variable names), the statistics."""
    torch.manual_seed(0)
    cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(8, 4, 3), nn.Flatten(), nn.Linear(4 * 2 * 2, 10), nn.Dropout(0.1))
    summary(cnn, input_size=(2, 3, 8, 8),
            col_names=("input_size", "output_size", "num_params", "params_percent", "kernel_size", "mult_adds",
                       "trainable"), row_settings=("depth", "var_names"))
    lstm = nn.LSTM(4, 6, num_layers=2, batch_first=True)
    stats = summary(lstm, input_size=(3, 5, 4), verbose=0)
    print(stats)
    print(stats.total_params, stats.trainable_params, stats.total_mult_adds)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(20, 8)
            self.encoder = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True)
            self.head = nn.Linear(8, 3)
            self.head.weight.requires_grad_(False)
            self.register_buffer("scale", torch.ones(3))

        def forward(self, tokens):
            return self.head(self.encoder(self.embed(tokens)).mean(1)) * self.scale

    tokens = torch.randint(0, 20, (2, 6))
    print(summary(Net(), input_data=tokens, depth=4, verbose=0,
                  col_names=("output_size", "num_params", "trainable")))
    print(summary(cnn, input_data=[torch.randn(1, 3, 8, 8)], mode="eval", verbose=0, depth=1))


def thop(profile, clever_format):
    """Lyken17's THOP (pytorch-OpCounter): MACs and parameters counted by forward hooks and buffers."""
    torch.manual_seed(0)
    cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, groups=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AvgPool2d(2),
                        nn.Conv2d(8, 8, 3, groups=4, bias=False), nn.LeakyReLU(), nn.Upsample(scale_factor=2),
                        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5), nn.Softmax(dim=1))
    x = torch.randn(2, 3, 8, 8)
    before = cnn(x)
    macs, params = profile(cnn, inputs=(x,))
    print(macs, params, clever_format([macs, params], "%.3f"))
    print("buffers left:", [name for name, _ in cnn.named_buffers()], "training:", cnn.training,
          torch.equal(before, cnn(x)))

    class Seq(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = nn.LSTM(4, 6, num_layers=2, bidirectional=True, batch_first=True)
            self.gru = nn.GRU(12, 5)
            self.cell = nn.GRUCell(5, 3)
            self.head = nn.Linear(3, 2)

        def forward(self, seq):
            out, _ = self.rnn(seq)
            out, _ = self.gru(out.transpose(0, 1))
            return self.head(self.cell(out[-1]))

    def count_head(module, inputs, output):
        module.total_ops += torch.DoubleTensor([int(output.numel() * 7)])

    macs, params, layers = profile(Seq(), inputs=(torch.randn(3, 5, 4),), custom_ops={nn.Linear: count_head},
                                   ret_layer_info=True)
    print(macs, params, clever_format(macs), clever_format(params))
    print(layers)


def warmup(lib):
    """Tony-Y's pytorch_warmup (``lib``: its classes) around PyTorch's schedulers, as its README trains."""
    schedules = [
        ("LinearWarmup + CosineAnnealingLR", lambda o: lib.LinearWarmup(o, warmup_period=4),
         lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=12), "adamw"),
        ("ExponentialWarmup + MultiStepLR", lambda o: lib.ExponentialWarmup(o, warmup_period=3),
         lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[4, 8], gamma=0.5), "adamw"),
        ("UntunedLinearWarmup, two groups", lambda o: lib.UntunedLinearWarmup(o), None, "groups"),
        ("UntunedExponentialWarmup + StepLR", lambda o: lib.UntunedExponentialWarmup(o),
         lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=5), "adamw"),
        ("RAdamWarmup + ExponentialLR, a tensor lr", lambda o: lib.RAdamWarmup(o),
         lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9), "tensor"),
    ]
    for title, make_warmup, make_sched, kind in schedules:
        model, x, y = _data()
        if kind == "groups":
            opt = torch.optim.Adam([{"params": model[0].parameters()},
                                    {"params": model[2].parameters(), "lr": 0.02, "betas": (0.8, 0.99)}], lr=0.01)
        elif kind == "tensor":
            opt = torch.optim.Adam(model.parameters(), lr=torch.tensor(0.01))
        else:
            opt = torch.optim.AdamW(model.parameters(), lr=0.01, betas=(0.9, 0.99))
        sched = make_sched(opt) if make_sched else None
        warm = make_warmup(opt)
        print(title, [repr(g["lr"]) for g in opt.param_groups])
        for step in range(8):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            with warm.dampening():
                if sched is not None:
                    sched.step()
            print(step, f"{loss.item():.7g}", [f"{float(g['lr']):.8g}" for g in opt.param_groups])
        state = warm.state_dict()
        print("warmup state:", sorted(state), state["last_step"])
        if sched is not None:
            print("scheduler state:", sorted(sched.state_dict().items()))


def geotorch(geotorch):
    """lezcano's GeoTorch: constraints put on layers with ``torch.nn.utils.parametrize``, trained a few Adam steps."""
    from torch.nn.utils import parametrize

    torch.manual_seed(0)
    layers = {"orthogonal": nn.Linear(6, 6), "sphere": nn.Linear(5, 3), "symmetric": nn.Linear(4, 4),
              "skew": nn.Linear(4, 4), "positive_definite": nn.Linear(4, 4), "low_rank": nn.Linear(6, 5),
              "grassmannian": nn.Linear(3, 6), "invertible": nn.Linear(4, 4)}
    for name, layer in layers.items():
        constrain = getattr(geotorch, name)
        constrain(layer, "weight", 2) if name == "low_rank" else constrain(layer, "weight")
        print(name, parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, "weight"),
              type(layer.parametrizations.weight[0]).__name__, sorted(layer.state_dict()))
        x = torch.randn(8, layer.in_features)
        opt = torch.optim.Adam(layer.parameters(), lr=0.05)
        for step in range(3):
            opt.zero_grad()
            loss = (layer(x) - 1).pow(2).mean()
            loss.backward()
            opt.step()
            print(" ", step, f"{loss.item():.6g}")
        w = layer.weight.detach()
        print("  |W|", f"{w.abs().sum().item():.5g}", "WtW~I" if name == "orthogonal" and
              torch.allclose(w.T @ w, torch.eye(w.shape[1]), atol=1e-5) else "")
        parametrize.remove_parametrizations(layer, "weight")
        print("  removed:", parametrize.is_parametrized(layer), type(layer.weight).__name__)


def ema_pytorch(EMA):
    """lucidrains' ema-pytorch: an EMA copy of a model with BatchNorm, updated from an optimizer's post-step hook
    (and with foreach lerps), its warm-up decay, buffers, state dict and model refresh."""
    for kwargs in (dict(beta=0.9, update_after_step=2, update_every=1),
                   dict(beta=0.8, update_after_step=0, update_every=2, use_foreach=True, power=3 / 4,
                        update_model_with_ema_every=4, param_or_buffer_names_no_ema={"1.running_var"})):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(6, 12), nn.BatchNorm1d(12), nn.Tanh(), nn.Linear(12, 3))
        x, y = torch.randn(24, 6), torch.randint(0, 3, (24,))
        ema = EMA(model, **kwargs)
        opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
        handle = ema.add_to_optimizer_post_step_hook(opt)
        print(type(handle).__name__, sorted(ema.state_dict())[:4], len(ema.state_dict()))
        for step in range(7):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            ema.eval()
            with torch.no_grad():
                ema_loss = F.cross_entropy(ema(x), y)
            print(step, f"{loss.item():.7g}", f"{ema_loss.item():.7g}", int(ema.step), bool(ema.initted),
                  f"{ema.get_current_decay():.6g}",
                  f"{ema.ema_model[1].running_var.abs().sum().item():.6g}")
        handle.remove()
        state = ema.state_dict()
        twin = EMA(nn.Sequential(nn.Linear(6, 12), nn.BatchNorm1d(12), nn.Tanh(), nn.Linear(12, 3)), **kwargs)
        twin.load_state_dict(state)
        print("loaded:", int(twin.step), all(torch.equal(a, b) for a, b in
                                             zip(twin.ema_model.parameters(), ema.ema_model.parameters())))


def criteria(kind, *named, steps=3):
    """Each ``(title, criterion)`` of CoinCheung's pytorch-loss on one seeded input: the value, the input's gradient
    (custom autograd Functions under ``torch.amp.custom_fwd``), then a few SGD steps of a 1x1 convolution."""
    torch.manual_seed(0)
    x = torch.randn(2, 4, 3, 5)
    if kind == "softmax":
        labels = torch.randint(0, 4, (2, 3, 5))
        labels[0, 0, :2] = 255  # ignored pixels for the criteria that ignore 255
    elif kind == "sigmoid":
        labels = torch.randint(0, 2, x.shape).float()
    weights = torch.rand(x.shape)  # an activation's sum can be constant (a softmax's): weigh its elements
    for title, crit in named:
        inp = x.clone().requires_grad_()
        out = crit(inp) if kind == "activation" else crit(inp, labels)
        (out * weights if out.shape == x.shape else out).sum().backward()
        print(title, tuple(out.shape), f"{out.sum().item():.6g}", f"{inp.grad.abs().sum().item():.6g}",
              type(out.grad_fn).__name__)
        torch.manual_seed(1)
        conv = nn.Conv2d(4, 4, 1)
        opt = torch.optim.SGD(conv.parameters(), lr=0.1, momentum=0.9)
        for step in range(steps):
            opt.zero_grad()
            y = conv(x)
            loss = (crit(y) * weights).mean() if kind == "activation" else crit(y, labels).mean()
            loss.backward()
            opt.step()
            print(" ", step, f"{loss.item():.7g}")


def schedule_free(make, *, steps=8):
    """facebookresearch's schedule-free optimizers: ``train()`` before stepping (foreach updates), ``eval()`` to
    evaluate at the averaged point, a state dict loaded into a new one, and the error of a step in eval mode."""
    model, x, y = _data()
    opt = make(model.parameters())
    print(opt)
    opt.train()
    for step in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.7g}")
    opt.eval()
    print("eval point:", f"{F.cross_entropy(model(x), y).item():.7g}", [g["train_mode"] for g in opt.param_groups])
    _print_state(opt)
    state = opt.state_dict()
    print("param_groups:", [{k: v for k, v in g.items() if k != "params"} for g in state["param_groups"]])
    twin = copy.deepcopy(model)
    opt2 = make(twin.parameters())
    opt2.load_state_dict(copy.deepcopy(state))
    opt2.train()
    opt.train()
    print("train point:", f"{F.cross_entropy(model(x), y).item():.7g}",
          all(torch.equal(a, b) for a, b in zip(model.parameters(), twin.parameters())))
    opt.eval()
    try:
        opt.step()
    except Exception as error:
        print(type(error).__name__, error)


def sophia(SophiaG, *, steps=10, every=2):
    """Liuhong99's SophiaG as its train_sophiag.py drives it: the Hessian estimate from labels sampled from the
    model's own predictions every ``every`` steps, ``step(bs=...)``, a state dict loaded into a new one."""
    model, x, y = _data()
    opt = SophiaG(model.parameters(), lr=0.05, betas=(0.965, 0.99), rho=0.05, weight_decay=0.1)
    print(opt)
    for step in range(steps):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step(bs=24)
        opt.zero_grad(set_to_none=True)
        if step % every == every - 1:
            logits = model(x)
            sampled = torch.distributions.Categorical(logits=logits).sample()
            F.cross_entropy(logits, sampled).backward()
            opt.update_hessian()
            opt.zero_grad(set_to_none=True)
        print(step, f"{loss.item():.7g}")
    _print_state(opt)
    twin = SophiaG(copy.deepcopy(model).parameters(), lr=0.05)
    twin.load_state_dict(copy.deepcopy(opt.state_dict()))
    print([sorted(s) for s in twin.state.values()], [type(s["step"]).__name__ for s in twin.state.values()])


def lr_steps(make, *, steps=12):
    """A scheduler that is not an LRScheduler (kozistr's linear-warmup family): its ``step()`` values, the rate it
    writes into the optimizer, ``get_lr()``."""
    model, x, y = _data()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = make(opt)
    print(type(sched).__name__, [g["lr"] for g in opt.param_groups], sched.base_lrs)
    for step in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
        value = sched.step()
        print(step, f"{value:.8g}", f"{opt.param_groups[0]['lr']:.8g}", f"{sched.get_lr():.8g}")


def lovasz(L):
    """bermanmaxim's Lovász hinge and Lovász-softmax losses (``L``: the module) on seeded logits: values and
    gradients with ignored pixels, per image or not, the IoU helpers, and a few Adam steps on the logits."""
    torch.manual_seed(0)
    logits = torch.randn(2, 6, 7)
    labels = (torch.rand(2, 6, 7) > 0.5).long()
    labels[0, :2, :3] = 255
    for per_image in (True, False):
        x = logits.clone().requires_grad_()
        loss = L.lovasz_hinge(x, labels, per_image=per_image, ignore=255)
        loss.backward()
        print("hinge", per_image, f"{loss.item():.6g}", f"{x.grad.abs().sum().item():.6g}")
    print("binary xloss", f"{L.binary_xloss(logits, labels, ignore=255).item():.6g}")
    print("iou binary", L.iou_binary(logits > 0, labels, ignore=255), L.iou_binary(logits > 0, labels, per_image=False))
    scores = torch.randn(2, 4, 6, 7)
    classes = torch.randint(0, 4, (2, 6, 7))
    classes[1, 3:, :] = 255
    for kwargs in (dict(), dict(classes="all"), dict(classes=[0, 2]), dict(per_image=True)):
        x = scores.clone().requires_grad_()
        loss = L.lovasz_softmax(F.softmax(x, dim=1), classes, ignore=255, **kwargs)
        loss.backward()
        print("softmax", kwargs, f"{loss.item():.6g}", f"{x.grad.abs().sum().item():.6g}")
    print("xloss", f"{L.xloss(scores, classes).item():.6g}")
    print("iou", [round(float(v), 4) for v in L.iou(scores.argmax(1), classes, 4, ignore=255)])
    print("mean", L.mean([1.0, 2.0, 4.0]), L.mean(iter([]), empty=0), L.isnan(float("nan")))
    x = scores.clone().requires_grad_()
    opt = torch.optim.Adam([x], lr=0.1)
    for step in range(5):
        opt.zero_grad()
        loss = L.lovasz_softmax(F.softmax(x, dim=1), classes, ignore=255)
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.7g}")


def squeeze_excitation(blocks, shape):
    """ai-med's squeeze-and-excitation blocks (``blocks``: name -> class) after a convolution on a seeded batch of
    ``shape``: each block's output and input gradient, then three SGD steps of the convolution and the block."""
    conv_cls = nn.Conv2d if len(shape) == 4 else nn.Conv3d
    for name, block_cls in blocks.items():
        torch.manual_seed(0)
        x = torch.randn(*shape)
        conv, block = conv_cls(shape[1], 4, 3, padding=1), block_cls(4)
        print(name, block)
        inp = x.clone().requires_grad_()
        out = block(conv(inp))
        out.pow(2).mean().backward()
        print(" ", tuple(out.shape), f"{out.abs().sum().item():.6g}", f"{inp.grad.abs().sum().item():.6g}",
              type(out.grad_fn).__name__)
        opt = torch.optim.SGD([*conv.parameters(), *block.parameters()], lr=0.1)
        for step in range(3):
            opt.zero_grad()
            loss = (block(conv(x)) - 0.5).pow(2).mean()
            loss.backward()
            opt.step()
            print(" ", step, f"{loss.item():.7g}")
