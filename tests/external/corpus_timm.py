"""Drivers for timm's own Python code (``recipes_timm.py``; our text).

A recipe fetches one of timm's package modules (``timm/models/__init__.py``, ``timm/optim/__init__.py``...) as its
script, with timm's Python package and torchvision's beside it (timm's layers import torchvision's
``FrozenBatchNorm2d``: the runner loads the fetched torchvision in both runs, ``runner._real_torchvision``), and
appends calls to the drivers here. Neither run has ``huggingface_hub`` or ``safetensors`` (timm imports them
guarded), so no weights are downloaded: every model is built with ``pretrained=False``. The drivers do what timm's
README, documentation and tests do: ``timm.create_model`` (seeded) at a small image size, count the parameters, a
forward, backward and SGD steps on a tiny batch, ``forward_features``/``forward_head``, ``reset_classifier``,
``features_only`` backbones; timm's layers, optimizers (``create_optimizer_v2``), schedulers, losses, Mixup/CutMix
and model EMA on seeded tensors, printing shapes, sums and values.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def _values(t, n=6):
    """The first values to 5 decimals (fixed, not significant, digits: a logit near 0 is rounding noise)."""
    return [f"{v:.5f}" for v in t.detach().flatten()[:n].tolist()]


def show(name, out):
    """A tensor's shape, dtype, sum and first values (a tuple, list or dict: each part)."""
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
    total = out.double().abs().sum().item() if out.numel() else 0.0
    print(name, tuple(out.shape), str(out.dtype), f"abs sum {total:.6g}", _values(out))


def _summary(model):
    """Parameter and buffer counts, the number of modules and the state_dict's first and last keys with shapes."""
    state = model.state_dict()
    keys = [f"{k}{tuple(v.shape)}" for k, v in state.items()]
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()),
          "buffers:", sum(b.numel() for b in model.buffers()), "modules:", len(list(model.modules())))
    print("state_dict:", len(keys), "entries:", *keys[:3], "...", *keys[-2:])


def _freeze_bn(model):
    """BatchNorm layers (torch's and timm's BatchNormAct2d, a subclass) in eval mode: their running statistics. On a
    2-image batch of noise at 1x1 or 2x2 pixels a training-mode BatchNorm normalises a handful of values, which
    amplifies float32 rounding (as corpus_torchvision.classify's frozen_bn)."""
    model.apply(lambda m: m.eval() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm) else None)


def classify(name, shape=(3, 32, 32), *, classes=10, steps=2, lr=0.01, batch=2, frozen_bn=False, show_model=False,
             **kwargs):
    """``timm.create_model(name, pretrained=False, num_classes=classes, **kwargs)`` (seeded), its pretrained config,
    ``steps`` SGD steps (momentum 0.9) on a seeded batch, then in eval mode ``forward_features``, ``forward_head``
    (logits and pre-logits) and ``reset_classifier``, as timm's README and tests use them."""
    import timm

    torch.manual_seed(0)
    model = timm.create_model(name, pretrained=False, num_classes=classes, **kwargs)
    _summary(model)
    cfg = model.pretrained_cfg
    print("cfg", cfg.get("architecture"), cfg.get("input_size"), cfg.get("mean"), cfg.get("first_conv"),
          cfg.get("classifier"), "features", model.num_features, "classes", model.num_classes)
    if show_model:
        print(model)
    x = torch.randn(batch, *shape)
    y = torch.randint(0, classes, (batch,))
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.train()
    if frozen_bn:
        _freeze_bn(model)
    for step in range(steps):
        opt.zero_grad()
        out = model(x)
        loss = F.cross_entropy(out, y)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)
        opt.step()
        print(step, tuple(out.shape), f"loss {loss.item():.6g}", f"grad norm {norm.item():.6g}")
    print("no grad:", [n for n, p in model.named_parameters() if p.grad is None][:5])
    model.eval()
    with torch.no_grad():
        feats = model.forward_features(x)
        show("features", feats)
        show("pre_logits", model.forward_head(feats, pre_logits=True))
        out = model.forward_head(feats)
        print("eval", tuple(out.shape), _values(out), f"argmax {out.argmax(1).tolist()}")
        model.reset_classifier(5)
        print("reset", tuple(model(x).shape), model.get_classifier())
        model.reset_classifier(0)
        print("no classifier", tuple(model(x).shape))
    return model


def features(name, shape=(3, 64, 64), *, out_indices=None, **kwargs):
    """``features_only=True``: the backbone's feature maps (``feature_info``'s channels, reductions and module
    names), their shapes and sums, and a backward through them."""
    import timm

    torch.manual_seed(0)
    extra = {} if out_indices is None else {"out_indices": out_indices}
    model = timm.create_model(name, pretrained=False, features_only=True, **extra, **kwargs)
    print(type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    info = model.feature_info
    print("channels", info.channels(), "reduction", info.reduction(), "modules", info.module_name())
    model.eval()
    x = torch.randn(2, *shape, requires_grad=True)
    maps = model(x)
    for i, m in enumerate(maps):
        show(f"map{i}", m)
    sum(m.mean() for m in maps).backward()
    show("input grad", x.grad)


def models_tour():
    """timm's model registry and factory as its README shows them: ``list_models`` (wildcards, per module,
    pretrained tags), ``is_model``, pretrained configs, ``create_model`` with a pretrained tag, ``in_chans``,
    ``global_pool``, drop rates and a checkpoint path (``load_checkpoint``, ``torch.save``'d here)."""
    import timm
    from timm.models import load_checkpoint

    names = timm.list_models()
    print(len(names), names[:3], names[-2:])
    print(timm.list_models("resnet1*"), timm.list_models(["convnext_a*", "vit_tiny*"], exclude_filters="*dino*"))
    print(len(timm.list_models(pretrained=True)), timm.list_models("resnet18*", pretrained=True)[:4])
    print(timm.list_modules()[:5], timm.list_models(module="levit")[:3])
    print(timm.is_model("resnet50d"), timm.is_model("resnet500"), timm.is_model_pretrained("resnet18.a1_in1k"))
    cfg = timm.get_pretrained_cfg("resnet50d")
    print(type(cfg).__name__, sorted(k for k, v in cfg.to_dict().items() if v is not None)[:12])
    print(cfg.input_size, cfg.mean, cfg.std, cfg.crop_pct, cfg.interpolation, cfg.num_classes, cfg.hf_hub_id)
    print(timm.get_pretrained_cfg_value("vit_tiny_patch16_224", "input_size"), timm.model_entrypoint("resnet18"))
    from timm.models import get_arch_name, split_model_name_tag
    print(split_model_name_tag("resnet18.a1_in1k"), get_arch_name("vit_tiny_patch16_224.augreg_in21k"))
    torch.manual_seed(0)
    model = timm.create_model("resnet10t.c3_in1k", pretrained=False, num_classes=4, in_chans=1, global_pool="max",
                              drop_rate=0.1, drop_path_rate=0.1)
    _summary(model)
    print(model.pretrained_cfg["tag"], model.conv1, model.global_pool, model.fc)
    x = torch.randn(2, 1, 32, 32)
    model.eval()
    with torch.no_grad():
        before = model(x)
    show("before", before)
    torch.save(model.state_dict(), "resnet10t_small.pth")
    torch.manual_seed(1)
    other = timm.create_model("resnet10t", num_classes=4, in_chans=1, global_pool="max",
                              checkpoint_path="resnet10t_small.pth")
    other.eval()
    with torch.no_grad():
        print("from checkpoint_path", torch.equal(other(x), before))
    torch.manual_seed(2)
    third = timm.create_model("resnet10t", num_classes=4, in_chans=1, global_pool="max")
    print(load_checkpoint(third, "resnet10t_small.pth"))
    third.eval()
    with torch.no_grad():
        print("load_checkpoint", torch.equal(third(x), before))
    try:
        timm.create_model("no_such_model")
    except RuntimeError as exc:
        print("RuntimeError", exc)


def _layer(name, make, *shape, backward=True, **kw):
    """``make()`` (seeded), its forward on a seeded input of ``shape`` and a backward of a seeded projection of the
    output (not its sum: a normalised output sums to rounding noise): output, input and parameter gradients."""
    torch.manual_seed(0)
    module = make()
    x = torch.randn(*shape, **kw).requires_grad_(backward)
    out = module(x)
    show(name, out)
    if backward:
        first = out[0] if isinstance(out, (tuple, list)) else out
        (first * torch.randn(first.shape)).sum().backward()
        grads = [p.grad.abs().sum().item() for p in module.parameters() if p.grad is not None]
        print("  grad", f"{x.grad.abs().sum().item():.6g}", "params", len(grads), f"{sum(grads):.6g}")
    return module


def layers_tour():
    """timm.layers as timm's own models and tests use them: stochastic depth, weight init, standardised and
    'same'-padded convolutions, anti-aliased pooling, channel attention modules, activations by name, MLPs,
    patch embedding, attention and attention pooling, norm + activation layers, classifier heads and helpers."""
    from timm import layers as L

    torch.manual_seed(0)
    x = torch.randn(4, 3, 5, 5)
    print(L.drop_path(x, 0.5, training=True).flatten()[:8].tolist())
    dp = L.DropPath(0.25)
    print(dp, dp(x).abs().sum().item(), dp.eval()(x).equal(x))
    for fn, kwargs in ((L.trunc_normal_, dict(std=0.02)), (L.trunc_normal_tf_, dict(std=0.5, a=-1.0, b=1.0)),
                       (L.lecun_normal_, {}), (L.variance_scaling_, dict(scale=2.0, mode="fan_out"))):
        torch.manual_seed(0)
        w = torch.empty(64, 32, 3, 3)
        fn(w, **kwargs)
        print(fn.__name__, f"{w.mean().item():.6f} {w.std().item():.6f} {w.abs().max().item():.6f}", _values(w, 3))
    print(L.to_2tuple(3), L.make_divisible(37, 8), L.make_divisible(30, 16), L.get_padding(3, 2, 1),
          L.get_same_padding(7, 3, 2, 1), L.to_ntuple(3)(2))
    _layer("StdConv2d", lambda: L.StdConv2d(3, 8, 3, padding=1), 2, 3, 8, 8)
    _layer("StdConv2dSame", lambda: L.StdConv2dSame(3, 8, 3, stride=2, padding="SAME"), 2, 3, 9, 9)
    _layer("ScaledStdConv2d", lambda: L.ScaledStdConv2d(3, 8, 3, gain_init=0.5), 2, 3, 8, 8)
    _layer("Conv2dSame", lambda: L.Conv2dSame(3, 6, 4, stride=2), 2, 3, 9, 9)
    _layer("create_conv2d dw", lambda: L.create_conv2d(6, 6, 5, stride=2, padding="same", depthwise=True), 2, 6, 9, 9)
    _layer("create_conv2d mixed", lambda: L.create_conv2d(8, 8, [3, 5], padding=""), 2, 8, 7, 7)
    _layer("SeparableConv2d", lambda: L.SeparableConv2d(4, 8, 3), 2, 4, 7, 7)
    _layer("BlurPool2d", lambda: L.BlurPool2d(4, filt_size=3, stride=2), 2, 4, 8, 8)
    _layer("SpaceToDepth", lambda: L.SpaceToDepth(4), 2, 3, 8, 8)
    _layer("create_pool2d", lambda: L.create_pool2d("max", 3, stride=2, padding="same"), 2, 3, 9, 9)
    _layer("AvgPool2dSame", lambda: L.AvgPool2dSame(3, stride=2), 2, 3, 9, 9)
    for pool in ("avg", "max", "avgmax", "catavgmax"):
        _layer(f"SelectAdaptivePool2d {pool}", lambda pool=pool: L.SelectAdaptivePool2d(pool_type=pool, flatten=True),
               2, 4, 5, 5)
    for make in (lambda: L.SqueezeExcite(8, rd_ratio=0.25), lambda: L.SEModule(8, rd_ratio=0.5),
                 lambda: L.EffectiveSEModule(8), lambda: L.EcaModule(8), lambda: L.CecaModule(8),
                 lambda: L.get_attn("cbam")(8, rd_ratio=0.5), lambda: L.get_attn("gc")(8),
                 lambda: L.get_attn("ge")(8, extent=2, use_mlp=False), lambda: L.NonLocalAttn(8),
                 lambda: L.get_attn("sk")(8, 8)):
        torch.manual_seed(0)
        _layer(type(make()).__name__, make, 2, 8, 6, 6)
    for act in ("relu", "gelu", "gelu_tanh", "silu", "swish", "mish", "hard_swish", "hard_sigmoid", "elu", "prelu",
                "quick_gelu", "sigmoid", "tanh", "leaky_relu", "celu", "selu", "relu6"):
        layer = L.create_act_layer(act)
        _layer(f"act {act} {type(layer).__name__}", lambda act=act: L.create_act_layer(act), 3, 7)
    print(L.get_act_layer("swish"), L.get_act_layer("hard_swish"), L.get_norm_layer("layernorm2d"),
          L.get_norm_act_layer("batchnorm"))


def layers_tour2():
    """timm.layers' transformer blocks: MLPs (GLU, SwiGLU, gated, conv), patch embedding, attention (fused SDPA and
    the explicit path), latent and 2-D attention pooling, layer scale, norms, norm + activation layers, heads and
    position embeddings."""
    from timm import layers as L

    _layer("Mlp", lambda: L.Mlp(8, 16, 6, drop=0.0), 2, 5, 8)
    _layer("GluMlp", lambda: L.GluMlp(8, 16, act_layer=torch.nn.Sigmoid), 2, 5, 8)
    _layer("SwiGLU", lambda: L.SwiGLU(8, 16, norm_layer=torch.nn.LayerNorm), 2, 5, 8)
    _layer("GatedMlp", lambda: L.GatedMlp(8, 16, gate_layer=None), 2, 5, 8)
    _layer("ConvMlp", lambda: L.ConvMlp(8, 16, norm_layer=L.LayerNorm2d), 2, 8, 4, 4)
    pe = _layer("PatchEmbed", lambda: L.PatchEmbed(32, 8, 3, 16), 2, 3, 32, 32)
    print(pe.grid_size, pe.num_patches, pe.dynamic_img_pad, pe.flatten)
    _layer("PatchEmbed nhwc", lambda: L.PatchEmbed(None, 4, 3, 16, output_fmt="NHWC", dynamic_img_pad=True),
           2, 3, 10, 14)
    for fused in (True, False):
        def make(fused=fused):
            attn = L.Attention(16, num_heads=4, qkv_bias=True, qk_norm=True, norm_layer=torch.nn.LayerNorm)
            attn.fused_attn = fused
            return attn
        _layer(f"Attention fused={fused}", make, 2, 5, 16)
    _layer("AttentionPoolLatent", lambda: L.AttentionPoolLatent(16, num_heads=4, latent_len=2), 2, 5, 16)
    _layer("AttentionPool2d", lambda: L.AttentionPool2d(8, out_features=6, num_heads=2, feat_size=4), 2, 8, 4, 4)
    _layer("Attention2d", lambda: L.Attention2d(8, num_heads=2), 2, 8, 3, 3)
    _layer("LayerScale", lambda: L.LayerScale(8, init_values=1e-2), 2, 3, 8)
    for make in (lambda: L.LayerNorm(8), lambda: L.RmsNorm(8), lambda: L.SimpleNorm(8)):
        _layer(type(make()).__name__, make, 2, 3, 8)
    for make in (lambda: L.LayerNorm2d(8), lambda: L.RmsNorm2d(8), lambda: L.GroupNorm(8, 4), lambda: L.GroupNorm1(8),
                 lambda: L.BatchNormAct2d(8, act_layer="silu"), lambda: L.GroupNormAct(8, 4, act_layer="gelu"),
                 lambda: L.LayerNormAct2d(8, act_layer="relu"), lambda: L.EvoNorm2dS0(8, group_size=4),
                 lambda: L.EvoNorm2dB0(8), lambda: L.FilterResponseNormTlu2d(8)):
        _layer(type(make()).__name__, make, 2, 8, 4, 4)
    head = _layer("ClassifierHead", lambda: L.ClassifierHead(8, 5, pool_type="avg", drop_rate=0.0), 2, 8, 3, 3)
    head.reset(3, pool_type="max")
    print(head)
    _layer("NormMlpClassifierHead", lambda: L.NormMlpClassifierHead(8, 5, hidden_size=12), 2, 8, 3, 3)
    pos = torch.randn(1, 1 + 16, 8)
    print(tuple(L.resample_abs_pos_embed(pos, (6, 6), num_prefix_tokens=1).shape),
          _values(L.resample_abs_pos_embed(pos, (2, 3), (4, 4), num_prefix_tokens=1)))
    show("sincos2d", L.build_sincos2d_pos_embed((3, 4), 8))
    rope = L.RotaryEmbeddingCat(8, in_pixels=False, feat_shape=(2, 3))
    emb = rope.get_embed()
    show("rope", emb)
    show("apply_rot_embed_cat", L.apply_rot_embed_cat(torch.randn(1, 2, 6, 8), emb))
    print(L.PatchDropout(0.5, num_prefix_tokens=1).train()(torch.randn(2, 9, 4)).shape)


def _small_model():
    """A seeded small network of timm layers (conv stem, norm + activation, an MLP block, a head): 2-d weights,
    1-d biases and norm parameters, so ``create_optimizer_v2``'s weight-decay groups have both kinds."""
    from timm import layers as L

    torch.manual_seed(0)
    return torch.nn.Sequential(L.ConvNormAct(3, 8, 3, stride=2, act_layer="gelu"), L.SqueezeExcite(8),
                               L.SelectAdaptivePool2d(pool_type="avg", flatten=True), L.Mlp(8, 16, 8),
                               torch.nn.LayerNorm(8), torch.nn.Linear(8, 4))


def optimizers(names, *, steps=3, lr=None, weight_decay=0.05, **kwargs):
    """``timm.optim.create_optimizer_v2(model, name, ...)`` for each name on the same seeded model and batch:
    its class, param groups (weight decay off for biases and norms), ``steps`` steps of a regression loss, the
    losses and the parameters' change; then ``optimizer_kwargs``-style extra arguments where given."""
    from timm.optim import create_optimizer_v2, get_optimizer_class, get_optimizer_info

    torch.manual_seed(1)
    x, target = torch.randn(6, 3, 8, 8), torch.randn(6, 4)
    for name in names:
        model = _small_model()
        start = [p.detach().clone() for p in model.parameters()]
        extra = kwargs.get(name, {})
        opt = create_optimizer_v2(model, name, lr=lr if lr is not None else 1e-2, weight_decay=weight_decay, **extra)
        info = get_optimizer_info(name.split("_")[-1])  # (lookahead_adamw: AdamW's info)
        groups = [(len(g["params"]), g["weight_decay"], g["lr"]) for g in opt.param_groups]
        cls = get_optimizer_class(name, bind_defaults=False)
        print(name, type(opt).__name__, cls.__name__, info.has_betas, info.has_momentum, groups)
        losses = []
        for _ in range(steps):
            def closure(opt=opt, model=model, info=info):
                opt.zero_grad()
                loss = F.mse_loss(model(x), target)
                loss.backward(create_graph=info.second_order)
                return loss
            if info.second_order:
                loss = closure()
                opt.step()
            else:
                loss = opt.step(closure)
            losses.append(f"{loss.item():.6f}")
        moved = sum((p.detach() - s).abs().sum().item() for p, s in zip(model.parameters(), start))
        state = opt.state[next(model.parameters())]
        print("  ", losses, f"moved {moved:.5g}", sorted(state)[:6])


def schedulers():
    """timm.scheduler as its training script drives them: ``create_scheduler_v2`` for cosine (warmup, cycles,
    k-decay, noise), step, multistep, plateau, poly and tanh, stepped per epoch (``step(epoch)``) or per update
    (``step_update``); the learning rates of the first epochs, and ``state_dict`` round trips."""
    from timm.scheduler import CosineLRScheduler, PlateauLRScheduler, create_scheduler_v2

    def fresh(lr=0.1):
        return torch.optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=lr, momentum=0.9)

    for kwargs in (dict(sched="cosine", num_epochs=10, warmup_epochs=2, warmup_lr=1e-4, min_lr=1e-3),
                   dict(sched="cosine", num_epochs=4, cycle_limit=3, cycle_mul=1.5, cycle_decay=0.5, k_decay=2.0),
                   dict(sched="cosine", num_epochs=8, noise=0.25, noise_pct=0.3, warmup_epochs=1, warmup_prefix=True),
                   dict(sched="step", num_epochs=10, decay_epochs=3, decay_rate=0.5, warmup_epochs=1),
                   dict(sched="multistep", num_epochs=10, decay_milestones=[2, 5, 7], decay_rate=0.3),
                   dict(sched="poly", num_epochs=10, decay_rate=2.0, warmup_epochs=2, cooldown_epochs=2),
                   dict(sched="tanh", num_epochs=10, warmup_epochs=1, min_lr=1e-4)):
        opt = fresh()
        sched, epochs = create_scheduler_v2(opt, **kwargs)
        lrs = []
        for epoch in range(epochs):
            sched.step(epoch)
            lrs.append(f"{opt.param_groups[0]['lr']:.6g}")
        print(type(sched).__name__, epochs, lrs)
    opt = fresh()
    sched, epochs = create_scheduler_v2(opt, "cosine", num_epochs=2, warmup_epochs=1, step_on_epochs=False,
                                        updates_per_epoch=4)
    lrs = []
    for update in range(epochs * 4):
        sched.step_update(update)
        lrs.append(f"{opt.param_groups[0]['lr']:.6g}")
    print("per update", epochs, lrs)
    opt = fresh()
    plateau = PlateauLRScheduler(opt, decay_rate=0.5, patience_t=1, mode="min", warmup_t=1, warmup_lr_init=0.01)
    for epoch, metric in enumerate([1.0, 0.9, 0.95, 0.97, 0.96, 0.5, 0.6, 0.7]):
        plateau.step(epoch, metric)
        print("plateau", epoch, metric, f"{opt.param_groups[0]['lr']:.6g}")
    opt = fresh()
    sched = CosineLRScheduler(opt, t_initial=5, lr_min=0.01, warmup_t=1, warmup_lr_init=0.001)
    for epoch in range(3):
        sched.step(epoch)
    state = sched.state_dict()
    print(sorted(state)[:8], state.get("t_initial"))
    other = CosineLRScheduler(fresh(), t_initial=50)
    other.load_state_dict(state)
    print(other.t_initial, other._get_lr(3), sched._get_lr(3))


def losses():
    """timm.loss as timm's training script uses them: label smoothing, soft targets (Mixup's), binary cross-entropy
    with smoothing and a threshold, Jensen-Shannon consistency over AugMix splits and the asymmetric losses, with
    the gradients of their inputs."""
    from timm.loss import (
        AsymmetricLossMultiLabel,
        AsymmetricLossSingleLabel,
        BinaryCrossEntropy,
        JsdCrossEntropy,
        LabelSmoothingCrossEntropy,
        SoftTargetCrossEntropy,
    )

    torch.manual_seed(0)
    logits = torch.randn(6, 5) * 2
    labels = torch.tensor([0, 3, 1, 4, 2, 3])
    soft = torch.softmax(torch.randn(6, 5), 1)
    multi = (torch.rand(6, 5) > 0.6).float()
    cases = [("LabelSmoothingCrossEntropy", LabelSmoothingCrossEntropy(0.1), labels),
             ("LabelSmoothing 0.3", LabelSmoothingCrossEntropy(smoothing=0.3), labels),
             ("SoftTargetCrossEntropy", SoftTargetCrossEntropy(), soft),
             ("BinaryCrossEntropy", BinaryCrossEntropy(smoothing=0.1), labels),
             ("BinaryCrossEntropy soft", BinaryCrossEntropy(target_threshold=0.2, sum_classes=True), soft),
             ("BinaryCrossEntropy pos_weight", BinaryCrossEntropy(pos_weight=torch.tensor([1.0, 2, 1, 1, 3])), labels),
             ("AsymmetricLossMultiLabel", AsymmetricLossMultiLabel(), multi),
             ("AsymmetricLossSingleLabel", AsymmetricLossSingleLabel(), labels),
             ("JsdCrossEntropy", JsdCrossEntropy(num_splits=3, alpha=12, smoothing=0.1), labels[:2].repeat(3)),
             ("JsdCrossEntropy no smoothing", JsdCrossEntropy(num_splits=2, smoothing=0.0), labels[:3].repeat(2))]
    for name, loss_fn, target in cases:
        x = logits.clone().requires_grad_()
        loss = loss_fn(x, target)
        loss.backward()
        print(name, f"{loss.item():.6g}", _values(x.grad, 4), f"{x.grad.abs().sum().item():.6g}")


def data_tour():
    """timm.data on seeded tensors as its training script uses it: ``Mixup`` (mixup, cutmix, switching, per batch,
    pair and element, label smoothing; NumPy's seeded RNG draws the mixing), its target and box helpers,
    ``RandomErasing`` (per-pixel, random colour and constant), ``resolve_data_config`` from a model and the eval
    transform ``create_transform`` builds (torchvision's, applied to a float image tensor)."""
    import numpy as np
    import timm
    from timm.data import Mixup, create_transform, resolve_data_config
    from timm.data.mixup import cutmix_bbox_and_lam, mixup_target, rand_bbox
    from timm.data.random_erasing import RandomErasing

    np.random.seed(0)
    torch.manual_seed(0)
    x = torch.rand(4, 3, 16, 16)
    target = torch.tensor([0, 2, 1, 3])
    print(mixup_target(target, 5, lam=0.7, smoothing=0.1))
    print(rand_bbox((3, 16, 16), 0.6), cutmix_bbox_and_lam((3, 16, 16), 0.5, ratio_minmax=(0.2, 0.8)))
    for kwargs in (dict(mixup_alpha=0.8), dict(mixup_alpha=0.0, cutmix_alpha=1.0), dict(mixup_alpha=0.8,
                   cutmix_alpha=1.0, switch_prob=0.5, label_smoothing=0.1), dict(cutmix_alpha=1.0, mixup_alpha=0.0,
                   cutmix_minmax=(0.3, 0.7)), dict(mixup_alpha=0.4, mode="pair"), dict(mixup_alpha=0.4, mode="elem",
                   prob=0.7), dict(mixup_alpha=1.0, cutmix_alpha=1.0, mode="elem", correct_lam=False)):
        mixer = Mixup(num_classes=5, **kwargs)
        for _ in range(2):
            mixed, soft = mixer(x.clone(), target)
            print(kwargs, f"{mixed.double().sum().item():.6g}", _values(mixed[0], 3), _values(soft, 5))
    for kwargs in (dict(probability=1.0, mode="pixel"), dict(probability=1.0, mode="rand", max_count=3),
                   dict(probability=1.0, mode="const", min_area=0.1, max_area=0.3), dict(probability=0.5,
                   mode="pixel", num_splits=2)):
        eraser = RandomErasing(device="cpu", **kwargs)
        out = eraser(x.clone())
        print(eraser, f"{out.double().sum().item():.6g}", int((out != x).sum()))
    torch.manual_seed(0)
    model = timm.create_model("mobilenetv3_small_050", pretrained=False)
    config = resolve_data_config({}, model=model)
    print(config)
    transform = create_transform(**config)
    print(transform)
    show("eval transform", transform(torch.rand(3, 240, 260)))
    config = resolve_data_config({"input_size": (3, 32, 32), "crop_pct": 0.9, "interpolation": "bilinear",
                                  "crop_mode": "squash"}, model=model)
    print(config, create_transform(**config))
    print(create_transform(32, is_training=True, auto_augment="rand-m9-mstd0.5-inc1", re_prob=0.25, hflip=0.5))


def utils_tour():
    """timm.utils as timm's training script uses them: the three model EMAs (decay warm-up) over a few SGD steps,
    top-k ``accuracy`` and ``AverageMeter``, the gradient clipping modes (norm, value, adaptive), freezing and
    unfreezing a model's parts (BatchNorm into torchvision's ``FrozenBatchNorm2d``), ``get_state_dict``,
    ``unwrap_model`` and ``reparameterize_model`` on a re-parameterisable FastViT."""
    import timm
    from timm.utils import (
        AverageMeter,
        ModelEma,
        ModelEmaV2,
        ModelEmaV3,
        accuracy,
        adaptive_clip_grad,
        dispatch_clip_grad,
        freeze,
        get_state_dict,
        reparameterize_model,
        unfreeze,
        unwrap_model,
    )

    torch.manual_seed(0)
    model = timm.create_model("resnet10t", pretrained=False, num_classes=5)
    emas = [ModelEma(model, decay=0.9), ModelEmaV2(model, decay=0.8),
            ModelEmaV3(model, decay=0.99, use_warmup=True, warmup_power=0.75), ModelEmaV3(model, decay=0.9,
                                                                                        foreach=False)]
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = torch.randn(4, 3, 32, 32), torch.tensor([0, 1, 4, 2])
    meter = AverageMeter()
    _freeze_bn(model)
    for step in range(3):
        opt.zero_grad()
        out = model(x)
        loss = F.cross_entropy(out, y)
        loss.backward()
        dispatch_clip_grad(model.parameters(), 1.0, mode=("norm", "value", "agc")[step])
        opt.step()
        for ema in emas:
            if isinstance(ema, ModelEmaV3):
                ema.update(model, step=step)
            else:
                ema.update(model)
        meter.update(loss.item(), x.size(0))
        top1, top3 = accuracy(out, y, topk=(1, 3))
        print(step, f"{loss.item():.6g}", f"{top1.item():.4g} {top3.item():.4g}", f"{meter.avg:.6g}")
    print([f"{emas[2].get_decay(s):.6g}" for s in range(4)])
    for ema in emas:
        module = ema.ema if isinstance(ema, ModelEma) else ema.module
        weight = module.conv1[0].weight
        print(type(ema).__name__, f"{weight.double().abs().sum().item():.6g}", _values(weight, 3))
    grads = [p.grad.clone() for p in model.parameters()]
    adaptive_clip_grad(model.parameters(), clip_factor=0.01)
    print("agc", f"{sum(g.abs().sum().item() for g in grads):.6g}",
          f"{sum(p.grad.abs().sum().item() for p in model.parameters()):.6g}")
    state = get_state_dict(model)
    print(len(state), list(state)[:3], unwrap_model(model) is model)
    freeze(model, ["conv1", "layer1"])
    print(type(model.conv1[1]).__name__, type(model.layer1[0].bn1).__name__,
          sum(p.requires_grad for p in model.parameters()), sum(1 for _ in model.parameters()))
    unfreeze(model, ["layer1"])
    print(type(model.layer1[0].bn1).__name__, sum(p.requires_grad for p in model.parameters()))
    torch.manual_seed(0)
    fast = timm.create_model("fastvit_t8", pretrained=False, num_classes=3).eval()
    x = torch.randn(1, 3, 64, 64)
    with torch.no_grad():
        before = fast(x)
        fused = reparameterize_model(fast)
        after = fused(x)
    print(sum(p.numel() for p in fast.parameters()), sum(p.numel() for p in fused.parameters()),
          _values(before), _values(after), f"{(before - after).abs().max().item() < 1e-3}")


def intermediates(name, shape=(3, 32, 32), *, indices=2, **kwargs):
    """``forward_intermediates`` (timm's feature API for ViTs and most families): the last ``indices`` blocks'
    outputs beside the final features, then ``prune_intermediate_layers`` and the pruned model's outputs."""
    import timm

    torch.manual_seed(0)
    model = timm.create_model(name, pretrained=False, **kwargs).eval()
    x = torch.randn(2, *shape)
    with torch.no_grad():
        final, inter = model.forward_intermediates(x, indices=indices)
        show(f"{name} final", final)
        show(f"{name} intermediates", inter)
        only = model.forward_intermediates(x, indices=[0], intermediates_only=True)
        show(f"{name} first only", only)
        print("pruned", model.prune_intermediate_layers(indices=1, prune_head=True))
        show(f"{name} pruned", model.forward_intermediates(x, indices=1, intermediates_only=True))


def training_tour():
    """What timm's training script does beyond a forward: gradient checkpointing (``set_grad_checkpointing``:
    ``torch.utils.checkpoint`` per block, same gradients), channels-last memory format and ``resume_checkpoint`` of
    a model with its optimizer state."""
    import timm
    from timm.models import resume_checkpoint

    x = torch.randn(2, 3, 32, 32)
    y = torch.tensor([1, 3])
    for name, kwargs in (("vit_tiny_patch16_224", dict(img_size=32, depth=3)), ("resnet10t", {})):
        grads = []
        for checkpointing in (False, True):
            torch.manual_seed(0)
            model = timm.create_model(name, pretrained=False, num_classes=5, **kwargs)
            model.eval()
            model.set_grad_checkpointing(checkpointing)
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            grads.append(torch.cat([p.grad.flatten() for p in model.parameters()]))
            print(name, "checkpointing", checkpointing, f"{loss.item():.6g}", f"{grads[-1].abs().sum().item():.6g}")
        print("  same gradients", torch.allclose(grads[0], grads[1], rtol=1e-4, atol=1e-6))
    torch.manual_seed(0)
    model = timm.create_model("resnet10t", pretrained=False, num_classes=5).eval()
    with torch.no_grad():
        plain = model(x)
        last = model.to(memory_format=torch.channels_last)(x.contiguous(memory_format=torch.channels_last))
    print("channels_last", model.conv1[0].weight.is_contiguous(memory_format=torch.channels_last),
          torch.allclose(plain, last, atol=1e-5))
    torch.manual_seed(0)
    model = timm.create_model("resnet10t", pretrained=False, num_classes=5)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    F.cross_entropy(model(x), y).backward()
    opt.step()
    torch.save({"epoch": 3, "state_dict": model.state_dict(), "optimizer": opt.state_dict(), "version": 2},
               "checkpoint.pth.tar")
    torch.manual_seed(1)
    other = timm.create_model("resnet10t", pretrained=False, num_classes=5)
    other_opt = torch.optim.AdamW(other.parameters(), lr=1e-3)
    start = resume_checkpoint(other, "checkpoint.pth.tar", optimizer=other_opt, log_info=False)
    state = other_opt.state_dict()
    print("resumed at", start, len(state["state"]), state["param_groups"][0]["lr"],
          all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), other.state_dict().values())))


def analysis_tour():
    """timm's analysis helpers: the explicit (non-fused) attention path, attention maps by fx node and by hook
    (``AttentionExtract``), fx-traced feature extraction (``feature_cls='fx'``) and signal-propagation statistics
    (``extract_spp_stats``)."""
    import timm
    from timm.layers import set_fused_attn
    from timm.utils.attention_extract import AttentionExtract
    from timm.utils.model import avg_ch_var, avg_sq_ch_mean, extract_spp_stats

    x = torch.randn(2, 3, 32, 32)
    torch.manual_seed(0)
    vit = timm.create_model("vit_tiny_patch16_224", pretrained=False, img_size=32, depth=2, num_classes=5).eval()
    with torch.no_grad():
        fused = vit(x)
        set_fused_attn(False)
        torch.manual_seed(0)
        explicit_vit = timm.create_model("vit_tiny_patch16_224", pretrained=False, img_size=32, depth=2,
                                         num_classes=5).eval()
        explicit = explicit_vit(x)
        set_fused_attn(True)
    print("fused attn", vit.blocks[0].attn.fused_attn, explicit_vit.blocks[0].attn.fused_attn,
          torch.allclose(fused, explicit, atol=1e-5), _values(explicit))
    for method in ("fx", "hook"):
        extractor = AttentionExtract(explicit_vit, method=method)
        with torch.no_grad():
            maps = extractor(x)
        print("attention", method, extractor.names)
        show("  maps", maps)
    torch.manual_seed(0)
    backbone = timm.create_model("resnet10t", pretrained=False, features_only=True, feature_cls="fx",
                                 out_indices=(2, 4)).eval()
    print(type(backbone).__name__, backbone.feature_info.channels(), backbone.feature_info.module_name())
    with torch.no_grad():
        show("fx features", backbone(x))
    torch.manual_seed(0)
    stats = extract_spp_stats(timm.create_model("resnet10t", pretrained=False).eval(), ["layer?", "layer?"],
                              [avg_sq_ch_mean, avg_ch_var], input_shape=[2, 3, 32, 32])
    for key, values in stats.items():
        print("spp", key, [f"{v:.5g}" for v in values])


def adaptation_tour():
    """Weights moved between configurations as timm's docs show: ``pretrained=True`` from a local file
    (``pretrained_cfg_overlay=dict(file=...)``, no hub) into a model with another class count (the classifier is
    dropped) and one input channel (``adapt_input_conv`` sums the RGB filters); a ViT at another image size
    (``dynamic_img_size``, ``set_input_size`` resampling its position embedding); ``torch.jit.script`` and
    ``torch.jit.trace`` of timm models (their outputs)."""
    import timm

    torch.manual_seed(0)
    source = timm.create_model("resnet10t", pretrained=False)
    torch.save(source.state_dict(), "resnet10t_in1k.pth")
    x = torch.randn(2, 3, 32, 32)
    for kwargs in (dict(num_classes=7), dict(in_chans=1, num_classes=1000), dict(in_chans=5)):
        torch.manual_seed(1)
        model = timm.create_model("resnet10t", pretrained=True, pretrained_cfg_overlay=dict(file="resnet10t_in1k.pth"),
                                  **kwargs).eval()
        w = model.conv1[0].weight
        print(kwargs, tuple(w.shape), f"{w.double().abs().sum().item():.6g}", model.fc,
              torch.equal(model.layer1[0].conv1.weight, source.layer1[0].conv1.weight))
        with torch.no_grad():
            show("  out", model(torch.randn(2, kwargs.get("in_chans", 3), 32, 32)))
    torch.manual_seed(0)
    vit = timm.create_model("vit_tiny_patch16_224", pretrained=False, img_size=32, depth=2, num_classes=4,
                            dynamic_img_size=True).eval()
    with torch.no_grad():
        for size in ((32, 32), (48, 32), (64, 80)):
            show(f"dynamic {size}", vit(torch.randn(1, 3, *size)))
        vit = timm.create_model("vit_tiny_patch16_224", pretrained=False, img_size=32, depth=2, num_classes=4).eval()
        vit.set_input_size(img_size=(48, 64))
        print(tuple(vit.pos_embed.shape), vit.patch_embed.grid_size)
        show("set_input_size", vit(torch.randn(1, 3, 48, 64)))
    for name, kwargs in (("resnet10t", {}), ("vit_tiny_patch16_224", dict(img_size=32, depth=2))):
        torch.manual_seed(0)
        model = timm.create_model(name, pretrained=False, num_classes=4, scriptable=True, **kwargs).eval()
        with torch.no_grad():
            eager = model(x)
            scripted = torch.jit.script(model)(x)
            traced = torch.jit.trace(model, x)(x)
        print(name, "script", torch.allclose(eager, scripted, atol=1e-5),
              "trace", torch.allclose(eager, traced, atol=1e-5), _values(eager, 4))
