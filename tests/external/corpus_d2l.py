"""Stand-ins for Dive into Deep Learning's downloads (our code, committed): a recipe's edit sets ``d2l.torchvision``
(or a notebook's own ``torchvision``) to ``fashion_torchvision()`` before ``d2l.FashionMNIST(...)``, so the book's
data module reads ``corpus_support``'s seeded Fashion-MNIST stand-in (300 training and 100 test 1x28x28 images).
"""

from __future__ import annotations

import types

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

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i):
        image, label = self.data[i]
        return (self.transform(image) if self.transform else image), label


def fake_mnist(*args, **kwargs) -> TransformedMNIST:
    return TransformedMNIST(*args, **kwargs)
