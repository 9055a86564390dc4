"""A stand-in for legacy torchtext's IMDB pipeline (``torchtext.legacy.data``/``datasets``, 2020 course notebooks; our
code): ``Field``, ``LabelField``, ``IMDB.splits``, ``Dataset.split`` and ``BucketIterator.splits`` over
``corpus_imdb``'s generated reviews (500 training, 200 test; labels ``'neg'``/``'pos'``).

- ``Field(fix_length=, batch_first=, lower=, dtype=)`` splits on whitespace; ``build_vocab(max_size=)`` orders words by
  frequency, then alphabetically, after ``<unk>`` and ``<pad>``, as legacy torchtext did; a batch pads or cuts each
  review to ``fix_length`` (``<pad>`` is 1).
- ``LabelField`` numbers labels by frequency (no specials) and gives a ``(batch,)`` tensor of ``dtype``.
- ``Dataset.split(split_ratio=0.7, random_state=None)`` shuffles with Python's ``random`` (seeded by the runner or the
  script), as legacy torchtext's ``RandomShuffler`` did with ``random_state=None``.
- ``BucketIterator.splits`` gives one iterator per dataset: the first (training) one shuffles its examples with
  Python's ``random`` each epoch; the others keep ``sort_key``'s order. Batches hold ``.text``, ``.label`` and
  ``.fields``; ``len(iterator)`` is the number of batches.
"""

from __future__ import annotations

import collections
import math
import random
import types

import torch  # the runner's torch: core under the alias, or PyTorch
from corpus_imdb import _reviews

LABELS = {1: "neg", 2: "pos"}


class Field:
    def __init__(self, sequential=True, fix_length=None, batch_first=False, lower=False, dtype=torch.long,
                 tokenize=None, **kwargs):
        self.sequential, self.fix_length, self.batch_first, self.lower, self.dtype = \
            sequential, fix_length, batch_first, lower, dtype
        self.vocab = None

    def preprocess(self, text: str) -> list:
        return (text.lower() if self.lower else text).split()

    def build_vocab(self, *datasets, max_size=None, **kwargs) -> None:
        counts = collections.Counter(t for d in datasets for ex in d.examples for t in ex.text)
        words = sorted(sorted(counts), key=lambda w: -counts[w])[:max_size]
        itos = ["<unk>", "<pad>", *words]
        stoi = collections.defaultdict(int, {w: i for i, w in enumerate(itos)})
        self.vocab = _Vocab(itos, stoi, counts)

    def process(self, batch: list) -> torch.Tensor:
        length = self.fix_length or max(len(tokens) for tokens in batch)
        rows = [[self.vocab.stoi[t] for t in tokens[:length]] + [1] * (length - len(tokens)) for tokens in batch]
        out = torch.tensor(rows, dtype=self.dtype)
        return out if self.batch_first else out.t().contiguous()


class _Vocab:
    def __init__(self, itos, stoi, freqs):
        self.itos, self.stoi, self.freqs = itos, stoi, freqs

    def __len__(self) -> int:
        return len(self.itos)


class LabelField(Field):
    def __init__(self, sequential=False, dtype=torch.long, **kwargs):
        super().__init__(sequential=False, dtype=dtype)

    def preprocess(self, label: str) -> str:
        return label

    def build_vocab(self, *datasets, **kwargs) -> None:
        counts = collections.Counter(ex.label for d in datasets for ex in d.examples)
        itos = sorted(sorted(counts), key=lambda w: -counts[w])
        self.vocab = _Vocab(itos, {w: i for i, w in enumerate(itos)}, counts)

    def process(self, batch: list) -> torch.Tensor:
        return torch.tensor([self.vocab.stoi[label] for label in batch], dtype=self.dtype)


class Dataset:
    def __init__(self, examples: list, fields: dict):
        self.examples, self.fields = examples, fields

    def __len__(self) -> int:
        return len(self.examples)

    def __getitem__(self, i):
        return self.examples[i]

    def split(self, split_ratio=0.7, stratified=False, strata_field="label", random_state=None):
        examples = list(self.examples)
        random.shuffle(examples)
        cut = int(round(split_ratio * len(examples)))
        return Dataset(examples[:cut], self.fields), Dataset(examples[cut:], self.fields)


class IMDB:
    @staticmethod
    def download(root, check=None):
        return root

    @classmethod
    def splits(cls, text_field, label_field, root=".data", train="train", test="test", **kwargs):
        fields = {"text": text_field, "label": label_field}
        out = []
        for seed, count in ((21, 500), (22, 200)):
            examples = [types.SimpleNamespace(text=text_field.preprocess(review), label=LABELS[label])
                        for label, review in _reviews(seed, count)]
            out.append(Dataset(examples, fields))
        return tuple(out)


class BucketIterator:
    def __init__(self, dataset, batch_size, sort_key=None, train=True, repeat=False, **kwargs):
        self.dataset, self.batch_size, self.sort_key, self.train = dataset, batch_size, sort_key, train

    def __len__(self) -> int:
        return math.ceil(len(self.dataset) / self.batch_size)

    def __iter__(self):
        examples = list(self.dataset.examples)
        if self.train:
            random.shuffle(examples)
        elif self.sort_key is not None:
            examples.sort(key=self.sort_key)
        for start in range(0, len(examples), self.batch_size):
            yield Batch(examples[start:start + self.batch_size], self.dataset.fields)

    @classmethod
    def splits(cls, datasets, batch_size=1, sort_key=None, **kwargs):
        return tuple(cls(d, batch_size, sort_key, train=i == 0, **kwargs) for i, d in enumerate(datasets))


class Batch:
    def __init__(self, examples: list, fields: dict):
        self.batch_size = len(examples)
        self.fields = fields.keys()
        for name, field in fields.items():
            setattr(self, name, field.process([getattr(ex, name) for ex in examples]))


data = types.SimpleNamespace(Field=Field, LabelField=LabelField, BucketIterator=BucketIterator, Dataset=Dataset)
datasets = types.SimpleNamespace(IMDB=IMDB)
