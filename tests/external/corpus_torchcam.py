"""Drivers for ``recipes_torchcam.py`` (our text): torch-cam's class activation maps on core.

``model()`` is a small CNN in float64 (three convolutions, global average pooling, a linear head: the shape CAM
needs) from seeded weights, ``images()`` two seeded 3x16x16 images. ``cam(tc, name, ...)`` builds
``torchcam.methods.<name>`` on named target layers as torch-cam's README does, runs the model (with gradients for
the gradient-based methods), computes the maps for a class index or a list of them, fuses multi-layer maps, and
prints each map's digest (absolute sum, maximum, first values to 9 significant digits) and a row of it in full.
"""

from __future__ import annotations

import torch
import torch.nn as nn


def show(label, value):
    t = value.detach()
    f = t.double()
    head = ", ".join(f"{x:.9g}" for x in f.flatten()[:6].tolist())
    print(label, tuple(t.shape), t.dtype, f"abs-sum {f.abs().sum().item():.9g} max {f.max().item():.9g}", f"[{head}]")


class SmallCNN(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 12, 3, padding=1),
                                      nn.BatchNorm2d(12), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(12, 16, 3, padding=1),
                                      nn.ReLU(inplace=True))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, classes)

    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))


def model(seed=0, dtype=torch.float64):
    """``SmallCNN`` from seeded weights (batch-norm statistics from one training batch), in eval mode."""
    torch.manual_seed(seed)
    net = SmallCNN().to(dtype)
    with torch.no_grad():
        net(torch.randn(4, 3, 16, 16, dtype=dtype))
    return net.eval()


def images(n=2, seed=1, dtype=torch.float64):
    return torch.randn(n, 3, 16, 16, generator=torch.Generator().manual_seed(seed), dtype=dtype)


def cam(tc, name, target="features.7", class_idx=None, grad=None, fuse=False, **kwargs):
    """``torchcam.methods.<name>(model, target, **kwargs)`` on two images: the maps for ``class_idx`` (the top class
    of the first image when None), then for one class per image; ``fuse``: the layers' maps fused."""
    net = model()
    x = images()
    method = getattr(tc.methods, name)
    grad = name not in ("CAM", "ScoreCAM", "SSCAM", "ISCAM") if grad is None else grad
    with method(net, target, **kwargs) as extractor:
        print(repr(extractor))
        for idx in (class_idx, [1, 3]):
            torch.manual_seed(2)
            with torch.set_grad_enabled(grad):
                scores = net(x)
            idx = scores[0].argmax().item() if idx is None else idx
            maps = extractor(idx, scores, retain_graph=True) if grad else extractor(idx, scores)
            for i, m in enumerate(maps):
                show(f"{name} {idx} map {i}", m)
                print("row", [round(v, 9) for v in m[0, 2].tolist()])
            if fuse:
                show(f"{name} {idx} fused", extractor.fuse_cams(maps))
                show(f"{name} {idx} fused 12x12", extractor.fuse_cams(maps, (12, 12)))
    print("hooks after exit", len(extractor.hook_handles))


def located(tc):
    """torch-cam's layer location: the candidate layer for CAM found by a dummy forward, the linear layer, and
    CAM with both found automatically (a float32 model, as the dummy input is float32)."""
    from torchcam.methods import _utils

    net = model(dtype=torch.float32)
    print("candidate", _utils.locate_candidate_layer(net, (3, 16, 16)))
    print("linear", _utils.locate_linear_layer(net))
    print("modes", net.training, [m.training for m in net.modules()][:3])
    with tc.methods.CAM(net, input_shape=(3, 16, 16)) as extractor:
        print(extractor.target_names, extractor.fc_layer if hasattr(extractor, "fc_layer") else "")
        with torch.no_grad():
            out = net(images(dtype=torch.float32))
        show("auto CAM", extractor(out.argmax(1).tolist(), out)[0])


def errors(tc):
    """The checks torch-cam makes before computing a map: each message as both libraries word it."""
    net = model()
    for call in (lambda: tc.methods.CAM(net, "nope", "fc"), lambda: tc.methods.GradCAM(net, 3),
                 lambda: tc.methods.GradCAM(net, [net.features[2], 3])):
        try:
            call()
        except Exception as e:
            print(type(e).__name__, e)
    with tc.methods.GradCAM(net, "features.7") as extractor:
        for args in ((0,), (-1, net(images())), ([0, 1, 2], net(images()))):
            try:
                extractor(*args)
            except Exception as e:
                print(type(e).__name__, e)


def metric(tc, name="GradCAM", **kwargs):
    """torch-cam's ClassificationMetric (average drop and increase in confidence) over two batches."""
    net = model()
    extractor = getattr(tc.methods, name)(net, "features.7", **kwargs)
    m = tc.metrics.ClassificationMetric(extractor, lambda logits: logits.softmax(-1))
    for seed in (1, 2):
        torch.manual_seed(seed)
        m.update(images(3, seed=seed))
    print(name, {k: round(v, 9) for k, v in m.summary().items()})
    m.update(images(2, seed=5), class_idx=1)
    print(name, {k: round(v, 9) for k, v in m.summary().items()})
    m.reset()
    extractor.remove_hooks()
