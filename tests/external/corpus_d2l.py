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
