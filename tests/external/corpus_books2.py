"""Stand-ins for the second batch of books' scripts (``recipes_books2.py``): what their helper modules import.

Daniel Voigt Godoy's "Deep Learning with PyTorch Step-by-Step" imports scikit-learn's ``LinearRegression`` and
metrics (the corpus's ``fake_sklearn`` has neither), ``torchviz`` and ``seaborn`` (a stub, as matplotlib is) from
its notebooks and its ``plots/`` modules, which the recipes keep unedited. A recipe's edit replaces the notebook's
``from config import *`` (it imports TensorBoard's manager and downloads files) with ``corpus_books2.install()``,
which registers these modules for the script before the notebook imports its plots. Everything here is NumPy, so
both runs compute the same numbers.

Chapters 4, 5 and 10 transform their generated images with ``torchvision.transforms.v2``: ``TransformsV2`` holds
the few transforms they use, computed with the run's torch as torchvision computes them, and ``PilImage`` is the
PIL image ``ToPILImage`` gives (a uint8 array; it prints as ``PIL.Image.Image``).
"""

from __future__ import annotations

import importlib
import os
import sys
import types

import numpy as np
from corpus_support import FakeTorchviz


class LinearRegression:
    """Ordinary least squares with an intercept (``fit``, ``predict``, ``intercept_``, ``coef_``), as NumPy's
    ``lstsq`` solves it: the book compares its gradient descent with it."""

    def fit(self, X, y):
        X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
        x_mean, y_mean = X.mean(axis=0), y.mean(axis=0)
        coef, *_ = np.linalg.lstsq(X - x_mean, y - y_mean, rcond=None)
        self.coef_ = coef.T
        self.intercept_ = y_mean - x_mean @ coef
        return self

    def predict(self, X):
        return np.asarray(X, dtype=np.float64) @ self.coef_.T + self.intercept_


def confusion_matrix(y_true, y_pred):
    """Rows are true classes, columns predicted ones, over the sorted labels of both (int64 counts)."""
    y_true, y_pred = np.asarray(y_true).ravel(), np.asarray(y_pred).ravel()
    labels = np.unique(np.concatenate([y_true, y_pred]))
    index = {label: i for i, label in enumerate(labels.tolist())}
    cm = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for t, p in zip(y_true.tolist(), y_pred.tolist()):
        cm[index[t], index[p]] += 1
    return cm


def _counts(y_true, y_score):
    """True and false positives at each distinct score, from the highest down (scikit-learn's ``_binary_clf_curve``)."""
    y_true, y_score = np.asarray(y_true).ravel() == 1, np.asarray(y_score, dtype=np.float64).ravel()
    order = np.argsort(y_score, kind="mergesort")[::-1]
    y_true, y_score = y_true[order], y_score[order]
    last = np.r_[np.where(np.diff(y_score))[0], y_true.size - 1]
    tps = np.cumsum(y_true)[last]
    return tps, 1 + last - tps, y_score[last]


def roc_curve(y_true, y_score):
    """False and true positive rates and thresholds, starting at (0, 0) with an infinite threshold (without
    scikit-learn's dropping of collinear points)."""
    tps, fps, thresholds = _counts(y_true, y_score)
    tps, fps, thresholds = np.r_[0, tps], np.r_[0, fps], np.r_[np.inf, thresholds]
    return fps / fps[-1], tps / tps[-1], thresholds


def precision_recall_curve(y_true, y_score):
    """Precision, recall and increasing thresholds, ending at precision 1 and recall 0."""
    tps, fps, thresholds = _counts(y_true, y_score)
    precision = tps / (tps + fps)
    recall = tps / tps[-1]
    stop = tps.searchsorted(tps[-1], side="left") + 1
    return np.r_[precision[:stop][::-1], 1], np.r_[recall[:stop][::-1], 0], thresholds[:stop][::-1]


def auc(x, y):
    """The area under a curve by the trapezoidal rule (x monotonic)."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))
    return -area if x[0] > x[-1] else area


def _torch():
    return importlib.import_module("torch")  # the run's torch: core under the alias, or PyTorch


class PilImage:
    """A grayscale or RGB PIL image: its pixels as a uint8 H x W (x C) array."""

    def __init__(self, pixels):
        self.pixels = pixels

    def __array__(self, dtype=None, copy=None):
        return self.pixels if dtype is None else self.pixels.astype(dtype)


PilImage.__module__, PilImage.__name__, PilImage.__qualname__ = "PIL.Image", "Image", "Image"


class TransformsV2:
    """``torchvision.transforms.v2``'s transforms on tensors, NumPy arrays and ``PilImage``s."""

    class ToImage:
        """An H x W (x C) array or image as a C x H x W tensor of its dtype; a tensor passes."""

        def __call__(self, pic):
            torch = _torch()
            if isinstance(pic, torch.Tensor):
                return pic
            array = np.asarray(pic)
            array = array[:, :, None] if array.ndim == 2 else array
            return torch.from_numpy(np.ascontiguousarray(array.transpose(2, 0, 1)))

    class ToDtype:
        """``image.to(dtype)``, times 1/255 when ``scale`` turns uint8 into floats."""

        def __init__(self, dtype, scale=False):
            self.dtype, self.scale = dtype, scale

        def __call__(self, image):
            torch = _torch()
            if self.scale and image.dtype == torch.uint8 and self.dtype.is_floating_point:
                return image.to(self.dtype).mul_(1.0 / 255)
            return image.to(self.dtype)

    class ToPILImage:
        """A float C x H x W tensor in [0, 1] as a uint8 image (``mul(255).byte()``)."""

        def __call__(self, pic):
            array = pic.mul(255).byte().numpy() if pic.is_floating_point() else pic.numpy()
            array = array.transpose(1, 2, 0)
            return PilImage(array[:, :, 0] if array.shape[2] == 1 else array)

    class RandomHorizontalFlip:
        """Flips with probability ``p``: it draws ``torch.rand(1)`` each call, even when ``p`` is 1."""

        def __init__(self, p=0.5):
            self.p = p

        def __call__(self, image):
            if _torch().rand(1) >= self.p:
                return image
            if isinstance(image, PilImage):
                return PilImage(np.ascontiguousarray(image.pixels[:, ::-1]))
            return image.flip(-1)

    class Normalize:
        """``(image - mean) / std`` per channel, with mean and std as tensors of the image's dtype."""

        def __init__(self, mean, std, inplace=False):
            self.mean, self.std, self.inplace = mean, std, inplace

        def __call__(self, image):
            torch = _torch()
            mean = torch.as_tensor(self.mean, dtype=image.dtype).view(-1, 1, 1)
            std = torch.as_tensor(self.std, dtype=image.dtype).view(-1, 1, 1)
            return (image.sub_(mean) if self.inplace else image.sub(mean)).div_(std)

    class Resize:
        """Only the size the stand-in images already have (``fake_rps``'s 28 x 28) passes."""

        def __init__(self, size, **kwargs):
            self.size = size

        def __call__(self, image):
            height, width = np.asarray(image).shape[:2] if not hasattr(image, "dim") else image.shape[-2:]
            if min(height, width) != self.size:
                raise NotImplementedError(f"corpus_books2's Resize: {height} x {width} images to {self.size}")
            return image

    class Pad:
        def __init__(self, *args, **kwargs):
            raise NotImplementedError("corpus_books2's transforms.v2 has no Pad")


class FakeRps:
    """``ImageFolder('rps')``/``ImageFolder('rps-test-set')``'s stand-in for Rock Paper Scissors: seeded 28 x 28 RGB
    uint8 images (60 for training, 24 for testing) of three classes, each a bright shape of its own on noise, given
    to ``transform`` as H x W x C arrays (the photos' PIL images, resized)."""

    classes = ["paper", "rock", "scissors"]

    def __init__(self, root, transform=None, **kwargs):
        test = "test" in str(root)
        n = 24 if test else 60
        rng = np.random.default_rng(7 if test else 6)
        self.targets = [i % 3 for i in range(n)]
        yy, xx = np.mgrid[:28, :28]
        shapes = [(abs(yy - 14) < 9) & (abs(xx - 14) < 9), (yy - 14) ** 2 + (xx - 14) ** 2 < 64, abs(yy - xx) < 3]
        noise = rng.integers(0, 96, size=(n, 28, 28, 3))
        self.images = [np.where(shapes[c][:, :, None], 255 - noise[i], noise[i]).astype(np.uint8)
                       for i, c in enumerate(self.targets)]
        self.transform = transform
        self.class_to_idx = {name: i for i, name in enumerate(self.classes)}

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, i):
        image = self.images[i]
        return (self.transform(image) if self.transform else image), self.targets[i]


def fake_rps(root, transform=None, **kwargs) -> FakeRps:
    return FakeRps(root, transform, **kwargs)


def _script_module(name: str, kind=types.ModuleType) -> types.ModuleType:
    """A module that the runner forgets after the script: its ``__file__`` is in the script's folder (the working
    directory while the script runs), as the runner drops the script's own modules."""
    module = kind(name)
    module.__file__ = os.path.join(os.getcwd(), f"{name}.py")
    sys.modules[name] = module
    return module


def install() -> None:
    """Registers the stand-ins for the running script; the recipes' edits call it where the notebook imported
    ``config``. They go when the script ends, but for the metrics added to ``fake_sklearn`` (which other scripts
    would only find missing)."""
    _script_module("sklearn.linear_model").LinearRegression = LinearRegression
    metrics = sys.modules["sklearn.metrics"]
    for f in (confusion_matrix, roc_curve, precision_recall_curve, auc):
        if not hasattr(metrics, f.__name__):
            setattr(metrics, f.__name__, f)
    _script_module("torchviz").make_dot = FakeTorchviz.make_dot
    _script_module("seaborn", type(sys.modules["matplotlib"]))  # the runner's stub, as matplotlib: plots draw nothing
    v2 = _script_module("torchvision.transforms.v2")
    for name in ("ToImage", "ToDtype", "ToPILImage", "RandomHorizontalFlip", "Normalize", "Pad", "Resize"):
        setattr(v2, name, getattr(TransformsV2, name))
    v2.Compose = sys.modules["torchvision.transforms"].Compose
    v2.ToTensor = sys.modules["torchvision.transforms"].ToTensor  # (imported by chapter 4, which defines its own)
