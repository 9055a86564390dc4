"""Drivers for snnTorch's package (``recipes_snntorch.py``), called from a script run beside it, in both runs.

Each driver builds small seeded spiking networks from snnTorch's own classes and prints what a user reads off them
at full precision (``tolist``/``repr``): spikes and membrane traces over time, losses and gradients (surrogate
gradients carry the learning), a few SGD steps' losses, the spike trains ``spikegen`` makes, the values of the
``functional`` losses, accuracies and quantisers, and ``backprop``'s training loops. A call that raises prints the
exception's type and message, so both libraries must fail alike.
"""

from __future__ import annotations

import torch
from torch import nn


def show(name, value):
    """``name`` and a tensor's values (or a tuple's) at full precision."""
    if isinstance(value, torch.Tensor):
        value = value.detach().tolist()
    elif isinstance(value, (tuple, list)):
        value = [v.detach().tolist() if isinstance(v, torch.Tensor) else v for v in value]
    print(name, value)


def attempt(name, fn):
    """``fn()``'s result shown, or the exception it raises."""
    try:
        show(name, fn())
    except Exception as exc:
        print(name, "raises", type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "")


def guard(fn):
    """``fn()``, or the exception it raises printed (one driver call's failure leaves the script's next calls run)."""
    try:
        fn()
    except Exception as exc:
        print("raises", type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "")


def _reset_states(module):
    for m in module.modules():
        if hasattr(m, "reset_mem"):
            m.reset_mem()


def _outputs(out):
    return out if isinstance(out, tuple) else (out,)


def neuron(snn, make, *, features=3, inputs=4, batch=2, steps=10, train_steps=3, lr=0.5, conv=False, seed=0):
    """A ``Linear`` (or ``Conv2d``) into the neuron ``make()`` over ``steps`` seeded inputs, trained ``train_steps``
    SGD steps on a loss of its membrane and spikes; the first pass's spikes, membrane and gradients are shown."""
    torch.manual_seed(seed)
    fc = nn.Conv2d(1, features, 3, padding=1) if conv else nn.Linear(inputs, features)
    cell = make()
    params = list(fc.parameters()) + list(cell.parameters())
    opt = torch.optim.SGD(params, lr=lr)
    x = torch.rand(steps, batch, 1, 5, 5) * 2 if conv else torch.rand(steps, batch, inputs) * 2
    for it in range(train_steps):
        _reset_states(cell)
        spikes, mems = [], []
        for t in range(steps):
            out = _outputs(cell(fc(x[t])))
            spikes.append(out[0])
            mems.append(out[-1])
        spk, mem = torch.stack(spikes), torch.stack(mems)
        loss = ((mem - 0.5) ** 2).mean() + spk.mean()
        opt.zero_grad()
        loss.backward()
        print("step", it, "loss", repr(loss.item()), "spikes", spk.sum().item())
        if it == 0:
            show("spk", spk[:, 0].flatten(1))
            show("mem", mem[:, 0].flatten(1))
            for name, p in [*fc.named_parameters(), *cell.named_parameters()]:
                show(f"grad {name}", None if p.grad is None else p.grad.flatten()[:12])
        opt.step()
    for name, p in cell.named_parameters():
        show(f"param {name}", p.flatten()[:12])


def neuron_hidden(snn, make, *, inputs=4, features=3, steps=8, seed=0):
    """A neuron made with ``init_hidden=True`` in an ``nn.Sequential``: its states reset, then kept inside."""
    torch.manual_seed(seed)
    net = nn.Sequential(nn.Linear(inputs, features), make())
    x = torch.rand(steps, 2, inputs) * 2
    _reset_states(net)
    outs = [_outputs(net(x[t])) for t in range(steps)]
    spk = torch.stack([o[0] for o in outs])
    loss = spk.sum() + sum(o[-1].sum() for o in outs)
    loss.backward()
    show("hidden spk", spk[:, 0])
    show("hidden mem", outs[-1][-1])
    show("hidden grad", net[0].weight.grad)


def leaky_parallel(snn, **kwargs):
    """``LeakyParallel`` (an ``nn.RNN`` with spiking output) over a whole seeded sequence, trained three steps."""
    torch.manual_seed(0)
    lp = snn.LeakyParallel(input_size=4, hidden_size=3, **kwargs)
    opt = torch.optim.SGD(lp.parameters(), lr=0.5)
    x = torch.rand(8, 2, 4) * 2
    for it in range(3):
        spk = lp(x)
        loss = ((spk - 0.3) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        print("step", it, repr(loss.item()))
        if it == 0:
            show("spk", spk[:, 0])
            for name, p in lp.named_parameters():
                show(f"grad {name}", None if p.grad is None else p.grad.flatten()[:12])
        opt.step()


def surrogates(snn, names=None):
    """Every surrogate gradient of ``snntorch.surrogate`` (or those in ``names``): its spike and its gradient over a
    grid of membranes."""
    from snntorch import surrogate

    x = torch.linspace(-1.5, 1.5, 31)
    cases = [("ste", surrogate.straight_through_estimator()), ("triangular", surrogate.triangular()),
             ("fast_sigmoid", surrogate.fast_sigmoid()), ("fast_sigmoid_10", surrogate.fast_sigmoid(slope=10)),
             ("atan", surrogate.atan()), ("atan_5", surrogate.atan(alpha=5.0)), ("heaviside", surrogate.heaviside()),
             ("sigmoid", surrogate.sigmoid()), ("sigmoid_5", surrogate.sigmoid(slope=5)),
             ("spike_rate_escape", surrogate.spike_rate_escape()),
             ("spike_rate_escape_b", surrogate.spike_rate_escape(beta=2, slope=5)),
             ("sso", surrogate.SSO()), ("lso", surrogate.LSO()), ("lso_2", surrogate.LSO(slope=0.2)),
             ("sfs", surrogate.SFS()), ("sfs_b", surrogate.SFS(slope=10, B=0.5))]

    def custom(input_, grad_input, spikes):
        return grad_input * torch.exp(-input_.abs())

    cases.append(("custom", surrogate.custom_surrogate(custom)))
    for name, fn in cases if names is None else [c for c in cases if c[0] in names]:
        torch.manual_seed(0)
        inp = x.clone().requires_grad_()
        try:
            out = fn(inp)
            (out * torch.arange(31.0)).sum().backward()
            show(f"{name} spikes", out)
            show(f"{name} grad", inp.grad)
        except Exception as exc:
            print(name, "raises", type(exc).__name__, exc)


def surrogate_training(snn):
    """A two-layer spiking MLP trained with each of a few surrogates in its Leaky neurons."""
    from snntorch import surrogate

    for name, grad in (("fast_sigmoid", surrogate.fast_sigmoid(slope=25)), ("atan", surrogate.atan()),
                       ("sigmoid", surrogate.sigmoid(slope=10)), ("triangular", surrogate.triangular()),
                       ("spike_rate_escape", surrogate.spike_rate_escape())):
        print("surrogate", name)
        neuron(snn, lambda grad=grad: snn.Leaky(beta=0.8, spike_grad=grad), train_steps=2)


def spikegen(snn):
    """``snntorch.spikegen``'s encoders on seeded data: rate, latency (linear, log, normalised, clipped,
    interpolated), delta, rate_conv, the target encoders and one-hot conversions."""
    from snntorch import spikegen as sg

    torch.manual_seed(0)
    data = torch.rand(2, 6)
    attempt("rate", lambda: sg.rate(data, num_steps=5))
    attempt("rate gain", lambda: sg.rate(data, num_steps=4, gain=0.5, offset=0.1))
    attempt("rate first spike", lambda: sg.rate(data, num_steps=6, first_spike_time=2))
    attempt("rate time var", lambda: sg.rate(torch.rand(4, 2, 3), time_var_input=True))
    attempt("rate_conv", lambda: sg.rate_conv(data))
    attempt("latency", lambda: sg.latency(data, num_steps=8))
    attempt("latency linear", lambda: sg.latency(data, num_steps=8, linear=True, normalize=True))
    attempt("latency tau", lambda: sg.latency(data, num_steps=10, tau=2, threshold=0.2, clip=True))
    attempt("latency normalize", lambda: sg.latency(data, num_steps=10, tau=5, normalize=True))
    attempt("latency tau normalize", lambda: sg.latency(data, num_steps=10, tau=2, threshold=0.2, clip=True,
                                                        normalize=True))
    attempt("latency first", lambda: sg.latency(data, num_steps=10, first_spike_time=3, normalize=True, linear=True))
    attempt("latency interpolate", lambda: sg.latency(data, num_steps=10, normalize=True, linear=True,
                                                      interpolate=True))
    attempt("latency off", lambda: sg.latency(data, num_steps=6, on_target=1, off_target=0.5, normalize=True))
    attempt("latency bypass", lambda: sg.latency(data, num_steps=6, bypass=True, normalize=True))
    series = torch.cumsum(torch.randn(12, 3), dim=0)
    attempt("delta", lambda: sg.delta(series, threshold=0.5))
    attempt("delta off", lambda: sg.delta(series, threshold=0.5, off_spike=True))
    attempt("delta padding", lambda: sg.delta(series, threshold=0.3, padding=True, off_spike=True))
    targets = torch.tensor([0, 2, 1])
    attempt("targets_rate", lambda: sg.targets_rate(targets, num_classes=4))
    attempt("targets_convert", lambda: sg.targets_convert(targets, num_classes=4, on_target=0.9, off_target=0.1))
    attempt("targets_latency", lambda: sg.targets_latency(targets, num_classes=3, num_steps=6))
    attempt("to_one_hot", lambda: sg.to_one_hot(targets, 4))
    attempt("from_one_hot", lambda: sg.from_one_hot(sg.to_one_hot(targets, 4)))
    attempt("rate_interpolate", lambda: sg.rate_interpolate(torch.tensor([3, 1]), num_steps=6))
    attempt("latency_interpolate", lambda: sg.latency_interpolate(torch.tensor([3, 1]), num_steps=6))


def losses(snn):
    """``snntorch.functional``'s losses on seeded spike and membrane recordings: values and input gradients, with
    population codes, weights and reductions; the accuracies and the sparsity regulariser."""
    import snntorch.functional as SF

    torch.manual_seed(0)
    logits = torch.randn(8, 4, 6)
    mem = torch.randn(8, 4, 6)
    targets = torch.tensor([0, 2, 1, 2])

    def spikes():
        base = logits.clone().requires_grad_()
        return base, (base > 0.3).float() + base - base.detach()  # spikes with a straight-through gradient

    def check(name, loss_fn, use_mem=False, t=targets):
        base, spk = spikes()
        if use_mem:
            base = mem.clone().requires_grad_()
            spk = base
        try:
            value = loss_fn(spk, t)
            value.sum().backward()
            show(name, value)
            show(name + " grad", base.grad[:, 0])
        except Exception as exc:
            print(name, "raises", type(exc).__name__, exc)

    check("ce_rate", SF.ce_rate_loss())
    check("ce_rate none", SF.ce_rate_loss(reduction="none"))
    check("ce_rate weight", SF.ce_rate_loss(weight=torch.tensor([1.0, 2.0, 0.5, 1.0, 1.0, 1.0])))
    check("ce_rate pop", SF.ce_rate_loss(population_code=True, num_classes=3))
    check("ce_count", SF.ce_count_loss())
    check("ce_count pop", SF.ce_count_loss(population_code=True, num_classes=3))
    check("ce_count none", SF.ce_count_loss(reduction="none"))
    check("ce_max_membrane", SF.ce_max_membrane_loss(), use_mem=True)
    check("mse_count", SF.mse_count_loss(correct_rate=0.8, incorrect_rate=0.2))
    check("mse_count pop", SF.mse_count_loss(correct_rate=1.0, incorrect_rate=0.1, population_code=True,
                                             num_classes=3))
    check("mse_count none", SF.mse_count_loss(correct_rate=0.8, incorrect_rate=0.2, reduction="none"))
    check("mse_membrane", SF.mse_membrane_loss(on_target=1.0, off_target=0.0), use_mem=True)
    check("mse_membrane none", SF.mse_membrane_loss(on_target=0.8, off_target=0.1, reduction="none"), use_mem=True)
    check("mse_temporal", SF.mse_temporal_loss())
    check("mse_temporal tolerance", SF.mse_temporal_loss(on_target=2, off_target=6, tolerance=1))
    check("mse_temporal multi", SF.mse_temporal_loss(target_is_time=True, multi_spike=True),
          t=torch.tensor([[1.0, 3.0, 5.0, 7.0, 2.0, 4.0]] * 4))
    check("mse_temporal time", SF.mse_temporal_loss(target_is_time=True), t=torch.rand(4, 6) * 7)
    check("ce_temporal", SF.ce_temporal_loss())
    check("ce_temporal reciprocal", SF.ce_temporal_loss(inverse="reciprocal"))
    spk = (logits > 0.3).float()
    attempt("accuracy_rate", lambda: SF.accuracy_rate(spk, targets))
    attempt("accuracy_rate pop", lambda: SF.accuracy_rate(spk, targets, population_code=True, num_classes=3))
    attempt("accuracy_temporal", lambda: SF.accuracy_temporal(spk, targets))
    attempt("l1_rate_sparsity", lambda: SF.l1_rate_sparsity(Lambda=1e-3)(spk))


def quantization(snn):
    """``functional.quant.state_quant``'s uniform and non-uniform levels, alone and in a Leaky neuron's state."""
    from snntorch.functional import quant

    x = torch.linspace(-0.5, 1.5, 21).requires_grad_()
    for name, q in (("uniform", quant.state_quant(num_bits=3)),
                    ("uniform 4 not centred", quant.state_quant(num_bits=4, thr_centered=False)),
                    ("non-uniform", quant.state_quant(num_bits=3, uniform=False)),
                    ("multiplier", quant.state_quant(num_bits=3, uniform=False, multiplier=0.6)),
                    ("limits", quant.state_quant(num_bits=4, lower_limit=0.1, upper_limit=0.5, threshold=0.8))):
        x.grad = None
        attempt(f"quant {name}", lambda q=q: q(x))
        try:
            q(x).sum().backward()
            show(f"quant {name} grad", x.grad)
        except Exception as exc:
            print("quant", name, "backward raises", type(exc).__name__, exc)
    neuron(snn, lambda: snn.Leaky(beta=0.9, state_quant=quant.state_quant(num_bits=4)), train_steps=2)


def _spiking_mlp(snn, output=True):
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 5), snn.Leaky(beta=0.8, init_hidden=True),
                         nn.Linear(5, 3), snn.Leaky(beta=0.8, init_hidden=True, output=output))


def backprop(snn, method="BPTT", optimizer="Adam", **kwargs):
    """``snntorch.backprop``'s ``BPTT``/``TBPTT``/``RTRL`` over a seeded loader for two epochs with ``optimizer``: the
    loss each returns and the trained weights."""
    import snntorch.functional as SF
    from snntorch import backprop as bp

    net = _spiking_mlp(snn)
    opt = getattr(torch.optim, optimizer)(net.parameters(), lr=2e-2)
    g = torch.Generator().manual_seed(1)
    loader = [(torch.rand(6, 4, 6, generator=g) * 2, torch.randint(0, 3, (4,), generator=g)) for _ in range(3)]
    criterion = SF.mse_count_loss(correct_rate=0.8, incorrect_rate=0.2)
    for epoch in range(2):
        try:
            loss = getattr(bp, method)(net, loader, optimizer=opt, criterion=criterion, **kwargs)
        except Exception as exc:
            print(method, "raises", type(exc).__name__, exc)
            return
        show(f"{method} epoch {epoch} loss", loss)
    show("weights", net[2].weight)


def training_loop(snn, make_hidden, steps=12, epochs=4, loss_name="ce_rate_loss", regularize=False):
    """A hand-written loop as the tutorials write it: ``utils.reset``, a loop over time recording spikes, an snnTorch
    loss (and the sparsity regulariser), Adam; each epoch's loss and accuracy."""
    import snntorch.functional as SF
    from snntorch import utils

    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(8, 10), make_hidden(), nn.Linear(10, 4), make_hidden(output=True))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    x = torch.rand(16, 8)
    y = torch.randint(0, 4, (16,))
    criterion = getattr(SF, loss_name)()
    reg = SF.l1_rate_sparsity(Lambda=1e-4)
    for epoch in range(epochs):
        utils.reset(net)
        spk_rec = torch.stack([_outputs(net(x))[0] for _ in range(steps)])
        loss = criterion(spk_rec, y) + (reg(spk_rec) if regularize else 0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("epoch", epoch, repr(loss.item()), repr(SF.accuracy_rate(spk_rec, y)))


def utils_(snn):
    """``snntorch.utils``: ``data_subset`` and ``valid_split`` on a seeded dataset, ``reset`` of a network's states."""
    from snntorch import utils

    class Data(torch.utils.data.Dataset):
        def __init__(self, n):
            g = torch.Generator().manual_seed(n)
            self.data, self.targets = torch.rand(n, 3, generator=g), torch.arange(n) % 3

        def __len__(self):
            return len(self.targets)

        def __getitem__(self, i):
            return self.data[i], self.targets[i]

    ds = utils.data_subset(Data(30), 3)
    show("subset", [len(ds), ds.targets])
    train, val = utils.valid_split(Data(20), Data(20), split=0.25, seed=1)
    show("valid_split", [len(train), len(val), [int(train[i][1]) for i in range(len(train))]])
    net = _spiking_mlp(snn)
    net(torch.rand(2, 6))
    utils.reset(net)
    show("after reset", net[1].mem)


def stdp(snn):
    """``functional.stdp_learner``: the single-step STDP rules on a Linear layer and ``STDPLearner`` with its
    monitors, steps of a spiking layer's weight updates."""
    from snntorch.functional import stdp_learner as sl

    torch.manual_seed(0)
    fc = nn.Linear(5, 3, bias=False)
    trace_pre = trace_post = None
    for t in range(4):
        inp = (torch.rand(2, 5) > 0.5).float()
        out = (torch.rand(2, 3) > 0.5).float()
        trace_pre, trace_post, dw = sl.stdp_linear_single_step(fc, inp, out, trace_pre, trace_post, 2.0, 3.0)
        show(f"stdp dw {t}", dw)
    attempt("mstdp", lambda: sl.mstdp_linear_single_step(fc, inp, out, None, None, 2.0, 3.0))
    conv = nn.Conv2d(1, 2, 3, bias=False)
    attempt("stdp conv2d", lambda: sl.stdp_conv2d_single_step(conv, (torch.rand(1, 1, 5, 5) > 0.5).float(),
                                                              (torch.rand(1, 2, 3, 3) > 0.5).float(), None, None,
                                                              2.0, 2.0))
    lif = snn.Leaky(beta=0.9, init_hidden=True)
    net = nn.Sequential(fc, lif)
    learner = sl.STDPLearner(fc, lif, tau_pre=2.0, tau_post=2.0)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for t in range(4):
        net(torch.rand(2, 5) * 3)
        opt.zero_grad()
        attempt(f"learner step {t}", lambda: learner.step(on_grad=True))
        opt.step()
    show("stdp weight", fc.weight)


def probes(snn):
    """``functional.probe``'s monitors: a network's neuron outputs, inputs, states and gradients recorded."""
    from snntorch.functional import probe

    net = _spiking_mlp(snn, output=False)
    lif_type = snn.Leaky
    outputs = probe.OutputMonitor(net, instance=lif_type)
    inputs = probe.InputMonitor(net, instance=lif_type)
    mems = probe.AttributeMonitor("mem", pre_forward=False, net=net, instance=lif_type)
    grads = probe.GradOutputMonitor(net, instance=nn.Linear)
    x = torch.rand(3, 2, 6) * 2
    sum(net(x[t]).sum() for t in range(3)).backward()
    for name, mon in (("outputs", outputs), ("inputs", inputs), ("mems", mems), ("grads", grads)):
        show(name, [len(mon.records), *[r.tolist() if isinstance(r, torch.Tensor) else r for r in mon.records[:2]]])
