"""Stand-ins for the small repositories' recipes (``recipes_repos.py``) where corpus_support's have the wrong shape.

``fake_mnist_64`` is what ``datasets.MNIST(transform=Compose([Resize(64), ToTensor(), ...]))`` hands a DCGAN: 1x64x64
images (seeded noise, as ``corpus_support.fake_mnist``), 64 training and 16 test images.
"""

from __future__ import annotations

from corpus_support import FakeMNIST


class FakeMNIST64(FakeMNIST):
    shape = (64, 64)


def fake_mnist_64(*args, train=True, **kwargs) -> FakeMNIST64:
    return FakeMNIST64(*args, train=train, size=64 if train else 16, **kwargs)
