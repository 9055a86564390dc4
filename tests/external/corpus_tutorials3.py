"""Stand-ins for helper M's pytorch/tutorials pages (our code): ``to_pil_image`` and ``pil_to_tensor`` for the
Python custom-ops tutorial, whose ``crop`` and ``paste`` call PIL through torchvision.

An image is a NumPy HxWxC uint8 array with PIL's ``crop(box)`` and ``paste(im, (x, y))``; the conversions are
torchvision's (``pic.mul(255).byte()``, channels last and back), done in NumPy so that both runs round alike.
"""

from __future__ import annotations

import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch


class _Image:
    """The part of ``PIL.Image.Image`` the tutorial uses."""

    def __init__(self, pixels: np.ndarray):
        self.pixels = pixels

    def crop(self, box):
        x0, y0, x1, y1 = box
        return _Image(self.pixels[y0:y1, x0:x1].copy())

    def paste(self, im, box):
        x, y = box[0], box[1]
        h = min(im.pixels.shape[0], self.pixels.shape[0] - y)
        w = min(im.pixels.shape[1], self.pixels.shape[1] - x)
        self.pixels[y:y + h, x:x + w] = im.pixels[:h, :w]


def to_pil_image(pic):
    """A CxHxW float tensor in [0, 1] as an 8-bit image (torchvision's ``mul(255).byte()``)."""
    scaled = pic.detach().cpu().numpy() * np.array(255, dtype=pic.detach().cpu().numpy().dtype)
    return _Image(np.ascontiguousarray(scaled.astype(np.uint8).transpose(1, 2, 0)))


def pil_to_tensor(img):
    """The image as a CxHxW uint8 tensor."""
    return torch.as_tensor(np.ascontiguousarray(img.pixels.transpose(2, 0, 1)))
