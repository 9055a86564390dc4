"""``DataLoader``: batches from a dataset, shuffled by a seeded generator, collated into tensors."""

from __future__ import annotations

import numbers

import numpy as np

from core._tensor import Tensor

__all__ = ["DataLoader", "default_collate"]


def default_collate(batch):
    """Stack tensors, turn numbers and arrays into tensors, recurse into tuples, lists and dicts."""
    from core import _factories  # noqa: PLC0415
    from core.ops import stack  # noqa: PLC0415

    first = batch[0]
    if isinstance(first, Tensor):
        return stack(list(batch), 0)
    if isinstance(first, np.ndarray):
        return stack([_factories.as_tensor(b) for b in batch], 0)
    if isinstance(first, (bool, numbers.Number, np.generic)):
        return _factories.tensor(list(batch), dtype=None if not isinstance(first, float) else _float64())
    if isinstance(first, str):
        return list(batch)
    if isinstance(first, dict):
        return {key: default_collate([b[key] for b in batch]) for key in first}
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return type(first)(*(default_collate(list(s)) for s in zip(*batch)))
    if isinstance(first, (tuple, list)):
        if any(len(b) != len(first) for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(s)) for s in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                    f"found {type(first).__name__}")


def _float64():
    from core import _dtype  # noqa: PLC0415

    return _dtype.float64


class DataLoader:
    """Iterate over ``dataset`` in batches; ``shuffle`` draws a new order each epoch from ``generator``."""

    def __init__(self, dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 generator=None, **_ignored):
        if batch_size is not None and (not isinstance(batch_size, int) or batch_size <= 0):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None or drop_last):
            raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                             "and drop_last")
        self.dataset = dataset
        self.batch_size = None if batch_sampler is not None else batch_size
        self.shuffle, self.sampler, self.batch_sampler = shuffle, sampler, batch_sampler
        self.num_workers, self.drop_last, self.generator = num_workers, drop_last, generator
        self.collate_fn = collate_fn if collate_fn is not None else default_collate

    def _order(self) -> list:
        if self.sampler is not None:
            return list(self.sampler)
        if self.shuffle:
            return _shuffled(len(self.dataset), self.generator)
        return list(range(len(self.dataset)))

    def _batches(self):
        if self.batch_sampler is not None:
            yield from self.batch_sampler
            return
        order = self._order()
        size = self.batch_size
        for start in range(0, len(order), size):
            chunk = order[start:start + size]
            if len(chunk) < size and self.drop_last:
                return
            yield chunk

    def __iter__(self):
        # NOTE: like PyTorch's iterator, draw the (unused) worker base seed as the epoch starts, so the
        # generators' streams after an epoch are PyTorch's; the order itself is drawn on the first batch
        _random_int64(self.generator)
        return self._epoch()

    def _epoch(self):
        fast = _tensor_rows(self.dataset) if self.collate_fn is default_collate else None
        for indices in self._batches():
            if fast is not None:
                yield fast(indices)
            else:
                yield self.collate_fn([self.dataset[i] for i in indices])

    def __len__(self) -> int:
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


def _random_int64(generator=None) -> int:
    """``torch.empty((), dtype=torch.int64).random_(generator=...)``: a 63-bit draw."""
    from core import _dtype  # noqa: PLC0415
    from core._factories import empty  # noqa: PLC0415

    return int(empty((), dtype=_dtype.int64).random_(generator=generator).item())


def _shuffled(n: int, generator) -> list:
    """PyTorch's ``RandomSampler``: a permutation from ``generator``, or without one from a fresh generator
    seeded by a draw from the default one."""
    from core._factories import randperm  # noqa: PLC0415
    from core._random import Generator  # noqa: PLC0415

    if generator is None:
        generator = Generator().manual_seed(_random_int64())
    return randperm(n, generator=generator).tolist()


def _tensor_rows(dataset):
    """For a TensorDataset, gather a batch with one index op per tensor instead of stacking rows."""
    from core.utils.data.dataset import TensorDataset  # noqa: PLC0415

    if type(dataset) is not TensorDataset and not getattr(dataset, "_rows_are_tensors", False):
        return None
    from core._factories import tensor  # noqa: PLC0415

    def rows(indices):
        idx = tensor(indices)
        return [t[idx] for t in dataset.tensors]

    return rows
