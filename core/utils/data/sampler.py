"""Samplers: the index orders a ``DataLoader`` can take (``sampler=``, ``batch_sampler=``), as PyTorch's.

``RandomSampler`` draws as PyTorch's does: without a generator it seeds a fresh one from one
63-bit draw of the default generator, then yields ``randperm`` orders (``randint`` chunks of 32
with replacement). ``SubsetRandomSampler`` permutes its indices with ``randperm`` and
``WeightedRandomSampler`` draws with ``multinomial``, so with PyTorch's random streams a seed gives
PyTorch's orders.
"""

from __future__ import annotations

import numbers
from typing import Generic, TypeVar

import core

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
           "BatchSampler"]

_T_co = TypeVar("_T_co", covariant=True)  # what a sampler yields (``Sampler[list[int]]``: torch's type parameter)


class Sampler(Generic[_T_co]):
    """Base class: subclasses define ``__iter__`` over indices (and usually ``__len__``)."""

    def __init__(self, data_source=None) -> None:
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler[int]):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


def _check_num_samples(num_samples) -> None:
    if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
        raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")


def _check_replacement(replacement) -> None:
    if not isinstance(replacement, bool):
        raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")


class RandomSampler(Sampler[int]):
    """A random order each epoch; ``replacement=True`` draws ``num_samples`` indices independently."""

    def __init__(self, data_source, replacement: bool = False, num_samples=None, generator=None) -> None:
        self.data_source, self.replacement = data_source, replacement
        self._num_samples, self.generator = num_samples, generator
        _check_replacement(replacement)
        _check_num_samples(self.num_samples)

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            seed = int(core.empty((), dtype=core.int64).random_().item())
            generator = core.Generator()
            generator.manual_seed(seed)
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from core.randint(high=n, size=(32,), dtype=core.int64, generator=generator).tolist()
            yield from core.randint(high=n, size=(self.num_samples % 32,), dtype=core.int64,
                                    generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from core.randperm(n, generator=generator).tolist()
            yield from core.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler[int]):
    """The given indices in a random order."""

    def __init__(self, indices, generator=None) -> None:
        self.indices, self.generator = indices, generator

    def __iter__(self):
        for i in core.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler[int]):
    """Indices drawn with probabilities proportional to ``weights``."""

    def __init__(self, weights, num_samples: int, replacement: bool = True, generator=None) -> None:
        _check_num_samples(num_samples)
        _check_replacement(replacement)
        weights = core.as_tensor(weights, dtype=core.float64)
        if weights.dim() != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape {tuple(weights.shape)}")
        self.weights, self.num_samples = weights, num_samples
        self.replacement, self.generator = replacement, generator

    def __iter__(self):
        drawn = core.multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from iter(drawn.tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler[list[int]]):
    """Group another sampler's indices into lists of ``batch_size`` (the last one shorter unless ``drop_last``)."""

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if not isinstance(batch_size, numbers.Integral) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
