"""Stand-ins for corpus helper H's scripts (transformers, graph nets, functorch; our code, not the scripts').

- ``llmc_bin(path, tokens)`` writes llm.c's token file format (a header of 256 int32: magic 20240520, version 1,
  the token count; then the tokens as uint16), here ``tokens`` ids drawn from a seeded NumPy generator below
  GPT-2's 50257 (or ``vocab``), so ``train_gpt2.py``'s ``DistributedDataLoader`` reads it as it reads tiny
  Shakespeare's; ``llama=True`` writes ``train_llama3.py``'s version (magic 20240801, version 7, uint32 ids).
- ``LlamaTokenizer``: a character-level stand-in for Meta's Llama 3 tokenizer (its BPE file is a download) with
  the attributes ``train_llama3.py``'s ``generate`` reads (``pad_id``, ``stop_tokens``).
"""

from __future__ import annotations

import numpy as np


def llmc_bin(path: str, tokens: int = 4096, seed: int = 0, vocab: int = 50257, llama: bool = False) -> str:
    ids = np.random.default_rng(seed).integers(0, vocab, size=tokens).astype(np.uint32 if llama else np.uint16)
    header = np.zeros(256, dtype=np.int32)
    header[:3] = (20240801, 7, tokens) if llama else (20240520, 1, tokens)
    with open(path, "wb") as f:
        f.write(header.tobytes())
        f.write(ids.tobytes())
    return path


def gat_cora_data(training_config, device, nodes: int = 700, features: int = 1433, classes: int = 7, seed: int = 5):
    """pytorch-GAT's ``load_graph_data`` for Cora, on a seeded stand-in (the checked-in Cora pickles are SciPy
    sparse matrices): ``nodes`` papers whose word flags and citations follow their class, features normalised to
    sum 1 per row, splits 0-140 (train), 140-440 (val), 440-``nodes`` (test). The topology is the edge index
    (2, E) with self edges for implementation 3, else the (N, N) mask of 0 (edge or self) and -inf."""
    import torch  # the runner's torch: core under the alias, or PyTorch

    rng = np.random.default_rng(seed)
    labels = rng.integers(0, classes, size=nodes)
    vocab = rng.random((classes, features)) < 0.02
    flags = (rng.random((nodes, features)) < 0.005) | (vocab[labels] & (rng.random((nodes, features)) < 0.5))
    flags = flags.astype(np.float32)
    sums = flags.sum(-1, keepdims=True)
    flags = flags / np.where(sums == 0, 1, sums)
    edges = set()
    for i in range(nodes):
        for _ in range(2):
            same = np.flatnonzero(labels == labels[i]) if rng.random() < 0.8 else np.arange(nodes)
            j = int(rng.choice(same))
            if j != i:
                edges.update({(i, j), (j, i)})
    source, target = (list(t) for t in zip(*sorted(edges)))
    if training_config["layer_type"].name == "IMP3":
        topology = torch.tensor([source + list(range(nodes)), target + list(range(nodes))], dtype=torch.long)
    else:
        mask = np.full((nodes, nodes), -np.inf, dtype=np.float32)
        mask[source, target] = 0
        mask[np.arange(nodes), np.arange(nodes)] = 0
        topology = torch.tensor(mask)
    return (torch.tensor(flags), torch.tensor(labels, dtype=torch.long), topology,
            torch.arange(0, 140), torch.arange(140, 440), torch.arange(440, nodes))


_WORDS = ("the a man woman dog cat sees likes runs house garden old young small big red blue green eats "
          "bread apple water walks sleeps reads book child teacher city river").split()


class _BPE:
    """youtokentome.BPE's stand-in: whole words, each with a fixed id (a BPE model is a trained file); ids 0-3 are
    ``<PAD>``, ``<UNK>``, ``<BOS>``, ``<EOS>`` as in youtokentome."""

    SPECIALS = ("<PAD>", "<UNK>", "<BOS>", "<EOS>")

    def __init__(self, model=None):
        self.vocab = [*self.SPECIALS, *_WORDS, *(w.upper() for w in _WORDS)]
        self.ids = {w: i for i, w in enumerate(self.vocab)}

    def vocab_size(self):
        return len(self.vocab)

    def subword_to_id(self, subword):
        return self.ids.get(subword, 1)

    def encode(self, sentences, output_type=None, bos=False, eos=False):
        def one(s):
            ids = [self.ids.get(w, 1) for w in s.split()]
            return [2] * bos + ids + [3] * eos
        return [one(s) for s in sentences]

    def decode(self, ids, ignore_ids=None):
        return [" ".join(self.vocab[i] for i in row if i not in (ignore_ids or ())) for row in ids]


def sgrvinod_standins(folder: str = "data", train: int = 96, val: int = 6, seed: int = 0) -> None:
    """For sgrvinod's transformer tutorial: ``youtokentome`` (``BPE``, ``OutputType``) and ``wget`` (imported by
    its utils, never called) in ``sys.modules``, and ``folder/{train,val}.{en,de}``: seeded sentences of 3 to 8
    words, each "German" one the English words reversed and upper-cased (a task a small model can learn)."""
    import os
    import sys
    import types

    sys.modules["youtokentome"] = types.SimpleNamespace(BPE=_BPE, OutputType=types.SimpleNamespace(ID=0, SUBWORD=1))
    sys.modules["wget"] = types.ModuleType("wget")
    rng = np.random.default_rng(seed)
    os.makedirs(folder, exist_ok=True)
    for split, count in (("train", train), ("val", val)):
        english = [" ".join(rng.choice(_WORDS, size=rng.integers(3, 9))) for _ in range(count)]
        german = [" ".join(reversed(s.upper().split())) for s in english]
        for suffix, lines in (("en", english), ("de", german)):
            with open(os.path.join(folder, f"{split}.{suffix}"), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")


def copy_task(batches: int = 8, valid: int = 2, batch_size: int = 8, vocab: int = 12, seed: int = 0):
    """torchtext-style batches (``.src`` and ``.trg``, each (length, batch) of ids, not batch-first) of a copy
    task for jadore801120's ``train.py``: a source of 3 to 7 ids from 4 to ``vocab - 1``, its target ``<s>`` (2),
    the same ids, ``</s>`` (3), both padded with 0 (``<blank>``). Returns the training and validation batches."""
    import types

    import torch  # the runner's torch: core under the alias, or PyTorch

    rng = np.random.default_rng(seed)

    def batch():
        rows = [rng.integers(4, vocab, size=rng.integers(3, 8)).tolist() for _ in range(batch_size)]
        src = np.zeros((max(map(len, rows)), batch_size), dtype=np.int64)
        trg = np.zeros((src.shape[0] + 2, batch_size), dtype=np.int64)
        for j, row in enumerate(rows):
            src[:len(row), j] = row
            trg[:len(row) + 2, j] = [2, *row, 3]
        return types.SimpleNamespace(src=torch.tensor(src), trg=torch.tensor(trg))

    data = [batch() for _ in range(batches + valid)]
    return data[:batches], data[batches:]


class LlamaTokenizer:
    """Meta's Llama 3 ``Tokenizer`` for ``train_llama3.py``: ``<|begin_of_text|>`` is 1, ``<|end_of_text|>`` 2 (the
    stop token), padding -1; a character is 3 plus its code point modulo ``vocab - 3``, and decoding maps an id back
    into printable ASCII."""

    def __init__(self, vocab: int = 512):
        self.vocab, self.pad_id, self.stop_tokens = vocab, -1, {2}

    def encode(self, s, bos=False, eos=False):
        return [1] * bos + [3 + ord(c) % (self.vocab - 3) for c in s] + [2] * eos

    def decode(self, t):
        return "".join(chr(32 + i % 95) for i in t)


def fineweb_shards(root: str = "edu_fineweb10B", tokens: int = 3000, seed: int = 0) -> str:
    """build-nanogpt's FineWeb-Edu shards (``fineweb.py`` writes 100M-token ``.npy`` files of uint16 GPT-2 ids): one
    ``val`` and two ``train`` shards of ``tokens`` seeded ids below 50257 in ``root``, which is returned."""
    import os

    rng = np.random.default_rng(seed)
    os.makedirs(root, exist_ok=True)
    for name in ("edufineweb_val_000000", "edufineweb_train_000001", "edufineweb_train_000002"):
        np.save(os.path.join(root, name + ".npy"), rng.integers(0, 50257, size=tokens).astype(np.uint16))
    return root


_HELLASWAG = [  # HellaSwag's validation file is a download: four examples of its shape (a context, 4 endings)
    ("A man is sitting on a roof. He", ["is using wrap to wrap a pair of skis.", "is ripping level tiles off.",
                                        "is holding a rubik's cube.", "starts pulling up roofing on a roof."], 3),
    ("A woman is outside with a bucket and a dog. The dog", ["runs around trying to avoid a bath.",
     "gets into the bath tub.", "is playing with a ball.", "sits down on the grass."], 0),
    ("Two people are paddling a canoe. They", ["stop at the shore.", "fall into the water.",
     "paddle down the river.", "turn the canoe around."], 2),
    ("A boy is playing the piano. He", ["bows to the audience.", "plays a song.", "stands up.",
                                        "closes the lid."], 1),
]


def iterate_examples(split):
    """``hellaswag.iterate_examples``: the stand-in's examples, as dicts with ``ctx``, ``endings``, ``label``."""
    for ctx, endings, label in _HELLASWAG:
        yield {"ctx": ctx, "endings": endings, "label": label}


def render_example(example):
    """``hellaswag.render_example`` for the stand-in tokenizer: (data, tokens (4, L), mask (4, L), label), each row the
    context's ids then one ending's, the mask 1 on the ending, rows zero-padded to the longest."""
    import tiktoken  # the runner's stand-in
    import torch  # the runner's torch: core under the alias, or PyTorch

    enc = tiktoken.get_encoding("gpt2")
    ctx = enc.encode(example["ctx"])
    rows = [(ctx + enc.encode(" " + end), [0] * len(ctx) + [1] * len(enc.encode(" " + end)))
            for end in example["endings"]]
    width = max(len(r) for r, _ in rows)
    tokens = torch.zeros((4, width), dtype=torch.long)
    mask = torch.zeros((4, width), dtype=torch.long)
    for i, (row, m) in enumerate(rows):
        tokens[i, :len(row)] = torch.tensor(row)
        mask[i, :len(m)] = torch.tensor(m)
    return {"label": example["label"]}, tokens, mask, example["label"]


def llama2c_standins(folder: str = "data/tok512", vocab: int = 512, shards: int = 3, tokens: int = 4000) -> None:
    """For llama2.c's ``train.py``: ``sentencepiece`` in ``sys.modules`` (its tokenizer files are trained or
    downloaded; ``tinystories.py`` and ``tokenizer.py`` import it, training never calls it) and ``shards`` pretokenized
    TinyStories shards in ``folder`` (``pretokenize``'s uint16 ``.bin`` files) of ``tokens`` seeded ids below
    ``vocab``; shard 0 is the validation split."""
    import os
    import sys
    import types

    stub = sys.modules["sentencepiece"] = types.ModuleType("sentencepiece")
    stub.SentencePieceProcessor = None
    rng = np.random.default_rng(0)
    os.makedirs(folder, exist_ok=True)
    for i in range(shards):
        rng.integers(0, vocab, size=tokens).astype(np.uint16).tofile(os.path.join(folder, f"data{i:02d}.bin"))


class _SentencePiece:
    """``sentencepiece.SentencePieceProcessor``'s stand-in for gpt-fast (Llama 2's tokenizer model is a download):
    ``<s>`` 1, ``</s>`` 2, a character 3 plus its code point modulo 509, decoded into printable ASCII."""

    def __init__(self, model_file=None):
        self.model_file = model_file

    def EncodeAsIds(self, text):
        return [3 + ord(c) % 509 for c in text]

    def DecodeIds(self, ids):
        return "".join(chr(32 + i % 95) for i in ids)

    def bos_id(self):
        return 1

    def eos_id(self):
        return 2


def gpt_fast_standins(folder: str = "checkpoints/stories15M") -> None:
    """For gpt-fast's ``generate.py``: ``sentencepiece`` and ``tiktoken.load`` in ``sys.modules`` (their files are
    downloads), and ``folder/model.pth``, the state dict of a freshly initialised ``model.Transformer`` named by the
    folder (gpt-fast's ``model.py`` next to the script; torch's generator draws its weights), with an empty
    ``tokenizer.model`` beside it. The folder's config in ``model.transformer_configs`` is shrunk first to 2 layers,
    4 heads, 64 wide and 512 ids (stories15M's 15M parameters took 3 s to initialise and load in core)."""
    import os
    import sys
    import types

    import torch  # the runner's torch: core under the alias, or PyTorch

    sys.modules["sentencepiece"] = types.SimpleNamespace(SentencePieceProcessor=_SentencePiece)
    sys.modules["tiktoken.load"] = types.SimpleNamespace(load_tiktoken_bpe=None)
    import model  # gpt-fast's, next to the script

    model.transformer_configs[os.path.basename(folder)] = dict(n_layer=2, n_head=4, dim=64, vocab_size=512)
    Transformer = model.Transformer
    os.makedirs(folder, exist_ok=True)
    torch.save(Transformer.from_name(os.path.basename(folder)).state_dict(), os.path.join(folder, "model.pth"))
    open(os.path.join(folder, "tokenizer.model"), "wb").close()


def f1_score(y_true, y_pred, *, average="binary"):
    """scikit-learn's ``f1_score`` for ``average="micro"`` over single-label classes, where it is the accuracy
    (the GraphSAGE notebook's validation score; scikit-learn is not installed)."""
    if average != "micro":
        raise NotImplementedError("the stand-in computes average='micro' only")
    return float(np.mean(np.asarray(y_true).ravel() == np.asarray(y_pred).ravel()))


class Camera:
    """celluloid's ``Camera`` (not installed): ``snap`` takes nothing, ``animate`` gives an animation whose ``save``
    writes nothing and whose ``to_html5_video`` is empty (the GCN karate-club script animates its embeddings)."""

    def __init__(self, figure=None):
        self.figure = figure

    def snap(self):
        return None

    def animate(self, **kwargs):
        import types

        return types.SimpleNamespace(save=lambda *args, **kw: None, to_html5_video=lambda: "")
