"""Stand-ins for Practical DL's (yandexdataschool) dataset loaders (our code, committed): seeded NumPy arrays with
the shapes and dtypes the seminars' own loaders return, so their training loops run offline.

- ``load_cifar10(path, ...)``: ``week03_convnets/cifar.py``'s six arrays (float32 images 3x32x32 in [0, 1],
  int32 labels): 400 training, 100 validation and 100 test images.
- ``load_notmnist(letters='AB', ...)``: ``week02_autodiff/notmnist.py``'s four arrays (standardised float32
  images 1x28x28, int labels in letter order): 400 training and 100 test images.
- ``boston_table(url, ...)``: what ``pd.read_csv`` gives for the CMU Boston housing file (its 506 records on two
  lines each: 11 values, then 3 and two NaNs), under ``.values``; the price falls with LSTAT as in the real data.
"""

from __future__ import annotations

import types

import numpy as np


def load_cifar10(data_path=".", channels_last=False, test_size=0.2, random_state=1337):
    rng = np.random.default_rng(random_state)

    def split(n):
        return rng.random((n, 3, 32, 32), dtype=np.float32), rng.integers(0, 10, n).astype("int32")

    (x_train, y_train), (x_val, y_val), (x_test, y_test) = split(400), split(100), split(100)
    if channels_last:
        x_train, x_val, x_test = (x.transpose([0, 2, 3, 1]) for x in (x_train, x_val, x_test))
    return x_train, y_train, x_val, y_val, x_test, y_test


def load_notmnist(path="./notMNIST_small", letters="ABCDEFGHIJ", img_shape=(28, 28), test_size=0.25,
                  one_hot=False):
    rng = np.random.default_rng(5)
    n = 500
    labels = rng.integers(0, len(letters), n)
    data = rng.random((n, 1, *img_shape), dtype=np.float32) + labels[:, None, None, None].astype(np.float32) * 0.3
    data = ((data - np.mean(data)) / np.std(data)).astype("float32")
    if one_hot:
        labels = (np.arange(np.max(labels) + 1)[None, :] == labels[:, None]).astype("float32")
    cut = n - int(n * test_size) + 25  # 400 / 100
    return data[:cut], labels[:cut], data[cut:], labels[cut:]


def boston_table(*args, **kwargs):
    rng = np.random.default_rng(7)
    n = 506
    features = rng.random((n, 13)) * 10
    lstat = rng.uniform(1.7, 38.0, n)
    features[:, 12] = lstat
    price = np.clip(34.5 - 0.95 * lstat + rng.normal(0, 3, n), 5, 50)
    rows = np.full((2 * n, 11), np.nan)
    rows[::2] = features[:, :11]
    rows[1::2, :2] = features[:, 11:]
    rows[1::2, 2] = price
    return types.SimpleNamespace(values=rows)
