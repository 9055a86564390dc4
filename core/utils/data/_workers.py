"""``DataLoader(dataset, num_workers=N)``: PyTorch's N worker processes, simulated in this process.

Each worker has its own copy of the dataset, ``worker_init_fn`` and ``collate_fn`` (``copy.deepcopy``, as a
forked or spawned process holds them: what a worker changes in its dataset, a counter or a generator seeded in
``worker_init_fn``, stays in that worker and never reaches the loader's dataset; what cannot be copied is shared),
its ``WorkerInfo`` (``get_worker_info()`` while it runs, ``.dataset`` its copy), its own random state (seeded as
PyTorch's worker loop seeds it: ``base_seed + id`` for torch and ``random``, NumPy from ``_generate_state``), runs
``worker_init_fn(id)`` and then iterates its dataset copy, batching its own stream. The main process asks the live
workers for a batch in turn (PyTorch's round-robin index queue, whose in-order results are these), and drops a
worker whose stream has ended. A map-style dataset's workers fetch batch k's indices in worker k mod N, so random
augmentations in ``__getitem__`` draw from the worker's generators, as in PyTorch. The workers live for one
iterator (``WorkerPool``), or for all of them with ``persistent_workers=True`` (copies, random states and
``worker_init_fn``'s work kept; a stream restarts on the same copy). A TensorDataset read with the default
collate and no ``worker_init_fn`` keeps no worker state: it is indexed directly, with no copies.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import random

import numpy as np

_current = [None]  # the WorkerInfo of the worker now running, None in the main process


@dataclasses.dataclass(frozen=True)
class WorkerInfo:
    """Information about the current DataLoader worker (PyTorch's fields)."""

    id: int
    num_workers: int
    seed: int
    dataset: object
    rng: object = None
    worker_method: str = "multiprocessing"


WorkerInfo.__module__ = "core.utils.data._utils.worker"


def get_worker_info():
    return _current[0]


def _generate_state(base_seed: int, worker_id: int) -> list:
    """PyTorch's NumPy seed for a worker: a SeedSequence-like hash of the worker id and the base seed."""
    mask = 0xFFFFFFFF
    xshift = 16
    entropy = [worker_id, base_seed & mask, base_seed >> 32, 0]
    hash_a = [0x43B0D7E5]

    def hash_(value):
        value = (value ^ hash_a[0]) & mask
        hash_a[0] = (hash_a[0] * 0x931E8875) & mask
        value = (value * hash_a[0]) & mask
        return (value ^ (value >> xshift)) & mask

    def mix(x, y):
        result = ((0xCA01F9DD * x) & mask) - ((0x4973F715 * y) & mask) & mask
        result &= mask
        return (result ^ (result >> xshift)) & mask

    pool = [hash_(e) for e in entropy]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hash_(pool[src]))
    hash_b, state = 0x8B51F9DD, []
    for value in pool:
        value = (value ^ hash_b) & mask
        hash_b = (hash_b * 0x58F38DED) & mask
        value = (value * hash_b) & mask
        state.append((value ^ (value >> xshift)) & mask)
    return state


class _Worker:
    def __init__(self, loader, worker_id: int, base_seed: int, iterable: bool = True):
        import core

        self.loader = loader
        self.dataset, self.init_fn, self.collate_fn = _forked(loader)
        self.fetcher = None if iterable else loader._fetcher(self.dataset, self.collate_fn)
        seed = base_seed + worker_id
        self.info = WorkerInfo(worker_id, loader.num_workers, seed, self.dataset)
        saved = _states(core)
        random.seed(seed)
        core.manual_seed(seed)
        np.random.seed(_generate_state(base_seed, worker_id))
        self.states, self.ended = _states(core), False
        _restore(core, saved)
        self.iterator, self.iterable = None, iterable
        self._run(self._start)

    def _start(self):
        if self.init_fn is not None:
            self.init_fn(self.info.id)
        if self.iterable:
            self.iterator = iter(self.dataset)

    def restart(self) -> None:
        """A persistent worker's next epoch of an IterableDataset: its stream anew from the same copy."""
        self.ended = False
        self._run(lambda: setattr(self, "iterator", iter(self.dataset)))

    def _run(self, fn):
        import core

        saved, before = _states(core), _current[0]
        _restore(core, self.states)
        _current[0] = self.info
        try:
            return fn()
        finally:
            self.states = _states(core)
            _current[0] = before
            _restore(core, saved)

    def run(self, fn, *args):
        """``fn(*args)`` as this worker: its random states and ``get_worker_info()``."""
        return self._run(lambda: fn(*args))

    def fetch_indices(self, indices):
        """A map-style batch (or sample) from this worker's dataset copy, collated by its ``collate_fn``."""
        return self._run(lambda: self.fetcher(indices))

    def fetch(self):
        """The worker's next batch (PyTorch's ``_IterableDatasetFetcher``); StopIteration once it has ended."""
        return self._run(self._fetch)

    def _fetch(self):
        loader = self.loader
        if self.ended:
            raise StopIteration
        if not loader._auto_collation:
            return self.collate_fn(next(self.iterator))
        batch = list(itertools.islice(self.iterator, loader.batch_size))
        if len(batch) < loader.batch_size:
            self.ended = True
        if not batch or (loader.drop_last and len(batch) < loader.batch_size):
            raise StopIteration
        return self.collate_fn(batch)


def _states(core):
    return core.get_rng_state(), random.getstate(), np.random.get_state()


def _restore(core, states) -> None:
    core.set_rng_state(states[0])
    random.setstate(states[1])
    np.random.set_state(states[2])


def _forked(loader) -> tuple:
    """A worker's dataset, ``worker_init_fn`` and ``collate_fn``: copies, as a worker process holds them (one copy
    for the three, so a bound method of the dataset binds the worker's dataset), or the loader's own for one that
    cannot be copied (a file handle, a lock). NOTE: a plain function is itself, so what it writes to module globals
    reaches the main process, which a forked worker's would not."""
    own = (loader.dataset, loader.worker_init_fn, loader.collate_fn)
    try:
        return copy.deepcopy(own)
    except Exception:  # one of them cannot be copied (a trainer's bound method holding a lock): the others still are
        return tuple(_copied(obj) for obj in own)


def _copied(obj):
    try:
        return copy.deepcopy(obj)
    except Exception:
        return obj


class WorkerPool:
    """The N workers of one iterator of ``loader`` (or of every one, with ``persistent_workers``): started with its
    first batch, as PyTorch's iterator starts its processes, from the base seed drawn when the pool was made."""

    def __init__(self, loader, base_seed: int):
        self.loader, self.base_seed, self.workers = loader, base_seed, None

    def start(self, iterable: bool) -> list:
        """The workers, made the first time (``worker_init_fn`` run); a persistent pool's streams restart."""
        if self.workers is None:
            self.workers = [_Worker(self.loader, i, self.base_seed, iterable) for i in range(self.loader.num_workers)]
        elif iterable:
            for worker in self.workers:
                worker.restart()
        return self.workers


def worker_batches(pool: WorkerPool):
    """The batches of an IterableDataset as N workers deliver them in order."""
    live = list(pool.start(iterable=True))
    while live:
        for worker in list(live):
            try:
                batch = worker.fetch()
            except StopIteration:
                live.remove(worker)
                continue
            yield batch
