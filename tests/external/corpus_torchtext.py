"""A stand-in for the legacy ``torchtext`` API (``data.Field``, ``datasets.WikiText2.splits``, ``get_tokenizer``)
that the 2020 transformer tutorial uses, over a small generated text instead of the WikiText-2 download (our code).

The text is sentences drawn with ``random.Random(5)`` from a few word lists (about 3000 training tokens, 600 each
for validation and test), one sentence a line. ``Field`` lowercases and tokenizes each line, a line ending adds
``<eos>``; ``build_vocab`` orders words by frequency, then alphabetically, after the specials ``<unk>``, ``<pad>``
and the init and eos tokens, as legacy torchtext did; ``numericalize`` gives a ``(tokens, 1)`` int64 tensor.
"""

from __future__ import annotations

import collections
import random
import re
import types

import torch  # the runner's torch: core under the alias, or PyTorch

SUBJECTS = ["the cat", "a dog", "the old man", "my sister", "the teacher", "a bird", "the river", "our city"]
VERBS = ["sees", "likes", "follows", "finds", "remembers", "paints", "crosses", "hears"]
OBJECTS = ["the garden", "a small house", "the red car", "the music", "a long road", "the morning", "the sea"]
ENDS = [".", "!", ", again .", "( slowly ) .", "?"]


def _text(seed: int, tokens: int) -> list:
    rng, lines, count = random.Random(seed), [], 0
    while count < tokens:
        line = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(ENDS)}"
        lines.append(line.capitalize())
        count += len(line.split()) + 1
    return lines


def get_tokenizer(name: str):
    if name != "basic_english":
        raise ValueError(f"this stand-in only has the basic_english tokenizer, not {name!r}")
    return lambda line: re.sub(r"([.,!?()])", r" \1 ", line.lower()).split()


class Field:
    def __init__(self, tokenize=str.split, init_token=None, eos_token=None, lower=False, **kwargs):
        self.tokenize, self.init_token, self.eos_token, self.lower = tokenize, init_token, eos_token, lower
        self.vocab = None

    def preprocess(self, line: str) -> list:
        return self.tokenize(line.lower() if self.lower else line)

    def build_vocab(self, *datasets) -> None:
        counts = collections.Counter(t for d in datasets for ex in d.examples for t in ex.text)
        specials = [t for t in ("<unk>", "<pad>", self.init_token, self.eos_token) if t is not None]
        for t in specials:
            counts.pop(t, None)
        words = sorted(sorted(counts), key=lambda w: -counts[w])
        itos = specials + words
        stoi = collections.defaultdict(int, {w: i for i, w in enumerate(itos)})
        self.vocab = types.SimpleNamespace(itos=itos, stoi=stoi, freqs=counts)

    def numericalize(self, batch) -> torch.Tensor:
        rows = [[self.vocab.stoi[t] for t in example] for example in batch]
        return torch.tensor(rows, dtype=torch.long).t().contiguous()


class _Dataset:
    def __init__(self, lines: list, field: Field):
        text = []
        for line in lines:
            text += field.preprocess(line) + ["<eos>"]
        self.examples = [types.SimpleNamespace(text=text)]


class WikiText2:
    @staticmethod
    def splits(field: Field):
        return tuple(_Dataset(_text(seed, n), field) for seed, n in ((5, 3000), (6, 600), (7, 600)))


data = types.SimpleNamespace(Field=Field, utils=types.SimpleNamespace(get_tokenizer=get_tokenizer))
datasets = types.SimpleNamespace(WikiText2=WikiText2)
