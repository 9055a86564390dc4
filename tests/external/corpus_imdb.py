"""Stand-ins for torchtext's ``IMDB`` reviews and its ``vocab`` factory (our code), for Raschka's ML book's sentiment
RNN (chapter 15).

``IMDB(split='train'|'test')`` gives ``(label, review)`` pairs as torchtext 0.11+ does (label 1 negative, 2
positive): 500 training and 200 test reviews of 8 to 40 words drawn with ``random.Random`` from neutral words and a
few words of their sentiment (and some of the other), with the ``<br />`` tags and emoticons real reviews have.
``vocab(ordered_dict)`` numbers tokens in the dict's order and offers ``insert_token``, ``set_default_index``,
``[token]`` and ``len``.
"""

from __future__ import annotations

import random

NEUTRAL = ("the movie film story plot actor actress scene was is it this that and a of to in with but very really "
           "just one two its at on about his her their director music ending").split()
POSITIVE = "great wonderful loved best excellent beautiful funny brilliant enjoyed perfect".split()
NEGATIVE = "bad boring worst awful terrible waste poor dull hated stupid".split()
EXTRAS = ["<br />", ":)", ":-(", ";)", "=D"]


def _reviews(seed: int, count: int) -> list:
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        label = rng.randint(1, 2)
        mood, other = (POSITIVE, NEGATIVE) if label == 2 else (NEGATIVE, POSITIVE)
        words = [rng.choice(NEUTRAL) for _ in range(rng.randint(6, 30))]
        words += [rng.choice(mood) for _ in range(rng.randint(1, 6))] + [rng.choice(other)] * rng.randint(0, 2)
        words += [rng.choice(EXTRAS)] * rng.randint(0, 2)
        rng.shuffle(words)
        rows.append((label, " ".join(words).capitalize() + "."))
    return rows


def IMDB(root=".data", split=("train", "test")):  # torchtext's name
    sets = {"train": _reviews(21, 500), "test": _reviews(22, 200)}
    return sets[split] if isinstance(split, str) else tuple(sets[s] for s in split)


class Vocab:
    def __init__(self, tokens: list):
        self.itos = list(tokens)
        self.stoi = {t: i for i, t in enumerate(self.itos)}
        self.default = None

    def insert_token(self, token: str, index: int) -> None:
        self.itos.insert(index, token)
        self.stoi = {t: i for i, t in enumerate(self.itos)}

    def set_default_index(self, index: int) -> None:
        self.default = index

    def __getitem__(self, token: str) -> int:
        if token not in self.stoi and self.default is None:
            raise RuntimeError(f"Token {token} not found and default index is not set")
        return self.stoi.get(token, self.default)

    def __len__(self) -> int:
        return len(self.itos)


def vocab(ordered_dict, min_freq: int = 1) -> Vocab:  # torchtext.vocab.vocab
    return Vocab([t for t, n in ordered_dict.items() if n >= min_freq])
