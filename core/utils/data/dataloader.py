"""``DataLoader``: batches from a dataset, shuffled by a seeded generator, collated into tensors."""

from __future__ import annotations

import collections
import itertools
import multiprocessing
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from core import _dtype, _factories, accelerator
from core._user_warning import warn_in_core
from core.utils.data import _workers
from core.utils.data._utils.collate import default_collate, default_convert
from core.utils.data.dataset import IterableDataset, TensorDataset
from core.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)  # ``DataLoader[tuple[Tensor, Tensor]]``, as torch's type parameter
# the type aliases torch's module defines for its arguments (libraries annotate with them: Opacus' DPDataLoader)
_worker_init_fn_t = Callable[[int], None]
_collate_fn_t = Callable[[list[_T]], Any]


def get_worker_info():
    """None in the main process; inside a simulated worker of a loader with ``num_workers``, its ``WorkerInfo``
    (``core.utils.data._workers``)."""
    return _workers.get_worker_info()


class DataLoader(Generic[_T_co]):
    """Iterate over ``dataset`` in batches, as PyTorch's single-process loader does.

    A map-style dataset is read through a sampler (``RandomSampler`` when ``shuffle``, else
    ``SequentialSampler``) grouped by a ``BatchSampler``; an ``IterableDataset`` is read in its own
    order, ``batch_size`` samples at a time. ``batch_size=None`` turns batching off: each sample is
    converted (arrays to tensors) instead of collated."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers)
        if batch_size is not None and (not isinstance(batch_size, int) or batch_size <= 0):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            _check_iterable_options(shuffle, sampler, batch_sampler)
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if self._iterable:  # PyTorch's placeholders, which reading the stream never consults (Ignite checks them)
            sampler = _InfiniteConstantSampler()
        elif sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        self.num_workers, self.pin_memory, self.timeout = num_workers, pin_memory, timeout
        self.worker_init_fn = worker_init_fn
        self.prefetch_factor = 2 if num_workers > 0 and prefetch_factor is None else prefetch_factor
        self.persistent_workers = persistent_workers
        self.multiprocessing_context = multiprocessing_context
        self.pin_memory_device, self.in_order = pin_memory_device, in_order
        self._auto_collation = batch_sampler is not None or (self._iterable and batch_size is not None)
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    @property
    def multiprocessing_context(self):
        """The workers' start method as a context (None: the default); refused without workers, as in torch."""
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context) -> None:
        if context is not None:
            if self.num_workers == 0:
                raise ValueError("multiprocessing_context can only be used with multi-process loading "
                                 f"(num_workers > 0), but got num_workers={self.num_workers}")
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError(f"multiprocessing_context option should specify a valid start method in "
                                     f"{methods!r}, but got multiprocessing_context={context!r}")
                context = multiprocessing.get_context(context)
            if not isinstance(context, multiprocessing.context.BaseContext):
                raise TypeError("multiprocessing_context option should be a valid context object or a string "
                                f"specifying the start method, but got multiprocessing_context={context}")
        self._multiprocessing_context = context

    def __iter__(self):
        # NOTE: like PyTorch's iterator, draw the workers' base seed as the epoch starts, so the generators' streams
        # after an epoch are PyTorch's; the order itself is drawn on the first batch (with workers: at once)
        # (persistent workers are made once: their base seed is drawn then, not again each epoch, as in PyTorch)
        pool = vars(self).get("_persistent_pool") if self.persistent_workers else None
        if pool is None:
            base_seed = _random_int64(self.generator)
            pool = _workers.WorkerPool(self, base_seed) if self.num_workers > 0 else None
            if self.persistent_workers:
                self._persistent_pool = pool
        if self._iterable and pool is not None:  # each worker iterates its own copy (PyTorch's duplicates)
            batches = _workers.worker_batches(pool)
        else:
            batches = self._stream() if self._iterable else self._epoch(self._indices(), pool)
        kind = _MultiProcessingDataLoaderIter if self.num_workers > 0 else _SingleProcessDataLoaderIter
        return kind(self, batches)

    def _indices(self):
        """The epoch's indices (or index batches). With workers, PyTorch's iterator sends ``prefetch_factor *
        num_workers`` of them to its workers as it is created and one more with each batch it returns, so a shuffling
        sampler draws its order from the global generator at ``iter(loader)``, not at the first batch; core, which
        loads in-process, takes them from the sampler at those moments too (what seeds the generator in between,
        Ignite's DeterministicEngine, then shuffles as in PyTorch)."""
        source = iter(self.batch_sampler if self._auto_collation else self.sampler)
        return _IndicesAhead(source, self.prefetch_factor * self.num_workers) if self.num_workers > 0 else source

    def _epoch(self, order, pool):
        fast = self._auto_collation and self.collate_fn is default_collate \
            and _tensor_rows(self.dataset) is not None  # (index ops only: no worker state to keep)
        if pool is None or (fast and self.worker_init_fn is None):
            fetch = self._fetcher(self.dataset, self.collate_fn)
            for indices in order:
                yield fetch(indices)
            return
        workers = None
        for k, indices in enumerate(order):
            if workers is None:  # (started with the first batch)
                workers = pool.start(iterable=False)
            yield workers[k % len(workers)].fetch_indices(indices)  # PyTorch's round-robin index queues

    def _fetcher(self, dataset, collate_fn):
        """What turns an index (a batch of them) into a batch: PyTorch's ``_MapDatasetFetcher`` (over a worker's
        copies of the dataset and collate_fn, or the loader's own)."""
        if not self._auto_collation:
            return lambda index: collate_fn(dataset[index])
        fast = _tensor_rows(dataset) if collate_fn is default_collate else None
        if fast is not None:
            return fast
        batched = getattr(dataset, "__getitems__", None)  # as torch's fetcher: a dataset may fetch a batch
        if callable(batched):
            return lambda indices: collate_fn(batched(indices))
        return lambda indices: collate_fn([dataset[i] for i in indices])

    def _stream(self):
        samples = iter(self.dataset)
        if not self._auto_collation:
            for sample in samples:
                yield self.collate_fn(sample)
            return
        while True:
            batch = list(itertools.islice(samples, self.batch_size))
            if not batch or (len(batch) < self.batch_size and self.drop_last):
                return
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler if self._auto_collation else self.sampler)


class _InfiniteConstantSampler(Sampler):
    """An IterableDataset's sampler, as PyTorch's: None forever (``itertools.repeat(None)``)."""

    def __iter__(self):
        while True:
            yield None


class _IndicesAhead:
    """A sampler's iterator read ``ahead`` items early (``DataLoader._indices``): that many as it is made, then one
    more with each item it gives, as PyTorch's multiprocessing iterator fills its workers' index queues."""

    def __init__(self, source, ahead: int):
        self._source, self._queue = source, collections.deque()
        for _ in range(ahead):
            self._pull()

    def _pull(self) -> None:
        if self._source is not None:
            try:
                self._queue.append(next(self._source))
            except StopIteration:
                self._source = None

    def __iter__(self):
        return self

    def __next__(self):
        if not self._queue:
            raise StopIteration
        item = self._queue.popleft()
        self._pull()
        return item


class _BaseDataLoaderIter:
    """What ``iter(loader)`` gives, as PyTorch's iterator classes: ``next()``, ``len()`` and their names (old
    code's ``dataiter.next()`` fails with torch's AttributeError about ``_SingleProcessDataLoaderIter``)."""

    def __init__(self, loader: DataLoader, batches):
        self._loader, self._batches = loader, batches
        if loader.pin_memory and not accelerator.is_available():  # (each epoch, at torch's place: its own file)
            warn_in_core("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                         "memory won't be used.")

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._batches)

    def __len__(self) -> int:
        return len(self._loader)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    pass


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """core simulates the workers in the calling process (``_workers``); the class name is torch's for it."""


def _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers) -> None:
    """PyTorch's refusals of the multiprocessing options, in its order (core loads in-process either way)."""
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to "
                         "enable multiprocessing, otherwise set prefetch_factor to None.")
    if prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")


def _check_iterable_options(shuffle, sampler, batch_sampler) -> None:
    """PyTorch's refusals for an ``IterableDataset``: it has its own order, so no shuffle or samplers."""
    if shuffle not in (False, None):
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                         f"shuffle={shuffle}")
    if sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                         f"sampler={sampler}")
    if batch_sampler is not None:
        raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but got "
                         f"batch_sampler={batch_sampler}")


def _random_int64(generator=None) -> int:
    """``torch.empty((), dtype=torch.int64).random_(generator=...)``: a 63-bit draw."""
    return int(_factories.empty((), dtype=_dtype.int64).random_(generator=generator).item())


def _tensor_rows(dataset):
    """For a TensorDataset, gather a batch with one index op per tensor instead of stacking rows."""
    if type(dataset) is not TensorDataset and not getattr(dataset, "_rows_are_tensors", False):
        return None
    def rows(indices):
        idx = _factories.tensor(indices)
        return [t[idx] for t in dataset.tensors]

    return rows
