"""An image-folder stand-in that the recipes' edits put where a tutorial reads a folder of photos (our code).

``fake_image_folder(root, transform=None, ...)`` takes ``torchvision.datasets.ImageFolder``'s arguments and
returns 48 seeded noise images of 3x64x64 (what the DCGAN tutorial's Resize/CenterCrop/ToTensor/Normalize
give: float32 in [-1, 1]) with class 0, the one sub-folder a CelebA download has. The transform is not applied
(torchvision is a stub in both runs).
"""

from __future__ import annotations

import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch

SIZE, COUNT = 64, 48


class FakeImageFolder:
    def __init__(self, root=None, transform=None, target_transform=None, **kwargs):
        rng = np.random.default_rng(3)
        images = rng.uniform(-1.0, 1.0, size=(COUNT, 3, SIZE, SIZE)).astype(np.float32)
        self.images = torch.from_numpy(images)
        self.classes, self.targets = ["img_align_celeba"], [0] * COUNT

    def __len__(self) -> int:
        return COUNT

    def __getitem__(self, i):
        return self.images[i], self.targets[i]


def fake_image_folder(*args, **kwargs) -> FakeImageFolder:
    return FakeImageFolder(*args, **kwargs)
