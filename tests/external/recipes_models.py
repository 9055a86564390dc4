"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Model definitions from research repositories (2026-12-05, corpus helper K): each model file is the script, with
its imports made local and a few lines appended after its last statement that build the model at a small,
seeded configuration and run ``corpus_models.report`` (one forward and backward, printed) on a small random input.
"""

from __future__ import annotations

from recipe_kit import _r

RECIPES: list[dict] = []

CLIP = ("openai/CLIP", "d05afc436d78f1c48dc0dbf8e5980a9d471f35f6", "MIT")


def _model(name, source, path, last, driver, edits=(), **kw):
    """``path`` with ``driver`` appended after ``last`` (the file's final text) and a seed before it."""
    run = f"{last}\n\n\nimport torch\ntorch.manual_seed(0)\nfrom corpus_models import report\n{driver}\n"
    return _r(name, source, path, [*edits, (last, run)], **kw)


CLIP_LAST = "    model.load_state_dict(state_dict)\n    return model.eval()"
RECIPES += [
    _model("clip_modified_resnet", CLIP, "clip/model.py", CLIP_LAST,
           "model = ModifiedResNet((1, 1, 1, 1), output_dim=16, heads=2, input_resolution=64, width=8)\n"
           "report(model, torch.randn(2, 3, 64, 64))"),
    _model("clip_vision_transformer", CLIP, "clip/model.py", CLIP_LAST,
           "model = VisionTransformer(input_resolution=32, patch_size=8, width=32, layers=2, heads=4, output_dim=16)\n"
           "report(model, torch.randn(2, 3, 32, 32), show=True)"),
    _model("clip_vit_text", CLIP, "clip/model.py", CLIP_LAST,
           "model = CLIP(16, 32, 2, 64, 8, context_length=12, vocab_size=100, transformer_width=32,\n"
           "             transformer_heads=4, transformer_layers=2)\n"
           "text = torch.randint(1, 100, (3, 12))\n"
           "print(model.build_attention_mask()[:3, :4], model.logit_scale)\n"
           "report(model, torch.randn(2, 3, 32, 32), text)\n"
           "model.zero_grad()\n"
           "with torch.no_grad():\n"
           "    print(model.encode_text(text)[:, :4], model.encode_image(torch.randn(1, 3, 32, 32))[:, :4])"),
    _model("clip_resnet_text_fp16", CLIP, "clip/model.py", CLIP_LAST,
           "model = CLIP(16, 64, (1, 1, 1, 1), 8, None, context_length=8, vocab_size=50, transformer_width=64,\n"
           "             transformer_heads=2, transformer_layers=1)\n"
           "report(model, torch.randn(2, 3, 64, 64), torch.randint(1, 50, (2, 8)))\n"
           "state = model.state_dict()\n"
           "built = build_model(state)\n"
           "print(built.visual.conv1.weight.dtype, built.ln_final.weight.dtype, built.logit_scale.dtype)\n"
           "print(sorted({str(p.dtype) for p in built.parameters()}), built.context_length, built.vocab_size)\n"
           "with torch.no_grad():\n"
           "    print(built.encode_text(torch.randint(1, 50, (2, 8)))[:, :4])"),
]

DINO = ("facebookresearch/dino", "7c446df5b9f45747937fb0d72314eb9f7b66930a", "Apache-2.0")
DINO_LAST = "        x = self.last_layer(x)\n        return x"
DINO_UTILS = [("utils.py", "utils.py")]  # its trunc_normal_ (PIL is the runner's stub)
RECIPES += [
    _model("dino_vit", DINO, "vision_transformer.py", DINO_LAST,
           "model = VisionTransformer(img_size=[32], patch_size=8, embed_dim=32, depth=2, num_heads=4, qkv_bias=True,\n"
           "                          norm_layer=partial(nn.LayerNorm, eps=1e-6), drop_path_rate=0.1)\n"
           "print(model.pos_embed[0, :3, :4], [b.drop_path for b in model.blocks])\n"
           "report(model, torch.randn(2, 3, 32, 32))\n"
           "report(model, torch.randn(2, 3, 48, 40))  # a larger image: bicubic interpolation of the position embedding\n"
           "model.eval()\n"
           "with torch.no_grad():\n"
           "    attn = model.get_last_selfattention(torch.randn(1, 3, 32, 32))\n"
           "    print(attn.shape, attn[0, :, 0, 1:].sum(-1), attn[0, 0, 0])\n"
           "    print([t.shape for t in model.get_intermediate_layers(torch.randn(1, 3, 32, 32), n=2)])",
           support=DINO_UTILS),
    _model("dino_head", DINO, "vision_transformer.py", DINO_LAST,
           "head = DINOHead(32, 64, use_bn=True, nlayers=3, hidden_dim=48, bottleneck_dim=16)\n"
           "print(head.last_layer, head.last_layer.weight_g.shape, head.last_layer.weight_g.requires_grad)\n"
           "report(head, torch.randn(4, 32), show=True)\n"
           "print(head.last_layer.weight_v.grad.norm(), head.last_layer.weight.shape)",
           support=DINO_UTILS),
]

DINO_TRAIN = """if __name__ == '__main__':
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="0")  # one process: the loss's all_reduce is a no-op
    dist.init_process_group("gloo", rank=0, world_size=1)
    torch.manual_seed(0)

    def vit(drop_path_rate):
        return vits.VisionTransformer(img_size=[32], patch_size=8, embed_dim=32, depth=2, num_heads=4, qkv_bias=True,
                                      drop_path_rate=drop_path_rate)
    student = utils.MultiCropWrapper(vit(0.1), DINOHead(32, 64, hidden_dim=48, bottleneck_dim=16))
    teacher = utils.MultiCropWrapper(vit(0.0), DINOHead(32, 64, hidden_dim=48, bottleneck_dim=16))
    teacher.load_state_dict(student.state_dict())
    for p in teacher.parameters():
        p.requires_grad = False
    print(utils.has_batchnorms(student), [len(g["params"]) for g in utils.get_params_groups(student)])
    optimizer = torch.optim.AdamW(utils.get_params_groups(student))
    lr_schedule = utils.cosine_scheduler(5e-4, 1e-6, 2, 3, warmup_epochs=1)
    wd_schedule = utils.cosine_scheduler(0.04, 0.4, 2, 3)
    momentum_schedule = utils.cosine_scheduler(0.996, 1, 2, 3)
    print(lr_schedule, wd_schedule)
    dino_loss = DINOLoss(64, 4, 0.04, 0.07, 1, 2)
    for it in range(6):
        epoch = it // 3
        for i, param_group in enumerate(optimizer.param_groups):
            param_group["lr"] = lr_schedule[it]
            if i == 0:
                param_group["weight_decay"] = wd_schedule[it]
        images = [torch.randn(2, 3, 32, 32) for _ in range(2)] + [torch.randn(2, 3, 16, 16) for _ in range(2)]
        teacher_output = teacher(images[:2])
        student_output = student(images)
        loss = dino_loss(student_output, teacher_output, epoch)
        optimizer.zero_grad()
        norms = utils.clip_gradients(student, 3.0) if loss.backward() is None else None
        utils.cancel_gradients_last_layer(epoch, student, 1)
        optimizer.step()
        with torch.no_grad():
            m = momentum_schedule[it]
            for param_q, param_k in zip(student.parameters(), teacher.parameters()):
                param_k.data.mul_(m).add_((1 - m) * param_q.detach().data)
        print(it, loss.item(), norms[:3], dino_loss.center[0, :4])
    print(utils.accuracy(student_output, torch.arange(8) % 64, topk=(1, 5)))
    dist.destroy_process_group()
"""
RECIPES += [
    _r("dino_train", DINO, "main_dino.py",
       [("if __name__ == '__main__':\n    parser = argparse.ArgumentParser('DINO', parents=[get_args_parser()])",
         DINO_TRAIN + "    raise SystemExit  # its argument parser lists torch.hub's XCiT models online\n"
         "    parser = argparse.ArgumentParser('DINO', parents=[get_args_parser()])")],
       support=[*DINO_UTILS, ("vision_transformer.py", "vision_transformer.py")]),
]

SAM = ("facebookresearch/segment-anything", "dca509fe793f601edb92606367a655c15ac00fdf", "Apache-2.0")
SAM_PACKAGE = [(f"segment_anything/modeling/{f}.py", f"modeling/{f}.py")
               for f in ("__init__", "common", "image_encoder", "mask_decoder", "prompt_encoder", "transformer", "sam")]
SAM_IMPORTS = [(f"from .{m} import", f"from modeling.{m} import") for m in ("image_encoder", "mask_decoder", "prompt_encoder")]
SAM_BUILD = """from functools import partial
from modeling import TwoWayTransformer
image_encoder = ImageEncoderViT(img_size=64, patch_size=16, embed_dim=32, depth=2, num_heads=2, out_chans=16,
                                qkv_bias=True, norm_layer=partial(torch.nn.LayerNorm, eps=1e-6), use_rel_pos=True,
                                window_size=3, global_attn_indexes=(1,))
prompt_encoder = PromptEncoder(embed_dim=16, image_embedding_size=(4, 4), input_image_size=(64, 64), mask_in_chans=8)
mask_decoder = MaskDecoder(num_multimask_outputs=3, transformer=TwoWayTransformer(depth=2, embedding_dim=16,
                           mlp_dim=32, num_heads=2), transformer_dim=16, iou_head_depth=3, iou_head_hidden_dim=16)
sam = Sam(image_encoder, prompt_encoder, mask_decoder, pixel_mean=[123.675, 116.28, 103.53],
          pixel_std=[58.395, 57.12, 57.375])
"""
SAM_LAST = "        x = F.pad(x, (0, padw, 0, padh))\n        return x"
RECIPES += [
    _model("sam_image_encoder", SAM, "segment_anything/modeling/sam.py", SAM_LAST,
           SAM_BUILD + "report(image_encoder, torch.randn(2, 3, 64, 64))\n"
           "print(image_encoder.blocks[0].attn.rel_pos_h.shape, image_encoder.blocks[1].attn.rel_pos_w.shape)",
           SAM_IMPORTS, support=SAM_PACKAGE),
    _model("sam_prompt_mask_decoder", SAM, "segment_anything/modeling/sam.py", SAM_LAST,
           SAM_BUILD + "points = (torch.rand(2, 3, 2) * 64, torch.tensor([[1, 0, 1], [1, 1, -1]]))\n"
           "boxes = torch.tensor([[4.0, 8.0, 40.0, 50.0], [0.0, 0.0, 63.0, 63.0]])\n"
           "sparse, dense = prompt_encoder(points=points, boxes=boxes, masks=torch.randn(2, 1, 16, 16))\n"
           "print(sparse.shape, dense.shape, sparse[0, :, :3], prompt_encoder.get_dense_pe()[0, :3, 0, 0])\n"
           "embedding = torch.randn(1, 16, 4, 4, requires_grad=True)\n"
           "report(mask_decoder, embedding, prompt_encoder.get_dense_pe(), sparse, dense, multimask_output=True)\n"
           "print(embedding.grad.norm(), prompt_encoder.point_embeddings[0].weight.grad)",
           SAM_IMPORTS, support=SAM_PACKAGE),
    _model("sam_forward", SAM, "segment_anything/modeling/sam.py", SAM_LAST,
           SAM_BUILD + "batch = [dict(image=torch.rand(3, 64, 48) * 255, original_size=(128, 96),\n"
           "              point_coords=torch.tensor([[[10.0, 20.0], [30.0, 40.0]]]), point_labels=torch.tensor([[1, 0]])),\n"
           "         dict(image=torch.rand(3, 48, 64) * 255, original_size=(48, 64), boxes=torch.tensor([[1.0, 2.0, 30.0, 40.0]]),\n"
           "              mask_inputs=torch.randn(1, 1, 16, 16))]\n"
           "for out in sam(batch, multimask_output=False):\n"
           "    print(out['masks'].shape, out['masks'].dtype, out['masks'].float().mean(), out['iou_predictions'],\n"
           "          out['low_res_logits'][0, 0, :2, :4])\n"
           "print(sam.preprocess(torch.ones(3, 40, 50)).shape, sam.device)",
           SAM_IMPORTS, support=SAM_PACKAGE),
]

EFFICIENTNET = ("lukemelas/EfficientNet-PyTorch", "7e8b0d312162f335785fb5dcfa1df29a75a1783a", "Apache-2.0")
EFFICIENTNET_LAST = "            self._conv_stem = Conv2d(in_channels, out_channels, kernel_size=3, stride=2, bias=False)"
EFFICIENTNET_EDITS = [("from .utils import (", "from utils import (")]
EFFICIENTNET_UTILS = [("efficientnet_pytorch/utils.py", "utils.py")]
RECIPES += [
    _model("efficientnet_b0_static", EFFICIENTNET, "efficientnet_pytorch/model.py", EFFICIENTNET_LAST,
           "model = EfficientNet.from_name('efficientnet-b0', width_coefficient=0.25, depth_coefficient=0.5,\n"
           "                               image_size=32, num_classes=10)\n"
           "print(len(model._blocks), model._conv_stem, model._blocks[1]._depthwise_conv, model._fc)\n"
           "x = torch.randn(2, 3, 64, 64)\n"
           "report(model, x)\n"
           "model.eval()\n"
           "with torch.no_grad():\n"
           "    print({k: tuple(v.shape) for k, v in model.extract_endpoints(x).items()})\n"
           "    ours = model(x)\n"
           "    model.set_swish(memory_efficient=False)\n"
           "    print((model(x) - ours).abs().max(), EfficientNet.get_image_size('efficientnet-b3'))",
           EFFICIENTNET_EDITS, support=EFFICIENTNET_UTILS),
    _model("efficientnet_dynamic_padding", EFFICIENTNET, "efficientnet_pytorch/model.py", EFFICIENTNET_LAST,
           "model = EfficientNet.from_name('efficientnet-b1', in_channels=1, width_coefficient=0.2,\n"
           "                               depth_coefficient=0.4, image_size=None, num_classes=5, drop_connect_rate=0.5)\n"
           "print(type(model._conv_stem).__name__, model._conv_stem.weight.shape)\n"
           "report(model, torch.randn(3, 1, 37, 30))\n"
           "try:\n"
           "    EfficientNet.from_name('efficientnet-b9')\n"
           "except ValueError as e:\n"
           "    print('ValueError', e)",
           EFFICIENTNET_EDITS, support=EFFICIENTNET_UTILS),
]

LLAMA = ("meta-llama/llama", "689c7f261b9c5514636ecc3c5fefefcbb3e6eed7", "Llama 2 Community License")
LLAMA_EDITS = [("import fairscale.nn.model_parallel.initialize as fs_init", "import corpus_models as fs_init"),
               ("from fairscale.nn.model_parallel.layers import (", "from corpus_models import ("),  # one process
               ("        ).cuda()\n", "        )\n"), ("        ).cuda()\n", "        )\n")]  # the caches on the CPU
LLAMA_LAST = "        output = self.output(h).float()\n        return output"
RECIPES += [
    _model("llama2_model", LLAMA, "llama/model.py", LLAMA_LAST,
           "params = ModelArgs(dim=32, n_layers=2, n_heads=4, n_kv_heads=2, vocab_size=64, multiple_of=16,\n"
           "                   max_batch_size=2, max_seq_len=16)\n"
           "model = Transformer(params)\n"
           "print(model.freqs_cis.shape, model.freqs_cis.dtype, model.freqs_cis[3, :2], model.layers[0].feed_forward)\n"
           "tokens = torch.randint(0, 64, (2, 6))\n"
           "logits = model(tokens, 0)\n"
           "print(logits.shape, logits.requires_grad, logits.is_inference(), logits[:, -1, :4])\n"
           "step = model(logits[:, -1].argmax(-1, keepdim=True), 6)  # one more token through the KV cache\n"
           "print(step.shape, step[:, 0, :4], model.layers[0].attention.cache_k[0, :8, 0, 0])\n"
           "out = Transformer.forward.__wrapped__(model, tokens[:, :4], 0)  # without inference mode: trainable\n"
           "loss = F.cross_entropy(out.view(-1, 64), tokens[:, 1:5].reshape(-1))\n"
           "loss.backward()\n"
           "print(loss, model.tok_embeddings.weight.grad.norm(), model.layers[1].attention_norm.weight.grad[:4])",
           LLAMA_EDITS),
]

MAMBA = ("alxndrTL/mamba.py", "2cc168c78b2494557f45072c4b8daa9d6f5608c7", "MIT")
MAMBA_PACKAGE = [(f"mambapy/{f}.py", f"mambapy/{f}.py") for f in ("__init__", "pscan", "mamba")]
MAMBA_LAST = "    model.load_state_dict(new_state_dict)\n\n    return model"
MAMBA_LM_EDITS = [("from mambapy.mamba2 import Mamba2, Mamba2Config",  # Mamba-2 needs einops and Triton kernels
                   "class Mamba2Config:\n    pass\nclass Mamba2:\n    pass")]
MAMBA_TRAIN = """def train(model, steps=3):
    optimizer = model.configure_optimizers(0.1, 3e-3, (0.9, 0.95), 'cpu')
    print([(len(g['params']), g['lr'], g['weight_decay']) for g in optimizer.param_groups])
    for it in range(steps):
        tokens = torch.randint(1, 32, (2, 13))
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(it, loss.item(), norm.item())
"""
RECIPES += [
    _model("mamba_pscan", MAMBA, "mambapy/mamba.py", "        else:\n            return output",
           "config = MambaConfig(d_model=16, n_layers=2, d_state=8, inner_layernorms=True)\n"
           "model = Mamba(config)\n"
           "print(config.d_inner, config.dt_rank, model.layers[0].mixer.dt_proj.bias[:4], model.layers[0].mixer.A_log[1])\n"
           "x = torch.randn(2, 12, 16)\n"
           "y = report(model, x, show=True)\n"
           "model.config.pscan = False  # the sequential scan gives the same output\n"
           "with torch.no_grad():\n"
           "    print((model(x) - y).abs().max() < 1e-5)\n"
           "    caches = [(None, torch.zeros(2, config.d_inner, config.d_conv - 1)) for _ in range(config.n_layers)]\n"
           "    for t in range(12):  # one step at a time, with the recurrent state and the convolution's inputs\n"
           "        out, caches = model.step(x[:, t], caches)\n"
           "    print(out[:, :4], (out - y[:, -1]).abs().max() < 1e-4, caches[0][0].shape)",
           [("from mambapy.pscan import pscan", "from pscan import pscan")],
           support=[("mambapy/pscan.py", "pscan.py")]),
    _model("mamba_lm", MAMBA, "mambapy/lm.py", MAMBA_LAST,
           MAMBA_TRAIN + "model = LM(MambaConfig(d_model=16, n_layers=2, d_state=4), vocab_size=30, pad_vocab_size_multiple=8)\n"
           "print(model.embedding, model.lm_head.weight.std(), model.mamba.layers[1].mixer.out_proj.weight.std())\n"
           "train(model)\n"
           "model = LM(MambaConfig(d_model=16, n_layers=2, d_state=4, mup=True, mup_base_width=8), vocab_size=32)\n"
           "print(model.lm_head.weight.abs().sum(), model.mamba.layers[0].mixer.conv1d.weight.abs().sum())\n"
           "train(model)",
           MAMBA_LM_EDITS, support=MAMBA_PACKAGE),
]

CONVNEXT = ("facebookresearch/ConvNeXt", "048efcea897d999aed302f2639b6270aedf8d4c8", "MIT")
CONVNEXT_TIMM = [("from timm.models.layers import trunc_normal_, DropPath", "from corpus_models import trunc_normal_, DropPath"),
                 ("from timm.models.registry import register_model", "from corpus_models import register_model")]
CONVNEXT_LAST = '        model.load_state_dict(checkpoint["model"])\n    return model'
RECIPES += [
    _model("convnext", CONVNEXT, "models/convnext.py", CONVNEXT_LAST,
           "model = ConvNeXt(depths=[1, 1, 2, 1], dims=[8, 16, 24, 32], num_classes=10, drop_path_rate=0.2,\n"
           "                 head_init_scale=0.5)\n"
           "print(model.stages[2], model.head.weight.std(), model.downsample_layers[0])\n"
           "report(model, torch.randn(3, 3, 64, 64))\n"
           "print(model.stages[3][0].gamma.grad[:4], model.norm.weight.grad[:4])\n"
           "model.eval()\n"
           "with torch.no_grad():\n"
           "    x = torch.randn(2, 8, 5, 5)\n"
           "    first, last = LayerNorm(8, eps=1e-6, data_format='channels_first'), LayerNorm(8, eps=1e-6)\n"
           "    print((first(x) - last(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)).abs().max() < 1e-5)\n"
           "    print(model(torch.randn(1, 3, 32, 32))[0, :4])\n"
           "try:\n"
           "    LayerNorm(8, data_format='channels_middle')\n"
           "except NotImplementedError as e:\n"
           "    print('NotImplementedError', e)",
           CONVNEXT_TIMM),
]

GUIDED = ("openai/guided-diffusion", "22e0df8183507e13a7813f8d38d51b072ca1e67c", "MIT")
GUIDED_PACKAGE = [(f"guided_diffusion/{f}.py", f"guided_diffusion/{f}.py")
                  for f in ("__init__", "unet", "nn", "fp16_util", "logger", "gaussian_diffusion", "respace", "losses")]
GUIDED_IMPORTS = [("from . import gaussian_diffusion as gd", "from guided_diffusion import gaussian_diffusion as gd"),
                  ("from .respace import", "from guided_diffusion.respace import"),
                  ("from .unet import", "from guided_diffusion.unet import")]
GUIDED_LAST = '        raise argparse.ArgumentTypeError("boolean value expected")'
RECIPES += [
    _model("guided_diffusion_unet", GUIDED, "guided_diffusion/script_util.py", GUIDED_LAST,
           "args = model_and_diffusion_defaults()\n"
           "args.update(image_size=16, num_channels=32, num_res_blocks=1, num_heads=2, attention_resolutions='4',\n"
           "            channel_mult='1,1,2', learn_sigma=True, diffusion_steps=50, timestep_respacing='6',\n"
           "            use_checkpoint=True, resblock_updown=True, class_cond=True, dropout=0.1)\n"
           "model, diffusion = create_model_and_diffusion(**args)\n"
           "print(diffusion.num_timesteps, diffusion.timestep_map, diffusion.betas[:3], type(model).__name__)\n"
           "print(sum(p.numel() for p in model.parameters()), model.out[-1].weight.abs().sum())\n"
           "x, t, y = torch.randn(2, 3, 16, 16), torch.tensor([3, 5]), torch.tensor([1, 3])\n"
           "losses = diffusion.training_losses(model, x, t, model_kwargs=dict(y=y))\n"
           "print(losses)\n"
           "losses['loss'].mean().backward()\n"
           "print(torch.cat([p.grad.flatten() for p in model.parameters()]).norm(), model.label_emb.weight.grad.abs().sum())\n"
           "model.eval()\n"
           "sample = diffusion.p_sample_loop(model, (1, 3, 16, 16), model_kwargs=dict(y=torch.tensor([2])))\n"
           "print(sample.shape, sample.mean(), sample[0, 0, 0, :4])\n"
           "ddim = diffusion.ddim_sample_loop(model, (1, 3, 16, 16), model_kwargs=dict(y=torch.tensor([2])), eta=0.5)\n"
           "print(ddim.mean(), ddim[0, 1, 2, :4])",
           GUIDED_IMPORTS, support=GUIDED_PACKAGE),
    _model("guided_diffusion_classifier", GUIDED, "guided_diffusion/script_util.py", GUIDED_LAST,
           "args = classifier_and_diffusion_defaults()\n"
           "args.update(classifier_width=32, classifier_depth=1, classifier_attention_resolutions='8', diffusion_steps=20)\n"
           "classifier, diffusion = create_classifier_and_diffusion(**args)\n"
           "x = diffusion.q_sample(torch.randn(2, 3, 64, 64), torch.tensor([0, 19]))\n"
           "print(x.std(), classifier.out)\n"
           "logits = report(classifier, x, timesteps=torch.tensor([0, 19]))\n"
           "print(F.cross_entropy(logits, torch.tensor([5, 999])))",
           [*GUIDED_IMPORTS, ("import inspect\n", "import inspect\nimport torch.nn.functional as F\n")],
           support=GUIDED_PACKAGE),
]

UNET = ("milesial/Pytorch-UNet", "21d7850f2af30a9695bbeea75f3136aa538cfc4a", "GPL-3.0")
UNET_DRIVER = """from dice_score import dice_loss


class UNet(nn.Module):  # unet_model.py's UNet at an eighth of its widths, three levels deep
    def __init__(self, n_channels, n_classes, bilinear=False):
        super().__init__()
        self.n_channels, self.n_classes, factor = n_channels, n_classes, 2 if bilinear else 1
        self.inc, self.down1, self.down2 = DoubleConv(n_channels, 8), Down(8, 16), Down(16, 32 // factor)
        self.up1, self.up2 = Up(32, 16 // factor, bilinear), Up(16, 8, bilinear)
        self.outc = OutConv(8, n_classes)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        return self.outc(self.up2(self.up1(self.down2(x2), x2), x1))


for bilinear, n_classes in [(False, 3), (True, 1)]:
    model = UNet(3, n_classes, bilinear).to(memory_format=torch.channels_last)
    print(model.up1)
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-5, weight_decay=1e-8, momentum=0.999, foreach=True)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, 'max', patience=1)
    grad_scaler = torch.cuda.amp.GradScaler(enabled=False)
    criterion = nn.CrossEntropyLoss() if model.n_classes > 1 else nn.BCEWithLogitsLoss()
    for step in range(3):
        images = torch.randn(2, 3, 30, 22).to(memory_format=torch.channels_last)  # odd sizes: Up pads
        true_masks = torch.randint(0, max(n_classes, 2), (2, 30, 22))
        masks_pred = model(images)
        if model.n_classes == 1:
            loss = criterion(masks_pred.squeeze(1), true_masks.float())
            loss += dice_loss(F.sigmoid(masks_pred.squeeze(1)), true_masks.float(), multiclass=False)
        else:
            loss = criterion(masks_pred, true_masks)
            loss += dice_loss(F.softmax(masks_pred, dim=1).float(),
                              F.one_hot(true_masks, model.n_classes).permute(0, 3, 1, 2).float(), multiclass=True)
        optimizer.zero_grad(set_to_none=True)
        grad_scaler.scale(loss).backward()
        grad_scaler.unscale_(optimizer)
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        grad_scaler.step(optimizer)
        grad_scaler.update()
        scheduler.step(1 - loss.item())
        print(step, masks_pred.shape, masks_pred.is_contiguous(memory_format=torch.channels_last), loss.item(),
              norm.item(), optimizer.param_groups[0]['lr'])"""
RECIPES += [
    _model("unet_parts_training", UNET, "unet/unet_parts.py", "    def forward(self, x):\n        return self.conv(x)",
           UNET_DRIVER, support=[("utils/dice_score.py", "dice_score.py")]),
]

HIFIGAN = ("jik876/hifi-gan", "4769534d45265d52a904b850da5a622601885777", "MIT")
HIFIGAN_DRIVER = """from env import AttrDict
for resblock in ("1", "2"):
    h = AttrDict(resblock=resblock, upsample_rates=[2, 2], upsample_kernel_sizes=[4, 4], upsample_initial_channel=16,
                 resblock_kernel_sizes=[3, 5], resblock_dilation_sizes=[[1, 3, 5], [1, 3, 5]])
    generator = Generator(h)
    print(generator.ups[0], generator.conv_pre.weight_g.shape, generator.resblocks[3])
    optim_g = torch.optim.AdamW(generator.parameters(), 2e-4, betas=[0.8, 0.99])
    scheduler_g = torch.optim.lr_scheduler.ExponentialLR(optim_g, gamma=0.999)
    for step in range(2):
        x, y = torch.randn(2, 80, 16), torch.randn(2, 1, 64) * 0.3  # a mel spectrogram and its waveform (4x up)
        y_g_hat = generator(x)
        # the losses on stand-in discriminator outputs (its discriminators have 15M parameters)
        d_r = [y.unfold(-1, 8, 4).mean(-1), y.abs().amax(-1)]
        d_g = [y_g_hat.unfold(-1, 8, 4).mean(-1), y_g_hat.abs().amax(-1)]
        loss_disc, losses_disc_r, losses_disc_g = discriminator_loss(d_r, [d.detach() for d in d_g])
        loss_fm = feature_loss([[y, y.diff()]], [[y_g_hat, y_g_hat.diff()]])
        loss_gen, losses_gen = generator_loss(d_g)
        loss_gen_all = loss_gen + loss_fm + F.l1_loss(y, y_g_hat) * 45
        optim_g.zero_grad()
        loss_gen_all.backward()
        optim_g.step()
        scheduler_g.step()
        print(step, y_g_hat.shape, loss_disc.item(), losses_disc_g, loss_gen_all.item(), loss_fm.item(),
              generator.conv_pre.weight_g.grad.norm().item(), scheduler_g.get_last_lr())
    generator.eval()
    generator.remove_weight_norm()
    with torch.no_grad():
        print(generator(torch.randn(1, 80, 8))[0, 0, :6], generator.conv_pre, hasattr(generator.conv_pre, 'weight_g'))"""
RECIPES += [
    _model("hifigan_training", HIFIGAN, "models.py", "        loss += l\n\n    return loss, gen_losses",
           HIFIGAN_DRIVER, support=[("utils.py", "utils.py"), ("env.py", "env.py")]),
]

DETR = ("facebookresearch/detr", "29901c51d7fe8712168b8d0d64351170bc0f83e0", "Apache-2.0")
DETR_DRIVER = """for normalize_before, activation in [(False, "relu"), (True, "gelu")]:
    model = Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=64,
                        dropout=0.1, activation=activation, normalize_before=normalize_before,
                        return_intermediate_dec=True)
    src, pos = torch.randn(2, 32, 5, 6), torch.randn(2, 32, 5, 6)
    mask = torch.zeros(2, 5, 6, dtype=torch.bool)
    mask[1, :, 4:] = True  # the second image is narrower: its padded columns are masked keys
    query_embed = nn.Embedding(7, 32)
    hs, memory = report(model, src, mask, query_embed.weight, pos)
    print(query_embed.weight.grad.norm(), model.decoder.norm)
print(_get_activation_fn("glu"), _get_clones(nn.Linear(2, 2), 2))
try:
    _get_activation_fn("tanh")
except RuntimeError as e:
    print("RuntimeError", e)"""
RECIPES += [
    _model("detr_transformer", DETR, "models/transformer.py",
           '    raise RuntimeError(F"activation should be relu/gelu, not {activation}.")', DETR_DRIVER),
]

VQVAE2 = ("rosinality/vq-vae-2-pytorch", "ef5f67c46f93624163776caec9e0d95063910eca", "MIT")
VQVAE2_DISTRIBUTED = [(f"distributed/{f}.py", f"distributed/{f}.py") for f in ("__init__", "distributed", "launch")]
VQVAE2_DRIVER = """model = VQVAE(channel=16, n_res_block=1, n_res_channel=8, embed_dim=8, n_embed=32)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
criterion, latent_loss_weight = nn.MSELoss(), 0.25
for step in range(3):  # train_vqvae.py's step
    img = torch.rand(2, 3, 32, 32) * 2 - 1
    model.zero_grad()
    out, latent_loss = model(img)
    recon_loss = criterion(out, img)
    latent_loss = latent_loss.mean()
    loss = recon_loss + latent_loss_weight * latent_loss
    loss.backward()
    optimizer.step()
    print(step, out.shape, f"mse: {recon_loss.item():.5f}; latent: {latent_loss.item():.3f}",
          model.quantize_t.cluster_size[:4], model.quantize_b.embed_avg[0, :3])
model.eval()
with torch.no_grad():
    quant_t, quant_b, diff, id_t, id_b = model.encode(img)
    print(quant_t.shape, quant_b.shape, id_t[0], id_b.shape, diff)
    print((model.decode_code(id_t, id_b) - model.decode(quant_t, quant_b)).abs().max() < 1e-5)"""
PIXELSNAIL_DRIVER = """import scheduler
model = PixelSNAIL([8, 8], 16, 16, 5, 2, 1, 8, attention=True, dropout=0.1, n_cond_res_block=1, cond_res_channel=8,
                   n_out_res_block=1)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
sched = scheduler.CycleScheduler(optimizer, 3e-4, n_iter=4, momentum=None, warmup_proportion=0.25)
for step in range(3):  # train_pixelsnail.py's step on the bottom codes, conditioned on the top ones
    bottom, top = torch.randint(0, 16, (2, 8, 8)), torch.randint(0, 16, (2, 4, 4))
    model.zero_grad()
    out, _ = model(bottom, condition=top)
    loss = F.cross_entropy(out, bottom)
    loss.backward()
    sched.step()
    optimizer.step()
    _, pred = out.max(1)
    print(step, out.shape, loss.item(), (pred == bottom).float().mean().item(), optimizer.param_groups[0]['lr'])
model.eval()
cache, row = {}, torch.zeros(1, 8, 8, dtype=torch.int64)
with torch.no_grad():  # sample.py's sampling, two positions
    for i, j in [(0, 0), (0, 1)]:
        out, cache = model(row[:, : i + 1, :], condition=top[:1], cache=cache)
        prob = torch.softmax(out[:, :, i, j] / 1.0, 1)
        row[:, i, j] = torch.multinomial(prob, 1).squeeze(-1)
print(row[0, 0], sorted(cache), causal_mask(3))"""
RECIPES += [
    _model("vqvae2_training", VQVAE2, "vqvae.py", "        quant_b = quant_b.permute(0, 3, 1, 2)\n\n        dec = self.decode(quant_t, quant_b)\n\n        return dec",
           VQVAE2_DRIVER, support=VQVAE2_DISTRIBUTED),
    _model("vqvae2_pixelsnail", VQVAE2, "pixelsnail.py", "        out = self.out(out)\n\n        return out, cache",
           PIXELSNAIL_DRIVER, support=[("scheduler.py", "scheduler.py")]),
]

DDIM = ("ermongroup/ddim", "e8df66cf02e457719930748b5c26e37e3126dfdd", "MIT")
DDIM_DRIVER = """import numpy as np
from types import SimpleNamespace as NS
from diffusion import Model
from ema import EMAHelper
from losses import loss_registry
config = NS(model=NS(type="simple", in_channels=3, out_ch=3, ch=32, ch_mult=[1, 2], num_res_blocks=1,
                     attn_resolutions=[8], dropout=0.1, var_type="fixedlarge", ema_rate=0.999, ema=True,
                     resamp_with_conv=True),
            data=NS(image_size=16), diffusion=NS(num_diffusion_timesteps=20),
            optim=NS(optimizer="Adam", lr=2e-4, weight_decay=0.0, beta1=0.9, amsgrad=False, eps=1e-8, grad_clip=1.0))
model = Model(config)
optimizer = get_optimizer(config, model.parameters())
ema_helper = EMAHelper(mu=config.model.ema_rate)
ema_helper.register(model)
betas = torch.from_numpy(np.linspace(1e-4, 0.02, 20, dtype=np.float64)).float()
for step in range(3):  # runners/diffusion.py's training step
    x = torch.rand(2, 3, 16, 16) * 2 - 1
    e = torch.randn_like(x)
    t = torch.randint(low=0, high=20, size=(2 // 2 + 1,))
    t = torch.cat([t, 20 - t - 1], dim=0)[:2]
    loss = loss_registry["simple"](model, x, t, e, betas)
    optimizer.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), config.optim.grad_clip)
    optimizer.step()
    ema_helper.update(model)
    print(step, t, loss.item(), norm.item())
model.eval()
ema_helper.ema(model)
x = torch.randn(1, 3, 16, 16)
xs, x0_preds = generalized_steps(x, range(0, 20, 5), model, betas, eta=0.0)
print(len(xs), xs[-1].mean(), x0_preds[-1][0, 0, 0, :4])
xs, x0_preds = ddpm_steps(x, range(0, 20, 5), model, betas)
print(xs[-1].std(), x0_preds[0][0, 1, 2, :4], ema_helper.state_dict()["conv_out.bias"])"""
RECIPES += [
    _model("ddim_training_sampling", DDIM, "functions/denoising.py",
           "            sample = mean + mask * torch.exp(0.5 * logvar) * noise\n            xs.append(sample.to('cpu'))\n"
           "    return xs, x0_preds", DDIM_DRIVER,
           [("            xt = xs[-1].to('cuda')", "            xt = xs[-1].to(x.device)"),  # on the CPU
            ("            x = xs[-1].to('cuda')", "            x = xs[-1].to(x.device)"),
            ("import torch\n", "import torch\nfrom functions_init import get_optimizer\n")],
           support=[("models/diffusion.py", "diffusion.py"), ("models/ema.py", "ema.py"),
                    ("functions/losses.py", "losses.py"), ("functions/__init__.py", "functions_init.py")]),
]

TRANSFORMER_XL = ("kimiyoung/transformer-xl", "44781ed21dbaec88b280f74d9ae2877f52b492a5", "Apache-2.0")
TXL_ARGS = ["--n_layer", "2", "--d_model", "32", "--d_embed", "32", "--d_inner", "64", "--n_head", "2", "--d_head", "8",
            "--dropout", "0.1"]
RECIPES += [
    _r("transformer_xl_unit_test", TRANSFORMER_XL, "pytorch/mem_transformer.py",
       [("sys.path.append('utils')\n",  # proj_adaptive_softmax reads CUDA's major version at import (None on CPU)
         "sys.path.append('utils')\n_cuda, torch.version.cuda = torch.version.cuda, '10.0'\n"),
        ("from log_uniform_sampler import LogUniformSampler, sample_logits\n",
         "from log_uniform_sampler import LogUniformSampler, sample_logits\ntorch.version.cuda = _cuda\n"),
        ("word_emb.new_ones(qlen, klen), diagonal=1+mlen).byte()[:,:,None]",  # masked_fill_ takes bool masks now
         "word_emb.new_ones(qlen, klen), diagonal=1+mlen).bool()[:,:,None]"),
        ("    args = parser.parse_args()", f"    args = parser.parse_args({TXL_ARGS!r})"),
        ("    tgt_len, mem_len, ext_len = 36, 36, 0", "    tgt_len, mem_len, ext_len = 8, 8, 0"),
        ("    data_len = tgt_len * 20", "    data_len = tgt_len * 3"), ("    args.n_token = 10000", "    args.n_token = 200"),
        ("        for d_embed in [200, 100]:", "        for d_embed in [32, 16]:"),
        ("                            cutoffs=cutoffs, attn_type=0).to(device)\n",  # torch.Tensor(...) parameters:
         "                            cutoffs=cutoffs, attn_type=0).to(device)\n"  # train.py's weights_init sets them
         "            for name, p in model.named_parameters():\n"
         "                if 'layer_norm' not in name:\n"
         "                    nn.init.normal_(p, 0.0, 0.02)\n"),
        ("                mems = out[1:]",
         "                mems = out[1:]\n                out[0].mean().backward()\n"
         "                print(out[0].shape, out[0].mean().item(), len(mems), mems[0].shape, model.word_emb.emb_layers[0]"
         ".weight.grad.norm().item())")],
       support=[("pytorch/data_utils.py", "data_utils.py"), ("pytorch/utils/vocabulary.py", "utils/vocabulary.py"),
                ("pytorch/utils/proj_adaptive_softmax.py", "utils/proj_adaptive_softmax.py"),
                ("pytorch/utils/log_uniform_sampler.py", "utils/log_uniform_sampler.py")]),
]

DIT = ("facebookresearch/DiT", "ed81ce2229091fd4ecc9a223645f95cf379d582b", "CC-BY-NC-4.0")
DIT_DIFFUSION = [(f"diffusion/{f}.py", f"diffusion/{f}.py")
                 for f in ("__init__", "diffusion_utils", "gaussian_diffusion", "respace", "timestep_sampler")]
DIT_DRIVER = """from copy import deepcopy
from diffusion import create_diffusion
model = DiT(input_size=8, patch_size=2, in_channels=4, hidden_size=32, depth=2, num_heads=4, num_classes=10)
ema = deepcopy(model)
for p in ema.parameters():
    p.requires_grad = False
print(model.pos_embed[0, 1, :6], model.x_embedder.num_patches, model.blocks[0].attn, model.blocks[0].mlp.act)
diffusion = create_diffusion(timestep_respacing="", diffusion_steps=50)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0)
for step in range(3):  # train.py's step on stand-in VAE latents
    x, y = torch.randn(2, 4, 8, 8), torch.randint(0, 10, (2,))
    t = torch.randint(0, diffusion.num_timesteps, (x.shape[0],))
    loss_dict = diffusion.training_losses(model, x, t, dict(y=y))
    loss = loss_dict["loss"].mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    for name, param in model.named_parameters():  # update_ema
        dict(ema.named_parameters())[name].mul_(0.9999).add_(param.data, alpha=1 - 0.9999)
    print(step, t, loss.item(), loss_dict["vb"], model.final_layer.linear.weight.grad.norm().item())
model.eval()
diffusion = create_diffusion("4", diffusion_steps=50)
z = torch.randn(2, 4, 8, 8)
z, y = torch.cat([z, z], 0), torch.cat([torch.tensor([3, 7]), torch.tensor([10, 10])], 0)  # sample.py's guidance
samples = diffusion.p_sample_loop(model.forward_with_cfg, z.shape, z, clip_denoised=False,
                                  model_kwargs=dict(y=y, cfg_scale=4.0), progress=False, device="cpu")
samples, _ = samples.chunk(2, dim=0)
print(samples.shape, samples[0, 0, 0, :4], model.unpatchify(torch.arange(16 * 32.0).view(1, 16, 32))[0, :2, 0, :4])
print(get_2d_sincos_pos_embed(4, 2)[:, :2], sorted(DiT_models)[:3])"""
RECIPES += [
    _model("dit_training_sampling", DIT, "models.py", "    'DiT-S/2':  DiT_S_2,   'DiT-S/4':  DiT_S_4,   'DiT-S/8':  DiT_S_8,\n}",
           DIT_DRIVER, [("from timm.models.vision_transformer import PatchEmbed, Attention, Mlp",
                         "from corpus_models import PatchEmbed, Attention, Mlp")], support=DIT_DIFFUSION),
]

MAE = ("facebookresearch/mae", "efb2a8062c206524e35e47d04501ed4f544c0ae8", "CC-BY-NC-4.0")
MAE_DRIVER = """from types import SimpleNamespace
import numpy as np
np.float = float  # util/pos_embed.py's np.float, which NumPy 2 removed (deleted again below)
from util.lr_sched import adjust_learning_rate
from util.pos_embed import interpolate_pos_embed
model = MaskedAutoencoderViT(img_size=32, patch_size=8, embed_dim=32, depth=2, num_heads=4, decoder_embed_dim=16,
                             decoder_depth=1, decoder_num_heads=2, mlp_ratio=4, norm_layer=partial(nn.LayerNorm, eps=1e-6),
                             norm_pix_loss=True)
print(model.pos_embed[0, 1, :4], model.decoder_pos_embed[0, 2, :4], model.mask_token.std(), model.blocks[0])
args = SimpleNamespace(lr=1e-3, min_lr=0.0, warmup_epochs=1, epochs=3)
optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.05)
for step in range(3):  # engine_pretrain.py's step, the learning rate set per half epoch
    lr = adjust_learning_rate(optimizer, step / 2, args)
    imgs = torch.randn(2, 3, 32, 32)
    loss, pred, mask = model(imgs, mask_ratio=0.75)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, lr, loss.item(), pred.shape, mask.sum(1), model.mask_token.grad.norm().item())
imgs = torch.randn(1, 3, 32, 32)
print((model.unpatchify(model.patchify(imgs)) - imgs).abs().max())
with torch.no_grad():
    x, mask, ids_restore = model.forward_encoder(imgs, 0.5)
print(x.shape, mask, ids_restore)
bigger = MaskedAutoencoderViT(img_size=48, patch_size=8, embed_dim=32, depth=1, num_heads=4, decoder_embed_dim=16,
                              decoder_depth=1, decoder_num_heads=2)
del np.float
checkpoint = {"pos_embed": model.pos_embed.detach() + torch.randn(1, 17, 32) * 0.1}
interpolate_pos_embed(bigger, checkpoint)  # bicubic, 4x4 -> 6x6 positions
print(checkpoint["pos_embed"].shape, checkpoint["pos_embed"][0, 7, :4])"""
RECIPES += [
    _model("mae_pretraining", MAE, "models_mae.py",
           "mae_vit_huge_patch14 = mae_vit_huge_patch14_dec512d8b  # decoder: 512 dim, 8 blocks", MAE_DRIVER,
           [("from timm.models.vision_transformer import PatchEmbed, Block", "from corpus_models import PatchEmbed, Block")],
           support=[("util/pos_embed.py", "util/pos_embed.py"), ("util/lr_sched.py", "util/lr_sched.py")]),
]

WHISPER = ("openai/whisper", "c0d2f624c09dc18e709e37c2ad90c039a4eb72a2", "MIT")
WHISPER_DRIVER = """dims = ModelDimensions(n_mels=8, n_audio_ctx=10, n_audio_state=32, n_audio_head=4, n_audio_layer=2, n_vocab=60,
                       n_text_ctx=12, n_text_state=32, n_text_head=4, n_text_layer=2)
model = Whisper(dims)
nn.init.normal_(model.decoder.positional_embedding, std=0.02)  # torch.empty, loaded from a checkpoint
print(model.alignment_heads, model.encoder.positional_embedding[3, ::8], model.is_multilingual, model.num_languages)
mel, tokens = torch.randn(2, 8, 20), torch.randint(0, 60, (2, 5))
logits = report(model, mel, tokens)
print(model.decoder.mask[:3, :4], model.decoder.token_embedding.weight.grad.norm())
model.eval()
with torch.no_grad():
    audio = model.embed_audio(mel[:1])
    with disable_sdpa():  # the explicit softmax route gives the same logits
        plain = model.logits(tokens[:1], audio)
    print((plain - model.logits(tokens[:1], audio)).abs().max() < 1e-5)
    cache, hooks = model.install_kv_cache_hooks()  # greedy decoding, one token at a time after the prompt
    seq = tokens[:1, :2]
    step_logits = model.decoder(seq, audio, kv_cache=cache)
    for _ in range(4):
        seq = torch.cat([seq, step_logits[:, -1:].argmax(-1)], dim=1)
        step_logits = model.decoder(seq[:, -1:], audio, kv_cache=cache)
    for hook in hooks:
        hook.remove()
    full = model.logits(seq, audio)
    print(seq, (full[:, -1] - step_logits[:, -1]).abs().max() < 1e-4, sorted(v.shape[1] for v in cache.values()))
dump = base64.b85encode(gzip.compress(np.array([[0, 1, 0, 0], [1, 0, 0, 1]], dtype=bool).tobytes()))
model.set_alignment_heads(dump)
print(model.alignment_heads, model.alignment_heads.indices().T.tolist(), 'alignment_heads' in model.state_dict())
model.half()
with torch.no_grad():
    print(model.decoder(tokens[:1], audio.half())[0, -1, :5], model.decoder.ln.weight.dtype)"""
RECIPES += [
    _model("whisper_model", WHISPER, "whisper/model.py", "    transcribe = transcribe_function\n    decode = decode_function",
           WHISPER_DRIVER,
           [("from .decoding import decode as decode_function\nfrom .decoding import detect_language as "
             "detect_language_function\nfrom .transcribe import transcribe as transcribe_function\n",
             "decode_function = detect_language_function = transcribe_function = None  # decoding needs tiktoken's BPE\n")]),
]

DINOV2 = ("facebookresearch/dinov2", "b8931f7bf91576930313be2c6d6af376033b35f0", "Apache-2.0")
DINOV2_PACKAGE = [("dinov2/__init__.py", "dinov2/__init__.py")] + [
    (f"dinov2/{d}/{f}.py", f"dinov2/{d}/{f}.py") for d, files in
    [("layers", ("__init__", "attention", "block", "dino_head", "drop_path", "layer_scale", "mlp", "patch_embed",
                 "swiglu_ffn")), ("loss", ("__init__", "dino_clstoken_loss", "ibot_patch_loss", "koleo_loss"))]
    for f in files]
DINOV2_DRIVER = """from dinov2.layers import DINOHead
from dinov2.loss import DINOLoss, iBOTPatchLoss, KoLeoLoss
model = DinoVisionTransformer(img_size=32, patch_size=8, embed_dim=32, depth=4, num_heads=4, block_chunks=2,
                              num_register_tokens=2, ffn_layer="swiglufused", drop_path_rate=0.2, init_values=0.5,
                              block_fn=partial(Block, attn_class=MemEffAttention), interpolate_antialias=True,
                              interpolate_offset=0.0)
print(model.blocks[0][1], model.register_tokens.shape, model.mask_token.abs().sum())
x = torch.randn(2, 3, 32, 32)
masks = torch.rand(2, 16) < 0.3
out = model(x, masks=masks, is_training=True)
print(sorted(out), out["x_norm_clstoken"][:, :4], out["x_norm_patchtokens"].shape, out["x_norm_regtokens"].shape)
head = DINOHead(32, 24, nlayers=2, hidden_dim=16, bottleneck_dim=8)
dino_loss, ibot_loss, koleo_loss = DINOLoss(24), iBOTPatchLoss(24), KoLeoLoss()
with torch.no_grad():
    teacher = head(out["x_norm_clstoken"].detach() + 0.1)
    t_dino = dino_loss.sinkhorn_knopp_teacher(teacher, teacher_temp=0.07)
    t_patch = ibot_loss.softmax_center_teacher(head(out["x_norm_patchtokens"].detach()[masks]), teacher_temp=0.07)
student_cls = head(out["x_norm_clstoken"])
loss_dino = dino_loss([student_cls], [t_dino])
student_patch = head(out["x_norm_patchtokens"][masks])
loss_ibot = ibot_loss.forward_masked(student_patch, t_patch, student_masks_flat=masks.flatten(1),
                                     n_masked_patches=masks.sum())
loss_koleo = koleo_loss(out["x_norm_clstoken"])
loss = loss_dino + loss_ibot + 0.1 * loss_koleo
loss.backward()
dino_loss.update_center(teacher)
dino_loss.apply_center_update()
print(loss_dino.item(), loss_ibot.item(), loss_koleo.item(), model.cls_token.grad.norm().item(), dino_loss.center[0, :4])
model.eval()
with torch.no_grad():
    layers = model.get_intermediate_layers(torch.randn(1, 3, 48, 40), n=2, reshape=True, return_class_token=True)
    print([(tuple(f.shape), tuple(c.shape)) for f, c in layers], layers[-1][0][0, 0, :2, :3])
    print(model(torch.randn(1, 3, 32, 32))[0, :4])"""
RECIPES += [
    _model("dinov2_vit_losses", DINOV2, "dinov2/models/vision_transformer.py",
           "        block_fn=partial(Block, attn_class=MemEffAttention),\n        num_register_tokens=num_register_tokens,\n"
           "        **kwargs,\n    )\n    return model", DINOV2_DRIVER, support=DINOV2_PACKAGE),
]

SWIN = ("microsoft/Swin-Transformer", "f82860bfb5225915aca09c3227159ee9e1df874d", "MIT")
SWIN_DRIVER = """for use_checkpoint, ape in [(False, False), (True, True)]:
    model = SwinTransformer(img_size=32, patch_size=2, num_classes=10, embed_dim=16, depths=[2, 2], num_heads=[2, 4],
                            window_size=4, mlp_ratio=2.0, drop_path_rate=0.1, ape=ape, use_checkpoint=use_checkpoint)
    block = model.layers[0].blocks[1]
    print(block.shift_size, block.attn_mask.shape, block.attn_mask[3, :5, :5], block.attn.relative_position_index[:2, :6])
    report(model, torch.randn(2, 3, 32, 32))
    print(model.flops(), model.no_weight_decay(), model.no_weight_decay_keywords(), model.layers[0].downsample)
x = torch.arange(2 * 8 * 8 * 3.0).view(2, 8, 8, 3)
windows = window_partition(x, 4)
print(windows.shape, (window_reverse(windows, 4, 8, 8) == x).all(), to_2tuple(7))"""
RECIPES += [
    _model("swin_transformer", SWIN, "models/swin_transformer.py",
           "        flops += self.num_features * self.num_classes\n        return flops", SWIN_DRIVER,
           [("from timm.models.layers import DropPath, to_2tuple, trunc_normal_",
             "from corpus_models import DropPath, to_2tuple, trunc_normal_")]),
]

FNO = ("zongyi-li/fourier_neural_operator", "4d3e0c3217ef766d714535751ce95ef625075436", "MIT")
RECIPES += [
    _r("fno_fourier_2d", FNO, "fourier_2d.py",
       [("from utilities3 import *", "with __import__('corpus_models').no_scipy_h5py():  # its .mat reader's imports\n"
                                     "    from utilities3 import *"),
        ("ntrain = 1000\nntest = 100", "ntrain = 8\nntest = 4"), ("batch_size = 20", "batch_size = 4"),
        ("epochs = 500", "epochs = 2"), ("modes = 12\nwidth = 32", "modes = 4\nwidth = 8"), ("r = 5\n", "r = 20\n"),
        ("reader = MatReader(TRAIN_PATH)\nx_train = reader.read_field('coeff')[:ntrain,::r,::r][:,:s,:s]\n"
         "y_train = reader.read_field('sol')[:ntrain,::r,::r][:,:s,:s]\n\nreader.load_file(TEST_PATH)\n"
         "x_test = reader.read_field('coeff')[:ntest,::r,::r][:,:s,:s]\ny_test = reader.read_field('sol')[:ntest,::r,::r][:,:s,:s]",
         "x_train, y_train, x_test, y_test = __import__('corpus_models').darcy(ntrain, ntest, r, s)  # the .mat files"),
        ("model = FNO2d(modes, modes, width).cuda()", "model = FNO2d(modes, modes, width)"),  # on the CPU
        ("y_normalizer.cuda()\n", ""), ("x, y = x.cuda(), y.cuda()", "x, y = x, y"), ("x, y = x.cuda(), y.cuda()", "x, y = x, y"),
        ("    print(ep, t2-t1, train_l2, test_l2)", "    print(ep, train_l2, test_l2)")],  # a wall-clock time
       support=[("utilities3.py", "utilities3.py"), ("Adam.py", "Adam.py")]),
]
RECIPES += [
    _r("fno_fourier_3d", FNO, "fourier_3d.py",
       [("from utilities3 import *", "with __import__('corpus_models').no_scipy_h5py():  # its .mat reader's imports\n"
                                     "    from utilities3 import *"),
        ("ntrain = 1000\nntest = 200", "ntrain = 4\nntest = 2"), ("modes = 8\nwidth = 20", "modes = 3\nwidth = 6"),
        ("batch_size = 10", "batch_size = 2"), ("epochs = 500", "epochs = 2"),
        ("sub = 1\nS = 64 // sub\nT_in = 10\nT = 40", "sub = 8\nS = 64 // sub\nT_in = 10\nT = 6"),
        ("reader = MatReader(TRAIN_PATH)\ntrain_a = reader.read_field('u')[:ntrain,::sub,::sub,:T_in]\n"
         "train_u = reader.read_field('u')[:ntrain,::sub,::sub,T_in:T+T_in]\n\nreader = MatReader(TEST_PATH)\n"
         "test_a = reader.read_field('u')[-ntest:,::sub,::sub,:T_in]\ntest_u = reader.read_field('u')[-ntest:,::sub,::sub,T_in:T+T_in]",
         "u = __import__('corpus_models').vorticity(ntrain + ntest, 64, T + T_in)  # the .mat files' field\n"
         "train_a, train_u = u[:ntrain,::sub,::sub,:T_in], u[:ntrain,::sub,::sub,T_in:T+T_in]\n"
         "test_a, test_u = u[-ntest:,::sub,::sub,:T_in], u[-ntest:,::sub,::sub,T_in:T+T_in]"),
        ("print('preprocessing finished, time used:', t2-t1)\ndevice = torch.device('cuda')",
         "print('preprocessing finished')"),  # a wall-clock time; the CPU
        ("model = FNO3d(modes, modes, modes, width).cuda()", "model = FNO3d(modes, modes, modes, width)"),
        ("y_normalizer.cuda()\n", ""), *[("x, y = x.cuda(), y.cuda()", "x, y = x, y")] * 3,
        ("    print(ep, t2-t1, train_mse, train_l2, test_l2)", "    print(ep, train_mse, train_l2, test_l2)"),
        ("scipy.io.savemat('pred/'+path+'.mat', mdict={'pred': pred.cpu().numpy()})", "print(pred[:, 2, 3, :3])")],
       support=[("utilities3.py", "utilities3.py"), ("Adam.py", "Adam.py")]),
]

WAVEGLOW = ("NVIDIA/waveglow", "8afb643df59265016af6bd255c7516309d675168", "BSD-3-Clause")
WAVEGLOW_DRIVER = """model = WaveGlow(n_mel_channels=8, n_flows=4, n_group=8, n_early_every=2, n_early_size=2,
                 WN_config=dict(n_layers=2, n_channels=16, kernel_size=3))
criterion = WaveGlowLoss(sigma=1.0)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
W = model.convinv[0].conv.weight.squeeze()
print(torch.det(W), (W @ W.t() - torch.eye(8)).abs().max() < 1e-5, model.WN[1].start)
for step in range(2):  # train.py's step
    mel, audio = torch.randn(2, 8, 3), torch.randn(2, 512) * 0.1
    outputs = model((mel, audio))
    loss = criterion(outputs)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, outputs[0].shape, loss.item(), [t.item() for t in outputs[2]], model.WN[0].end.weight.grad.norm().item())
model.eval()
with torch.no_grad():
    audio = model.infer(torch.randn(1, 8, 3), sigma=0.6)
print(audio.shape, audio[0, :5], model.convinv[1].W_inverse.shape)
model = WaveGlow.remove_weightnorm(model)
print(model.WN[0].in_layers[0], hasattr(model.WN[0].start, 'weight_g'), fused_add_tanh_sigmoid_multiply.__class__.__name__)"""
RECIPES += [
    _model("waveglow_flow", WAVEGLOW, "glow.py", "        new_conv_list.append(old_conv)\n    return new_conv_list",
           WAVEGLOW_DRIVER, [("            audio = torch.cuda.FloatTensor(spect.size(0),",  # inference on the CPU
                              "            audio = torch.FloatTensor(spect.size(0),"),
                             ("                    z = torch.cuda.FloatTensor(spect.size(0), self.n_early_size",
                              "                    z = torch.FloatTensor(spect.size(0), self.n_early_size")],
           xfail="its invertible 1x1 convolutions start from torch.qr of a random matrix, whose float32 Householder "
                 "QR (LAPACK's geqrf/orgqr) rounds differently from core's: log|det W| is pure rounding (~1e-7), "
                 "the flows add it 128 times each, and the loss differs in its 5th digit"),
]

TAMING = ("CompVis/taming-transformers", "3ba01b241669f5ade541ce990f7650a3b8f65318", "MIT")
TAMING_DRIVER = """from taming.modules.diffusionmodules.model import Encoder, Decoder
from taming.modules.util import count_params
ddconfig = dict(ch=32, out_ch=3, ch_mult=(1, 2), num_res_blocks=1, attn_resolutions=[8], in_channels=3, resolution=16,
                z_channels=8, double_z=False, dropout=0.0)
encoder, decoder = Encoder(**ddconfig), Decoder(**ddconfig)
print(count_params(encoder), count_params(decoder), decoder.z_shape)
for use_actnorm in (False, True):
    disc = NLayerDiscriminator(input_nc=3, ndf=8, n_layers=2, use_actnorm=use_actnorm).apply(weights_init)
    opt_ae = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=4.5e-6, betas=(0.5, 0.9))
    opt_disc = torch.optim.Adam(disc.parameters(), lr=4.5e-6, betas=(0.5, 0.9))
    for step in range(2):  # a VQGAN step without the codebook: reconstruction + adversarial, then hinge
        x = torch.rand(2, 3, 16, 16) * 2 - 1
        xrec = decoder(encoder(x))
        logits_fake = disc(xrec)
        g_loss = (x - xrec).abs().mean() - logits_fake.mean() * 0.1
        opt_ae.zero_grad()
        g_loss.backward()
        opt_ae.step()
        logits_real, logits_fake = disc(x.detach()), disc(xrec.detach())
        d_loss = 0.5 * (torch.mean(torch.nn.functional.relu(1. - logits_real)) +
                        torch.mean(torch.nn.functional.relu(1. + logits_fake)))
        opt_disc.zero_grad()
        d_loss.backward()
        opt_disc.step()
        print(use_actnorm, step, xrec.shape, logits_fake.shape, g_loss.item(), d_loss.item())
    if use_actnorm:
        norm = disc.main[3]
        print(norm.initialized, norm.loc.flatten()[:4], norm.scale.flatten()[:4])
        y = torch.randn(2, 16, 4, 4)
        print((norm(norm(y), reverse=True) - y).abs().max() < 1e-4)"""
RECIPES += [
    _model("taming_vqgan_parts", TAMING, "taming/modules/discriminator/model.py",
           "        return self.main(input)", TAMING_DRIVER,
           support=[("taming/modules/util.py", "taming/modules/util.py"),
                    ("taming/modules/diffusionmodules/model.py", "taming/modules/diffusionmodules/model.py")]),
]

TABNET = ("dreamquark-ai/tabnet", "2c0c4ebd2bb1cb639ea94ab4b11823bc49265588", "MIT")
TABNET_DRIVER = """import torch.nn.functional as F
x = torch.cat([torch.randint(0, 5, (8, 1)).float(), torch.randn(8, 5)], dim=1)  # a categorical column first
y = torch.randint(0, 3, (8,))
for mask_type in ("sparsemax", "entmax"):
    model = TabNet(input_dim=6, output_dim=3, n_d=8, n_a=8, n_steps=3, cat_idxs=[0], cat_dims=[5], cat_emb_dim=[2],
                   virtual_batch_size=4, mask_type=mask_type, group_attention_matrix=torch.eye(6))
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)  # a tenth of its default: sparsemax amplifies rounding
    for step in range(3):  # tab_model's train_batch: the loss minus lambda_sparse times M_loss, clipped
        output, M_loss = model(x)
        loss = F.cross_entropy(output, y) - 1e-3 * M_loss
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(mask_type, step, loss.item(), M_loss.item(), output[0])
    model.eval()
    with torch.no_grad():
        M_explain, masks = model.forward_masks(x)
    print(M_explain.shape, M_explain[0], masks[0][1], sorted(masks))
pretrainer = TabNetPretraining(input_dim=6, pretraining_ratio=0.3, n_d=8, n_a=8, n_steps=2, virtual_batch_size=4,
                               group_attention_matrix=torch.eye(6))
reconstruction, embedded_x, obf_vars = pretrainer(torch.randn(8, 6))
print(reconstruction.shape, obf_vars[:2], ((reconstruction - embedded_x) * obf_vars).square().mean())
z = torch.randn(3, 5, requires_grad=True)
for module in (sparsemax.Sparsemax(dim=-1), sparsemax.Entmax15(dim=-1)):
    p = module(z)
    (p * torch.arange(5.0)).sum().backward()
    print(type(module).__name__, p, p.sum(-1), z.grad)
    z.grad = None"""
RECIPES += [
    _model("tabnet_network", TABNET, "pytorch_tabnet/tab_network.py",
           "        masked_input = torch.mul(1 - obfuscated_vars, x)\n        return masked_input, obfuscated_groups, obfuscated_vars",
           TABNET_DRIVER, [("from pytorch_tabnet import sparsemax", "import sparsemax")],
           support=[("pytorch_tabnet/sparsemax.py", "sparsemax.py")]),
]

SET_TRANSFORMER = ("juho-lee/set_transformer", "73432c640ac78140496d6738416c54d32c686d65", "MIT")
RECIPES += [
    _r("set_transformer_max_regression", SET_TRANSFORMER, "max_regression_demo.ipynb",
       [("    model = model.cuda()\n", ""), ("criterion = nn.L1Loss().cuda()", "criterion = nn.L1Loss()"),
        ("torch.from_numpy(x).float().cuda(), torch.from_numpy(y).float().cuda()",
         "torch.from_numpy(x).float(), torch.from_numpy(y).float()"),  # on the CPU
        ("    for _ in range(500):\n        x, y = gen_data(batch_size=2 ** 10, max_length=10)",
         "    for _ in range(6):\n        x, y = gen_data(batch_size=2 ** 6, max_length=10)"),
        ("import seaborn as sns\n", ""), ('sns.set(rc={"figure.figsize": (8, 4)}, style="whitegrid")', ""),
        ("    plt.plot(_losses, label=_name)", "    print(_name, _losses)")],  # the plotted losses
       support=[("modules.py", "modules.py")]),
]

NERF = ("yenchenlin/nerf-pytorch", "63a5a630c9abd62b0f21c08703d0ac2ea7d4b9dd", "MIT")
NERF_DRIVER = """embed_fn, input_ch = get_embedder(4)
embeddirs_fn, input_ch_views = get_embedder(2)
model = NeRF(D=4, W=32, input_ch=input_ch, input_ch_views=input_ch_views, output_ch=5, skips=[2], use_viewdirs=True)
print(input_ch, input_ch_views, model.pts_linears[3], model.views_linears)
H, W, focal = 6, 8, 5.0
K = np.array([[focal, 0, 0.5 * W], [0, focal, 0.5 * H], [0, 0, 1]])
c2w = torch.tensor([[0.0, -1, 0, 0.5], [1, 0, 0, -0.2], [0, 0, 1, 2.0]])
rays_o, rays_d = get_rays(H, W, K, c2w)
rays_o_np, rays_d_np = get_rays_np(H, W, K, c2w.numpy())
print(rays_d.shape, rays_d[2, 3], abs(rays_d.numpy() - rays_d_np).max() < 1e-6)
rays_o, rays_d = ndc_rays(H, W, focal, 1.0, rays_o.reshape(-1, 3), rays_d.reshape(-1, 3))
z_vals = torch.linspace(0.0, 1.0, 8).expand(48, 8)
pts = rays_o[:, None] + rays_d[:, None] * z_vals[..., None]
viewdirs = (rays_d / rays_d.norm(dim=-1, keepdim=True))[:, None].expand(pts.shape)
inputs = torch.cat([embed_fn(pts.reshape(-1, 3)), embeddirs_fn(viewdirs.reshape(-1, 3))], -1)
raw = report(model, inputs).reshape(48, 8, 4)  # rgb and density
weights = torch.softmax(raw[..., 3].detach(), -1)
z_mid = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
for det in (True, False):  # hierarchical sampling: the inverse CDF of the coarse weights
    z_samples = sample_pdf(z_mid, weights[..., 1:-1], 6, det=det)
    print(det, z_samples.shape, z_samples[0], z_samples.min() >= 0)
mse = img2mse(torch.sigmoid(raw[..., :3]).mean(1), torch.rand(48, 3))
print(mse, mse2psnr(mse.detach()), to8b(np.array([-0.5, 0.25, 2.0])))"""
RECIPES += [
    _model("nerf_helpers", NERF, "run_nerf_helpers.py",
           "    samples = bins_g[...,0] + t * (bins_g[...,1]-bins_g[...,0])\n\n    return samples", NERF_DRIVER),
]

PYGCN = ("tkipf/pygcn", "1600b5b748b3976413d1e307540ccc62605b4d6d", "MIT")
PYGCN_DRIVER = """import numpy as np
import torch.optim as optim
rng = np.random.default_rng(0)  # a stand-in graph: 60 nodes, 3 classes, features and edges that follow them
n, labels = 60, torch.tensor(rng.integers(0, 3, 60))
features = torch.tensor(rng.random((n, 20)) < 0.2, dtype=torch.float32) + torch.nn.functional.one_hot(labels, 20)
features = features / features.sum(1, keepdim=True)  # utils.normalize: rows summing to 1
same = labels[:, None] == labels[None, :]
adj = ((torch.rand(n, n) < 0.02) | (same & (torch.rand(n, n) < 0.08))).float()
adj = ((adj + adj.t()) > 0).float() + torch.eye(n)
adj = (adj / adj.sum(1, keepdim=True)).to_sparse()  # the row-normalised adjacency as a sparse COO tensor
print(adj.layout, adj._nnz(), adj.is_coalesced())
idx_train, idx_val = torch.arange(0, 30), torch.arange(30, 60)
model = GCN(nfeat=20, nhid=16, nclass=3, dropout=0.5)
optimizer = optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
print(model.gc1)


def accuracy(output, labels):
    preds = output.max(1)[1].type_as(labels)
    return preds.eq(labels).double().sum() / len(labels)


for epoch in range(5):  # train.py's train(epoch)
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    acc_train = accuracy(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()
    model.eval()
    output = model(features, adj)
    loss_val = F.nll_loss(output[idx_val], labels[idx_val])
    print('Epoch: {:04d}'.format(epoch + 1), 'loss_train: {:.4f}'.format(loss_train.item()),
          'acc_train: {:.4f}'.format(acc_train.item()), 'loss_val: {:.4f}'.format(loss_val.item()),
          'acc_val: {:.4f}'.format(accuracy(output[idx_val], labels[idx_val]).item()))
print(model.gc1.weight.grad.norm(), output[:2])"""
RECIPES += [
    _model("pygcn_training", PYGCN, "pygcn/models.py", "        x = self.gc2(x, adj)\n        return F.log_softmax(x, dim=1)",
           PYGCN_DRIVER, [("from pygcn.layers import GraphConvolution", "from layers import GraphConvolution")],
           support=[("pygcn/layers.py", "layers.py")]),
]

TACOTRON2 = ("NVIDIA/tacotron2", "185cd24e046cc1304b4f8e564734d2498c6e2e6f", "BSD-3-Clause")
TACOTRON2_DRIVER = """from types import SimpleNamespace
from loss_function import Tacotron2Loss
hparams = SimpleNamespace(  # hparams.py's model parameters (it imports TensorFlow), shrunk
    mask_padding=True, fp16_run=False, n_mel_channels=8, n_frames_per_step=1, n_symbols=20, symbols_embedding_dim=16,
    encoder_kernel_size=5, encoder_n_convolutions=2, encoder_embedding_dim=16, decoder_rnn_dim=24, prenet_dim=12,
    max_decoder_steps=6, gate_threshold=0.5, p_attention_dropout=0.1, p_decoder_dropout=0.1, attention_rnn_dim=24,
    attention_dim=8, attention_location_n_filters=4, attention_location_kernel_size=7, postnet_embedding_dim=16,
    postnet_kernel_size=5, postnet_n_convolutions=3)
model = Tacotron2(hparams)
criterion = Tacotron2Loss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-6)
text = torch.randint(1, 20, (2, 7))
text[1, 5:] = 0
mel = torch.randn(2, 8, 9)
gate = torch.zeros(2, 9)
gate[0, -1], gate[1, 6:] = 1, 1
batch = (text, torch.tensor([7, 5]), mel, gate, torch.tensor([9, 7]))
for step in range(2):  # train.py's step
    x, y = model.parse_batch(batch)
    y_pred = model(x)
    loss = criterion(y_pred, y)
    model.zero_grad()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(step, [t.shape for t in y_pred], loss.item(), grad_norm.item(), y_pred[3][1, 2, :5])
model.eval()
with torch.no_grad():
    mel_outputs, mel_postnet, gates, alignments = model.inference(text[:1])
print(mel_postnet.shape, gates.shape, alignments[0, :2], model.encoder.lstm)"""
RECIPES += [
    _model("tacotron2_model", TACOTRON2, "model.py", "            [mel_outputs, mel_outputs_postnet, gate_outputs, alignments])\n\n        return outputs",
           TACOTRON2_DRIVER,
           [("from layers import ConvNorm, LinearNorm\nfrom utils import to_gpu, get_mask_from_lengths\n",
             "with __import__('corpus_models').no_audio_libs():  # mel filters and wav reading, never called here\n"
             "    from layers import ConvNorm, LinearNorm\n    from utils import to_gpu, get_mask_from_lengths\n\n\n"
             "def get_mask_from_lengths(lengths):  # utils' own, with its torch.cuda.LongTensor out= on the CPU\n"
             "    max_len = torch.max(lengths).item()\n    ids = torch.arange(0, max_len, out=torch.LongTensor(max_len))\n"
             "    mask = (ids < lengths.unsqueeze(1)).bool()\n    return mask\n")],
           support=[(f, f) for f in ("layers.py", "utils.py", "stft.py", "audio_processing.py", "loss_function.py")]),
]
