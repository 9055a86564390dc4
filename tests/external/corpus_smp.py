"""Drivers for segmentation_models.pytorch's own Python code (``recipes_smp.py``; our text).

A recipe fetches smp's ``__init__.py`` as its script (run as the package's module), with smp's package, timm's and
torchvision's beside it (the runner loads all three in both runs), and appends calls to the drivers here. They do
what smp's README, docs and tests do: ``smp.create_model`` for each architecture with a small encoder and
``encoder_weights=None`` (seeded), ``aux_params`` classification heads, forward and backward, a few training steps
with its losses, the losses and ``smp.metrics`` on seeded logits and masks, ``save_pretrained``/``from_pretrained``.
Values print at fixed decimals (5) or, for scalars, 8 significant digits.
"""

from __future__ import annotations

import os
import tempfile

import torch


def _smp():
    import segmentation_models_pytorch as smp

    return smp


def _values(t, n=6):
    return [f"{v:.5f}" for v in t.detach().flatten()[:n].tolist()]


def show(name, out):
    """A tensor's shape, dtype, abs sum and first values (a tuple or list: each part)."""
    if isinstance(out, (tuple, list)):
        for i, value in enumerate(out):
            show(f"{name}[{i}]", value)
        return
    total = out.detach().double().abs().sum().item() if out.numel() else 0.0
    print(name, tuple(out.shape), str(out.dtype), f"abs sum {total:.7g}", _values(out))


def _freeze_bn(model):
    """BatchNorm in eval mode (running statistics): on a 2-image batch at the encoder's deepest 2x2 stage a
    training-mode BatchNorm normalises four values, which amplifies float32 rounding."""
    model.apply(lambda m: m.eval() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm) else None)


def segment(arch, encoder="resnet18", *, size=32, classes=2, steps=2, aux=False, depth=None, **kwargs):
    """``smp.create_model(arch, encoder, encoder_weights=None, classes=classes)`` (seeded): parameter count, the
    eval forward on two seeded images, then ``steps`` SGD steps on DiceLoss + cross entropy against seeded masks (SGD:
    Adam's first step moves each weight by about ``lr * sign(grad)``, so a gradient that is float32 rounding noise
    near zero flips whole steps)."""
    smp = _smp()
    torch.manual_seed(0)
    if aux:
        kwargs["aux_params"] = dict(classes=3, dropout=0.0, activation=None, pooling="avg")
    if depth is not None:
        kwargs["encoder_depth"] = depth
    model = smp.create_model(arch, encoder_name=encoder, encoder_weights=None, in_channels=3, classes=classes,
                             **kwargs)
    print(arch, encoder, type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()),
          "modules:", len(list(model.modules())), "output_stride:", model.encoder.output_stride)
    x = torch.randn(2, 3, size, size)
    model.eval()
    with torch.no_grad():
        show("eval", model(x))
    model.train()
    _freeze_bn(model)
    mask = torch.randint(0, classes, (2, size, size))
    dice = smp.losses.DiceLoss(smp.losses.MULTICLASS_MODE, from_logits=True)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    for step in range(steps):
        out = model(x)
        logits = out[0] if aux else out
        loss = dice(logits, mask) + torch.nn.functional.cross_entropy(logits, mask)
        if aux:
            loss = loss + torch.nn.functional.cross_entropy(out[1], torch.tensor([0, 2]))
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)
        opt.step()
        # the gradient's norm to 4 digits: in float32 it follows rounding (a ReLU's input a rounding away from 0, a
        # 2-class cross entropy's gradients cancelling through the 1x1 head); in float64 core's and torch's agree
        # to 15 digits for UnetPlusPlus, MAnet and the timm encoders' Unets
        print("step", step, f"loss {loss.item():.8g}", f"grad norm {norm.item():.4g}")


def encoders(*names, size=32):
    """``smp.encoders.get_encoder`` (seeded): each stage's features, ``out_channels`` and ``output_stride``."""
    smp = _smp()
    for name in names:
        torch.manual_seed(0)
        enc = smp.encoders.get_encoder(name, in_channels=3, depth=5, weights=None).eval()
        print(name, type(enc).__name__, "out_channels:", enc.out_channels, "output_stride:", enc.output_stride)
        with torch.no_grad():
            show(name, enc(torch.randn(1, 3, size, size)))


def losses():
    """Each smp loss in its modes on seeded logits and targets: the value and the gradient's abs sum."""
    smp = _smp()
    L = smp.losses
    torch.manual_seed(0)
    logits_mc = torch.randn(2, 3, 8, 8)
    target_mc = torch.randint(0, 3, (2, 8, 8))
    logits_b = torch.randn(2, 1, 8, 8)
    target_b = (torch.rand(2, 1, 8, 8) > 0.5).float()
    logits_ml = torch.randn(2, 3, 8, 8)
    target_ml = (torch.rand(2, 3, 8, 8) > 0.5).float()
    cases = [
        ("dice binary", L.DiceLoss("binary"), logits_b, target_b),
        ("dice multiclass", L.DiceLoss("multiclass"), logits_mc, target_mc),
        ("dice multilabel", L.DiceLoss("multilabel", log_loss=True, smooth=1.0), logits_ml, target_ml),
        ("dice ignore", L.DiceLoss("multiclass", ignore_index=1, classes=[0, 2]), logits_mc, target_mc),
        ("jaccard binary", L.JaccardLoss("binary"), logits_b, target_b),
        ("jaccard multiclass", L.JaccardLoss("multiclass", log_loss=True), logits_mc, target_mc),
        ("jaccard multilabel", L.JaccardLoss("multilabel", smooth=0.5), logits_ml, target_ml),
        ("tversky multiclass", L.TverskyLoss("multiclass", alpha=0.3, beta=0.7, gamma=1.5), logits_mc, target_mc),
        ("tversky binary", L.TverskyLoss("binary"), logits_b, target_b),
        ("focal binary", L.FocalLoss("binary"), logits_b, target_b),
        ("focal multiclass", L.FocalLoss("multiclass", alpha=0.25, gamma=2.0), logits_mc, target_mc),
        ("focal normalized", L.FocalLoss("multilabel", normalized=True, reduced_threshold=0.5), logits_ml,
         target_ml),
        ("focal ignore", L.FocalLoss("multiclass", ignore_index=2), logits_mc, target_mc),
        ("lovasz binary", L.LovaszLoss("binary"), logits_b, target_b),
        ("lovasz multiclass", L.LovaszLoss("multiclass"), logits_mc, target_mc),
        ("lovasz per image", L.LovaszLoss("multiclass", per_image=True), logits_mc, target_mc),
        ("lovasz multilabel", L.LovaszLoss("multilabel"), logits_ml, target_ml),
        ("soft bce", L.SoftBCEWithLogitsLoss(smooth_factor=0.1), logits_b, target_b),
        ("soft bce ignore", L.SoftBCEWithLogitsLoss(ignore_index=0, pos_weight=torch.tensor(2.0)), logits_b,
         target_b),
        ("soft ce", L.SoftCrossEntropyLoss(smooth_factor=0.1), logits_mc, target_mc),
        ("soft ce ignore", L.SoftCrossEntropyLoss(smooth_factor=0.2, ignore_index=1), logits_mc, target_mc),
        ("mcc", L.MCCLoss(), torch.sigmoid(logits_b), target_b),
    ]
    for name, loss_fn, logits, target in cases:
        x = logits.clone().requires_grad_(True)
        loss = loss_fn(x, target)
        loss.backward()
        print(name, f"{loss.item():.8g}", f"grad abs sum {x.grad.abs().sum().item():.7g}")


def metrics():
    """``smp.metrics.get_stats`` in its three modes (thresholds, ignore_index) and every score and reduction."""
    smp = _smp()
    M = smp.metrics
    torch.manual_seed(0)
    out_b = torch.rand(4, 1, 8, 8)
    tgt_b = torch.randint(0, 2, (4, 1, 8, 8))
    out_mc = torch.randint(0, 3, (4, 8, 8))
    tgt_mc = torch.randint(0, 3, (4, 8, 8))
    stats = {
        "binary": M.get_stats(out_b, tgt_b, mode="binary", threshold=0.5),
        "multilabel": M.get_stats(torch.rand(4, 3, 8, 8), torch.randint(0, 2, (4, 3, 8, 8)), mode="multilabel",
                                  threshold=0.4),
        "multiclass": M.get_stats(out_mc, tgt_mc, mode="multiclass", num_classes=3),
        "ignore": M.get_stats(out_mc, tgt_mc.masked_fill(tgt_mc == 1, -1), mode="multiclass", num_classes=3,
                              ignore_index=-1),
    }
    for mode, (tp, fp, fn, tn) in stats.items():
        print(mode, "tp", tp.tolist(), "fp", fp.sum().item(), "fn", fn.sum().item(), "tn", tn.sum().item(), tp.dtype)
        for fn_name in ("iou_score", "f1_score", "fbeta_score", "accuracy", "recall", "precision", "sensitivity",
                        "specificity", "balanced_accuracy", "positive_predictive_value",
                        "negative_predictive_value", "false_negative_rate", "false_positive_rate",
                        "false_discovery_rate", "false_omission_rate", "positive_likelihood_ratio",
                        "negative_likelihood_ratio"):
            row = []
            for reduction in ("micro", "macro", "weighted", "micro-imagewise", "macro-imagewise", None):
                weights = [0.2, 0.3, 0.5] if reduction == "weighted" and tp.shape[1] == 3 else None
                if reduction == "weighted" and weights is None:
                    continue
                value = getattr(M, fn_name)(tp, fp, fn, tn, reduction=reduction, class_weights=weights)
                row.append(f"{value.item():.6f}" if value.dim() == 0 else str(tuple(value.shape)))
            print(" ", fn_name, *row)


def pretrained_round_trip(arch="Unet", encoder="tu-test_resnet", **kwargs):
    """``model.save_pretrained(folder)`` and ``smp.from_pretrained(folder)`` (the README's example): the config, the
    files written and the same output after loading."""
    smp = _smp()
    torch.manual_seed(0)
    model = smp.create_model(arch, encoder_name=encoder, encoder_weights=None, classes=2, **kwargs).eval()
    x = torch.randn(1, 3, 64, 64)
    with torch.no_grad():
        before = model(x)
    with tempfile.TemporaryDirectory() as folder:
        model.save_pretrained(folder, dataset="seeded noise", metrics={"iou": 0.5})
        print("files:", sorted(os.listdir(folder)))
        with open(os.path.join(folder, "config.json")) as f:
            print(f.read())
        loaded = smp.from_pretrained(folder)
        print(type(loaded).__name__, "training:", loaded.training)
        with torch.no_grad():
            after = loaded(x)
    show("before", before)
    print("same output:", [torch.equal(b, a) for b, a in zip(*(o if isinstance(o, tuple) else (o,)
                                                                for o in (before, after)))])
    print("config:", sorted(loaded.config.items()))


def training_loop(arch="FPN", encoder="resnet18", epochs=2, batches=2):
    """The binary-segmentation example's loop (its LightningModule's steps without Lightning): normalise with the
    encoder's ImageNet statistics, DiceLoss in binary mode from logits, Adam, and the epoch's ``smp.metrics``
    (get_stats on sigmoid > 0.5, per-image and dataset IoU)."""
    smp = _smp()
    torch.manual_seed(0)
    model = smp.create_model(arch, encoder_name=encoder, encoder_weights=None, in_channels=3, classes=1)
    params = smp.encoders.get_preprocessing_params(encoder)
    std = torch.tensor(params["std"]).view(1, 3, 1, 1)
    mean = torch.tensor(params["mean"]).view(1, 3, 1, 1)
    loss_fn = smp.losses.DiceLoss(smp.losses.BINARY_MODE, from_logits=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    images = torch.rand(batches, 4, 3, 64, 64) * 255
    masks = (torch.rand(batches, 4, 1, 64, 64) > 0.6).float()
    for epoch in range(epochs):
        model.train()
        _freeze_bn(model)
        stats = []
        for image, mask in zip(images, masks):
            logits = model((image - mean) / std)
            loss = loss_fn(logits, mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
            pred = (logits.sigmoid() > 0.5).float()
            stats.append(smp.metrics.get_stats(pred.long(), mask.long(), mode="binary"))
            print("epoch", epoch, f"loss {loss.item():.8g}")
        tp, fp, fn, tn = (torch.cat([s[i] for s in stats]) for i in range(4))
        print("per image iou", f"{smp.metrics.iou_score(tp, fp, fn, tn, reduction='micro-imagewise').item():.6f}",
              "dataset iou", f"{smp.metrics.iou_score(tp, fp, fn, tn, reduction='micro').item():.6f}")
