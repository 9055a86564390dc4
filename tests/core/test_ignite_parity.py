"""What PyTorch-Ignite's own tests found different from PyTorch (the corpus' ``recipes_ignite.py``), checked against
torch: each test runs the same code in core and in torch and compares."""

import itertools

import pytest

import core


def _shuffled_epochs(lib, workers, reseed_at):
    """Batches of a shuffling loader with ``workers``, the global generator reseeded after ``iter(loader)`` and
    after batch ``reseed_at`` (Ignite's DeterministicEngine seeds between them)."""
    lib.manual_seed(0)
    data = lib.utils.data.TensorDataset(lib.arange(24.0))
    loader = lib.utils.data.DataLoader(data, batch_size=4, shuffle=True, num_workers=workers)
    out = []
    for epoch in range(2):
        it = iter(loader)
        lib.manual_seed(100 + epoch)
        for i, (batch,) in enumerate(it):
            out.append(batch.tolist())
            if i == reseed_at:
                lib.manual_seed(200 + epoch)
    out.append(lib.rand(2).tolist())  # where the generator's stream is after the epochs
    return out


@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.parametrize("reseed_at", [0, 3])
def test_loader_with_workers_draws_its_order_when_iterated_like_torch(torch, workers, reseed_at):
    assert _shuffled_epochs(core, workers, reseed_at) == _shuffled_epochs(torch, workers, reseed_at)


def test_loader_with_workers_takes_index_batches_ahead_like_torch(torch):
    """A sampler's iterator is read ``prefetch_factor * num_workers`` batches ahead, one more per batch returned."""
    def seen(lib, workers, prefetch):
        taken = []

        class Logged(lib.utils.data.Sampler):
            def __iter__(self):
                for i in range(6):
                    taken.append(i)
                    yield i

            def __len__(self):
                return 6

        loader = lib.utils.data.DataLoader(list(range(6)), sampler=Logged(), num_workers=workers,
                                           prefetch_factor=prefetch)
        it = iter(loader)
        counts = [len(taken)]
        for _ in it:
            counts.append(len(taken))
        return counts

    for workers, prefetch in [(1, 2), (2, 1), (2, None)]:
        assert seen(core, workers, prefetch) == seen(torch, workers, prefetch)


def _draws_without_numpy(lib):
    """Ignite's ``keep_random_state`` test: seeding, drawing and restoring a generator's state while
    ``sys.modules["numpy"]`` is None (no NumPy installed, as far as imports can tell)."""
    from unittest.mock import patch

    with patch.dict("sys.modules", {"numpy": None}):
        lib.manual_seed(54)
        first = lib.rand(3).tolist()
        state = lib.get_rng_state()
        second = lib.randn(2).tolist()
        lib.set_rng_state(state)
        again = lib.randn(2).tolist()
        g = lib.Generator().manual_seed(7)
        return first, second, again, lib.randint(0, 100, (4,), generator=g).tolist()


def test_generators_work_while_numpy_is_hidden_like_torch(torch):
    assert _draws_without_numpy(core) == _draws_without_numpy(torch)


def _augmented_epochs(lib, workers, init):
    """A map-style dataset whose ``__getitem__`` draws from torch's, NumPy's and Python's generators (random
    augmentations), read with ``workers``: each batch is drawn in its worker's random states (Ignite's
    test_gradients_on_resume expects the augmentations not to replay in the main process)."""
    import random

    import numpy as np

    class Augmented(lib.utils.data.Dataset):
        def __len__(self):
            return 12

        def __getitem__(self, i):
            info = lib.utils.data.get_worker_info()
            return (lib.rand(1).item() + np.random.rand() + random.random() + i,
                    -1 if info is None else info.id * 100 + info.num_workers)

    def seed_more(worker_id):
        lib.manual_seed(1000 + worker_id)

    lib.manual_seed(0)
    np.random.seed(0)
    random.seed(0)
    loader = lib.utils.data.DataLoader(Augmented(), batch_size=3, shuffle=True, num_workers=workers,
                                       worker_init_fn=seed_more if init else None)
    out = [[[round(v, 6) for v in x.tolist()], ids.tolist()] for _ in range(2) for x, ids in loader]
    return out, lib.rand(1).item(), np.random.rand(), random.random()


@pytest.mark.parametrize("workers, init", [(0, False), (1, False), (3, False), (2, True)])
def test_map_style_dataset_draws_in_its_workers_random_states_like_torch(torch, workers, init):
    assert _augmented_epochs(core, workers, init) == _augmented_epochs(torch, workers, init)


_SCHEDULERS = {
    "PolynomialLR": lambda S, o: S.PolynomialLR(o, total_iters=6, power=2.0),
    "LinearLR": lambda S, o: S.LinearLR(o, start_factor=0.25, total_iters=4),
    "MultiplicativeLR": lambda S, o: S.MultiplicativeLR(o, lambda e: 0.9 if e % 2 else 0.8),
    "ExponentialLR": lambda S, o: S.ExponentialLR(o, gamma=0.7),
    "CosineAnnealingLR": lambda S, o: S.CosineAnnealingLR(o, T_max=5),
    "StepLR": lambda S, o: S.StepLR(o, step_size=2),
    "ConstantLR": lambda S, o: S.ConstantLR(o, factor=0.5, total_iters=3),
}


def _ignite_driven_lrs(lib, name, last_epoch):
    """Ignite's LRScheduler handler: ``get_lr()`` asked with ``_get_lr_called_within_step`` set, then ``last_epoch``
    advanced by hand, so ``get_lr`` runs at epoch 0 after the constructor's step; and a scheduler resumed at
    ``last_epoch`` (its constructor's step must keep the rates)."""
    param = lib.zeros(1, requires_grad=True)
    opt = lib.optim.SGD([{"params": [param], "lr": 0.1, "initial_lr": 0.1}], lr=0.1)
    scheduler = _SCHEDULERS[name](_Resumed(lib.optim.lr_scheduler, last_epoch), opt)
    lrs = [opt.param_groups[0]["lr"]]
    for _ in range(8):
        scheduler._get_lr_called_within_step = True
        values = scheduler.get_lr()
        scheduler._get_lr_called_within_step = False
        opt.param_groups[0]["lr"] = values[0]
        scheduler.last_epoch += 1
        lrs.append(values[0])
    return lrs


class _Resumed:
    """``lr_scheduler`` whose classes are built with ``last_epoch`` given (a resumed schedule)."""

    def __init__(self, module, last_epoch):
        self.module, self.last_epoch = module, last_epoch

    def __getattr__(self, name):
        cls = getattr(self.module, name)
        return lambda *args, **kwargs: cls(*args, **kwargs, last_epoch=self.last_epoch)


@pytest.mark.parametrize("name", sorted(_SCHEDULERS))
@pytest.mark.parametrize("last_epoch", [-1, 3])
def test_schedulers_get_lr_outside_their_constructor_like_torch(torch, name, last_epoch):
    assert _ignite_driven_lrs(core, name, last_epoch) == pytest.approx(_ignite_driven_lrs(torch, name, last_epoch),
                                                                      rel=1e-15)


def _plateau(lib):
    param = lib.zeros(1, requires_grad=True)
    opt = lib.optim.SGD([param], lr=1.0)
    scheduler = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, factor=0.5)
    scheduler._reduce_lr(7)  # (Ignite's ReduceLROnPlateauScheduler calls the private method with an epoch)
    for loss in [1.0, 2.0, 3.0]:
        scheduler.step(loss)
    return opt.param_groups[0]["lr"], scheduler.last_epoch


def test_reduce_lr_on_plateau_reduce_lr_takes_an_epoch_like_torch(torch):
    assert _plateau(core) == _plateau(torch)


@pytest.mark.parametrize("batch_size, drop_last", [(2, False), (2, True), (None, False)])
def test_iterable_dataset_loader_has_torchs_placeholder_samplers(torch, batch_size, drop_last):
    """Ignite's auto_dataloader test checks ``loader.sampler`` of an IterableDataset: torch's
    ``_InfiniteConstantSampler`` (importable from ``torch.utils.data.dataloader``), under a BatchSampler."""
    from core.utils.data.dataloader import _InfiniteConstantSampler

    def described(lib, placeholder):
        loader = lib.utils.data.DataLoader(_stream_of(lib), batch_size=batch_size, drop_last=drop_last)
        b = loader.batch_sampler
        return (isinstance(loader.sampler, placeholder), type(b).__name__,
                None if b is None else (b.batch_size, b.drop_last, b.sampler is loader.sampler),
                [x.tolist() for x in loader], list(itertools.islice(iter(loader.sampler), 3)))

    assert described(core, _InfiniteConstantSampler) == \
        described(torch, torch.utils.data.dataloader._InfiniteConstantSampler)


def _stream_of(lib):
    class Count(lib.utils.data.IterableDataset):
        def __iter__(self):
            return iter(lib.arange(5.0).unbind(0))

    return Count()


def _legacy_objects(lib):
    lib.manual_seed(0)
    base = lib.arange(10.0)
    return {"model": lib.nn.Linear(3, 2).state_dict(), "view": base.view(2, 5)[:, 1:3], "base": base,
            "int": lib.tensor([1, 2]), "half": lib.ones(2, dtype=lib.float16), "n": 3, "opt": [1.5, "a"]}


def _described(obj):
    if hasattr(obj, "stride"):
        return obj.tolist(), str(obj.dtype), obj.stride(), obj.storage_offset()
    if isinstance(obj, dict):
        return {k: _described(v) for k, v in obj.items()}
    return obj


@pytest.mark.parametrize("to_file", [False, True])
def test_save_writes_the_format_before_pytorch_1_6_like_torch(torch, tmp_path, to_file):
    """``_use_new_zipfile_serialization=False`` (Ignite's DiskSaver passes it on): torch.load reads core's file as
    torch's own, views of a base load as its views again, and core.load reads torch's."""
    ours, theirs = tmp_path / "core.pt", tmp_path / "torch.pt"
    if to_file:
        with open(ours, "wb") as f:
            core.save(_legacy_objects(core), f, _use_new_zipfile_serialization=False)
    else:
        core.save(_legacy_objects(core), ours, _use_new_zipfile_serialization=False)
    torch.save(_legacy_objects(torch), theirs, _use_new_zipfile_serialization=False)
    assert not __import__("zipfile").is_zipfile(ours)
    assert _described(torch.load(ours)) == _described(torch.load(theirs)) == _described(core.load(theirs))
    loaded = torch.load(ours)
    assert loaded["view"].untyped_storage().data_ptr() == loaded["base"].untyped_storage().data_ptr()
    assert _described(core.load(ours)) == _described(core.load(theirs))


def test_legacy_save_of_an_unpicklable_object_raises_like_torch(torch, tmp_path):
    raised = []
    for lib in (core, torch):
        with pytest.raises(Exception) as info:
            lib.save({"f": lambda x: x}, tmp_path / "x.pt", _use_new_zipfile_serialization=False)
        raised.append((type(info.value), str(info.value).split(" at 0x")[0]))
    assert raised[0] == raised[1]


def test_a_worker_batch_can_ask_for_a_new_shared_storage():
    """PyG's collate asks untyped_storage()._new_shared(n) inside a DataLoader worker (core's run in-process)."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: oracle test skipped")
    for lib in (core, torch):
        storage = lib.ones(3).untyped_storage()._new_shared(12)
        assert isinstance(storage, lib.UntypedStorage) and storage.nbytes() == 12
        out = lib.empty(0).new(storage).resize_(3)
        assert out.shape == (3,)
