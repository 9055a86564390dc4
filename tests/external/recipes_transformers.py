"""Corpus recipes: see recipe_kit for what a recipe holds and tests/external/README.md for the table.

Transformers, graph nets and functorch material not yet in the corpus (2026-12-05, corpus helper H): functorch's
examples (Lennard-Jones forces, MAML), pbloem's former, gordicaleksa's original transformer, karpathy's
build-nanogpt and llm.c's PyTorch reference; stand-ins in ``corpus_transformers.py``.
"""

from __future__ import annotations

from recipe_kit import NG, _r

RECIPES: list[dict] = []

FUNCTORCH = ("pytorch/functorch", "d1126fb7d96db1755e8e832a7acf9059248f8c12", "BSD-3-Clause")
FORMER = ("pbloem/former", "ad9cc703b0b82a24a12e777f5946296f352c9d11", "MIT")
GORDIC_GAT = ("gordicaleksa/pytorch-GAT", "39c8f0ee634477033e8b1a6e9a6da3c7ed71bbd1", "MIT")
GORDIC_TRANSFORMER = ("gordicaleksa/pytorch-original-transformer", "d5b29a41c5c3f68e1bcd0c528a58281632fa9d6d", "MIT")
BUILD_NANOGPT = ("karpathy/build-nanogpt", "4bb0e13f45a5fde7eec4c6c509ecb214bdb3e733", "MIT")
LLMC = ("karpathy/llm.c", "f1e2ace651495b74ae22d45d1723443fd00ecd3a", "MIT")

FROM_FUNCTORCH = ("from functorch import", "from torch.func import")  # functorch's transforms live in torch.func now
MAML_SHORT = [("for it in range(20000):", "for it in range(41):"), ("if it % 100 == 0:", "if it % 10 == 0:")]
MAML_TEST = ("plt.plot(test_x.data.numpy(), test_y.data.numpy(), label='sin(x)')",
             "print(t_A.item(), t_b.item(), test_f[::100, 0])\n"
             "plt.plot(test_x.data.numpy(), test_y.data.numpy(), label='sin(x)')")  # the plotted fit, printed

RECIPES += [
    _r("functorch_lennard_jones", FUNCTORCH, "examples/lennard_jones/lennard_jones.py",
       [FROM_FUNCTORCH, ("training_size = 1000", "training_size = 25"), ("range(400)", "range(21)"),
        ("epoch % 20 == 0", "epoch % 5 == 0")]),
    _r("functorch_maml_evjang", FUNCTORCH, "examples/maml_regression/evjang.py", [*MAML_SHORT, MAML_TEST]),
    _r("functorch_maml_evjang_transforms", FUNCTORCH, "examples/maml_regression/evjang_transforms.py",
       [FROM_FUNCTORCH, *MAML_SHORT, MAML_TEST]),
]

FORMER_PACKAGE = [(f"former/{f}.py", f"former/{f}.py") for f in ("__init__", "modules", "transformers")]
FORMER_PACKAGE += [("former/util/__init__.py", "former/util/__init__.py"), ("former/util/util.py", "former/util/util.py")]
GENERATE_ARGS = ["-N", "6", "-b", "4", "-D", "input.txt", "-E", "32", "-H", "4", "-C", "32", "-d", "2",
                 "--test-every", "3", "--test-subset", "64", "--test-batchsize", "8", "--lr-warmup", "40",
                 "--sample-length", "40"]


ALT_UNINITIALISED = ("torch's own output varies between runs: the 'alt' attention's tokeys/toqueries/tovalues are "
                     "torch.empty parameters never initialised, so its samples follow whatever memory they get "
                     "(NaN probabilities and Categorical's error in most runs, arbitrary characters in others)")


def _former(name, attention_type="default"):
    """generate.py on tiny Shakespeare's first 24000 bytes, with former's ``attention_type`` self-attention."""
    args = [*GENERATE_ARGS, "--attention-type", attention_type]
    return _r(name, FORMER, "experiments/generate.py",
              [("X = np.fromstring(file.read(n_train + n_valid + n_test), dtype=np.uint8)",  # NumPy 2: no binary mode
                "X = np.frombuffer(file.read(n_train + n_valid + n_test).encode(), dtype=np.uint8).copy()"),
               ("data_train, data_val, data_test = enwik8(arg.data)",
                "data_train, data_val, data_test = enwik8(arg.data, n_train=20000, n_valid=200, n_test=200)"),
               ("for i in tqdm.trange(arg.num_batches):", "for i in range(arg.num_batches):"),  # the runner's tqdm
               ("options = parser.parse_args()", f"options = parser.parse_args({args!r})")],  # has no trange
              support=[*FORMER_PACKAGE, (*NG[:2], "input.txt", "input.txt")],
              xfail=ALT_UNINITIALISED if attention_type == "alt" else None)


RECIPES += [_former("former_generate"), *(_former(f"former_generate_{t}", t) for t in ("alt", "wide", "gpt2", "narrow", "relative"))]

GORDIC_SUPPORT = [("utils/constants.py", "utils/constants.py"),
                  ("utils/optimizers_and_distributions.py", "utils/optimizers_and_distributions.py"),
                  ("models/definitions/transformer_model.py", "models/definitions/transformer_model.py")]
RECIPES += [
    _r("gordic_transformer_model", GORDIC_TRANSFORMER, "models/definitions/transformer_model.py",
       [("    use_big_transformer = False\n",  # the baseline model (65M parameters) shrunk
         "    use_big_transformer = False\n    BASELINE_MODEL_DIMENSION, BASELINE_MODEL_NUMBER_OF_HEADS = 32, 4\n"
         "    BASELINE_MODEL_NUMBER_OF_LAYERS = 2\n"),
        ("    out = transformer(src_token_ids_batch, trg_token_ids_batch, src_mask=None, trg_mask=None)",
         "    out = transformer(src_token_ids_batch, trg_token_ids_batch, src_mask=None, trg_mask=None)\n"
         "    print(out.shape, out[0, :4], out.exp().sum(-1))")],
       support=GORDIC_SUPPORT[:1]),
    _r("gordic_transformer_playground", GORDIC_TRANSFORMER, "playground.py",
       [("    display([one_hot_target_distributions.numpy(), smooth_target_distributions.numpy()])",
         "    print(one_hot_target_distributions, smooth_target_distributions)"),
        ("number_of_simulated_training_steps = 100000", "number_of_simulated_training_steps = 300"),
        ("    num_of_steps_to_plot = 20000\n", "    num_of_steps_to_plot = 20000\n    print(labels, [lr[::50] for lr in lr_data])\n"),
        ("    plt.title('Positional encodings')", "    print(positional_encodings_table[::10, ::64])\n    plt.title('Positional encodings')"),
        ("    # visualize_positional_encodings()\n    # visualize_custom_lr_adam()",
         "    visualize_positional_encodings()\n    visualize_custom_lr_adam()")],
       support=GORDIC_SUPPORT),
]

RECIPES += [
    _r("build_nanogpt_train_gpt2", BUILD_NANOGPT, "train_gpt2.py",
       [("total_batch_size = 524288", "total_batch_size = 256"), ("B = 16 # micro batch size", "B = 4 # micro batch size"),
        ("T = 1024 # sequence length", "T = 32 # sequence length"),
        ("model = GPT(GPTConfig(vocab_size=50304))", "model = GPT(GPTConfig(vocab_size=50304, block_size=64, n_layer=2, n_head=2, n_embd=32))"),
        ("model = torch.compile(model)", "model = torch.compile(model) if False else model"),  # 30 s in torch
        ("        text = f.read()", "        text = f.read()[:10000]"),  # the stand-in tokenizer's time
        ('tokens = enc.encode("Hello, I\'m a language model,")',  # enc was DataLoaderLite's local
         'enc = tiktoken.get_encoding("gpt2")\ntokens = enc.encode("Hello, I\'m a language model,")'),
        ("max_steps = 50", "max_steps = 8"), ("warmup_steps = 10", "warmup_steps = 3"),
        ("with torch.autocast(device_type=device, dtype=torch.bfloat16):", "if True:  # float32 on the CPU"),
        ("    torch.cuda.synchronize() # wait for the GPU to finish work\n", ""),
        (" | dt: {dt*1000:.2f}ms | tok/sec: {tokens_per_sec:.2f}", ""),  # wall-clock times
        ("import sys; sys.exit(0)", "")],
       support=[("input.txt", "input.txt")]),
]

LLMC_ARGS = ["--input_bin", "tokens.bin", "--model", "d12", "--batch_size", "2", "--sequence_length", "32",
             "--total_batch_size", "128", "--num_iterations", "4", "--write_tensors", "0", "--device", "cpu",
             "--sample_every", "4", "--learning_rate", "1e-3", "--warmup_iters", "2"]
RECIPES += [
    _r("llmc_train_gpt2", LLMC, "train_gpt2.py",
       [("    args = parser.parse_args()",
         f"    args = parser.parse_args({LLMC_ARGS!r})\n    __import__('corpus_transformers').llmc_bin('tokens.bin')"),
        ('"d12": GPTConfig(block_size=1024, vocab_size=50257, n_layer=12, n_head=12, n_embd=768)',
         '"d12": GPTConfig(block_size=64, vocab_size=50257, n_layer=2, n_head=2, n_embd=32)'),
        (" | ({(t1-t0)*1000:.2f} ms | {tokens_per_second:.0f} tok/s)", ""),  # wall-clock times
        ('    print0(f"final {len(timings)} iters avg: {np.mean(timings)*1000:.3f}ms")\n', "")]),
]

def _gat(name, layer_type, epochs=20):
    """training_script_cora.py on corpus_transformers' Cora stand-in, with GAT implementation ``layer_type``."""
    edits = [("from utils.data_loading import load_graph_data",
              "from corpus_transformers import gat_cora_data as load_graph_data  # the Cora pickles need SciPy"),
             ("import utils.utils as utils", "utils = None  # its checkpoint naming needs GitPython (not called)"),
             ("time elapsed= {(time.time() - time_start):.2f} [s] | ", ""),  # a wall-clock time
             ("args = parser.parse_args()", "args = parser.parse_args(['--num_of_epochs', '%d', '--console_log_freq', '%d', "
                                            "'--should_test'])" % (epochs, epochs // 4)),
             ('freq (None for no logging)", default=1000)', 'freq (None for no logging)", default=None)')]  # no checkpoints
    if layer_type != "IMP3":
        edits.append(('"layer_type": LayerType.IMP3', f'"layer_type": LayerType.{layer_type}'))
    return _r(name, GORDIC_GAT, "training_script_cora.py", edits,
              support=[("utils/constants.py", "utils/constants.py"), ("models/definitions/GAT.py", "models/definitions/GAT.py")])


RECIPES += [_gat("gordic_gat_cora_imp3", "IMP3"), _gat("gordic_gat_cora_imp2", "IMP2", epochs=8),
            _gat("gordic_gat_cora_imp1", "IMP1", epochs=4)]  # IMP1: (N, N) attention per head

SGRVINOD_TRANSFORMERS = ("sgrvinod/a-PyTorch-Tutorial-to-Transformers", "3e09136cc1bde6bba73ca5813a3f6c982cd5555a", "MIT")
RECIPES += [
    _r("sgrvinod_transformer_train", SGRVINOD_TRANSFORMERS, "train.py",
       [("from dataloader import SequenceLoader",
         "__import__('corpus_transformers').sgrvinod_standins('data')  # youtokentome, wget and the WMT files\n"
         "from dataloader import SequenceLoader"),
        ("d_model = 512", "d_model = 32"), ("n_heads = 8", "n_heads = 4"), ("d_queries = 64", "d_queries = 8"),
        ("d_values = 64", "d_values = 8"), ("d_inner = 2048", "d_inner = 64"), ("n_layers = 6", "n_layers = 2"),
        ("checkpoint = 'transformer_checkpoint.pth.tar'", "checkpoint = None"),
        ("tokens_in_batch = 2000", "tokens_in_batch = 60"), ("batches_per_step = 25000 // tokens_in_batch", "batches_per_step = 2"),
        ("print_frequency = 20", "print_frequency = 1"), ("n_steps = 100000", "n_steps = 12"),
        ("warmup_steps = 8000", "warmup_steps = 4"),
        ('data_folder="/media/ssd/transformer data"', 'data_folder="data"'),
        ('data_folder="/media/ssd/transformer data"', 'data_folder="data"'),
        ("'Data Time {data_time.val:.3f} ({data_time.avg:.3f})-----'", ""),  # wall-clock times
        ("'Step Time {step_time.val:.3f} ({step_time.avg:.3f})-----'", "")],
       support=[("model.py", "model.py"), ("dataloader.py", "dataloader.py"), ("utils.py", "utils.py")]),
]

JADORE = ("jadore801120/attention-is-all-you-need-pytorch", "132907dd272e2cc92e3c10e6c4e783a87ff8893d", "MIT")
JADORE_DRIVER = """if __name__ == '__main__':
    training_data, validation_data = __import__('corpus_transformers').copy_task()  # Multi30k needs spacy
    opt = argparse.Namespace(src_pad_idx=0, trg_pad_idx=0, label_smoothing=True, use_tb=False, output_dir='.',
                             epoch=4, save_mode='best')
    transformer = Transformer(12, 12, src_pad_idx=0, trg_pad_idx=0, trg_emb_prj_weight_sharing=True,
                              emb_src_trg_weight_sharing=True, d_k=8, d_v=8, d_model=32, d_word_vec=32, d_inner=64,
                              n_layers=2, n_head=4, dropout=0.1, scale_emb_or_prj='prj')
    optimizer = ScheduledOptim(optim.Adam(transformer.parameters(), betas=(0.9, 0.98), eps=1e-09), 0.5, 32, 10)
    train(transformer, training_data, validation_data, optimizer, torch.device('cpu'), opt)
    from transformer.Translator import Translator
    translator = Translator(model=transformer, beam_size=3, max_seq_len=12, src_pad_idx=0, trg_pad_idx=0,
                            trg_bos_idx=2, trg_eos_idx=3)
    for src in validation_data[0].src.t()[:3]:
        print(src.tolist(), translator.translate_sentence(src[src != 0].unsqueeze(0)))
"""
RECIPES += [
    _r("jadore_transformer_train", JADORE, "train.py",
       [("import dill as pickle", "import pickle"),  # dill is not installed (the data pickle is not read)
        ("from torchtext.data import Field, Dataset, BucketIterator\n", ""),  # legacy torchtext: not installed
        ("from torchtext.datasets import TranslationDataset\n", ""),
        ("elapse=(time.time()-start_time)/60", "elapse=0"),  # a wall-clock time
        ("if __name__ == '__main__':\n    main()", JADORE_DRIVER)],
       support=[(f"transformer/{f}.py", f"transformer/{f}.py")
                for f in ("__init__", "Constants", "Modules", "Layers", "SubLayers", "Models", "Translator", "Optim")]),
]

LLAMA3_ARGS = ["--use_hf", "0", "--input_bin", "tokens.bin", "--batch_size", "2", "--sequence_length", "32",
               "--total_batch_size", "128", "--num_iterations", "4", "--sample_every", "4", "--dtype", "float32",
               "--device", "cpu", "--learning_rate", "1e-3"]
RECIPES += [
    _r("llmc_train_llama3", LLMC, "train_llama3.py",
       [("from tiktoken.load import load_tiktoken_bpe\n", ""),  # Meta's tokenizer file is a download (not used)
        ("    args = parser.parse_args()",
         f"    args = parser.parse_args({LLAMA3_ARGS!r})\n"
         "    __import__('corpus_transformers').llmc_bin('tokens.bin', vocab=512, llama=True)"),
        ('    assert device_type in {\'cuda\'}, "GPU required to run LLaMA 3"', "    pass"),  # a tiny float32 model
        ("        assert args.ckpt_dir is not None and os.path.exists(args.ckpt_dir)",  # Meta's 8B checkpoint:
         "        pass\n        assert True or os.path.exists(args.ckpt_dir)"),  # a tiny random model instead
        ("        assert args.tokenizer_path is not None and os.path.exists(args.tokenizer_path)",
         "        assert True or os.path.exists(args.tokenizer_path)"),
        ("        model = LLaMA.from_pretrained_llama3_meta(args.ckpt_dir, args.tokenizer_path)",
         "        model = LLaMA(LlamaConfig(block_size=256, vocab_size=512, n_layer=2, n_head=4, n_kv_head=2, n_embd=32,"
         " multiple_of=32))\n        model.tokenizer = __import__('corpus_transformers').LlamaTokenizer()"),
        ("max_gen_len=64", "max_gen_len=8"),
        (" | ({(t1-t0)*1000:.2f} ms | {tokens_per_second:.0f} tok/s)", ""),  # wall-clock times
        ('    print0(f"final {len(timings)} iters avg: {np.mean(timings)*1000:.3f}ms")\n', "")]),
]

BF16_AUTOCAST = "with torch.autocast(device_type=device_type, dtype=torch.bfloat16):"
BUILD_NANOGPT_FINAL = ("karpathy/build-nanogpt", "6104ab1b53920f6e2159749676073ff7d815c1fa", "MIT")
RECIPES += [
    _r("build_nanogpt_train_gpt2_fineweb", BUILD_NANOGPT_FINAL, "train_gpt2.py",
       [("from hellaswag import render_example, iterate_examples",  # HellaSwag's file is a download
         "from corpus_transformers import render_example, iterate_examples"),
        ('data_root = "edu_fineweb10B"', 'data_root = __import__("corpus_transformers").fineweb_shards("edu_fineweb10B")'),
        ("total_batch_size = 524288", "total_batch_size = 256"), ("B = 64 # micro batch size", "B = 4 # micro batch size"),
        ("T = 1024 # sequence length", "T = 32 # sequence length"),
        ("model = GPT(GPTConfig(vocab_size=50304))",
         "model = GPT(GPTConfig(vocab_size=50304, block_size=64, n_layer=2, n_head=2, n_embd=32))"),
        ("warmup_steps = 715", "warmup_steps = 2"), ("max_steps = 19073", "max_steps = 4"),
        ("max_length = 32", "max_length = 16"),
        *[(BF16_AUTOCAST, "if True:  # float32 on the CPU (bfloat16 attention: see the README)")] * 4,
        ("val_loss_steps = 20", "val_loss_steps = 2"),
        ("step % 250 == 0", "step % 3 == 0"), ("step % 250 == 0", "step % 3 == 0"), ("step % 250 == 0", "step % 3 == 0"),
        (" | dt: {dt*1000:.2f}ms | tok/sec: {tokens_per_sec:.2f}", "")]),  # wall-clock times
]

FUNCTORCH_NB = [FROM_FUNCTORCH] * 8  # each notebook cell's import, first occurrence each time
RECIPES += [
    _r("functorch_whirlwind_tour", FUNCTORCH, "notebooks/whirlwind_tour.ipynb",
       [*FUNCTORCH_NB, ("from torch.func import grad\n", "import torch\nfrom torch.func import grad\n"),  # used before
        ("result = vmap(model)(examples)", "result = vmap(model)(examples)\nprint(result)"),  # its import cell
        ("grad_weight_per_example = vmap(", "print(neg_sin_x, -x.sin())\ngrad_weight_per_example = vmap("),
        ("(*inputs)\n", "(*inputs)\nprint(grad_weight_per_example)\n"),
        ("vjps = vjp_fn(*cotangents)", "vjps = vjp_fn(*cotangents)\nprint(outputs, vjps)"),
        ("hessian1 = jacfwd(jacrev(f))(x)", "hessian1 = jacfwd(jacrev(f))(x)\nprint(hessian0, hessian1)"),
        ("hess = hessian(f)(x)", "hess = hessian(f)(x)\nprint(hess)")], keep_going=True),  # results printed
    _r("functorch_jacobians_hessians", FUNCTORCH, "notebooks/jacobians_hessians.ipynb",
       [*FUNCTORCH_NB[:5], ("from torch.utils.benchmark import Timer",
                            "from corpus_support import FixedTimer as Timer  # timings vary"),
        ("Din = 512\nDout = 32", "Din = 4\nDout = 8")]),
]

SGRVINOD_CAPTIONING = ("sgrvinod/a-PyTorch-Tutorial-to-Image-Captioning", "cc9c7e2f4017938d414178d3781fed8dbe442852", "MIT")
CAPTION_DRIVER = """        return predictions, encoded_captions, decode_lengths, alphas, sort_ind


if __name__ == '__main__':  # the decoder on random 4x4 encoder features, with train.py's loss (COCO is a download)
    from torch.nn.utils.rnn import pack_padded_sequence
    decoder = DecoderWithAttention(attention_dim=16, embed_dim=16, decoder_dim=24, vocab_size=30, encoder_dim=12)
    decoder_optimizer = torch.optim.Adam(params=filter(lambda p: p.requires_grad, decoder.parameters()), lr=4e-3)
    criterion = nn.CrossEntropyLoss()
    for i in range(6):
        encoder_out, caps, caplens = torch.randn(6, 4, 4, 12), torch.randint(1, 30, (6, 9)), torch.randint(3, 10, (6, 1))
        scores, caps_sorted, decode_lengths, alphas, sort_ind = decoder(encoder_out, caps, caplens)
        targets = caps_sorted[:, 1:]
        scores = pack_padded_sequence(scores, decode_lengths, batch_first=True).data
        targets = pack_padded_sequence(targets, decode_lengths, batch_first=True).data
        loss = criterion(scores, targets)
        loss += 1. * ((1. - alphas.sum(dim=1)) ** 2).mean()
        decoder_optimizer.zero_grad()
        loss.backward()
        decoder_optimizer.step()
        print(i, loss.item(), tuple(scores.shape), sort_ind.tolist(), decode_lengths)
    print(alphas[0, :2])
"""
RECIPES += [
    _r("sgrvinod_caption_decoder", SGRVINOD_CAPTIONING, "models.py",
       [("        return predictions, encoded_captions, decode_lengths, alphas, sort_ind\n", CAPTION_DRIVER)]),
]

LLMC_EXPORT_ARGS = [*LLMC_ARGS[:LLMC_ARGS.index("--num_iterations")], "--num_iterations", "2", "--write_tensors", "1",
                    "--device", "cpu", "--learning_rate", "1e-3"]
RECIPES += [
    _r("llmc_train_gpt2_export", LLMC, "train_gpt2.py",  # the weights and state llm.c's C code is tested against
       [("    args = parser.parse_args()",
         f"    args = parser.parse_args({LLMC_EXPORT_ARGS!r})\n    __import__('corpus_transformers').llmc_bin('tokens.bin')"),
        ('"d12": GPTConfig(block_size=1024, vocab_size=50257, n_layer=12, n_head=12, n_embd=768)',
         '"d12": GPTConfig(block_size=64, vocab_size=50257, n_layer=2, n_head=2, n_embd=32)'),
        ('write_tokenizer(enc, "gpt2_tokenizer.bin")', "pass  # the stand-in tokenizer has no byte table"),
        ('        write_state(model, x, y, logits, loss, f"gpt2_{model_size_str}_debug_state.bin")\n',
         '        write_state(model, x, y, logits, loss, f"gpt2_{model_size_str}_debug_state.bin")\n'
         '        import hashlib  # the exported weights, bit for bit\n'
         '        print({f: hashlib.md5(open(f, "rb").read()).hexdigest() for f in ("gpt2_d12.bin", "gpt2_d12_bf16.bin")},'
         ' os.path.getsize("gpt2_d12_debug_state.bin"))\n'),
        (" | ({(t1-t0)*1000:.2f} ms | {tokens_per_second:.0f} tok/s)", ""),  # wall-clock times
        ('    print0(f"final {len(timings)} iters avg: {np.mean(timings)*1000:.3f}ms")\n', "")]),
]

LLAMA2C = ("karpathy/llama2.c", "350e04fe35433e6d2941dce5a1f53308f87058eb", "MIT")
LLAMA2C_ARGV = ["train.py", "--device=cpu", "--compile=False", "--dtype=float32", "--batch_size=4", "--max_seq_len=32",
                "--vocab_source=custom", "--vocab_size=512", "--dim=64", "--n_layers=2", "--n_heads=4",
                "--n_kv_heads=2", "--multiple_of=32", "--max_iters=6", "--eval_interval=3", "--eval_iters=2",
                "--gradient_accumulation_steps=2", "--warmup_iters=2", "--always_save_checkpoint=True"]
LLAMA2C_EXPORT = """
model_export(raw_model, os.path.join(out_dir, "model_q80.bin"), version=2)  # the int8 export, after training
print({f: os.path.getsize(os.path.join(out_dir, f)) for f in ("model.bin", "model_q80.bin")})  # trained: not bits
"""
RECIPES += [
    _r("llama2c_train", LLAMA2C, "train.py",
       [("from tinystories import Task",
         "__import__('corpus_transformers').llama2c_standins()  # sentencepiece and TinyStories' shards\n"
         "from tinystories import Task"),
        ('exec(open("configurator.py").read())',
         f'import sys\nsys.argv = {LLAMA2C_ARGV!r}\nexec(open("configurator.py").read())'),
        (" | {dt*1000:.2f}ms | mfu {running_mfu*100:.2f}%", ""),  # wall-clock times
        ("if ddp:\n    destroy_process_group()", "if ddp:\n    destroy_process_group()\n" + LLAMA2C_EXPORT)],
       support=[("model.py", "model.py"), ("tinystories.py", "tinystories.py"), ("export.py", "export.py"),
                ("configurator.py", "configurator.py"), ("tokenizer.py", "tokenizer.py")]),
]

GPT_FAST = ("pytorch-labs/gpt-fast", "32971d3129541c5bfb4f715abc33d1c5f408d204", "BSD-3-Clause")


def _gpt_fast(name, more_args=()):
    """generate.py sampling from a random stories15M (gpt-fast's smallest config) in float32 on the CPU."""
    args = ["--checkpoint_path", "checkpoints/stories15M/model.pth", "--num_samples", "2", "--max_new_tokens", "8",
            "--top_k", "20", "--device", "cpu", *more_args]
    return _r(name, GPT_FAST, "generate.py",
              [("    precision = torch.bfloat16", "    precision = torch.float32  # bfloat16 GEMMs are oneDNN's"),
               ('    print(f"Time to load model: {time.time() - t0:.02f} seconds")\n', ""),  # wall-clock times
               ('        print(f"Time for inference {i + 1}: {t:.02f} sec total, {generated_tokens_sec:.02f} tokens/sec")\n',
                ""),
               ('print(f"Bandwidth achieved: {model_size * generated_tokens_sec / 1e9:.02f} GB/s")',
                'print(f"model size: {model_size}")'),
               ('print(f"FLOPS achieved: {params * total_tokens_sec * 2 / 1e12:.02f} TF/s")', 'print(f"params: {params}")'),
               ("    print(f\"Average tokens/sec: {torch.mean(torch.tensor(aggregate_metrics['tokens_per_sec'])).item():.2f}\")\n",
                ""),
               ("from tokenizer import get_tokenizer",  # sentencepiece, tiktoken.load and a random model's checkpoint
                "__import__('corpus_transformers').gpt_fast_standins('checkpoints/stories15M')\n"
                "from tokenizer import get_tokenizer"),
               ("    args = parser.parse_args()", f"    args = parser.parse_args({args!r})")],
              support=[("model.py", "model.py"), ("tokenizer.py", "tokenizer.py"), ("tp.py", "tp.py"),
                       ("quantize.py", "quantize.py")])


RECIPES += [_gpt_fast("gpt_fast_generate")]

GRAPH_NETS = ("dsgiitr/graph_nets", "92b173a1f5ad9b3db7416709696b2635a9e90b6f", "none stated")
RECIPES += [
    _r("graphnets_deepwalk", GRAPH_NETS, "DeepWalk/DeepWalk.py", [("y  = 200", "y  = 3")]),  # walks per vertex
    _r("graphnets_gcn_karate", GRAPH_NETS, "GCN/GCN.py",
       [("import imageio\nfrom celluloid import Camera\n",
         "from corpus_transformers import Camera  # celluloid and imageio are not installed\n"),
        ("    for i in range(l.shape[0]):\n        text_plot = plt.text(l[i,0], l[i,1], str(i+1))",  # the label loop's i
         "    for j in range(l.shape[0]):\n        text_plot = plt.text(l[j,0], l[j,1], str(j+1))"),  # hid the step's
        ("animation = camera.animate(blit=False, interval=150)", "print(l)\nanimation = camera.animate(blit=False, interval=150)")]),
    _r("graphnets_graphsage_cora", GRAPH_NETS, "GraphSAGE/GraphSAGE_Code+Blog.ipynb",
       [("from sklearn.metrics import f1_score", "from corpus_transformers import f1_score"),
        ("_set(_sample(to_neigh,", "_set(_sample(tuple(to_neigh),"),  # Python 3.11's random.sample refuses a set
        ("samp_neigh + set([nodes[i]])", "samp_neigh | set([nodes[i]])"),  # sets have no +
        ("agg1 = MeanAggregator(features, cuda=True)", "agg1 = MeanAggregator(features, cuda=False)"),
        ("for batch in range(100):", "for batch in range(10):"),
        ('    print ("Average batch time:", np.mean(times))', ""),  # a wall-clock time
        ("def load_cora():",  # the mirror lacks the checked-in cora.content: corpus_examples' seeded Cora, full size
         "__import__('corpus_examples').cora_data(nodes=2708, words=1433)\ndef load_cora():")]),
]

SGRVINOD_SR = ("sgrvinod/a-PyTorch-Tutorial-to-Super-Resolution", "c30556bc79a9d43539f2d658722bcb7ff5011ddb", "MIT")
SR_LAST = ("        output = self.truncated_vgg19(input)  # (N, feature_map_channels, feature_map_w, feature_map_h)\n\n"
           "        return output\n")
SR_DRIVER = SR_LAST + """

if __name__ == '__main__':  # SRResNet and the SRGAN discriminator, shrunk, on random 12x12 images (train_srgan.py's losses)
    srresnet = SRResNet(large_kernel_size=9, small_kernel_size=3, n_channels=8, n_blocks=2, scaling_factor=2)
    discriminator = Discriminator(kernel_size=3, n_channels=8, n_blocks=2, fc_size=1024)
    optimizer_g = torch.optim.Adam(params=filter(lambda p: p.requires_grad, srresnet.parameters()), lr=1e-3)
    optimizer_d = torch.optim.Adam(params=filter(lambda p: p.requires_grad, discriminator.parameters()), lr=1e-3)
    content_loss_criterion, adversarial_loss_criterion = nn.MSELoss(), nn.BCEWithLogitsLoss()
    for i in range(3):
        lr_imgs, hr_imgs = torch.rand(2, 3, 12, 12) * 2 - 1, torch.rand(2, 3, 24, 24) * 2 - 1
        sr_imgs = srresnet(lr_imgs)
        sr_discriminated = discriminator(sr_imgs)
        content_loss = content_loss_criterion(sr_imgs, hr_imgs)
        adversarial_loss = adversarial_loss_criterion(sr_discriminated, torch.ones_like(sr_discriminated))
        perceptual_loss = content_loss + 1e-3 * adversarial_loss
        optimizer_g.zero_grad()
        perceptual_loss.backward()
        optimizer_g.step()
        hr_discriminated = discriminator(hr_imgs)
        sr_discriminated = discriminator(sr_imgs.detach())
        adversarial_loss = adversarial_loss_criterion(sr_discriminated, torch.zeros_like(sr_discriminated)) + \\
                           adversarial_loss_criterion(hr_discriminated, torch.ones_like(hr_discriminated))
        optimizer_d.zero_grad()
        adversarial_loss.backward()
        optimizer_d.step()
        print(i, tuple(sr_imgs.shape), content_loss.item(), perceptual_loss.item(), adversarial_loss.item())
"""
RECIPES += [_r("sgrvinod_srgan_models", SGRVINOD_SR, "models.py", [(SR_LAST, SR_DRIVER)])]
