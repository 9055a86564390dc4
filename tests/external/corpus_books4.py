"""Stand-ins for the fourth batch of books' and courses' scripts (``recipes_books4.py``).

Aurélien Géron's "Hands-On Machine Learning" (PyTorch edition) loads scikit-learn's California housing table and
OpenML's Fashion-MNIST, both downloads. ``fetch_california_housing`` returns a ``Bunch`` of seeded float64 rows
with the table's 8 features (their rough ranges) and a target in hundreds of thousands of dollars;
``fetch_openml`` returns Fashion-MNIST's layout (float64 pixels 0..255 in rows of 784, string labels '0'..'9').
Both are NumPy, so both runs see the same arrays; they are smaller than the real tables so a script's training
loops take a fraction of a second.
"""

from __future__ import annotations

import sys

import numpy as np

HOUSING_ROWS = 400


class Bunch(dict):
    """scikit-learn's ``Bunch``: a dict whose keys are attributes too."""

    __getattr__ = dict.__getitem__


HOUSING_FEATURES = ["MedInc", "HouseAge", "AveRooms", "AveBedrms", "Population", "AveOccup", "Latitude",
                    "Longitude"]
_HOUSING_RANGES = [(0.5, 15.0), (1.0, 52.0), (1.0, 10.0), (0.5, 2.0), (3.0, 5000.0), (1.0, 6.0), (32.5, 42.0),
                   (-124.3, -114.3)]


def fetch_california_housing(*, data_home=None, download_if_missing=True, return_X_y=False, as_frame=False):
    """``HOUSING_ROWS`` districts of 8 float64 features; the target is a noisy linear function of them, clipped to
    the real table's 0.15..5.0."""
    rng = np.random.RandomState(42)
    data = np.column_stack([rng.uniform(low, high, HOUSING_ROWS) for low, high in _HOUSING_RANGES])
    scaled = (data - data.mean(0)) / data.std(0)
    target = np.clip(2.0 + scaled @ rng.normal(0, 0.5, 8) + rng.normal(0, 0.3, HOUSING_ROWS), 0.15, 5.0)
    if return_X_y:
        return data, target
    return Bunch(data=data, target=target, feature_names=HOUSING_FEATURES, target_names=["MedHouseVal"])


def fetch_openml(name=None, *, version="active", as_frame="auto", n_rows=1_000, **kwargs):
    """Fashion-MNIST as OpenML serves it: ``data`` float64 of shape (n, 784), ``target`` an object array of the
    labels' strings."""
    rng = np.random.RandomState(0)
    data = rng.randint(0, 256, size=(n_rows, 784)).astype(np.float64)
    target = rng.randint(0, 10, size=n_rows).astype(str).astype(object)
    return Bunch(data=data, target=target, feature_names=[f"pixel{i + 1}" for i in range(784)])


def load_mnist(batch_size=64):
    """Microsoft Learn's ``pytorchcv.load_mnist`` on ``corpus_support``'s MNIST stand-in: it makes ``data_train``,
    ``data_test``, ``train_loader`` and ``test_loader`` (the original puts them in ``builtins``; here they go to
    the calling notebook's globals and to ``pytorchcv``'s, where its helpers read them, so no later script sees
    them)."""
    import corpus_support
    import pytorchcv
    import torch  # the runner's torch: core under the alias, or PyTorch

    data_train, data_test = corpus_support.fake_mnist(train=True), corpus_support.fake_mnist(train=False)
    names = {"data_train": data_train, "data_test": data_test,
             "train_loader": torch.utils.data.DataLoader(data_train, batch_size=batch_size),
             "test_loader": torch.utils.data.DataLoader(data_test, batch_size=batch_size)}
    sys._getframe(1).f_globals.update(names)
    vars(pytorchcv).update(names)
