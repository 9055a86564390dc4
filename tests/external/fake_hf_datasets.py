"""Hugging Face ``datasets``' stand-in for the corpus (not installed; it downloads): ``load_dataset("fashion_mnist")``
and ``load_dataset_builder`` as fast.ai's course22p2 notebooks call them. The runner installs it as ``datasets``.

A ``Dataset`` holds columns: ``ds[i]`` is a row dict, ``ds[a:b]`` a dict of lists, ``ds["label"]`` a column list, and
``with_transform(f)`` formats what is read through ``f`` (a batch dict of lists; a single row is read as a batch of
one), as ``datasets`` does. Images are ``FakeImage``: seeded 28x28 uint8 arrays (``np.array(img)`` reads them; the
runner's ``torchvision.transforms.functional.to_tensor`` turns them into 1x28x28 floats); each class lights its own set
of pixels plus noise, so a model learns something and training converges instead of amplifying rounding.
"""

from __future__ import annotations

import types

import numpy as np

FASHION_NAMES = ["T - shirt / top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
                 "Ankle boot"]  # the hub dataset's label names
SIZES = {"train": 300, "test": 100}


class FakeImage:
    """A grayscale image as PIL would give it: ``size``, ``mode`` and its pixels through ``__array__``."""

    mode = "L"

    def __init__(self, pixels):
        self.pixels = pixels
        self.size = pixels.shape[::-1]

    def __array__(self, dtype=None, copy=None):
        return self.pixels if dtype is None else self.pixels.astype(dtype)

    def __repr__(self) -> str:
        return f"<PIL.PngImagePlugin.PngImageFile image mode=L size={self.size[0]}x{self.size[1]}>"


class ClassLabel:
    def __init__(self, names):
        self.names, self.num_classes = list(names), len(names)

    def int2str(self, values):
        return [self.names[int(v)] for v in values] if isinstance(values, (list, tuple)) else self.names[int(values)]

    def __repr__(self) -> str:
        return f"ClassLabel(names={self.names!r}, id=None)"


class Image:
    def __repr__(self) -> str:
        return "Image(decode=True, id=None)"


class Dataset:
    def __init__(self, columns: dict, features: dict, transform=None):
        self.columns, self.features, self.transform = columns, features, transform

    def __len__(self) -> int:
        return len(next(iter(self.columns.values())))

    def _batch(self, rows):
        batch = {k: [v[i] for i in rows] for k, v in self.columns.items()}
        return self.transform(batch) if self.transform else batch

    def __getitem__(self, key):
        if isinstance(key, str):
            return list(self.columns[key])
        if isinstance(key, slice):
            return self._batch(range(*key.indices(len(self))))
        if isinstance(key, (list, tuple)):
            return self._batch([int(k) for k in key])
        return {k: v[0] for k, v in self._batch([int(key)]).items()}

    def with_transform(self, transform):
        return Dataset(self.columns, self.features, transform)

    def select(self, indices):
        columns = {k: [v[int(i)] for i in indices] for k, v in self.columns.items()}
        return Dataset(columns, self.features, self.transform)

    def __repr__(self) -> str:
        return f"Dataset({{\n    features: {list(self.features)!r},\n    num_rows: {len(self)}\n}})"


class DatasetDict(dict):
    def with_transform(self, transform):
        return DatasetDict({k: v.with_transform(transform) for k, v in self.items()})

    def __repr__(self) -> str:
        return "DatasetDict({\n" + ",\n".join(f"    {k}: {v!r}" for k, v in self.items()) + "\n})"


def _features():
    return {"image": Image(), "label": ClassLabel(FASHION_NAMES)}


def _split(name: str, seed: int) -> Dataset:
    templates = np.random.default_rng(5).random((10, 28, 28)) < 0.25
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, size=SIZES[name])
    ink = templates[labels] * rng.integers(96, 256, size=(len(labels), 28, 28))
    noise = (rng.random(ink.shape) < 0.05) * rng.integers(0, 256, size=ink.shape)
    pixels = np.maximum(ink, noise).astype(np.uint8)
    return Dataset({"image": [FakeImage(p) for p in pixels], "label": [int(v) for v in labels]}, _features())


def load_dataset(path, *args, **kwargs) -> DatasetDict:
    return DatasetDict({"train": _split("train", 6), "test": _split("test", 7)})


def load_dataset_builder(path, *args, **kwargs):
    splits = {k: f"SplitInfo(name='{k}', num_examples={n})" for k, n in SIZES.items()}
    info = types.SimpleNamespace(description="Fashion-MNIST (a seeded stand-in)", features=_features(), splits=splits)
    return types.SimpleNamespace(info=info)
