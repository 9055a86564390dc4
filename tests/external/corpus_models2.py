"""The drivers and stand-ins for corpus helper I's scripts: research model code, second batch (our code).

- ``stand_ins()``: the few names the Time-Series-Library's layers import from packages the corpus lacks, as
  modules whose ``__file__`` lies in the script's folder (so the runner drops them after the script, as it drops
  the script's own modules): reformer_pytorch's ``LSHSelfAttention`` (None: only its Reformer model builds one),
  SciPy's ``fftpack.next_fast_len`` (the next 5-smooth length, ETSformer's growth-damping convolution) and
  ``special.eval_legendre`` (NumPy's Legendre series, FEDformer's multiwavelet bases), ``signal.cont2discrete``
  (the bilinear transform, FiLM's Legendre memory); an empty ``yaml`` (SimCLR's
  utils write a config file the recipe never asks for).
- ``series(Model, task=..., **config)``: builds a Time-Series-Library model from the command line's settings as
  ``run.py`` hands them (a small configuration: 32 steps in, 8 predicted, 3 variates, width 16), trains it 3 Adam
  steps on seeded random series the way ``exp/`` trains each task (MSE on the forecast, on the masked entries for
  imputation, on the input for anomaly detection, cross-entropy for classification; SGD with momentum where a bias
  feeds BatchNorm, ``sgd=True``: its gradient is rounding noise, which Adam makes a full step) and prints the
  losses, the gradient norm ``clip_grad_norm_`` reports, the parameter count, the state_dict's keys and an
  eval-mode output.
- ``simsiam``, ``info_nce``, ``byol``: the self-supervised learners' training loops on seeded random views through
  ``small_resnet`` (a torchvision-style encoder with an ``fc`` head; torchvision is the runner's stub), and
  ``identity_transforms()`` for BYOL's default augmentation; ``barlow_twins``: its loss and LARS on a gloo group of
  one; ``maml``: MAML's meta-training on seeded 3-way tasks, ``maml_second_order`` with the inner graph kept.
- ``linear_forecast`` (LTSF-Linear), ``multiwavelets`` (FEDformer's multiwavelet layers, small), ``capsules`` (the
  capsule network's training step), ``bayesian_layers`` (blitz's layers), ``ncf`` (NCF's four model kinds).
"""

from __future__ import annotations

import os
import sys
import types


def _next_fast_len(target):
    """SciPy's fftpack.next_fast_len: the least 2-3-5-smooth number not below ``target``."""
    n = max(int(target), 1)
    while True:
        m = n
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1


def _eval_legendre(k, x):
    """SciPy's special.eval_legendre: the degree-``k`` Legendre polynomial at ``x``, broadcasting both (Bonnet's
    recurrence up to the largest degree asked for)."""
    import numpy as np

    k, x = np.broadcast_arrays(np.asarray(k).astype(int), np.asarray(x, dtype=float))
    p = [np.ones_like(x), x]
    for n in range(1, int(k.max(initial=0))):
        p.append(((2 * n + 1) * x * p[n] - n * p[n - 1]) / (n + 1))
    return np.take_along_axis(np.stack(p), k[None], axis=0)[0]


def _cont2discrete(system, dt, method="bilinear"):
    """SciPy's signal.cont2discrete for a state-space ``(A, B, C, D)`` by the bilinear (Tustin) transform."""
    import numpy as np

    if method not in ("bilinear", "tustin"):
        raise NotImplementedError(method)
    a, b, c, d = (np.atleast_2d(np.asarray(m, dtype=float)) for m in system)
    ima = np.eye(a.shape[0]) - 0.5 * dt * a
    ad = np.linalg.solve(ima, np.eye(a.shape[0]) + 0.5 * dt * a)
    bd = np.linalg.solve(ima, dt * b)
    cd = np.linalg.solve(ima.T, c.T).T
    return ad, bd, cd, d + 0.5 * c @ bd, dt


def stand_ins():
    """Register the stand-in modules for this script only (see the module docstring)."""
    here = os.path.join(os.getcwd(), "stand_in.py")
    modules = {
        "reformer_pytorch": {"LSHSelfAttention": None},
        "yaml": {},
        "scipy": {},
        "scipy.fftpack": {"next_fast_len": _next_fast_len},
        "scipy.special": {"eval_legendre": _eval_legendre},
        "scipy.signal": {"cont2discrete": _cont2discrete},
    }
    for name, attrs in modules.items():
        module = types.ModuleType(name)
        module.__file__ = here
        module.__dict__.update(attrs)
        sys.modules[name] = module
    sys.modules["scipy"].fftpack = sys.modules["scipy.fftpack"]
    sys.modules["scipy"].special = sys.modules["scipy.special"]
    sys.modules["scipy"].signal = sys.modules["scipy.signal"]


CONFIG = dict(task_name="long_term_forecast", seq_len=32, label_len=16, pred_len=8, enc_in=3, dec_in=3, c_out=3,
              d_model=16, n_heads=2, e_layers=2, d_layers=1, d_ff=32, factor=3, dropout=0.1, embed="timeF", freq="h",
              activation="gelu", moving_avg=5, top_k=2, num_kernels=2, distil=True, num_class=4,
              output_attention=False, p_hidden_dims=[16, 16], p_hidden_layers=2, seg_len=8, patch_len=8,
              channel_independence=1, decomp_method="moving_avg", down_sampling_layers=1, down_sampling_window=2,
              down_sampling_method="avg", use_norm=1, features="M", expand=2, d_conv=4, alpha=0.1, top_p=0.5, pos=1,
              conv_channel=8, gcn_depth=2, node_dim=4, propalpha=0.3, skip_channel=8, subgraph_size=3,
              individual=False, data="ETTh1")


def series(Model, *args, task="long_term_forecast", steps=3, sgd=False, **overrides):
    """Build ``Model(configs, *args)`` for ``task`` and train it ``steps`` Adam steps (see the module docstring)."""
    import torch
    import torch.nn.functional as F

    c = types.SimpleNamespace(**{**CONFIG, "task_name": task, **overrides})
    model = Model(c, *args)
    keys = list(model.state_dict())
    print("parameters", sum(p.numel() for p in model.parameters()), "state_dict", len(keys), keys[:4], keys[-2:])
    B = 2
    x = torch.randn(B, c.seq_len, c.enc_in)
    marks = torch.randn(B, c.seq_len, 4)
    dec_marks = torch.randn(B, c.label_len + c.pred_len, 4)
    x_dec = torch.cat([x[:, -c.label_len:], torch.zeros(B, c.pred_len, c.dec_in)], dim=1)
    y = torch.randn(B, c.pred_len, c.c_out)
    mask = (torch.rand(B, c.seq_len, c.enc_in) > 0.25).float()
    labels = torch.randint(0, c.num_class, (B,))

    def step():
        if task == "classification":
            out = model(x, torch.ones(B, c.seq_len), None, None)
            return out, F.cross_entropy(out, labels)
        if task == "imputation":
            out = model(x.masked_fill(mask == 0, 0), marks, None, None, mask)
            return out, F.mse_loss(out[mask == 0], x[mask == 0])
        if task == "anomaly_detection":
            out = model(x, None, None, None)
            return out, F.mse_loss(out, x)
        out = model(x, marks, x_dec, dec_marks)
        return out, torch.nn.MSELoss()(out[:, -c.pred_len:, -c.c_out:], y)

    if sgd:  # a bias before BatchNorm gets a gradient of pure rounding noise, which Adam would make a full step
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    else:
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model.train()
    for i in range(steps):
        optimizer.zero_grad()
        out, loss = step()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        optimizer.step()
        print(i, tuple(out.shape), out.grad_fn is not None, f"{loss.item():.6f}", f"{norm.item():.6f}")
    print("no grad", [n for n, p in model.named_parameters() if p.grad is None][:6])
    model.eval()
    with torch.no_grad():
        out, loss = step()
    print("eval", out.flatten()[:6], f"{loss.item():.6f}")
    return model


def _images(n, size=16, channels=3):
    import torch

    return torch.randn(n, channels, size, size)


def small_resnet(num_classes=16, zero_init_residual=False):
    """A torchvision-style ``base_encoder(num_classes=..., zero_init_residual=...)`` with an ``fc`` head, small:
    SimSiam's and MoCo's builders take the class and replace ``fc``; torchvision's ResNets are the runner's stub."""
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.conv1, self.bn1 = nn.Conv2d(width, width, 3, padding=1, bias=False), nn.BatchNorm2d(width)
            self.conv2, self.bn2 = nn.Conv2d(width, width, 3, padding=1, bias=False), nn.BatchNorm2d(width)

        def forward(self, x):
            return torch.relu(x + self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x))))))

    class SmallResNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU())
            self.layer1 = Block(8)
            self.avgpool = nn.AdaptiveAvgPool2d(1)
            self.fc = nn.Linear(8, num_classes)
            if zero_init_residual:
                nn.init.constant_(self.layer1.bn2.weight, 0)

        def forward(self, x):
            return self.fc(torch.flatten(self.avgpool(self.layer1(self.stem(x))), 1))

    return SmallResNet()


def simsiam(SimSiam, steps=3):
    """SimSiam's ``main_simsiam.py`` loop on two seeded views of 8 images: negative cosine similarity, SGD with
    momentum on the parameters that require gradients (the projector's last bias does not)."""
    import torch

    model = SimSiam(small_resnet, dim=16, pred_dim=8)
    print(model)
    criterion = torch.nn.CosineSimilarity(dim=1)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, 0.05, momentum=0.9, weight_decay=1e-4)
    for i in range(steps):
        x1, x2 = _images(8), _images(8)
        p1, p2, z1, z2 = model(x1=x1, x2=x2)
        loss = -(criterion(p1, z2).mean() + criterion(p2, z1).mean()) * 0.5
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(i, f"{loss.item():.6f}", z1.requires_grad, p1.grad_fn is not None, z1.std(dim=0).mean().item())
    print(len(params), sum(p.numel() for p in model.parameters()), model.encoder.fc[6].bias.grad)
    print(model.encoder.fc[7].running_mean[:4], model.predictor[1].running_var[:4])


def info_nce(SimCLR, accuracy, steps=3):
    """SimCLR's ``info_nce_loss`` (an object holding the run's arguments) on two views of 6 images through a small
    ResNet with the MLP head of ``models/resnet_simclr.py``, trained by Adam; its ``utils.accuracy`` on the logits."""
    import types

    import torch
    from torch import nn

    encoder = small_resnet(16)
    encoder.fc = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), encoder.fc)
    args = types.SimpleNamespace(batch_size=6, n_views=2, device=torch.device("cpu"), temperature=0.07)
    owner = types.SimpleNamespace(args=args)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(encoder.parameters(), 3e-4, weight_decay=1e-4)
    for i in range(steps):
        images = torch.cat([_images(6), _images(6)], dim=0)
        logits, labels = SimCLR.info_nce_loss(owner, encoder(images))
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        top1, top5 = accuracy(logits, labels, topk=(1, 5))
        print(i, tuple(logits.shape), f"{loss.item():.6f}", top1, top5, logits[0, :3])


def identity_transforms():
    """torchvision.transforms' image augmentations as identity modules (BYOL builds its default augmentation as an
    ``nn.Sequential`` of them, which the runner's stub cannot join; the recipes pass their own)."""
    import types

    import torch

    names = ("ColorJitter", "RandomGrayscale", "RandomHorizontalFlip", "GaussianBlur", "RandomResizedCrop",
             "Normalize")
    return types.SimpleNamespace(**{n: (lambda *a, **k: torch.nn.Identity()) for n in names})


def byol(BYOL, steps=3, **kwargs):
    """BYOL's README loop: a small ResNet's pooled features (``hidden_layer='avgpool'``), a seeded flip-and-noise
    augmentation, Adam, and the target encoder's moving average after each step."""
    import torch

    def augment(x):
        flip = torch.rand(x.shape[0], 1, 1, 1) < 0.5
        return torch.where(flip, x.flip(-1), x) + 0.1 * torch.randn_like(x)

    net = small_resnet(10)
    learner = BYOL(net, image_size=16, hidden_layer="avgpool", projection_size=16, projection_hidden_size=32,
                   augment_fn=augment, **kwargs)
    optimizer = torch.optim.Adam(learner.parameters(), lr=3e-4)
    for i in range(steps):
        loss = learner(_images(4))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if learner.use_momentum:
            learner.update_moving_average()
        print(i, f"{loss.item():.6f}")
    target = learner.target_encoder
    print(type(target).__name__ if target is not None else None, sum(p.numel() for p in learner.parameters()))
    projection, embedding = learner(_images(2), return_embedding=True)
    print(tuple(projection.shape), tuple(embedding.shape), embedding[0, :4])


def maml(Meta, config, imgsz, imgc=1, steps=2):
    """MAML's ``omniglot_train.py`` loop on seeded 3-way 1-shot tasks (2 per batch): each meta-step adapts the
    functional ``Learner`` with ``autograd.grad`` on the support set and updates it by the query loss; then
    ``finetunning`` on one task."""
    import argparse

    import torch

    args = argparse.Namespace(update_lr=0.4, meta_lr=1e-3, n_way=3, k_spt=1, k_qry=2, task_num=2, update_step=3,
                              update_step_test=4, imgc=imgc, imgsz=imgsz)
    maml = Meta(args, config)
    print(maml)
    tmp = filter(lambda x: x.requires_grad, maml.parameters())
    print("Total trainable tensors:", sum(map(lambda x: x.numel(), tmp)))

    def tasks(n):
        x_spt = torch.randn(n, 3, imgc, imgsz, imgsz)
        y_spt = torch.arange(3).repeat(n, 1)
        x_qry = torch.randn(n, 6, imgc, imgsz, imgsz)
        y_qry = torch.arange(3).repeat_interleave(2).repeat(n, 1)
        return x_spt, y_spt, x_qry, y_qry

    for step in range(steps):
        accs = maml(*tasks(2))
        print("step:", step, "training acc:", accs, [round(p.norm().item(), 6) for p in maml.net.parameters()][:4])
    x_spt, y_spt, x_qry, y_qry = tasks(1)
    print("test acc:", maml.finetunning(x_spt[0], y_spt[0], x_qry[0], y_qry[0]))
    print(maml.net.vars_bn[0][:3], maml.net.vars_bn[1][:3])


def barlow_twins(BarlowTwins, LARS, adjust_learning_rate, off_diagonal, steps=3):
    """Barlow Twins' ``main_worker`` on one process (a gloo group of one: the loss's ``all_reduce`` is the sum of
    one): its projector on ``small_resnet``'s features, LARS with the weights' and biases' groups and its learning-rate
    schedule, on two seeded views of 8 images."""
    import argparse
    import os

    import torch
    import torch.distributed as dist

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="0")
    dist.init_process_group("gloo", rank=0, world_size=1)
    print(off_diagonal(torch.arange(16.0).view(4, 4)))
    args = argparse.Namespace(projector="16-16-16", batch_size=8, lambd=0.0051, epochs=2, learning_rate_weights=0.2,
                              learning_rate_biases=0.0048, weight_decay=1e-6)
    model = BarlowTwins(args)
    print(model.projector, model.bn)
    param_weights, param_biases = [], []
    for param in model.parameters():
        (param_biases if param.ndim == 1 else param_weights).append(param)
    optimizer = LARS([{"params": param_weights}, {"params": param_biases}], lr=0, weight_decay=args.weight_decay,
                     weight_decay_filter=True, lars_adaptation_filter=True)
    loader = range(steps)
    for step in loader:
        y1, y2 = _images(8), _images(8)
        adjust_learning_rate(args, optimizer, loader, step + 1)
        optimizer.zero_grad()
        loss = model.forward(y1, y2)
        loss.backward()
        optimizer.step()
        print(step, f"{loss.item():.5f}", [g["lr"] for g in optimizer.param_groups],
              optimizer.state[param_weights[0]]["mu"].norm().item())
    dist.destroy_process_group()


def capsules(CapsuleNet, CapsuleLoss, augmentation, Adam, steps=1):
    """The capsule network's training step (``processor`` of its ``__main__``) on 2 seeded stand-in digits:
    shifted by ``augmentation``, one-hot labels, margin and reconstruction loss, Adam; then an unlabelled forward
    (the most active capsule masks the reconstruction)."""
    import torch

    model = CapsuleNet()
    print("# parameters:", sum(param.numel() for param in model.parameters()))
    optimizer = Adam(model.parameters())
    capsule_loss = CapsuleLoss()
    images = torch.randint(0, 256, (2, 28, 28), dtype=torch.uint8)
    targets = torch.tensor([3, 7])
    for i in range(steps):
        data = augmentation(images.unsqueeze(1).float() / 255.0)
        labels = torch.eye(10).index_select(dim=0, index=targets)
        classes, reconstructions = model(data, labels)
        loss = capsule_loss(data, labels, classes, reconstructions)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(i, f"{loss.item():.6f}", classes[0, :4], reconstructions.shape)
    with torch.no_grad():
        classes, reconstructions = model(images.unsqueeze(1).float() / 255.0)
    print(classes.max(dim=1), reconstructions[0, 300:304])


def ncf(NCF, steps=3):
    """NCF's ``main.py`` for each model kind: GMF, MLP, NeuMF trained end to end, and NeuMF initialised from the
    pre-trained GMF and MLP (``NeuMF-pre``, SGD), on seeded user-item pairs with implicit labels (BCE with logits);
    then the hit-ratio ranking of ``evaluate.py`` for one user."""
    import torch

    users, items = torch.randint(0, 20, (64,)), torch.randint(0, 30, (64,))
    labels = (torch.rand(64) < 0.3).float()
    trained = {}
    for kind in ("GMF", "MLP", "NeuMF-end", "NeuMF-pre"):
        pre = dict(GMF_model=trained["GMF"], MLP_model=trained["MLP"]) if kind == "NeuMF-pre" else {}
        model = NCF(20, 30, 8, 3, 0.1, kind, **pre)
        loss_function = torch.nn.BCEWithLogitsLoss()
        if kind == "NeuMF-pre":
            optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        else:
            optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        model.train()
        for _ in range(steps):
            model.zero_grad()
            prediction = model(users, items)
            loss = loss_function(prediction, labels)
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            predictions = model(torch.full((30,), 3), torch.arange(30))
            _, indices = torch.topk(predictions, 10)
        print(kind, sum(p.numel() for p in model.parameters()), f"{loss.item():.6f}", indices.tolist())
        trained[kind] = model


def bayesian_layers(steps=2):
    """blitz's layers in one ``variational_estimator`` network: a Bayesian embedding, LSTM (with peepholes), GRU,
    1-d convolution and a Flipout-wrapped linear layer, trained by ``sample_elbo`` (3 weight samples, Adam); then its
    KL divergence, ``freeze_`` (the means only, but Flipout still draws its signs), ``MOPED_`` and ``mfvi_forward``."""
    import torch
    from blitz.modules import BayesianConv1d, BayesianEmbedding, BayesianGRU, BayesianLinear, BayesianLSTM
    from blitz.utils import Flipout, Radial, variational_estimator
    from torch import nn

    @variational_estimator
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = BayesianEmbedding(20, 6)
            self.lstm = BayesianLSTM(6, 8, peephole=True)
            self.gru = BayesianGRU(8, 8)
            self.conv = BayesianConv1d(8, 4, 3)
            self.fc = Flipout(BayesianLinear)(4, 3)
            self.out = Radial(BayesianLinear)(3, 3)

        def forward(self, x):
            h, _ = self.lstm(self.emb(x))
            h, _ = self.gru(h)
            c = torch.relu(self.conv(h.transpose(1, 2)))
            return self.out(self.fc(c.mean(-1)))

    net = Net()
    print(net)
    x, y = torch.randint(0, 20, (4, 7)), torch.tensor([0, 1, 2, 1])
    optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
    for i in range(steps):
        optimizer.zero_grad()
        loss = net.sample_elbo(inputs=x, labels=y, criterion=nn.CrossEntropyLoss(), sample_nbr=3,
                               complexity_cost_weight=1 / 50)
        loss.backward()
        optimizer.step()
        print(i, f"{loss.item():.5f}", f"{net.nn_kl_divergence().item():.5f}")
    net.freeze_()
    print(torch.equal(net(x), net(x)), net(x)[0])
    net.unfreeze_()
    net.MOPED_(delta=0.1)
    mean, std = net.mfvi_forward(x, sample_nbr=4)
    print(mean[0], std[0], net.fc.weight_sampler.rho[0, :3])


def linear_forecast(Model, steps=3):
    """LTSF-Linear's ``exp_main.py`` for a Linear/NLinear/DLinear model, shared and per-channel (``individual``): 3 Adam
    steps of MSE on seeded series (the model takes only the input window), then an eval forecast."""
    import torch

    x, y = torch.randn(4, 36, 3), torch.randn(4, 8, 3)
    for individual in (False, True):
        model = Model(types.SimpleNamespace(seq_len=36, pred_len=8, enc_in=3, individual=individual))
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for _ in range(steps):
            optimizer.zero_grad()
            loss = torch.nn.MSELoss()(model(x), y)
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            out = model.eval()(x)
        print(individual, sum(p.numel() for p in model.parameters()), f"{loss.item():.6f}", out[0, :2])


def maml_second_order(Learner, config, imgsz, imgc=1, steps=2):
    """Second-order MAML on MAML-Pytorch's functional ``Learner``: the inner step's ``autograd.grad`` with
    ``create_graph=True``, so the meta-gradient flows through the support-set gradients (double backward of its
    convolutions, batch norm, pooling and cross-entropy); Adam on the meta-loss of 2 seeded 3-way tasks. The
    gradients' norms are printed to 3 decimals: float32 rounding leaves them ~3e-6 apart (float64 agrees)."""
    import torch
    import torch.nn.functional as F

    net = Learner(config, imgc, imgsz)
    meta_optim = torch.optim.Adam(net.parameters(), lr=1e-3)
    for step in range(steps):
        meta_loss = 0
        for _ in range(2):
            x_spt, y_spt = torch.randn(3, imgc, imgsz, imgsz), torch.arange(3)
            x_qry, y_qry = torch.randn(6, imgc, imgsz, imgsz), torch.arange(3).repeat_interleave(2)
            loss = F.cross_entropy(net(x_spt, vars=None, bn_training=True), y_spt)
            grad = torch.autograd.grad(loss, net.parameters(), create_graph=True)
            fast_weights = [p - 0.4 * g for g, p in zip(grad, net.parameters())]
            meta_loss = meta_loss + F.cross_entropy(net(x_qry, fast_weights, bn_training=True), y_qry)
        meta_optim.zero_grad()
        (meta_loss / 2).backward()
        norms = [round(p.grad.norm().item(), 3) for p in net.parameters()]  # float32 double backward: ~3e-6 apart
        meta_optim.step()
        print(step, f"{meta_loss.item() / 2:.6f}", norms)


def multiwavelets(MultiWaveletTransform, MultiWaveletCross, steps=1):
    """FEDformer's multiwavelet attention layers on their own, small (3 wavelet orders, 2 channels, 4 modes; the
    model's own sizes give 201 million parameters): the self-attention transform and the cross attention for the
    Legendre and Chebyshev bases, an Adam step on seeded (batch, length, heads, width) queries."""
    import torch

    for base in ("legendre", "chebyshev"):
        blocks = torch.nn.ModuleList([MultiWaveletTransform(ich=8, k=3, alpha=4, c=2, L=0, base=base),
                                      MultiWaveletCross(8, 8, 16, 16, 4, c=2, k=3, ich=8, base=base)])
        optimizer = torch.optim.Adam(blocks.parameters(), lr=1e-3)
        q, kv, target = torch.randn(2, 16, 2, 4), torch.randn(2, 16, 2, 4), torch.randn(2, 16, 2, 4)
        for i in range(steps):
            out, _ = blocks[0](q, kv, kv, None)
            cross, _ = blocks[1](out, kv, kv)
            loss = (cross.reshape(out.shape) - target).square().mean() + out.square().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(base, i, tuple(out.shape), tuple(cross.shape), f"{loss.item():.6f}")
        print(sum(p.numel() for p in blocks.parameters()), blocks[0].MWT_CZ[0].ec_s[:2, :2], cross.flatten()[:4])
