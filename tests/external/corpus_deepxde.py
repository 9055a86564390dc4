"""Drivers for DeepXDE's scripts (``recipes_deepxde.py``): what each run prints beyond the package's own display.

``watch(dde)`` is called right after a script's ``import deepxde as dde``: DeepXDE prints its losses with three
digits (``1.23e-02``) and times ``compile``/``train`` with the wall clock, so this script's own copy of the package
(each script loads it afresh from its folder) reads a clock that stands still (``'train' took 0.000000 s``), and
each ``Model.train`` call ends by printing the last losses, the test predictions and a few weights with every digit.
The other functions drive the package's parts directly on small seeded problems (nets, gradients, optimizers,
boundary conditions, DeepONets), printing values and gradients with every digit.
"""

from __future__ import annotations

import functools
import os
import shutil

import numpy as np
import torch


class _StillClock:
    """``timeit`` as ``deepxde.utils.internal.timing`` reads it: ``default_timer`` always says 0."""

    @staticmethod
    def default_timer():
        return 0.0


def _floats(values, count=6):
    """The first ``count`` numbers of an array, tensor or list, as Python floats (printed with every digit)."""
    if isinstance(values, torch.Tensor):
        values = values.detach().cpu().numpy()
    if isinstance(values, (list, tuple)) and values and not np.isscalar(values[0]):
        return [_floats(v, count) for v in values]
    return [float(v) for v in np.ravel(np.asarray(values, dtype=np.float64))[:count]]


def show(model) -> None:
    """The model's last losses, its test predictions and the first weights, with every digit."""
    history = model.losshistory
    print("steps", history.steps[-3:])
    print("loss_train", [_floats(loss, 12) for loss in history.loss_train[-2:]])
    print("loss_test", [_floats(loss, 12) for loss in history.loss_test[-1:]])
    if history.metrics_test:
        print("metrics", _floats(history.metrics_test[-1], 4))
    state = model.train_state
    if state.y_pred_test is not None:
        print("y_pred_test", _floats(state.y_pred_test, 8))
    params = [p for p in model.net.parameters() if p.requires_grad]
    if params:
        print("weights", _floats(params[0], 4), _floats(params[-1], 4))
    if getattr(model, "external_trainable_variables", None):
        print("variables", [_floats(v, 2) for v in model.external_trainable_variables])


def watch(dde) -> None:
    """This script's DeepXDE: a still clock for its timings, ``show`` after each ``Model.train``."""
    dde.utils.internal.timeit = _StillClock
    train = dde.Model.train

    @functools.wraps(train)
    def train_and_show(self, *args, **kwargs):
        result = train(self, *args, **kwargs)
        show(self)
        return result

    dde.Model.train = train_and_show


def _poisson_data(dde, num_domain=12, distribution="Hammersley", solution=True):
    """-u'' = pi^2 sin(pi x) on [-1, 1], u = sin(pi x) on the boundary (DeepXDE's first example)."""
    geom = dde.geometry.Interval(-1, 1)

    def pde(x, y):
        dy_xx = dde.grad.hessian(y, x)
        dy_xx = dy_xx[0] if isinstance(dy_xx, tuple) else dy_xx  # forward mode: (value, function), as JAX's
        return -dy_xx - np.pi ** 2 * torch.sin(np.pi * x)

    def func(x):
        return np.sin(np.pi * x)

    bc = dde.icbc.DirichletBC(geom, func, lambda _, on_boundary: on_boundary)
    return dde.data.PDE(geom, pde, bc, num_domain, 2, solution=func if solution else None, num_test=20,
                        train_distribution=distribution)


def poisson(dde, *, net=None, activation="tanh", initializer="Glorot uniform", regularization=None,
            optimizer="adam", lr=1e-3, iterations=12, callbacks=(), **compile_options):
    """The 1-D Poisson problem trained ``iterations`` steps; the model (``show`` prints it after training)."""
    print("poisson:", activation, initializer, regularization, optimizer, lr, sorted(compile_options))
    net = net or dde.nn.FNN([1, 16, 16, 1], activation, initializer, regularization=regularization)
    model = dde.Model(_poisson_data(dde), net)
    metrics = compile_options.pop("metrics", ["l2 relative error", "MSE"])
    model.compile(optimizer, lr=lr, metrics=metrics, **compile_options)
    model.train(iterations=iterations, display_every=max(1, iterations // 2), callbacks=list(callbacks))
    return model


def activations(dde, names):
    """Each activation (and initializer) on the Poisson problem."""
    for name in names:
        poisson(dde, activation=name)
    for initializer in ("Glorot normal", "He normal", "He uniform"):
        poisson(dde, initializer=initializer, iterations=6)


def optimizers(dde):
    """SGD, RMSprop, AdamW (an L2 regularizer's weight decay), Adam with each learning-rate decay, an L1 penalty."""
    poisson(dde, optimizer="sgd", lr=1e-2)
    poisson(dde, optimizer="rmsprop", lr=1e-3)
    poisson(dde, optimizer="adamw", lr=1e-3, regularization=["l2", 1e-2])
    poisson(dde, optimizer="adam", regularization=["l1", 1e-3])
    for decay in (("step", 4, 0.5), ("cosine", 10, 1e-5), ("inverse time", 3, 0.5), ("exponential", 0.9)):
        model = poisson(dde, decay=decay)
        print("lr after", decay[0], [float(g["lr"]) for g in model.opt.param_groups])
    model = poisson(dde, decay=("lambda", lambda step: 0.5 ** step))
    print("lr after lambda", [float(g["lr"]) for g in model.opt.param_groups])


def lbfgs(dde, iterations=10):
    """Adam, then L-BFGS (strong Wolfe line search) in two optimizer steps, with and without a line search."""
    model = poisson(dde, iterations=10)
    dde.optimizers.set_LBFGS_options(maxiter=iterations)
    dde.optimizers.LBFGS_options.update(iter_per_step=iterations // 2, fun_per_step=iterations * 5 // 8)
    model.compile("L-BFGS", metrics=["l2 relative error"])
    model.train()
    print("lbfgs state", sorted(model.opt.state_dict()["state"][0]), model.opt.state_dict()["state"][0]["n_iter"])
    dde.optimizers.set_LBFGS_options(maxiter=iterations, maxls=0)
    dde.optimizers.LBFGS_options.update(iter_per_step=iterations // 2, fun_per_step=iterations * 5 // 8)
    model.compile("L-BFGS")
    model.train()


def losses(dde):
    """The loss names DeepXDE takes, per-term lists and loss weights."""
    for loss in ("MAE", "mean l2 relative error", ["MSE", "MAE"]):
        poisson(dde, loss=loss)
    poisson(dde, loss_weights=[0.5, 10.0])


def nets(dde):
    """PFNN (parallel sub-networks), FNN with a list of activations, input and output transforms."""
    poisson(dde, net=dde.nn.PFNN([1, [8, 8], [8, 8], 2], "tanh", "Glorot uniform"), metrics=[])
    poisson(dde, net=dde.nn.PFNN([1, 12, [8, 8], 2], "tanh", "Glorot normal"), metrics=[])
    poisson(dde, net=dde.nn.FNN([1, 12, 12, 1], ["tanh", "sin", "sigmoid"], "Glorot uniform"))
    net = dde.nn.FNN([2, 12, 12, 1], "tanh", "Glorot uniform")
    net.apply_feature_transform(lambda x: torch.cat([torch.sin(np.pi * x), torch.cos(np.pi * x)], dim=1))
    net.apply_output_transform(lambda x, y: (1 - x ** 2) * y + torch.sin(np.pi * x))
    poisson(dde, net=net)
    print("num_trainable_parameters", net.num_trainable_parameters())


def gradients(dde):
    """dde.grad's jacobian and hessian of a seeded net's outputs (reverse mode), their caches, and a forward-mode
    (torch.func.jvp) training run."""
    net = dde.nn.FNN([2, 8, 8, 3], "tanh", "Glorot normal")
    x = torch.as_tensor(np.linspace(-1, 1, 10).reshape(5, 2), dtype=torch.get_default_dtype()).requires_grad_()
    y = net(x)
    print("y", _floats(y, 15))
    for i, j in ((0, 0), (1, 1), (2, None)):
        print("jacobian", i, j, _floats(dde.grad.jacobian(y, x, i=i, j=j), 10))
    for component, i, j in ((0, 0, 0), (1, 0, 1), (2, 1, 1)):
        print("hessian", component, i, j, _floats(dde.grad.hessian(y, x, component=component, i=i, j=j), 10))
    third = dde.grad.jacobian(dde.grad.hessian(y, x, component=0, i=0, j=0), x, i=0, j=1)
    print("third derivative", _floats(third, 5))
    loss = (third ** 2).sum()
    loss.backward()
    print("grad through third", _floats(next(net.parameters()).grad, 8))
    dde.grad.clear()
    dde.config.set_default_autodiff("forward")
    poisson(dde, iterations=8)
    dde.config.set_default_autodiff("reverse")


def nncg(dde):
    """Adam, then DeepXDE's NNCG optimizer (Nystrom preconditioned Newton-CG: Hessian-vector products through
    torch.func.vmap, QR, Cholesky, SVD, a line search)."""
    model = poisson(dde, iterations=10)
    dde.optimizers.set_NNCG_options(rank=4, updatefreq=3, cgmaxiter=5)
    model.compile("NNCG")
    model.train(iterations=4, display_every=2)


def mixed(dde):
    """Mixed precision: float16 autocast in the training step, float32 weights."""
    dde.config.set_default_float("mixed")
    poisson(dde, iterations=6)


def callbacks(dde):
    """EarlyStopping, ModelCheckpoint with Model.restore, OperatorPredictor and FirstDerivative, the resampler."""
    shutil.rmtree("model", ignore_errors=True)  # (the other library's run wrote its checkpoints here too)
    os.makedirs("model")
    x = np.linspace(-1, 1, 5, dtype=dde.config.real(np))[:, None]
    predictor = dde.callbacks.OperatorPredictor(x, lambda x, y: dde.grad.hessian(y, x), period=4, precision=10)
    first = dde.callbacks.FirstDerivative(x, period=4)
    checkpoint = dde.callbacks.ModelCheckpoint("model/ckpt", save_better_only=True, period=4)
    stop = dde.callbacks.EarlyStopping(min_delta=1e9, patience=3)
    model = poisson(dde, iterations=12, callbacks=[predictor, first, checkpoint, stop,
                                                  dde.callbacks.PDEPointResampler(period=5, bc_points=True)])
    print("predictor", _floats(predictor.get_value(), 5), "first", _floats(first.get_value(), 5))
    print("stopped at", model.train_state.step, model.train_state.best_step)
    before = _floats(model.predict(x), 5)
    saved = sorted((f for f in os.listdir("model") if f.startswith("ckpt-")), key=lambda f: int(f[5:-3]))
    print("checkpoints", saved)
    model.restore(f"model/{saved[-1]}")
    print("restored", before, _floats(model.predict(x), 5))
    model.save("model/last")
    print("saved", sorted(model.state_dict()))
    print("operator", _floats(model.predict(x, operator=lambda x, y: dde.grad.jacobian(y, x)), 5))


def deeponets(dde, strategy=None, outputs=1):
    """DeepONet on seeded aligned data (TripleCartesianProd) with a multi-output strategy, and the unaligned one."""
    rng, real = np.random.RandomState(0), dde.config.real(np)
    branch, trunk = rng.rand(12, 6).astype(real), np.linspace(0, 1, 7, dtype=real)[:, None]
    y = np.sin(branch.sum(axis=1, keepdims=True) * trunk.T)
    y = np.stack([y * (k + 1) for k in range(outputs)], axis=-1) if outputs > 1 else y
    data = dde.data.TripleCartesianProd((branch[:8], trunk), y[:8], (branch[8:], trunk), y[8:])
    width = {"split_branch": 8 * outputs, "split_trunk": 8}.get(strategy, 8)
    trunk_width = {"split_trunk": 8 * outputs}.get(strategy, 8)
    net = dde.nn.DeepONetCartesianProd([6, 10, width], [1, 10, trunk_width], "tanh", "Glorot normal",
                                       num_outputs=outputs, multi_output_strategy=strategy)
    model = dde.Model(data, net)
    model.compile("adam", lr=1e-3, metrics=["mean l2 relative error"])
    model.train(iterations=8, display_every=4)
    if outputs == 1:
        flat = (np.repeat(branch, 7, axis=0), np.tile(trunk, (12, 1)))
        data = dde.data.Triple(flat, y.reshape(-1, 1), flat, y.reshape(-1, 1))
        net = dde.nn.DeepONet([6, 10, 8], [1, 10, 8], {"branch": "relu", "trunk": "tanh"}, "Glorot normal")
        model = dde.Model(data, net)
        model.compile("adam", lr=1e-3, metrics=["l2 relative error"])
        model.train(iterations=8, display_every=4)


def pod_and_mionet(dde):
    """PODDeepONet on a POD basis of seeded data and MIONetCartesianProd with two input functions (float32: the
    PyTorch PODDeepONet keeps its basis in float32)."""
    dde.config.set_default_float("float32")
    rng = np.random.RandomState(1)
    branch, trunk = rng.rand(10, 5).astype(np.float32), np.linspace(0, 1, 9, dtype=np.float32)[:, None]
    y = np.cos(branch[:, :1] * 3 * trunk.T) + branch[:, 1:2]
    basis = np.linalg.svd(y - y.mean(axis=0), full_matrices=False)[2][:3].T
    data = dde.data.TripleCartesianProd((branch[:7], trunk), y[:7], (branch[7:], trunk), y[7:])
    net = dde.nn.PODDeepONet(basis, [5, 10, 3], "tanh", "Glorot normal")
    model = dde.Model(data, net)
    model.compile("adam", lr=1e-3, metrics=["mean l2 relative error"])
    model.train(iterations=8, display_every=4)
    second = rng.rand(10, 4).astype(np.float32)
    data = dde.data.QuadrupleCartesianProd((branch[:7], second[:7], trunk), y[:7], (branch[7:], second[7:], trunk),
                                           y[7:])
    for merge in ("mul", "add"):
        net = dde.nn.MIONetCartesianProd([5, 8, 8], [4, 8, 8], [1, 8, 8], "tanh", "Glorot normal",
                                         merge_operation=merge)
        model = dde.Model(data, net)
        model.compile("adam", lr=1e-3)
        model.train(iterations=6, display_every=3)


def float32(dde):
    """The drivers below in float32, DeepXDE's default (the preamble sets float64)."""
    dde.config.set_default_float("float32")
