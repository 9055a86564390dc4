"""Drivers for Opacus' own package on core (``recipes_opacus``; our text, Opacus' API as its docs and tests use it).

Each driver builds small seeded models and data, calls Opacus the way its tutorials, README and tests do, and
prints what it computes to float32's precision (``show``): per-sample gradients in the ``hooks``,
``functorch`` and ``ew`` modes, clipped and noised updates (the noise from a seeded ``torch.Generator``: torch's
random stream bit for bit), privacy accountants' epsilons, Poisson-sampled batches. ``run_tests`` runs a test file's
``unittest`` classes with Hypothesis' examples derandomised and few (``hypothesis_profile``).
"""

from __future__ import annotations

import math


def _torch():
    import torch  # core under the runner's alias in core's run

    return torch


def show(name, value, n=8):
    """``name``: a tensor's shape, dtype, first ``n`` values and the sum of their absolute values (in double; not the
    signed sum, which for gradients is often rounding noise), floats to 7 significant digits of the tensor's largest
    value (float32's precision: an element that is a cancelled sum keeps only what is above the rounding of its
    terms); containers item by item; anything else as its repr."""
    torch = _torch()
    if isinstance(value, torch.Tensor):
        value = value.detach()
        if value.is_floating_point():
            top = value.abs().max().item() if value.numel() else 0.0
            decimals = max(0, 6 - math.floor(math.log10(top))) if 0 < top < math.inf else 6
            flat = [f"{v:.{decimals}f}" for v in value.reshape(-1)[:n].tolist()]
            total = f"{value.double().abs().sum().item():.{decimals}f}"
        else:
            flat, total = value.reshape(-1)[:n].tolist(), value.sum().item()
        print(f"{name}: {tuple(value.shape)} {str(value.dtype).replace('torch.', '')} {flat} abs sum {total}")
    elif isinstance(value, dict):
        for key, item in value.items():
            show(f"{name}.{key}", item, n)
    elif isinstance(value, (tuple, list)) and any(isinstance(v, torch.Tensor) for v in value):
        for i, item in enumerate(value):
            show(f"{name}[{i}]", item, n)
    else:
        print(f"{name}: {value!r}")


def attempt(name, compute, *args, **kwargs):
    """``show`` what ``compute`` returns, or the exception it raises (Opacus' own checks, the same in torch)."""
    try:
        value = compute(*args, **kwargs)
    except Exception as exc:
        print(f"{name}: {type(exc).__name__}: {exc}")
        return None
    show(name, value)
    return value


def grad_samples(module, name=""):
    """Each parameter's ``grad_sample`` (and ``grad`` where set)."""
    for pname, p in module.named_parameters():
        if getattr(p, "grad_sample", None) is not None:
            gs = p.grad_sample
            show(f"{name}{pname}.grad_sample", gs if not isinstance(gs, list) else gs[-1])
        if p.grad is not None:
            show(f"{name}{pname}.grad", p.grad)


def _layers(torch, nn, opacus):
    """(model, input) pairs covering the layers Opacus has grad samplers for."""
    from opacus.layers import DPGRU, DPLSTM, DPRNN, DPMultiheadAttention

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.mha = DPMultiheadAttention(8, 2)

        def forward(self, x):
            return self.mha(x, x, x)[0]

    class Recurrent(nn.Module):
        def __init__(self, cell):
            super().__init__()
            self.rnn = cell(6, 5, batch_first=True, num_layers=2)

        def forward(self, x):
            return self.rnn(x)[0]

    class EmbeddingBagged(nn.Module):
        def __init__(self):
            super().__init__()
            self.bag = nn.EmbeddingBag(20, 4, mode="mean")

        def forward(self, x):
            return self.bag(x.reshape(-1), torch.arange(0, x.numel(), x.shape[1]))

    g = torch.Generator().manual_seed(1)
    return {
        "linear": (nn.Sequential(nn.Linear(6, 4), nn.Tanh(), nn.Linear(4, 3)), torch.randn(5, 6, generator=g)),
        "linear_3d": (nn.Linear(6, 4), torch.randn(5, 3, 6, generator=g)),
        "conv1d": (nn.Sequential(nn.Conv1d(2, 3, 3, padding=1, stride=2), nn.ReLU()),
                   torch.randn(4, 2, 9, generator=g)),
        "conv2d": (nn.Sequential(nn.Conv2d(2, 4, 3, padding=1, dilation=1), nn.GroupNorm(2, 4), nn.ReLU(),
                                 nn.Conv2d(4, 4, 3, stride=2, groups=2), nn.Flatten()),
                   torch.randn(3, 2, 7, 7, generator=g)),
        "conv3d": (nn.Conv3d(2, 2, 2), torch.randn(3, 2, 4, 4, 4, generator=g)),
        "conv_transpose": (nn.ConvTranspose2d(2, 3, 3, stride=2), torch.randn(3, 2, 4, 4, generator=g)),
        "layer_norm": (nn.Sequential(nn.Linear(6, 6), nn.LayerNorm(6)), torch.randn(4, 3, 6, generator=g)),
        "group_norm": (nn.GroupNorm(2, 4), torch.randn(4, 4, 5, generator=g)),
        "instance_norm": (nn.InstanceNorm2d(3, affine=True), torch.randn(4, 3, 5, 5, generator=g)),
        "instance_norm1d": (nn.InstanceNorm1d(3, affine=True), torch.randn(4, 3, 6, generator=g)),
        "rms_norm": (nn.RMSNorm(6), torch.randn(4, 3, 6, generator=g)),
        "embedding": (nn.Sequential(nn.Embedding(20, 4), nn.Flatten(), nn.Linear(12, 2)),
                      torch.randint(0, 20, (4, 3), generator=g)),
        "embedding_bag": (EmbeddingBagged(), torch.randint(0, 20, (4, 3), generator=g)),
        "dp_lstm": (Recurrent(DPLSTM), torch.randn(3, 4, 6, generator=g)),
        "dp_gru": (Recurrent(DPGRU), torch.randn(3, 4, 6, generator=g)),
        "dp_rnn": (Recurrent(DPRNN), torch.randn(3, 4, 6, generator=g)),
        "dp_mha": (Attention(), torch.randn(3, 4, 8, generator=g)),
    }


def per_sample_gradients(names, modes=("hooks", "functorch", "ew"), reductions=("sum", "mean")):
    """``GradSampleModule`` in each mode (``force_functorch`` for ``functorch``, ``GradSampleModuleExpandedWeights``
    for ``ew``) over the ``names``d layers: each parameter's per-sample gradient after ``loss.backward()``."""
    import opacus
    import torch.nn as nn
    from opacus.grad_sample import GradSampleModule, GradSampleModuleExpandedWeights

    torch = _torch()
    torch.manual_seed(0)
    layers = _layers(torch, nn, opacus)
    for name in names:
        model, x = layers[name]
        for mode in modes:
            for reduction in reductions:
                try:
                    if mode == "ew":
                        gsm = GradSampleModuleExpandedWeights(model, loss_reduction=reduction)
                    else:
                        gsm = GradSampleModule(model, loss_reduction=reduction, force_functorch=mode == "functorch")
                    out = gsm(x)
                    target = torch.randn(out.shape, generator=torch.Generator().manual_seed(2))
                    loss = ((out - target) ** 2).sum()
                    loss = loss if reduction == "sum" else loss / out.shape[0]
                    loss.backward()
                    print(f"{name} {mode} {reduction}: out {tuple(out.shape)}")
                    grad_samples(gsm, "  ")
                    gsm.zero_grad()
                    if hasattr(gsm, "_close"):
                        gsm._close()
                except Exception as exc:
                    print(f"{name} {mode} {reduction}: {type(exc).__name__}: {exc}")
                for p in model.parameters():
                    p.grad = None
                    for attr in ("grad_sample", "_forward_counter", "summed_grad"):
                        if hasattr(p, attr):
                            delattr(p, attr)


def _data(torch, n=24, features=6, classes=3, seed=0):
    """A seeded classification set: ``n`` rows of ``features`` floats and labels of ``classes``."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, features, generator=g)
    y = (x[:, :classes] * torch.arange(1.0, classes + 1)).argmax(1)
    return torch.utils.data.TensorDataset(x, y)


def _mlp(torch, features=6, classes=3):
    torch.manual_seed(0)
    nn = torch.nn
    return nn.Sequential(nn.Linear(features, 8), nn.ReLU(), nn.Linear(8, classes))


ALPHAS = [1.5, 2, 3, 4, 6, 8, 16, 32, 64]


def private_training(mode="hooks", clipping="flat", poisson=True, accountant="rdp", steps=4, optimizer="sgd",
                     **make_private):
    """``PrivacyEngine.make_private`` as Opacus' README trains: a model, an optimizer and a DataLoader made private
    (per-sample gradients in ``mode``, ``clipping`` flat, per-layer or adaptive, Poisson sampling or not), the noise
    from a seeded generator; each step's loss and the parameters after it, the accountant's epsilon and history."""
    torch = _torch()
    from opacus import PrivacyEngine

    model = _mlp(torch)
    opt = {"sgd": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
           "adam": lambda p: torch.optim.Adam(p, lr=0.01),
           "rmsprop": lambda p: torch.optim.RMSprop(p, lr=0.01)}[optimizer](model.parameters())
    loader = torch.utils.data.DataLoader(_data(torch), batch_size=6)
    engine = PrivacyEngine(accountant=accountant)
    criterion = torch.nn.CrossEntropyLoss()
    options = {"noise_multiplier": 1.1, "max_grad_norm": 1.0, **make_private}
    if clipping == "per_layer":
        options["max_grad_norm"] = [1.0, 0.5, 0.8, 0.3]
    made = engine.make_private(module=model, optimizer=opt, data_loader=loader, criterion=criterion,
                               poisson_sampling=poisson, clipping=clipping, grad_sample_mode=mode,
                               noise_generator=torch.Generator().manual_seed(7), **options)
    model, opt = made[0], made[1]
    loader = made[-1]
    criterion = made[2] if len(made) == 4 else criterion
    print(type(model).__name__, type(opt).__name__, type(loader).__name__, type(criterion).__name__)
    loader.generator = None
    step = 0
    for _epoch in range(2):
        for x, y in loader:
            opt.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            opt.step()
            # (ghost clipping's criterion returns a DPTensorFastGradientClipping: its per-sample losses)
            show(f"step {step} batch {tuple(x.shape)} loss", getattr(loss, "loss_per_sample", loss))
            step += 1
            if step >= steps:
                break
        if step >= steps:
            break
    for name, p in model.named_parameters():
        show(name, p)
    if clipping == "adaptive":
        show("max_grad_norm", opt.max_grad_norm)
    # RDP at a few orders (its default 150 orders take seconds of NumPy at this sampling rate, in either run)
    epsilon = engine.accountant.get_epsilon(1e-5, **({"alphas": ALPHAS} if accountant == "rdp" else {}))
    print("epsilon", round(epsilon, 6), "steps", len(engine.accountant), engine.accountant.mechanism())
    print("history", engine.accountant.history)


def optimizer_step(noise=1.0, clip=0.5, reduction="mean", accumulate=1, optimizer="sgd"):
    """``DPOptimizer`` itself: ``GradSampleModule`` per-sample gradients, then ``pre_step``'s clipping (each
    sample's norm and its factor), ``add_noise`` from a seeded generator and the scaled ``grad``; with ``accumulate``
    backward passes before the step (virtual steps, ``signal_skip_step``)."""
    torch = _torch()
    from opacus import GradSampleModule
    from opacus.optimizers import DPOptimizer

    model = GradSampleModule(_mlp(torch), loss_reduction=reduction)
    base = {"sgd": torch.optim.SGD(model.parameters(), lr=0.5),
            "adamw": torch.optim.AdamW(model.parameters(), lr=0.05)}[optimizer]
    opt = DPOptimizer(base, noise_multiplier=noise, max_grad_norm=clip, expected_batch_size=6,
                      loss_reduction=reduction, generator=torch.Generator().manual_seed(11))
    data = _data(torch)
    for i in range(accumulate):
        x, y = data[i * 6:(i + 1) * 6]
        loss = torch.nn.functional.cross_entropy(model(x), y, reduction=reduction)
        loss.backward()
        if i < accumulate - 1:
            opt.signal_skip_step(do_skip=True)
            print("skipped", opt.step())
            opt.zero_grad()  # (a skipped step's zero_grad keeps the clipped sums: gradient accumulation)
    norms = torch.stack([g.reshape(len(g), -1).norm(2, dim=-1) for g in opt.grad_samples], dim=1).norm(2, dim=1)
    show("per-sample norms", norms)
    opt.step()
    for name, p in model.named_parameters():
        show(f"{name}.summed_grad", p.summed_grad)
        show(f"{name}.grad", p.grad)
        show(name, p)
    opt.zero_grad(set_to_none=True)
    print("after zero_grad", [p.grad_sample is None for p in model.parameters()])


def hypothesis_profile(examples=3):
    """Hypothesis' settings for Opacus' property tests run as scripts: ``examples`` examples per test, drawn from a
    seed derived from each test (``derandomize``: the same examples in both runs), no example database, no deadline
    (timings), no shrinking (a failure prints as it happens). Loaded before the test file's ``@settings`` decorators,
    which inherit it."""
    from hypothesis import HealthCheck, Phase, settings

    settings.register_profile("corpus", max_examples=examples, derandomize=True, database=None, deadline=None,
                              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck),
                              print_blob=False)
    settings.load_profile("corpus")


def run_tests(namespace, every=1):
    """The test file's ``unittest`` classes, each test's outcome printed (``corpus_labml.run_tests``)."""
    from corpus_labml import run_tests as _run_tests

    _run_tests(namespace, every)


class FakeData:
    """torchvision's ``FakeData`` (Opacus' tests' image set; the runner's torchvision has no datasets): ``size``
    images of ``image_size`` (C, H, W) drawn from a generator seeded with the index plus ``random_offset`` and a label
    below ``num_classes``, as torchvision draws them, handed to ``transform`` as an H x W x C uint8 array (torchvision
    hands a PIL image of the same pixels; ``ToTensor`` reads either)."""

    def __init__(self, size=1000, image_size=(3, 224, 224), num_classes=10, transform=None, target_transform=None,
                 random_offset=0):
        self.size, self.image_size, self.num_classes = size, tuple(image_size), num_classes
        self.transform, self.target_transform, self.random_offset = transform, target_transform, random_offset

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        torch = _torch()
        if index >= len(self):
            raise IndexError(f"{type(self).__name__} index out of range")
        generator = torch.Generator().manual_seed(index + self.random_offset)
        image = torch.randn(*self.image_size, generator=generator)
        target = int(torch.randint(0, self.num_classes, size=(1,), dtype=torch.long, generator=generator)[0])
        pixels = (image.clamp(-2.0, 2.0) * 63.0 + 127.0).to(torch.uint8).permute(1, 2, 0).numpy()
        sample = self.transform(pixels) if self.transform is not None else torch.from_numpy(pixels.copy())
        if self.target_transform is not None:
            target = self.target_transform(target)
        return sample, target


def tiny_cifar10(*args, train=True, **kwargs):
    """``corpus_support``'s seeded CIFAR-10 stand-in with 8 training and 8 test images: Opacus' CIFAR-10 example's
    convnet takes per-sample gradients of 32x32 images, seconds a batch in core."""
    from corpus_support import FakeCIFAR10

    return FakeCIFAR10(*args, train=train, size=8, **kwargs)


def _sequence_model(nn):
    """An LSTM under multi-head attention (a module-level class: ``ModuleValidator.fix`` clones through pickle)."""
    global Sequence

    class Sequence(nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(4, 6, batch_first=True)
            self.attention = nn.MultiheadAttention(6, 2, batch_first=True)
            self.head = nn.Linear(6, 3)

        def forward(self, x):
            h = self.lstm(x)[0]
            return self.head(self.attention(h, h, h)[0].mean(1))

    Sequence.__qualname__ = "Sequence"
    return Sequence()


def validators_and_layers():
    """``ModuleValidator`` as its tutorial uses it: a CNN with BatchNorm and a model with an ``nn.LSTM`` and an
    ``nn.MultiheadAttention`` validated (the errors), fixed (BatchNorm to GroupNorm, LSTM to DPLSTM, attention to
    DPMultiheadAttention: the fixed models printed) and trained privately a step; ``DPLSTM``/``DPGRU``/
    ``DPMultiheadAttention`` loaded from the state dicts of torch's layers give their outputs."""
    torch = _torch()
    nn = torch.nn
    from opacus import PrivacyEngine
    from opacus.layers import DPGRU, DPLSTM, DPMultiheadAttention
    from opacus.validators import ModuleValidator

    torch.manual_seed(0)
    cnn = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(),
                        nn.Linear(16, 3))

    sequence = _sequence_model(nn)
    for name, model, x in (("cnn", cnn, torch.randn(6, 1, 6, 6)), ("sequence", sequence, torch.randn(6, 5, 4))):
        print(name, "valid:", ModuleValidator.is_valid(model))
        for error in ModuleValidator.validate(model, strict=False):
            print("  ", type(error).__name__, str(error)[:90])
        fixed = ModuleValidator.fix(model)
        print(fixed)
        print("fixed valid:", ModuleValidator.is_valid(fixed))
        optimizer = torch.optim.SGD(fixed.parameters(), lr=0.1)
        loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, torch.arange(6) % 3), batch_size=6)
        fixed, optimizer, loader = PrivacyEngine(accountant="gdp").make_private(
            module=fixed, optimizer=optimizer, data_loader=loader, noise_multiplier=0.8, max_grad_norm=1.0,
            poisson_sampling=False, noise_generator=torch.Generator().manual_seed(3))
        for inputs, labels in loader:
            loss = torch.nn.functional.cross_entropy(fixed(inputs), labels)
            loss.backward()
            optimizer.step()
            show(f"{name} loss", loss)
        for pname, p in list(fixed.named_parameters())[:4]:
            show(f"{name} {pname}", p)
    torch.manual_seed(1)
    x = torch.randn(3, 5, 4)
    for dp_cls, cls in ((DPLSTM, nn.LSTM), (DPGRU, nn.GRU)):
        reference = cls(4, 6, num_layers=2, batch_first=True, bidirectional=True)
        layer = dp_cls(4, 6, num_layers=2, batch_first=True, bidirectional=True)
        layer.load_state_dict(reference.state_dict())
        show(f"{dp_cls.__name__} output", layer(x)[0])
        show(f"{cls.__name__} output", reference(x)[0])
    reference = nn.MultiheadAttention(4, 2, batch_first=True)
    attention = DPMultiheadAttention(4, 2, batch_first=True)
    attention.load_state_dict(reference.state_dict())
    show("DPMultiheadAttention", attention(x, x, x))
    show("MultiheadAttention", reference(x, x, x))


def engine_features():
    """``make_private_with_epsilon`` (the noise multiplier it finds for a target epsilon, GDP) and an epoch with it;
    then (RDP) noise and clipping schedulers stepping each epoch, and ``save_checkpoint``/``load_checkpoint``
    restoring the model, the optimizer's state, the accountant and the schedulers."""
    torch = _torch()
    from opacus import PrivacyEngine
    from opacus.schedulers import ExponentialNoise, StepGradClip

    def private(engine, make, **options):
        model = _mlp(torch)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
        loader = torch.utils.data.DataLoader(_data(torch, n=40), batch_size=8)
        return getattr(engine, make)(module=model, optimizer=optimizer, data_loader=loader, max_grad_norm=1.0,
                                     noise_generator=torch.Generator().manual_seed(5), **options)

    def epoch(model, optimizer, loader):
        for x, y in loader:
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()

    engine = PrivacyEngine(accountant="gdp")
    model, optimizer, loader = private(engine, "make_private_with_epsilon", target_epsilon=3.0, target_delta=1e-5,
                                       epochs=3)
    print("noise multiplier", round(optimizer.noise_multiplier, 6), "expected batch", optimizer.expected_batch_size)
    epoch(model, optimizer, loader)
    print("epsilon", round(engine.get_epsilon(1e-5), 6))
    engine = PrivacyEngine(accountant="rdp")
    model, optimizer, loader = private(engine, "make_private", noise_multiplier=1.2)
    noise, clip = ExponentialNoise(optimizer, gamma=0.9), StepGradClip(optimizer, step_size=1, gamma=0.5)
    for i in range(2):
        epoch(model, optimizer, loader)
        noise.step()
        clip.step()
        print("epoch", i, "noise", round(optimizer.noise_multiplier, 6), "clip", optimizer.max_grad_norm,
              "epsilon", round(engine.accountant.get_epsilon(1e-5, alphas=ALPHAS), 6))
    engine.save_checkpoint(path="opacus_checkpoint.pt", module=model, optimizer=optimizer, noise_scheduler=noise,
                           grad_clip_scheduler=clip, checkpoint_dict={"epoch": 2})
    before = [p.detach().clone() for p in model.parameters()]
    with torch.no_grad():
        for p in model.parameters():
            p.add_(1.0)
    again = PrivacyEngine(accountant="rdp")
    noise2 = ExponentialNoise(optimizer, gamma=0.5)
    checkpoint = again.load_checkpoint(path="opacus_checkpoint.pt", module=model, optimizer=optimizer,
                                       noise_scheduler=noise2)
    print("restored", all(torch.equal(a, b) for a, b in zip(before, model.parameters())), checkpoint["epoch"],
          again.accountant.history, noise2.gamma)
    show("adam exp_avg", next(iter(optimizer.original_optimizer.state.values()))["exp_avg"])
