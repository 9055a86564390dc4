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
import numpy as np
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


def _mnist1d_args(**overrides):
    """``mnist1d.data.get_dataset_args()``: the defaults of Greydanus's MNIST-1D generator."""
    args = dict(num_samples=5000, train_split=0.8, template_len=12, padding=[36, 60], scale_coeff=.4,
                max_translation=48, corr_noise_scale=0.25, iid_noise_scale=2e-2, shear_scale=0.75,
                shuffle_seq=False, final_seq_length=40, seed=42)
    args.update(overrides)
    return types.SimpleNamespace(**args)


def _mnist1d_dataset(args=None, path=None, download=False, regenerate=False, **kwargs):
    """An MNIST-1D stand-in with the real one's keys, shapes and dtypes (``x``: float64 rows of 40, ``y``: int64
    labels, a 0.8 split): each class is a seeded random template, shifted, scaled and noised per example."""
    args = args or _mnist1d_args()
    rng = np.random.RandomState(args.seed)
    length = args.final_seq_length
    templates = rng.normal(size=(10, length)).cumsum(axis=1) / 3
    y = rng.randint(0, 10, size=args.num_samples).astype(np.int64)
    shifts = rng.randint(-3, 4, size=args.num_samples)
    x = np.stack([np.roll(templates[label], shift) for label, shift in zip(y, shifts)])
    x = x * (1 + args.scale_coeff * (rng.uniform(size=(args.num_samples, 1)) - 0.5))
    x = x + args.corr_noise_scale * rng.normal(size=x.shape).cumsum(axis=1) / 4 + args.iid_noise_scale * rng.normal(
        size=x.shape)
    split = int(args.num_samples * args.train_split)
    return {"x": x[:split], "x_test": x[split:], "y": y[:split], "y_test": y[split:],
            "t": np.linspace(-5, 5, length), "templates": {"x": templates, "y": np.arange(10)}}


# ``import mnist1d`` in the UDL notebooks (its package is not installed here; the real one downloads a pickle)
fake_mnist1d = types.SimpleNamespace(data=types.SimpleNamespace(get_dataset_args=_mnist1d_args,
                                                               get_dataset=_mnist1d_dataset),
                                     get_dataset_args=_mnist1d_args, get_dataset=_mnist1d_dataset)
