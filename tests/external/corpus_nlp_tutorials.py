"""Stand-ins for the NLP tutorials' downloads (corpus helper A's recipes; our code).

``fake_mrpc(dir, rows)`` replaces Morvan Zhou's ``utils._process_mrpc`` (which reads the Microsoft Research
Paraphrase Corpus after ``maybe_download_mrpc`` fetched it): it returns the same ``(data, v2i, i2v)`` for 64 training
and 16 test sentence pairs drawn from a 40-word vocabulary by a seeded NumPy generator, so both runs see the same
pairs. ``no_download`` replaces ``maybe_download_mrpc``.

``fake_mnist_raw(...)`` is ``corpus_support.fake_mnist`` for scripts whose own transform function reads the image as
torchvision's MNIST gives it (a PIL image, which ``np.array`` turns into 28x28 uint8): each item is that transform
applied to the 28x28 uint8 NumPy array of the stand-in's image.

``legacy_data``/``legacy_datasets`` are ``corpus_legacy_imdb``'s legacy-torchtext IMDB with one more case: a
``Field(sequential=False)`` for the labels, which legacy torchtext numbers after its ``<unk>`` (no ``<pad>``): ``neg``
and ``pos`` by frequency, from 1 (Keon Kim's GRU classifier subtracts that 1).

``load_mnist(ntrain, ntest, onehot)`` stands in for vinhkhuc's ``data_util.load_mnist`` (which downloads MNIST's
files): 300 training and 100 test images of seeded noise, as float64 rows of 784 values in [0, 1] and uint8 labels
(one-hot float64 rows when ``onehot``), as it returns them.
"""

from __future__ import annotations

import collections
import types

import corpus_legacy_imdb
import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch
from corpus_support import FakeMNIST

PAD_ID = 0
WORDS = ("the company said it would sell shares of its stock to investors in march and april while analysts "
         "expected profit growth for the year after a strong quarter on high demand from new customers").split()
SIZES = {"train": 64, "test": 16}


def no_download(save_dir="./MRPC/", proxy=None) -> None:
    """``maybe_download_mrpc``: nothing to fetch."""


def _sentences(rng, n: int) -> list[str]:
    return [" ".join(rng.choice(WORDS, size=rng.integers(5, 12))) for _ in range(n)]


def fake_mrpc(dir="./MRPC", rows=None):
    """``_process_mrpc``'s ``(data, v2i, i2v)`` for seeded sentence pairs (``rows`` caps each split, as there)."""
    rng = np.random.default_rng(0)
    data = {}
    for split, n in SIZES.items():
        n = min(n, rows) if rows else n
        data[split] = {"is_same": rng.integers(0, 2, size=n), "s1": np.array(_sentences(rng, n), dtype=object),
                       "s2": np.array(_sentences(rng, n), dtype=object)}
    vocab = {w for split in data.values() for m in ("s1", "s2") for s in split[m] for w in s.split(" ")}
    v2i = {v: i for i, v in enumerate(sorted(vocab), start=1)}
    v2i["<PAD>"] = PAD_ID
    v2i["<MASK>"] = len(v2i)
    v2i["<SEP>"] = len(v2i)
    v2i["<GO>"] = len(v2i)
    i2v = {i: v for v, i in v2i.items()}
    for split in data.values():
        for m in ("s1", "s2"):
            split[m + "id"] = [[v2i[v] for v in c.split(" ")] for c in split[m]]
    return data, v2i, i2v


class FakeMNISTRaw(FakeMNIST):
    def __init__(self, *args, transform=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.transform = transform

    def __getitem__(self, i):
        image = self.data[i].numpy()  # what np.array(PIL image) gives: 28x28 uint8
        return (self.transform(image) if self.transform else image), int(self.targets[i])


def fake_mnist_raw(*args, **kwargs) -> FakeMNISTRaw:
    return FakeMNISTRaw(*args, **kwargs)


class _Field(corpus_legacy_imdb.Field):
    """Legacy torchtext's ``Field``; with ``sequential=False`` a label field whose vocabulary starts with ``<unk>``."""

    def preprocess(self, text):
        return super().preprocess(text) if self.sequential else text

    def build_vocab(self, *datasets, **kwargs) -> None:
        if self.sequential:
            return super().build_vocab(*datasets, **kwargs)
        counts = collections.Counter(ex.label for d in datasets for ex in d.examples)
        itos = ["<unk>", *sorted(sorted(counts), key=lambda w: -counts[w])]
        self.vocab = corpus_legacy_imdb._Vocab(itos, collections.defaultdict(int, {w: i for i, w in enumerate(itos)}),
                                               counts)

    def process(self, batch: list) -> torch.Tensor:
        if self.sequential:
            return super().process(batch)
        return torch.tensor([self.vocab.stoi[label] for label in batch], dtype=self.dtype)


legacy_data = types.SimpleNamespace(**{**vars(corpus_legacy_imdb.data), "Field": _Field})
legacy_datasets = corpus_legacy_imdb.datasets


def load_mnist(ntrain=60000, ntest=10000, onehot=True):
    """``(trX, teX, trY, teY)`` as vinhkhuc's ``load_mnist`` returns them, for seeded noise images."""
    rng = np.random.default_rng(3)
    trX, teX = (rng.integers(0, 256, size=(n, 28 * 28)).astype(float) / 255. for n in (300, 100))
    trY, teY = (rng.integers(0, 10, size=n).astype(np.uint8) for n in (300, 100))
    trX, trY, teX, teY = trX[:ntrain], trY[:ntrain], teX[:ntest], teY[:ntest]
    if onehot:
        trY, teY = np.eye(10)[trY], np.eye(10)[teY]
    return trX, teX, trY, teY
