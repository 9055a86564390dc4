"""``tensor_stats``: the Inspector's statistics of a value or gradient, computed headless with core ops."""

import numpy as np
import pytest

import core
from core.nodegraph.files.examples import default_graph
from core.nodegraph.model.statistics import TensorStats, tensor_stats
from core.nodegraph.run.session import Session


def test_statistics_of_the_chapter_gradient_of_x():
    s = Session(default_graph())
    s.backward()
    st = tensor_stats(s.grad("n1"))  # x.grad = [1.5, -0.5]
    assert (st.numel, st.nan, st.min, st.max, st.mean) == (2, 0, -0.5, 1.5, 0.5)
    assert st.std == pytest.approx(2 ** 0.5) and st.norm == pytest.approx(2.5 ** 0.5)


def test_statistics_agree_with_torch_over_the_elements_that_are_not_nan(torch):
    a = np.random.default_rng(0).normal(size=(4, 5)).astype(np.float32)
    a[1, 2] = a[3, 0] = np.nan
    st = tensor_stats(core.tensor(a, requires_grad=True))
    t = torch.tensor(a, dtype=torch.float64)
    kept = t[~torch.isnan(t)]
    assert (st.numel, st.nan) == (20, 2)
    expected = (kept.min(), kept.max(), kept.mean(), kept.std(), torch.linalg.vector_norm(kept))
    assert [st.min, st.max, st.mean, st.std, st.norm] == pytest.approx([v.item() for v in expected])


def test_an_all_nan_tensor_has_counts_but_no_statistics():
    assert tensor_stats(core.full((3,), float("nan"))) == TensorStats(numel=3, nan=3)


def test_one_element_has_std_zero_and_integers_are_summarised_as_numbers():
    assert tensor_stats(core.tensor([4.0])).std == 0.0
    st = tensor_stats(core.tensor([1, 2, 3]))
    assert (st.mean, st.std, st.min, st.max) == (2.0, 1.0, 1.0, 3.0)


def test_non_tensors_and_empty_tensors_have_no_statistics():
    assert tensor_stats(3.0) is None and tensor_stats(None) is None and tensor_stats(core.zeros(0)) is None


def test_statistics_of_a_large_tensor_are_core_torch_named_ops_bit_for_bit():
    """The Inspector's numbers for a big batch are what ``x.std()``, ``torch.linalg.vector_norm(x)``... give over the
    elements that are not NaN, to the last bit (computed with fewer temporaries under no_grad, not another way)."""
    a = np.random.default_rng(1).normal(size=(1000, 1000))
    a[5, 7] = a[999, 0] = np.nan
    x = core.tensor(a, requires_grad=True)
    st = tensor_stats(x)
    kept = x.detach()[~core.isnan(x.detach())]
    expected = (kept.min(), kept.max(), kept.mean(), kept.std(), core.linalg.vector_norm(kept))
    assert (st.numel, st.nan) == (1_000_000, 2)
    assert [st.min, st.max, st.mean, st.std, st.norm] == [v.item() for v in expected]
    assert st.std == kept.var().sqrt().item()  # std is the square root of the same variance


def test_the_norm_and_std_record_the_same_gradients_after_a_no_grad_call(torch):
    a = np.random.default_rng(2).normal(size=(7, 9))
    tensor_stats(core.tensor(a))  # no_grad: the norm keeps nothing for backward
    for name in ("norm", "std"):
        x, t = core.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
        (core.linalg.vector_norm(x) if name == "norm" else x.std()).backward()
        (torch.linalg.vector_norm(t) if name == "norm" else t.std()).backward()
        assert np.array_equal(x.grad.numpy(), t.grad.numpy()), name
