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


PTB_SENTENCES = ("some analysts expect oil prices to remain relatively over the next days and weeks they say investors "
                 "should look for stocks to prices averaging roughly $ N a barrel higher in the third i think my line "
                 "has been very consistent mrs. hills said at a news this appears particularly true at gm which had "
                 "strong sales in he was very")


def ce7454_ptb_utils():
    """Lecture 10's ``utils``, whose import builds ``../../data/ptb/*.pt`` from the raw Penn Treebank text: seeded
    stand-in text (the labs' example sentences' words and 200 more, 5000/800/1500 tokens for train/valid/test) under
    ``./data/ptb/data_raw/``, imported from two folders down so that its ``../../data/`` is ``./data/``."""
    words = sorted(set(PTB_SENTENCES.split())) + [f"w{i}" for i in range(200)]
    rng = np.random.default_rng(1054)
    raw = os.path.join("data", "ptb", "data_raw")
    os.makedirs(raw, exist_ok=True)
    for name in ("train_data.pt", "test_data.pt", "idx2word.pt", "word2idx.pt"):  # built again by each run's torch
        if os.path.exists(os.path.join("data", "ptb", name)):
            os.remove(os.path.join("data", "ptb", name))
    for split, n in (("train", 5000), ("valid", 800), ("test", 1500)):
        lines, count = [], 0
        while count < n:
            line = [words[i] for i in rng.integers(0, len(words), size=int(rng.integers(5, 25)))]
            lines.append(" " + " ".join(line) + " \n")  # PTB's lines start and end with a space
            count += len(line) + 1
        with open(os.path.join(raw, f"{split}.txt"), "w") as f:
            f.writelines(lines)
    here = os.getcwd()
    os.makedirs(os.path.join("_cwd", "lab"), exist_ok=True)
    os.chdir(os.path.join("_cwd", "lab"))
    try:
        return __import__("utils")
    finally:
        os.chdir(here)
