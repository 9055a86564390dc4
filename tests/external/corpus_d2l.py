"""Stand-ins for Dive into Deep Learning's downloads and clocks (our code, committed): a recipe's edit sets
``d2l.torchvision`` to ``fashion_torchvision()`` before ``d2l.FashionMNIST(...)``, so the book's data module reads
``corpus_support``'s seeded Fashion-MNIST stand-in (300 training and 100 test 1x28x28 images); ``fake_mnist`` (with
``Compose``) applies a notebook's own transform; ``download`` writes the airfoil table and ``FixedTimer`` replaces
``d2l.Timer``, whose wall-clock times the book's training loops print.
"""

from __future__ import annotations

import os
import types

import numpy as np
from corpus_support import fake_fashion_mnist


def fashion_torchvision():
    """A ``torchvision`` whose ``datasets.FashionMNIST`` is the stand-in (its ``transform`` is not applied: the
    images are already what ``Resize((28, 28))`` and ``ToTensor()`` give)."""
    return types.SimpleNamespace(datasets=types.SimpleNamespace(FashionMNIST=fake_fashion_mnist))


class Compose:
    """``torchvision.transforms.Compose`` for the functions a recipe keeps (the stand-ins' images are already
    ``ToTensor()``'s output, so a recipe drops ``ToTensor`` from the list)."""

    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


class TransformedMNIST:
    """``corpus_support``'s MNIST stand-in with its ``transform`` applied to each image, as torchvision's does."""

    def __init__(self, root=None, train=True, transform=None, download=False):
        from corpus_support import fake_mnist

        self.data, self.transform = fake_mnist(root, train=train), transform
        self.targets = self.train_labels = self.test_labels = self.data.targets  # (DTU's course samples from them)

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i):
        image, label = self.data[i]
        return (self.transform(image) if self.transform else image), label


def fake_mnist(*args, **kwargs) -> TransformedMNIST:
    return TransformedMNIST(*args, **kwargs)


def download(name, folder="../data", sha1_hash=None):
    """``d2l.download``'s stand-in (a recipe's edit binds it): the airfoil self-noise table (``airfoil``: 303 rows,
    the real one's 1503 take seconds in the book's loops, of five features and a sound level, tab-separated) as a
    seeded file in the script's folder; its path."""
    if name != "airfoil":
        raise FileNotFoundError(f"corpus_d2l has no stand-in for {name!r}")
    rng = np.random.default_rng(0)
    features = rng.normal(size=(303, 5)) * [3000.0, 6.0, 0.09, 15.0, 0.01] + [2900.0, 6.8, 0.14, 50.0, 0.011]
    level = 125.0 + features @ [-0.0013, -0.4, -36.0, 0.1, -150.0] + rng.normal(scale=3.0, size=303)
    path = "airfoil_self_noise.dat"
    np.savetxt(path, np.column_stack([features, level]), fmt="%.6g", delimiter="\t")
    return path


class FixedTimer:
    """``d2l.Timer``'s stand-in: every interval takes 0.001 s (wall-clock times differ from run to run, and the
    book's training loops print them)."""

    def __init__(self):
        self.times = []
        self.start()

    def start(self):
        pass

    def stop(self) -> float:
        self.times.append(0.001)
        return self.times[-1]

    def avg(self) -> float:
        return sum(self.times) / len(self.times)

    def sum(self) -> float:
        return sum(self.times)

    def cumsum(self):
        return np.array(self.times).cumsum().tolist()


def fra_eng() -> str:
    """``MTFraEng._download``'s stand-in: ``corpus_text``'s English-French pairs, tab-separated, repeated to 650 lines
    (the book's data module takes 512 training and 128 validation pairs)."""
    from corpus_text import ENG_FRA

    lines = ENG_FRA.replace("|", "\t").strip("\n").split("\n")
    return "\n".join((lines * (650 // len(lines) + 1))[:650]) + "\n"


def download_extract(name, folder=None):
    """``d2l.download_extract``'s stand-in (a recipe's edit binds it); the folder it made:

    - ``ptb``: ``ptb.train.txt``, the first 2000 non-empty lines of tiny Shakespeare (the recipe's ``input.txt``),
      lowercased;
    - ``aclImdb``: ``{train,test}/{pos,neg}/<i>.txt``, ``corpus_imdb``'s 500 training and 200 test reviews;
    - ``glove.6b.100d``: ``vec.txt``, a seeded 100-d vector for each of ``corpus_imdb``'s words.
    """
    makers = {"ptb": _ptb, "aclImdb": _imdb, "glove.6b.100d": _glove}
    if name not in makers:
        raise FileNotFoundError(f"corpus_d2l has no stand-in for {name!r}")
    makers[name](name)
    return name


def _ptb(folder):
    with open("input.txt", encoding="utf-8") as f:
        lines = [line.lower() for line in f.read().split("\n") if line.strip()][:2000]
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "ptb.train.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def _imdb(folder):
    from corpus_imdb import IMDB

    for split in ("train", "test"):
        for i, (label, review) in enumerate(IMDB(split=split)):
            sub = os.path.join(folder, split, "pos" if label == 2 else "neg")
            os.makedirs(sub, exist_ok=True)
            with open(os.path.join(sub, f"{i}.txt"), "w", encoding="utf-8") as f:
                f.write(review)


def _glove(folder):
    from corpus_imdb import NEGATIVE, NEUTRAL, POSITIVE

    rng = np.random.default_rng(3)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "vec.txt"), "w", encoding="utf-8") as f:
        for word in dict.fromkeys(NEUTRAL + POSITIVE + NEGATIVE):
            f.write(word + " " + " ".join(f"{v:.5f}" for v in rng.normal(scale=0.4, size=100)) + "\n")
