"""Stand-ins for the ``torchtext`` APIs that the transformer and text-classification tutorials use, over small
generated texts instead of the WikiText-2 and AG_NEWS downloads (our code).

Legacy API (the 2020 transformer tutorial): sentences drawn with ``random.Random(5)`` from a few word lists (about
3000 training tokens, 600 each for validation and test), one sentence a line. ``Field`` lowercases and tokenizes
each line, a line ending adds ``<eos>``; ``build_vocab`` orders words by frequency, then alphabetically, after the
specials ``<unk>``, ``<pad>`` and the init and eos tokens, as legacy torchtext did; ``numericalize`` gives a
``(tokens, 1)`` int64 tensor.

Newer API (the text-classification tutorial): ``AG_NEWS(split=...)`` gives (label, text) pairs, labels 1-4, each
text one or two words of its topic, one word of a random topic and shared words (400 for training, 100 for test);
``build_vocab_from_iterator`` orders tokens the same way after its specials and returns a callable vocabulary
with ``set_default_index``; ``to_map_style_dataset`` makes a list-backed dataset.
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


TOPICS = {1: "world war election minister capital border treaty", 2: "game team season coach player score match",
          3: "market stocks company profit bank shares prices", 4: "software space research computer internet study"}
SHARED = "the a of in on says new after report today week".split()


def _news(seed: int, count: int) -> list:
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        label = rng.randint(1, 4)
        other = TOPICS[rng.randint(1, 4)].split()  # a word of a random topic, often another one
        words = [rng.choice(TOPICS[label].split()) for _ in range(rng.randint(1, 2))] + [rng.choice(other)]
        words += [rng.choice(SHARED) for _ in range(rng.randint(3, 8))]
        rng.shuffle(words)
        rows.append((label, " ".join(words).capitalize() + "."))
    return rows


def AG_NEWS(root=".data", split=("train", "test")):  # torchtext's name
    sets = {"train": _news(11, 400), "test": _news(12, 100)}
    return sets[split] if isinstance(split, str) else tuple(sets[s] for s in split)


class Vocab:
    def __init__(self, itos: list):
        self.itos, self.stoi, self.default = itos, {w: i for i, w in enumerate(itos)}, None

    def set_default_index(self, index: int) -> None:
        self.default = index

    def __getitem__(self, token: str) -> int:
        return self.stoi.get(token, self.default)

    def __call__(self, tokens) -> list:
        return [self[t] for t in tokens]

    def __len__(self) -> int:
        return len(self.itos)


def build_vocab_from_iterator(iterator, min_freq: int = 1, specials=None, special_first: bool = True) -> Vocab:
    counts = collections.Counter()
    for tokens in iterator:
        counts.update(tokens)
    specials = list(specials or [])
    words = [w for w in sorted(sorted(counts), key=lambda w: -counts[w]) if counts[w] >= min_freq and w not in specials]
    return Vocab(specials + words if special_first else words + specials)


def to_map_style_dataset(iterable) -> list:
    return list(iterable)


data = types.SimpleNamespace(Field=Field, utils=types.SimpleNamespace(get_tokenizer=get_tokenizer))
datasets = types.SimpleNamespace(WikiText2=WikiText2, AG_NEWS=AG_NEWS)
