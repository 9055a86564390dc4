"""Stand-ins for the non-English courses' and books' data (recipes_intl.py), our code, committed.

Yutaro Ogawa's GAN chapters read 64x64 grey JPEGs of handwritten 7s and 8s through PIL; ``gan_images`` is a dataset
of seeded NumPy noise with the shape their ``ImageTransform`` gives (a 1x64x64 float tensor in [-1, 1]; 1x28x28 for
EfficientGAN), fewer of
them (a stand-in epoch is one or two mini-batches).
"""

from __future__ import annotations

import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch


class GanImages:
    """``GAN_Img_Dataset(file_list, transform)`` without files: ``n`` images, the same in both runs."""

    def __init__(self, n: int = 16, size: int = 64, seed: int = 0):
        rng = np.random.default_rng(seed)
        pixels = rng.integers(0, 256, size=(n, 1, size, size)).astype(np.float32) / 255.0
        self.images = torch.from_numpy((pixels - 0.5) / 0.5)  # Normalize((0.5,), (0.5,)) after ToTensor

    def __len__(self) -> int:
        return self.images.shape[0]

    def __getitem__(self, index):
        return self.images[index]


def gan_images(*args, n: int = 16, size: int = 64, seed: int = 0, **kwargs) -> GanImages:
    return GanImages(n=n, size=size, seed=seed)


class _Batch:
    """A legacy torchtext ``Batch``: ``Text`` is ``(ids, lengths)`` (``include_lengths=True``), ``Label`` ints."""

    def __init__(self, text, lengths, label):
        self.Text = (text, lengths)
        self.Label = label


class _Iterator:
    """A legacy ``torchtext.data.Iterator`` over fixed batches; ``dataset`` only for ``len(dl.dataset)``."""

    def __init__(self, batches):
        self.batches = batches
        self.dataset = [None] * sum(b.Label.shape[0] for b in batches)

    def __iter__(self):
        return iter(self.batches)

    def __len__(self) -> int:
        return len(self.batches)


class _Vocab:
    def __init__(self, words, vectors):
        self.itos = words
        self.stoi = {w: i for i, w in enumerate(words)}
        self.vectors = vectors


class _Field:
    def __init__(self, vocab):
        self.vocab = vocab


def imdb_loaders(max_length=256, batch_size=24, *, vocab_size=200, batches=(2, 1, 1), dim=300, seed=0):
    """``get_IMDb_DataLoaders_and_TEXT`` on seeded reviews: ``<cls>`` first, ``<eos>`` last, ``<pad>`` (id 1) after,
    a vocabulary of ``vocab_size`` made-up words with 300-d random vectors (fastText's size), labels 0/1."""
    rng = np.random.default_rng(seed)
    words = ["<unk>", "<pad>", "<cls>", "<eos>", *(f"w{i}" for i in range(vocab_size - 4))]
    vectors = torch.from_numpy(rng.standard_normal((vocab_size, dim)).astype(np.float32))
    loaders = []
    for count in batches:
        made = []
        for _ in range(count):
            ids = np.ones((batch_size, max_length), dtype=np.int64)
            lengths = rng.integers(max_length // 8, max_length, size=batch_size)
            for row, n in enumerate(lengths):
                ids[row, :n] = rng.integers(4, vocab_size, size=n)
                ids[row, 0], ids[row, n - 1] = 2, 3
            made.append(_Batch(torch.from_numpy(ids), torch.from_numpy(lengths.astype(np.int64)),
                               torch.from_numpy(rng.integers(0, 2, size=batch_size).astype(np.int64))))
        loaders.append(_Iterator(made))
    return (*loaders, _Field(_Vocab(words, vectors)))


_SEEN: list = []


def object_number(obj) -> int:
    """A small number for ``obj`` in place of ``id(obj)`` (a memory address, different in every run): the same
    object gets the same number, another object the next one (each is kept alive, so no address is reused)."""
    for number, seen in enumerate(_SEEN):
        if seen is obj:
            return number
    _SEEN.append(obj)
    return len(_SEEN) - 1


class AttrDict(dict):
    """The ``attrdict`` package's ``AttrDict`` (not installed): a dict whose keys read as attributes."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def bert_config() -> dict:
    """``bert_config.json`` of bert-base-uncased with the sizes cut down (12 layers of width 64, 4 heads, 200 words)
    so that a forward pass is quick; the keys and the dropout rates are the file's."""
    return {"attention_probs_dropout_prob": 0.1, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
            "hidden_size": 64, "initializer_range": 0.02, "intermediate_size": 128, "max_position_embeddings": 64,
            "num_attention_heads": 4, "num_hidden_layers": 12, "type_vocab_size": 2, "vocab_size": 200}


_BERT_WORDS = ("i he we the bank account . into at of river play soccer money deposit transferred accessed "
               "a an is was to and in on it for with as by this that").split()


def bert_vocab_file(path: str = "bert_vocab.txt") -> str:
    """A 200-line ``bert-base-uncased-vocab.txt`` (the real one comes with the downloaded model): BERT's special
    tokens at their ids, the chapter's example words, then made-up pieces; written beside the script."""
    words = ["[PAD]", *(f"[unused{i}]" for i in range(99)), "[UNK]", "[CLS]", "[SEP]", "[MASK]", *_BERT_WORDS]
    words += [f"##w{i}" for i in range(200 - len(words))]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(words) + "\n")
    return path
