"""Stand-ins for ``recipes_teach.py`` (our code, committed): the data files the teaching notebooks load.

Xavier Bresson's CE7454 labs (xbresson/CE7454_2019) read MNIST, Fashion-MNIST and CIFAR-10 from ``.pt`` files that
their ``utils.check_*_dataset_exists()`` writes after a torchvision download: ``train_data.pt`` (float images in
[0, 1], MNIST's ``60000x28x28``, CIFAR's ``50000x3x32x32``), ``train_label.pt`` (int64), ``test_data.pt`` and
``test_label.pt``. ``ce7454_data(name)`` writes such files, 600 training and 200 test images, from seeded NumPy
draws (pixels ``k/255`` as ToTensor gives them) with the runner's torch (core under the alias, or PyTorch) under
``./data/`` of the script's folder, and returns the ``data_path`` the notebooks add ``'mnist/train_data.pt'`` to.
The recipes put these sizes where the notebooks write theirs (``60000``, ``50000``, ``10000``): every batch size the
labs use (20, 50, 128, 200) then splits them as it splits the real ones.

``ce7454_utils()`` imports a lab's ``utils.py``, which imports seaborn for its plots only (seaborn is not installed):
under a plot stub that is gone again afterwards, so later scripts in the runner still find no seaborn.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import torch  # the runner's torch: core under the alias, or PyTorch

SIZES = {"mnist": ((600, 200), (28, 28)), "fashion-mnist": ((600, 200), (28, 28)),
         "cifar": ((600, 200), (3, 32, 32))}


def ce7454_data(name: str, root: str = "data") -> str:
    """Seeded stand-ins for ``<root>/<name>/{train,test}_{data,label}.pt``; returns ``'<root>/'``."""
    (n_train, n_test), shape = SIZES[name]
    folder = os.path.join(root, name)
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(7454)
    for split, n in (("train", n_train), ("test", n_test)):
        images = rng.integers(0, 256, size=(n, *shape)).astype(np.float32) / np.float32(255)
        labels = rng.integers(0, 10, size=n).astype(np.int64)
        torch.save(torch.from_numpy(images), os.path.join(folder, f"{split}_data.pt"))
        torch.save(torch.from_numpy(labels), os.path.join(folder, f"{split}_label.pt"))
    return root + "/"


def ce7454_utils():
    """The script folder's ``utils`` module, imported with ``seaborn`` as the runner's plot stub for that import."""
    stub = type(sys.modules["matplotlib"])("seaborn")  # the runner's stub module type (plots draw nothing)
    sys.modules["seaborn"] = stub
    try:
        return __import__("utils")
    finally:
        del sys.modules["seaborn"]
