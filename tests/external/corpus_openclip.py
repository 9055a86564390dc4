"""Drivers for open_clip's own Python code (``recipes_openclip.py``; our text).

A recipe fetches open_clip's ``__init__.py`` as its script (run as the package's module), with open_clip's package
(its model configs and BPE vocabulary), timm's and torchvision's beside it (the runner loads all three in both runs),
and appends calls to the drivers here. They do what open_clip's README, docs and tests do: a model config of our own,
small (``open_clip.add_model_config`` on a folder of JSON files written here, as its tests add theirs), built through
``create_model_and_transforms`` without pretrained weights (seeded), its preprocessing applied to seeded image
tensors, its tokenizer on a few captions, ``encode_image``/``encode_text``/``forward`` with ``logit_scale``, zero-shot
probabilities as the README computes them, the losses with ``output_dict`` and a few training steps. Values print
at fixed decimals (5) or, for scalars, 8 significant digits.
"""

from __future__ import annotations

import json
import os
import types

import torch
from corpus_show import show as show_value

CAPTIONS = ["a diagram", "a dog", "a cat", "a photo of a red car on the road"]
_CONFIGS = "openclip_configs"  # the folder beside the script that the small configs are written to


def _oc():
    import open_clip

    return open_clip


def _abs_sum(t) -> str:
    total = t.detach().double().abs().sum().item() if t.numel() else 0.0
    return f"abs sum {total:.7g}"


def show(name, out):
    """A tensor's shape, dtype, first values and abs sum (a tuple, list or dict: each part): ``corpus_show``'s."""
    show_value(name, out, summary=_abs_sum)


def _scalar(x):
    return f"{float(x):.8g}"


def register(name, cfg):
    """``cfg`` written as ``openclip_configs/NAME.json`` and that folder added with ``open_clip.add_model_config``."""
    os.makedirs(_CONFIGS, exist_ok=True)
    with open(os.path.join(_CONFIGS, f"{name}.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    _oc().add_model_config(_CONFIGS)
    return name


def vit_cfg(embed_dim=32, *, vision=None, text=None, **top):
    """A CLIP config at a tenth of ViT-B-32's sizes: 32x32 images in 8x8 patches, 2 blocks a tower, 16 tokens."""
    cfg = {"embed_dim": embed_dim,
           "vision_cfg": {"image_size": 32, "patch_size": 8, "width": 64, "head_width": 16, "layers": 2},
           "text_cfg": {"context_length": 16, "vocab_size": 49408, "width": 32, "heads": 4, "layers": 2}}
    cfg["vision_cfg"].update(vision or {})
    cfg["text_cfg"].update(text or {})
    cfg.update(top)
    return cfg


def images(n=4, size=32, seed=1):
    """Seeded images in [0, 1], channels first (what ``ToTensor`` makes of a picture), a little larger than the model's
    input, so the preprocessing resizes and crops."""
    g = torch.Generator().manual_seed(seed)
    return [torch.rand(3, size + 8, size + 12, generator=g) for _ in range(n)]


def batch(n=2, size=32, seed=2):
    """``n`` seeded images of the model's size, normalised as the preprocessing leaves them."""
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 3, size, size, generator=g)


def clip(name, cfg, *, captions=CAPTIONS, steps=2, lr=1e-3, show_model=False, **kwargs):
    """``create_model_and_transforms`` (seeded), the README's zero-shot recipe, the forward's outputs, ClipLoss (or
    SigLipLoss with a logit bias) with ``output_dict`` and ``steps`` AdamW steps."""
    oc = _oc()
    register(name, cfg)
    torch.manual_seed(0)
    model, preprocess_train, preprocess = oc.create_model_and_transforms(name, pretrained=None, **kwargs)
    tokenizer = oc.get_tokenizer(name, context_length=getattr(model, "context_length", None))
    print(name, type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()),
          "modules:", len(list(model.modules())), "output_dict:", getattr(model, "output_dict", None))
    if show_model:
        print(model)
    print("preprocess:", preprocess)
    print("preprocess_train:", preprocess_train)
    print("preprocess cfg:", oc.get_model_preprocess_cfg(model), "tokenize cfg:", oc.get_model_tokenize_cfg(model))
    size = model.visual.image_size if hasattr(model.visual, "image_size") else 32
    size = size[0] if isinstance(size, (tuple, list)) else size
    image = torch.stack([preprocess(im) for im in images(len(captions), size)])
    text = tokenizer(captions)
    show("image", image)
    show("text", text)
    model.eval()
    with torch.no_grad():
        image_features = model.encode_image(image)
        text_features = model.encode_text(text)
        show("image_features", image_features)
        show("text_features", text_features)
        image_features = image_features / image_features.norm(dim=-1, keepdim=True)
        text_features = text_features / text_features.norm(dim=-1, keepdim=True)
        show("text_probs", (100.0 * image_features @ text_features.T).softmax(dim=-1))
        show("normalized", model.encode_image(image, normalize=True))
        out = model(image, text)
        show("forward", out)
        if hasattr(model, "get_logits"):
            show("get_logits", model.get_logits(image, text))
    train(model, image, text, steps=steps, lr=lr)
    return model


def _loss_for(model):
    from open_clip.loss import ClipLoss, SigLipLoss

    return SigLipLoss() if getattr(model, "logit_bias", None) is not None else ClipLoss()


def train(model, image, text, *, steps=2, lr=1e-3, loss=None):
    """``steps`` AdamW steps on the contrastive loss of a batch (the training script's loop in miniature)."""
    if not steps:
        return
    loss_fn = loss or _loss_for(model)
    model.train()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr, weight_decay=0.1)
    for step in range(steps):
        out = model(image, text)
        if isinstance(out, dict):
            args = {k: v for k, v in out.items() if k in ("image_features", "text_features", "logit_scale",
                                                          "logit_bias")}
        else:
            names = ["image_features", "text_features", "logit_scale", "logit_bias"][:len(out)]
            args = dict(zip(names, out))
        if type(loss_fn).__name__ == "SigLipLoss":
            args.setdefault("logit_bias", None)
        losses = loss_fn(**args, output_dict=True)
        total = sum(losses.values())
        opt.zero_grad()
        total.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1e9)
        opt.step()
        with torch.no_grad():
            model.logit_scale.clamp_(0, 4.6052)
        print("step", step, {k: _scalar(v) for k, v in losses.items()}, "grad norm", f"{float(norm):.5g}",
              "logit_scale", _scalar(model.logit_scale.exp().flatten()[0]))


def model_tour(name, cfg, **kwargs):
    """What open_clip's model classes offer beside the forward: ``forward_intermediates``, ``no_weight_decay``,
    ``lock_image_tower``/``lock_text_tower`` (trainable parameters left), gradient checkpointing (the same loss and
    gradients), ``output_dict``, and a checkpoint saved and loaded back through ``create_model(pretrained=path)``."""
    oc = _oc()
    register(name, cfg)
    torch.manual_seed(0)
    model = oc.create_model(name, output_dict=True, **kwargs)
    image = batch(2, 32)
    text = oc.get_tokenizer(name)(CAPTIONS[:2])
    model.eval()
    with torch.no_grad():
        out = model(image, text)
        print("output_dict keys:", sorted(out))
        show("out", out)
        inter = model.forward_intermediates(image, text, image_indices=2, text_indices=[0, 1],
                                            output_logit_scale_bias=True)
        show("intermediates", inter)
        only = model.forward_intermediates(image, text, image_indices=1, intermediates_only=True,
                                           image_output_fmt="NLC")
        show("intermediates_only", only)
    print("no_weight_decay:", sorted(model.no_weight_decay()))
    trainable = lambda: sum(p.numel() for p in model.parameters() if p.requires_grad)  # noqa: E731
    print("trainable:", trainable())
    model.train()
    loss_fn = oc.ClipLoss()
    grads = []
    for checkpointing in (False, True):
        model.set_grad_checkpointing(checkpointing)
        model.zero_grad()
        out = model(image, text)
        loss = loss_fn(out["image_features"], out["text_features"], out["logit_scale"])
        loss.backward()
        grads.append(torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None]))
        print("checkpointing", checkpointing, "loss", _scalar(loss), "grad abs sum", f"{grads[-1].abs().sum():.6g}")
    print("checkpointed grads match:", torch.allclose(grads[0], grads[1], atol=1e-6))
    model.set_grad_checkpointing(False)
    model.lock_image_tower(unlocked_groups=0)
    print("image tower locked:", trainable())
    model.lock_text_tower(unlocked_layers=1, freeze_layer_norm=True)
    print("text tower locked but its last layer:", trainable())
    path = os.path.join(_CONFIGS, f"{name}.pt")
    torch.save({"epoch": 3, "state_dict": {f"module.{k}": v for k, v in model.state_dict().items()}}, path)
    torch.manual_seed(1)
    again = oc.create_model(name, pretrained=path, output_dict=True, **kwargs).eval()
    with torch.no_grad():
        same = again(image, text)
    print("reloaded matches:", all(torch.equal(out_v, same[k]) for k, out_v in model.eval()(image, text).items()))


def tokenizers():
    """open_clip's BPE tokenizer (``tokenize``, ``decode``, ``SimpleTokenizer`` and its cleaning and reduction
    modes, ``get_tokenizer``) on a few captions."""
    oc = _oc()
    from open_clip import tokenizer as tk

    texts = ["A photo of a DOG.", "Two  cats   sleeping on a sofa!!", "an image of the number 42, in HTML &amp; text",
             "The quick brown fox jumps over the lazy dog's back, then runs into the woods at 10pm."]
    tokens = oc.tokenize(texts)
    show("tokenize", tokens)
    for row in tokens:
        print(row[row != 0].tolist())
    print([oc.decode(row[row != 0]) for row in tokens])
    print("context 8:", oc.tokenize(texts, context_length=8).tolist())
    t = tk.SimpleTokenizer()
    print("vocab", t.vocab_size, "special", t.all_special_ids, t.sot_token_id, t.eot_token_id)
    print(t.encode(texts[3]))
    print(repr(t.decode(t.encode(texts[3]))))
    print([t.bpe(w) for w in ("photograph", "unbelievable", "tokenizer", "CLIP")])
    for clean in ("lower", "whitespace", "canonicalize"):  # (one tokenizer: building one reads 49k merges)
        t.clean_fn = tk.get_clean_fn(clean)
        print(clean, [t.encode(x)[:10] for x in texts[:3]], t(texts[1], context_length=24).tolist())
    t.clean_fn = tk.get_clean_fn("lower")
    extra = tk.SimpleTokenizer(additional_special_tokens=["<mask>", "<sep>"], context_length=12)
    print("extra specials", extra.all_special_ids, extra("a <mask> on a <sep> mat").tolist())
    print("canonicalize", [tk.canonicalize_text(x) for x in texts],
          tk.canonicalize_text("keep {} this, please!", keep_punctuation_exact_string="{}"))
    for mode in ("simple", "random", "shuffle"):
        torch.manual_seed(0)
        __import__("random").seed(0)
        t.reduction_fn = tk.get_reduction_mask_fn(mode)
        print(mode, t(texts, context_length=10).tolist())
    g = oc.get_tokenizer("ViT-B-32")
    print(type(g).__name__, g.context_length, g(["a diagram"]).shape, oc.get_tokenizer("ViT-B-32", context_length=5)(
        texts[:2]).tolist())


def losses():
    """open_clip's losses on seeded features: ClipLoss (cached labels), CoCaLoss, DistillClipLoss and SigLipLoss,
    each with ``output_dict``, and their gradients; ``create_loss`` from training arguments."""
    oc = _oc()
    from open_clip.loss import SigLipLoss

    torch.manual_seed(0)
    img = torch.nn.functional.normalize(torch.randn(6, 16), dim=-1).requires_grad_()
    txt = torch.nn.functional.normalize(torch.randn(6, 16), dim=-1).requires_grad_()
    scale = torch.tensor(14.285714, requires_grad=True)
    bias = torch.tensor(-10.0, requires_grad=True)
    clip_loss = oc.ClipLoss(cache_labels=True)
    for _ in range(2):
        value = clip_loss(img, txt, scale)
    print("ClipLoss", _scalar(value), clip_loss(img, txt, scale, output_dict=True), clip_loss.labels,
          clip_loss.prev_num_logits)
    show("ClipLoss logits", clip_loss.get_logits(img, txt, scale, logit_bias=bias))
    value.backward()
    show("grad img", img.grad)
    show("grad scale", scale.grad)
    logits = torch.randn(6, 7, 50, requires_grad=True)
    labels = torch.randint(0, 50, (6, 7))
    labels[:, 5:] = 0
    coca = oc.CoCaLoss(caption_loss_weight=2.0, clip_loss_weight=1.0, pad_id=0)
    parts = coca(img, txt, logits, labels, scale, output_dict=True)
    print("CoCaLoss", {k: _scalar(v) for k, v in parts.items()})
    sum(parts.values()).backward()
    show("grad logits", logits.grad)
    print("CoCaLoss no clip", [_scalar(v) for v in oc.CoCaLoss(1.0, 0.0)(img, txt, logits, labels, scale)])
    teacher_img, teacher_txt = torch.randn(6, 16), torch.randn(6, 16)
    distill = oc.DistillClipLoss()(img, txt, scale, teacher_img, teacher_txt, torch.tensor(10.0), output_dict=True)
    print("DistillClipLoss", {k: _scalar(v) for k, v in distill.items()})
    sig = SigLipLoss()
    img.grad = None
    value = sig(img, txt, scale, bias)
    parts = sig(img, txt, scale, bias, output_dict=True)
    print("SigLipLoss", _scalar(value), {k: _scalar(v) for k, v in parts.items()})
    show("SigLip labels", sig.get_ground_truth("cpu", torch.float32, 4))
    value.backward()
    show("grad img", img.grad)
    show("grad bias", bias.grad)
    for kind in ({}, {"distill": True}, {"model": "coca_ViT-B-32"}, {"siglip": True}):
        args = types.SimpleNamespace(distill=False, model="ViT-B-32", siglip=False, local_loss=False,
                                     gather_with_grad=False, rank=0, world_size=1, horovod=False,
                                     coca_caption_loss_weight=2.0, coca_contrastive_loss_weight=1.0,
                                     loss_dist_impl=None)
        vars(args).update(kind)
        print(kind, type(oc.create_loss(args)).__name__)


def coca_cfg(embed_dim=32):
    """CoCa at coca_ViT-B-32's layout, small: an attentional-pool ViT with output tokens, a text tower with a CLS
    embedding, a 2-layer multimodal decoder; the tokenizer's 49408 ids."""
    return {"embed_dim": embed_dim,
            "vision_cfg": {"image_size": 32, "layers": 2, "width": 64, "head_width": 16, "patch_size": 8,
                           "attentional_pool": True, "attn_pooler_heads": 4, "attn_pooler_queries": 8,
                           "output_tokens": True},
            "text_cfg": {"context_length": 12, "vocab_size": 49408, "width": 32, "heads": 4, "layers": 2,
                         "embed_cls": True, "output_tokens": True},
            "multimodal_cfg": {"context_length": 12, "vocab_size": 49408, "width": 32, "heads": 4, "layers": 2,
                               "attn_pooler_heads": 4},
            "custom_text": True}


def _init_projection(decoder):
    """open_clip 3.3.0's MultimodalTransformer makes its ``text_projection`` with ``torch.empty`` and never initialises
    it (its ``init_parameters`` is not called and reads a ``self.transformer`` it lacks): what torch's run would read
    is whatever memory it got, so the driver draws it as ``init_parameters`` means to (seeded)."""
    torch.nn.init.normal_(decoder.text_projection, std=decoder.width ** -0.5)


def _bind_generation():
    """open_clip 3.3.0's coca_model imports transformers' generation pieces in one ``try`` whose last name,
    ``BeamSearchScorer``, transformers 4.57 no longer exports from ``transformers`` or ``transformers.generation``
    (the class is still in ``transformers.generation.beam_search``): the import fails and ``generate`` asserts
    transformers is missing. The names that import binds are bound here, from the modules that hold them."""
    from open_clip import coca_model
    from transformers import generation
    from transformers.generation.beam_search import BeamSearchScorer

    for name in ("LogitsProcessorList", "TopPLogitsWarper", "TopKLogitsWarper", "RepetitionPenaltyLogitsProcessor",
                 "MinLengthLogitsProcessor", "MaxLengthCriteria", "StopStringCriteria", "EosTokenCriteria",
                 "StoppingCriteriaList"):
        setattr(coca_model, name, getattr(generation, name))
    coca_model.BeamSearchScorer = BeamSearchScorer
    coca_model.GENERATION_TYPES = {"top_k": generation.TopKLogitsWarper, "top_p": generation.TopPLogitsWarper,
                                   "beam_search": "beam_search"}
    coca_model._has_transformers = True


def coca(name="tiny-coca", *, steps=2, generate=()):
    """CoCa from ``create_model_and_transforms``: its forward's dict, CoCaLoss with ``output_dict`` over a few AdamW
    steps, then ``generate`` with each ``generation_type`` asked (transformers' logits processors)."""
    oc = _oc()
    register(name, coca_cfg())
    torch.manual_seed(0)
    model, _, preprocess = oc.create_model_and_transforms(name)
    _init_projection(model.text_decoder)
    print(name, type(model).__name__, "parameters:", sum(p.numel() for p in model.parameters()))
    image = torch.stack([preprocess(im) for im in images(3, 32)])
    text = oc.get_tokenizer(name)(CAPTIONS[1:])
    model.eval()
    with torch.no_grad():
        out = model(image, text)
        show("forward", out)
        show("image only", model(image))
        show("encode_image", model.encode_image(image))
        show("encode_text", model.encode_text(text, normalize=False))
    loss_fn = oc.CoCaLoss(caption_loss_weight=2.0, clip_loss_weight=1.0, pad_id=0)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model.train()
    for step in range(steps):
        out = model(image, text)
        parts = loss_fn(**{k: out[k] for k in ("image_features", "text_features", "logits", "labels",
                                               "logit_scale")}, output_dict=True)
        opt.zero_grad()
        sum(parts.values()).backward()
        opt.step()
        print("step", step, {k: _scalar(v) for k, v in parts.items()})
    model.eval()
    if generate:
        _bind_generation()
    for kind, kwargs in generate:
        torch.manual_seed(0)
        tokens = model.generate(image[:2], generation_type=kind, seq_len=8, **kwargs)
        print("generate", kind, kwargs, tokens.tolist())
        print([oc.decode(row) for row in tokens])


def transformer_pieces():
    """``open_clip.transformer``'s building blocks on seeded inputs: its Attention (plain, QK-norm, scaled cosine,
    head scales, inner norm), the residual and custom blocks, Transformer with intermediates, AttentionalPooler,
    LayerScale, PatchDropout, QuickGELU, LayerNormFp32, text_global_pool and the multimodal decoder."""
    from open_clip import transformer as tr

    torch.manual_seed(0)
    x = torch.randn(2, 5, 16)
    mask = torch.full((5, 5), float("-inf")).triu(1)
    # (not scaled_cosine: open_clip 3.3.0's scaled cosine attention calls torch.bmm on 4-D heads, which both refuse)
    for kwargs in ({}, {"qk_norm": True}, {"scale_heads": True, "inner_norm": True}):
        attn = tr.Attention(16, num_heads=4, **kwargs)
        y = attn(x, attn_mask=mask)
        y.sum().backward()
        show(f"Attention {kwargs}", y)
        show("  in_proj_weight grad", attn.in_proj_weight.grad)
    for block in (tr.ResidualAttentionBlock(16, 4, ls_init_value=0.1),
                  tr.ResidualAttentionBlock(16, 4, act_layer=tr.QuickGELU, is_cross_attention=True),
                  tr.CustomResidualAttentionBlock(16, 4, qk_norm=True, scale_attn=True, scale_fc=True),
                  tr.CustomResidualAttentionBlock(16, 4, scale_heads=True, scale_attn_inner=True)):
        with torch.no_grad():
            if getattr(block, "ln_1_kv", None) is not None:
                show(type(block).__name__ + " cross", block(x, k_x=x[:, :3], v_x=x[:, :3]))
            else:
                show(type(block).__name__, block(x, attn_mask=mask))
    t = tr.Transformer(16, 3, 4, ls_init_value=1e-2)
    with torch.no_grad():
        show("Transformer", t(x, attn_mask=mask))
        last, inter = t.forward_intermediates(x, indices=[0, 2], attn_mask=mask)
        show("Transformer intermediates", [last, *inter])
    print("pruned", t.prune_intermediate_layers(2), len(t.resblocks))
    custom = tr.CustomTransformer(16, 2, 4, ls_init_value=0.1)
    with torch.no_grad():
        show("CustomTransformer", custom(x))
    pooler = tr.AttentionalPooler(8, 16, n_head=2, n_queries=3)
    with torch.no_grad():
        show("AttentionalPooler", pooler(x))
    show("LayerScale", tr.LayerScale(16, init_values=0.5)(x))
    show("QuickGELU", tr.QuickGELU()(x))
    show("LayerNormFp32", tr.LayerNormFp32(16)(x.half()))
    show("LayerNorm half", tr.LayerNorm(16)(x.half()))
    drop = tr.PatchDropout(0.5)
    torch.manual_seed(1)
    show("PatchDropout train", drop.train()(torch.randn(2, 9, 4)))
    show("PatchDropout eval", drop.eval()(x))
    tokens = torch.tensor([[49406, 320, 1929, 49407, 0], [49406, 1237, 49407, 0, 0]])
    for pool in ("first", "last", "argmax", "eos", "none"):
        show(f"text_global_pool {pool}", tr.text_global_pool(x, tokens, pool_type=pool, eos_token_id=49407))
    mm = tr.MultimodalTransformer(16, 2, 4, context_length=5, output_dim=20)
    _init_projection(mm)
    with torch.no_grad():
        show("MultimodalTransformer", mm(torch.randn(2, 7, 16), x))
    print("build_attention_mask", mm.build_attention_mask()[:3].tolist())


def text_towers(**variants):
    """TextTransformer for each variant of its configuration (pool type, CLS embedding, no causal mask, MLP or no
    projection, layer scale), on the tokenizer's ids: pooled and token outputs, and ``lock``."""
    oc = _oc()
    from open_clip import transformer as tr

    text = oc.tokenize(CAPTIONS, context_length=12)
    for label, kwargs in variants.items():
        torch.manual_seed(0)
        tower = tr.TextTransformer(context_length=12, vocab_size=49408, width=32, heads=4, layers=2, output_dim=24,
                                   output_tokens=True, **kwargs)
        with torch.no_grad():
            show(label, tower(text))
            inter = tower.forward_intermediates(text, indices=1, output_fmt="NLC")
            show(label + " intermediates", inter)
        tower.lock(unlocked_layers=1)
        print(label, "trainable after lock(1):", sum(p.numel() for p in tower.parameters() if p.requires_grad))


def vision_towers(**variants):
    """VisionTransformer for each variant of its configuration (pool types, attentional pooler, 2-D sin-cos
    positions, no pre-norm, final norm after pooling, custom blocks, patch dropout in training), seeded."""
    from open_clip import transformer as tr

    image = batch(2, 32)
    for label, kwargs in variants.items():
        torch.manual_seed(0)
        tower = tr.VisionTransformer(image_size=32, patch_size=8, width=32, layers=2, heads=4, mlp_ratio=2.0,
                                     output_dim=24, **kwargs)
        with torch.no_grad():
            show(label, tower.eval()(image))
            inter = tower.forward_intermediates(image, indices=[0], output_extra_tokens=True)
            show(label + " intermediates", inter)
        torch.manual_seed(1)
        out = tower.train()(image)
        out = out[0] if isinstance(out, tuple) else out
        out.square().sum().backward()
        grads = [p.grad.abs().sum().item() for p in tower.parameters() if p.grad is not None]
        print(label, "train", f"{out.square().sum().item():.7g}", "grad abs sum", f"{sum(grads):.6g}",
              "no_weight_decay", sorted(tower.no_weight_decay()))


def rn_cfg(embed_dim=32):
    """RN50's layout (a ModifiedResNet: three-conv stem, anti-aliased strided blocks, attention pooling) with one
    block a stage and a width of 8, on 64x64 images (attention pools the 2x2 grid)."""
    return vit_cfg(embed_dim, vision={"image_size": 64, "layers": [1, 1, 1, 1], "width": 8, "head_width": 16,
                                      "patch_size": None})


def timm_cfg(model_name, embed_dim=32, **vision):
    """A timm image tower (``timm_model_name``: one of timm's test models) with open_clip's own text tower."""
    return vit_cfg(embed_dim, vision={"timm_model_name": model_name, "timm_model_pretrained": False,
                                      "image_size": 32, **vision})


def resnet_tour(name="tiny-rn"):
    """ModifiedResNet's own methods: ``forward_intermediates``, ``lock`` with frozen BatchNorm statistics, and the
    BatchNorm running statistics after a training forward."""
    oc = _oc()
    register(name, rn_cfg())
    torch.manual_seed(0)
    model = oc.create_model(name)
    visual = model.visual
    image = batch(2, 64)
    with torch.no_grad():
        inter = visual.forward_intermediates(image)
        show("intermediates", inter)
        visual.train()(image)
    show("bn1 running_mean", visual.bn1.running_mean)
    show("bn1 running_var", visual.bn1.running_var)
    model.lock_image_tower(unlocked_groups=0, freeze_bn_stats=True)
    print("trainable", sum(p.numel() for p in visual.parameters() if p.requires_grad),
          [type(m).__name__ for m in visual.modules()][:8])


def zero_shot(name="tiny-vit", classes=12, templates=3):
    """The zero-shot classifier as open_clip_train's ``zero_shot_eval`` builds it (``build_zero_shot_classifier``
    over ImageNet class names and templates, in batches; the legacy one-class-at-a-time builder agrees) and its
    ``run`` over a loader of seeded images with labels: top-1 and top-5 accuracy."""
    oc = _oc()
    from open_clip_train import zero_shot as zs

    register(name, vit_cfg())
    torch.manual_seed(0)
    model, _, preprocess = oc.create_model_and_transforms(name)
    model.eval()
    tokenizer = oc.get_tokenizer(name)
    names = oc.IMAGENET_CLASSNAMES[:classes]
    print(len(oc.IMAGENET_CLASSNAMES), names, len(oc.OPENAI_IMAGENET_TEMPLATES), len(oc.SIMPLE_IMAGENET_TEMPLATES))
    chosen = oc.OPENAI_IMAGENET_TEMPLATES[:templates]
    print([t("goldfish") for t in chosen])
    classifier = oc.build_zero_shot_classifier(model, tokenizer=tokenizer, classnames=names, templates=chosen,
                                               num_classes_per_batch=5, device="cpu", use_tqdm=True)
    show("classifier", classifier)
    legacy = oc.build_zero_shot_classifier_legacy(model, tokenizer, names, chosen)
    print("legacy agrees:", torch.allclose(classifier, legacy, atol=1e-6))
    formatted = oc.build_zero_shot_classifier(model, tokenizer, names[:4], ["a photo of a {}.", "a {} in the wild."],
                                              num_classes_per_batch=None)
    show("format templates", formatted)
    images_ = torch.stack([preprocess(im) for im in images(10, 32, seed=3)])
    labels = torch.arange(10) % classes
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images_, labels), batch_size=4)
    with torch.no_grad():
        logits = 100.0 * model.encode_image(images_, normalize=True) @ classifier
    show("logits", logits)
    print("top-5", logits.topk(5, 1, True, True)[1].t().tolist(), "predicted", logits.argmax(dim=1).tolist())
    args = types.SimpleNamespace(device="cpu", precision="fp32", batch_size=4, zeroshot_frequency=1, epochs=1,
                                 distributed=False, horovod=False, model=name)
    print("zero_shot_eval without ImageNet:", zs.zero_shot_eval(model, {}, 1, args))
    print("get_autocast fp32:", zs.get_autocast("fp32"), "amp_bf16:", zs.get_autocast("amp_bf16", "cpu").func)
    # last: its accuracy() takes float() of a 1-element 1-D array, which NumPy 2.4 refuses in both runs
    print("run", zs.run(model, classifier, loader, args))


def schedulers():
    """open_clip_train's learning-rate schedules (``const_lr``, ``const_lr_cooldown`` with its power, ``cosine_lr``)
    stepped over a short run on an AdamW, as its training loop calls them each step."""
    from open_clip_train import scheduler as sc

    model = torch.nn.Linear(4, 2)
    for label, make in (("const", lambda o: sc.const_lr(o, 0.1, 3, 12)),
                        ("cooldown", lambda o: sc.const_lr_cooldown(o, 0.1, 3, 12, 5, cooldown_power=2.0,
                                                                    cooldown_end_lr=0.01)),
                        ("cosine", lambda o: sc.cosine_lr(o, 0.1, 3, 12))):
        opt = torch.optim.AdamW(model.parameters(), lr=0.5)
        step = make(opt)
        print(label, [f"{step(i):.6f}" for i in range(12)], opt.param_groups[0]["lr"])


def factory_tour():
    """open_clip's registries: the model configs it ships (``list_models``, ``get_model_config``), the pretrained
    tags (``list_pretrained``, by model and by tag, their configs and URLs), ``parse_model_name``'s schemas, and
    ``create_model``'s refusals (an unknown name, an unknown tag, a missing local folder)."""
    oc = _oc()
    from open_clip import factory

    names = oc.list_models()
    print(len(names), names[:12], names[-5:])
    for name in ("ViT-B-32", "RN50", "coca_ViT-B-32", "ViT-B-16-SigLIP"):
        print(name, json.dumps(oc.get_model_config(name), sort_keys=True))
    tags = oc.list_pretrained()
    print(len(tags) > 50, tags[:5], oc.list_pretrained(as_str=True)[:3])
    print(oc.list_pretrained_tags_by_model("ViT-B-32")[:6], oc.list_pretrained_models_by_tag("openai")[:6])
    print(oc.is_pretrained_cfg("ViT-B-32", "openai"), oc.is_pretrained_cfg("ViT-B-32", "nothing"))
    cfg = oc.get_pretrained_cfg("ViT-B-32", "laion2b_s34b_b79k")
    print(sorted(cfg), cfg.get("hf_hub"), oc.get_pretrained_url("RN50", "openai")[:40])
    for spec in ("ViT-B-32", "hf-hub:timm/ViT-B-16-SigLIP", "local-dir:/tmp/model"):
        print(spec, factory.parse_model_name(spec))
    for call in (lambda: oc.create_model("no-such-model"),
                 lambda: oc.create_model("ViT-B-32", pretrained="no-such-tag"),
                 lambda: oc.create_model("local-dir:/no/such/folder")):
        try:
            call()
        except Exception as e:  # the library's own refusals, printed as they read
            print(type(e).__name__, str(e)[:160])
    print(oc.get_model_config("no-such-model"), oc.OPENAI_DATASET_MEAN, oc.OPENAI_DATASET_STD)


def preprocessing():
    """open_clip's image transforms on seeded image tensors: ``image_transform`` for evaluation in each resize mode
    (shortest, longest with ``CenterCropOrPad``, squash), for training with an ``AugmentationCfg`` (random resized
    crop, colour jitter, grayscale: seeded), and ``image_transform_v2`` from a ``PreprocessCfg``."""
    oc = _oc()
    from open_clip import transform as tf

    torch.manual_seed(0)
    picture = torch.rand(3, 30, 44)
    # (not resize_mode "longest" nor a non-square "shortest": their ResizeKeepRatio reads a PIL image's size)
    for mode in ("shortest", "squash"):
        t = tf.image_transform(24, is_train=False, resize_mode=mode,
                               interpolation="bilinear" if mode == "squash" else "bicubic", fill_color=0)
        print(mode, t)
        show(mode, t(picture))
    print(tf.image_transform(24, is_train=False, resize_mode="longest", fill_color=0))
    show("center_crop_or_pad", tf.center_crop_or_pad(picture, [36, 20], fill=0.5))
    show("CenterCropOrPad", tf.CenterCropOrPad(40, fill=1)(picture))
    aug = tf.AugmentationCfg(scale=(0.5, 1.0), color_jitter=(0.4, 0.4, 0.4, 0.1), color_jitter_prob=0.8,
                             gray_scale_prob=0.5)
    train = oc.image_transform(24, is_train=True, aug_cfg=aug)
    print(train)
    __import__("random").seed(0)
    torch.manual_seed(0)
    for i in range(3):
        show(f"train {i}", train(picture))
    cfg = tf.PreprocessCfg(size=20, mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25), resize_mode="squash")
    print(cfg, cfg.num_channels, cfg.input_size)
    show("v2", tf.image_transform_v2(cfg, is_train=False)(picture))
    print(tf.merge_preprocess_kwargs(cfg, interpolation="bilinear", size=16))


def openai_weights(half_forward=True):
    """What open_clip does with OpenAI-format checkpoints and older weights: ``build_model_from_openai_state_dict``
    infers a CLIP from a state dict's shapes (float16 weights, as OpenAI's), ``convert_weights_to_lp`` and
    ``convert_to_custom_text_state_dict``, ``resize_pos_embed`` to a larger image size and
    ``resize_text_pos_embed`` to a longer context, and ``pos_embed``'s 2-D sin-cos tables."""
    oc = _oc()
    from open_clip import model as m
    from open_clip import pos_embed

    torch.manual_seed(0)
    cfg = vit_cfg(text={"width": 64, "heads": 1})
    small = m.CLIP(cfg["embed_dim"], cfg["vision_cfg"], cfg["text_cfg"], quick_gelu=True)
    state = small.state_dict()
    built = m.build_model_from_openai_state_dict(dict(state), cast_dtype=None)
    print(type(built).__name__, built.visual.image_size, built.context_length, built.vocab_size,
          sorted({str(p.dtype) for p in built.parameters()}))
    image, text = batch(2, 32), oc.tokenize(CAPTIONS[:2], context_length=16)
    with torch.no_grad():
        if half_forward:  # (float16 attention: recipes_openclip's openclip_fp16 says how core differs)
            show("built (float16 weights) image", built.encode_image(image.half()))
            show("built (float16 weights) text", built.encode_text(text))
        show("original image", small.eval().encode_image(image))
    m.convert_weights_to_lp(small, dtype=torch.bfloat16)
    print(sorted({str(p.dtype) for p in small.parameters()}))
    custom = m.convert_to_custom_text_state_dict(dict(state))
    print(sorted(k for k in custom if k.startswith("text."))[:6])
    bigger = m.CLIP(cfg["embed_dim"], dict(cfg["vision_cfg"], image_size=48), dict(cfg["text_cfg"], context_length=20))
    resized = dict(state)
    m.resize_pos_embed(resized, bigger)
    m.resize_text_pos_embed(resized, bigger)
    show("resized visual.positional_embedding", resized["visual.positional_embedding"])
    show("resized positional_embedding", resized["positional_embedding"])
    print(bigger.load_state_dict(resized, strict=False))
    table = pos_embed.get_2d_sincos_pos_embed(16, 4, cls_token=True)
    print(table.shape, table.dtype, [f"{v:.6f}" for v in table[1:3].flatten()[:8]])


def hf_text():
    """open_clip's Hugging Face text tower (``hf_model``): its poolers as its own test_poolers runs them, then
    ``HFTextEncoder`` around a small RoBERTa built from a config (transformers' own modeling code) with each pooler
    and projection, its token outputs, padding masked by the config's pad id, ``lock`` of all but the last layer,
    and a contrastive step of an image tower against it."""
    from open_clip.hf_model import _POOLERS, HFTextEncoder
    from transformers import RobertaConfig
    from transformers.modeling_outputs import BaseModelOutput

    bs, sl, d = 2, 10, 5
    h = torch.arange(sl).repeat(bs).reshape(bs, sl)[..., None] * torch.linspace(0.2, 1., d)
    mask = torch.ones(bs, sl, dtype=torch.bool)
    mask[:2, 6:] = False
    for name, cls in _POOLERS.items():
        show(name, cls()(BaseModelOutput(h), mask))
    cfg = RobertaConfig(vocab_size=120, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=64, max_position_embeddings=40, pad_token_id=1)
    torch.manual_seed(1)
    tokens = torch.randint(3, 120, (3, 10))
    tokens[1, 7:] = 1
    tokens[2, 4:] = 1
    # (no projection only where the width is the output's: HFTextEncoder sets none otherwise)
    for pooler, proj, dim in (("mean_pooler", "linear", 24), ("cls_pooler", "mlp", 24),
                              ("cls_last_hidden_state_pooler", None, 32)):
        torch.manual_seed(0)
        encoder = HFTextEncoder("roberta", dim, config=cfg, pooler_type=pooler, proj_type=proj, output_tokens=True)
        encoder.eval()
        with torch.no_grad():
            pooled, token_out = encoder(tokens)
        show(f"{pooler} {proj}", pooled)
        show("  tokens", token_out)
        print("  vocab", encoder.vocab_size, "context", encoder.context_length, type(encoder.proj).__name__)
    encoder.lock(unlocked_layers=1, freeze_layer_norm=True)
    print("trainable after lock(1):", sum(p.numel() for p in encoder.parameters() if p.requires_grad))
    encoder.lock(unlocked_layers=0, freeze_layer_norm=False)
    print("trainable after lock(0):", sum(p.numel() for p in encoder.parameters() if p.requires_grad))
    torch.manual_seed(0)
    encoder = HFTextEncoder("roberta", 24, config=cfg, pooler_type="mean_pooler", proj_type="mlp")
    from open_clip import transformer as tr

    vision = tr.VisionTransformer(image_size=32, patch_size=8, width=32, layers=2, heads=4, mlp_ratio=2.0,
                                  output_dim=24)
    params = list(encoder.parameters()) + list(vision.parameters())
    opt = torch.optim.AdamW(params, lr=1e-3)
    loss_fn = _oc().ClipLoss()
    image = batch(3, 32)
    for step in range(2):
        loss = loss_fn(torch.nn.functional.normalize(vision(image), dim=-1),
                       torch.nn.functional.normalize(encoder(tokens), dim=-1), torch.tensor(10.0))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("step", step, _scalar(loss))


def training(name="tiny-train", *, epochs=2, accum_freq=1, distill=False, coca=False, precision="fp32"):
    """open_clip_train's own loop: ``train_one_epoch`` (its scheduler each step, gradient clipping, the logit scale
    clamped; with ``accum_freq`` its feature cache across batches; with ``distill`` a teacher CLIP and
    DistillClipLoss) over a loader of seeded images and captions, then ``evaluate``'s retrieval metrics
    (``get_clip_metrics``) and loss on a held-out loader. Its log lines carry wall-clock rates; the driver prints
    the losses and parameters instead."""
    oc = _oc()
    from open_clip_train import scheduler as sc
    from open_clip_train import train as tr

    register(name, coca_cfg() if coca else vit_cfg())
    torch.manual_seed(0)
    model, _, preprocess = oc.create_model_and_transforms(name, output_dict=True)
    if coca:
        _init_projection(model.text_decoder)
    tokenizer = oc.get_tokenizer(name)
    words = ["dog", "cat", "car", "tree", "boat", "bird", "house", "horse"]
    captions = [f"a photo of a {w}" for w in words] + [f"a drawing of a {w}" for w in words[:4]]

    def loader(seed, n, batch_size):
        pictures = torch.stack([preprocess(im) for im in images(n, 32, seed=seed)])
        dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(pictures, tokenizer(captions[:n])),
                                         batch_size=batch_size, shuffle=False)
        dl.num_batches, dl.num_samples = len(dl), n
        return types.SimpleNamespace(dataloader=dl, set_epoch=lambda epoch: None)

    data = {"train": loader(4, 12, 4), "val": loader(5, 8, 4)}
    args = types.SimpleNamespace(device="cpu", precision=precision, distill=distill, accum_freq=accum_freq,
                                 skip_scheduler=False, horovod=False, grad_clip_norm=1.0, log_every_n_steps=1,
                                 world_size=1, rank=0, local_rank=0, batch_size=4, wandb=False, epochs=epochs,
                                 val_frequency=1, distributed=False, save_logs=False, zeroshot_frequency=0,
                                 model=name, coca_caption_loss_weight=2.0, coca_contrastive_loss_weight=1.0,
                                 siglip=False, local_loss=False, gather_with_grad=False)
    loss = oc.create_loss(args)
    dist_model = None
    if distill:
        torch.manual_seed(1)
        dist_model = oc.create_model(name, output_dict=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.2, betas=(0.9, 0.98), eps=1e-6)
    scheduler = sc.cosine_lr(optimizer, 1e-3, 2, epochs * (3 // accum_freq))
    print(type(loss).__name__, "metrics before:", _metrics(tr.evaluate(model, data, 0, args)))
    for epoch in range(epochs):
        tr.train_one_epoch(model, data, loss, epoch, optimizer, None, scheduler, dist_model, args)
        total = sum(p.detach().double().abs().sum().item() for p in model.parameters())
        print("epoch", epoch, "lr", f"{optimizer.param_groups[0]['lr']:.6g}", "parameters abs sum", f"{total:.7g}",
              "logit_scale", _scalar(model.logit_scale))
        print("  metrics:", _metrics(tr.evaluate(model, data, epoch + 1, args)))
    meter = tr.AverageMeter()
    for v in (1.0, 3.0, 2.0):
        meter.update(v, n=2)
    print("AverageMeter", meter.val, meter.avg, meter.count)


def _metrics(metrics):
    return {k: (round(float(v), 5) if isinstance(v, float) or hasattr(v, "dtype") else v) for k, v in metrics.items()}


def local_dir(name="tiny-local"):
    """A model saved as open_clip's Hub layout (``push_to_hf_hub.save_config_for_hf``'s ``open_clip_config.json``
    with the weights beside it) and loaded back through ``create_model_from_pretrained('local-dir:...')`` and
    ``get_tokenizer('local-dir:...')``, with its preprocessing read from the config."""
    oc = _oc()
    import importlib
    from pathlib import Path

    hub = importlib.import_module("open_clip.push_to_hf_hub")  # (the package's name is its function's)
    cfg = vit_cfg()
    register(name, cfg)
    torch.manual_seed(0)
    model = oc.create_model(name, force_preprocess_cfg={"mean": (0.5, 0.5, 0.5), "std": (0.5, 0.5, 0.5)})
    folder = Path(_CONFIGS) / "local"
    folder.mkdir(parents=True, exist_ok=True)
    hub.save_config_for_hf(model, folder / "open_clip_config.json", model_config=cfg)
    torch.save(model.state_dict(), folder / "open_clip_pytorch_model.bin")
    print(json.dumps(json.load(open(folder / "open_clip_config.json")), sort_keys=True))
    again, preprocess = oc.create_model_from_pretrained(f"local-dir:{folder}")
    tokenizer = oc.get_tokenizer(f"local-dir:{folder}")
    print(type(again).__name__, preprocess, type(tokenizer).__name__, tokenizer.context_length)
    image = torch.stack([preprocess(im) for im in images(2, 32)])
    with torch.no_grad():
        show("reloaded", again(image, tokenizer(CAPTIONS[:2])))
        # (close, not equal: torch's GEMMs round by the weights' memory alignment, which a reload changes)
        print("same as saved:", torch.allclose(again.encode_image(image), model.eval().encode_image(image),
                                               atol=1e-6))



def partial_locks(name="tiny-locks"):
    """Fine-tuning with part of each tower frozen, as open_clip_train's ``--lock-image-unlocked-groups`` and
    ``--lock-text-unlocked-layers`` do: ``lock_image_tower`` leaving the last groups trainable, ``lock_text_tower``
    its last layers, then AdamW steps that move only those (the frozen parameters' sums stay)."""
    oc = _oc()
    register(name, vit_cfg(vision={"layers": 3}, text={"layers": 3}))
    image, captions = batch(4, 32), CAPTIONS
    for groups, layers in ((1, 0), (2, 1), (4, 2)):
        torch.manual_seed(0)
        model = oc.create_model(name)
        model.lock_image_tower(unlocked_groups=groups)
        model.lock_text_tower(unlocked_layers=layers, freeze_layer_norm=True)
        trainable = sorted(n for n, p in model.named_parameters() if p.requires_grad)
        print(groups, layers, len(trainable), trainable[:4], trainable[-3:])
        frozen = {n: p.detach().clone() for n, p in model.named_parameters() if not p.requires_grad}
        train(model, image, oc.get_tokenizer(name)(captions), steps=2)
        print("  frozen unchanged:", all(torch.equal(p, frozen[n]) for n, p in model.named_parameters()
                                        if n in frozen))
