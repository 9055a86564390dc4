"""Drivers for torchvision's own Python code (``recipes_torchvision.py``; our text).

A recipe fetches one of torchvision's package modules (``torchvision/models/__init__.py``, the transforms'
``__init__``...) as its script, with the whole Python package beside it, and appends calls to the drivers here.
The runner loads that package instead of its torchvision stub (``runner._real_torchvision``: no compiled
extension, in both runs). The drivers do what torchvision's documentation and tests do with it: build a model with
``weights=None`` (seeded), count its parameters, run a forward on a small batch, a backward and SGD steps, and
print the shapes, losses and a few values; apply transforms with torch's seeded RNG and print what comes out.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def _values(t, n=6):
    """The first values to 5 decimals (fixed, not significant, digits: a logit near 0 is rounding noise)."""
    return [f"{v:.5f}" for v in t.detach().flatten()[:n].tolist()]


def _summary(model):
    """Parameter and buffer counts, the number of modules and the state_dict's first and last keys with shapes."""
    state = model.state_dict()
    keys = [f"{k}{tuple(v.shape)}" for k, v in state.items()]
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()),
          "trainable:", sum(p.numel() for p in model.parameters() if p.requires_grad),
          "buffers:", sum(b.numel() for b in model.buffers()), "modules:", len(list(model.modules())))
    print("state_dict:", len(keys), "entries:", *keys[:4], "...", *keys[-3:])


def _loss(out, y):
    """Cross-entropy of the logits; a training-mode GoogLeNet or Inception v3 also returns its auxiliary classifiers'
    logits (a namedtuple), weighted 0.3 as torchvision's reference training script does."""
    if isinstance(out, tuple):
        main, *aux = out
        return F.cross_entropy(main, y) + sum(0.3 * F.cross_entropy(a, y) for a in aux if a is not None), main
    return F.cross_entropy(out, y), out


def classify(builder, shape=(3, 64, 64), *, classes=10, steps=2, lr=0.01, batch=2, frozen_bn=False, show_model=False,
             **kwargs):
    """``builder(weights=None, num_classes=classes, **kwargs)`` (seeded) trained ``steps`` SGD steps (momentum 0.9,
    weight decay) on a seeded ``(batch, *shape)`` batch, then its eval-mode logits.

    ``frozen_bn``: the BatchNorm layers stay in eval mode during the steps (their running statistics, as when
    fine-tuning a backbone). In training mode a BatchNorm over a 2-image batch of noise at 2x2 or 1x1 pixels
    normalises a handful of values, some channels nearly constant, which amplifies float32 rounding to 1e-4 of the
    gradient norm in the first backward (MobileNet, RegNet, MnasNet, GoogLeNet: the same models in float64 match
    torch to every printed digit), and the steps then diverge. ``show_model``: print the model (its modules'
    reprs)."""
    torch.manual_seed(0)
    model = builder(weights=None, num_classes=classes, **kwargs)
    _summary(model)
    if show_model:
        print(model)
    x = torch.randn(batch, *shape)
    y = torch.randint(0, classes, (batch,))
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
    model.train()
    if frozen_bn and frozen_bn != "only":  # "only": at 1x1 pixels the batch statistics are rounding noise
        with torch.no_grad():
            print("train-mode loss", f"{_loss(model(x), y)[0].item():.5g}")
    if frozen_bn:
        model.apply(lambda m: m.eval() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm) else None)
    for step in range(steps):
        opt.zero_grad()
        out = model(x)
        loss, logits = _loss(out, y)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)
        opt.step()
        print(step, type(out).__name__, tuple(logits.shape), f"loss {loss.item():.6g}", f"grad norm {norm.item():.6g}")
    print("no grad:", [n for n, p in model.named_parameters() if p.grad is None][:5])
    model.eval()
    with torch.no_grad():
        out = model(x)
    print("eval", tuple(out.shape), _values(out), f"argmax {out.argmax(1).tolist()}")
    return model


def segment(builder, shape=(3, 64, 64), *, classes=3, steps=2, lr=0.01, batch=2, **kwargs):
    """A segmentation model (``out``, and ``aux`` where asked): per-pixel cross-entropy for ``steps`` SGD steps."""
    torch.manual_seed(0)
    model = builder(weights=None, weights_backbone=None, num_classes=classes, **kwargs)
    _summary(model)
    x = torch.randn(batch, *shape)
    y = torch.randint(0, classes, (batch, *shape[1:]))
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=lr, momentum=0.9)
    model.train()
    for step in range(steps):
        opt.zero_grad()
        out = model(x)
        loss = sum((0.5 if k == "aux" else 1.0) * F.cross_entropy(v, y) for k, v in out.items())
        loss.backward()
        opt.step()
        print(step, {k: tuple(v.shape) for k, v in out.items()}, f"loss {loss.item():.6g}")
    model.eval()
    with torch.no_grad():
        out = model(x)["out"]
    print("eval", tuple(out.shape), _values(out), "pixels per class", torch.bincount(out.argmax(1).flatten(),
                                                                                      minlength=classes).tolist())
    return model


def image(shape=(3, 48, 64), dtype=torch.uint8, seed=0):
    """A seeded image tensor: uint8 pixels in [0, 255], or floats in [0, 1)."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.uint8:
        return torch.randint(0, 256, shape, dtype=torch.uint8, generator=g)
    return torch.rand(shape, generator=g, dtype=dtype)


def show(name, out):
    """What a transform gave: type, shape, dtype, sum and the first values (a tuple or dict: each part)."""
    if isinstance(out, dict):
        for key, value in out.items():
            show(f"{name}[{key}]", value)
        return
    if isinstance(out, (tuple, list)):
        for i, value in enumerate(out):
            show(f"{name}[{i}]", value)
        return
    if not isinstance(out, torch.Tensor):
        print(name, type(out).__name__, out)
        return
    flat = out.detach().double().flatten()
    weights = torch.arange(flat.numel(), dtype=torch.float64).remainder(7) + 1  # where the values are, not just which
    if out.dtype.is_floating_point:
        numbers = [f"sum {flat.sum().item():.7g}", f"weighted {(flat * weights).sum().item():.7g}", *_values(flat, 5)]
    else:  # integers and booleans: exact
        numbers = [f"sum {int(flat.sum().item())}", f"weighted {int((flat * weights).sum().item())}",
                   str(flat[:5].long().tolist())]
    print(name, type(out).__name__, tuple(out.shape), str(out.dtype).split(".")[-1], *numbers)


def apply_each(transforms, make_input, *, seed=0, repeats=1):
    """Each ``(name, transform)`` on ``make_input()``, after ``torch.manual_seed(seed)`` (random transforms draw
    their parameters from torch's global generator)."""
    for name, transform in transforms:
        torch.manual_seed(seed)
        for _ in range(repeats):
            try:
                out = transform(make_input())
            except Exception as exc:  # a refusal is part of the output (both libraries should refuse alike)
                print(name, "raises", type(exc).__name__, str(exc)[:120])
                break
            show(name, out)
        print("   ", repr(transform).replace("\n", " ")[:160])


def sample(size=(48, 64)):
    """A detection sample as torchvision.transforms.v2 takes it: a uint8 ``Image``, two ``BoundingBoxes`` (XYXY),
    their ``Mask`` and labels (a plain tensor, passed through)."""
    from torchvision import tv_tensors

    h, w = size
    masks = torch.zeros(2, h, w, dtype=torch.uint8)
    masks[0, 5:30, 10:40] = 1
    masks[1, 20:44, 30:60] = 1
    return {"image": tv_tensors.Image(image((3, h, w))),
            "boxes": tv_tensors.BoundingBoxes([[10, 5, 40, 30], [30, 20, 60, 44]], format="XYXY", canvas_size=size),
            "masks": tv_tensors.Mask(masks), "labels": torch.tensor([1, 2])}


def keypoints_sample(size=(48, 64)):
    """An image with ``KeyPoints`` (x, y pairs on its canvas)."""
    from torchvision import tv_tensors

    points = tv_tensors.KeyPoints([[5.0, 6.0], [30.5, 20.0], [60.0, 40.0]], canvas_size=size)
    return {"image": tv_tensors.Image(image((3, *size))), "keypoints": points}


def batch_with_labels(classes=5):
    """A float batch of 4 images and integer labels (CutMix and MixUp mix a batch)."""
    return image((4, 3, 16, 16), dtype=torch.float32), torch.tensor([0, 3, 1, 4])


def video():
    """A ``Video`` of 8 frames (T x C x H x W)."""
    from torchvision import tv_tensors

    return tv_tensors.Video(image((8, 3, 16, 20)))


def _refusal(name, fn):
    """``fn()``'s result shown, or the exception it raises (both libraries should raise alike)."""
    try:
        show(name, fn())
    except Exception as exc:
        print(name, "raises", type(exc).__name__, str(exc)[:100])


def ops_tour():
    """torchvision.ops as its tests use them: box geometry, IoU variants and their losses with gradients, focal
    loss, stochastic depth, DropBlock, the FPN a detector builds, the conv/norm/activation blocks; ``nms`` and
    ``roi_pool`` need the C++ ops and refuse. Not ``roi_align`` (nor ``MultiScaleRoIAlign``): without the C++ ops
    it runs its Python version through ``torch.compile``, which in torch's run means Inductor compiling C++ (9 s
    a call, and a compiler on the machine)."""
    from collections import OrderedDict

    from torchvision import ops

    torch.manual_seed(0)
    xy = torch.rand(6, 2) * 40
    boxes = torch.cat([xy, xy + torch.rand(6, 2) * 20 + 1], 1)
    other = boxes[[3, 1, 4]] + torch.randn(3, 4)
    show("area", ops.box_area(boxes))
    for name in ("box_iou", "generalized_box_iou", "distance_box_iou", "complete_box_iou"):
        show(name, getattr(ops, name)(boxes, other))
    for fmt in ("xywh", "cxcywh"):
        converted = ops.box_convert(boxes, "xyxy", fmt)
        show(fmt, converted)
        show(f"{fmt} back", ops.box_convert(converted, fmt, "xyxy") - boxes)
    show("clip", ops.clip_boxes_to_image(boxes, (30, 35)))
    show("small", ops.remove_small_boxes(boxes, 8.0))
    show("masks_to_boxes", ops.masks_to_boxes(torch.rand(3, 20, 24) > 0.7))
    for name in ("generalized_box_iou_loss", "distance_box_iou_loss", "complete_box_iou_loss"):
        b = boxes[:3].clone().requires_grad_()
        loss = getattr(ops, name)(b, other, reduction="sum")
        loss.backward()
        show(name, loss)
        show(f"{name} grad", b.grad)
    logits = torch.randn(4, 5, requires_grad=True)
    targets = (torch.rand(4, 5) > 0.6).float()
    loss = ops.sigmoid_focal_loss(logits, targets, reduction="mean")
    loss.backward()
    show("focal", loss)
    show("focal grad", logits.grad)
    show("focal none", ops.sigmoid_focal_loss(logits, targets, alpha=-1, gamma=1.5))
    x = torch.randn(4, 3, 8, 8)
    show("stochastic_depth row", ops.stochastic_depth(x, 0.5, "row", training=True))
    show("StochasticDepth batch", ops.StochasticDepth(0.3, "batch")(x))
    show("DropBlock2d", ops.DropBlock2d(0.3, 3)(x))
    show("drop_block3d", ops.drop_block3d(x.unsqueeze(2).expand(4, 3, 4, 8, 8), 0.2, 3, training=True))
    _refusal("nms", lambda: ops.nms(boxes, torch.rand(6), 0.5))
    _refusal("roi_pool", lambda: ops.roi_pool(x, [boxes[:2] / 8], 2))
    fpn = ops.FeaturePyramidNetwork([4, 8], 6, extra_blocks=ops.feature_pyramid_network.LastLevelMaxPool())
    maps = OrderedDict([("0", torch.randn(2, 4, 16, 16)), ("1", torch.randn(2, 8, 8, 8))])
    pyramid = fpn(maps)
    show("fpn", dict(pyramid))
    blocks = [ops.Conv2dNormActivation(4, 8, 3, stride=2), ops.SqueezeExcitation(8, 2),
              ops.Conv2dNormActivation(8, 8, 1, norm_layer=ops.FrozenBatchNorm2d, activation_layer=torch.nn.Hardswish),
              ops.Permute([0, 2, 3, 1]), ops.MLP(8, [16, 4], dropout=0.1, activation_layer=torch.nn.GELU)]
    net = torch.nn.Sequential(*blocks)
    print(net)
    out = net(torch.randn(2, 4, 9, 9))
    out.sum().backward()
    show("blocks", out)
    show("blocks grad", net[0][0].weight.grad)
    show("conv3d block", ops.Conv3dNormActivation(2, 4, 3)(torch.randn(1, 2, 4, 6, 6)))
    print(ops.FrozenBatchNorm2d(4), ops.StochasticDepth(0.2, "row"), ops.DropBlock2d(0.1, 5))


def utils_tour():
    """torchvision.utils as its documentation shows them: ``make_grid`` (padding, ``nrow``, normalising each image
    or the batch, a value range), ``draw_segmentation_masks`` and ``flow_to_image``."""
    from torchvision import utils

    torch.manual_seed(0)
    batch = torch.rand(5, 3, 12, 10) * 4 - 1
    show("grid", utils.make_grid(batch))
    show("grid nrow", utils.make_grid(batch, nrow=2, padding=1, pad_value=0.5))
    show("grid normalize", utils.make_grid(batch, normalize=True))
    show("grid scale_each", utils.make_grid(batch, normalize=True, scale_each=True, value_range=(-1, 1)))
    show("grid list", utils.make_grid(list(batch[:3, :1]), nrow=3))
    show("grid single", utils.make_grid(batch[0]))
    image_u8 = (torch.rand(3, 20, 24) * 255).to(torch.uint8)
    masks = torch.rand(2, 20, 24) > 0.5
    show("masks", utils.draw_segmentation_masks(image_u8, masks, alpha=0.6))
    show("masks colours", utils.draw_segmentation_masks(image_u8, masks, alpha=0.3, colors=[(255, 0, 0), (0, 255, 0)]))
    show("masks float", utils.draw_segmentation_masks(image_u8.float() / 255, masks[0], colors=(0, 0, 255)))
    flow = torch.randn(2, 2, 8, 10) * 3
    show("flow", utils.flow_to_image(flow))
    show("flow single", utils.flow_to_image(flow[0]))


def detect(make, *, steps=2, lr=0.01):
    """A detector (``make()``, seeded) trained ``steps`` SGD steps on two seeded images of different sizes with their
    boxes and labels, as torchvision's detection reference trains (the model resizes and batches them itself and
    returns its loss dict); then its eval-mode forward, whose post-processing needs ``nms`` (a C++ op)."""
    torch.manual_seed(0)
    model = make()
    _summary(model)
    images = [image((3, 60, 72), dtype=torch.float32), image((3, 64, 56), dtype=torch.float32, seed=1)]
    targets = [{"boxes": torch.tensor([[5.0, 6.0, 30.0, 40.0], [20.0, 10.0, 50.0, 44.0]]),
                "labels": torch.tensor([1, 2])},
               {"boxes": torch.tensor([[10.0, 12.0, 40.0, 50.0]]), "labels": torch.tensor([2])}]
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=lr, momentum=0.9)
    model.train()
    for step in range(steps):
        opt.zero_grad()
        losses = model(images, targets)
        total = sum(losses.values())
        total.backward()
        opt.step()
        print(step, {k: f"{v.item():.6g}" for k, v in losses.items()}, f"total {total.item():.6g}")
    model.eval()
    with torch.no_grad():
        _refusal("eval", lambda: model(images))
    return model


def quantized(builder, shape=(2, 3, 64, 64)):
    """``builder(weights=None, quantize=True)``: torchvision fuses the model, calibrates it on one seeded 299x299
    image (its ``quantize_model``) and converts it to quantized modules; the first modules and the output."""
    torch.manual_seed(0)
    model = builder(weights=None, quantize=True)
    print(str(model).split("\n")[:8])
    show("quantized", model(torch.rand(shape)))


def features(builder, nodes, shape=(2, 3, 32, 32)):
    """``create_feature_extractor`` (torch.fx symbolic tracing of the model, one graph for train and one for eval
    mode) returning the named nodes' outputs, as torchvision's feature-extraction docs use it."""
    from torchvision.models import feature_extraction

    torch.manual_seed(0)
    model = builder(weights=None)
    train_nodes, eval_nodes = feature_extraction.get_graph_node_names(model)
    print(len(train_nodes), len(eval_nodes), train_nodes[:6], eval_nodes[-4:])
    extractor = feature_extraction.create_feature_extractor(model, nodes)
    x = torch.randn(shape)
    # the training graph with BatchNorm's running statistics (on a 2-image batch of noise at 1x1 pixels its batch
    # statistics are rounding noise, as in ``classify``'s frozen_bn)
    extractor.apply(lambda m: m.eval() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm) else None)
    out = extractor(x)
    show("train", out)
    sum(v.float().mean() for v in out.values()).backward()
    show("grad", next(extractor.parameters()).grad)
    extractor.eval()
    with torch.no_grad():
        show("eval", extractor(x))
    print(type(extractor).__name__, extractor.training)


def api_tour():
    """torchvision.models' registry as its documentation shows it: ``list_models`` (all, and per module),
    ``get_model_weights``/``get_weight`` and a weights enum's metadata (no download: the ``num_params`` in the
    metadata against a model built with ``weights=None``), and each preset's ``transforms()`` (classification,
    segmentation, video, optical flow, detection) applied to seeded tensors."""
    import torchvision
    from torchvision import models

    print(torchvision.__version__, torchvision.get_image_backend(), torchvision.get_video_backend())
    names = models.list_models()
    print(len(names), names[:5], names[-3:])
    for module in (models.detection, models.segmentation, models.video, models.optical_flow, models.quantization):
        print(module.__name__.split(".")[-1], models.list_models(module=module)[:4])
    print(models.list_models(include=["resnet*", "*v3*"], exclude=["*large*"]))
    for name in ("mobilenet_v3_small", "squeezenet1_1", "shufflenet_v2_x0_5"):
        weights = models.get_model_weights(name)
        default = weights.DEFAULT
        print(name, weights.__name__, [w.name for w in weights], default.url.split("/")[-1])
        print("  ", default.meta["num_params"], default.meta["min_size"], len(default.meta["categories"]),
              default.meta["categories"][:3], sorted(default.meta["_metrics"]["ImageNet-1K"].items()))
        torch.manual_seed(0)
        model = models.get_model(name, weights=None)
        print("   built", sum(p.numel() for p in model.parameters()) == default.meta["num_params"])
    print(models.get_weight("ResNet50_Weights.IMAGENET1K_V2").meta["recipe"])
    picture = image((3, 120, 160))
    for weights in (models.ResNet50_Weights.IMAGENET1K_V2, models.ViT_B_16_Weights.IMAGENET1K_SWAG_E2E_V1,
                    models.segmentation.FCN_ResNet50_Weights.DEFAULT):
        preset = weights.transforms()
        print(preset)
        show(weights.name, preset(picture))
    clip = image((4, 3, 72, 96))
    preset = models.video.R3D_18_Weights.DEFAULT.transforms()
    print(preset)
    show("video", preset(clip))
    preset = models.optical_flow.Raft_Small_Weights.DEFAULT.transforms()
    print(preset)
    show("flow", preset(image((1, 3, 32, 40)), image((1, 3, 32, 40), seed=1)))
    preset = models.detection.FasterRCNN_ResNet50_FPN_Weights.DEFAULT.transforms()
    print(preset)
    show("detection", preset(picture))


def small_ssd():
    """torchvision's ``SSD`` (default boxes, ``SSDHead``, hard negative mining) on MobileNetV3-Small's stride-8 and
    stride-16 stages (frozen BatchNorm), for 64x64 images and 3 classes: the detection reference's SSD at a size
    that trains in a second."""
    from collections import OrderedDict

    from torchvision.models import mobilenet_v3_small
    from torchvision.models.detection.anchor_utils import DefaultBoxGenerator
    from torchvision.models.detection.ssd import SSD, SSDHead
    from torchvision.ops.misc import FrozenBatchNorm2d

    class Backbone(torch.nn.Module):
        def __init__(self):
            super().__init__()
            features = mobilenet_v3_small(norm_layer=FrozenBatchNorm2d).features
            self.stride8, self.stride16 = features[:4], features[4:9]

        def forward(self, x):
            x = self.stride8(x)
            return OrderedDict([("0", x), ("1", self.stride16(x))])

    anchors = DefaultBoxGenerator([[2], [2, 3]])
    return SSD(Backbone(), anchors, (64, 64), 3, head=SSDHead([24, 48], anchors.num_anchors_per_location(), 3))
