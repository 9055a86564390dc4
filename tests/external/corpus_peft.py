"""Drivers for Hugging Face peft's and diffusers' own packages (``recipes_peft.py``; our text).

A recipe runs one of the library's modules as the module it is (the package fetched beside it and loaded in both
runs by the runner) and calls a driver here, which imports the package itself. The drivers do what peft's
quicktour and docs do: wrap a tiny random-initialised model with ``get_peft_model``, print the trainable
parameters, train a few AdamW steps, merge the adapter and save/load it; they print losses, counts and sums.
"""

from __future__ import annotations

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
