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
        show("  logits", out.logits)
        opt.step()
    model.eval()
    with torch.no_grad():
        out = model(**batch)
    print("eval loss", f"{out.loss.item():.6g}")
    return out


def encoder(ns, prefix, attn, config_extra=None):
    """A BERT-like encoder family (``prefix``: Bert, Roberta, DistilBert): the base model's outputs with a padded
    mask, then sequence classification and masked-LM training with labels."""
    print("==", prefix, attn)
    extra = dict(config_extra or {})
    config = ns[f"{prefix}Config"](**TINY, attn_implementation=attn, **extra)
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
    classifier = ns[f"{prefix}ForSequenceClassification"](ns[f"{prefix}Config"](**TINY, num_labels=3,
                                                                                   attn_implementation=attn, **extra))
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


def causal_lm(ns, make_config, prefix):
    """A decoder-only LM: forward with a padded mask, training on ``labels=input_ids`` (the model shifts them),
    and greedy generation (left-padded batch, as transformers' docs ask for decoder-only models)."""
    for attn in ("eager", "sdpa"):
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
