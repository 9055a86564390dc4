"""Drivers for ``recipes_torchattacks.py`` (our text): torchattacks' attacks on a small seeded CNN, on core.

``model()`` is a small CIFAR-style CNN (two convolutions, batch norm, dropout, a linear head) from seeded weights,
``data()`` six seeded 3x16x16 images in [0, 1] labelled with the model's own predictions, so every attack has
something to flip. ``attack(ta, name, ...)`` builds ``torchattacks.<name>`` as its README does, runs it in each mode
it supports (default, then targeted by a random, the least likely and a given label) and prints what a user reads:
the adversarial images' digest (absolute sum, largest perturbation, first values to 9 significant digits, so a
last-bit difference shows), the L2 and Linf distances, the model's logits and predictions on them and the robust
accuracy. ``load_model``, ``load_cifar10`` and ``clean_accuracy`` stand in for robustbench's in the package's own
test (``code_coverage/test_atks.py``), which downloads a pretrained model and CIFAR-10 there.
"""

from __future__ import annotations

import torch
import torch.nn as nn


def show(label, value):
    """A tensor's digest on one line (integer tensors in full)."""
    t = value.detach()
    if not t.is_floating_point():
        print(label, tuple(t.shape), t.flatten()[:24].tolist())
        return
    f = t.double()
    head = ", ".join(f"{x:.9g}" for x in f.flatten()[:4].tolist())
    print(label, tuple(t.shape), t.dtype, f"abs-sum {f.abs().sum().item():.9g} max {f.abs().max().item():.9g}",
          f"[{head}]")


class SmallCNN(nn.Module):
    """A CIFAR-style CNN at 16x16: conv-bn-relu-pool twice, dropout, a linear head over ``classes`` classes."""

    def __init__(self, classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(16 * 4 * 4, classes))

    def forward(self, x):
        return self.head(self.features(x))


def model(classes=10, seed=0, dtype=torch.float64):
    """``SmallCNN`` from seeded weights, its batch-norm statistics set by two training batches, in eval mode. In
    float64 by default: in float32 its convolutions' and linear layer's sums round differently under OpenBLAS and
    MKL (a logit's last bits), which sign() and argmax() in the attacks then turn into other images."""
    torch.manual_seed(seed)
    net = SmallCNN(classes).to(dtype)
    with torch.no_grad():
        for _ in range(2):
            net(torch.rand(8, 3, 16, 16, dtype=dtype))
    return net.eval()


def data(net, n=6, seed=1):
    """``n`` seeded images in [0, 1] (the model's dtype) and the model's own predictions as their labels."""
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, 3, 16, 16, generator=g, dtype=next(net.parameters()).dtype)
    with torch.no_grad():
        labels = net(images).argmax(1)
    return images, labels


def report(net, images, adv, labels, label="adv"):
    """The adversarial images' digest, distances and the model's outputs on them."""
    show(label, adv)
    delta = (adv - images).flatten(1)
    show(f"{label} l2", delta.norm(p=2, dim=1))
    show(f"{label} linf", delta.abs().amax(1))
    with torch.no_grad():
        logits = net(adv)
    show(f"{label} logits", logits)
    pred = logits.argmax(1)
    show(f"{label} pred", pred)
    print(f"{label} robust acc", (pred == labels).float().mean().item())


def attack(ta, name, *, targeted=(), normalize=False, classes=10, n=6, dtype="float64", **kwargs):
    """``torchattacks.<name>(model, **kwargs)`` on the seeded data: its repr, then each mode in ``targeted``
    ('random', 'least', 'label', 'function') after the default one. ``normalize``: the model sees images
    normalised with CIFAR-10's mean and std, and the attack is told so (``set_normalization_used``). ``dtype``:
    the images' ("float32" for the attacks that build float32 tensors of their own: TIFGSM's and PIFGSM's kernels,
    EAD's and FAB's buffers); the model computes in float64 either way (cast in and out), as OpenBLAS and MKL round
    its float32 sums differently."""
    net = model(classes)
    images, labels = data(net, n)
    if dtype == "float32":
        net = nn.Sequential(_Cast(torch.float64), net, _Cast(torch.float32))
        images = images.float()
    atk = getattr(ta, name)(net, **kwargs)
    if normalize:
        mean, std = [0.4914, 0.4822, 0.4465], [0.2470, 0.2435, 0.2616]
        net = nn.Sequential(_Normalize(mean, std), net)
        atk.set_model(net)
        atk.set_normalization_used(mean, std)
        atk.set_normalization_used(mean, std)  # (set again by the wrapper methods)
    print(repr(atk).splitlines()[0][:300])
    torch.manual_seed(2)
    report(net, images, atk(images, labels), labels, f"{name}")
    for mode in targeted:
        if mode == "random":
            atk.set_mode_targeted_random()
            targets = None
        elif mode == "least":
            atk.set_mode_targeted_least_likely(kth_min=2)
            targets = None
        elif mode == "function":
            atk.set_mode_targeted_by_function(lambda images, labels: (labels + 1) % classes)
            targets = None
        else:
            atk.set_mode_targeted_by_label(quiet=True)
            targets = (labels + 3) % classes
        torch.manual_seed(3)
        adv = atk(images, labels if targets is None else targets)
        report(net, images, adv, labels, f"{name} {mode}")
        if targets is None:
            show(f"{name} {mode} target", atk.get_target_label(images, labels))
    atk.set_mode_default()


class _Cast(nn.Module):
    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtype

    def forward(self, x):
        return x.to(self.dtype)


class _Normalize(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("mean", torch.tensor(mean, dtype=torch.float64).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor(std, dtype=torch.float64).view(1, 3, 1, 1))

    def forward(self, x):
        return (x - self.mean) / self.std


def multi(ta):
    """MultiAttack over FGSM, PGD and CW: the images each attack left robust go to the next."""
    net = model()
    images, labels = data(net)
    atks = [ta.FGSM(net, eps=2 / 255), ta.PGD(net, eps=4 / 255, alpha=1 / 255, steps=3),
            ta.CW(net, c=0.5, steps=10, lr=0.05)]
    atk = ta.MultiAttack(atks, verbose=True)  # prints each attack's success rate
    print(repr(atk).splitlines()[0][:300])
    torch.manual_seed(2)
    report(net, images, atk(images, labels), labels, "MultiAttack")


def training_mode(ta):
    """PGD with the model in training mode: batch norm and dropout in training (set_model_training_mode), the
    model's mode restored after the attack."""
    net = model().train()
    images, labels = data(net.eval())
    net.train()
    atk = ta.PGD(net, eps=8 / 255, alpha=2 / 255, steps=4)
    atk.set_model_training_mode(model_training=True, batchnorm_training=True, dropout_training=True)
    torch.manual_seed(2)
    adv = atk(images, labels)
    print("training after", net.training, [m.training for m in net.modules()][:6])
    report(net.eval(), images, adv, labels, "PGD train")
    show("running mean", net.features[1].running_mean)
    atk.set_model_training_mode(model_training=True, batchnorm_training=False, dropout_training=False)
    torch.manual_seed(3)
    report(net.eval(), images, atk(images, labels), labels, "PGD train frozen bn")


def save_load(ta):
    """``Attack.save`` over a DataLoader (float and int storage) and ``Attack.load``: the robust accuracy and L2
    it returns, the saved tensors and the loaded batches."""
    net = model()
    images, labels = data(net, n=8)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=3)
    atk = ta.FGSM(net, eps=4 / 255)
    torch.manual_seed(2)
    rob_acc, l2, _ = atk.save(loader, "adv.pt", verbose=False, return_verbose=True, save_predictions=True,
                              save_clean_inputs=True)
    print("save", rob_acc, f"{l2:.9g}")
    saved = torch.load("adv.pt")
    print(sorted(saved), saved["save_type"])
    show("saved adv", saved["adv_inputs"])
    show("saved preds", saved["preds"])
    atk.save(loader, "adv_int.pt", verbose=False, save_type="int")
    saved = torch.load("adv_int.pt")
    show("saved int", saved["adv_inputs"].long())
    for path, kw in (("adv.pt", {"load_predictions": True, "load_clean_inputs": True}), ("adv_int.pt", {}),
                     ("adv.pt", {"normalize": {"mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25]}})):
        loaded = atk.load(path, batch_size=4, **kw)
        for batch in loaded:
            for i, t in enumerate(batch):
                show(f"loaded {path} {i}", t)
            break


def lgv(ta):
    """LGV: a few epochs of SGD collect model copies, then BIM against their ensemble."""
    net = model()
    images, labels = data(net, n=8)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images, labels), batch_size=4)
    atk = ta.LGV(net, loader, lr=0.05, epochs=2, nb_models_epoch=2, wd=1e-4, n_grad=1, verbose=False,
                 attack_class=ta.BIM, eps=4 / 255, alpha=1 / 255, steps=3)
    torch.manual_seed(2)
    atk.collect_models()
    print("collected", len(atk.list_models))
    for i, m in enumerate(atk.list_models):
        show(f"model {i} head", m.head[2].weight)
    torch.manual_seed(3)
    report(net, images, atk(images, labels), labels, "LGV")


# robustbench's loaders as code_coverage/test_atks.py calls them: a seeded model and data, no downloads.
# In float32, as the package's test runs: it prints accuracies to two decimals only.
def load_model(model_name="Standard", model_dir="./models", norm="Linf"):
    return model(dtype=torch.float32)


def load_cifar10(n_examples=5, data_dir="./data"):
    return data(model(dtype=torch.float32), n_examples)


def clean_accuracy(net, x, y, batch_size=100, device=None):
    with torch.no_grad():
        return (net(x).argmax(1) == y).float().mean().item()
