"""``core.datasets``: the playground's data, generated locally and reproducible by seed (nothing is downloaded).

Each generator returns a ``GeneratedDataset`` (a ``TensorDataset`` of features and targets) that
knows its task and number of classes, so the app can pick a loss and a plot. Classification sets
are 2-D points with int64 labels; regression sets have float targets of shape ``(n, 1)``;
``shapes`` is a small set of 1x28x28 images of bars, squares, crosses and rings.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from core._factories import from_numpy
from core.utils.data.dataset import Subset, TensorDataset

__all__ = ["GeneratedDataset", "circles", "xor", "gaussians", "spiral", "moons", "linear", "sine", "plane",
           "shapes", "SHAPE_CLASSES", "GENERATORS"]

SHAPE_CLASSES = ("horizontal bar", "vertical bar", "square", "cross", "ring")


class GeneratedDataset(TensorDataset):
    """Features ``X`` and targets ``y`` with the task they pose and, for classification, the class count."""

    _rows_are_tensors = True

    def __init__(self, X, y, task: str, num_classes: int = 0, name: str = ""):  # the usual name
        super().__init__(X, y)
        self.task, self.num_classes, self.name = task, num_classes, name

    @property
    def X(self):
        return self.tensors[0]

    @property
    def y(self):
        return self.tensors[1]

    def split(self, val_fraction: float = 0.2, seed: int = 0):
        """Train and validation subsets, disjoint, the same for the same seed."""
        if not 0.0 < val_fraction < 1.0:
            raise ValueError(f"val_fraction must be between 0 and 1, got {val_fraction}")
        n = len(self)
        order = np.random.default_rng(seed).permutation(n)
        n_val = max(1, int(round(n * val_fraction)))
        return Subset(self, order[n_val:].tolist()), Subset(self, order[:n_val].tolist())


def _check(n_samples, noise):
    if not isinstance(n_samples, int) or n_samples < 2:
        raise ValueError(f"n_samples must be an integer >= 2, got {n_samples!r}")
    if noise < 0:
        raise ValueError(f"noise must be >= 0, got {noise}")


def _classification(points, labels, num_classes, name, dtype):
    X = from_numpy(np.ascontiguousarray(points, dtype=np.float32 if dtype is None else np.dtype(dtype.np)))
    return GeneratedDataset(X, from_numpy(labels.astype(np.int64)), "classification", num_classes, name)


def _regression(x, y, name, dtype):
    npd = np.float32 if dtype is None else np.dtype(dtype.np)
    X = from_numpy(np.ascontiguousarray(x, dtype=npd))
    return GeneratedDataset(X, from_numpy(np.ascontiguousarray(y.reshape(-1, 1), dtype=npd)), "regression", 0, name)


def circles(n_samples=200, noise=0.05, factor=0.5, seed=0, dtype=None):
    """Two concentric circles: class 0 outside, class 1 inside (radius ``factor``)."""
    _check(n_samples, noise)
    rng = np.random.default_rng(seed)
    labels = np.arange(n_samples) % 2
    angle = rng.uniform(0, 2 * math.pi, n_samples)
    radius = np.where(labels == 1, factor, 1.0)
    pts = np.stack([radius * np.cos(angle), radius * np.sin(angle)], 1) + rng.normal(0, noise, (n_samples, 2))
    return _classification(pts, labels, 2, "circles", dtype)


def xor(n_samples=200, noise=0.05, seed=0, dtype=None):
    """Points in [-1, 1]^2, class 1 where x*y > 0 (the XOR pattern), balanced between classes."""
    _check(n_samples, noise)
    rng = np.random.default_rng(seed)
    labels = np.arange(n_samples) % 2
    first = rng.choice([-1.0, 1.0], n_samples)
    signs = np.stack([first, np.where(labels == 1, first, -first)], 1)
    pts = signs * rng.uniform(0.05, 1.0, (n_samples, 2))
    return _classification(pts + rng.normal(0, noise, pts.shape), labels, 2, "xor", dtype)


def gaussians(n_samples=200, noise=0.3, n_classes=2, seed=0, dtype=None):
    """``n_classes`` Gaussian blobs with centres on a circle of radius 1.5."""
    _check(n_samples, noise)
    rng = np.random.default_rng(seed)
    labels = np.arange(n_samples) % n_classes
    centres = np.stack([np.cos(2 * math.pi * np.arange(n_classes) / n_classes),
                        np.sin(2 * math.pi * np.arange(n_classes) / n_classes)], 1) * 1.5
    pts = centres[labels] + rng.normal(0, max(noise, 1e-6), (n_samples, 2))
    return _classification(pts, labels, n_classes, "gaussians", dtype)


def spiral(n_samples=200, noise=0.05, n_classes=2, turns=1.0, seed=0, dtype=None):
    """Interleaved spiral arms, one per class (hard for a linear model, easy for a small MLP)."""
    _check(n_samples, noise)
    rng = np.random.default_rng(seed)
    labels = np.arange(n_samples) % n_classes
    t = np.sqrt(rng.uniform(0.02, 1, n_samples))
    angle = t * turns * 2 * math.pi + labels * 2 * math.pi / n_classes
    pts = np.stack([t * np.cos(angle), t * np.sin(angle)], 1) + rng.normal(0, noise, (n_samples, 2))
    return _classification(pts, labels, n_classes, "spiral", dtype)


def moons(n_samples=200, noise=0.05, seed=0, dtype=None):
    """Two interleaving half circles."""
    _check(n_samples, noise)
    rng = np.random.default_rng(seed)
    labels = np.arange(n_samples) % 2
    angle = rng.uniform(0, math.pi, n_samples)
    pts = np.where(labels[:, None] == 0,
                   np.stack([np.cos(angle), np.sin(angle)], 1),
                   np.stack([1 - np.cos(angle), 0.5 - np.sin(angle)], 1))
    return _classification(pts + rng.normal(0, noise, pts.shape), labels, 2, "moons", dtype)


def linear(n_samples=100, noise=0.1, slope=2.0, intercept=-1.0, seed=0, dtype=None):
    """y = slope * x + intercept + noise, x in [-1, 1]; X has shape (n, 1)."""
    _check(n_samples, noise)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (n_samples, 1))
    return _regression(x, slope * x[:, 0] + intercept + rng.normal(0, noise, n_samples), "linear", dtype)


def sine(n_samples=100, noise=0.1, frequency=1.0, seed=0, dtype=None):
    """y = sin(2 pi f x) + noise, x in [-1, 1]; X has shape (n, 1)."""
    _check(n_samples, noise)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (n_samples, 1))
    return _regression(x, np.sin(2 * math.pi * frequency * x[:, 0]) + rng.normal(0, noise, n_samples), "sine",
                       dtype)


def plane(n_samples=100, noise=0.1, weights=(1.5, -0.5), bias=0.1, seed=0, dtype=None):
    """y = w . x + b + noise over 2-D inputs (the chapter's numbers by default)."""
    _check(n_samples, noise)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (n_samples, len(weights)))
    return _regression(x, x @ np.asarray(weights) + bias + rng.normal(0, noise, n_samples), "plane", dtype)


def _draw_shape(img, kind, rng):
    size = img.shape[0]
    c = rng.integers(9, size - 9, 2)
    half = int(rng.integers(5, 9))
    thick = int(rng.integers(2, 4))
    r0, r1, c0, c1 = c[0] - half, c[0] + half, c[1] - half, c[1] + half
    if kind == 0:
        img[c[0] - thick // 2:c[0] - thick // 2 + thick, c0:c1] = 1
    elif kind == 1:
        img[r0:r1, c[1] - thick // 2:c[1] - thick // 2 + thick] = 1
    elif kind == 2:
        img[r0:r1, c0:c1] = 1
    elif kind == 3:
        img[c[0] - thick // 2:c[0] - thick // 2 + thick, c0:c1] = 1
        img[r0:r1, c[1] - thick // 2:c[1] - thick // 2 + thick] = 1
    else:
        yy, xx = np.mgrid[:size, :size]
        d = np.hypot(yy - c[0], xx - c[1])
        img[(d <= half) & (d >= half - thick)] = 1


def shapes(n_samples=1000, noise=0.1, seed=0, size=28, dtype=None):
    """``(n, 1, size, size)`` images of five shape classes (``SHAPE_CLASSES``), randomly placed and sized."""
    _check(n_samples, noise)
    if size < 20:
        raise ValueError(f"size must be at least 20 pixels, got {size}")
    rng = np.random.default_rng(seed)
    labels = np.arange(n_samples) % len(SHAPE_CLASSES)
    images = np.zeros((n_samples, 1, size, size))
    for img, kind in zip(images, labels):
        _draw_shape(img[0], kind, rng)
    images += rng.normal(0, noise, images.shape)
    npd = np.float32 if dtype is None else np.dtype(dtype.np)
    X = from_numpy(np.ascontiguousarray(images, dtype=npd))
    return GeneratedDataset(X, from_numpy(labels.astype(np.int64)), "classification", len(SHAPE_CLASSES), "shapes")


GENERATORS: dict[str, Callable[..., GeneratedDataset]] = {
    "circles": circles, "xor": xor, "gaussians": gaussians, "spiral": spiral, "moons": moons,
    "linear": linear, "sine": sine, "plane": plane, "shapes": shapes}
