"""Drivers for kornia's and torchmetrics' own Python packages (``recipes_kornia.py``; our text).

A recipe fetches one of the library's package modules (``kornia/filters/__init__.py``,
``torchmetrics/classification/__init__.py``...) as its script, with the package beside it, and appends calls to
the drivers here. The runner loads those packages from the script's folder in both runs
(``runner._fetched_packages``). The drivers call the library as its documentation and tests do: seeded images,
labels and predictions, each result printed as its shape, dtype and first values (5 decimals), its sum and, where
it trains, its gradients.
"""

from __future__ import annotations

import torch
from corpus_show import show


def image(shape=(2, 3, 32, 32), seed=0):
    """A seeded float image batch in [0, 1] with structure (a smooth ramp plus noise), so edges and corners exist."""
    g = torch.Generator().manual_seed(seed)
    h, w = shape[-2:]
    ramp = torch.linspace(0, 1, w).expand(h, w) * torch.linspace(1, 0.2, h)[:, None]
    noise = torch.rand(shape, generator=g)
    return (0.6 * ramp + 0.4 * noise).clamp(0, 1)


_image = image  # (more_metrics' ``image`` is torchmetrics' package)


def each(calls, *args):
    """``calls``: ``name, function`` pairs, each applied to ``args`` and shown (an exception is shown too)."""
    for name, fn in calls:
        try:
            show(name, fn(*args))
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:120])


def gradients(name, fn, *inputs):
    """``fn(*inputs)`` summed and differentiated: the output's sum and each input's gradient."""
    inputs = [x.detach().clone().requires_grad_(True) for x in inputs]
    out = fn(*inputs)
    out = out[0] if isinstance(out, tuple) else out
    out.sum().backward()
    show(f"{name} out", out)
    for i, x in enumerate(inputs):
        show(f"{name} grad{i}", x.grad)


def _named(module, names, *args, **kwargs):
    """``(name, function)`` pairs: ``module.name`` applied to ``args`` and ``kwargs``."""
    return [(name, lambda *a, f=getattr(module, name): f(*a, *args, **kwargs)) for name in names]


# kornia ------------------------------------------------------------------------------------------------------------


def kornia_color():
    """kornia.color's conversions of a seeded RGB batch, their inverses and a gradient through Lab."""
    import kornia.color as C

    x = image()
    each(
        _named(
            C,
            [
                "rgb_to_grayscale",
                "rgb_to_hsv",
                "rgb_to_hls",
                "rgb_to_lab",
                "rgb_to_luv",
                "rgb_to_ycbcr",
                "rgb_to_yuv",
                "rgb_to_xyz",
                "rgb_to_linear_rgb",
                "bgr_to_rgb",
                "rgb_to_yuv420",
                "rgb_to_yuv422",
            ],
        ),
        x,
    )
    each(
        [
            ("hsv_back", lambda t: C.hsv_to_rgb(C.rgb_to_hsv(t))),
            ("lab_back", lambda t: C.lab_to_rgb(C.rgb_to_lab(t))),
            ("hls_back", lambda t: C.hls_to_rgb(C.rgb_to_hls(t))),
            ("luv_back", lambda t: C.luv_to_rgb(C.rgb_to_luv(t))),
            ("ycbcr_back", lambda t: C.ycbcr_to_rgb(C.rgb_to_ycbcr(t))),
            ("xyz_back", lambda t: C.xyz_to_rgb(C.rgb_to_xyz(t))),
            ("sepia", C.sepia),
            ("rgb_to_rgba", lambda t: C.rgb_to_rgba(t, 1.0)),
            ("raw_rggb", lambda t: C.raw_to_rgb(C.rgb_to_raw(t, C.CFA.RG), C.CFA.RG)),
            ("gray_module", C.RgbToGrayscale()),
            ("apply_colormap", lambda t: C.ApplyColorMap(C.ColorMap("viridis", 16))(t[:, :1])),
        ],
        x,
    )
    gradients("lab", C.rgb_to_lab, x[:1, :, :8, :8])
    gradients("hsv", C.rgb_to_hsv, x[:1, :, :8, :8])


def kornia_filters():
    """kornia.filters on a seeded batch: blurs, edges (Sobel, Laplacian, Canny), the bilateral and guided filters,
    and gradients through a Gaussian blur and Canny's magnitude."""
    import kornia.filters as F

    x = image()
    each(
        [
            ("gaussian", lambda t: F.gaussian_blur2d(t, (5, 5), (1.5, 1.5))),
            ("box", lambda t: F.box_blur(t, (3, 3))),
            ("median", lambda t: F.median_blur(t, (3, 3))),
            ("sobel", F.sobel),
            ("spatial_gradient", F.spatial_gradient),
            ("second_order", lambda t: F.spatial_gradient(t, order=2)),
            ("laplacian", lambda t: F.laplacian(t, 5)),
            ("canny", F.canny),
            ("unsharp", lambda t: F.unsharp_mask(t, (3, 3), (1.5, 1.5))),
            ("bilateral", lambda t: F.bilateral_blur(t, (5, 5), 0.1, (1.5, 1.5))),
            ("joint_bilateral", lambda t: F.joint_bilateral_blur(t, t.flip(-1), (5, 5), 0.1, (1.5, 1.5))),
            ("motion", lambda t: F.motion_blur(t, 5, 35.0, 0.5)),
            ("guided", lambda t: F.guided_blur(t, t, (5, 5), 0.1)),
            ("max_blur_pool", lambda t: F.max_blur_pool2d(t, 3)),
            ("blur_pool", lambda t: F.blur_pool2d(t, 3)),
            ("gaussian_kernel", lambda t: F.get_gaussian_kernel2d((5, 5), (1.0, 2.0))),
            ("filter2d_reflect", lambda t: F.filter2d(t, torch.ones(1, 3, 3) / 9, border_type="reflect")),
            (
                "separable",
                lambda t: F.filter2d_separable(
                    t, torch.tensor([[1.0, 2.0, 1.0]]) / 4, torch.tensor([[1.0, 0.0, -1.0]])
                ),
            ),
            ("in_range", lambda t: F.in_range(t, (0.2, 0.2, 0.2), (0.6, 0.6, 0.6))),
            ("dexined_free_hessian", lambda t: F.spatial_gradient3d(t[:, None])),
            ("gaussian_module", F.GaussianBlur2d((3, 3), (1.0, 1.0))),
        ],
        x,
    )
    gradients("gaussian", lambda t: F.gaussian_blur2d(t, (5, 5), (1.5, 1.5)), x)
    gradients("canny", lambda t: F.canny(t)[0], x)


def kornia_enhance():
    """kornia.enhance's adjustments, equalisation (plain and CLAHE), JPEG's differentiable codec, normalisation and
    ZCA whitening; kornia.morphology's operators with a 3x3 kernel."""
    import kornia.enhance as E
    import kornia.morphology as M

    x = image()
    each(
        [
            ("equalize", E.equalize),
            ("clahe", E.equalize_clahe),
            ("hue", lambda t: E.adjust_hue(t, 0.3)),
            ("saturation", lambda t: E.adjust_saturation(t, 1.5)),
            ("gamma", lambda t: E.adjust_gamma(t, 2.2)),
            ("contrast", lambda t: E.adjust_contrast(t, 0.5)),
            ("brightness", lambda t: E.adjust_brightness(t, 0.2)),
            ("log", lambda t: E.adjust_log(t, 1.2)),
            ("sigmoid", lambda t: E.adjust_sigmoid(t, 0.5, 8.0)),
            ("sharpness", lambda t: E.sharpness(t, 0.7)),
            ("solarize", lambda t: E.solarize(t, 0.4)),
            ("posterize", lambda t: E.posterize(t, 3)),
            ("invert", E.invert),
            ("jpeg", lambda t: E.jpeg_codec_differentiable(t, torch.tensor([50.0]))),
            ("normalize", lambda t: E.normalize(t, torch.tensor([0.5, 0.4, 0.3]), torch.tensor([0.2, 0.2, 0.2]))),
            ("denormalize", lambda t: E.denormalize(t, torch.tensor([0.5, 0.4, 0.3]), torch.tensor([0.2, 0.2, 0.2]))),
            ("min_max", E.normalize_min_max),
            ("zca", lambda t: E.zca_whiten(t[0, 0, :, :6])),
            ("histogram", lambda t: E.histogram(t.flatten(1), torch.linspace(0, 1, 16), torch.tensor(0.9))),
            ("mean_subtraction", lambda t: E.adjust_contrast_with_mean_subtraction(t, 0.5)),
            ("add_weighted", lambda t: E.add_weighted(t, 0.3, t.flip(-1), 0.7, 0.1)),
        ],
        x,
    )
    kernel = torch.ones(3, 3)
    each(
        [
            (name, lambda t, f=getattr(M, name): f(t, kernel))
            for name in ["dilation", "erosion", "opening", "closing", "gradient", "top_hat", "bottom_hat"]
        ],
        x,
    )
    each(
        [
            (
                "dilation_geodesic",
                lambda t: M.dilation(
                    t, torch.tensor([[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0]]), engine="convolution"
                ),
            )
        ],
        x,
    )
    gradients("jpeg", lambda t: E.jpeg_codec_differentiable(t, torch.tensor([75.0])), x[:1, :, :16, :16])
    gradients("erosion", lambda t: M.erosion(t, kernel), x[:1])


def kornia_transform():
    """kornia.geometry.transform: affine and perspective warps (with their gradients), rotation, resizing,
    pyramids, flips, crops, elastic and thin-plate-spline warps."""
    import kornia.geometry as G

    T = G.transform
    x = image((2, 3, 24, 32))
    torch.manual_seed(0)
    angle, center = torch.tensor([30.0, -45.0]), torch.tensor([[16.0, 12.0], [10.0, 8.0]])
    matrix = T.get_rotation_matrix2d(center, angle, torch.tensor([[1.2, 0.8], [1.0, 1.0]]))
    src = torch.tensor([[[0.0, 0.0], [31.0, 0.0], [31.0, 23.0], [0.0, 23.0]]]).repeat(2, 1, 1)
    dst = src + torch.randn(2, 4, 2) * 2
    homography = T.get_perspective_transform(src, dst)
    show("rotation_matrix", matrix)
    show("homography", homography)
    grid = G.create_meshgrid(24, 32, False)
    size = torch.tensor([31.0, 23.0])
    each(
        [
            ("warp_affine", lambda t: T.warp_affine(t, matrix, (24, 32))),
            (
                "warp_affine_reflection",
                lambda t: T.warp_affine(t, matrix, (20, 30), padding_mode="reflection", align_corners=True),
            ),
            ("warp_perspective", lambda t: T.warp_perspective(t, homography, (24, 32))),
            ("warp_perspective_nearest", lambda t: T.warp_perspective(t, homography, (24, 32), mode="nearest")),
            ("rotate", lambda t: T.rotate(t, angle)),
            ("translate", lambda t: T.translate(t, torch.tensor([[2.5, -1.0], [0.0, 3.0]]))),
            ("scale", lambda t: T.scale(t, torch.tensor([[1.3], [0.7]]))),
            ("shear", lambda t: T.shear(t, torch.tensor([[0.2, 0.1], [0.0, -0.3]]))),
            ("resize_antialias", lambda t: T.resize(t, (12, 20), antialias=True)),
            ("rescale", lambda t: T.rescale(t, 0.75)),
            ("resize_bicubic", lambda t: T.resize(t, (16, 16), interpolation="bicubic")),
            ("pyrdown", T.pyrdown),
            ("pyrup", T.pyrup),
            ("pyramid", lambda t: T.build_pyramid(t, 3)),
            ("laplacian_pyramid", lambda t: T.build_laplacian_pyramid(t, 3)),
            ("hflip", T.hflip),
            ("vflip", T.vflip),
            ("rot180", T.rot180),
            ("center_crop", lambda t: T.center_crop(t, (10, 12))),
            ("crop_and_resize", lambda t: T.crop_and_resize(t, src * 0.5, (8, 8))),
            (
                "elastic",
                lambda t: T.elastic_transform2d(t, torch.rand(2, 2, 24, 32) * 2 - 1, (7, 7), (4.0, 4.0), (1.0, 1.0)),
            ),
            (
                "remap",
                lambda t: T.remap(t, (grid[..., 0] + 0.5).expand(2, -1, -1), (grid[..., 1] * 0.9).expand(2, -1, -1)),
            ),
            (
                "thin_plate_spline",
                lambda t: T.warp_image_tps(
                    t, src / size * 2 - 1, *T.get_tps_transform(dst / size * 2 - 1, src / size * 2 - 1)
                ),
            ),
            ("warp_grid", lambda t: T.warp_grid(G.create_meshgrid(4, 5), homography)),
            ("invert_affine", lambda t: T.invert_affine_transform(matrix)),
            (
                "projective",
                lambda t: T.get_projective_transform(
                    torch.tensor([[1.0, 2.0, 3.0]]),
                    torch.tensor([[10.0, 20.0, -30.0]]),
                    torch.tensor([[1.0, 1.0, 1.0]]),
                ),
            ),
            (
                "affine_matrix2d",
                lambda t: T.get_affine_matrix2d(
                    torch.tensor([[1.0, 2.0]]),
                    center[:1],
                    torch.tensor([[1.2, 0.8]]),
                    angle[:1],
                    torch.tensor([[0.1]]),
                    torch.tensor([[0.2]]),
                ),
            ),
            (
                "warp_affine3d",
                lambda t: T.warp_affine3d(
                    t[:, :, None].repeat(1, 1, 4, 1, 1),
                    T.get_projective_transform(
                        torch.tensor([[0.0, 0.0, 0.0]]).repeat(2, 1),
                        torch.tensor([[5.0, -10.0, 20.0]]).repeat(2, 1),
                        torch.ones(2, 3),
                    ),
                    (4, 24, 32),
                ),
            ),
        ],
        x,
    )
    gradients("warp_perspective", lambda t, h: T.warp_perspective(t, h, (24, 32)), x, homography)
    gradients("rotate", lambda t, a: T.rotate(t, a), x, angle)


def kornia_conversions():
    """kornia.geometry.conversions between rotation representations, homogeneous points and pixel coordinates;
    quaternions and the Lie groups SO(3) and SE(3), with gradients."""
    import kornia.geometry as G

    C = G.conversions
    axis_angle = torch.tensor([[0.3, -0.2, 0.5], [1.0, 0.5, -0.7], [0.0, 0.0, 0.0]])
    R = C.axis_angle_to_rotation_matrix(axis_angle)
    q = C.rotation_matrix_to_quaternion(R)
    points = torch.tensor([[[0.0, 0.0], [31.0, 0.0], [31.0, 23.0], [4.5, 7.25]]])
    angle = torch.tensor([30.0, -45.0])
    each(
        [
            ("R", lambda: R),
            ("quaternion", lambda: q),
            ("quaternion_to_axis_angle", lambda: C.quaternion_to_axis_angle(q)),
            ("quaternion_to_rotation_matrix", lambda: C.quaternion_to_rotation_matrix(q)),
            ("rotation_matrix_to_axis_angle", lambda: C.rotation_matrix_to_axis_angle(R)),
            ("euler_from_quaternion", lambda: C.euler_from_quaternion(*q.unbind(-1))),
            ("quaternion_from_euler", lambda: C.quaternion_from_euler(*axis_angle.unbind(-1))),
            ("quaternion_exp_to_log", lambda: C.quaternion_exp_to_log(q)),
            ("quaternion_log_to_exp", lambda: C.quaternion_log_to_exp(axis_angle)),
            ("to_homogeneous", lambda: C.convert_points_to_homogeneous(points)),
            (
                "from_homogeneous",
                lambda: C.convert_points_from_homogeneous(C.convert_points_to_homogeneous(points) * 2),
            ),
            ("normalize_pixel", lambda: C.normalize_pixel_coordinates(points, 24, 32)),
            ("denormalize_pixel", lambda: C.denormalize_pixel_coordinates(points / 40, 24, 32)),
            ("deg2rad", lambda: C.deg2rad(angle)),
            ("rad2deg", lambda: C.rad2deg(angle / 50)),
            ("cart2pol", lambda: C.cart2pol(points[..., 0], points[..., 1])),
            ("pol2cart", lambda: C.pol2cart(points[..., 0] / 10, points[..., 1] / 10)),
            ("Rt_to_matrix4x4", lambda: C.Rt_to_matrix4x4(R, axis_angle[:, :, None])),
            ("camtoworld_to_worldtocam", lambda: C.camtoworld_to_worldtocam_Rt(R, axis_angle[:, :, None])),
            ("skew", lambda: C.vector_to_skew_symmetric_matrix(axis_angle)),
            ("affine_to_homography", lambda: C.convert_affinematrix_to_homography(R[:, :2])),
            ("so3_exp", lambda: G.liegroup.So3.exp(axis_angle).matrix()),
            ("so3_log", lambda: G.liegroup.So3.from_matrix(R).log()),
            ("se3_log", lambda: G.liegroup.Se3.exp(torch.tensor([[0.1, 0.2, -0.3, 1.0, 2.0, 3.0]])).log()),
            (
                "se3_inverse",
                lambda: G.liegroup.Se3.exp(torch.tensor([[0.1, 0.2, -0.3, 1.0, 2.0, 3.0]])).inverse().matrix(),
            ),
            (
                "quaternion_product",
                lambda: (
                    (
                        G.quaternion.Quaternion.from_axis_angle(axis_angle[:1])
                        * G.quaternion.Quaternion.from_axis_angle(axis_angle[1:2])
                    ).data
                ),
            ),
            (
                "quaternion_slerp",
                lambda: (
                    G.quaternion.Quaternion.from_axis_angle(axis_angle[:1])
                    .slerp(G.quaternion.Quaternion.from_axis_angle(axis_angle[1:2]), 0.3)
                    .data
                ),
            ),
        ]
    )
    gradients(
        "rotation_to_quaternion",
        lambda a: C.rotation_matrix_to_quaternion(C.axis_angle_to_rotation_matrix(a)),
        axis_angle[:2],
    )
    gradients("quaternion_to_axis_angle", C.quaternion_to_axis_angle, q[:2])


def kornia_losses():
    """kornia.losses (SSIM, MS-SSIM, PSNR, focal, Dice, Tversky, Lovász, robust losses, total variation...) and
    kornia.metrics, with gradients of the segmentation losses."""
    import kornia.losses as L
    import kornia.metrics as M

    x, y = image((2, 3, 16, 16)), image((2, 3, 16, 16), seed=1)
    torch.manual_seed(0)
    logits, labels = torch.randn(2, 4, 8, 8), torch.randint(0, 4, (2, 8, 8))
    binary_logits, binary_labels = torch.randn(2, 1, 8, 8), torch.randint(0, 2, (2, 1, 8, 8)).float()
    each(
        [
            ("ssim_loss", lambda: L.ssim_loss(x, y, 5)),
            ("ssim3d_loss", lambda: L.ssim3d_loss(x[:, None], y[:, None], 3)),
            ("ms_ssim", lambda: L.MS_SSIMLoss(sigmas=(0.5, 1.0, 2.0))(x.repeat(1, 1, 2, 2), y.repeat(1, 1, 2, 2))),
            ("psnr_loss", lambda: L.psnr_loss(x, y, 1.0)),
            ("focal", lambda: L.focal_loss(logits, labels, 0.5, 2.0, "mean")),
            ("focal_none", lambda: L.focal_loss(logits, labels, 0.25, 2.0, "none")),
            ("binary_focal", lambda: L.binary_focal_loss_with_logits(binary_logits, binary_labels, 0.25, 2.0, "mean")),
            ("dice", lambda: L.dice_loss(logits, labels)),
            ("dice_macro", lambda: L.dice_loss(logits, labels, average="macro")),
            ("tversky", lambda: L.tversky_loss(logits, labels, 0.3, 0.7)),
            ("total_variation", lambda: L.total_variation(x)),
            ("lovasz_hinge", lambda: L.lovasz_hinge_loss(binary_logits, binary_labels[:, 0])),
            ("lovasz_softmax", lambda: L.lovasz_softmax_loss(logits, labels)),
            ("charbonnier", lambda: L.charbonnier_loss(x, y, "mean")),
            ("welsch", lambda: L.welsch_loss(x, y, "sum")),
            ("cauchy", lambda: L.cauchy_loss(x, y, "mean")),
            ("geman_mcclure", lambda: L.geman_mcclure_loss(x, y, "mean")),
            ("kl_div_2d", lambda: L.kl_div_loss_2d(x.softmax(-1), y.softmax(-1))),
            ("js_div_2d", lambda: L.js_div_loss_2d(x.softmax(-1), y.softmax(-1))),
            ("depth_smoothness", lambda: L.inverse_depth_smoothness_loss(x[:, :1], y)),
            ("one_hot", lambda: L.one_hot(labels, 4, torch.device("cpu"), torch.float32)),
            ("hausdorff", lambda: L.HausdorffERLoss()(logits, labels[:, None])),
            ("psnr", lambda: M.psnr(x, y, 1.0)),
            ("ssim", lambda: M.ssim(x, y, 5)),
            ("mean_iou", lambda: M.mean_iou(labels.flatten(1), logits.argmax(1).flatten(1), 4)),
            ("accuracy", lambda: M.accuracy(logits.flatten(2).mean(-1), labels[:, 0, 0])),
            ("confusion_matrix", lambda: M.confusion_matrix(labels.flatten(1), logits.argmax(1).flatten(1), 4)),
            ("aepe", lambda: M.aepe(x[:, :2].permute(0, 2, 3, 1), y[:, :2].permute(0, 2, 3, 1))),
            (
                "mean_average_precision",
                lambda: M.mean_average_precision(
                    [torch.tensor([[0.0, 0.0, 5.0, 5.0], [3.0, 3.0, 9.0, 9.0]])],
                    [torch.tensor([1, 2])],
                    [torch.tensor([0.9, 0.4])],
                    [torch.tensor([[0.0, 1.0, 5.0, 5.0], [2.0, 3.0, 8.0, 9.0]])],
                    [torch.tensor([1, 2])],
                    3,
                ),
            ),
        ]
    )
    gradients("ssim", lambda a, b: L.ssim_loss(a, b, 5), x, y)
    gradients("focal", lambda a: L.focal_loss(a, labels, 0.5, 2.0, "mean"), logits)
    gradients("dice", lambda a: L.dice_loss(a, labels), logits)
    gradients("lovasz", lambda a: L.lovasz_softmax_loss(a, labels), logits)
    gradients("total_variation", lambda a: L.total_variation(a).sum(), x)


def kornia_augmentation_pipeline():
    """An ``AugmentationSequential`` of random geometric and colour augmentations over an image batch with its
    keypoints and boxes (kornia's README example), its inverse, and the auto-augment policies; torch's seeded RNG."""
    import kornia.augmentation as A

    x = image((2, 3, 24, 24))
    torch.manual_seed(0)
    pipeline = A.AugmentationSequential(
        A.RandomAffine(20.0, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=5.0, p=1.0),
        A.ColorJitter(0.2, 0.2, 0.2, 0.05, p=1.0),
        A.RandomHorizontalFlip(),
        A.RandomPerspective(0.3, p=0.8),
        A.RandomGaussianBlur((3, 3), (0.1, 1.5), p=0.7),
        A.RandomErasing(p=0.5),
        data_keys=["input", "keypoints", "bbox_xyxy"],
    )
    keypoints = torch.tensor([[[4.0, 5.0], [10.0, 12.0], [20.0, 3.0]]]).repeat(2, 1, 1)
    boxes = torch.tensor([[[2.0, 3.0, 12.0, 14.0]]]).repeat(2, 1, 1)
    out = pipeline(x, keypoints, boxes)
    show("augmented", out)
    show("inverse", pipeline.inverse(*out))
    print(pipeline)
    torch.manual_seed(2)
    for policy in (A.auto.AutoAugment(), A.auto.RandAugment(n=2, m=10), A.auto.TrivialAugment()):
        show(type(policy).__name__, policy(x))
    torch.manual_seed(3)
    patches = A.PatchSequential(
        A.ColorJitter(0.1, 0.1, 0.1, 0.1, p=0.8), A.RandomAffine(10.0, p=0.5), grid_size=(2, 2), patchwise_apply=False
    )
    show("patch_sequential", patches(x))
    torch.manual_seed(4)
    video = A.VideoSequential(
        A.ColorJitter(0.1, 0.1, 0.1, 0.1, p=1.0), A.RandomAffine(10.0, p=1.0), data_format="BTCHW", same_on_frame=True
    )
    show("video_sequential", video(x[:, None].repeat(1, 2, 1, 1, 1)))


def kornia_augmentations(names):
    """Each of kornia.augmentation's transforms ``names`` (source texts) applied to a seeded batch after
    ``torch.manual_seed(1)``: the output and the sampled parameters."""
    import kornia.augmentation as A

    x = image((2, 3, 24, 24))
    for text in names:
        torch.manual_seed(1)
        try:
            transform = eval(text, {"A": A, "torch": torch})  # our own recipe text
            out = transform(x, torch.tensor([0, 1])) if "CutMix" in text or "MixUp" in text else transform(x)
            show(text, out)
            params = getattr(transform, "_params", None) or {}
            show(" params", {k: v for k, v in params.items() if isinstance(v, torch.Tensor)})
        except Exception as exc:  # the failure is the output, in both libraries
            print(text, "raised", type(exc).__name__, str(exc).splitlines()[0][:120])


def kornia_augmentation_containers():
    """kornia's 3-D augmentations on a seeded volume batch; an AugmentationSequential over images, masks, boxes
    (xywh) and keypoints; ImageSequential applying 2 of 3 at random; keepdim, same_on_batch and inverse; a crop's
    sampled parameters. All on torch's seeded RNG."""
    import kornia.augmentation as A

    volume = image((2, 1, 8, 16, 16))
    for text in [
        "A.RandomAffine3D(15.0, p=1.0)",
        "A.RandomRotation3D(20.0, p=1.0)",
        "A.RandomHorizontalFlip3D(p=1.0)",
        "A.RandomVerticalFlip3D(p=1.0)",
        "A.RandomDepthicalFlip3D(p=1.0)",
        "A.RandomCrop3D((4, 8, 8))",
        "A.CenterCrop3D((4, 8, 8))",
        "A.RandomMotionBlur3D(3, 20.0, 0.5, p=1.0)",
        "A.RandomEqualize3D(p=1.0)",
        "A.RandomPerspective3D(0.4, p=1.0)",
    ]:
        torch.manual_seed(1)
        each([(text, eval(text, {"A": A}))], volume)  # our own recipe text
    torch.manual_seed(2)
    x = image((2, 3, 24, 24))
    pipeline = A.AugmentationSequential(
        A.RandomResizedCrop((16, 16), p=1.0),
        A.RandomRotation(25.0, p=1.0),
        A.ColorJiggle(0.2, 0.2, 0.2, p=1.0),
        data_keys=["input", "mask", "bbox_xywh", "keypoints"],
    )
    show(
        "sequential",
        pipeline(
            x,
            (x[:, :1] > 0.5).float(),
            torch.tensor([[[2.0, 3.0, 10.0, 8.0]], [[5.0, 5.0, 6.0, 6.0]]]),
            torch.tensor([[[4.0, 5.0]], [[10.0, 12.0]]]),
        ),
    )
    torch.manual_seed(3)
    chosen = A.ImageSequential(
        A.RandomAffine(10.0, p=1.0), A.RandomGaussianNoise(std=0.05, p=1.0), A.RandomInvert(p=1.0), random_apply=2
    )
    show("image_sequential", chosen(x))
    torch.manual_seed(4)
    affine = A.RandomAffine(15.0, p=1.0, same_on_batch=True, keepdim=True)
    y = affine(x[0])
    show("keepdim", y)
    show("inverse", affine.inverse(y))
    torch.manual_seed(5)
    show("crop_parameters", A.RandomCrop((8, 8)).forward_parameters((2, 3, 24, 24)))


def kornia_feature():
    """kornia.feature: corner responses, subpixel argmaxes, descriptors (SIFT, randomly initialised HardNet, TFeat,
    SOSNet, MKD), matching, local affine frames and a scale-space detector; kornia.contrib's connected components,
    distance transform and patch extraction."""
    import kornia.contrib as KC
    import kornia.feature as KF
    import kornia.geometry as G

    x = image((1, 1, 32, 32))
    each(
        [
            ("harris", lambda t: KF.harris_response(t, 0.04)),
            ("gftt", KF.gftt_response),
            ("hessian", KF.hessian_response),
            ("dog", lambda t: KF.dog_response(t[:, :, None].repeat(1, 1, 3, 1, 1))),
            ("nms2d", lambda t: G.subpix.nms2d(t, (3, 3))),
            ("spatial_soft_argmax", G.subpix.spatial_soft_argmax2d),
            ("conv_soft_argmax", G.subpix.conv_soft_argmax2d),
            ("connected_components", lambda t: KC.connected_components((t > 0.5).float(), 20)),
            ("distance_transform", lambda t: KC.distance_transform((t > 0.7).float())),
            ("extract_patches", lambda t: KC.extract_tensor_patches(t, 8, 8)),
            (
                "combine_patches",
                lambda t: KC.combine_tensor_patches(
                    KC.extract_tensor_patches(t, 8, 8), (32, 32), (8, 8), stride=(8, 8)
                ),
            ),
            ("histogram_matching", lambda t: KC.histogram_matching(t, t.flip(-1))),
        ],
        x,
    )
    patches = image((6, 1, 32, 32), seed=3)
    for name, make in [
        ("sift", lambda: KF.SIFTDescriptor(32, 8, 4)),
        ("hardnet", lambda: KF.HardNet(False)),
        ("tfeat", lambda: KF.TFeat(False)),
        ("sosnet", lambda: KF.SOSNet(False)),
        ("mkd", lambda: KF.MKDDescriptor(32, whitening=None)),
    ]:
        torch.manual_seed(0)
        show(name, make().eval()(patches))
    torch.manual_seed(0)
    d1 = torch.randn(10, 8)
    d2 = d1[torch.randperm(10)] + 0.1 * torch.randn(10, 8)
    each(
        [
            ("match_nn", lambda: KF.match_nn(d1, d2)),
            ("match_mnn", lambda: KF.match_mnn(d1, d2)),
            ("match_snn", lambda: KF.match_snn(d1, d2, 0.9)),
            ("match_smnn", lambda: KF.match_smnn(d1, d2, 0.95)),
        ]
    )
    laf = KF.laf_from_center_scale_ori(
        torch.rand(1, 4, 2) * 20 + 6, torch.ones(1, 4, 1, 1) * 4, torch.rand(1, 4, 1) * 90
    )
    each(
        [
            ("laf", lambda: laf),
            ("laf_boundary", lambda: KF.laf_to_boundary_points(laf, 5)),
            ("patches_from_pyramid", lambda: KF.extract_patches_from_pyramid(x, laf, 8)),
            ("laf_scale", lambda: KF.get_laf_scale(laf)),
            ("laf_orientation", lambda: KF.get_laf_orientation(laf)),
            ("dominant_orientation", lambda: KF.PatchDominantGradientOrientation(16)(patches[:, :, 8:24, 8:24])),
            ("affine_shape", lambda: KF.PatchAffineShapeEstimator(16)(patches[:, :, 8:24, 8:24])),
        ]
    )
    torch.manual_seed(0)
    detector = KF.ScaleSpaceDetector(
        10,
        resp_module=KF.BlobHessian(),
        subpix_module=G.subpix.ConvQuadInterp3d(10),
        scale_pyr_module=G.ScalePyramid(3, 1.6, 15),
        ori_module=KF.LAFOrienter(19),
        aff_module=KF.LAFAffineShapeEstimator(19),
    )
    show("scale_space_detector", detector(image((1, 1, 48, 48))))


def kornia_epipolar():
    """Two-view geometry in float64 (as kornia's tests run it): projections of seeded 3-D points, the 8-point
    fundamental matrix, the essential matrix and its decomposition, triangulation, DLT homographies, PnP,
    undistortion, depth to 3-D points and normals, a pinhole camera and RANSAC."""
    import kornia.geometry as G

    torch.set_default_dtype(torch.float64)
    torch.manual_seed(0)
    C, E = G.conversions, G.epipolar
    K = torch.tensor([[[100.0, 0.0, 16.0], [0.0, 100.0, 12.0], [0.0, 0.0, 1.0]]])
    R = C.axis_angle_to_rotation_matrix(torch.tensor([[0.05, -0.1, 0.02]]))
    t = torch.tensor([[[0.3], [0.05], [-0.1]]])
    points = torch.rand(1, 12, 3) * 2 + torch.tensor([-1.0, -1.0, 4.0])
    P1 = E.projection_from_KRt(K, torch.eye(3)[None], torch.zeros(1, 3, 1))
    P2 = E.projection_from_KRt(K, R, t)
    x1 = C.convert_points_from_homogeneous(torch.einsum("bij,bnj->bni", P1, C.convert_points_to_homogeneous(points)))
    x2 = C.convert_points_from_homogeneous(torch.einsum("bij,bnj->bni", P2, C.convert_points_to_homogeneous(points)))
    essential = E.essential_from_Rt(torch.eye(3)[None], torch.zeros(1, 3, 1), R, t)
    fundamental = E.find_fundamental(x1, x2)
    each(
        [
            ("fundamental", lambda: fundamental / fundamental[..., 2:, 2:]),
            ("essential", lambda: essential),
            ("sampson", lambda: E.sampson_epipolar_distance(x1, x2, E.fundamental_from_projections(P1, P2))),
            ("symmetrical", lambda: E.symmetrical_epipolar_distance(x1, x2, fundamental)),
            ("triangulate", lambda: E.triangulate_points(P1, P2, x1, x2)),
            ("decompose_essential", lambda: E.decompose_essential_matrix(essential)),
            ("motion_from_essential", lambda: E.motion_from_essential_choose_solution(essential, K, K, x1, x2)),
            ("homography_dlt", lambda: G.homography.find_homography_dlt(x1, x2 * 0.9 + 3)),
            (
                "homography_iterated",
                lambda: G.homography.find_homography_dlt_iterated(x1, x2 * 0.9 + 3, torch.ones(1, 12), 3),
            ),
            ("transfer_error", lambda: G.homography.symmetric_transfer_error(x1, x2, torch.eye(3)[None])),
            ("depth_to_3d", lambda: G.depth.depth_to_3d_v2(image((1, 8, 10)) + 1, K)),
            ("depth_to_normals", lambda: G.depth.depth_to_normals(image((1, 1, 8, 10)) + 1, K)),
            (
                "undistort",
                lambda: G.calibration.undistort_points(x1, K, torch.tensor([[0.1, -0.05, 0.001, 0.002, 0.0]])),
            ),
            (
                "pinhole_project",
                lambda: G.camera.PinholeCamera(
                    torch.eye(4)[None], torch.eye(4)[None], torch.tensor([32.0]), torch.tensor([24.0])
                ).project(points[0]),
            ),
            ("solve_pnp_dlt", lambda: G.calibration.solve_pnp_dlt(points, x2, K)),
            (
                "warp_frame_depth",
                lambda: G.depth.warp_frame_depth(image((1, 3, 8, 10)), image((1, 1, 8, 10)) + 1, torch.eye(4)[None], K),
            ),
            ("ransac_homography", lambda: G.ransac.RANSAC("homography", max_iter=5)(x1[0], x2[0] * 0.9 + 3)),
        ]
    )


def kornia_geometry_misc():
    """kornia's boxes, bounding-box helpers, line and plane fits, 2-D and 3-D Lie groups, polynomial solvers, lens
    distortion of points and images, homographies from lines, the Affine and Resize modules, a similarity
    registration (5 Adam steps on a 2-level pyramid), k-means, and kornia.image's drawing."""
    import kornia.contrib as KC
    import kornia.geometry as G
    import kornia.geometry.ray
    import kornia.image as KI

    torch.manual_seed(0)
    x = image((2, 3, 24, 32))
    boxes = torch.tensor(
        [[[2.0, 3.0, 12.0, 14.0], [5.0, 5.0, 20.0, 18.0]], [[0.0, 0.0, 8.0, 8.0], [10.0, 4.0, 30.0, 20.0]]]
    )
    B = G.boxes.Boxes.from_tensor(boxes, mode="xyxy")
    K = torch.tensor([[[30.0, 0.0, 16.0], [0.0, 30.0, 12.0], [0.0, 0.0, 1.0]]])
    dist = torch.tensor([[0.1, -0.05, 0.001, 0.002]])
    generated = G.bbox.bbox_generator(
        torch.tensor([1.0, 2.0]), torch.tensor([3.0, 1.0]), torch.tensor([5.0, 6.0]), torch.tensor([4.0, 7.0])
    )
    each(
        [
            ("boxes_xywh", lambda: B.to_tensor("xywh")),
            ("boxes_mask", lambda: B.to_mask(24, 32)),
            ("boxes_transform", lambda: B.transform_boxes(torch.eye(3).repeat(2, 1, 1) * 1.5).to_tensor()),
            ("bbox_to_mask", lambda: G.bbox.bbox_to_mask(generated, 10, 12)),
            ("infer_bbox_shape", lambda: G.bbox.infer_bbox_shape(generated)),
            ("nms", lambda: G.bbox.nms(boxes[0], torch.tensor([0.9, 0.8]), 0.3)),
            ("fit_line", lambda: G.line.fit_line(torch.rand(2, 10, 2) + torch.linspace(0, 1, 10)[:, None]).direction),
            (
                "ray",
                lambda: kornia.geometry.ray.Ray.through(torch.rand(2, 3), torch.rand(2, 3) + 1).point_at(
                    torch.tensor([[0.5], [2.0]])
                ),
            ),
            ("fit_plane", lambda: G.plane.fit_plane(torch.rand(2, 20, 3)).normal),
            ("so2", lambda: G.liegroup.So2.exp(torch.tensor([0.3, -1.2])).matrix()),
            ("se2", lambda: G.liegroup.Se2.exp(torch.tensor([[0.3, 1.0, 2.0]])).log()),
            ("se3_adjoint", lambda: G.liegroup.Se3.exp(torch.tensor([[0.1, 0.2, -0.3, 1.0, 2.0, 3.0]])).adjoint()),
            ("undistort_image", lambda: G.calibration.undistort_image(x, K.repeat(2, 1, 1), dist.repeat(2, 1))),
            ("distort_points", lambda: G.calibration.distort_points(torch.rand(1, 5, 2) * 20, K, dist)),
            (
                "solve_cubic",
                lambda: G.solvers.solve_cubic(torch.tensor([[1.0, -6.0, 11.0, -6.0], [1.0, 0.0, 0.0, -1.0]])),
            ),
            ("solve_quadratic", lambda: G.solvers.solve_quadratic(torch.tensor([[1.0, -3.0, 2.0], [1.0, 2.0, 5.0]]))),
            ("meshgrid3d", lambda: G.create_meshgrid3d(2, 3, 4)),
            ("transform_points", lambda: G.linalg.transform_points(torch.eye(4)[None] * 2, torch.rand(1, 4, 3))),
            (
                "relative_transformation",
                lambda: G.linalg.relative_transformation(torch.eye(4)[None], torch.eye(4)[None] * 2),
            ),
            (
                "point_line_distance",
                lambda: G.linalg.point_line_distance(torch.tensor([[1.0, 2.0]]), torch.tensor([[1.0, 1.0, -1.0]])),
            ),
            (
                "homography_lines",
                lambda: G.homography.find_homography_lines_dlt(torch.rand(1, 5, 2, 2), torch.rand(1, 5, 2, 2)),
            ),
            (
                "valid_samples",
                lambda: G.homography.sample_is_valid_for_homography(torch.rand(3, 4, 2), torch.rand(3, 4, 2)),
            ),
            (
                "oneway_error",
                lambda: G.homography.oneway_transfer_error(
                    torch.rand(1, 5, 2), torch.rand(1, 5, 2), torch.eye(3)[None]
                ),
            ),
            (
                "affine_module",
                lambda: G.transform.Affine(
                    torch.tensor([30.0, -20.0]),
                    torch.tensor([[1.0, 2.0], [0.0, 1.0]]),
                    torch.tensor([[1.2, 0.8], [1.0, 1.0]]),
                )(x),
            ),
            ("resize_module", lambda: G.transform.Resize((12, 16), side="short")(x)),
            ("kmeans", lambda: _kmeans(KC)),
            (
                "draw_line",
                lambda: KI.draw_line(
                    torch.zeros(3, 10, 12), torch.tensor([1, 1]), torch.tensor([8, 9]), torch.tensor([1.0, 0.5, 0.25])
                ),
            ),
            (
                "draw_rectangle",
                lambda: KI.draw_rectangle(
                    torch.zeros(1, 3, 10, 12), torch.tensor([[[1, 1, 6, 8]]]), torch.tensor([1.0, 0.5, 0.25]), fill=True
                ),
            ),
            (
                "draw_polygon",
                lambda: KI.draw_convex_polygon(
                    torch.zeros(1, 3, 10, 12),
                    torch.tensor([[[1.0, 1.0], [8.0, 2.0], [5.0, 9.0]]]),
                    torch.tensor([[1.0, 0.5, 0.25]]),
                ),
            ),
        ]
    )
    torch.manual_seed(0)
    registrator = G.transform.ImageRegistrator("similarity", num_iterations=5, pyramid_levels=2)
    show("registration", registrator.register(x[:1], G.transform.rotate(x[:1], torch.tensor([10.0]))))


def _kmeans(KC):
    torch.manual_seed(0)
    kmeans = KC.KMeans(2, None, 1e-4, 10, 0)
    kmeans.fit(torch.cat([torch.randn(20, 2), torch.randn(20, 2) + 5]))
    return kmeans.cluster_centers, kmeans.predict(torch.tensor([[0.0, 0.0], [5.0, 5.0]]))


def kornia_models(models):
    """kornia's ViT, MobileViT and TinyViT built small (seeded), two SGD steps on a seeded batch, then eval-mode
    outputs; ``models`` maps a name to ``(builder, input shape)``."""
    for name, (make, shape) in models.items():
        torch.manual_seed(0)
        model = make()
        x = torch.randn(*shape)
        print(name, type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        model.train()
        for step in range(2):
            out = model(x)
            loss = out.pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            print(step, tuple(out.shape), f"loss {loss.item():.6g}")
        model.eval()
        with torch.no_grad():
            show(f"{name} eval", model(x))


def kornia_feature_networks():
    """kornia.feature's learned detectors and descriptors, randomly initialised (seeded, no weights downloaded):
    Key.Net's response and detector, AffNet's and OriNet's frames, HyNet's descriptors and XFeat's keypoints."""
    import kornia.feature as KF

    x = image((1, 1, 64, 64))
    laf = KF.laf_from_center_scale_ori(torch.tensor([[[32.0, 32.0], [20.0, 40.0]]]), torch.ones(1, 2, 1, 1) * 8)
    calls = [
        ("keynet", lambda: KF.KeyNet(False).eval()(x)),
        ("keynet_detector", lambda: KF.KeyNetDetector(False, num_features=12).eval()(x)),
        ("affnet", lambda: KF.LAFAffNetShapeEstimator(False).eval()(laf, x)),
        ("orinet", lambda: KF.LAFOrienter(32, angle_detector=KF.OriNet(False)).eval()(laf, x)),
        ("hynet", lambda: KF.HyNet(False).eval()(image((4, 1, 32, 32)))),
        (
            "xfeat",
            lambda: (
                KF.XFeat(top_k=10, detection_threshold=0.0).eval().detectAndCompute(x.repeat(1, 3, 1, 1), top_k=10)[0]
            ),
        ),
    ]
    for name, call in calls:
        torch.manual_seed(0)
        each([(name, call)])


# torchmetrics ------------------------------------------------------------------------------------------------------


def updates(metrics, *args, batches=1):
    """Each metric of ``metrics`` (a dict) updated with ``args`` split into ``batches`` along dim 0, then computed."""
    for name, metric in metrics.items():
        try:
            if batches == 1:
                metric.update(*args)
            size = len(args[0]) // batches
            for i in range(batches if batches > 1 else 0):
                metric.update(*(a[i * size : (i + 1) * size] for a in args))
            show(name, metric.compute())
        except Exception as exc:  # the failure is the output, in both libraries
            print(name, "raised", type(exc).__name__, str(exc).splitlines()[0][:120])


def classification_inputs(n=40, classes=4):
    """Seeded multiclass probabilities and labels, binary scores and labels, multilabel scores and labels."""
    torch.manual_seed(0)
    return (
        torch.randn(n, classes).softmax(-1),
        torch.randint(0, classes, (n,)),
        torch.rand(n),
        torch.randint(0, 2, (n,)),
        torch.rand(n, 3),
        torch.randint(0, 2, (n, 3)),
    )


def regression_inputs(n=30):
    """Seeded predictions and correlated targets: 1-d, 2-d and positive ones."""
    torch.manual_seed(0)
    p = torch.randn(n)
    p2 = torch.randn(n, 2)
    return p, p * 0.8 + torch.randn(n) * 0.5, p2, p2 + torch.randn(n, 2) * 0.3, torch.rand(n) + 0.1, torch.rand(n) + 0.1


def metric_lifecycle(C, TM):
    """A Metric's life as torchmetrics' docs show it: forward on batches (the batch value), compute over the
    epoch, merge_state, state_dict (persistent), clone/reset, dtype, compositions, pickling."""
    import copy
    import io
    import pickle

    torch.manual_seed(0)
    k = 3
    preds, target = torch.randn(24, k), torch.randint(0, k, (24,))
    acc = C.MulticlassAccuracy(k, average="micro")
    for i in range(3):
        print("batch", i, acc(preds[i * 8 : (i + 1) * 8], target[i * 8 : (i + 1) * 8]))
    print("epoch", acc.compute(), acc.update_called, acc._update_count)
    print(acc.metric_state)
    other = C.MulticlassAccuracy(k, average="micro")
    other.update(preds[:5], target[:5])
    acc.merge_state(other)
    print("merged", acc.compute())
    acc.persistent(True)
    print(acc.state_dict())
    clone = acc.clone()
    clone.reset()
    print("reset", clone.metric_state)
    print({k: v.dtype for k, v in acc.double().metric_state.items()})
    composition = C.MulticlassPrecision(k) + C.MulticlassRecall(k)
    composition.update(preds, target)
    print("composition", composition.compute(), composition)
    negated = 1 - C.MulticlassAccuracy(k)
    negated.update(preds, target)
    print("1 - accuracy", negated.compute())
    buffer = io.BytesIO()
    torch.save(acc.state_dict(), buffer)
    buffer.seek(0)
    print(torch.load(buffer))
    m = C.MulticlassAccuracy(k)
    m.update(preds, target)
    print("pickled", pickle.loads(pickle.dumps(m)).compute(), "deepcopy", copy.deepcopy(m).compute())
    print(isinstance(m, torch.nn.Module), m.higher_is_better, m.is_differentiable, m.full_state_update)
    task = TM.Accuracy(task="multiclass", num_classes=k)
    print(task, task(preds[:10], target[:10]), task.compute())


def metric_collection(C, TM, W, R):
    """MetricCollection with compute groups and prefixes, MetricTracker, BootStrapper (torch's seeded RNG),
    ClasswiseWrapper, MultioutputWrapper, MinMaxMetric and Running."""
    torch.manual_seed(0)
    k = 3
    preds, target = torch.randn(24, k), torch.randint(0, k, (24,))
    collection = TM.MetricCollection(
        {
            "acc": C.MulticlassAccuracy(k),
            "f1": C.MulticlassF1Score(k),
            "prec": C.MulticlassPrecision(k),
            "cm": C.MulticlassConfusionMatrix(k),
        },
        compute_groups=True,
    )
    collection.update(preds, target)
    print("groups", collection.compute_groups)
    show("collection", collection.compute())
    print(sorted(collection.clone(prefix="train_").keys()))
    listed = TM.MetricCollection(
        [C.MulticlassAccuracy(k), C.MulticlassPrecision(k), C.MulticlassRecall(k)], prefix="val_"
    )
    print(listed(preds, target))
    print(listed.compute())
    print(listed)
    tracker = W.MetricTracker(C.MulticlassAccuracy(k), maximize=True)
    for epoch in range(3):
        tracker.increment()
        tracker.update(preds[epoch * 8 : (epoch + 1) * 8], target[epoch * 8 : (epoch + 1) * 8])
    print("tracker", tracker.compute_all(), tracker.best_metric(return_step=True))
    torch.manual_seed(1)
    boot = W.BootStrapper(R.MeanSquaredError(), num_bootstraps=5, quantile=torch.tensor([0.1, 0.9]))
    boot.update(preds[:, 0], preds[:, 1])
    show("bootstrap", boot.compute())
    classwise = W.ClasswiseWrapper(C.MulticlassF1Score(k, average=None), labels=["cat", "dog", "fish"])
    classwise.update(preds, target)
    show("classwise", classwise.compute())
    multi = W.MultioutputWrapper(R.R2Score(), 2)
    multi.update(preds[:, :2], preds[:, 1:])
    show("multioutput", multi.compute())
    minmax = W.MinMaxMetric(C.BinaryAccuracy())
    for i in range(3):
        minmax.update(preds[i * 8 : (i + 1) * 8, 0].sigmoid(), (target[i * 8 : (i + 1) * 8] > 0).long())
        show(f"minmax{i}", minmax.compute())
    running = W.Running(TM.aggregation.SumMetric(), window=2)
    for i in range(4):
        running.update(torch.tensor(float(i)))
        print("running", running.compute())


def more_metrics():
    """torchmetrics' less common metrics: CRPS, critical success index, Procrustes disparity, group fairness rates,
    fixed-recall precision, VIF, PSNR-B, pan-sharpening's spatial distortion and QNR, complex and source-aggregated
    SDRs, Fleiss' kappa; and functional forms of pairwise, image, retrieval, audio, clustering, text (TER, EED) and
    segmentation (Hausdorff) metrics."""
    import torchmetrics.functional as FM
    import torchmetrics.functional.clustering
    import torchmetrics.functional.segmentation  # noqa: F401  (FM.clustering, FM.segmentation below)
    from torchmetrics import audio, classification, image, nominal, regression, shape

    torch.manual_seed(0)
    updates({"crps": regression.ContinuousRankedProbabilityScore()}, torch.randn(10, 5), torch.randn(10))
    updates({"csi": regression.CriticalSuccessIndex(0.5)}, torch.rand(10, 3), torch.rand(10, 3))
    updates({"procrustes": shape.ProcrustesDisparity()}, torch.randn(2, 6, 3), torch.randn(2, 6, 3))
    updates(
        {"group_rates": classification.BinaryGroupStatRates(2), "fairness": classification.BinaryFairness(2)},
        torch.rand(20),
        torch.randint(0, 2, (20,)),
        torch.randint(0, 2, (20,)),
    )
    updates(
        {
            "precision_at_recall": classification.BinaryPrecisionAtFixedRecall(0.5),
            "multilabel_hamming": classification.MultilabelHammingDistance(3),
            "multilabel_fbeta": classification.MultilabelFBetaScore(0.5, 3),
        },
        torch.rand(20, 3),
        torch.randint(0, 2, (20, 3)),
    )
    x, y = _image((2, 3, 32, 32)), _image((2, 3, 32, 32), seed=1)
    updates({"vif": image.VisualInformationFidelity()}, _image((1, 3, 48, 48)), _image((1, 3, 48, 48), seed=1))
    updates({"psnrb": image.PeakSignalNoiseRatioWithBlockedEffect(data_range=1.0)}, x[:, :1], y[:, :1])
    pan = {"ms": torch.rand(2, 3, 16, 16), "pan": torch.rand(2, 3, 32, 32), "pan_lr": torch.rand(2, 3, 16, 16)}
    updates({"spatial_distortion": image.SpatialDistortionIndex(), "qnr": image.QualityWithNoReference()}, x, pan)
    updates(
        {"complex_si_snr": audio.ComplexScaleInvariantSignalNoiseRatio()},
        torch.randn(2, 5, 10, 2),
        torch.randn(2, 5, 10, 2),
    )
    updates({"sa_sdr": audio.SourceAggregatedSignalDistortionRatio()}, torch.randn(2, 2, 50), torch.randn(2, 2, 50))
    updates({"fleiss": nominal.FleissKappa(mode="counts")}, torch.randint(0, 5, (10, 3)))
    print(FM.pairwise_minkowski_distance(torch.rand(3, 4), torch.rand(2, 4), exponent=3))
    print(FM.regression.cosine_similarity(torch.rand(3, 4), torch.rand(3, 4), reduction="mean"))
    print(FM.image.spectral_angle_mapper(x, y), FM.image.total_variation(x), FM.image.image_gradients(x)[1].sum())
    print(FM.classification.binary_calibration_error(torch.rand(20), torch.randint(0, 2, (20,)), n_bins=4, norm="max"))
    print(FM.retrieval.retrieval_normalized_dcg(torch.rand(6), torch.randint(0, 3, (6,)), top_k=3))
    print(FM.audio.signal_noise_ratio(torch.randn(4), torch.randn(4), zero_mean=True))
    print(FM.clustering.rand_score(torch.randint(0, 3, (10,)), torch.randint(0, 3, (10,))))
    print(
        FM.text.char_error_rate(["hello"], ["hallo"]),
        FM.text.edit_distance(["rain"], ["shine"]),
        FM.text.translation_edit_rate(["the cat sat"], [["the cat sat down"]]),
    )
    print(FM.text.extended_edit_distance(["this is the prediction"], [["this is the reference"]]))
    print(
        FM.segmentation.hausdorff_distance(
            torch.randint(0, 2, (1, 2, 8, 8)).bool(),
            torch.randint(0, 2, (1, 2, 8, 8)).bool(),
            num_classes=2,
            input_format="one-hot",
        )
    )


# the library's docstring examples -----------------------------------------------------------------------------------


def doctests(packages, skip=()):
    """The ``>>>`` examples in the docstrings of every module of ``packages`` (names of packages or modules of the
    fetched library), each docstring's examples in order as an interactive session runs them: an expression's value
    is shown as the REPL shows it, an exception as its type and first line (the documented outputs themselves are
    not compared: the other run's output is). Docstrings are taken in the order of their names, each after
    ``torch.manual_seed(0)`` in a fresh copy of its module's namespace; those named in ``skip`` (prefixes) are left
    out, as are ``.plot`` examples (matplotlib is not installed) and examples doctest marks ``+SKIP``."""
    import doctest
    import importlib
    import pkgutil

    finder = doctest.DocTestFinder(exclude_empty=True)
    for package in packages:
        root = importlib.import_module(package)
        names = [package]
        if hasattr(root, "__path__"):
            names += sorted(m.name for m in pkgutil.walk_packages(root.__path__, package + "."))
        for name in names:
            if any(name.startswith(s) for s in skip):
                continue
            try:
                module = importlib.import_module(name)
            except Exception as exc:  # an optional dependency that is not installed, in both runs
                print("## import", name, "raised", type(exc).__name__)
                continue
            try:
                tests = finder.find(module)
            except Exception as exc:  # a lazily loaded optional dependency the finder touched, in both runs
                print("## find", name, "raised", type(exc).__name__)
                continue
            for test in sorted(tests, key=lambda t: (t.name, t.lineno or 0)):
                if test.name.endswith(".plot") or any(test.name.startswith(s) for s in skip):
                    continue
                print("##", test.name)
                torch.manual_seed(0)
                namespace = dict(module.__dict__)
                for example in test.examples:
                    if example.options.get(doctest.SKIP):
                        continue
                    try:
                        exec(compile(example.source, test.name, "single"), namespace)  # the library's own examples
                    except Exception as exc:  # the failure is the output, in both libraries
                        print("raised", type(exc).__name__, (str(exc).splitlines() or [""])[0][:120])


def kornia_doctests(packages, skip=()):
    """kornia's docstring examples (``doctests``), its lazy loader of optional packages set to raise rather than
    ask on stdin whether to install them (diffusers, onnx...: not installed)."""
    from kornia.config import InstallationMode, kornia_config

    kornia_config.lazyloader.installation_mode = InstallationMode.RAISE
    doctests(packages, skip)
