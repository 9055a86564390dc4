"""Datasets, DataLoader and the playground's generated datasets: batching, shuffling, reproducibility."""

import numpy as np
import pytest

import core
from core import datasets
from core.utils.data import ConcatDataset, DataLoader, Dataset, TensorDataset, default_collate, random_split


def _dataset(n=10):
    return TensorDataset(core.arange(n * 2, dtype=core.float32).reshape(n, 2), core.arange(n))


def test_tensor_dataset_items_are_rows_of_each_tensor():
    ds = _dataset()
    x, y = ds[3]
    assert len(ds) == 10 and x.tolist() == [6.0, 7.0] and y.item() == 3


def test_tensor_dataset_rejects_tensors_of_different_lengths():
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):  # an assert in torch
        TensorDataset(core.zeros(3, 2), core.zeros(4))


def test_dataloader_batches_in_order_with_a_short_last_batch():
    batches = list(DataLoader(_dataset(), batch_size=4))
    assert [b[1].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert batches[0][0].shape == (4, 2) and len(DataLoader(_dataset(), batch_size=4)) == 3


def test_dataloader_drop_last_drops_the_short_batch():
    loader = DataLoader(_dataset(), batch_size=4, drop_last=True)
    assert len(loader) == 2 and [len(b[1]) for b in loader] == [4, 4]


def test_shuffle_is_a_permutation_reproducible_by_generator_seed():
    def order(seed):
        g = core.Generator().manual_seed(seed)
        return [i for _, y in DataLoader(_dataset(), batch_size=3, shuffle=True, generator=g) for i in y.tolist()]

    assert sorted(order(1)) == list(range(10))
    assert order(1) == order(1) and order(1) != order(2)


def test_shuffle_draws_a_new_order_each_epoch():
    loader = DataLoader(_dataset(20), batch_size=20, shuffle=True, generator=core.Generator().manual_seed(0))
    first, second = (next(iter(loader))[1].tolist() for _ in range(2))
    assert first != second


class _Dicts(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": np.full(3, i, dtype=np.float32), "label": i, "weight": 0.5 * i, "name": f"s{i}"}


def test_default_collate_stacks_dict_fields_like_pytorch():
    batch = next(iter(DataLoader(_Dicts(), batch_size=2)))
    assert batch["x"].shape == (2, 3) and batch["x"].dtype is core.float32
    assert batch["label"].dtype is core.int64 and batch["label"].tolist() == [0, 1]
    assert batch["weight"].dtype is core.float64 and batch["name"] == ["s0", "s1"]


def test_default_collate_of_tuples_gives_a_list_of_stacked_fields():
    out = default_collate([(core.ones(2), 1), (core.zeros(2), 2)])
    assert isinstance(out, list) and out[0].shape == (2, 2) and out[1].tolist() == [1, 2]


def test_random_split_partitions_the_dataset():
    a, b = random_split(_dataset(), [7, 3], generator=core.Generator().manual_seed(0))
    seen = sorted(int(a[i][1]) for i in range(len(a))) + sorted(int(b[i][1]) for i in range(len(b)))
    assert len(a) == 7 and len(b) == 3 and sorted(seen) == list(range(10))
    with pytest.raises(ValueError, match="Sum of input lengths"):
        random_split(_dataset(), [5, 6])


def test_random_split_accepts_fractions():
    parts = random_split(_dataset(), [0.5, 0.3, 0.2], generator=core.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [5, 3, 2]


def test_concat_dataset_indexes_across_parts():
    ds = ConcatDataset([_dataset(3), _dataset(2)])
    assert len(ds) == 5 and ds[3][1].item() == 0 and ds[-1][1].item() == 1


def test_bad_batch_size_is_a_clear_error():
    with pytest.raises(ValueError, match="batch_size should be a positive integer"):
        DataLoader(_dataset(), batch_size=0)


@pytest.mark.parametrize("name", ["circles", "xor", "gaussians", "spiral", "moons"])
def test_classification_sets_are_2d_points_with_balanced_labels(name):
    ds = datasets.GENERATORS[name](n_samples=120, seed=3)
    assert ds.X.shape == (120, 2) and ds.X.dtype is core.float32
    assert ds.y.dtype is core.int64 and ds.task == "classification"
    counts = np.bincount(ds.y.numpy(), minlength=ds.num_classes)
    assert counts.min() >= 120 // ds.num_classes - 1


@pytest.mark.parametrize("name", sorted(datasets.GENERATORS))
def test_every_generator_is_reproducible_by_seed(name):
    make = datasets.GENERATORS[name]
    kwargs = {"n_samples": 50}
    a, b, c = make(seed=1, **kwargs), make(seed=1, **kwargs), make(seed=2, **kwargs)
    assert np.array_equal(a.X.numpy(), b.X.numpy()) and np.array_equal(a.y.numpy(), b.y.numpy())
    assert not np.array_equal(a.X.numpy(), c.X.numpy())


@pytest.mark.parametrize("name", ["linear", "sine", "plane"])
def test_regression_sets_have_column_targets(name):
    ds = datasets.GENERATORS[name](n_samples=40)
    assert ds.task == "regression" and ds.y.shape == (40, 1) and ds.X.shape[0] == 40


def test_plane_follows_the_chapters_weights_without_noise():
    ds = datasets.plane(n_samples=20, noise=0.0)
    expected = ds.X.numpy() @ np.array([1.5, -0.5]) + 0.1
    np.testing.assert_allclose(ds.y.numpy()[:, 0], expected, rtol=1e-6)


def test_shapes_are_one_channel_images_of_five_classes():
    ds = datasets.shapes(n_samples=50, seed=0)
    assert ds.X.shape == (50, 1, 28, 28) and ds.num_classes == len(datasets.SHAPE_CLASSES) == 5
    assert sorted(set(ds.y.tolist())) == [0, 1, 2, 3, 4]


def test_split_gives_disjoint_train_and_validation_subsets():
    train, val = datasets.spiral(n_samples=100).split(0.2, seed=0)
    assert len(train) == 80 and len(val) == 20 and not set(train.indices) & set(val.indices)


@pytest.mark.parametrize(("kwargs", "message"), [(dict(n_samples=1), "n_samples"), (dict(noise=-1), "noise")])
def test_generators_reject_bad_parameters(kwargs, message):
    with pytest.raises(ValueError, match=message):
        datasets.circles(**kwargs)


def test_generated_dataset_batches_through_a_dataloader():
    ds = datasets.moons(n_samples=30)
    xb, yb = next(iter(DataLoader(ds, batch_size=8, shuffle=True)))
    assert xb.shape == (8, 2) and yb.shape == (8,)
