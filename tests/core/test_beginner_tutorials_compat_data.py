"""What the beginner tutorials' data code needs from core's DataLoader and datasets, checked against PyTorch."""

from __future__ import annotations

import warnings

import pytest

import core


@pytest.mark.parametrize("workers", [0, 2])
def test_dataloader_iterator_is_torchs_class_with_next_and_len(torch, workers):
    seen = []
    for lib in (core, torch):
        data = lib.utils.data.TensorDataset(lib.arange(5.0))
        it = iter(lib.utils.data.DataLoader(data, batch_size=2, num_workers=workers))
        first = next(it)[0].tolist()
        seen.append((type(it).__name__, len(it), first, [b[0].tolist() for b in it]))
    assert seen[0] == seen[1]


def test_old_dataiter_next_fails_with_torchs_attribute_error(torch):
    # tutorials written before PyTorch 1.13 call dataiter.next(); both libraries refuse it the same way
    messages = []
    for lib in (core, torch):
        it = iter(lib.utils.data.DataLoader(lib.utils.data.TensorDataset(lib.ones(2)), batch_size=1))
        with pytest.raises(AttributeError) as info:
            it.next()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("case", [
    lambda L: L.nn.BatchNorm2d(3)(L.ones(2, 4, 2, 2)),  # a layer built for another channel count
    lambda L: L.nn.BatchNorm1d(3)(L.ones(4, 5)),
    lambda L: L.nn.BatchNorm2d(3, track_running_stats=False)(L.ones(2, 5, 2, 2)),
    lambda L: L.nn.functional.batch_norm(L.ones(2, 4), L.zeros(4), L.ones(3), training=True),
    lambda L: L.nn.functional.batch_norm(L.ones(2, 4), None, None, None, L.ones(3), training=True),
])
def test_batch_norm_refuses_other_channel_counts_with_torchs_message(torch, case):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            case(lib)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("samples", [
    [(1, "a", 2.5), (2, "b", 3.5)],  # strings inside a sample come out as a tuple
    ["x", "y"],  # a batch of strings comes out as the list it was read as
    [{"text": "a", "label": 1}, {"text": "b", "label": 0}],
])
def test_default_collate_keeps_strings_as_torch_does(torch, samples):
    batches = []
    for lib in (core, torch):
        batch = next(iter(lib.utils.data.DataLoader(samples, batch_size=2)))
        batches.append(repr(batch).replace("core", "torch"))
    assert batches[0] == batches[1]


def test_a_checkpoint_keeps_zero_dim_tensors_zero_dim(torch, tmp_path):
    # the Saving-a-General-Checkpoint recipe stores 'loss': a 0-d tensor, printed after loading
    loaded = []
    for lib in (core, torch):
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save({"epoch": 3, "loss": lib.tensor(0.5), "count": lib.tensor(7), "vec": lib.ones(2)}, path)
        loaded.append(repr(lib.load(path)))
    assert loaded[0] == loaded[1]


def test_calling_an_autograd_function_instance_raises_torchs_legacy_error(torch):
    # 2017-era tutorials wrote relu = MyReLU(); relu(x): PyTorch refuses it since 1.5
    messages = []
    for lib in (core, torch):
        class MyReLU(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x.clamp(min=0)

        with pytest.raises(RuntimeError) as info, warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # torch also warns that it was instantiated
            MyReLU()(lib.ones(2))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("shape,dtype", [((2, 2), "float32"), ((3,), "float16"), ((3,), "int32"), ((3,), "float64")])
def test_assigning_a_mismatched_grad_raises_torchs_message(torch, shape, dtype):
    messages = []
    for lib in (core, torch):
        x = lib.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            x.grad = lib.ones(shape, dtype=getattr(lib, dtype))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("options", [
    {"num_workers": 0, "persistent_workers": True},
    {"num_workers": 0, "prefetch_factor": 2},
    {"num_workers": -1},
    {"timeout": -1},
    {"num_workers": 2, "prefetch_factor": -1},
])
def test_dataloader_refuses_worker_options_without_workers_as_torch_does(torch, options):
    messages = []
    for lib in (core, torch):
        with pytest.raises(ValueError) as info:
            lib.utils.data.DataLoader(lib.utils.data.TensorDataset(lib.ones(4)), batch_size=2, **options)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_tensor_dataset_of_unequal_lengths_fails_torchs_assert(torch):
    for lib in (core, torch):
        with pytest.raises(AssertionError, match="Size mismatch between tensors"):
            lib.utils.data.TensorDataset(lib.ones(3), lib.ones(4))


class _Batched:
    """A dataset that fetches a whole batch at once: DataLoader asks it through __getitems__, as torch's does."""

    def __init__(self, lib):
        self.lib, self.calls = lib, []

    def __len__(self):
        return 6

    def __getitem__(self, i):
        return self.lib.tensor([float(i)])

    def __getitems__(self, indices):
        self.calls.append(list(indices))
        return [self.lib.tensor([float(i) * 10]) for i in indices]


def test_dataloader_and_subset_fetch_batches_through_getitems(torch):
    seen = []
    for lib in (core, torch):
        data = _Batched(lib)
        subset = lib.utils.data.Subset(data, range(1, 5))
        batches = [b.tolist() for b in lib.utils.data.DataLoader(subset, batch_size=3)]
        seen.append((batches, data.calls, subset.indices, subset.__getitems__([0, 2])))
    assert repr(seen[0]).replace("core", "torch") == repr(seen[1])


def test_subclassing_subset_with_only_getitem_is_refused_as_torch_does(torch):
    messages = []
    for lib in (core, torch):
        class Doubled(lib.utils.data.Subset):
            def __getitem__(self, idx):
                return 2 * self.dataset[self.indices[idx]]

        with pytest.raises(NotImplementedError) as info:
            Doubled(range(4), [0, 1])
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("case", [
    lambda L: L.tensor([1, 2]).requires_grad_(),  # "only ... floating point dtype"
    lambda L: setattr(L.tensor([1, 2]), "requires_grad", True),  # "only ... floating point and complex dtype"
    lambda L: L.tensor([1, 2], requires_grad=True),  # "Only ... floating point and complex dtype"
    lambda L: L.zeros(2, dtype=L.int64, requires_grad=True),
    lambda L: L.nn.Parameter(L.tensor([1, 2])),
])
def test_an_integer_tensor_refuses_requires_grad_in_torchs_three_wordings(torch, case):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            case(lib)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
