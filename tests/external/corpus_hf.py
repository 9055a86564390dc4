"""Drivers for Hugging Face transformers' own modeling code (``recipes_hf.py``; our text).

A recipe runs one of transformers' ``modeling_*.py`` files as the module it is (``__package__`` set, the package
fetched beside it; ``runner._real_transformers`` loads it in both runs with ``fake_hf_hub``'s stand-ins for the Hub,
safetensors and tokenizers) and calls a driver here with the module's namespace. The drivers do what transformers'
model tests (``tests/models/*/test_modeling_*.py``: tiny random-initialised configs) and its docs do: build the
models from a seeded config, count parameters, run forwards with attention masks and ``output_hidden_states``,
train a few AdamW steps on the loss the model computes from ``labels``, and generate greedily; for ``eager`` and
``sdpa`` attention. They print shapes, sums, losses and a few values.
"""

from __future__ import annotations

import torch

TINY = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37, vocab_size=99)


def _values(t, n=5):
    """The first values to 5 decimals (fixed digits: a value near 0 is rounding noise)."""
    return [f"{v:.5f}" for v in t.detach().flatten()[:n].tolist()]


def show(name, out):
    """A tensor's shape, dtype, the sum of its absolute values and its first values (tuples and lists: each part).
    Not the plain sum: LayerNorm's outputs sum to rounding noise."""
    if isinstance(out, (tuple, list)):
        for i, value in enumerate(out):
            show(f"{name}[{i}]", value)
        return
    if not isinstance(out, torch.Tensor):
        print(name, type(out).__name__, out)
        return
    total = out.double().abs().sum().item() if out.numel() and out.is_floating_point() else out.sum().item()
    print(name, tuple(out.shape), str(out.dtype), f"abs sum {total:.6g}", _values(out))


def ids(batch=2, length=7, vocab=99, seed=0):
    """Seeded token ids in [1, vocab) (0 is the pad id of the tiny configs) and a mask whose second row is padded."""
    g = torch.Generator().manual_seed(seed)
    input_ids = torch.randint(1, vocab, (batch, length), generator=g)
    mask = torch.ones(batch, length, dtype=torch.long)
    mask[1:, length - 2:] = 0
    return input_ids, mask


def count(model):
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(type(model).__name__, "parameters", total, "trainable", trainable, "training", model.training)


def train(model, batch, steps=2, lr=1e-3):
    """``steps`` AdamW steps on ``model(**batch).loss`` in training mode (dropout on: a model is left in
    eval mode only when loaded with ``from_pretrained``); the loss, the logits and a gradient's norm each step, then
    the eval-mode loss."""
    torch.manual_seed(0)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    for step in range(steps):
        opt.zero_grad()
        out = model(**batch)
        out.loss.backward()
        grad = next(p for p in model.parameters() if p.grad is not None).grad
        print(step, "loss", f"{out.loss.item():.6g}", "grad norm", f"{grad.norm().item():.6g}")
        name, first = next((k, v) for k, v in out.items() if k not in ("loss", "aux_loss"))  # logits, mostly
        show(f"  {name}", first)
        opt.step()
    model.eval()
    with torch.no_grad():
        out = model(**batch)
    print("eval loss", f"{out.loss.item():.6g}")
    return out


def encoder(ns, prefix, attn, config_extra=None):
    """A BERT-like encoder family (``prefix``: Bert, Roberta, Albert, Electra, DebertaV2): the base model's outputs
    with a padded mask, then sequence classification and masked-LM training with labels."""
    print("==", prefix, attn)
    extra = dict(config_extra or {})
    if attn is not None:
        extra["attn_implementation"] = attn
    config = ns[f"{prefix}Config"](**TINY, **extra)
    input_ids, mask = ids()
    torch.manual_seed(0)
    model = ns[f"{prefix}Model"](config)
    count(model)
    print(model.config._attn_implementation, model.training)
    with torch.no_grad():
        out = model(input_ids=input_ids, attention_mask=mask, output_hidden_states=True, output_attentions=False)
    show("last_hidden_state", out.last_hidden_state)
    if getattr(out, "pooler_output", None) is not None:
        show("pooler_output", out.pooler_output)
    print("hidden_states", len(out.hidden_states), [tuple(h.shape) for h in out.hidden_states])
    torch.manual_seed(1)
    classifier = ns[f"{prefix}ForSequenceClassification"](ns[f"{prefix}Config"](**TINY, num_labels=3, **extra))
    count(classifier)
    train(classifier, dict(input_ids=input_ids, attention_mask=mask, labels=torch.tensor([2, 0])))
    torch.manual_seed(2)
    mlm = ns[f"{prefix}ForMaskedLM"](config)
    count(mlm)
    labels = torch.full_like(input_ids, -100)
    labels[:, 2] = input_ids[:, 2]
    labels[0, 4] = input_ids[0, 4]
    masked = input_ids.clone()
    masked[labels != -100] = 3  # the tiny vocabulary's stand-in [MASK]
    train(mlm, dict(input_ids=masked, attention_mask=mask, labels=labels))


def bert(ns):
    for attn in ("eager", "sdpa"):
        encoder(ns, "Bert", attn)


def roberta(ns):
    for attn in ("eager", "sdpa"):
        encoder(ns, "Roberta", attn, dict(pad_token_id=0, max_position_embeddings=40))


def distilbert(ns):
    config = dict(dim=32, n_layers=2, n_heads=2, hidden_dim=37, vocab_size=99)
    for attn in ("eager", "sdpa"):
        print("==", attn)
        input_ids, mask = ids()
        torch.manual_seed(0)
        model = ns["DistilBertModel"](ns["DistilBertConfig"](**config, attn_implementation=attn))
        count(model)
        with torch.no_grad():
            show("last_hidden_state", model(input_ids=input_ids, attention_mask=mask).last_hidden_state)
        torch.manual_seed(1)
        classifier = ns["DistilBertForSequenceClassification"](
            ns["DistilBertConfig"](**config, num_labels=3, attn_implementation=attn))
        train(classifier, dict(input_ids=input_ids, attention_mask=mask, labels=torch.tensor([2, 0])))
        torch.manual_seed(2)
        mlm = ns["DistilBertForMaskedLM"](ns["DistilBertConfig"](**config, attn_implementation=attn))
        labels = torch.where(torch.arange(7) % 3 == 0, input_ids, torch.full_like(input_ids, -100))
        train(mlm, dict(input_ids=input_ids, attention_mask=mask, labels=labels))


def greedy(model, input_ids, mask, **kwargs):
    """``generate(max_new_tokens=5, do_sample=False)``: greedy decoding with the KV cache."""
    with torch.no_grad():
        out = model.generate(input_ids=input_ids, attention_mask=mask, max_new_tokens=5, do_sample=False, **kwargs)
    print("generate", tuple(out.shape), out.tolist())
    return out


def causal_lm(ns, make_config, prefix, attns=("eager", "sdpa")):
    """A decoder-only LM: forward with a padded mask, training on ``labels=input_ids`` (the model shifts them),
    and greedy generation (left-padded batch, as transformers' docs ask for decoder-only models)."""
    for attn in attns:
        print("==", prefix, attn)
        config = make_config(attn)
        input_ids, mask = ids()
        torch.manual_seed(0)
        model = ns[f"{prefix}ForCausalLM" if f"{prefix}ForCausalLM" in ns else f"{prefix}LMHeadModel"](config)
        count(model)
        with torch.no_grad():
            out = model(input_ids=input_ids, attention_mask=mask, output_hidden_states=True)
        show("logits", out.logits)
        print("hidden_states", len(out.hidden_states), "cache", type(out.past_key_values).__name__)
        labels = input_ids.masked_fill(mask == 0, -100)
        train(model, dict(input_ids=input_ids, attention_mask=mask, labels=labels))
        if attn == "eager":  # generation once, with sdpa (transformers' default): the same attention otherwise
            continue
        left = torch.cat([torch.zeros(2, 2, dtype=torch.long), input_ids[:, :5]], 1)
        left_mask = torch.cat([torch.zeros(2, 2, dtype=torch.long), torch.ones(2, 5, dtype=torch.long)], 1)
        left_mask[0, :2] = 1
        left[0, :2] = input_ids[0, 5:]
        greedy(model, left, left_mask, pad_token_id=0)


def gpt2(ns):
    causal_lm(ns, lambda attn: ns["GPT2Config"](vocab_size=99, n_positions=32, n_embd=32, n_layer=2, n_head=2,
                                                attn_implementation=attn, pad_token_id=0), "GPT2")


def llama(ns):
    causal_lm(ns, lambda attn: ns["LlamaConfig"](vocab_size=99, hidden_size=32, intermediate_size=48,
                                                 num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                                                 max_position_embeddings=64, attn_implementation=attn,
                                                 pad_token_id=0), "Llama")


def t5(ns):
    """T5ForConditionalGeneration: teacher-forced training on ``labels`` (the model shifts them right with its
    decoder start token), then greedy generation from the encoder. T5 has eager attention only in 4.57 (its relative
    position bias is added to the scores)."""
    config = ns["T5Config"](vocab_size=99, d_model=32, d_kv=8, d_ff=37, num_layers=2, num_heads=4,
                            decoder_start_token_id=0, pad_token_id=0, eos_token_id=1)
    input_ids, mask = ids()
    torch.manual_seed(0)
    model = ns["T5ForConditionalGeneration"](config)
    count(model)
    labels = ids(2, 5, seed=1)[0]
    with torch.no_grad():
        out = model(input_ids=input_ids, attention_mask=mask, labels=labels)
    show("logits", out.logits)
    show("encoder_last_hidden_state", out.encoder_last_hidden_state)
    train(model, dict(input_ids=input_ids, attention_mask=mask, labels=labels))
    greedy(model, input_ids, mask)
    torch.manual_seed(1)
    encoder_only = ns["T5EncoderModel"](config)
    with torch.no_grad():
        show("encoder", encoder_only(input_ids=input_ids, attention_mask=mask).last_hidden_state)


def vit(ns):
    """ViTForImageClassification on seeded 32x32 images: features, attentions and two AdamW steps."""
    for attn in ("eager", "sdpa"):
        print("==", attn)
        config = ns["ViTConfig"](image_size=32, patch_size=8, num_channels=3, hidden_size=32, num_hidden_layers=2,
                                 num_attention_heads=2, intermediate_size=37, num_labels=3, attn_implementation=attn)
        g = torch.Generator().manual_seed(0)
        pixels = torch.randn(2, 3, 32, 32, generator=g)
        torch.manual_seed(0)
        model = ns["ViTModel"](config)
        count(model)
        with torch.no_grad():
            out = model(pixel_values=pixels, output_hidden_states=True)
        show("last_hidden_state", out.last_hidden_state)
        show("pooler_output", out.pooler_output)
        with torch.no_grad():
            show("interpolated", model(pixel_values=torch.randn(1, 3, 48, 40, generator=g),
                                       interpolate_pos_encoding=True).last_hidden_state)
        torch.manual_seed(1)
        classifier = ns["ViTForImageClassification"](config)
        count(classifier)
        train(classifier, dict(pixel_values=pixels, labels=torch.tensor([2, 1])))


def _llama_config(ns, **kw):
    return ns["LlamaConfig"](**{**dict(vocab_size=99, hidden_size=32, intermediate_size=48, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                                      pad_token_id=0), **kw})


def generation_tour(ns):
    """``generate``'s strategies as transformers' docs show them, on a tiny Llama: greedy with
    ``return_dict_in_generate``/``output_scores``, seeded sampling (temperature, top-k, top-p), beam search with
    several returned sequences and their scores, repetition penalty and ``no_repeat_ngram_size``, min/max lengths
    and an EOS token, and a ``GenerationConfig``."""
    from transformers.generation import GenerationConfig

    torch.manual_seed(0)
    model = ns["LlamaForCausalLM"](_llama_config(ns, eos_token_id=7))
    model.eval()
    prompt = ids(2, 4)[0]
    mask = torch.ones_like(prompt)
    with torch.no_grad():
        out = model.generate(prompt, attention_mask=mask, max_new_tokens=4, do_sample=False,
                             return_dict_in_generate=True, output_scores=True, output_logits=True)
        print("greedy", out.sequences.tolist(), len(out.scores))
        show("scores", out.scores)
        torch.manual_seed(3)
        sampled = model.generate(prompt, attention_mask=mask, max_new_tokens=6, do_sample=True, temperature=0.7,
                                 top_k=10, top_p=0.9)
        print("sampled", sampled.tolist())
        beams = model.generate(prompt, attention_mask=mask, max_new_tokens=4, num_beams=3, num_return_sequences=2,
                               do_sample=False, return_dict_in_generate=True, output_scores=True, length_penalty=1.0)
        print("beams", beams.sequences.tolist())
        show("sequences_scores", beams.sequences_scores)
        penalised = model.generate(prompt, attention_mask=mask, max_new_tokens=6, repetition_penalty=1.5,
                                   no_repeat_ngram_size=2)
        print("penalised", penalised.tolist())
        config = GenerationConfig(max_new_tokens=5, min_new_tokens=3, do_sample=False, eos_token_id=7, pad_token_id=0)
        print("config", model.generate(prompt, attention_mask=mask, generation_config=config).tolist())


def training_tour(ns):
    """What transformers' training utilities do to a model: gradient checkpointing (``torch.utils.checkpoint``
    through ``GradientCheckpointingLayer``) against the plain forward's gradients, ``resize_token_embeddings``,
    freezing the embeddings, ``num_parameters``, and the learning-rate schedules of ``transformers.optimization``
    (linear and cosine warm-up) driving AdamW, with weight decay kept off biases and norms as its docs group
    them."""
    from transformers.optimization import get_cosine_schedule_with_warmup, get_linear_schedule_with_warmup

    torch.manual_seed(0)
    model = ns["LlamaForCausalLM"](_llama_config(ns))
    input_ids, mask = ids()
    batch = dict(input_ids=input_ids, attention_mask=mask, labels=input_ids.masked_fill(mask == 0, -100))
    model.train()
    loss = model(**batch).loss
    loss.backward()
    plain = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    print("checkpointing", model.is_gradient_checkpointing, model.model.gradient_checkpointing)
    checkpointed = model(**batch).loss
    checkpointed.backward()
    print("loss", f"{loss.item():.6g}", f"{checkpointed.item():.6g}",
          "grads equal", all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(plain, model.parameters())))
    model.gradient_checkpointing_disable()
    print("checkpointing", model.is_gradient_checkpointing)
    print("parameters", model.num_parameters(), model.num_parameters(only_trainable=True),
          model.num_parameters(exclude_embeddings=True))
    embeddings = model.resize_token_embeddings(105)
    print("resized", tuple(embeddings.weight.shape), tuple(model.lm_head.weight.shape), model.config.vocab_size)
    show("new rows", embeddings.weight[99:])
    model.get_input_embeddings().weight.requires_grad_(False)
    print("trainable", model.num_parameters(only_trainable=True))
    decay = [p for n, p in model.named_parameters() if p.requires_grad and "norm" not in n and "bias" not in n]
    rest = [p for n, p in model.named_parameters() if p.requires_grad and ("norm" in n or "bias" in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": rest, "weight_decay": 0.0}],
                            lr=1e-2)
    for make in (get_linear_schedule_with_warmup, get_cosine_schedule_with_warmup):
        schedule = make(opt, num_warmup_steps=2, num_training_steps=6)
        rates = []
        for _ in range(3):
            opt.zero_grad()
            model(**batch).loss.backward()
            opt.step()
            schedule.step()
            rates.append(f"{schedule.get_last_lr()[0]:.6g}")
        print(make.__name__, rates, f"{model(**batch).loss.item():.6g}")


def save_load_tour(ns):
    """``save_pretrained`` (``safe_serialization=False``: a ``pytorch_model.bin`` written by ``torch.save``; the
    safetensors format needs the package) into a temporary folder and ``from_pretrained`` back (``torch.load`` with
    ``weights_only``, the model built on the meta device and its weights loaded into it), in float32 and with
    ``dtype=torch.bfloat16``; the reloaded model's logits against the original's."""
    import os
    import tempfile

    torch.manual_seed(0)
    cls = ns["LlamaForCausalLM"]
    model = cls(_llama_config(ns, tie_word_embeddings=True))
    model.eval()
    input_ids, mask = ids()
    with torch.no_grad():
        want = model(input_ids=input_ids, attention_mask=mask).logits
    with tempfile.TemporaryDirectory() as folder:
        model.save_pretrained(folder, safe_serialization=False)
        print("saved", sorted(os.listdir(folder)))
        again = cls.from_pretrained(folder)
        print("reloaded", type(again).__name__, again.training, again.dtype, again.config.tie_word_embeddings,
              again.lm_head.weight is again.model.embed_tokens.weight)
        with torch.no_grad():
            got = again(input_ids=input_ids, attention_mask=mask).logits
        print("same logits", torch.equal(want, got))
        half = cls.from_pretrained(folder, dtype=torch.bfloat16)
        print("bfloat16", half.dtype, half.model.layers[0].mlp.up_proj.weight.dtype)
        with torch.no_grad():
            show("bf16 logits", half(input_ids=input_ids, attention_mask=mask).logits.float())


def albert(ns):
    for attn in ("eager", "sdpa"):
        encoder(ns, "Albert", attn, dict(embedding_size=16))


def electra(ns):
    encoder(ns, "Electra", None, dict(embedding_size=16))
    torch.manual_seed(3)
    discriminator = ns["ElectraForPreTraining"](ns["ElectraConfig"](**TINY, embedding_size=16))
    input_ids, mask = ids()
    replaced = (torch.arange(7) % 3 == 1).long().expand(2, 7)
    train(discriminator, dict(input_ids=input_ids, attention_mask=mask, labels=replaced))


def deberta_v2(ns):
    """DeBERTa-v2's disentangled attention (relative positions, ``position_buckets``, shared key projections)."""
    encoder(ns, "DebertaV2", None, dict(relative_attention=True, position_buckets=8, max_relative_positions=16,
                                        pos_att_type=["p2c", "c2p"], norm_rel_ebd="layer_norm", share_att_key=True))


def _causal(ns, prefix, attns=("eager", "sdpa"), **config):
    """``causal_lm`` for ``prefix``'s config with these keyword arguments."""
    causal_lm(ns, lambda attn: ns[f"{prefix}Config"](**{**config, "attn_implementation": attn}), prefix,
              attns=attns)


LM = dict(vocab_size=99, hidden_size=32, intermediate_size=48, num_hidden_layers=2, num_attention_heads=4,
          max_position_embeddings=64, pad_token_id=0)


def mistral(ns):
    _causal(ns, "Mistral", **LM, num_key_value_heads=2, sliding_window=4)


def qwen2(ns):
    _causal(ns, "Qwen2", **LM, num_key_value_heads=2)


def gemma(ns):
    _causal(ns, "Gemma", **LM, num_key_value_heads=1, head_dim=8)


def phi(ns):
    _causal(ns, "Phi", **LM, partial_rotary_factor=0.5)


def gpt_neox(ns):
    _causal(ns, "GPTNeoX", **{k: v for k, v in LM.items() if k != "pad_token_id"}, rotary_pct=0.5,
            use_parallel_residual=True, pad_token_id=0)


def mixtral(ns):
    """Mixtral's sparse mixture of experts: top-2 of 4 experts, the router's load-balancing loss (``aux_loss``)
    added to the language-modelling loss (``output_router_logits``); unpadded batches (its balancing loss over a
    padded mask wants the mask of every layer's tokens), greedy generation."""
    for attn in ("eager", "sdpa"):
        print("==", attn)
        config = ns["MixtralConfig"](**LM, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2,
                                     output_router_logits=True, router_aux_loss_coef=0.02, attn_implementation=attn)
        input_ids = ids()[0]
        torch.manual_seed(0)
        model = ns["MixtralForCausalLM"](config)
        count(model)
        with torch.no_grad():
            out = model(input_ids=input_ids, labels=input_ids)
        print("loss", f"{out.loss.item():.6g}", "aux_loss", f"{out.aux_loss.item():.6g}",
              len(out.router_logits), tuple(out.router_logits[0].shape))
        show("router_logits[0]", out.router_logits[0])
        train(model, dict(input_ids=input_ids, labels=input_ids))
        greedy(model, input_ids[:, :4], torch.ones(2, 4, dtype=torch.long), output_router_logits=False)


def bart(ns):
    """BartForConditionalGeneration: the decoder's inputs shifted from ``labels``, training, greedy and beam
    generation; eager and sdpa attention."""
    for attn in ("eager", "sdpa"):
        print("==", attn)
        config = ns["BartConfig"](vocab_size=99, d_model=32, encoder_layers=2, decoder_layers=2,
                                  encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=37,
                                  decoder_ffn_dim=37, max_position_embeddings=64, pad_token_id=0, bos_token_id=1,
                                  eos_token_id=2, decoder_start_token_id=2, forced_eos_token_id=None,
                                  attn_implementation=attn)
        input_ids, mask = ids()
        torch.manual_seed(0)
        model = ns["BartForConditionalGeneration"](config)
        count(model)
        labels = ids(2, 5, seed=1)[0]
        train(model, dict(input_ids=input_ids, attention_mask=mask, labels=labels))
        greedy(model, input_ids, mask)
        with torch.no_grad():
            beams = model.generate(input_ids=input_ids, attention_mask=mask, max_new_tokens=4, num_beams=2)
        print("beams", beams.tolist())


def clip(ns):
    """CLIPModel's contrastive loss (``return_loss=True``) on seeded text and images, two AdamW steps; the text and
    vision towers' pooled outputs and the logit scale."""
    for attn in ("eager", "sdpa"):
        print("==", attn)
        text = dict(vocab_size=99, hidden_size=32, intermediate_size=37, num_hidden_layers=2, num_attention_heads=2,
                    max_position_embeddings=16, eos_token_id=98)
        vision = dict(hidden_size=32, intermediate_size=37, num_hidden_layers=2, num_attention_heads=2,
                      image_size=32, patch_size=8)
        config = ns["CLIPConfig"](text_config=text, vision_config=vision, projection_dim=16,
                                  attn_implementation=attn)
        torch.manual_seed(0)
        model = ns["CLIPModel"](config)
        count(model)
        input_ids, mask = ids(3, 6)
        input_ids[:, -1] = 98
        g = torch.Generator().manual_seed(0)
        pixels = torch.randn(3, 3, 32, 32, generator=g)
        out = model(input_ids=input_ids, attention_mask=mask, pixel_values=pixels, return_loss=True)
        show("logits_per_image", out.logits_per_image)
        show("text_embeds", out.text_embeds)
        print("logit_scale", f"{model.logit_scale.item():.6g}")
        model.train()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for step in range(2):
            opt.zero_grad()
            loss = model(input_ids=input_ids, attention_mask=mask, pixel_values=pixels, return_loss=True).loss
            loss.backward()
            opt.step()
            print(step, "loss", f"{loss.item():.6g}")


def _image_classifier(ns, prefix, config, shape=(2, 3, 32, 32)):
    """An image backbone's classifier: features, two AdamW steps on labels (BatchNorm models in training mode)."""
    g = torch.Generator().manual_seed(0)
    pixels = torch.randn(*shape, generator=g)
    torch.manual_seed(0)
    model = ns[f"{prefix}Model"](config)
    count(model)
    with torch.no_grad():
        out = model(pixel_values=pixels, output_hidden_states=True)
    show("last_hidden_state", out.last_hidden_state)
    print("hidden_states", [tuple(h.shape) for h in out.hidden_states])
    torch.manual_seed(1)
    classifier = ns[f"{prefix}ForImageClassification"](config)
    train(classifier, dict(pixel_values=pixels, labels=torch.tensor([2, 1])))


def swin(ns):
    _image_classifier(ns, "Swin", ns["SwinConfig"](image_size=32, patch_size=4, embed_dim=16, depths=[1, 2],
                                                   num_heads=[2, 4], window_size=4, num_labels=3,
                                                   drop_path_rate=0.1))


def convnext(ns):
    _image_classifier(ns, "ConvNext", ns["ConvNextConfig"](num_stages=2, hidden_sizes=[8, 16], depths=[1, 1],
                                                           num_labels=3, drop_path_rate=0.1))


def resnet(ns):
    _image_classifier(ns, "ResNet", ns["ResNetConfig"](embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1],
                                                       layer_type="bottleneck", num_labels=3))


def wav2vec2(ns):
    """Wav2Vec2ForCTC on seeded raw audio: the convolutional feature encoder, the positional convolution (weight
    norm), SpecAugment-style time masking in training, and CTC loss on label sequences."""
    for attn in ("eager", "sdpa"):
        print("==", attn)
        config = ns["Wav2Vec2Config"](vocab_size=12, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                      intermediate_size=37, conv_dim=(16, 16), conv_stride=(4, 2),
                                      conv_kernel=(8, 4), num_conv_pos_embeddings=8, num_conv_pos_embedding_groups=4,
                                      mask_time_prob=0.2, mask_time_length=2, pad_token_id=0,
                                      attn_implementation=attn)
        g = torch.Generator().manual_seed(0)
        audio = torch.randn(2, 400, generator=g)
        torch.manual_seed(0)
        model = ns["Wav2Vec2ForCTC"](config)
        count(model)
        labels = torch.tensor([[3, 4, 5, 6], [7, 8, -100, -100]])
        train(model, dict(input_values=audio, labels=labels))


def fx_tour(ns):
    """``transformers.utils.fx.symbolic_trace`` (its ``HFTracer``: torch.fx tracing with meta-tensor shape
    propagation through the model's Python control flow) of BertForSequenceClassification, eager attention, as its
    docs and ``test_torch_fx`` use it: the graph's ops, the traced module's outputs against the model's, and a
    training step through the traced module."""
    from transformers.utils.fx import symbolic_trace

    torch.manual_seed(0)
    model = ns["BertForSequenceClassification"](ns["BertConfig"](**TINY, num_labels=3, attn_implementation="eager",
                                                                    problem_type="single_label_classification"))
    model.eval()
    input_ids, mask = ids()
    traced = symbolic_trace(model, input_names=["input_ids", "attention_mask", "labels"])
    ops = {}
    for node in traced.graph.nodes:
        ops[node.op] = ops.get(node.op, 0) + 1
    print(type(traced).__name__, sorted(ops.items()))
    print([node.name for node in traced.graph.nodes][:12])
    labels = torch.tensor([2, 0])
    with torch.no_grad():
        want = model(input_ids=input_ids, attention_mask=mask, labels=labels)
        got = traced(input_ids=input_ids, attention_mask=mask, labels=labels)
    print(sorted(got.keys()), "same logits", torch.allclose(want.logits, got["logits"], atol=1e-6),
          f"{got['loss'].item():.6g}")
    traced.train()
    opt = torch.optim.AdamW(traced.parameters(), lr=1e-3)
    loss = traced(input_ids=input_ids, attention_mask=mask, labels=labels)["loss"]
    loss.backward()
    opt.step()
    after = traced(input_ids=input_ids, attention_mask=mask, labels=labels)["loss"]
    print("step", f"{loss.item():.6g}", f"{after.item():.6g}")


EAGER = ("eager",)


def opt(ns):
    _causal(ns, "OPT", vocab_size=99, hidden_size=32, num_hidden_layers=2, ffn_dim=37, num_attention_heads=2,
            max_position_embeddings=64, word_embed_proj_dim=32, pad_token_id=0)


def bloom(ns):
    """BLOOM's ALiBi position biases (no position embeddings)."""
    _causal(ns, "Bloom", EAGER, vocab_size=99, hidden_size=32, n_layer=2, n_head=4, pad_token_id=0)


def falcon(ns):
    """Falcon with rotary embeddings, multi-query attention and its parallel attention/MLP block."""
    _causal(ns, "Falcon", vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
            multi_query=True, parallel_attn=True, alibi=False, pad_token_id=0)


def gptj(ns):
    _causal(ns, "GPTJ", EAGER, vocab_size=99, n_positions=64, n_embd=32, n_layer=2, n_head=4, rotary_dim=4,
            pad_token_id=0)


def codegen(ns):
    _causal(ns, "CodeGen", EAGER, vocab_size=99, n_positions=64, n_ctx=64, n_embd=32, n_layer=2, n_head=4,
            rotary_dim=4, pad_token_id=0)


def gpt_neo(ns):
    """GPT-Neo's alternating global and local (windowed) attention layers."""
    _causal(ns, "GPTNeo", EAGER, vocab_size=99, max_position_embeddings=64, hidden_size=32, num_layers=2,
            attention_types=[[["global", "local"], 1]], num_heads=4, window_size=3, pad_token_id=0)


def mpnet(ns):
    encoder(ns, "MPNet", None, dict(pad_token_id=0, max_position_embeddings=40))


def xlm_roberta(ns):
    for attn in ("eager", "sdpa"):
        encoder(ns, "XLMRoberta", attn, dict(pad_token_id=0, max_position_embeddings=40))


def funnel(ns):
    """Funnel Transformer: pooled blocks and the decoder's upsampling back to the sequence length."""
    config = dict(vocab_size=99, block_sizes=[1, 1], d_model=32, n_head=2, d_head=8, d_inner=37)
    input_ids, mask = ids(2, 8)
    torch.manual_seed(0)
    model = ns["FunnelModel"](ns["FunnelConfig"](**config))
    count(model)
    with torch.no_grad():
        show("last_hidden_state", model(input_ids=input_ids, attention_mask=mask).last_hidden_state)
    torch.manual_seed(1)
    classifier = ns["FunnelForSequenceClassification"](ns["FunnelConfig"](**config, num_labels=3))
    train(classifier, dict(input_ids=input_ids, attention_mask=mask, labels=torch.tensor([2, 0])))
    torch.manual_seed(2)
    mlm = ns["FunnelForMaskedLM"](ns["FunnelConfig"](**config))
    labels = torch.where(torch.arange(8) % 3 == 0, input_ids, torch.full_like(input_ids, -100))
    train(mlm, dict(input_ids=input_ids, attention_mask=mask, labels=labels))


def longformer(ns):
    """Longformer's sliding-window attention (window 4) with a global token, the sequence padded to the window."""
    config = ns["LongformerConfig"](**TINY, attention_window=4, pad_token_id=0, max_position_embeddings=40)
    input_ids, mask = ids(2, 8)
    global_mask = torch.zeros_like(input_ids)
    global_mask[:, 0] = 1
    torch.manual_seed(0)
    model = ns["LongformerModel"](config)
    count(model)
    with torch.no_grad():
        out = model(input_ids=input_ids, attention_mask=mask, global_attention_mask=global_mask)
    show("last_hidden_state", out.last_hidden_state)
    torch.manual_seed(1)
    classifier = ns["LongformerForSequenceClassification"](
        ns["LongformerConfig"](**TINY, attention_window=4, pad_token_id=0, max_position_embeddings=40, num_labels=3))
    train(classifier, dict(input_ids=input_ids, attention_mask=mask, labels=torch.tensor([2, 0])))


VIT_LIKE = dict(image_size=32, patch_size=8, num_channels=3, hidden_size=32, num_hidden_layers=2,
                num_attention_heads=2, intermediate_size=37, num_labels=3)


def deit(ns):
    for attn in ("eager", "sdpa"):
        print("==", attn)
        _image_classifier(ns, "DeiT", ns["DeiTConfig"](**VIT_LIKE, attn_implementation=attn))


def beit(ns):
    """BEiT with relative position biases and layer scale."""
    for attn in ("eager", "sdpa"):
        print("==", attn)
        _image_classifier(ns, "Beit", ns["BeitConfig"](**VIT_LIKE, use_relative_position_bias=True,
                                                        use_mean_pooling=True, layer_scale_init_value=0.1,
                                                        attn_implementation=attn))


def dinov2(ns):
    for attn in ("eager", "sdpa"):
        print("==", attn)
        _image_classifier(ns, "Dinov2", ns["Dinov2Config"](**VIT_LIKE, layerscale_value=0.5, drop_path_rate=0.1,
                                                            attn_implementation=attn))


def regnet(ns):
    _image_classifier(ns, "RegNet", ns["RegNetConfig"](embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1],
                                                       groups_width=8, num_labels=3))


def segformer(ns):
    """SegFormer: the hierarchical encoder's efficient attention (sequence reduction) and the all-MLP decoder,
    trained on a seeded segmentation map (the logits upsampled to the labels' size)."""
    config = ns["SegformerConfig"](num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1], hidden_sizes=[8, 16],
                                   patch_sizes=[7, 3], strides=[4, 2], num_attention_heads=[1, 2],
                                   mlp_ratios=[2, 2], decoder_hidden_size=16, num_labels=3, drop_path_rate=0.1)
    g = torch.Generator().manual_seed(0)
    pixels = torch.randn(2, 3, 32, 32, generator=g)
    labels = torch.randint(0, 3, (2, 32, 32), generator=g)
    torch.manual_seed(0)
    model = ns["SegformerForSemanticSegmentation"](config)
    count(model)
    train(model, dict(pixel_values=pixels, labels=labels))


def _seq2seq(ns, prefix, attns, **config):
    for attn in attns:
        print("==", attn)
        input_ids, mask = ids()
        torch.manual_seed(0)
        model = ns[f"{prefix}ForConditionalGeneration" if f"{prefix}ForConditionalGeneration" in ns
                   else f"{prefix}MTModel"](ns[f"{prefix}Config"](**config, attn_implementation=attn))
        count(model)
        labels = ids(2, 5, seed=1)[0]
        train(model, dict(input_ids=input_ids, attention_mask=mask, labels=labels))
        greedy(model, input_ids, mask)


SEQ2SEQ = dict(vocab_size=99, d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2,
               decoder_attention_heads=2, encoder_ffn_dim=37, decoder_ffn_dim=37, max_position_embeddings=64,
               pad_token_id=0, eos_token_id=2, decoder_start_token_id=0, forced_eos_token_id=None)


def pegasus(ns):
    """Pegasus: sinusoidal positions, pre-norm layers."""
    _seq2seq(ns, "Pegasus", ("eager", "sdpa"), **SEQ2SEQ)


def marian(ns):
    _seq2seq(ns, "Marian", ("eager", "sdpa"), **SEQ2SEQ, decoder_vocab_size=99)


def whisper(ns):
    """WhisperForConditionalGeneration on seeded log-mel features (8 bins, 32 frames): the convolutional stem, the
    encoder's sinusoidal positions, the decoder's cross-attention, trained on label tokens."""
    for attn in ("eager", "sdpa"):
        print("==", attn)
        config = ns["WhisperConfig"](vocab_size=99, num_mel_bins=8, encoder_layers=2, decoder_layers=2, d_model=32,
                                     encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=37,
                                     decoder_ffn_dim=37, max_source_positions=16, max_target_positions=32,
                                     pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=1,
                                     attn_implementation=attn)
        g = torch.Generator().manual_seed(0)
        features = torch.randn(2, 8, 32, generator=g)
        torch.manual_seed(0)
        model = ns["WhisperForConditionalGeneration"](config)
        count(model)
        labels = ids(2, 5, seed=1)[0]
        train(model, dict(input_features=features, labels=labels))
        with torch.no_grad():
            show("encoder", model.model.encoder(features).last_hidden_state)


def deploy_tour(ns):
    """What transformers' docs do to ship a BERT on CPU: ``torchscript=True`` and ``torch.jit.trace`` with example
    inputs (the traced module's outputs against the model's, run on other inputs), ``output_attentions`` from eager
    attention, and dynamic int8 quantization of the Linear layers (``torch.ao.quantization.quantize_dynamic``)."""
    torch.manual_seed(0)
    config = ns["BertConfig"](**TINY, num_labels=3, torchscript=True, attn_implementation="eager")
    model = ns["BertForSequenceClassification"](config)
    model.eval()
    input_ids, mask = ids()
    with torch.no_grad():
        out = model(input_ids=input_ids, attention_mask=mask, output_attentions=True)
    print(type(out).__name__, len(out))
    show("logits", out[0])
    show("attentions", out[1])
    traced = torch.jit.trace(model, (input_ids, mask))
    print(type(traced).__name__)
    other, other_mask = ids(seed=5)
    with torch.no_grad():
        print("traced same", torch.allclose(traced(other, other_mask)[0], model(other, other_mask)[0], atol=1e-6))
    quantized = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
    print(type(quantized.bert.encoder.layer[0].attention.self.query).__name__)
    with torch.no_grad():
        show("quantized logits", quantized(input_ids, mask)[0])


def heads_tour(ns):
    """BERT's task heads with the losses they compute from labels: pre-training (masked LM plus next-sentence
    prediction), next-sentence prediction, question answering (start and end positions), token classification,
    multiple choice (choices folded into the batch) and BertLMHeadModel as a causal decoder; one AdamW step each."""
    input_ids, mask = ids()
    token_type_ids = (torch.arange(7) >= 4).long().expand(2, 7)
    mlm_labels = torch.where(torch.arange(7) % 3 == 1, input_ids, torch.full_like(input_ids, -100))
    heads = [
        ("BertForPreTraining", {}, dict(labels=mlm_labels, next_sentence_label=torch.tensor([0, 1]))),
        ("BertForNextSentencePrediction", {}, dict(labels=torch.tensor([1, 0]))),
        ("BertForQuestionAnswering", {}, dict(start_positions=torch.tensor([1, 3]),
                                             end_positions=torch.tensor([2, 9]))),  # 9: clamped to the length
        ("BertForTokenClassification", dict(num_labels=4), dict(labels=input_ids % 4)),
        ("BertLMHeadModel", dict(is_decoder=True), dict(labels=input_ids)),
    ]
    for name, extra, labels in heads:
        torch.manual_seed(0)
        model = ns[name](ns["BertConfig"](**TINY, **extra))
        count(model)
        out = train(model, dict(input_ids=input_ids, attention_mask=mask, token_type_ids=token_type_ids, **labels),
                    steps=1)
        print(name, sorted(k for k in out.keys() if k != "loss"))
    torch.manual_seed(0)
    choice = ns["BertForMultipleChoice"](ns["BertConfig"](**TINY))
    choices = torch.stack([input_ids, input_ids.flip(1), input_ids.roll(2, 1)], 1)  # (batch, 3 choices, length)
    out = train(choice, dict(input_ids=choices, attention_mask=mask[:, None].expand(2, 3, 7).contiguous(),
                             labels=torch.tensor([0, 2])), steps=1)
    show("choice logits", out.logits)
