"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

torchvision's own Python code on core (2026-12-05, corpus helper TV): pytorch/vision at the commit of its 0.28.0
release (BSD-3-Clause), its pure-Python package fetched beside each script (``TV_PACKAGE``: models, ops,
transforms, transforms.v2, tv_tensors, utils; not datasets or io, which stay the runner's stubs). The runner loads
that package in both runs without its compiled extension (``runner._real_torchvision``). Each script is one of the
package's own modules run as the module it is (``__package__`` set, so its relative imports resolve:
``torchvision/models/__init__.py``, the transforms' ``__init__``...), with calls to ``corpus_torchvision.py``'s
drivers appended: the architectures built with ``weights=None`` at a small size, trained a few SGD steps; the
transforms applied with torch's seeded RNG, as torchvision's documentation and tests use them.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

TV = ("pytorch/vision", "8fb87713a24951e639c494b0f2a8a81b5f8e33a6", "BSD-3-Clause")  # the v0.28.0 release
_MODULES = {
    "": "__init__ _internally_replaced_utils _utils extension utils",
    "models": "__init__ _api _meta _utils alexnet convnext densenet efficientnet feature_extraction googlenet "
              "inception maxvit mnasnet mobilenet mobilenetv2 mobilenetv3 regnet resnet shufflenetv2 squeezenet "
              "swin_transformer vgg vision_transformer",
    "models/detection": "__init__ _utils anchor_utils backbone_utils faster_rcnn fcos generalized_rcnn image_list "
                        "keypoint_rcnn mask_rcnn retinanet roi_heads rpn ssd ssdlite transform",
    "models/optical_flow": "__init__ _utils raft",
    "models/quantization": "__init__ googlenet inception mobilenet mobilenetv2 mobilenetv3 resnet shufflenetv2 utils",
    "models/segmentation": "__init__ _utils deeplabv3 fcn lraspp",
    "models/video": "__init__ mvit resnet s3d swin_transformer",
    "ops": "__init__ _box_convert _register_onnx_ops _utils boxes ciou_loss deform_conv diou_loss drop_block "
           "feature_pyramid_network focal_loss giou_loss misc poolers ps_roi_align ps_roi_pool roi_align roi_pool "
           "stochastic_depth",
    "transforms": "__init__ _functional_pil _functional_tensor _presets autoaugment functional transforms",
    "transforms/v2": "__init__ _augment _auto_augment _color _container _deprecated _geometry _meta _misc _temporal "
                     "_transform _type_conversion _utils",
    "transforms/v2/functional": "__init__ _augment _color _deprecated _geometry _meta _misc _temporal "
                                "_type_conversion _utils",
    "tv_tensors": "__init__ _bounding_boxes _image _keypoints _mask _torch_function_helpers _tv_tensor _video",
}
TV_PACKAGE = [(p, p) for folder, names in _MODULES.items() for name in names.split()
              for p in ["/".join(filter(None, ("torchvision", folder, f"{name}.py")))]]
DRIVERS = "__import__('corpus_torchvision')"


def _tv(name, module, first, last, *calls):
    """torchvision/MODULE.py run as its module (``first``, its first line, gets ``__package__`` before it), the
    ``calls`` to the drivers appended after ``last``, its last line."""
    package = ".".join(["torchvision", *module.split("/")[:-1]])
    return _r(f"tv_{name}", TV, f"torchvision/{module}.py",
              [(first, f"__package__ = {package!r}  # run as the package's module\n{first}"),
               (last, "\n".join([last, "", *calls]))], support=TV_PACKAGE)


MODELS = ("models/__init__", "from .alexnet import *",
          "from ._api import get_model, get_model_builder, get_model_weights, get_weight, list_models, Weights, "
          "WeightsEnum")


def _model(name, *lines):
    """The models package's ``__init__`` with ``lines`` appended (``tv`` names the drivers)."""
    return _tv(f"models_{name}", *MODELS, f"tv = {DRIVERS}", *lines)


RECIPES += [
    _model("resnet", "tv.classify(resnet18, zero_init_residual=True)"),
    _model("resnext", "from torchvision.models.resnet import Bottleneck",
           "tv.classify(lambda weights, **kw: ResNet(Bottleneck, [1, 1, 1, 1], groups=4, width_per_group=16, **kw), "
           "frozen_bn=True)"),
    _model("mobilenet_v2", "tv.classify(mobilenet_v2, width_mult=0.25, dropout=0.1, frozen_bn=True)"),
    _model("mobilenet_v3", "tv.classify(mobilenet_v3_small, show_model=True)",
           "tv.classify(mobilenet_v3_large, width_mult=0.25, steps=1)"),
    _model("efficientnet_b0",
           "tv.classify(efficientnet_b0, stochastic_depth_prob=0.2, frozen_bn=True, show_model=True, steps=1)"),
    _model("convnext", "from torchvision.models.convnext import CNBlockConfig",
           "tv.classify(lambda weights, **kw: ConvNeXt([CNBlockConfig(16, 32, 1), CNBlockConfig(32, None, 1)], "
           "stochastic_depth_prob=0.1, **kw), show_model=True)"),
    _model("regnet", "tv.classify(regnet_y_400mf, frozen_bn=True, steps=1)"),
    _model("shufflenet", "tv.classify(shufflenet_v2_x0_5, frozen_bn=True)"),
    _model("squeezenet", "tv.classify(squeezenet1_1)", "tv.classify(squeezenet1_0, steps=1)"),
    _model("densenet", "tv.classify(lambda weights, **kw: DenseNet(8, (2, 2), 16, **kw))",
           "tv.classify(lambda weights, **kw: DenseNet(8, (2, 2), 16, memory_efficient=True, **kw), steps=1)"),
    _model("googlenet", "tv.classify(googlenet, aux_logits=True, init_weights=True, steps=1, frozen_bn=True)"),
    _model("inception_v3", "tv.classify(inception_v3, (3, 75, 75), aux_logits=False, init_weights=True, steps=1, "
                           "frozen_bn='only')"),
    _model("mnasnet", "tv.classify(mnasnet0_5, frozen_bn=True)"),
    _model("vit", "tv.classify(lambda weights, **kw: VisionTransformer(32, 8, 2, 2, 32, 64, dropout=0.1, **kw), "
                  "(3, 32, 32), show_model=True)"),
    _model("swin", "tv.classify(lambda weights, **kw: SwinTransformer([4, 4], 16, [2, 2], [2, 4], [4, 4], "
                   "stochastic_depth_prob=0.1, **kw), (3, 32, 32), show_model=True)"),
    _model("maxvit", "tv.classify(lambda weights, **kw: MaxVit((32, 32), 8, 2, [16, 32], [1, 1], head_dim=8, "
                     "stochastic_depth_prob=0.1, **kw), "
                     "(3, 32, 32))"),
    _model("lraspp", "tv.segment(segmentation.lraspp_mobilenet_v3_large, steps=1)"),
]

U8 = "lambda: tv.image()"  # a seeded 3x48x64 uint8 image
F32 = "lambda: tv.image(dtype=torch.float32)"
BATCH = "lambda: tv.image((4, 3, 32, 40), dtype=torch.float32)"


def _each(make, *pairs):
    """One ``apply_each`` call: ``pairs`` are ``"name", "transform"`` source texts."""
    items = ", ".join(f"({n!r}, {t})" for n, t in zip(pairs[::2], pairs[1::2]))
    return f"tv.apply_each([{items}], {make})"


TRANSFORMS = ("transforms/__init__", "from .transforms import *", "from .autoaugment import *")
RECIPES += [
    _tv("transforms_geometry", *TRANSFORMS, f"tv = {DRIVERS}", "import torch",
        _each(U8, "resize", "Resize(32)", "resize_pair", "Resize((20, 30), antialias=False)",
              "resize_nearest", "Resize(24, interpolation=InterpolationMode.NEAREST)",
              "resize_max", "Resize(30, max_size=36)", "center_crop", "CenterCrop(40)",
              "center_crop_pads", "CenterCrop((50, 70))", "random_crop", "RandomCrop(32, padding=4)",
              "random_crop_reflect", "RandomCrop(32, padding=4, padding_mode='reflect')",
              "random_crop_pad_needed", "RandomCrop(56, pad_if_needed=True, fill=7)",
              "hflip", "RandomHorizontalFlip(p=1.0)", "vflip", "RandomVerticalFlip(p=1.0)",
              "resized_crop", "RandomResizedCrop(32, scale=(0.3, 1.0))", "pad_edge", "Pad((1, 2, 3, 4), "
              "padding_mode='edge')", "pad_symmetric", "Pad(3, padding_mode='symmetric')", "five_crop", "FiveCrop(16)",
              "ten_crop", "TenCrop(16, vertical_flip=True)"),
        _each(F32, "resize_bicubic", "Resize(24, interpolation=InterpolationMode.BICUBIC)",
              "resized_crop", "RandomResizedCrop((24, 32), scale=(0.5, 0.9), ratio=(0.5, 2.0))",
              "rotation", "RandomRotation(30)", "rotation_expand", "RandomRotation((10, 40), expand=True, fill=0.5)",
              "affine", "RandomAffine(15, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=10)",
              "affine_bilinear", "RandomAffine(20, interpolation=InterpolationMode.BILINEAR, fill=(0.2, 0.4, 0.6))",
              "perspective", "RandomPerspective(0.4, p=1.0)", "elastic", "ElasticTransform(alpha=20.0, sigma=3.0)"),
        _each(BATCH, "batch_resize", "Resize(16)", "batch_crop", "RandomCrop(24)",
              "batch_rotation", "RandomRotation(45)")),
    _tv("transforms_color", *TRANSFORMS, f"tv = {DRIVERS}", "import torch",
        _each(U8, "jitter", "ColorJitter(0.4, 0.4, 0.4, 0.1)", "jitter_hue", "ColorJitter(hue=0.3)",
              "grayscale", "Grayscale(3)", "random_grayscale", "RandomGrayscale(p=1.0)",
              "blur", "GaussianBlur(5, sigma=(0.1, 2.0))", "invert", "RandomInvert(p=1.0)",
              "posterize", "RandomPosterize(4, p=1.0)", "solarize", "RandomSolarize(128, p=1.0)",
              "sharpness", "RandomAdjustSharpness(2.0, p=1.0)", "autocontrast", "RandomAutocontrast(p=1.0)",
              "equalize", "RandomEqualize(p=1.0)", "to_float", "ConvertImageDtype(torch.float32)",
              "erasing_uint8", "Compose([ConvertImageDtype(torch.float32), RandomErasing(p=1.0)])"),
        _each(F32, "jitter", "ColorJitter(0.4, 0.4, 0.4, 0.1)", "normalize", "Normalize((0.485, 0.456, 0.406), "
              "(0.229, 0.224, 0.225))", "erasing", "RandomErasing(p=1.0, value='random')",
              "erasing_value", "RandomErasing(p=1.0, scale=(0.1, 0.2), value=(0.5, 0.5, 0.5))",
              "to_uint8", "ConvertImageDtype(torch.uint8)", "pipeline", "Compose([RandomResizedCrop(32), "
              "RandomHorizontalFlip(), ColorJitter(0.2, 0.2, 0.2), Normalize((0.5,) * 3, (0.25,) * 3)])",
              "random_apply", "RandomApply([GaussianBlur(3), RandomInvert(1.0)], p=0.9)",
              "random_choice", "RandomChoice([RandomInvert(1.0), Grayscale(3)])",
              "random_order", "RandomOrder([Resize(20), CenterCrop(16)])",
              "linear", "Compose([Resize((4, 4)), LinearTransformation(torch.eye(48) * 2, torch.zeros(48))])")),
    _tv("transforms_autoaugment", *TRANSFORMS, f"tv = {DRIVERS}", "import torch",
        _each(U8, "autoaugment", "AutoAugment()", "autoaugment_cifar", "AutoAugment(AutoAugmentPolicy.CIFAR10)",
              "autoaugment_svhn", "AutoAugment(AutoAugmentPolicy.SVHN)", "randaugment", "RandAugment()",
              "randaugment_strong", "RandAugment(num_ops=3, magnitude=15)", "trivial", "TrivialAugmentWide()",
              "augmix", "AugMix()"), "torch.manual_seed(1)",
        _each(U8, "autoaugment_repeated", "AutoAugment()", "randaugment_repeated", "RandAugment(num_ops=2)")
        .replace("], lambda: tv.image())", "], lambda: tv.image(), repeats=4)")),
]

V2 = ("transforms/v2/__init__", "from torchvision.transforms import AutoAugmentPolicy  # usort: skip",
      "from ._deprecated import ToTensor  # usort: skip")
SAMPLE = "lambda: tv.sample()"
RECIPES += [
    _tv("transforms_v2_detection", *V2, f"tv = {DRIVERS}", "import torch", "from torchvision import tv_tensors",
        _each(SAMPLE, "resized_crop", "RandomResizedCrop(32, antialias=True)", "hflip", "RandomHorizontalFlip(p=1.0)",
              "zoom_out", "RandomZoomOut(fill={tv_tensors.Image: 127, 'others': 0}, p=1.0)",
              "iou_crop", "Compose([RandomIoUCrop(), SanitizeBoundingBoxes()])",
              "photometric", "RandomPhotometricDistort(p=1.0)", "affine", "RandomAffine(20, translate=(0.1, 0.1))",
              "rotation_expand", "RandomRotation(30, expand=True)", "perspective", "RandomPerspective(p=1.0)",
              "elastic", "ElasticTransform(alpha=10.0)", "scale_jitter", "ScaleJitter((40, 50))",
              "shortest_size", "RandomShortestSize([24, 32], max_size=50)", "random_resize", "RandomResize(20, 40)",
              "cxcywh", "ConvertBoundingBoxFormat('CXCYWH')", "crop_clamp", "Compose([Pad(8), CenterCrop(40), "
              "ClampBoundingBoxes(), SanitizeBoundingBoxes(min_size=5)])",
              "to_float", "Compose([ToDtype(torch.float32, scale=True), Normalize([0.5] * 3, [0.2] * 3)])",
              "detection_train", "Compose([RandomPhotometricDistort(p=1.0), RandomZoomOut(p=0.5), RandomIoUCrop(), "
              "RandomHorizontalFlip(), ToDtype(torch.float32, scale=True), SanitizeBoundingBoxes()])"),
        _each("lambda: tv.keypoints_sample()", "kp_flip", "RandomHorizontalFlip(p=1.0)", "kp_affine",
              "RandomAffine(30, scale=(0.8, 1.2))", "kp_resize", "Resize(24)", "kp_crop", "RandomCrop(40)")),
    _tv("transforms_v2_classification", *V2, f"tv = {DRIVERS}", "import torch",
        _each("lambda: tv.image()", "ra_pipeline", "Compose([RandomResizedCrop(32), RandomHorizontalFlip(), "
              "RandAugment(), ToDtype(torch.float32, scale=True), Normalize([0.485, 0.456, 0.406], "
              "[0.229, 0.224, 0.225]), RandomErasing(p=0.5)])", "trivial", "TrivialAugmentWide()",
              "augmix", "AugMix(severity=2)", "autoaugment", "AutoAugment()",
              "channel_perm", "RandomChannelPermutation()",
              "grayscale", "Grayscale(3)", "rgb", "Compose([Grayscale(1), RGB()])", "solarize",
              "RandomSolarize(100, p=1.0)", "posterize", "RandomPosterize(3, p=1.0)", "equalize",
              "RandomEqualize(p=1.0)", "blur", "GaussianBlur(5, sigma=(0.5, 1.5))",
              "noise", "Compose([ToDtype(torch.float32, scale=True), GaussianNoise(sigma=0.1)])",
              "pure", "Compose([ToImage(), ToPureTensor()])"),
        _each("lambda: tv.batch_with_labels()", "cutmix", "CutMix(num_classes=5)", "mixup", "MixUp(num_classes=5)",
              "cutmix_or_mixup", "RandomChoice([CutMix(num_classes=5, alpha=0.5), MixUp(num_classes=5)])"),
        _each("lambda: tv.video()", "temporal", "UniformTemporalSubsample(4)", "video_crop", "RandomCrop(12)",
              "video_flip", "RandomHorizontalFlip(p=1.0)")),
]

RECIPES += [
    _tv("ops", "ops/__init__", "from ._register_onnx_ops import _register_custom_op", '    "DropBlock3d",\n]',
        f"{DRIVERS}.ops_tour()"),
    _tv("utils", "utils", "import collections", "    return tuple(repeat(x, n))", f"{DRIVERS}.utils_tour()"),
]

DETECTION_IMPORTS = ("from torchvision.models.detection.anchor_utils import AnchorGenerator",
                     "from torchvision.models.detection.backbone_utils import BackboneWithFPN",
                     "from torchvision.ops.misc import FrozenBatchNorm2d")
# MobileNetV3-Small's stages at strides 8, 16 and 32 under an FPN of WIDTH channels (32 for FCOS's GroupNorm(32))
# and its max-pooled level: 4 maps
SMALL_BACKBONE = ("BackboneWithFPN(mobilenet_v3_small(norm_layer=FrozenBatchNorm2d).features, "
                  "{'3': '0', '8': '1', '12': '2'}, [24, 48, 576], WIDTH)")
RECIPES += [
    _model("detection_retinanet", *DETECTION_IMPORTS,
           f"tv.detect(lambda: detection.RetinaNet({SMALL_BACKBONE.replace('WIDTH', '16')}, 3, min_size=64, "
           "max_size=96, anchor_generator="
           "AnchorGenerator(((8,), (16,), (32,), (64,)), ((0.5, 1.0, 2.0),) * 4)))"),
    _model("detection_fcos", *DETECTION_IMPORTS,
           f"tv.detect(lambda: detection.FCOS({SMALL_BACKBONE.replace('WIDTH', '32')}, 3, min_size=64, "
           "max_size=96, anchor_generator="
           "AnchorGenerator(((8,), (16,), (32,), (64,)), ((1.0,),) * 4)))"),
]

RECIPES += [
    _model("quantized_shufflenet", "tv.quantized(quantization.shufflenet_v2_x0_5)"),
    _model("feature_extraction", "tv.features(resnet18, {'layer1': 'feat1', 'layer3.0.relu_1': 'mid', "
                                 "'avgpool': 'pool', 'fc': 'logits'})"),
]

MVIT_BLOCKS = ("[MSBlockConfig(num_heads=1, input_channels=16, output_channels=16, kernel_q=[3, 3, 3], "
               "kernel_kv=[3, 3, 3], stride_q=[1, 1, 1], stride_kv=[1, 2, 2]), MSBlockConfig(num_heads=2, "
               "input_channels=16, output_channels=32, kernel_q=[3, 3, 3], kernel_kv=[3, 3, 3], stride_q=[1, 2, 2], "
               "stride_kv=[1, 1, 1])]")
RECIPES += [
    _model("efficientnet_v2", "from torchvision.models.efficientnet import FusedMBConvConfig, MBConvConfig",
           "tv.classify(lambda weights, **kw: EfficientNet([FusedMBConvConfig(1, 3, 1, 16, 16, 1), "
           "FusedMBConvConfig(4, 3, 2, 16, 32, 2), MBConvConfig(4, 3, 2, 32, 48, 1)], 0.2, stochastic_depth_prob=0.2, "
           "last_channel=64, **kw), frozen_bn=True, show_model=True)"),
    _model("video_transformers", "from torchvision.models.video.mvit import MViT, MSBlockConfig",
           "from torchvision.models.video.swin_transformer import SwinTransformer3d",
           f"tv.classify(lambda weights, **kw: MViT((32, 32), 4, {MVIT_BLOCKS}, residual_pool=True, "
           "residual_with_cls_embed=False, rel_pos_embed=True, proj_after_attn=True, stochastic_depth_prob=0.1, "
           "**kw), (3, 4, 32, 32))",
           "tv.classify(lambda weights, **kw: SwinTransformer3d([2, 4, 4], 16, [1, 1], [1, 2], [2, 4, 4], "
           "stochastic_depth_prob=0.1, **kw), (3, 4, 32, 32))"),
]

V2F = ("transforms/v2/functional/__init__",
       "from torchvision.transforms.functional import InterpolationMode  # usort: skip",
       "from ._deprecated import get_image_size, to_tensor  # usort: skip")
FLOAT = "tv.image(dtype=torch.float32)"
RECIPES += [
    _tv("transforms_v2_functional", *V2F, f"tv = {DRIVERS}", "import torch", "from torchvision import tv_tensors",
        "torch.manual_seed(0)", "img, sample = tv.image(), tv.sample()",
        _each("lambda: img", "resize_antialias", "lambda x: resize(x, [20, 30], antialias=True)",
              "resize_bicubic_float", f"lambda x: resize({FLOAT}, [20, 30], InterpolationMode.BICUBIC)",
              "resize_up", "lambda x: resize(x, [60, 90], InterpolationMode.BILINEAR)",
              "rotate_center", "lambda x: rotate(x, 33.0, InterpolationMode.BILINEAR, center=[10, 12])",
              "affine_shear", "lambda x: affine(x, angle=10.0, translate=[3, -2], scale=1.1, shear=[5.0, 8.0])",
              "perspective", "lambda x: perspective(x, [[0, 0], [63, 0], [63, 47], [0, 47]], "
              "[[4, 2], [60, 5], [58, 44], [2, 40]])",
              "elastic", "lambda x: elastic(x, torch.randn(1, 48, 64, 2) * 0.05)",
              "hue", f"lambda x: adjust_hue({FLOAT}, 0.2)", "gamma", "lambda x: adjust_gamma(x, 0.7, 1.2)",
              "saturation", "lambda x: adjust_saturation(x, 1.8)", "contrast", "lambda x: adjust_contrast(x, 0.4)",
              "brightness", "lambda x: adjust_brightness(x, 1.3)", "sharpness", "lambda x: adjust_sharpness(x, 3.0)",
              "blur", "lambda x: gaussian_blur(x, [5, 3], [1.5, 0.7])", "gray", "lambda x: rgb_to_grayscale(x, 3)",
              "erase", "lambda x: erase(x, 5, 6, 10, 12, torch.zeros(3, 10, 12, dtype=torch.uint8))",
              "equalize", "equalize", "autocontrast", "autocontrast", "invert", "invert",
              "posterize", "lambda x: posterize(x, 3)", "solarize", "lambda x: solarize(x, 90)",
              "pad_reflect", "lambda x: pad(x, [2, 3, 4, 5], padding_mode='reflect')",
              "resized_crop", "lambda x: resized_crop(x, 5, 6, 30, 40, [16, 16])",
              "to_float", "lambda x: to_dtype(x, torch.float32, scale=True)",
              "normalize", f"lambda x: normalize({FLOAT}, [0.4, 0.5, 0.6], [0.2, 0.25, 0.3])",
              "five_crop", "lambda x: five_crop(x, [10, 12])", "temporal",
              "lambda x: uniform_temporal_subsample(tv.video(), 3)"),
        _each("lambda: sample", "boxes_resize", "lambda s: resize(s['boxes'], [24, 32])",
              "boxes_rotate", "lambda s: rotate(s['boxes'], 30.0, expand=True)",
              "boxes_affine", "lambda s: affine(s['boxes'], angle=15.0, translate=[2, 1], scale=0.9, shear=[3.0])",
              "boxes_convert", "lambda s: convert_bounding_box_format(s['boxes'], new_format='CXCYWH')",
              "boxes_clamp", "lambda s: clamp_bounding_boxes(pad(s['boxes'], [5]))",
              "mask_resize", "lambda s: resize(s['masks'], [24, 32])",
              "mask_flip", "lambda s: vertical_flip(s['masks'])", "size", "lambda s: get_size(s['image'])")),
]

RECIPES += [_model("api", "tv.api_tour()")]

RECIPES += [_model("detection_ssd", "tv.detect(tv.small_ssd)")]
