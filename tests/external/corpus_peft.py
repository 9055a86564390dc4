"""Drivers for Hugging Face peft's and diffusers' own packages (``recipes_peft.py``; our text).

A recipe runs one of the library's modules as the module it is (the package fetched beside it and loaded in both
runs by the runner) and calls a driver here, which imports the package itself. The drivers do what peft's
quicktour and docs do: wrap a tiny random-initialised model with ``get_peft_model``, print the trainable
parameters, train a few AdamW steps, merge the adapter and save/load it; they print losses, counts and sums.
"""

from __future__ import annotations

import inspect
import os
import tempfile

import torch


def _sum(t):
    return f"{t.detach().double().abs().sum().item():.6g}"


def _adapter_sums(model):
    """Each trainable parameter's name, shape and absolute sum (the adapter's weights)."""
    for name, p in model.named_parameters():
        if p.requires_grad:
            print(" ", name, tuple(p.shape), _sum(p))


def _train(model, batch_fn, steps=3, lr=1e-2):
    torch.manual_seed(0)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr)
    model.train()
    for step in range(steps):
        opt.zero_grad()
        loss = batch_fn(model)
        loss.backward()
        opt.step()
        print(step, "loss", f"{loss.item():.6g}")


def lora_mlp():
    """peft's custom-models guide: LoRA on an nn.Sequential MLP with ``target_modules=["0", "2"]`` and the last
    layer fully trained (``modules_to_save``), trained, merged, saved and loaded again."""
    from peft import LoraConfig, PeftModel, get_peft_model

    torch.manual_seed(0)
    base = torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32), torch.nn.ReLU(),
                               torch.nn.Linear(32, 2))
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(16, 20, generator=g), torch.randint(0, 2, (16,), generator=g)
    config = LoraConfig(target_modules=["0", "2"], modules_to_save=["4"], r=4, lora_alpha=8)
    model = get_peft_model(base, config)
    model.print_trainable_parameters()
    print(model.get_nb_trainable_parameters())
    print(type(model).__name__, type(model.base_model).__name__, type(model.base_model.model[0]).__name__)
    _adapter_sums(model)
    _train(model, lambda m: torch.nn.functional.cross_entropy(m(x), y))
    _adapter_sums(model)
    model.eval()
    with torch.no_grad():
        out = model(x)
    print("out", _sum(out))
    with tempfile.TemporaryDirectory() as folder:
        model.save_pretrained(folder, safe_serialization=False)
        print(sorted(os.listdir(folder)))
        state = torch.load(os.path.join(folder, "adapter_model.bin"), weights_only=True)
        print(sorted((k, tuple(v.shape)) for k, v in state.items()))
        torch.manual_seed(0)
        fresh = torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32),
                                    torch.nn.ReLU(), torch.nn.Linear(32, 2))
        loaded = PeftModel.from_pretrained(fresh, folder)
        with torch.no_grad():
            print("loaded same", torch.equal(loaded(x), out))
    with torch.no_grad():
        merged = model.merge_and_unload()
        print(type(merged).__name__, type(merged[0]).__name__)
        print("merged close", torch.allclose(merged(x), out, atol=1e-5))


TINY = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37, vocab_size=99)


def _ids(batch=2, length=7, vocab=99, seed=0):
    """Seeded token ids in [1, vocab) and an attention mask whose second row ends in two pads."""
    g = torch.Generator().manual_seed(seed)
    input_ids = torch.randint(1, vocab, (batch, length), generator=g)
    mask = torch.ones(batch, length, dtype=torch.long)
    mask[1:, length - 2:] = 0
    return input_ids, mask


def _bert_classifier():
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    return BertForSequenceClassification(BertConfig(**TINY, num_labels=3))


def _gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    return GPT2LMHeadModel(GPT2Config(n_embd=32, n_layer=2, n_head=2, vocab_size=99, n_positions=64,
                                      bos_token_id=1, eos_token_id=2, pad_token_id=0))


def _llama():
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    return LlamaForCausalLM(LlamaConfig(**TINY, num_key_value_heads=1, max_position_embeddings=64, pad_token_id=0,
                                        bos_token_id=1, eos_token_id=2))


def _classify(model):
    input_ids, mask = _ids()
    labels = torch.tensor([2, 0])
    return lambda m: m(input_ids=input_ids, attention_mask=mask, labels=labels).loss


def _lm(model):
    input_ids, mask = _ids()
    labels = input_ids.masked_fill(mask == 0, -100)
    return lambda m: m(input_ids=input_ids, attention_mask=mask, labels=labels).loss


def _logits(model):
    input_ids, mask = _ids(seed=3)
    model.eval()
    with torch.no_grad():
        out = model(input_ids=input_ids, attention_mask=mask).logits
    print("logits", tuple(out.shape), _sum(out))
    return out


def _generate(model):
    input_ids = _ids()[0][:, :4]
    with torch.no_grad():
        out = model.generate(input_ids=input_ids, attention_mask=torch.ones_like(input_ids), max_new_tokens=4,
                             do_sample=False, pad_token_id=0)
    print("generate", out.tolist())


def lora_bert():
    """LoRA on BERT's attention for sequence classification (peft's quicktour, ``task_type="SEQ_CLS"``: the
    classifier head is trained in full), then merged: the merged model's logits equal the adapted model's."""
    from peft import LoraConfig, TaskType, get_peft_model

    model = get_peft_model(_bert_classifier(), LoraConfig(task_type=TaskType.SEQ_CLS, r=8, lora_alpha=16,
                                                          lora_dropout=0.1, target_modules=["query", "value"]))
    model.print_trainable_parameters()
    print(type(model).__name__, model.peft_config["default"].modules_to_save)
    _train(model, _classify(model))
    out = _logits(model)
    with model.disable_adapter():
        base = _logits(model)
    print("adapter changes logits", not torch.allclose(out, base))
    merged = model.merge_and_unload()
    print(type(merged).__name__, type(merged.bert.encoder.layer[0].attention.self.query).__name__)
    print("merged close", torch.allclose(_logits(merged), out, atol=1e-5))


def lora_causal_lm(which):
    """LoRA on GPT-2 (its Conv1D ``c_attn``, ``fan_in_fan_out=True``) and on Llama's q/v projections, trained as
    causal LMs, generating greedily, the adapter saved and loaded (``torch.save`` format), two adapters switched."""
    from peft import LoraConfig, PeftModel, get_peft_model

    make, targets, extra = dict(gpt2=(_gpt2, ["c_attn"], dict(fan_in_fan_out=True)),
                                llama=(_llama, ["q_proj", "v_proj"], {}))[which]
    if True:  # (one model per script: each well under 2 s)
        model = get_peft_model(make(), LoraConfig(task_type="CAUSAL_LM", r=4, lora_alpha=8, target_modules=targets,
                                                  lora_dropout=0.0, **extra))
        model.print_trainable_parameters()
        _train(model, _lm(model), steps=2)
        out = _logits(model)
        _generate(model)
        with tempfile.TemporaryDirectory() as folder:
            model.save_pretrained(folder, safe_serialization=False)
            print(sorted(os.listdir(folder)))
            loaded = PeftModel.from_pretrained(make(), folder)
            print("loaded same", torch.equal(_logits(loaded), out))
            loaded.load_adapter(folder, adapter_name="second")
            print(sorted(loaded.peft_config), loaded.active_adapter)
            loaded.set_adapter("second")
            print(loaded.active_adapter, "same", torch.equal(_logits(loaded), out))
        model.add_adapter("other", LoraConfig(task_type="CAUSAL_LM", r=2, target_modules=targets, **extra))
        model.set_adapter("other")
        print("other adapter", model.active_adapter)
        _logits(model)
        model.delete_adapter("other")
        print(sorted(model.peft_config))


def ia3():
    """IA3 (learned rescaling vectors) on GPT-2 and BERT with peft's default target modules for each."""
    from peft import IA3Config, get_peft_model

    model = get_peft_model(_gpt2(), IA3Config(task_type="CAUSAL_LM"))
    model.print_trainable_parameters()
    _adapter_sums(model)
    _train(model, _lm(model), lr=0.1)
    out = _logits(model)
    print("merged close", torch.allclose(_logits(model.merge_and_unload()), out, atol=1e-5))
    model = get_peft_model(_bert_classifier(), IA3Config(task_type="SEQ_CLS", target_modules=["key", "value",
                                                                                              "output.dense"],
                                                         feedforward_modules=["output.dense"]))
    model.print_trainable_parameters()
    _train(model, _classify(model), lr=0.1)
    _logits(model)


def prompt_learning(which, kinds):
    """Prefix tuning, prompt tuning and P-tuning on GPT-2 and Llama: virtual tokens prepended (prompt tuning,
    P-tuning) or per-layer key/value prefixes (prefix tuning, through the model's cache), trained and generating.
    ``kinds``: "prefix" (prefix tuning with and without its projection) or "prompt" (prompt tuning, P-tuning)."""
    from peft import PrefixTuningConfig, PromptEncoderConfig, PromptTuningConfig, PromptTuningInit, get_peft_model

    configs = [lambda: PrefixTuningConfig(task_type="CAUSAL_LM", num_virtual_tokens=4),
               lambda: PrefixTuningConfig(task_type="CAUSAL_LM", num_virtual_tokens=4, prefix_projection=True,
                                          encoder_hidden_size=16),
               lambda: PromptTuningConfig(task_type="CAUSAL_LM", num_virtual_tokens=4,
                                          prompt_tuning_init=PromptTuningInit.RANDOM),
               lambda: PromptEncoderConfig(task_type="CAUSAL_LM", num_virtual_tokens=4, encoder_hidden_size=16)]
    for make in [dict(gpt2=_gpt2, llama=_llama)[which]]:
        for config in configs[:2] if kinds == "prefix" else configs[2:]:
            torch.manual_seed(1)
            model = get_peft_model(make(), config())
            print(type(model.base_model).__name__, model.peft_config["default"].peft_type)
            model.print_trainable_parameters()
            _adapter_sums(model)
            _train(model, _lm(model), steps=2, lr=0.1)
            _logits(model)
            _generate(model)


def lycoris():
    """LoHa and LoKr (low-rank Hadamard and Kronecker products) on the MLP and on BERT, trained and merged."""
    from peft import LoHaConfig, LoKrConfig, get_peft_model

    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(16, 20, generator=g), torch.randint(0, 2, (16,), generator=g)
    for config in (LoHaConfig(r=4, alpha=8, target_modules=["0", "2"], init_weights=False),
                   LoKrConfig(r=4, alpha=8, target_modules=["0", "2"], decompose_both=True, decompose_factor=4),
                   LoHaConfig(r=2, target_modules=["0", "2"], rank_dropout=0.2, module_dropout=0.1)):
        torch.manual_seed(0)
        base = torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32),
                                   torch.nn.ReLU(), torch.nn.Linear(32, 2))
        model = get_peft_model(base, config)
        model.print_trainable_parameters()
        _adapter_sums(model)
        _train(model, lambda m: torch.nn.functional.cross_entropy(m(x), y))
        model.eval()
        with torch.no_grad():
            out = model(x)
            print("out", _sum(out), "merged close", torch.allclose(model.merge_and_unload()(x), out, atol=1e-5))
    for config in (LoHaConfig(task_type="SEQ_CLS", r=4, target_modules=["query", "value"]),
                   LoKrConfig(task_type="SEQ_CLS", r=4, target_modules=["query", "value"])):
        model = get_peft_model(_bert_classifier(), config)
        model.print_trainable_parameters()
        _train(model, _classify(model), steps=2)
        _logits(model)


def adalora():
    """AdaLoRA on Llama: SVD-shaped adapters whose ranks the budget allocator prunes during training
    (``update_and_allocate`` after each backward, as peft's docs ask), the orthogonal regulariser in the loss."""
    from peft import AdaLoraConfig, get_peft_model

    config = AdaLoraConfig(task_type="CAUSAL_LM", init_r=6, target_r=2, tinit=1, tfinal=1, deltaT=1, total_step=6,
                           target_modules=["q_proj", "v_proj"], lora_alpha=8)
    model = get_peft_model(_llama(), config)
    model.print_trainable_parameters()
    batch = _lm(model)
    torch.manual_seed(0)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
    model.train()
    for step in range(6):
        loss = batch(model)
        loss.backward()
        opt.step()
        model.base_model.update_and_allocate(step)
        opt.zero_grad()
        print(step, "loss", f"{loss.item():.6g}")
    print("rank pattern", {k.split("model.layers.")[-1]: sum(v) for k, v in
                           sorted((model.peft_config["default"].rank_pattern or {}).items())})
    _logits(model)


def schedulers(kind):
    """A diffusers noise scheduler as its docs' training and sampling loops use it: ``add_noise`` at seeded
    timesteps, ``set_timesteps`` and ``step`` over a stand-in model output (seeded noise), with a seeded Generator
    where the step draws (DDPM's variance, Euler's churn)."""
    import diffusers

    make = dict(ddpm=lambda: diffusers.DDPMScheduler(num_train_timesteps=50),
                ddim=lambda: diffusers.DDIMScheduler(num_train_timesteps=50, beta_schedule="scaled_linear"),
                euler=lambda: diffusers.EulerDiscreteScheduler(num_train_timesteps=50))[kind]
    scheduler = make()
    print(type(scheduler).__name__, dict(sorted(scheduler.config.items()))["beta_schedule"],
          scheduler.config.num_train_timesteps, f"{scheduler.init_noise_sigma:.6g}")
    g = torch.Generator().manual_seed(0)
    clean = torch.randn(2, 3, 8, 8, generator=g)
    noise = torch.randn(clean.shape, generator=g)
    timesteps = torch.randint(0, 50, (2,), generator=g)
    noisy = scheduler.add_noise(clean, noise, timesteps)
    print("timesteps", timesteps.tolist(), "noisy", _sum(noisy))
    for steps in (5, 10):
        scheduler.set_timesteps(steps)
        print("set_timesteps", steps, scheduler.timesteps.tolist())
    sample = torch.randn(2, 3, 8, 8, generator=g) * scheduler.init_noise_sigma
    for t in scheduler.timesteps:
        model_input = scheduler.scale_model_input(sample, t)
        model_output = 0.1 * model_input + 0.05 * torch.randn(sample.shape, generator=g)
        out = scheduler.step(model_output, t, sample, generator=g)
        sample = out.prev_sample
        print(int(t), _sum(sample), type(out).__name__)
    print("final", _sum(sample), _sum(out.pred_original_sample))


def _unet2d():
    import diffusers

    torch.manual_seed(0)
    return diffusers.UNet2DModel(sample_size=8, in_channels=3, out_channels=3, layers_per_block=1,
                                 block_out_channels=(16, 32), norm_num_groups=8,
                                 down_block_types=("DownBlock2D", "AttnDownBlock2D"),
                                 up_block_types=("AttnUpBlock2D", "UpBlock2D"))


def _count(model):
    print(type(model).__name__, "parameters", sum(p.numel() for p in model.parameters()),
          "num_parameters", model.num_parameters())


def unet2d():
    """diffusers' unconditional training example (``train_unconditional.py``) at a tiny size: a UNet2DModel with
    attention blocks, noise added by DDPMScheduler at random timesteps, MSE on the predicted noise weighted by
    min-SNR (``compute_snr``), AdamW with the cosine warm-up schedule, an EMAModel (``foreach``) of the weights;
    then the model saved and loaded (``save_pretrained`` through torch.save, ``safe_serialization=False``)."""
    import diffusers
    from diffusers.optimization import get_cosine_schedule_with_warmup
    from diffusers.training_utils import EMAModel, compute_snr

    model = _unet2d()
    _count(model)
    scheduler = diffusers.DDPMScheduler(num_train_timesteps=100)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    lr_schedule = get_cosine_schedule_with_warmup(opt, num_warmup_steps=1, num_training_steps=3)
    ema = EMAModel(model.parameters(), decay=0.9, use_ema_warmup=True, model_cls=diffusers.UNet2DModel,
                   model_config=model.config, foreach=True)
    g = torch.Generator().manual_seed(0)
    images = torch.randn(2, 3, 8, 8, generator=g).clamp(-1, 1)
    model.train()
    for step in range(3):
        noise = torch.randn(images.shape, generator=g)
        timesteps = torch.randint(0, 100, (2,), generator=g)
        noisy = scheduler.add_noise(images, noise, timesteps)
        pred = model(noisy, timesteps, return_dict=False)[0]
        snr = compute_snr(scheduler, timesteps)  # min-SNR-5 weighting, as train_text_to_image.py's --snr_gamma
        weights = torch.stack([snr, 5 * torch.ones_like(timesteps)], dim=1).min(dim=1)[0] / snr
        loss = torch.nn.functional.mse_loss(pred.float(), noise.float(), reduction="none")
        loss = (loss.mean(dim=list(range(1, len(loss.shape)))) * weights).mean()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        lr_schedule.step()
        opt.zero_grad()
        ema.step(model.parameters())
        print(step, "loss", f"{loss.item():.6g}", "lr", f"{lr_schedule.get_last_lr()[0]:.6g}",
              "ema decay", f"{ema.cur_decay_value:.6g}")
    model.eval()
    with torch.no_grad():
        out = model(noisy, timesteps).sample
    print("sample", tuple(out.shape), _sum(out))
    ema.copy_to(model.parameters())
    with tempfile.TemporaryDirectory() as folder:
        model.save_pretrained(folder, safe_serialization=False)
        print(sorted(os.listdir(folder)))
        loaded = diffusers.UNet2DModel.from_pretrained(folder, use_safetensors=False)
        with torch.no_grad():
            print("loaded", type(loaded).__name__, loaded.training,
                  torch.equal(loaded(noisy, timesteps).sample, model(noisy, timesteps).sample))


def unet2d_condition():
    """A tiny UNet2DConditionModel (Stable Diffusion's, as diffusers' tests size it): cross-attention on seeded
    text embeddings, a training step on the noise; and classifier-free guidance over a DDIM sampling loop."""
    import diffusers

    torch.manual_seed(0)
    model = diffusers.UNet2DConditionModel(sample_size=8, in_channels=4, out_channels=4, layers_per_block=1,
                                           block_out_channels=(16, 32), norm_num_groups=8, cross_attention_dim=24,
                                           attention_head_dim=4,
                                           down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
                                           up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"))
    _count(model)
    g = torch.Generator().manual_seed(0)
    latents = torch.randn(2, 4, 8, 8, generator=g)
    text = torch.randn(2, 5, 24, generator=g)
    scheduler = diffusers.DDIMScheduler(num_train_timesteps=100, beta_schedule="scaled_linear",
                                        clip_sample=False, set_alpha_to_one=False)
    noise = torch.randn(latents.shape, generator=g)
    timesteps = torch.tensor([10, 80])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    pred = model(scheduler.add_noise(latents, noise, timesteps), timesteps, encoder_hidden_states=text).sample
    loss = torch.nn.functional.mse_loss(pred, noise)
    loss.backward()
    opt.step()
    print("loss", f"{loss.item():.6g}")
    model.eval()
    scheduler.set_timesteps(3)
    sample = torch.randn(1, 4, 8, 8, generator=g)
    uncond, cond = torch.zeros(1, 5, 24), text[:1]
    with torch.no_grad():
        for t in scheduler.timesteps:
            both = model(torch.cat([sample] * 2), t, encoder_hidden_states=torch.cat([uncond, cond])).sample
            pred_uncond, pred_cond = both.chunk(2)
            guided = pred_uncond + 7.5 * (pred_cond - pred_uncond)
            sample = scheduler.step(guided, t, sample).prev_sample
            print(int(t), _sum(sample))


def autoencoder_kl():
    """A tiny AutoencoderKL (the VAE of latent diffusion): encode to a diagonal Gaussian, sample it with a seeded
    Generator, decode; the KL and reconstruction loss of a training step; tiled decoding off."""
    import diffusers

    torch.manual_seed(0)
    vae = diffusers.AutoencoderKL(in_channels=3, out_channels=3, latent_channels=4, block_out_channels=(8, 16),
                                  layers_per_block=1, norm_num_groups=4, sample_size=16,
                                  down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
                                  up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"))
    _count(vae)
    g = torch.Generator().manual_seed(0)
    images = torch.randn(2, 3, 16, 16, generator=g)
    posterior = vae.encode(images).latent_dist
    print("mean", tuple(posterior.mean.shape), _sum(posterior.mean), "std", _sum(posterior.std))
    latents = posterior.sample(generator=g) * vae.config.scaling_factor
    print("latents", _sum(latents), "mode", _sum(posterior.mode()))
    decoded = vae.decode(latents / vae.config.scaling_factor).sample
    loss = torch.nn.functional.mse_loss(decoded, images) + 1e-6 * posterior.kl().mean()
    loss.backward()
    print("decoded", tuple(decoded.shape), _sum(decoded), "kl", _sum(posterior.kl()), "loss", f"{loss.item():.6g}")
    with torch.no_grad():
        out = vae(images, sample_posterior=True, generator=torch.Generator().manual_seed(1)).sample
    print("forward", _sum(out))


def pipeline(kind):
    """``DDPMPipeline(unet, scheduler)`` / ``DDIMPipeline``: three inference steps from a seeded torch Generator,
    output_type "pt" and "np" (Pillow is not installed: no "pil"; both pipelines hand back NumPy arrays for either)."""
    import diffusers

    unet = _unet2d()
    if kind == "ddpm":
        pipe = diffusers.DDPMPipeline(unet=unet, scheduler=diffusers.DDPMScheduler(num_train_timesteps=100))
    else:
        pipe = diffusers.DDIMPipeline(unet=unet, scheduler=diffusers.DDIMScheduler(num_train_timesteps=100))
    pipe.set_progress_bar_config(disable=True)
    print(type(pipe).__name__, sorted(pipe.components), pipe.device, pipe.dtype)
    extra = {} if kind == "ddpm" else dict(eta=0.5)
    images = pipe(batch_size=2, generator=torch.Generator().manual_seed(0), num_inference_steps=3,
                  output_type="pt", **extra).images
    print("pt", type(images).__name__, tuple(images.shape))  # (DDPM's and DDIM's pipelines give NumPy arrays)
    images = torch.as_tensor(images)
    print(images.dtype, _sum(images), f"{images.min().item():.5f}")
    arrays = pipe(batch_size=1, generator=torch.Generator().manual_seed(0), num_inference_steps=3,
                  output_type="np", return_dict=False, **extra)[0]
    print("np", type(arrays).__name__, arrays.shape, arrays.dtype, f"{abs(arrays).sum():.6g}")
    if kind == "ddpm":  # the pipeline saved (model_index.json, each component's folder) and loaded back
        with tempfile.TemporaryDirectory() as folder:
            pipe.save_pretrained(folder, safe_serialization=False)
            print(sorted(os.listdir(folder)), sorted(os.listdir(os.path.join(folder, "unet"))))
            loaded = diffusers.DiffusionPipeline.from_pretrained(folder, use_safetensors=False)
            loaded.set_progress_bar_config(disable=True)
            again = loaded(batch_size=1, generator=torch.Generator().manual_seed(0), num_inference_steps=3,
                           output_type="np", return_dict=False)[0]
            print(type(loaded).__name__, type(loaded.scheduler).__name__, "same", (again == arrays).all())


def more_schedulers():
    """The other samplers diffusers' docs swap into a pipeline (``from_config`` of one scheduler's config):
    PNDM, DPM-Solver++ (multistep, and its SDE variant drawing from the Generator), UniPC, Heun, Euler ancestral,
    LMS-free ones only (LMS needs SciPy); each sampling 4 steps on a stand-in model output."""
    import diffusers

    base = diffusers.DDPMScheduler(num_train_timesteps=50, beta_schedule="squaredcos_cap_v2")
    kinds = [("PNDMScheduler", {}), ("DPMSolverMultistepScheduler", {}),
             ("DPMSolverMultistepScheduler", dict(algorithm_type="sde-dpmsolver++")),
             ("UniPCMultistepScheduler", {}), ("HeunDiscreteScheduler", {}),
             ("EulerAncestralDiscreteScheduler", {}), ("DEISMultistepScheduler", {})]
    for name, extra in kinds:
        scheduler = getattr(diffusers, name).from_config(base.config, **extra)
        scheduler.set_timesteps(4)
        g = torch.Generator().manual_seed(0)
        sample = torch.randn(1, 3, 8, 8, generator=g) * scheduler.init_noise_sigma
        for t in scheduler.timesteps:
            model_input = scheduler.scale_model_input(sample, t)
            model_output = 0.1 * model_input + 0.05 * torch.randn(sample.shape, generator=g)
            draws = "generator" in inspect.signature(scheduler.step).parameters  # (the stochastic ones)
            sample = scheduler.step(model_output, t, sample, **(dict(generator=g) if draws else {})).prev_sample
        print(name, scheduler.config.get("algorithm_type", ""), [f"{float(t):.4g}" for t in scheduler.timesteps],
              _sum(sample))


def more_tuners(group):
    """peft's other adapters on the MLP of its custom-models guide, each trained 2 AdamW steps and, where the
    tuner merges, merged: orthogonal ones (OFT's Cayley transform, BOFT's butterfly factors, HRA's Householder
    reflections), shared random projections (VeRA, RandLoRA), spectral ones (FourierFT, C3A's circular
    convolution), sparse and block ones (SHiRA, MiSS, RoAd), and LayerNorm tuning on BERT."""
    import peft

    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(16, 20, generator=g), torch.randint(0, 2, (16,), generator=g)
    targets = ["0", "2"]
    configs = dict(
        orthogonal=[peft.OFTConfig(r=4, oft_block_size=0, target_modules=targets),
                    peft.OFTConfig(r=0, oft_block_size=4, target_modules=targets, coft=True, use_cayley_neumann=False),
                    peft.BOFTConfig(boft_block_size=4, boft_n_butterfly_factor=2, target_modules=targets),
                    peft.HRAConfig(r=4, target_modules=targets, init_weights=False)],
        random=[peft.VeraConfig(r=4, target_modules=targets, init_weights=False),
                peft.RandLoraConfig(r=4, target_modules=targets)],
        spectral=[peft.FourierFTConfig(n_frequency=20, scaling=10.0, target_modules=targets, init_weights=False),
                  peft.C3AConfig(block_size=4, target_modules=targets, init_weights="gaussian")],
        sparse=[peft.ShiraConfig(r=2, target_modules=targets), peft.MissConfig(r=4, target_modules=targets),
                peft.RoadConfig(variant="road_1", target_modules=targets, group_size=4)],
    )[group]
    for config in configs:
        torch.manual_seed(0)
        base = torch.nn.Sequential(torch.nn.Linear(20, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32),
                                   torch.nn.ReLU(), torch.nn.Linear(32, 2))
        model = peft.get_peft_model(base, config)
        print(type(config).__name__, type(model.base_model.model[0]).__name__)
        model.print_trainable_parameters()
        _adapter_sums(model)
        _train(model, lambda m: torch.nn.functional.cross_entropy(m(x), y), steps=2)
        model.eval()
        with torch.no_grad():
            out = model(x)
            print("out", _sum(out))
            try:
                merged = model.merge_and_unload()
            except (NotImplementedError, ValueError, AttributeError) as exc:  # not every tuner merges
                print("no merge:", type(exc).__name__, str(exc)[:80])
            else:
                print("merged close", torch.allclose(merged(x), out, atol=1e-4))
    if group == "sparse":
        config = peft.LNTuningConfig(task_type="SEQ_CLS", target_modules=["LayerNorm"])
        model = peft.get_peft_model(_bert_classifier(), config)
        model.print_trainable_parameters()
        _train(model, _classify(model), steps=2)
        _logits(model)


def unet_lora():
    """LoRA on a diffusers UNet through peft, as diffusers' ``train_text_to_image_lora.py`` does: the UNet frozen,
    ``unet.add_adapter(LoraConfig(..., target_modules=["to_k", "to_q", "to_v", "to_out.0"]))``, training the LoRA
    parameters on the noise, ``get_peft_model_state_dict`` for saving, and the adapter switched off and on."""
    import diffusers
    from peft import LoraConfig
    from peft.utils import get_peft_model_state_dict

    torch.manual_seed(0)
    unet = diffusers.UNet2DConditionModel(sample_size=8, in_channels=4, out_channels=4, layers_per_block=1,
                                          block_out_channels=(16, 32), norm_num_groups=8, cross_attention_dim=24,
                                          attention_head_dim=4,
                                          down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
                                          up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"))
    unet.requires_grad_(False)
    torch.manual_seed(1)
    unet.add_adapter(LoraConfig(r=4, lora_alpha=4, init_lora_weights="gaussian",
                                target_modules=["to_k", "to_q", "to_v", "to_out.0"]))
    lora = [p for p in unet.parameters() if p.requires_grad]
    print("lora parameters", len(lora), sum(p.numel() for p in lora), "of", sum(p.numel() for p in unet.parameters()))
    scheduler = diffusers.DDPMScheduler(num_train_timesteps=100)
    opt = torch.optim.AdamW(lora, lr=1e-3)
    g = torch.Generator().manual_seed(0)
    latents, text = torch.randn(2, 4, 8, 8, generator=g), torch.randn(2, 5, 24, generator=g)
    for step in range(2):
        noise = torch.randn(latents.shape, generator=g)
        timesteps = torch.randint(0, 100, (2,), generator=g)
        pred = unet(scheduler.add_noise(latents, noise, timesteps), timesteps, encoder_hidden_states=text).sample
        loss = torch.nn.functional.mse_loss(pred, noise)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(lora, 1.0)
        opt.step()
        opt.zero_grad()
        print(step, "loss", f"{loss.item():.6g}")
    state = get_peft_model_state_dict(unet)
    print("state", len(state), sorted(state)[:2], _sum(sum(v.abs().sum() for v in state.values())))
    with torch.no_grad():
        on = unet(latents, 10, encoder_hidden_states=text).sample
        unet.disable_adapters()
        off = unet(latents, 10, encoder_hidden_states=text).sample
        unet.enable_adapters()
        again = unet(latents, 10, encoder_hidden_states=text).sample
        print("on", _sum(on), "off", _sum(off), "same again", torch.equal(again, on))


def lora_seq2seq():
    """LoRA on T5 and BART for sequence-to-sequence LM (``task_type="SEQ_2_SEQ_LM"``, peft's
    PeftModelForSeq2SeqLM): training on labels, greedy ``generate`` through the adapter, merged."""
    from peft import LoraConfig, get_peft_model
    from transformers import BartConfig, BartForConditionalGeneration, T5Config, T5ForConditionalGeneration

    models = [(lambda: T5ForConditionalGeneration(T5Config(vocab_size=99, d_model=32, d_kv=8, d_ff=37, num_layers=2,
                                                           num_heads=4, decoder_start_token_id=0, pad_token_id=0,
                                                           eos_token_id=1)), ["q", "v"]),
              (lambda: BartForConditionalGeneration(BartConfig(vocab_size=99, d_model=32, encoder_layers=2,
                                                               decoder_layers=2, encoder_attention_heads=2,
                                                               decoder_attention_heads=2, encoder_ffn_dim=37,
                                                               decoder_ffn_dim=37, max_position_embeddings=64,
                                                               pad_token_id=0, eos_token_id=2,
                                                               decoder_start_token_id=0,
                                                               forced_eos_token_id=None)), ["q_proj", "v_proj"])]
    for make, targets in models:
        torch.manual_seed(0)
        model = get_peft_model(make(), LoraConfig(task_type="SEQ_2_SEQ_LM", r=4, lora_alpha=8,
                                                  target_modules=targets))
        print(type(model).__name__, type(model.base_model.model).__name__)
        model.print_trainable_parameters()
        input_ids, mask = _ids()
        labels = _ids(2, 5, seed=1)[0]
        _train(model, lambda m, i=input_ids, a=mask, y=labels: m(input_ids=i, attention_mask=a, labels=y).loss,
               steps=2)
        model.eval()
        with torch.no_grad():
            out = model.generate(input_ids=input_ids, attention_mask=mask, max_new_tokens=4, do_sample=False)
            print("generate", out.tolist())
            logits = model(input_ids=input_ids, attention_mask=mask, labels=labels).logits
            merged = model.merge_and_unload()
            print("merged close", torch.allclose(merged(input_ids=input_ids, attention_mask=mask,
                                                        labels=labels).logits, logits, atol=1e-5))
