"""Drivers for piq's package (``recipes_piq.py``): each metric's value and input gradient on seeded stand-in images,
the functional API, and a few optimisation steps under a metric as the loss (our text).

Each driver takes the package as ``piq`` (the script's ``import piq``, loaded from its folder) and prints values with
``tolist()`` (every float32 digit), so a last-bit difference between the two runs shows.
"""

from __future__ import annotations

import torch


def _images(shape=(2, 3, 64, 64), seed=0, dtype=torch.float32):
    """Two seeded images in [0, 1]: a smooth pattern with noise and a blurred, shifted copy of it."""
    g = torch.Generator().manual_seed(seed)
    n, c, h, w = shape
    yy, xx = torch.meshgrid(torch.linspace(0, 1, h, dtype=dtype), torch.linspace(0, 1, w, dtype=dtype), indexing="ij")
    phase = torch.rand(n, c, 1, 1, generator=g, dtype=dtype) * 6.28
    base = 0.5 + 0.25 * torch.sin(6 * xx + phase) * torch.cos(4 * yy - phase)
    x = (base + 0.1 * torch.rand(shape, generator=g, dtype=dtype)).clamp(0, 1)
    y = (0.7 * x + 0.3 * torch.roll(x, shifts=(1, 2), dims=(2, 3)) + 0.05 * torch.randn(shape, generator=g,
                                                                                          dtype=dtype)).clamp(0, 1)
    return x, y


def _try(name, call):
    """``_show(name, call())``, or the exception it raised (the same one in both runs is part of the output)."""
    try:
        _show(name, call())
    except Exception as exc:
        print(name, "raised", type(exc).__name__, exc)


def _show(name, value):
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            _show(f"{name}[{i}]", v)
        return
    print(name, value.dtype, tuple(value.shape), value.tolist() if value.numel() <= 64 else
          [value.sum().item(), value.abs().max().item(), value.flatten()[:8].tolist()])


def metric(piq, name, call, shape=(2, 3, 64, 64), dtype=torch.float32, grad=True):
    """``call(x, y)`` (a metric or a loss) on seeded images, its value and, if ``grad``, the gradient of its sum
    with respect to ``x``."""
    x, y = _images(shape, dtype=dtype)
    x.requires_grad_(grad)
    value = call(x, y)
    _show(f"{name} value", value)
    if grad:
        (g,) = torch.autograd.grad(value.sum() if not isinstance(value, tuple) else value[0].sum(), x)
        _show(f"{name} grad", g)


def full_reference(piq):
    """Every full-reference metric as its function and its loss module, on RGB and on greyscale images."""
    cases = [
        ("ssim", lambda x, y: piq.ssim(x, y, data_range=1., reduction="none")),
        ("ssim_full", lambda x, y: piq.ssim(x, y, data_range=1., full=True, downsample=False)),
        ("ssim_loss", lambda x, y: piq.SSIMLoss(kernel_size=7, kernel_sigma=1.0)(x, y)),
        ("ms_ssim", lambda x, y: piq.multi_scale_ssim(x, y, data_range=1., kernel_size=3, reduction="none")),
        ("ms_ssim_loss", lambda x, y: piq.MultiScaleSSIMLoss(kernel_size=3)(x, y)),
        ("psnr", lambda x, y: piq.psnr(x, y, data_range=1., reduction="none")),
        ("psnr_grey", lambda x, y: piq.psnr(x, y, convert_to_greyscale=True)),
        ("gmsd", lambda x, y: piq.gmsd(x, y, reduction="none")),
        ("gmsd_loss", lambda x, y: piq.GMSDLoss()(x, y)),
        ("ms_gmsd", lambda x, y: piq.multi_scale_gmsd(x, y, chromatic=True, reduction="none")),
        ("ms_gmsd_loss", lambda x, y: piq.MultiScaleGMSDLoss(chromatic=False)(x, y)),
        ("fsim", lambda x, y: piq.fsim(x, y, reduction="none")),
        ("fsim_loss", lambda x, y: piq.FSIMLoss(chromatic=False)(x, y)),
        ("vsi", lambda x, y: piq.vsi(x, y, reduction="none")),
        ("vsi_loss", lambda x, y: piq.VSILoss()(x, y)),
        ("mdsi", lambda x, y: piq.mdsi(x, y, reduction="none")),
        ("mdsi_mult", lambda x, y: piq.MDSILoss(combination="mult")(x, y)),
        ("haarpsi", lambda x, y: piq.haarpsi(x, y, reduction="none")),
        ("haarpsi_loss", lambda x, y: piq.HaarPSILoss(subsample=False)(x, y)),
        ("srsim", lambda x, y: piq.srsim(x, y, reduction="none")),
        ("srsim_loss", lambda x, y: piq.SRSIMLoss(chromatic=True)(x, y)),
        ("dss", lambda x, y: piq.dss(x, y, reduction="none")),
        ("dss_loss", lambda x, y: piq.DSSLoss()(x, y)),
        ("vif", lambda x, y: piq.vif_p(x, y, reduction="none")),
        ("vif_loss", lambda x, y: piq.VIFLoss()(x, y)),
        ("iw_ssim", lambda x, y: piq.information_weighted_ssim(x, y, kernel_size=5, scale_weights=torch.tensor(
            [0.2, 0.3, 0.5]), reduction="none")),
        ("iw_ssim_loss", lambda x, y: piq.InformationWeightedSSIMLoss(kernel_size=5, scale_weights=torch.tensor(
            [0.3, 0.7]))(x, y)),
    ]
    return cases


def each(piq, names, shape=(2, 3, 64, 64), dtype=torch.float32):
    """The ``full_reference`` cases named in ``names``, each guarded (an exception is printed, the next runs)."""
    for name, call in full_reference(piq):
        if name in names:
            try:
                metric(piq, name, call, shape=shape, dtype=dtype)
            except Exception as exc:  # the same exception in both runs is part of the output
                print(name, "raised", type(exc).__name__, exc)


def no_reference(piq):
    """Total variation in its three norms, the TV loss, and BRISQUE's features (its score needs downloaded
    weights): the natural-scene statistics and the generalised Gaussian fits."""
    import importlib
    brisque = importlib.import_module("piq.brisque")  # (``piq.brisque`` is the function)
    x, _ = _images()
    x.requires_grad_(True)
    for norm in ("l1", "l2", "l2_squared"):
        value = piq.total_variation(x, reduction="none", norm_type=norm)
        _show(f"tv {norm}", value)
        _show(f"tv {norm} grad", torch.autograd.grad(value.sum(), x)[0])
    _show("tv loss", piq.TVLoss(norm_type="l1", reduction="sum")(x))
    luma = (x.detach()[:, :1] * 255).to(torch.float64)
    features = brisque._natural_scene_statistics(luma)
    _show("brisque nss", features)
    _show("brisque ggd", brisque._ggd_parameters(luma.flatten(1)))
    _show("brisque aggd", brisque._aggd_parameters(luma.flatten(1) - luma.flatten(1).mean(-1, keepdim=True)))
    coarse = brisque._natural_scene_statistics(torch.nn.functional.avg_pool2d(luma, 2))
    _show("brisque scaled", brisque._scale_features(torch.cat([features, coarse], dim=-1)))


def feature_metrics(piq):
    """FID, KID, PR and their helpers on seeded feature vectors (the extractors' weights are downloaded)."""
    from piq import fid, kid, pr
    g = torch.Generator().manual_seed(1)
    a = torch.randn(40, 16, generator=g, dtype=torch.float64)
    b = torch.randn(40, 16, generator=g, dtype=torch.float64) * 1.2 + 0.3
    _show("fid", piq.FID()(a, b))
    _show("fid float32", piq.FID()(a.float(), b.float()))
    _show("fid sqrtm", fid._sqrtm_newton_schulz(fid._cov(a, rowvar=False), num_iters=20))
    _show("kid", piq.KID(subset_size=20, n_subsets=5, ret_var=True)(a, b))
    _show("kid kernel", kid._polynomial_kernel(a[:5], b[:5]))
    _show("pr", piq.PR(nearest_k=3)(a, b))
    _show("pr distances", pr._compute_pairwise_distance(a[:4], b[:5]))


def functional(piq):
    """piq.functional: filters, colour conversions, gradient and similarity maps, resizing, patches, L2 pooling."""
    from piq import functional as F
    x, y = _images((2, 3, 32, 32))
    for name in ("haar_filter", "hann_filter", "binomial_filter1d", "average_filter2d"):
        _try(name, lambda name=name: getattr(F, name)(4))
    _try("gaussian_filter", lambda: F.gaussian_filter(5, 1.5))
    _try("scharr", lambda: F.scharr_filter())
    _try("prewitt", lambda: F.prewitt_filter())
    _try("meshgrid", lambda: F.get_meshgrid((5, 6)))
    _try("ifftshift", lambda: F.ifftshift(torch.arange(12.).reshape(3, 4)))
    for name in ("rgb2lmn", "rgb2xyz", "rgb2yiq", "rgb2lhm"):
        _try(name, lambda name=name: getattr(F, name)(x))
    _try("rgb2lab", lambda: F.rgb2lab(x * 255))
    _try("xyz2lab", lambda: F.xyz2lab(F.rgb2xyz(x)))
    kernels = torch.stack([F.scharr_filter(), F.scharr_filter().transpose(-1, -2)])
    gx, gy = F.gradient_map(x[:, :1], kernels), F.gradient_map(y[:, :1], kernels)
    _try("gradient_map", lambda: gx)
    _try("similarity_map", lambda: F.similarity_map(gx, gy, 0.0026, alpha=0.5))
    c = torch.complex(x[:, :1], y[:, :1])
    _try("pow_for_complex", lambda: F.pow_for_complex(torch.view_as_real(c), 1.5))
    _try("crop_patches", lambda: F.crop_patches(x, size=16, stride=8))
    _try("l2pool", lambda: F.L2Pool2d(kernel_size=3, stride=2, padding=1)(x))
    for size, kind in (((16, 16), "cubic"), ((48, 40), "cubic"), ((20, 24), "linear"), ((8, 8), "gaussian"),
                       ((12, 12), "nearest")):
        _try(f"imresize {size} {kind}", lambda s=size, k=kind: F.imresize(x, sizes=s, kernel=k))
    _try("imresize scale", lambda: F.imresize(x, scale=0.5, antialiasing=True))


def restore(piq, loss_name="ssim", steps=5):
    """A noisy image pulled towards a clean one by Adam under a piq loss: the loss at each step and the result."""
    losses = {"ssim": lambda: piq.SSIMLoss(kernel_size=7), "ms_ssim": lambda: piq.MultiScaleSSIMLoss(kernel_size=3),
              "gmsd": lambda: piq.GMSDLoss(), "haarpsi": lambda: piq.HaarPSILoss(),
              "vif": lambda: piq.VIFLoss(), "fsim": lambda: piq.FSIMLoss(), "mdsi": lambda: piq.MDSILoss(),
              "dss": lambda: piq.DSSLoss(), "tv": None}
    target, noisy = _images((1, 3, 48, 48), seed=3)
    image = noisy.clone().requires_grad_(True)
    opt = torch.optim.Adam([image], lr=0.01)
    loss_fn = losses[loss_name]() if losses[loss_name] else None
    for step in range(steps):
        opt.zero_grad()
        if loss_fn is None:
            loss = torch.nn.functional.mse_loss(image, target) + 0.01 * piq.TVLoss()(image)
        else:
            loss = loss_fn(image.clamp(0, 1), target)
        loss.backward()
        opt.step()
        print(loss_name, "step", step, repr(loss.item()))
    _show(f"{loss_name} restored", image.detach())


def perceptual(piq):
    """ContentLoss and StyleLoss with a small seeded feature extractor of ours (VGG's weights are downloaded)."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(),
                              torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                              torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU())
    for cls, kwargs in ((piq.ContentLoss, {}), (piq.StyleLoss, {}),
                        (piq.ContentLoss, {"distance": "mae", "replace_pooling": True}),
                        (piq.ContentLoss, {"normalize_features": True, "reduction": "none"})):
        loss = cls(feature_extractor=net, layers=["1", "6"], weights=[0.3, 0.7], **kwargs)
        metric(piq, f"{cls.__name__} {sorted(kwargs)}", loss, shape=(2, 3, 32, 32))
