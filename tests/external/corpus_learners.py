"""Drivers for ``recipes_learners``' model files (our code, committed; corpus helper s34 CORPUS).

Umar Jamil's from-scratch repositories (hkproj: LLaMA 2 with its KV cache, the original Transformer, Stable
Diffusion's VAE, CLIP, U-Net blocks, DDPM sampler and pipeline, a DDPM U-Net) define modules and leave their
running to a training script that needs downloads. Each driver here imports the repository's file from beside the
script (the recipe's first line hands over to it), builds its modules at small sizes from torch's seeded
generator, runs them on seeded input and prints what came out (``corpus_lucid_c5.show``: shape, first values, absolute
sum) and, through a few Adam steps (``corpus_lucid_c5.train``), each loss and every parameter's gradient.
"""

from __future__ import annotations

import importlib

import torch  # the runner's torch: core under the alias, or PyTorch
from corpus_lucid_c5 import show, train
from torch import nn


def _mse(out):
    """A loss that reaches every output element (a fixed target of 0.1)."""
    out = out[0] if isinstance(out, tuple) else out
    return ((out - 0.1) ** 2).mean()


def llama():
    """hkproj/pytorch-llama's ``model.py``: a 2-layer LLaMA with grouped-query attention, rotary embeddings as
    complex products and its KV cache, greedy decoding one token at a time, then a training step through the cache."""
    m = importlib.import_module("model")
    torch.manual_seed(0)
    args = m.ModelArgs(dim=64, n_layers=2, n_heads=4, n_kv_heads=2, vocab_size=97, multiple_of=16, max_batch_size=2,
                       max_seq_len=16, device="cpu")
    model = m.Transformer(args)
    show("freqs_complex", torch.view_as_real(model.freqs_complex))
    tokens = torch.tensor([[3], [41]])
    with torch.no_grad():
        for pos in range(8):
            logits = model(tokens, pos)
            show(f"logits {pos}", logits)
            tokens = logits[:, -1].argmax(-1, keepdim=True)
            print("next", tokens.flatten().tolist())
    x = torch.randn(2, 5, 4, 16)
    show("repeat_kv", m.repeat_kv(x, 2))
    show("rmsnorm", m.RMSNorm(16)(x))
    fresh = m.Transformer(args)
    train(fresh, (torch.tensor([[5], [7]]), 0), _mse, steps=2)


def transformer():
    """hkproj/pytorch-transformer's ``model.py``: ``build_transformer`` at d_model 32, encode, decode with causal and
    padding masks, project, a cross-entropy loss, Adam steps; and greedy decoding as its ``train.py`` does."""
    m = importlib.import_module("model")
    torch.manual_seed(0)
    model = m.build_transformer(31, 29, 10, 10, d_model=32, N=2, h=4, dropout=0.1, d_ff=64)
    src = torch.randint(1, 31, (3, 10))
    src[:, 7:] = 0
    tgt = torch.randint(1, 29, (3, 10))
    src_mask = (src != 0).unsqueeze(1).unsqueeze(1).int()
    causal = torch.triu(torch.ones(1, 10, 10), diagonal=1).type(torch.int) == 0
    tgt_mask = (tgt != 0).unsqueeze(1).int() & causal
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-9)
    loss_fn = nn.CrossEntropyLoss(ignore_index=0, label_smoothing=0.1)
    for step in range(3):
        enc = model.encode(src, src_mask)
        dec = model.decode(enc, src_mask, tgt, tgt_mask)
        logits = model.project(dec)
        loss = loss_fn(logits.view(-1, 29), tgt.view(-1))
        optimizer.zero_grad()
        loss.backward()
        print("step", step, loss.item())
        optimizer.step()
    for name, p in model.named_parameters():
        show(name, p.grad)
    model.eval()
    with torch.no_grad():
        enc = model.encode(src[:1], src_mask[:1])
        out = torch.tensor([[1]])
        for _ in range(9):
            mask = torch.triu(torch.ones(1, out.size(1), out.size(1)), diagonal=1).type(torch.int) == 0
            prob = model.project(model.decode(enc, src_mask[:1], out, mask)[:, -1])
            out = torch.cat([out, prob.argmax(-1, keepdim=True)], dim=1)
        print("greedy", out.tolist())


def sd_attention():
    """Stable Diffusion's ``attention.py``: self-attention with and without the causal mask, cross-attention."""
    m = importlib.import_module("attention")
    torch.manual_seed(0)
    x, y = torch.randn(2, 6, 16), torch.randn(2, 5, 12)
    show("self", m.SelfAttention(4, 16)(x))
    show("causal", m.SelfAttention(4, 16)(x, causal_mask=True))
    train(m.SelfAttention(2, 16, in_proj_bias=False), (x,), _mse, causal_mask=True)
    train(m.CrossAttention(4, 16, 12), (x, y), _mse)


def sd_clip():
    """Stable Diffusion's ``clip.py``: one ``CLIPLayer`` trained, the full 12-layer CLIP text encoder's forward."""
    m = importlib.import_module("clip")
    torch.manual_seed(0)
    emb = m.CLIPEmbedding(50, 16, 7)
    tokens = torch.randint(0, 50, (2, 7))
    show("embedding", emb(tokens))
    train(nn.Sequential(m.CLIPLayer(4, 16)), (torch.randn(2, 7, 16),), _mse)
    clip = m.CLIP()
    with torch.no_grad():
        show("clip", clip(torch.randint(0, 49408, (1, 77))))


def sd_vae():
    """Stable Diffusion's ``encoder.py`` and ``decoder.py``: the VAE's blocks trained, encoder and decoder run on a
    32x32 image and a 4x4 latent."""
    dec = importlib.import_module("decoder")
    enc = importlib.import_module("encoder")
    torch.manual_seed(0)
    train(dec.VAE_ResidualBlock(32, 64), (torch.randn(2, 32, 6, 6),), _mse)
    train(dec.VAE_AttentionBlock(32), (torch.randn(2, 32, 5, 5),), _mse)
    with torch.no_grad():
        latent = enc.VAE_Encoder()(torch.randn(1, 3, 32, 32), torch.randn(1, 4, 4, 4))
        show("latent", latent)
        show("image", dec.VAE_Decoder()(latent))


def sd_unet_parts():
    """Stable Diffusion's ``diffusion.py``: time embedding, residual and attention blocks of its U-Net at 64
    channels, upsampling and the output layer, trained together."""
    m = importlib.import_module("diffusion")
    torch.manual_seed(0)

    class Small(nn.Module):
        def __init__(self):
            super().__init__()
            self.time = m.TimeEmbedding(32)
            self.res = m.UNET_ResidualBlock(32, 64, n_time=128)
            self.attn = m.UNET_AttentionBlock(2, 32, d_context=16)
            self.up = m.Upsample(64)
            self.out = m.UNET_OutputLayer(64, 4)

        def forward(self, x, context, t):
            h = self.attn(self.res(x, self.time(t)), context)
            return self.out(self.up(h))

    train(Small(), (torch.randn(2, 32, 4, 4), torch.randn(2, 5, 16), torch.randn(1, 32)), _mse)


class _Tokens:
    """A CLIP tokenizer's stand-in: ``batch_encode_plus`` gives each word's ids (a sum of its characters' codes)."""

    def batch_encode_plus(self, texts, padding="max_length", max_length=77):
        ids = [[49406, *[sum(map(ord, w)) % 49000 for w in t.split()], 49407] for t in texts]
        return type("Encoding", (), {"input_ids": [i + [49407] * (max_length - len(i)) for i in ids]})


class _Clip(nn.Module):
    def __init__(self, clip):
        super().__init__()
        self.embedding = clip.CLIPEmbedding(49408, 16, 77)
        self.layer = clip.CLIPLayer(2, 16)

    def forward(self, tokens):
        return self.layer(self.embedding(tokens))


class _Unet(nn.Module):
    """A diffusion model with the pipeline's signature: the latents, the prompt's context, the time embedding."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(16, 4)
        self.time = nn.Linear(320, 4)

    def forward(self, latents, context, time):
        bias = self.ctx(context.mean(1)) + self.time(time)
        return self.conv(latents) + bias[:, :, None, None]


def sd_pipeline():
    """Stable Diffusion's ``pipeline.py``: ``generate`` with classifier-free guidance and its DDPM sampler over
    small stand-in models (a CLIP layer, a convolution as the U-Net, an upsampling decoder), 10 steps; its time
    embedding and ``rescale``; and ``ddpm.py``'s sampler alone: its schedule, noising and a step."""
    clip = importlib.import_module("clip")
    pipeline = importlib.import_module("pipeline")
    ddpm = importlib.import_module("ddpm")
    torch.manual_seed(0)
    decoder = nn.Sequential(nn.Upsample(scale_factor=8), nn.Conv2d(4, 3, 1))
    models = {"clip": _Clip(clip), "diffusion": _Unet(), "decoder": decoder}
    image = pipeline.generate("a cat on a mat", "", do_cfg=True, cfg_scale=7.5, n_inference_steps=10, models=models,
                              seed=42, device="cpu", tokenizer=_Tokens())
    print("image", image.shape, image.dtype, image[:2, :2].tolist(), int(image.sum()))
    show("time embedding", pipeline.get_time_embedding(981))
    show("rescale", pipeline.rescale(torch.linspace(0, 255, 7), (0, 255), (-1, 1)))
    sampler = ddpm.DDPMSampler(torch.Generator().manual_seed(3))
    sampler.set_inference_timesteps(20)
    print("timesteps", sampler.timesteps.tolist())
    sampler.set_strength(0.5)
    print("strength", sampler.timesteps.tolist(), sampler.start_step)
    x = torch.randn(1, 4, 3, 3)
    show("alphas_cumprod", sampler.alphas_cumprod)
    show("noised", sampler.add_noise(x, sampler.timesteps[0]))
    show("step", sampler.step(int(sampler.timesteps[0]), x, torch.full_like(x, 0.3)))
    show("last step", sampler.step(0, x, torch.full_like(x, 0.3)))


def ddpm_unet():
    """hkproj/pytorch-ddpm's ``model.py`` and ``modules.py``: the U-Net at dim 8 on 16x16 images, the diffusion
    model's loss (Algorithm 1) trained a few steps, and two denoising steps (Algorithm 2)."""
    m = importlib.import_module("model")
    torch.manual_seed(0)
    model = m.DiffusionModel(16 * 16, 50, 1)
    model.unet = m.Unet(dim=8, dim_mults=(1, 2), channels=1)
    batch = torch.rand(3, 1, 16, 16) * 2 - 1
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
    for step in range(3):
        loss = model.get_loss(batch, 0)
        optimizer.zero_grad()
        loss.backward()
        print("step", step, loss.item())
        optimizer.step()
    for name, p in model.named_parameters():
        show(name, p.grad)
    x = torch.randn(2, 1, 16, 16)
    for t in (torch.tensor(5), torch.tensor(1)):
        x = model.denoise_sample(x, t)
        show(f"denoised {int(t)}", x)


def dgai_transformer():
    """Learn Generative AI with PyTorch's ``utils/ch09util.py``: its encoder-decoder Transformer trained on a copy
    task through ``Batch``, ``LabelSmoothing``, ``SimpleLossCompute`` and ``NoamOpt``, then greedy decoding."""
    import numpy as np

    u = importlib.import_module("utils.ch09util")
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    model = u.create_model(11, 11, N=2, d_model=32, d_ff=64, h=4, dropout=0.1)
    optimizer = u.NoamOpt(32, 1, 40, torch.optim.Adam(model.parameters(), lr=0, betas=(0.9, 0.98), eps=1e-9))
    criterion = u.LabelSmoothing(size=11, padding_idx=0, smoothing=0.1)
    for step in range(4):
        data = rng.integers(1, 11, size=(8, 9))
        data[:, 0] = 1
        batch = u.Batch(data, data.copy(), 0)
        out = model(batch.src, batch.trg, batch.src_mask, batch.trg_mask)
        loss = u.SimpleLossCompute(model.generator, criterion, optimizer)(out, batch.trg_y, batch.ntokens)
        print("step", step, float(loss), optimizer._rate)
    show("true_dist", criterion.true_dist)
    model.eval()
    src = torch.tensor([[1, 2, 3, 4, 5, 6, 7, 8, 9]])
    memory = model.encode(src, torch.ones(1, 1, 9))
    ys = torch.ones(1, 1).long()
    for _ in range(8):
        out = model.decode(memory, torch.ones(1, 1, 9), ys, u.subsequent_mask(ys.size(1)).type_as(src))
        prob = model.generator(out[:, -1])
        ys = torch.cat([ys, prob.argmax(-1, keepdim=True)], dim=1)
    print("greedy", ys.tolist())
    show("logprob", prob)


def dgai_diffusion():
    """``utils/unet_util.py``'s U-Net at widths 16 and 32 on 16x16 images and ``utils/ch15util.py``'s DDIM scheduler
    (cosine betas): noising, a few training steps of the noise-prediction loss, and 5 DDIM steps of ``generate``."""
    sched = importlib.import_module("utils.ch15util")
    # NOTE: unet_util imports Attention and LayerNorm from ch14util, which has neither: ch15util defines them
    ch14 = importlib.import_module("utils.ch14util")
    ch14.Attention, ch14.LayerNorm = sched.Attention, sched.LayerNorm
    unet = importlib.import_module("utils.unet_util")
    torch.manual_seed(0)
    model = unet.UNet(3, hidden_dims=[16, 32], image_size=16)
    scheduler = sched.DDIMScheduler(num_train_timesteps=1000, beta_schedule="cosine")
    print("betas", scheduler.betas[:3].tolist(), float(scheduler.alphas_cumprod[-1]))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    images = torch.rand(2, 3, 16, 16) * 2 - 1
    for step in range(3):
        noise = torch.randn(images.shape)
        timesteps = torch.randint(0, 1000, (2,)).long()
        noisy = scheduler.add_noise(images, noise, timesteps)
        loss = torch.nn.functional.l1_loss(model(noisy, timesteps)["sample"], noise)
        optimizer.zero_grad()
        loss.backward()
        print("step", step, loss.item())
        optimizer.step()
    for name, p in list(model.named_parameters())[:12]:
        show(name, p.grad)
    out, frames = scheduler.generate(model, "cpu", batch_size=1, generator=torch.manual_seed(1), num_inference_steps=5)
    print("sample", out["sample"].shape, len(frames), float(abs(out["sample"]).sum()))


def dgai_cyclegan():
    """``utils/ch06util.py``'s CycleGAN generator and PatchGAN discriminator at small widths on 32x32 images: a
    generator and a discriminator step with the L1 cycle and MSE adversarial losses."""
    u = importlib.import_module("utils.ch06util")
    torch.manual_seed(0)
    gen = u.Generator(3, num_features=8, num_residuals=2)
    disc = u.Discriminator(3, features=[8, 16, 32, 64])
    a = torch.rand(2, 3, 32, 32) * 2 - 1
    fake = gen(a)
    show("fake", fake)
    show("patch", disc(fake))
    opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(disc.parameters(), lr=1e-4, betas=(0.5, 0.999))
    mse, l1 = nn.MSELoss(), nn.L1Loss()
    for step in range(2):
        fake = gen(a)
        d_real, d_fake = disc(a), disc(fake.detach())
        d_loss = mse(d_real, torch.ones_like(d_real)) + mse(d_fake, torch.zeros_like(d_fake))
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        d_fake = disc(fake)
        g_loss = mse(d_fake, torch.ones_like(d_fake)) + 10 * l1(gen(fake), a)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        print("step", step, d_loss.item(), g_loss.item())
    for name, p in list(gen.named_parameters())[:6] + list(disc.named_parameters())[:6]:
        show(name, p.grad)


def dgai_music():
    """``utils/ch14util.py``'s music Transformer (a GPT over event tokens) at 2 layers: training steps and sampling."""
    u = importlib.import_module("utils.ch14util")
    torch.manual_seed(0)
    config = type("Config", (), dict(n_layer=2, n_head=4, n_embd=32, vocab_size=390, block_size=24,
                                     embd_pdrop=0.1, resid_pdrop=0.1, attn_pdrop=0.1))()
    model = u.Model(config)
    x = torch.randint(0, 390, (4, 24))
    train(model, (x,), lambda out: nn.functional.cross_entropy(out.reshape(-1, 390), x.roll(-1, 1).reshape(-1)))
    model.eval()
    idx = x[:1, :4]
    with torch.no_grad():
        for _ in range(6):
            probs = torch.softmax(model(idx)[:, -1] / 1.0, dim=-1)
            idx = torch.cat([idx, torch.multinomial(probs, 1)], dim=1)
    print("sampled", idx.tolist())


def paligemma():
    """hkproj/pytorch-paligemma's ``modeling_gemma.py`` and ``modeling_siglip.py``: Gemma at 2 layers with grouped-query
    attention, rotary embeddings and its KV cache, prefilling a prompt then decoding greedily as its ``inference.py``
    does; a training step through it; SigLIP's encoder (its attention, MLP and layers, the patch convolution left
    out) trained."""
    g = importlib.import_module("modeling_gemma")
    s = importlib.import_module("modeling_siglip")
    torch.manual_seed(0)
    config = g.GemmaConfig(vocab_size=101, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                           num_attention_heads=4, num_key_value_heads=2, head_dim=8, max_position_embeddings=64)
    model = g.GemmaForCausalLM(config)
    model.tie_weights()
    ids = torch.tensor([[2, 17, 45, 9, 88]])
    with torch.no_grad():
        cache = g.KVCache()
        mask = torch.zeros(1, 5, 5)  # the prefill's mask: PaliGemma attends the whole prompt
        out = model(attention_mask=mask, position_ids=torch.arange(1, 6)[None], inputs_embeds=
                    model.get_input_embeddings()(ids), kv_cache=cache)
        show("prefill logits", out["logits"])
        tokens = []
        for _ in range(6):
            next_id = out["logits"][:, -1].argmax(-1, keepdim=True)
            tokens.append(int(next_id))
            n = cache.num_items()
            out = model(attention_mask=torch.zeros(1, 1, n + 1), position_ids=torch.tensor([[n + 1]]),
                        inputs_embeds=model.get_input_embeddings()(next_id), kv_cache=cache)
        print("greedy", tokens, cache.num_items())
        show("last logits", out["logits"])

    def lm_loss(out):
        return nn.functional.cross_entropy(out["logits"][0, :-1], ids[0, 1:])

    embeds = model.get_input_embeddings()(ids).detach()
    train(model, (), lm_loss, steps=2, attention_mask=torch.zeros(1, 5, 5), position_ids=torch.arange(1, 6)[None],
          inputs_embeds=embeds)
    vision = s.SiglipVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                                  image_size=16, patch_size=4)
    train(s.SiglipEncoder(vision), (), _mse, inputs_embeds=torch.randn(2, 16, 32))
