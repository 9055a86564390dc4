"""Stand-ins for the STAT 453 notebooks' helper modules (``recipes_courses2.py``; our code, committed).

Raschka's ``helper_dataset.get_dataloaders_mnist`` downloads MNIST and splits its 60000 training images
by position (``validation_fraction``); ``stat453_helpers()`` swaps it for the same split of
``corpus_support``'s 300-image stand-in, and gives ``helper_train`` a clock that stands still (its
"Time elapsed" lines are wall-clock times).
"""

from __future__ import annotations

import importlib
import types

import corpus_support
import torch  # the runner's torch: core under the alias, or PyTorch
from torch.utils.data import DataLoader, SubsetRandomSampler


def get_dataloaders_mnist(batch_size, num_workers=0, validation_fraction=None, train_transforms=None,
                          test_transforms=None):
    """The helper's loaders over ``fake_mnist``: the last ``validation_fraction`` of the training images validate."""
    train = corpus_support.fake_mnist(train=True)
    test = corpus_support.fake_mnist(train=False)
    n = len(train)
    if validation_fraction is None:
        return (DataLoader(train, batch_size=batch_size, num_workers=num_workers, drop_last=True, shuffle=True),
                DataLoader(test, batch_size=batch_size, num_workers=num_workers, shuffle=False))
    num = int(validation_fraction * n)
    train_sampler = SubsetRandomSampler(torch.arange(0, n - num))
    valid_sampler = SubsetRandomSampler(torch.arange(n - num, n))
    valid = DataLoader(train, batch_size=batch_size, num_workers=num_workers, sampler=valid_sampler)
    train = DataLoader(train, batch_size=batch_size, num_workers=num_workers, drop_last=True, sampler=train_sampler)
    return train, valid, DataLoader(test, batch_size=batch_size, num_workers=num_workers, shuffle=False)


STILL_CLOCK = types.SimpleNamespace(time=lambda: 0.0)


def stat453_helpers() -> None:
    """Point the notebook's helper modules (imported from its folder) at the stand-ins."""
    for name, attributes in (("helper_dataset", {"get_dataloaders_mnist": get_dataloaders_mnist}),
                             ("helper_data", {"get_dataloaders_mnist": get_dataloaders_mnist}),
                             ("helper_train", {"time": STILL_CLOCK})):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        for attribute, value in attributes.items():
            setattr(module, attribute, value)
