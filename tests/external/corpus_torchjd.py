"""Drivers for TorchJD's scripts (``recipes_torchjd.py``): every aggregator and weighting on seeded Jacobians,
``autojac.backward``/``mtl_backward`` on small networks (the aggregated gradients), ``autogram.Engine``'s Gramians
and a few steps of multi-task training, values printed with every digit."""

from __future__ import annotations

import torch


def _show(name, t):
    print(name, tuple(t.shape), [float(v) for v in t.detach().reshape(-1)[:16].tolist()])


def _aggregators(m=5, dtype=torch.float32):
    """Every aggregator for ``m`` rows (Krum wants 4 or more, TrimmedMean 3 or more)."""
    from torchjd import aggregation as A

    weights = torch.linspace(0.1, 0.3, m, dtype=dtype)
    more = [A.Krum(n_byzantine=1), A.TrimmedMean(trim_number=1)] if m >= 4 else []
    return [A.UPGrad(), A.UPGrad(pref_vector=torch.linspace(0.5, 2.0, m, dtype=dtype), reg_eps=1e-3), A.MGDA(),
            A.MGDA(epsilon=1e-5, max_iters=500), A.DualProj(), A.AlignedMTL(), A.ConFIG(), A.Constant(weights),
            A.GradDrop(), A.IMTLG(), A.Mean(), A.PCGrad(), A.Random(), A.Sum(), *more]


def aggregators(dtype):
    """Each aggregator on three seeded 5x6 Jacobians (one with conflicting rows, one with a zero row) and the
    weightings on their Gramian; the str/repr of each."""
    from torchjd import aggregation as A

    torch.manual_seed(0)
    conflicting = torch.tensor([[1.0, 0.5, -1.0, 0.0, 2.0, 0.1], [-1.0, 1.0, 1.0, 0.5, -2.0, 0.0],
                                [0.3, -0.2, 0.1, 1.0, 0.0, -0.4], [0.0, 0.0, 0.5, -1.0, 1.0, 1.0],
                                [-0.5, -0.5, 0.0, 0.2, 0.3, -1.0]], dtype=dtype)
    matrices = [torch.randn(5, 6, dtype=dtype), conflicting,
                torch.cat([torch.randn(4, 6, dtype=dtype), torch.zeros(1, 6, dtype=dtype)])]
    for agg in _aggregators(5, dtype):
        print(repr(agg), str(agg))
        for i, m in enumerate(matrices):
            torch.manual_seed(1)
            try:
                _show(f"  matrix {i}", agg(m))
            except Exception as e:  # the same refusal in both runs
                print(f"  matrix {i}", type(e).__name__, e)
    for weighting in (A.UPGradWeighting(), A.MGDAWeighting(), A.DualProjWeighting(), A.IMTLGWeighting(),
                      A.AlignedMTLWeighting(), A.PCGradWeighting(), A.MeanWeighting(), A.SumWeighting(),
                      A.KrumWeighting(n_byzantine=1)):
        for i, m in enumerate(matrices):
            _show(f"{weighting.__class__.__name__} {i}", weighting(m @ m.T))
    generalized = A.Flattening(A.UPGradWeighting())
    j = torch.randn(2, 3, 4, dtype=dtype)
    _show("Flattening", generalized(torch.einsum("abk,cdk->abcd", j, j)))


def backward():
    """``autojac.backward`` with each aggregator on a two-output function of two parameters and on a small
    network's per-example losses (``parallel_chunk_size``), the ``.grad`` fields."""
    from torchjd.autojac import backward as jd_backward

    for agg in _aggregators(3):
        torch.manual_seed(2)
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.randn(3, requires_grad=True)
        y1 = torch.tensor([-1.0, 1.0]) @ a + b.sum()
        y2 = (a ** 2).sum() - (b ** 3).sum()
        y3 = (a[0] * b).tanh().sum()
        jd_backward([y1, y2, y3], agg)
        _show(f"{agg.__class__.__name__} a.grad", a.grad)
        _show("  b.grad", b.grad)
    from torchjd.aggregation import UPGrad

    for chunk in (None, 1, 3):
        torch.manual_seed(3)
        net = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.Linear(6, 1))
        x, t = torch.randn(5, 4), torch.randn(5, 1)
        losses = ((net(x) - t) ** 2).squeeze(1)
        jd_backward(losses, UPGrad(), parallel_chunk_size=chunk)
        for name, p in net.named_parameters():
            _show(f"chunk {chunk} {name}", p.grad)


def mtl_train(steps=5):
    """Multi-task training as its README shows it: a shared trunk, two heads, ``mtl_backward`` with UPGrad (and
    MGDA, Aligned-MTL), SGD steps; the losses and the trunk's gradient."""
    from torchjd.aggregation import MGDA, AlignedMTL, UPGrad
    from torchjd.autojac import mtl_backward

    for agg in (UPGrad(), MGDA(), AlignedMTL()):
        torch.manual_seed(4)
        shared = torch.nn.Sequential(torch.nn.Linear(10, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3), torch.nn.ReLU())
        head1, head2 = torch.nn.Linear(3, 1), torch.nn.Linear(3, 1)
        params = [*shared.parameters(), *head1.parameters(), *head2.parameters()]
        opt = torch.optim.SGD(params, lr=0.1)
        x, t1, t2 = torch.randn(steps, 16, 10), torch.randn(steps, 16, 1), torch.randn(steps, 16, 1)
        for i in range(steps):
            features = shared(x[i])
            loss1 = torch.nn.functional.mse_loss(head1(features), t1[i])
            loss2 = torch.nn.functional.mse_loss(head2(features), t2[i])
            opt.zero_grad()
            mtl_backward(losses=[loss1, loss2], features=features, aggregator=agg)
            print(agg.__class__.__name__, i, float(loss1), float(loss2))
            _show("  trunk grad", shared[0].weight.grad)
            _show("  head grad", head1.weight.grad)
            opt.step()


def autogram(steps=4):
    """``autogram.Engine``: the Gramian of per-example losses of an MLP and of a small CNN, the UPGrad weights of
    it and training steps with ``losses.backward(weights)``; the Gramian checked against the Jacobian's."""
    from torchjd.aggregation import UPGradWeighting
    from torchjd.autogram import Engine

    torch.manual_seed(5)
    model = torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    engine = Engine(model, batch_dim=0)
    weighting = UPGradWeighting()
    x, t = torch.randn(steps, 8, 5), torch.randn(steps, 8)
    for i in range(steps):
        losses = (model(x[i]).squeeze(1) - t[i]) ** 2
        opt.zero_grad()
        gramian = engine.compute_gramian(losses)
        weights = weighting(gramian)
        losses.backward(weights)
        opt.step()
        print("mlp", i, float(losses.mean()))
        _show("  gramian", gramian)
        _show("  weights", weights)
    torch.manual_seed(6)
    cnn = torch.nn.Sequential(torch.nn.Conv2d(1, 3, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(48, 2))
    images = torch.randn(4, 1, 6, 6)
    out = cnn(images).sum(1)
    gramian = Engine(cnn, batch_dim=0).compute_gramian(out)
    _show("cnn gramian", gramian)
    rows = [torch.autograd.grad(o, list(cnn.parameters()), retain_graph=True) for o in cnn(images).sum(1)]
    jac = torch.stack([torch.cat([g.reshape(-1) for g in row]) for row in rows])
    _show("J J^T", jac @ jac.T)
    gramian = Engine(cnn, batch_dim=None).compute_gramian(cnn(images))
    _show("no batch dim", gramian)
