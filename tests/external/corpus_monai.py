"""Drivers for MONAI's own Python package (``recipes_monai.py``; our text).

A recipe fetches one of MONAI's test files, or one of its package modules with calls to the drivers here appended,
with the package beside it; the runner loads the package from the script's folder in both runs
(``runner._fetched_packages``). The drivers call MONAI as its tutorials and tests do, on seeded volumes, and print
each result at full precision (a float32 value's shortest round-trip repr): its shape, dtype, first values and sum,
and its gradients where it trains.
"""

from __future__ import annotations

import numpy as np


def _torch():
    import torch  # core under the runner's alias in core's run

    return torch


def run_tests(namespace, every=1):
    """The test file's ``unittest`` classes, each test's outcome printed (``corpus_labml.run_tests``)."""
    __import__("corpus_labml").run_tests(namespace, every)


def _number(v, dtype):
    """A scalar result at full precision: a float32 value's shortest round-trip repr."""
    return repr(float(np.float32(v))) if dtype == "float32" else repr(v)


def _fixed(v):
    """An element of a tensor to 6 decimals: cancellation leaves values near 0 whose last bits follow the summation
    order (a convolution's, a reduction's), which any two BLAS builds of torch differ in too."""
    return f"{v:.6f}" if isinstance(v, float) else repr(v)


def show(name, value, n=6):
    """A tensor (or array) as ``name type shape dtype first-values abs-sum``: a 0-d one at full precision, elements and
    the sum of their absolute values (a signed sum of normalised values is rounding noise) to 6 decimals; tuples,
    lists and dicts item by item; a MetaTensor's affine too; anything else as it
    prints."""
    torch = _torch()
    if isinstance(value, (tuple, list)) and any(isinstance(v, (torch.Tensor, np.ndarray, dict)) for v in value):
        for i, v in enumerate(value):
            show(f"{name}[{i}]", v, n)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            show(f"{name}.{k}", v, n)
        return
    if isinstance(value, np.ndarray):
        flat = value.reshape(-1)
        dtype = str(value.dtype)
        print(name, "ndarray", value.shape, dtype, [_fixed(v) for v in flat[:n].tolist()],
              "abs-sum", _fixed(float(np.abs(value.astype(np.float64)).sum())))
        return
    if not isinstance(value, torch.Tensor):
        print(name, type(value).__name__, value)
        return
    t = (value.as_tensor() if hasattr(value, "as_tensor") else value).detach()  # (a batched MetaTensor's slices
    dtype = str(t.dtype).replace("torch.", "")  # would split its metadata)
    flat = t.reshape(-1)[:n].tolist()
    total = t.double().abs().sum().item() if t.numel() and not t.is_complex() else 0.0
    if t.dim() == 0:
        print(name, type(value).__name__, "()", dtype, _number(flat[0], dtype))
    else:
        print(name, type(value).__name__, tuple(t.shape), dtype, [_fixed(v) for v in flat], "abs-sum", _fixed(total))
    if hasattr(value, "affine") and type(value).__name__ == "MetaTensor":
        print(f"{name}.affine", value.affine.tolist(), "is_batch", value.is_batch)


def each(calls):
    """``(name, thunk)`` pairs: each thunk's result shown, an exception shown as the output it is in both runs."""
    for name, fn in calls:
        try:
            show(name, fn())
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:160] if str(exc) else "")


def volume(shape, seed=0, low=0.0, high=1.0):
    """A seeded float32 volume: a smooth blob plus noise, so segmentation-like structure exists."""
    torch = _torch()
    rng = np.random.RandomState(seed)
    grids = np.meshgrid(*[np.linspace(-1, 1, s) for s in shape[2:]], indexing="ij")
    blob = np.exp(-sum(g ** 2 for g in grids) * 3.0)
    data = 0.7 * blob[None, None] + 0.3 * rng.rand(*shape)
    return torch.as_tensor((low + (high - low) * data).astype(np.float32))


def labels(shape, classes, seed=1):
    torch = _torch()
    return torch.as_tensor(np.random.RandomState(seed).randint(0, classes, shape)).long()


def one_hot(index, classes):
    torch = _torch()
    return torch.nn.functional.one_hot(index[:, 0], classes).movedim(-1, 1).float()


def train(name, net, x, target, loss_fn, steps=2, lr=1e-2):
    """``steps`` of Adam on ``loss_fn(net(x), target)``: each loss, then the output and the gradient's norm."""
    torch = _torch()
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    for step in range(steps):
        opt.zero_grad()
        out = net(x)
        out = out[0] if isinstance(out, (tuple, list)) else out
        loss = loss_fn(out, target)
        loss.backward()
        grad = sum(float(p.grad.double().pow(2).sum()) for p in net.parameters() if p.grad is not None)
        print(name, "step", step, "loss", _number(loss.item(), "float32"), "grad2", f"{grad:.6g}")
        opt.step()
    show(f"{name} out", out)


# networks ---------------------------------------------------------------------------------------------------------


def networks(nets):
    """Each ``name: (factory, input shape[, train])``: the net built under seed 0, its parameter count, its output in
    eval mode and (unless ``train`` is False) one backward of the output's mean square in train mode. (Deep
    classifiers whose last batch norms see two values per channel have gradients of 1e7 and more that follow the
    last bits of every convolution: those are shown in eval mode only.)"""
    torch = _torch()
    for name, (factory, shape, *train) in nets.items():
        try:
            torch.manual_seed(0)
            net = factory()
            x = volume(shape)
            print(name, "parameters", sum(p.numel() for p in net.parameters()))
            net.eval()
            with torch.no_grad():
                show(f"{name} eval", net(x))
            if train and not train[0]:
                continue
            net.train()
            out = net(x)
            out = out[0] if isinstance(out, (tuple, list)) else out
            out.pow(2).mean().backward()
            grads = [p.grad for p in net.parameters() if p.grad is not None]
            print(name, "grads", len(grads), "norm2", f"{sum(float(g.double().pow(2).sum()) for g in grads):.6g}")
        except Exception as exc:
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:160] if str(exc) else "")


# losses -----------------------------------------------------------------------------------------------------------


def losses(L):
    """MONAI's segmentation and regression losses on seeded logits and labels: each value and its input gradient."""
    torch = _torch()
    torch.manual_seed(0)
    logits = torch.randn(2, 3, 8, 8, 6)
    index = labels((2, 1, 8, 8, 6), 3)
    target = one_hot(index, 3)
    cases = {
        "dice_softmax": (L.DiceLoss(softmax=True, to_onehot_y=True), index),
        "dice_sigmoid_batch": (L.DiceLoss(sigmoid=True, batch=True, squared_pred=True), target),
        "dice_none": (L.DiceLoss(softmax=True, reduction="none", include_background=False), target),
        "dice_jaccard": (L.DiceLoss(softmax=True, jaccard=True, smooth_nr=0.0, smooth_dr=1e-6), target),
        "generalized_dice": (L.GeneralizedDiceLoss(softmax=True, to_onehot_y=True), index),
        "generalized_dice_simple": (L.GeneralizedDiceLoss(sigmoid=True, w_type="simple"), target),
        "dice_ce": (L.DiceCELoss(softmax=True, to_onehot_y=True, lambda_ce=0.7), index),
        "dice_ce_weight": (L.DiceCELoss(softmax=True, weight=torch.tensor([0.2, 0.3, 0.5])), target),
        "dice_focal": (L.DiceFocalLoss(softmax=True, to_onehot_y=True, gamma=1.5), index),
        "gdice_focal": (L.GeneralizedDiceFocalLoss(softmax=True, to_onehot_y=True), index),
        "focal": (L.FocalLoss(to_onehot_y=True, gamma=2.0), index),
        "focal_softmax_alpha": (L.FocalLoss(use_softmax=True, alpha=0.25, weight=[1.0, 2.0, 3.0]), target),
        "tversky": (L.TverskyLoss(softmax=True, alpha=0.3, beta=0.7), target),
        "tversky_sigmoid": (L.TverskyLoss(sigmoid=True, to_onehot_y=True, batch=True), index),
        "masked_dice": (L.MaskedDiceLoss(sigmoid=True), target),
        "soft_cldice": (L.SoftclDiceLoss(), target),
        "soft_dice_cldice": (L.SoftDiceclDiceLoss(), target),
        "nacl": (L.NACLLoss(classes=3, dim=3), index[:, 0]),
    }
    for name, (loss, y) in cases.items():
        x = logits.clone().requires_grad_(True)
        try:
            value = loss(x.sigmoid() if name in ("soft_cldice", "soft_dice_cldice", "asym_unified_focal") else x, y)
            value.sum().backward()
            show(f"{name} value", value)
            show(f"{name} grad", x.grad)
        except Exception as exc:
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:160] if str(exc) else "")
    mask = (torch.rand(2, 1, 8, 8, 6) > 0.3).float()
    x = logits.clone().requires_grad_(True)
    value = L.MaskedDiceLoss(softmax=True)(x, target, mask=mask)
    value.backward()
    show("masked_dice_mask value", value)
    show("masked_dice_mask grad", x.grad)
    deep = L.DeepSupervisionLoss(L.DiceCELoss(softmax=True), weight_mode="exp")
    outs = [logits, torch.randn(2, 3, 4, 4, 3), torch.randn(2, 3, 2, 2, 2)]
    show("deep_supervision", deep(outs, target))
    masked = L.MaskedLoss(L.DiceLoss, sigmoid=True)
    show("masked_loss", masked(logits, target, mask))


def image_losses(L):
    """Regression-style losses on seeded images: SSIM, contrastive, Barlow twins, local NCC, mutual information,
    bending energy, global mutual information, multi-scale, perceptual-free ones."""
    torch = _torch()
    a, b = volume((2, 1, 12, 12, 12)), volume((2, 1, 12, 12, 12), seed=3)
    a2, b2 = volume((2, 1, 16, 16)), volume((2, 1, 16, 16), seed=3)
    torch.manual_seed(0)
    e1, e2 = torch.randn(4, 8), torch.randn(4, 8)
    ddf = torch.randn(2, 3, 8, 8, 8) * 0.1
    each([
        ("ssim2d", lambda: L.SSIMLoss(spatial_dims=2, data_range=1.0)(a2, b2)),
        ("ssim3d_uniform", lambda: L.SSIMLoss(spatial_dims=3, kernel_type="uniform", win_size=5)(a, b)),
        ("contrastive", lambda: L.ContrastiveLoss(temperature=0.5)(e1, e2)),
        ("barlow_twins", lambda: L.BarlowTwinsLoss(lambd=5e-3)(e1, e2)),
        ("local_ncc", lambda: L.LocalNormalizedCrossCorrelationLoss(spatial_dims=3, kernel_size=3)(a, b)),
        ("local_ncc_gauss", lambda: L.LocalNormalizedCrossCorrelationLoss(spatial_dims=2, kernel_type="gaussian",
                                                                         kernel_size=5)(a2, b2)),
        ("global_mi", lambda: L.GlobalMutualInformationLoss(num_bins=8)(a, b)),
        ("global_mi_bspline", lambda: L.GlobalMutualInformationLoss(kernel_type="b-spline", num_bins=6)(a2, b2)),
        ("bending_energy", lambda: L.BendingEnergyLoss()(ddf)),
        ("diffusion", lambda: L.DiffusionLoss()(ddf)),
        ("multi_scale", lambda: L.MultiScaleLoss(L.DiceLoss(), scales=[0, 1, 2])(a, (b > 0.5).float())),
        ("giou", lambda: L.BoxGIoULoss()(torch.tensor([[0.0, 0, 2, 2], [1, 1, 3, 4]]),
                                         torch.tensor([[0.5, 0, 2, 3], [1, 2, 3, 3]]))),
        ("spectral", lambda: L.JukeboxLoss(spatial_dims=2)(a2, b2)),
    ])


# metrics ----------------------------------------------------------------------------------------------------------


def metrics(M):
    """MONAI's metrics as its tutorials use them: accumulate batches, aggregate, reset; and the functional forms."""
    torch = _torch()
    index_pred = labels((2, 1, 10, 10, 6), 3, seed=2)
    index_true = labels((2, 1, 10, 10, 6), 3, seed=3)
    pred, true = one_hot(index_pred, 3), one_hot(index_true, 3)
    for name, metric in {
        "dice": M.DiceMetric(include_background=True, reduction="mean"),
        "dice_batch": M.DiceMetric(include_background=False, reduction="mean_batch", get_not_nans=True),
        "dice_ignore_empty": M.DiceMetric(ignore_empty=False, num_classes=3, return_with_label=True),
        "meaniou": M.MeanIoU(include_background=False),
        "generalized_dice": M.GeneralizedDiceScore(include_background=True),
        "confusion": M.ConfusionMatrixMetric(metric_name=["sensitivity", "specificity", "precision", "f1 score",
                                                          "accuracy", "threat score", "mcc"], compute_sample=True),
        "fbeta": M.FBetaScore(beta=2.0),
    }.items():
        try:
            for half in (slice(0, 1), slice(1, 2)):
                metric(y_pred=pred[half], y=true[half])
            show(name, metric.aggregate())
            metric.reset()
        except Exception as exc:
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:160] if str(exc) else "")
    a, b = volume((2, 1, 12, 12, 12)), volume((2, 1, 12, 12, 12), seed=3)
    for name, metric in {"mse": M.MSEMetric(), "mae": M.MAEMetric(), "rmse": M.RMSEMetric(),
                         "psnr": M.PSNRMetric(max_val=1.0), "ssim": M.SSIMMetric(spatial_dims=3, data_range=1.0),
                         "msssim": M.MultiScaleSSIMMetric(spatial_dims=2, data_range=1.0, kernel_size=3,
                                                          weights=(0.5, 0.5))}.items():
        try:
            x, y = (a, b) if name != "msssim" else (a[..., 0], b[..., 0])
            metric(x, y)
            metric(y, x * 0.8)
            show(name, metric.aggregate())
        except Exception as exc:
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:160] if str(exc) else "")
    torch.manual_seed(0)
    scores, truth = torch.rand(20, 3).softmax(1), torch.randint(0, 3, (20,))
    roc = M.ROCAUCMetric(average="macro")
    roc(scores, torch.nn.functional.one_hot(truth, 3))
    show("rocauc_macro", roc.aggregate())
    show("rocauc_none", M.compute_roc_auc(scores, torch.nn.functional.one_hot(truth, 3), average="none"))
    show("average_precision", M.compute_average_precision(scores, torch.nn.functional.one_hot(truth, 3)))
    show("cumulative_average", _cumulative(M))
    show("compute_dice", M.compute_dice(pred, true, include_background=False))
    show("compute_iou", M.compute_iou(pred, true))
    show("confusion_matrix", M.get_confusion_matrix(pred, true))
    show("variance", M.compute_variance(torch.stack([a, b, a * 0.5]), spatial_map=True))
    show("label_quality", M.label_quality_score(pred, true, include_background=False))


def _cumulative(M):
    torch = _torch()
    avg = M.CumulativeAverage()
    for v in ([0.5, 0.25], [0.125, 1.0], [0.75, float("nan")]):
        avg.append(torch.tensor(v), count=torch.tensor([2, 1]))
    return [avg.aggregate(), avg.get_current()]


# transforms -------------------------------------------------------------------------------------------------------


def transforms(T, names):
    """Each named array transform (an expression of ``T``) applied to a seeded (1, 12, 10, 8) MetaTensor; random ones
    seeded with ``set_random_state(0)``; the result, its affine and the inverse where it has one."""
    torch = _torch()
    from monai.data import MetaTensor

    base = MetaTensor(volume((1, 1, 12, 10, 8))[0], affine=torch.diag(torch.tensor([1.5, 1.0, 2.0, 1.0])))
    for expression in names:
        try:
            transform = eval(expression, {"T": T, "torch": torch, "np": np})
            if hasattr(transform, "set_random_state"):
                transform.set_random_state(0)
            out = transform(base.clone())
            show(expression, out)
            if hasattr(transform, "inverse") and isinstance(out, MetaTensor) and out.applied_operations:
                show(f"{expression} inverse", transform.inverse(out))
        except Exception as exc:
            print(expression, "raised", type(exc).__name__, str(exc).splitlines()[0][:160] if str(exc) else "")


def dict_pipeline(T):
    """A dictionary pipeline as MONAI's segmentation tutorials build it (seeded random transforms, lazy resampling
    off), applied to two samples, then inverted through ``Invertd``-style ``inverse``."""
    torch = _torch()
    from monai.data import MetaTensor
    from monai.utils import set_determinism

    set_determinism(seed=0)
    keys = ["image", "label"]
    pipeline = T.Compose([
        T.EnsureChannelFirstd(keys, channel_dim="no_channel"),
        T.Spacingd(keys, pixdim=(1.5, 1.5, 2.0), mode=("bilinear", "nearest")),
        T.ScaleIntensityRanged("image", a_min=-50, a_max=200, b_min=0.0, b_max=1.0, clip=True),
        T.CropForegroundd(keys, source_key="image", margin=1),
        T.RandCropByPosNegLabeld(keys, label_key="label", spatial_size=(8, 8, 6), pos=1, neg=1, num_samples=2),
        T.RandFlipd(keys, prob=0.5, spatial_axis=0),
        T.RandRotate90d(keys, prob=0.5, max_k=3),
        T.RandShiftIntensityd("image", offsets=0.1, prob=0.5),
        T.RandAffined(keys, prob=1.0, rotate_range=(0.2, 0.2, 0.2), scale_range=0.1, mode=("bilinear", "nearest"),
                      padding_mode="zeros"),
        T.RandGaussianNoised("image", prob=1.0, std=0.05),
        T.EnsureTyped(keys),
    ])
    pipeline.set_random_state(0)
    for i in range(2):
        image = volume((1, 1, 20, 18, 14), seed=i, low=-100, high=300)[0, 0]
        label = (image > 120).float()
        affine = torch.tensor([[-1.2, 0, 0, 10], [0, 1.0, 0, -5], [0, 0, 2.5, 3], [0, 0, 0, 1]], dtype=torch.float64)
        data = {"image": MetaTensor(image, affine=affine), "label": MetaTensor(label, affine=affine)}
        out = pipeline(data)
        for j, sample in enumerate(out):
            show(f"sample{i}.{j} image", sample["image"])
            show(f"sample{i}.{j} label", sample["label"])
            print(f"sample{i}.{j} ops", [op["class"] for op in sample["image"].applied_operations])
    invertible = T.Compose([
        T.EnsureChannelFirstd(keys, channel_dim="no_channel"),
        T.Spacingd(keys, pixdim=(1.5, 1.5, 2.0), mode=("bilinear", "nearest")),
        T.RandFlipd(keys, prob=1.0, spatial_axis=1),
        T.RandRotate90d(keys, prob=1.0, max_k=3),
        T.RandZoomd(keys, prob=1.0, min_zoom=0.8, max_zoom=1.2, mode=("trilinear", "nearest")),
        T.RandAffined(keys, prob=1.0, rotate_range=(0.3, 0.1, 0.1), mode=("bilinear", "nearest")),
    ])
    invertible.set_random_state(0)
    image = volume((1, 1, 14, 12, 10), seed=5)[0, 0]
    data = {"image": MetaTensor(image), "label": MetaTensor((image > 0.5).float())}
    out = invertible(data)
    show("invertible image", out["image"])
    inverted = invertible.inverse(out)
    show("inverted image", inverted["image"])
    show("inverted label", inverted["label"])


def post_transforms(T):
    """Post-processing as the tutorials' evaluation loops do: Activations, AsDiscrete, connected components,
    hole filling, label filtering, and ``decollate_batch`` of a batched prediction."""
    torch = _torch()
    from monai.data import decollate_batch

    torch.manual_seed(0)
    logits = torch.randn(2, 3, 10, 10, 6)
    each([
        ("softmax", lambda: T.Activations(softmax=True)(logits[0])),
        ("sigmoid_other", lambda: T.Activations(sigmoid=True, other=torch.tanh)(logits[0])),
        ("argmax_onehot", lambda: T.AsDiscrete(argmax=True, to_onehot=3)(logits[0])),
        ("threshold", lambda: T.AsDiscrete(threshold=0.2)(logits[0])),
        ("rounding", lambda: T.AsDiscrete(rounding="torchrounding")(logits[0] * 3)),
        ("label_filter", lambda: T.LabelFilter([1])(logits[0].argmax(0, keepdim=True))),
        ("label_to_contour", lambda: T.LabelToContour()(T.AsDiscrete(argmax=True, to_onehot=3)(logits[0]))),
        ("mean_ensemble", lambda: T.MeanEnsemble(weights=[1.0, 3.0])(list(logits))),
        ("vote_ensemble", lambda: T.VoteEnsemble(num_classes=3)([x.argmax(0, keepdim=True) for x in logits])),
    ])
    post = T.Compose([T.Activations(softmax=True), T.AsDiscrete(argmax=True)])
    outs = [post(x) for x in decollate_batch(logits)]
    show("decollated", outs)
    batch = {"pred": logits, "names": ["a", "b"], "scalar": torch.tensor([1.0, 2.0])}
    for item in decollate_batch(batch, detach=True):
        show(f"item {item['names']}", [item["pred"], item["scalar"]])


# inferers and data ------------------------------------------------------------------------------------------------


def inferers(I):
    """``sliding_window_inference`` with constant and gaussian blending, padding and a multi-output predictor, and
    SimpleInferer/SlidingWindowInferer on a small UNet."""
    torch = _torch()
    from monai.networks.nets import UNet

    torch.manual_seed(0)
    net = UNet(spatial_dims=3, in_channels=1, out_channels=2, channels=(4, 8), strides=(2,), num_res_units=1).eval()
    x = volume((1, 1, 14, 12, 10))
    with torch.no_grad():
        show("simple", I.SimpleInferer()(x, net))
        for mode in ("constant", "gaussian"):
            show(f"window_{mode}", I.sliding_window_inference(x, (8, 8, 8), 2, net, overlap=0.5, mode=mode,
                                                                 sigma_scale=0.125))
        show("window_pad_reflect", I.sliding_window_inference(x, (16, 8, 6), 3, lambda t: t * 2.0 + 1.0,
                                                                 overlap=0.25, padding_mode="reflect"))
        show("window_multi", I.sliding_window_inference(x, (6, 6, 6), 4, lambda t: (t, t.mean(1, keepdim=True)),
                                                           overlap=(0.5, 0.25, 0.0), mode="gaussian"))
        show("window_dict", I.sliding_window_inference(x, (8, 8, 8), 2, lambda t: {"a": t * 3.0}, overlap=0.3))
        inferer = I.SlidingWindowInferer(roi_size=(8, 8, 8), sw_batch_size=2, overlap=0.5, mode="gaussian")
        show("inferer", inferer(x, net))
        show("slice_inferer", I.SliceInferer(roi_size=(8, 8), spatial_dim=2, sw_batch_size=2)(
            x, lambda t: t * t + 0.5))


def data_pipeline(D, T):
    """``Dataset``, ``CacheDataset`` and ``DataLoader`` with ``list_data_collate``, ``decollate_batch``,
    ``partition_dataset``, ``create_test_image_2d/3d`` (MONAI's synthetic images, NumPy's seeded RandomState)."""
    torch = _torch()
    files = []
    for i in range(4):
        image, seg = D.create_test_image_3d(16, 16, 12, num_objs=2, rad_min=2, rad_max=4, noise_max=0.2,
                                           random_state=np.random.RandomState(i))
        files.append({"image": image.astype(np.float32), "label": seg.astype(np.float32), "id": i})
    show("image0", files[0]["image"])
    image2d, seg2d = D.create_test_image_2d(20, 20, num_seg_classes=3, channel_dim=0, rad_min=2, rad_max=5,
                                            random_state=np.random.RandomState(7))
    show("image2d", [image2d, seg2d])
    keys = ["image", "label"]
    transform = T.Compose([T.EnsureChannelFirstd(keys, channel_dim="no_channel"),
                           T.ScaleIntensityd("image"),
                           T.RandSpatialCropd(keys, roi_size=(8, 8, 8), random_size=False),
                           T.ToTensord(keys)])
    transform.set_random_state(0)
    cached = D.CacheDataset(files, transform, cache_rate=1.0, num_workers=0, progress=False)
    plain = D.Dataset(files, transform)
    loader = D.DataLoader(cached, batch_size=2, shuffle=False, num_workers=0, collate_fn=D.list_data_collate)
    for batch in loader:
        show("batch image", batch["image"])
        show("batch label", batch["label"])
        print("batch ids", batch["id"].tolist(), "meta", type(batch["image"]).__name__)
        for item in D.decollate_batch(batch):
            print("item", item["id"], tuple(item["image"].shape), type(item["image"]).__name__)
    show("plain[1]", plain[1]["image"])
    print("partition", D.partition_dataset(list(range(10)), ratios=[0.6, 0.4], shuffle=True, seed=0))
    print("select_folds", D.select_cross_validation_folds(D.partition_dataset(list(range(9)), num_partitions=3),
                                                          folds=[0, 2]))
    grid = D.GridPatchDataset(data=[torch.arange(64.0).reshape(1, 8, 8)],
                              patch_iter=D.PatchIter(patch_size=(4, 4), start_pos=(0, 0)))
    show("grid patches", [p for p, _ in grid])
    print("dense_patch_slices", D.dense_patch_slices((10, 9), (4, 4), (3, 3)))


def meta_tensor():
    """MetaTensor through torch ops: affine and metadata carried, ``is_batch`` indexing, ``as_tensor``, collation
    and ``decollate_batch``, ``torch.stack``/``cat``, in-place ops, numpy interop, ``pixdim``."""
    torch = _torch()
    from monai.data import MetaTensor, decollate_batch, list_data_collate

    affine = torch.tensor([[2.0, 0, 0, 1], [0, 3.0, 0, 2], [0, 0, 1.5, 3], [0, 0, 0, 1]])
    m = MetaTensor(torch.arange(24.0).reshape(1, 2, 3, 4), affine=affine, meta={"fname": "vol.nii", "n": 3})
    show("m", m)
    print("pixdim", m.pixdim.tolist(), "meta keys", sorted(m.meta))
    each([
        ("add", lambda: m + 1),
        ("mul_tensor", lambda: m * torch.ones(1, 2, 3, 4)),
        ("sum", lambda: m.sum()),
        ("mean_dim", lambda: torch.mean(m, dim=1)),
        ("softmax", lambda: torch.softmax(m, dim=1)),
        ("conv", lambda: torch.nn.functional.conv3d(m[None], torch.ones(1, 1, 1, 2, 2))),
        ("interpolate", lambda: torch.nn.functional.interpolate(m[None], scale_factor=2, mode="trilinear")),
        ("index", lambda: m[0, 1]),
        ("flip", lambda: torch.flip(m, dims=[2])),
        ("permute", lambda: m.permute(0, 3, 2, 1)),
        ("to_double", lambda: m.to(torch.float64)),
        ("as_tensor", lambda: m.as_tensor()),
        ("array", lambda: m.array),
        ("numpy_sum", lambda: np.sum(m)),
        ("numpy_gt", lambda: m > np.full((1, 2, 3, 4), 10.0)),
        ("clone", lambda: m.clone()),
        ("detach", lambda: m.detach()),
        ("where", lambda: torch.where(m > 5, m, torch.zeros_like(m))),
        ("unbind", lambda: torch.unbind(m, dim=2)),
    ])
    batch = list_data_collate([{"img": m}, {"img": m * 2}])
    show("collated", batch["img"])
    print("collated meta", type(batch["img"].meta["fname"]).__name__, batch["img"].meta["fname"])
    print("batch affine", batch["img"].affine.shape)
    for i, item in enumerate(decollate_batch(batch)):
        show(f"decollated{i}", item["img"])
    show("stack", torch.stack([m, m]))
    show("cat", torch.cat([m, m], dim=1))
    n = m.clone()
    n.add_(2.5)
    show("add_", n)
    print("track_meta affine after op", (m * 2).affine.tolist() == m.affine.tolist())
    print("copy_meta_from", MetaTensor(torch.zeros(2)).copy_meta_from(m).meta["fname"])


def tutorial_training(nets, losses, metrics, transforms, inferers, data):
    """MONAI's 3-D segmentation tutorial (``unet_training_dict``) in miniature: synthetic volumes from
    ``create_test_image_3d``, a dict transform chain with random crops, a UNet trained with DiceLoss for two
    epochs of two batches, and validation with sliding-window inference, post-processing and DiceMetric."""
    torch = _torch()
    from monai.utils import set_determinism

    set_determinism(seed=0)
    samples = []
    for i in range(6):
        image, seg = data.create_test_image_3d(16, 16, 12, num_seg_classes=1, num_objs=2, rad_min=2, rad_max=4,
                                               random_state=np.random.RandomState(i))
        samples.append({"img": image.astype(np.float32), "seg": seg.astype(np.float32)})
    keys = ["img", "seg"]
    train_t = transforms.Compose([
        transforms.EnsureChannelFirstd(keys, channel_dim="no_channel"),
        transforms.ScaleIntensityd("img"),
        transforms.RandCropByPosNegLabeld(keys, label_key="seg", spatial_size=(8, 8, 8), pos=1, neg=1,
                                          num_samples=2),
        transforms.RandRotate90d(keys, prob=0.5, spatial_axes=(0, 1)),
    ])
    val_t = transforms.Compose([transforms.EnsureChannelFirstd(keys, channel_dim="no_channel"),
                                transforms.ScaleIntensityd("img")])
    train_ds = data.Dataset(samples[:4], train_t)
    train_t.set_random_state(0)
    loader = data.DataLoader(train_ds, batch_size=2, shuffle=True, num_workers=0, collate_fn=data.list_data_collate,
                             generator=torch.Generator().manual_seed(0))
    val_loader = data.DataLoader(data.Dataset(samples[4:], val_t), batch_size=1, num_workers=0)
    model = nets.UNet(spatial_dims=3, in_channels=1, out_channels=1, channels=(4, 8, 16), strides=(2, 2),
                      num_res_units=1)
    loss_function = losses.DiceLoss(sigmoid=True)
    optimizer = torch.optim.Adam(model.parameters(), 1e-3)
    dice = metrics.DiceMetric(include_background=True, reduction="mean", get_not_nans=False)
    post = transforms.Compose([transforms.Activations(sigmoid=True), transforms.AsDiscrete(threshold=0.5)])
    for epoch in range(2):
        model.train()
        for step, batch in enumerate(loader):
            optimizer.zero_grad()
            outputs = model(batch["img"])
            loss = loss_function(outputs, batch["seg"])
            loss.backward()
            optimizer.step()
            print("epoch", epoch, "step", step, "loss", _number(loss.item(), "float32"), tuple(batch["img"].shape))
        model.eval()
        with torch.no_grad():
            for val in val_loader:
                out = inferers.sliding_window_inference(val["img"], (8, 8, 8), 4, model, overlap=0.25)
                out = [post(o) for o in data.decollate_batch(out)]
                dice(y_pred=out, y=data.decollate_batch(val["seg"]))
            print("epoch", epoch, "val dice", _number(dice.aggregate().item(), "float32"))
            dice.reset()
