"""Drivers and stand-ins for ``recipes_backpack.py`` (BackPACK 1.7.1 on core and on torch).

``mnist_batch`` and ``mnist_loader`` stand in for
``backpack.utils.examples``' MNIST helpers (seeded NumPy images, the same in both runs); the drivers print every
quantity an extension computes on small seeded networks, with every digit (``.tolist()`` reprs).
"""

from __future__ import annotations

import numpy as np
import torch


def _mnist(size):
    rng = np.random.RandomState(0)
    images = (rng.rand(size, 1, 28, 28).astype(np.float32) - 0.1307) / 0.3081
    return torch.tensor(images), torch.tensor(rng.randint(0, 10, size).astype(np.int64))


def mnist_batch(batch_size=64, shuffle=True, flat=False):
    """``load_one_batch_mnist``'s stand-in: ``batch_size`` seeded normalised 28x28 images and their labels."""
    x, y = _mnist(batch_size)
    return (x.reshape(x.shape[0], -1), y) if flat else (x, y)


def mnist_loader(batch_size=64, shuffle=True):
    """``get_mnist_dataloader``'s stand-in: a DataLoader over 16 batches of seeded images (shuffled by torch's
    generator, as the real loader is)."""
    x, y = _mnist(16 * batch_size)
    return torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=batch_size, shuffle=shuffle)


def show(name, value):
    """``name`` and ``value``'s numbers with every digit."""
    print(name, repr(value.detach().tolist() if isinstance(value, torch.Tensor) else value))


FIRST = ("grad_batch", "batch_l2", "sum_grad_squared", "variance")
SECOND = ("diag_ggn_exact", "diag_ggn_mc", "diag_batch_ggn_exact", "diag_batch_ggn_mc", "kfac", "kflr", "kfra",
          "diag_h", "diag_h_batch", "sqrt_ggn_exact", "sqrt_ggn_mc")


def _net(kind):
    """A small seeded network of ``kind`` and an input batch for it (float64 unless ``kind`` ends in 32)."""
    torch.manual_seed(0)
    nn = torch.nn
    if kind.startswith("mlp"):
        net, x = nn.Sequential(nn.Linear(6, 5), nn.Tanh(), nn.Linear(5, 4), nn.Sigmoid(), nn.Linear(4, 3)), (4, 6)
    elif kind.startswith("conv1d"):
        net, x = nn.Sequential(nn.Conv1d(2, 3, 3), nn.SELU(), nn.Flatten(), nn.Linear(12, 3)), (3, 2, 6)
    elif kind.startswith("conv"):
        net = nn.Sequential(nn.Conv2d(2, 3, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(3, 2, 2, stride=1),
                            nn.ELU(), nn.Flatten(), nn.Linear(18, 3))
        x = (3, 2, 8, 8)
    elif kind.startswith("tconv"):
        net = nn.Sequential(nn.ConvTranspose2d(2, 3, 2, stride=2), nn.LeakyReLU(0.1), nn.AvgPool2d(2),
                            nn.ZeroPad2d(1), nn.Flatten(), nn.Linear(108, 3))
        x = (3, 2, 4, 4)
    else:
        net = nn.Sequential(nn.Conv3d(1, 2, 2), nn.Tanh(), nn.Flatten(), nn.Linear(54, 3))
        x = (3, 1, 4, 4, 4)
    dtype = torch.float32 if kind.endswith("32") else torch.float64
    return net.to(dtype), torch.randn(*x, dtype=dtype)


def extensions(kind, loss="ce", names=FIRST + SECOND):
    """Each BackPACK extension named (first order, then second order, one ``backward`` each) on ``_net(kind)`` with
    a cross-entropy (``ce``) or MSE loss: the quantities it stores on each parameter, and the gradient."""
    from backpack import backpack, extend
    from backpack import extensions as ext

    classes = {"grad_batch": ext.BatchGrad, "batch_l2": ext.BatchL2Grad, "sum_grad_squared": ext.SumGradSquared,
               "variance": ext.Variance, "diag_ggn_exact": ext.DiagGGNExact, "diag_ggn_mc": ext.DiagGGNMC,
               "diag_batch_ggn_exact": ext.BatchDiagGGNExact, "diag_batch_ggn_mc": ext.BatchDiagGGNMC,
               "kfac": ext.KFAC, "kflr": ext.KFLR, "kfra": ext.KFRA, "diag_h": ext.DiagHessian,
               "diag_h_batch": ext.BatchDiagHessian, "sqrt_ggn_exact": ext.SqrtGGNExact, "sqrt_ggn_mc": ext.SqrtGGNMC}
    net, x = _net(kind)
    model = extend(net)
    out_dim = 3
    if loss == "ce":
        lossfunc, y = extend(torch.nn.CrossEntropyLoss()), torch.tensor([0, 2, 1, 1][: x.shape[0]])
    else:
        lossfunc, y = extend(torch.nn.MSELoss()), torch.randn(x.shape[0], out_dim, dtype=x.dtype)
    for name in names:
        if name in ("kfra", "diag_h", "diag_h_batch") and any(isinstance(m, torch.nn.MaxPool2d) for m in net):
            continue  # (BackPACK supports neither through max-pooling)
        model.zero_grad()
        torch.manual_seed(1)  # the Monte-Carlo extensions sample from torch's generator
        value = lossfunc(model(x), y)
        try:
            with backpack(classes[name]()):
                value.backward()
        except Exception as exc:  # the failure is the output, in both libraries
            print(kind, name, "raised", type(exc).__name__, str(exc).splitlines()[0][:150])
            continue
        show(f"{kind} {loss} {name} loss", value)
        for pname, p in model.named_parameters():
            stored = getattr(p, name)
            for i, part in enumerate(stored if isinstance(stored, list) else [stored]):
                show(f"{kind} {name} {pname}[{i}]", part)
            if name == "grad_batch":
                show(f"{kind} grad {pname}", p.grad)


def curvature_products(kind="mlp"):
    """BackPACK's Hessian-free products (``hessian_vector_product``, ``ggn_vector_product``, R- and L-operators) and
    its block curvature-matrix products (HMP, GGNMP, PCHMP) applied to seeded vectors."""
    from backpack import backpack, extend
    from backpack import extensions as ext
    from backpack.hessianfree.ggnvp import ggn_vector_product
    from backpack.hessianfree.hvp import hessian_vector_product
    from backpack.hessianfree.lop import transposed_jacobian_vector_product
    from backpack.hessianfree.rop import jacobian_vector_product

    net, x = _net(kind)
    y = torch.tensor([0, 2, 1, 1][: x.shape[0]])
    lossfunc = torch.nn.CrossEntropyLoss()
    params = list(net.parameters())
    torch.manual_seed(2)
    v = [torch.randn_like(p) for p in params]
    out = net(x)
    loss = lossfunc(out, y)
    for i, hv in enumerate(hessian_vector_product(loss, params, v)):
        show(f"{kind} hvp[{i}]", hv)
    for i, gv in enumerate(ggn_vector_product(loss, out, net, v)):
        show(f"{kind} ggnvp[{i}]", gv)
    w = torch.randn_like(out)
    for i, jv in enumerate(transposed_jacobian_vector_product(out, params, w)):
        show(f"{kind} vjp[{i}]", jv)
    for i, jv in enumerate(jacobian_vector_product(out, params, v)):
        show(f"{kind} jvp[{i}]", jv)
    model, lossfunc = extend(net), extend(lossfunc)
    for name, cls in (("hmp", ext.HMP), ("ggnmp", ext.GGNMP), ("pchmp", ext.PCHMP)):
        loss = lossfunc(model(x), y)
        try:
            with backpack(cls()):
                loss.backward()
        except Exception as exc:  # the failure is the output, in both libraries
            print(kind, name, "raised", type(exc).__name__, str(exc).splitlines()[0][:150])
            continue
        for pname, p in model.named_parameters():
            torch.manual_seed(3)
            mat = torch.randn(2, *p.shape, dtype=p.dtype)
            show(f"{kind} {name} {pname}", getattr(p, name)(mat))


def recurrent(kind="rnn"):
    """First- and second-order extensions through BackPACK's RNN or LSTM, Embedding and Conv1d derivatives
    (batch-first, its custom ``ReduceTuple`` picking the output and ``Permute`` making channels), in float64."""
    from backpack import backpack, extend
    from backpack import extensions as ext
    from backpack.custom_module.permute import Permute
    from backpack.custom_module.reduce_tuple import ReduceTuple

    torch.manual_seed(0)
    nn = torch.nn
    cell = nn.RNN(4, 5, batch_first=True) if kind == "rnn" else nn.LSTM(4, 5, batch_first=True)
    net = nn.Sequential(nn.Embedding(7, 4), cell, ReduceTuple(index=0), Permute(0, 2, 1), nn.Conv1d(5, 3, 1),
                        nn.Flatten(), nn.Linear(9, 3)).double()
    model, lossfunc = extend(net), extend(nn.CrossEntropyLoss(reduction="sum"))
    x, y = torch.randint(0, 7, (2, 3)), torch.tensor([1, 2])
    for cls in (ext.BatchGrad, ext.Variance, ext.SumGradSquared, ext.BatchL2Grad, ext.DiagGGNExact,
                ext.BatchDiagGGNExact, ext.SqrtGGNExact):
        model.zero_grad()
        loss = lossfunc(model(x), y)
        try:
            with backpack(cls()):
                loss.backward()
        except Exception as exc:  # the failure is the output, in both libraries
            print(kind, cls.__name__, "raised", type(exc).__name__, str(exc).splitlines()[0][:150])
            continue
        for pname, p in model.named_parameters():
            field = cls().savefield
            show(f"{kind} {cls.__name__} {pname}", getattr(p, field))


def batchnorm():
    """BatchGrad, BatchL2Grad and DiagGGNExact through BatchNorm1d/2d in training and evaluation mode (BackPACK's
    per-sample gradients refuse training-mode batch norm unless asked to ignore it)."""
    from backpack import backpack, extend
    from backpack import extensions as ext

    torch.manual_seed(0)
    nn = torch.nn
    for train in (False, True):
        net = nn.Sequential(nn.Conv2d(2, 3, 2), nn.BatchNorm2d(3), nn.ReLU(), nn.Flatten(), nn.Linear(27, 4),
                            nn.BatchNorm1d(4), nn.Linear(4, 3)).double()
        net.train(train)
        model, lossfunc = extend(net), extend(nn.CrossEntropyLoss())
        x, y = torch.randn(4, 2, 4, 4, dtype=torch.float64), torch.tensor([0, 1, 2, 1])
        for cls in (ext.BatchGrad, ext.BatchL2Grad, ext.DiagGGNExact, ext.SumGradSquared):
            model.zero_grad()
            loss = lossfunc(model(x), y)
            try:
                with backpack(cls()):
                    loss.backward()
            except Exception as exc:  # the failure is the output, in both libraries
                print("train" if train else "eval", cls.__name__, "raised", type(exc).__name__,
                      str(exc).splitlines()[0][:120])
                continue
            for pname, p in model.named_parameters():
                show(f"{'train' if train else 'eval'} {cls.__name__} {pname}", getattr(p, cls().savefield))


def train(kind="mlp", steps=4, curvature="diag_ggn_exact", lr=0.1, damping=1.0):
    """``steps`` steps of a diagonal-curvature preconditioned SGD (``p -= lr * g / (curv + damping)``) on seeded
    data: each loss, and the parameters at the end."""
    from backpack import backpack, extend
    from backpack import extensions as ext

    cls = {"diag_ggn_exact": ext.DiagGGNExact, "diag_ggn_mc": ext.DiagGGNMC, "diag_h": ext.DiagHessian}[curvature]
    net, x = _net(kind)
    model, lossfunc = extend(net), extend(torch.nn.CrossEntropyLoss())
    y = torch.tensor([0, 2, 1, 1][: x.shape[0]])
    torch.manual_seed(4)
    for step in range(steps):
        model.zero_grad()
        loss = lossfunc(model(x), y)
        with backpack(cls(), ext.Variance()):
            loss.backward()
        show(f"{kind} {curvature} step {step} loss", loss)
        with torch.no_grad():
            for p in model.parameters():
                p.sub_(lr * p.grad / (getattr(p, curvature) + damping))
    for pname, p in model.named_parameters():
        show(f"{kind} {curvature} trained {pname}", p)
