"""The per-op and per-step shortcuts (``core/ops/_fastpath.py``, the optimizers' and the captured step's hot
paths) give exactly what the general route gives: the same values, views, version counters and gradients."""

import numpy as np
import pytest

import core
from core.ops.views import T


def _transposable():
    """2-d tensors of several layouts: contiguous, transposed, sliced with an offset, a row of a 3-d tensor."""
    base = core.arange(60.0).reshape(3, 4, 5)
    return [core.randn(8, 8), core.randn(3, 5).t(), base[1, 1:, ::2], base[2], core.randn(1, 7),
            core.randn(4, 3, dtype=core.float64)]


@pytest.mark.parametrize("index", range(6))
def test_t_without_a_graph_is_the_view_the_general_route_makes(index):
    a = _transposable()[index]
    with core.no_grad():
        fast, general = a.t(), T.apply(a)
    assert fast.shape == general.shape and fast.stride() == general.stride()
    assert fast.storage_offset() == general.storage_offset() and fast._base is general._base
    assert fast._vc is a._vc and fast.grad_fn is None and not fast.requires_grad
    assert core.equal(fast, general)
    fast.mul_(2)  # a view: the write shows through the source, and bumps the shared version counter
    assert core.equal(general, fast) and general._version == a._version == 1


def test_t_of_a_tensor_that_requires_grad_still_records_tbackward():
    w = core.randn(3, 4, requires_grad=True)
    wt = w.t()
    assert wt.grad_fn.name() == "TBackward0"
    (wt * core.arange(12.0).reshape(4, 3)).sum().backward()
    assert core.equal(w.grad, core.arange(12.0).reshape(4, 3).t())
    with core.no_grad():
        assert w.t().grad_fn is None


def test_t_inside_a_forward_ad_level_goes_through_the_op():
    import core.autograd.forward_ad as fwAD

    x = core.randn(2, 3)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, core.ones(2, 3))
        tangent = fwAD.unpack_dual(dual.t()).tangent
    assert tangent is not None and tangent.shape == (3, 2)


def test_sgd_on_a_small_group_with_a_transposed_parameter_follows_pytorch(torch):
    """The small group's parameters laid end to end in C order, a transposed (non-contiguous) one included."""
    rng = np.random.default_rng(3)
    starts = [(rng.standard_normal(s) * 0.5).astype(np.float32) for s in ((5, 3), (3,), (4, 5))]
    runs = []
    for lib in (core, torch):
        params = [lib.tensor(a.copy()) for a in starts]
        params[0] = params[0].t()  # a (3, 5) leaf over transposed memory
        for p in params:
            p.requires_grad_(True)
        opt = lib.optim.SGD(params, lr=0.1)
        for _ in range(5):
            opt.zero_grad()
            sum((p * p * 0.5 - p * 0.7).sum() for p in params).backward()
            opt.step()
        runs.append([p.detach().numpy().copy() for p in params])
    for mine, theirs in zip(*runs):
        np.testing.assert_array_equal(mine, theirs)


@pytest.mark.parametrize("op", ["add", "mul"])
def test_an_operator_that_records_gives_the_ops_own_node_values_and_gradients(torch, op):
    """``a + b`` / ``a * b`` with a graph go straight to the op's Function: the same result as ``torch.add``/``mul``,
    mixed dtypes and broadcasting included."""
    rng = np.random.default_rng(4)
    a0, b0 = rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal(4)
    results = []
    for lib in (core, torch):
        a, b = lib.tensor(a0, requires_grad=True), lib.tensor(b0, requires_grad=True)  # float32 with float64
        out = a + b if op == "add" else a * b
        (out * out).sum().backward()
        results.append((out.grad_fn.name(), out.dtype == lib.float64, out.detach().numpy(), a.grad.numpy(),
                        b.grad.numpy()))
    (name, promoted, *arrays), (t_name, t_promoted, *t_arrays) = results
    assert name == t_name and promoted == t_promoted
    for mine, theirs in zip(arrays, t_arrays):
        np.testing.assert_array_equal(mine, theirs)
    with pytest.raises(RuntimeError, match="must match the size"):
        core.ones(2, requires_grad=True) * core.ones(3)


def test_sgd_on_a_parameter_larger_than_a_chunk_follows_pytorch(torch):
    """A large parameter is updated in float64 chunks (``core._fused.scaled_add_f32_``): every element as torch's
    fused update, a last partial chunk included (300 x 300 = 90,000 elements: one chunk of 65,536 and a rest)."""
    rng = np.random.default_rng(5)
    start = (rng.standard_normal((300, 300)) * 0.5).astype(np.float32)
    target = rng.standard_normal((300, 300)).astype(np.float32)
    runs = []
    for lib in (core, torch):
        p = lib.tensor(start.copy(), requires_grad=True)
        opt = lib.optim.SGD([p], lr=0.37)
        for _ in range(4):
            opt.zero_grad()
            ((p - lib.tensor(target)) ** 2 * 1.7).sum().backward()
            opt.step()
        runs.append(p.detach().numpy().copy())
    np.testing.assert_array_equal(runs[0], runs[1])
