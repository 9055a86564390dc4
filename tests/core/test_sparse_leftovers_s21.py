"""Sparse COO leftovers against torch (session 21): the function forms ``torch.mul(s, 2)``/``torch.neg(s)``/
``torch.div(s, 2)`` stay sparse, a sparse leaf's ``.grad`` is sparse where torch's is, ``torch.sparse.sum(s, dim)``
records ``SparseSumBackward0``, and ``torch.split`` with a tensor of sizes raises torch's TypeError."""

from __future__ import annotations

import warnings

import pytest

import core


def _sparse(lib, requires_grad=False):
    s = lib.tensor([[0.0, 2.0, 0.0], [3.0, 0.0, -1.5]]).to_sparse()
    return s.requires_grad_() if requires_grad else s


def _uncoalesced(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch's one-time note on invariant checks)
        s = lib.sparse_coo_tensor(lib.tensor([[0, 0, 1], [1, 1, 2]]), lib.tensor([1.0, 2.0, 3.0]), (2, 3))
    return s.requires_grad_()


def _hybrid(lib):
    return lib.tensor([[1.0, 2.0], [0.0, 0.0], [3.0, -4.0]]).to_sparse(1).requires_grad_()


def _state(s):
    """What a user sees of a tensor, sparse or dense: layout, dtype, shape, entries (coalesced) and the dense values."""
    if not s.is_sparse:
        return False, str(s.dtype), tuple(s.shape), s.tolist()
    c = s.detach().coalesce()
    return (s.is_coalesced(), str(s.dtype), tuple(s.shape), c.indices().tolist(), c.values().tolist(),
            s.to_dense().tolist())


# ----- the function forms of the scalar arithmetic stay sparse ---------------------------------------------------

_FUNCTION_FORMS = ["lib.mul(s, 2)", "lib.mul(s, lib.tensor(3.0))", "lib.mul(2, s)", "lib.multiply(s, -0.5)",
                   "lib.neg(s)", "lib.negative(s)", "lib.div(s, 2)", "lib.div(s, lib.tensor(4.0))",
                   "lib.true_divide(s, 2)", "lib.divide(s, 8)"]


@pytest.mark.parametrize("expr", _FUNCTION_FORMS)
def test_function_forms_stay_sparse(torch, expr):
    def run(lib):
        plain = eval(expr, {"s": _sparse(lib), "lib": lib})
        graded = eval(expr, {"s": _sparse(lib, requires_grad=True), "lib": lib})
        return (plain.layout == lib.sparse_coo, _state(plain), graded.layout == lib.sparse_coo,
                type(graded.grad_fn).__name__, _state(graded))

    ours, theirs = run(core), run(torch)
    assert ours[0] and ours == theirs


@pytest.mark.parametrize("expr", ["lib.div(s, 2, rounding_mode='floor')", "s.div(-2, rounding_mode='floor')",
                                  "lib.div(s, lib.tensor(2.0), rounding_mode='trunc')",
                                  "lib.divide(s, 4, rounding_mode='trunc')"])
def test_division_with_a_rounding_mode_stays_sparse(torch, expr):
    def run(lib):
        plain = eval(expr, {"s": _sparse(lib), "lib": lib})
        leaf = _sparse(lib, requires_grad=True)
        graded = eval(expr, {"s": leaf, "lib": lib})
        graded.to_dense().sum().backward()
        return (plain.layout == lib.sparse_coo, _state(plain), type(graded.grad_fn).__name__, _state(graded),
                leaf.grad.layout == lib.sparse_coo, leaf.grad._nnz(), _state(leaf.grad))

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", ["lib.div(s, 2)", "lib.mul(s, 2.5)", "lib.neg(s)", "lib.mul(s, True)",
                                  "lib.div(s, 2, rounding_mode='floor')", "lib.div(s, -2, rounding_mode='trunc')"])
def test_function_forms_of_an_integer_sparse_tensor(torch, expr):
    def run(lib):
        out = eval(expr, {"s": lib.tensor([[0, 3], [-2, 0]]).to_sparse(), "lib": lib})
        return out.layout == lib.sparse_coo, _state(out)

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", ["lib.mul(s, 3).to_dense().sum()", "lib.neg(s).to_dense().pow(2).sum()",
                                  "lib.div(s, 2).to_dense().sum()", "lib.mul(2, s).to_dense().sum()"])
def test_function_forms_pass_gradients(torch, expr):
    def run(lib):
        s = _sparse(lib, requires_grad=True)
        out = eval(expr, {"s": s, "lib": lib})
        out.backward()
        return out.item(), s.grad.layout == lib.sparse_coo, _state(s.grad)

    assert run(core) == run(torch)


# ----- a sparse leaf's gradient is sparse where torch's is --------------------------------------------------------

_LEAF_GRADS = ["lib.sparse.sum(s)", "(s * 2).to_dense().sum()", "s.to_dense().pow(2).sum()",
               "lib.sparse.sum(s, 0).to_dense().sum()", "lib.sparse.sum(s, [0, 1])",
               "s.coalesce().to_dense().sum()", "(lib.sparse.sum(s, 1) * 2).to_dense().sum()",
               "(s.to_dense() @ lib.ones(3, 2)).sum()", "s.sum()", "lib.neg(s).sum()"]


@pytest.mark.parametrize("make", [_sparse, _uncoalesced])
@pytest.mark.parametrize("expr", _LEAF_GRADS)
def test_sparse_leaf_gradient_layout(torch, expr, make):
    def run(lib):
        s = make(lib, True) if make is _sparse else make(lib)
        out = eval(expr, {"s": s, "lib": lib})
        out.backward()
        return out.item(), type(out.grad_fn).__name__, s.grad.layout == lib.sparse_coo, _state(s.grad)

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", ["s.values().pow(2).sum()", "(s.values() * 2).sum()", "s.values().exp().sum()"])
def test_values_gradient_is_sparse(torch, expr):
    def run(lib):
        s = _sparse(lib, requires_grad=True)
        eval(expr, {"s": s, "lib": lib}).backward()
        return s.grad.layout == lib.sparse_coo, _state(s.grad)

    assert run(core) == run(torch)


def test_hybrid_sparse_sum_gradient(torch):
    def run(lib):
        s = _hybrid(lib)
        out = lib.sparse.sum(s, 1)
        (out.to_dense() * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        return out.layout == lib.sparse_coo, _state(out), type(out.grad_fn).__name__, _state(s.grad)

    assert run(core) == run(torch)


# ----- torch.sparse.sum over dims records its node -----------------------------------------------------------------

@pytest.mark.parametrize("dim", [0, 1, -1, (0, 1), [1, 0]])
def test_sparse_sum_over_dims_keeps_its_graph(torch, dim):
    def run(lib):
        s = _sparse(lib, requires_grad=True)
        out = lib.sparse.sum(s, dim)
        plain = lib.sparse.sum(_sparse(lib), dim)
        return (out.layout == lib.sparse_coo, _state(out.detach()), type(out.grad_fn).__name__,
                out.requires_grad, _state(plain), plain.grad_fn is None)

    assert run(core) == run(torch)


def test_sparse_sum_dtype(torch):
    def run(lib):
        s = lib.tensor([[0, 3], [-2, 0]]).to_sparse()
        return [_state(lib.sparse.sum(s, *args)) for args in [(), (0,), (None, lib.float64), (1, lib.float64)]]

    assert run(core) == run(torch)


# ----- split with a tensor of sizes --------------------------------------------------------------------------------

@pytest.mark.parametrize("expr", ["lib.split(t, lib.tensor([1, 3]))", "lib.split(t, lib.tensor([1, 3]), 1)",
                                  "t.split(lib.tensor([1, 1]))", "lib.split(t, lib.tensor([]), 1)",
                                  "lib.split(t, split_size_or_sections=lib.tensor([1.0, 3.0]), dim=1)"])
def test_split_by_a_tensor_of_sizes_raises_type_error(torch, expr):
    def message(lib):
        with pytest.raises(TypeError) as info:
            eval(expr, {"t": lib.arange(8.0).reshape(2, 4), "lib": lib})
        return str(info.value)

    assert message(core) == message(torch)


@pytest.mark.parametrize("expr", ["lib.split(t, lib.tensor([2]), 1)", "lib.split(t, lib.tensor(3), 1)"])
def test_split_by_a_one_element_tensor_still_splits(torch, expr):
    def run(lib):
        return [x.tolist() for x in eval(expr, {"t": lib.arange(8.0).reshape(2, 4), "lib": lib})]

    assert run(core) == run(torch)


# ----- two COO tensors add up sparse (a gradient reaching a node twice too) ----------------------------------------

def _pairs(lib):
    a, u = _sparse(lib), _uncoalesced(lib).detach()
    h = _hybrid(lib).detach()
    return [(a, a), (a, u), (u, a), (u, u), (h, h), (a, -a)]


def test_two_sparse_tensors_add_sparse(torch):
    def run(lib):
        return [(r.layout == lib.sparse_coo, r.is_coalesced(), r._indices().tolist(), r._values().tolist())
                for r in (x + y for x, y in _pairs(lib))]

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", ["s.to_dense().sum() + lib.sparse.sum(s)",
                                  "lib.sparse.sum(s * 2) + lib.sparse.sum(-s)"])
def test_sparse_gradients_meeting_in_one_graph_stay_sparse(torch, expr):
    def run(lib):
        s = _sparse(lib, requires_grad=True)
        eval(expr, {"s": s, "lib": lib}).backward()
        return s.grad.layout == lib.sparse_coo, _state(s.grad)

    assert run(core) == run(torch)


# ----- dtype casts keep the layout -----------------------------------------------------------------------------------

_CASTS = ["s.double()", "s.to(lib.float64)", "s.float()", "s.long()", "s.to('cpu')", "s.to(lib.float64, copy=True)",
          "s.type(lib.float64)", "s.half()", "s.bool()", "s.to(dtype=lib.int32)", "s.to('cpu', copy=True)",
          "s.to(lib.zeros(1, dtype=lib.float64))"]


@pytest.mark.parametrize("expr", _CASTS)
def test_casts_stay_sparse(torch, expr):
    def run(lib):
        out = []
        for requires_grad in (False, True):
            s = _sparse(lib, requires_grad)
            r = eval(expr, {"s": s, "lib": lib})
            out.append((r.layout == lib.sparse_coo, _state(r), type(r.grad_fn).__name__, r is s))
        return out

    assert run(core) == run(torch)


def test_cast_passes_a_sparse_gradient_back(torch):
    def run(lib):
        s = _sparse(lib, requires_grad=True)
        (s.double().to_dense() * 3).sum().backward()
        return s.grad.layout == lib.sparse_coo, _state(s.grad)

    assert run(core) == run(torch)
