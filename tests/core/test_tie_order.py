"""Equal values come in the order PyTorch's CPU kernels leave them, where those use the C++ library's unstable
algorithms: topk (and its ``sorted=False`` results), sort and argsort without ``stable`` (past 16 elements), and
mode's index (past 16 elements, or with NaNs); gradients follow those indices."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _cases(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.choice([1, 3, 5, 9, 17, 33, 70, 130, 400]))
        values = rng.integers(0, int(rng.choice([2, 3, 7])), size=n).astype(np.float32)
        if rng.random() < 0.15:
            values[rng.random(n) < 0.3] = np.nan
        yield values, int(rng.integers(0, n + 1)), bool(rng.random() < 0.7), bool(rng.random() < 0.8)


def _indices(lib, values, k, largest, sorted_, dim=-1):
    return lib.topk(lib.tensor(values), k, dim=dim, largest=largest, sorted=sorted_).indices.tolist()


@pytest.mark.parametrize("seed", range(4))
def test_tied_values_come_in_torchs_order(seed, torch):
    for values, k, largest, sorted_ in _cases(seed, 60):
        assert _indices(core, values, k, largest, sorted_) == _indices(torch, values, k, largest, sorted_), \
            (values.tolist(), k, largest, sorted_)


def test_the_book_example_with_three_equal_maxima_is_torchs(torch):
    values = np.array([1.0, 3.0, 3.0, 2.0, 3.0], dtype=np.float32)
    assert _indices(core, values, 3, True, True) == _indices(torch, values, 3, True, True) == [2, 4, 1]


def test_masked_logits_with_many_minus_infinities_pick_torchs_indices(torch):
    rng = np.random.default_rng(5)
    logits = rng.standard_normal((2, 3000)).astype(np.float32)
    logits[:, rng.random(3000) < 0.9] = -np.inf
    for k in (10, 400):
        assert _indices(core, logits, k, True, True) == _indices(torch, logits, k, True, True)


@pytest.mark.parametrize("dim", [0, 1])
def test_ties_along_either_dim_of_a_matrix_are_torchs(dim, torch):
    values = np.random.default_rng(2).integers(0, 3, size=(7, 6)).astype(np.float32)
    assert _indices(core, values, 3, True, True, dim) == _indices(torch, values, 3, True, True, dim)


def test_gradients_reach_the_positions_torch_picked(torch):
    values = np.array([[2.0, 5.0, 5.0, 1.0, 5.0, 5.0]], dtype=np.float32)
    grads = []
    for lib in (core, torch):
        x = lib.tensor(values, requires_grad=True)
        top = lib.topk(x, 2)
        (top.values * lib.tensor([[1.0, 10.0]])).sum().backward()
        grads.append(x.grad.tolist())
    assert grads[0] == grads[1]


def _sort_cases(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.choice([5, 16, 17, 40, 130]))
        values = rng.integers(0, int(rng.choice([2, 3, 5])), size=(2, n)).astype(np.float32)
        if rng.random() < 0.3:
            values[rng.random((2, n)) < 0.2] = np.nan
        yield values, bool(rng.random() < 0.5)


@pytest.mark.parametrize("seed", range(3))
def test_sort_and_argsort_without_stable_order_ties_as_torch(seed, torch):
    for values, descending in _sort_cases(seed, 30):
        for fn in (lambda lib, x, d: lib.sort(x, dim=1, descending=d).indices,
                   lambda lib, x, d: lib.argsort(x, dim=0, descending=d),
                   lambda lib, x, d: lib.sort(x, dim=1, descending=d, stable=True).indices):
            assert fn(core, core.tensor(values), descending).tolist() == \
                fn(torch, torch.tensor(values), descending).tolist(), (values.tolist(), descending)


@pytest.mark.parametrize("seed", range(3))
def test_mode_picks_torchs_index_and_value(seed, torch):
    for values, _ in _sort_cases(seed + 10, 30):
        ours, theirs = core.mode(core.tensor(values), 1), torch.mode(torch.tensor(values), 1)
        assert ours.indices.tolist() == theirs.indices.tolist(), values.tolist()
        assert str(ours.values.tolist()) == str(theirs.values.tolist())
