"""An image-folder stand-in that the recipes' edits put where a tutorial reads a folder of photos (our code).

``fake_image_folder(root, transform=None, ...)`` takes ``torchvision.datasets.ImageFolder``'s arguments and
returns 48 seeded noise images of 3x64x64 (``size=`` sets another side), what the DCGAN tutorial's
Resize/CenterCrop/ToTensor/Normalize give: float32 in [-1, 1], with class 0, the one sub-folder a CelebA download
has. The transform is not applied
(torchvision is a stub in both runs).
"""

from __future__ import annotations

import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch

SIZE, COUNT = 64, 48


class FakeImageFolder:
    def __init__(self, root=None, transform=None, target_transform=None, size=SIZE, **kwargs):
        rng = np.random.default_rng(3)
        images = rng.uniform(-1.0, 1.0, size=(COUNT, 3, size, size)).astype(np.float32)
        self.images = torch.from_numpy(images)
        self.classes, self.targets = ["img_align_celeba"], [0] * COUNT

    def __len__(self) -> int:
        return COUNT

    def __getitem__(self, i):
        return self.images[i], self.targets[i]


def fake_image_folder(*args, **kwargs) -> FakeImageFolder:
    return FakeImageFolder(*args, **kwargs)


class FakeCelebA:
    """``torchvision.datasets.CelebA``'s stand-in (target_type 'attr'): seeded 3x64x64 float32 images in [0, 1] (what
    the ML book's crop, resize and ToTensor give) and 40 int64 0/1 attributes each (smiling, index 31, on about half);
    64 training, 32 validation and 32 test faces. ``target_transform`` is applied, ``transform`` is not."""

    SIZES = {"train": 64, "valid": 32, "test": 32}

    def __init__(self, root=None, split="train", target_type="attr", transform=None, target_transform=None,
                 download=False):
        n = self.SIZES[split]
        rng = np.random.default_rng(len(split))
        self.images = torch.from_numpy(rng.random((n, 3, SIZE, SIZE), dtype=np.float32))
        self.attr = torch.from_numpy(rng.integers(0, 2, size=(n, 40)).astype(np.int64))
        self.target_transform = target_transform

    def __len__(self) -> int:
        return self.images.shape[0]

    def __getitem__(self, i):
        attr = self.attr[i]
        return self.images[i], (self.target_transform(attr) if self.target_transform else attr)


def fake_celeba(*args, **kwargs) -> FakeCelebA:
    return FakeCelebA(*args, **kwargs)


def fake_lena():
    """The pytorch-book's ``imgs/lena.png`` after ``ToTensor()``: a seeded 1x200x200 float32 grey image in [0, 1]
    (multiples of 1/255, as ToTensor gives), smooth gradients plus noise so that filters and pools have something
    to act on."""
    rng = np.random.default_rng(5)
    y, x = np.mgrid[0:200, 0:200]
    pixels = 128 + 60 * np.sin(x / 17.0) * np.cos(y / 23.0) + rng.normal(0, 20, size=(200, 200))
    return torch.from_numpy((np.clip(np.round(pixels), 0, 255) / 255).astype(np.float32)[None])
