"""What learn2learn's and higher's scripts (``recipes_meta.py``) import and is not here (our text).

- ``parameterized``: higher's tests generate their test methods with ``parameterized.expand``
  (``fake_monai_deps``' stand-in, which names and calls the cases as the package does).
- learn2learn's compiled parts: ``learn2learn.data.meta_dataset``, ``task_dataset`` and ``transforms`` are Cython
  (``.pyx``, built by its setup.py). Their classes (MetaDataset, TaskDataset, the task transforms) index datasets
  and hold no tensor code; the stand-ins are classes that raise if made, so the package's ``__init__`` imports.
- learn2learn's dataset downloaders and environments: ``learn2learn.gym`` (gym and MuJoCo), ``learn2learn.text``
  and ``learn2learn.vision.datasets``/``benchmarks``/``transforms`` (downloads through requests, Pillow, torchvision's
  datasets) are modules whose every name raises: no script uses them (its examples' data are seeded stand-ins).
- ``scipy.stats.truncnorm``: learn2learn's ``vision.models.cnn4`` initialises its classifier with
  ``truncnorm.rvs(-2, 2, size=shape)``; the stand-in draws standard normals from NumPy's global generator and
  redraws those outside [a, b] (the same values in both runs; not SciPy's values).
- ``torchmeta``: learn2learn's ``maml_sine.py`` example loads ``Sinusoid`` tasks through ``BatchMetaDataLoader``;
  the stand-ins give seeded sine tasks (amplitude in [0.1, 5], phase in [0, pi], inputs in [-5, 5], as
  torchmeta's) as float64 NumPy batches, ``num_tasks`` of them in batches of ``batch_size``.
"""

from __future__ import annotations

import types

import numpy as np


def _module(name, **attributes):
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def _refusing_module(name):
    """A module whose every public name raises: what no script of ours may use."""
    module = types.ModuleType(name)

    def __getattr__(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise NotImplementedError(f"{name}.{attr} is not in fake_meta_deps (learn2learn's data and downloads)")

    module.__getattr__ = __getattr__
    return module


def _refusing_class(name):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"{name} is learn2learn's compiled (Cython) code, not in fake_meta_deps")

    return type(name.rpartition(".")[2], (), {"__init__": __init__})


class _TruncNorm:
    """``scipy.stats.truncnorm.rvs(a, b, size=...)`` by rejection from NumPy's global standard normals."""

    @staticmethod
    def rvs(a, b, size=None, random_state=None):
        if random_state is not None:
            raise NotImplementedError("fake_meta_deps' truncnorm draws from NumPy's global generator only")
        count = int(np.prod(size))
        values = np.empty(0)
        while values.size < count:
            drawn = np.random.standard_normal(count)
            values = np.concatenate([values, drawn[(drawn >= a) & (drawn <= b)]])
        return values[:count].reshape(size)


class Sinusoid:
    """torchmeta.toy.Sinusoid's task distribution (seeded from ``np.random`` when made)."""

    def __init__(self, num_samples_per_task, num_tasks=1000000, noise_std=None, **kwargs):
        if noise_std is not None or kwargs:
            raise NotImplementedError("fake_meta_deps' Sinusoid takes no noise or transforms")
        self.num_samples_per_task, self.num_tasks = num_samples_per_task, num_tasks
        self.amplitudes = np.random.uniform(0.1, 5.0, size=num_tasks)
        self.phases = np.random.uniform(0, np.pi, size=num_tasks)

    def __len__(self):
        return self.num_tasks

    def __getitem__(self, index):
        inputs = np.random.uniform(-5.0, 5.0, size=(self.num_samples_per_task, 1))
        return inputs, self.amplitudes[index] * np.sin(inputs - self.phases[index])


class BatchMetaDataLoader:
    """Batches of ``batch_size`` tasks as ``(inputs, targets)`` tensors of shape (batch, samples, 1)."""

    def __init__(self, dataset, batch_size=1, shuffle=False, **kwargs):
        if shuffle or kwargs:
            raise NotImplementedError("fake_meta_deps' BatchMetaDataLoader neither shuffles nor takes workers")
        self.dataset, self.batch_size = dataset, batch_size

    def __iter__(self):
        import torch  # whichever library the run aliases

        for start in range(0, len(self.dataset), self.batch_size):
            tasks = [self.dataset[i] for i in range(start, min(start + self.batch_size, len(self.dataset)))]
            yield (torch.from_numpy(np.stack([t[0] for t in tasks])),
                   torch.from_numpy(np.stack([t[1] for t in tasks])))


def modules() -> dict:
    """The stand-in modules by name."""
    from fake_monai_deps import param, parameterized

    found = {"parameterized": _module("parameterized", parameterized=parameterized, param=param)}
    meta = "learn2learn.data.meta_dataset"
    task = "learn2learn.data.task_dataset"
    found[meta] = _module(meta, **{c: _refusing_class(f"{meta}.{c}")
                                   for c in ("MetaDataset", "UnionMetaDataset", "FilteredMetaDataset")})
    found[task] = _module(task, **{c: _refusing_class(f"{task}.{c}")
                                   for c in ("TaskDataset", "Taskset", "DataDescription")})
    found["learn2learn.data.transforms"] = _refusing_module("learn2learn.data.transforms")
    for name in ("learn2learn.gym", "learn2learn.text", "learn2learn.vision.datasets",
                 "learn2learn.vision.benchmarks", "learn2learn.vision.transforms"):
        found[name] = _refusing_module(name)
    stats = _module("scipy.stats", truncnorm=_TruncNorm())
    found.update({"scipy": _module("scipy", stats=stats), "scipy.stats": stats})
    toy = _module("torchmeta.toy", Sinusoid=Sinusoid)
    data = _module("torchmeta.utils.data", BatchMetaDataLoader=BatchMetaDataLoader)
    utils = _module("torchmeta.utils", data=data)
    found.update({"torchmeta": _module("torchmeta", toy=toy, utils=utils), "torchmeta.toy": toy,
                  "torchmeta.utils": utils, "torchmeta.utils.data": data})
    return found
