"""Oracle tests for what tutorials hit first: reflected operators' graphs, range indexing, arange/linspace
values bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _edges(t):
    return [(None if fn is None else fn.name().replace("torch::autograd::", ""), i)
            for fn, i in t.grad_fn.next_functions]


REFLECTED = {
    "radd": lambda b: 2 + b,
    "rmul": lambda b: 2 * b,
    "rsub": lambda b: 2 - b,
    "rtruediv": lambda b: 2 / b,
    "rpow": lambda b: 2 ** b,
    "rfloordiv": lambda b: 2 // b,
    "rmod": lambda b: 2 % b,
    "rmul_bool": lambda b: True * b,
    "rsub_float": lambda b: 0.5 - b,
}


@pytest.mark.parametrize("name", sorted(REFLECTED))
def test_a_number_on_the_left_records_the_node_and_edges_torch_records(torch, name):
    def run(lib):
        x = lib.tensor([1.5, 2.0, -0.7], requires_grad=True)
        y = REFLECTED[name](x.sin())
        return y.grad_fn.name().replace("torch::autograd::", ""), _edges(y), y.detach().numpy()

    ours, theirs = run(core), run(torch)
    assert ours[:2] == theirs[:2]
    np.testing.assert_array_equal(ours[2], theirs[2])


@pytest.mark.parametrize("name", ["radd", "rmul", "rsub", "rtruediv", "rpow", "rsub_float"])
def test_gradients_through_reflected_operators_match_torch(torch, name):
    def grad(lib):
        x = lib.tensor([1.5, 2.0, -0.7], requires_grad=True)
        REFLECTED[name](x.sin()).sum().backward()
        return x.grad.numpy()

    np.testing.assert_allclose(grad(core), grad(torch), rtol=1e-6)


def test_reflected_operators_on_integer_tensors_keep_torch_dtypes(torch):
    def run(lib):
        t = lib.tensor([1, 2, 4])
        return [(str(r.dtype), r.tolist()) for r in (2 / t, 3 - t, 2 ** t, 2.5 + t, 2.5 * t, 7 // t, 7 % t)]

    assert run(core) == run(torch)


def test_rsub_function_matches_torch_for_tensors_and_numbers(torch):
    def run(lib):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([[3.0], [5.0]], requires_grad=True)
        y, z = lib.rsub(a, b, alpha=2), lib.rsub(a, 4)
        (y.sum() + z.sum()).backward()
        return y.grad_fn.name(), z.grad_fn.name(), y.tolist(), z.tolist(), a.grad.tolist(), b.grad.tolist()

    assert run(core) == run(torch)


def test_indexing_with_a_range_reads_it_as_an_index_list(torch):
    def run(lib):
        x = lib.arange(12.0).reshape(4, 3)
        y = lib.tensor([0, 2, 1, 0])
        picked = x[range(4), y]
        x[range(1, 3)] = 0
        return x[range(3)].tolist(), picked.tolist(), x.tolist(), x[range(3, 0, -1), 1].tolist()

    assert run(core) == run(torch)


def test_negative_log_likelihood_written_with_range_indexing_matches_torch(torch):
    def run(lib):
        logits = lib.tensor(np.linspace(-2, 2, 30, dtype=np.float32).reshape(10, 3), requires_grad=True)
        target = lib.tensor([0, 1, 2, 1, 0, 2, 2, 1, 0, 1])
        logp = logits - logits.exp().sum(-1).log().unsqueeze(-1)
        loss = -logp[range(target.shape[0]), target].mean()
        loss.backward()
        return loss.item(), logits.grad.numpy()

    (lo, go), (lt, gt) = run(core), run(torch)
    assert lo == pytest.approx(lt, rel=1e-6)
    np.testing.assert_allclose(go, gt, rtol=1e-5, atol=1e-7)


ARANGES = [(-8.0, 8.0, 0.1), (-1.0, 1.0, 0.01), (0, 10, 0.3), (0.5, 100.0, 0.37), (-3.0, 3.0, 0.001),
           (10.0, -10.0, -0.07), (0, 1, 1e-5), (0.0, 5.0), (1e6, 1e6 + 1, 1e-3)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("args", ARANGES, ids=str)
def test_arange_values_equal_torch_bit_for_bit(torch, args, dtype):
    ours = core.arange(*args, dtype=getattr(core, dtype)).numpy()
    theirs = torch.arange(*args, dtype=getattr(torch, dtype)).numpy()
    np.testing.assert_array_equal(ours, theirs)


LINSPACES = [(-8.0, 8.0, 161), (0, 1, 7), (-1, 1, 100), (0.1, 0.9, 33), (3, -2.2, 77), (0, 1e-3, 50001)]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("args", LINSPACES, ids=str)
def test_linspace_values_equal_torch_bit_for_bit(torch, args, dtype):
    ours = core.linspace(*args, dtype=getattr(core, dtype)).numpy()
    theirs = torch.linspace(*args, dtype=getattr(torch, dtype)).numpy()
    np.testing.assert_array_equal(ours, theirs)
