"""Parity leftovers against torch (#19, session 22): sparse COO arithmetic that stays sparse as torch's (products
with a dense or sparse tensor, sums and differences that record a graph, the unary maps of the entries,
``torch.sparse.softmax``/``log_softmax``, ``torch.sparse.mm``'s and ``t()``'s gradients, ``values()`` as a view),
with torch's layouts, values, grad_fn names, gradients and errors."""

from __future__ import annotations

import math
import warnings

import pytest

import core


def _inputs(lib, requires_grad):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch's one-time note on invariant checks)
        u = lib.sparse_coo_tensor(lib.tensor([[1, 0, 1], [2, 1, 2]]), lib.tensor([1.0, 2.0, 3.0]), (2, 3))
    names = {
        "s": lib.tensor([[0.0, 2.0, 0.0], [3.0, 0.0, -1.5]]).to_sparse(),
        "s2": lib.tensor([[1.0, 4.0, 0.0], [0.0, 0.0, 2.0]]).to_sparse(),
        "u": u,
        "h": lib.tensor([[1.0, 2.0], [0.0, 0.0], [3.0, -4.0]]).to_sparse(1),
        "d": lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        "row": lib.tensor([1.0, 2.0, 3.0]),
        "col": lib.tensor([[1.0], [-2.0]]),
        "m": lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    }
    if requires_grad:
        for t in names.values():
            t.requires_grad_()
    return names


def _nan_safe(values):
    """Values to compare: NaN as a string (NaN != NaN), floats to 6 significant digits (core's dense asin, sinh,
    asinh and atanh kernels, which the entries go through, differ from torch's in the last bit)."""
    return [("nan" if math.isnan(v) else float(f"{v:.6g}")) if isinstance(v, float)
            else _nan_safe(v) if isinstance(v, list) else v for v in values]


def _state(t, lib):
    """What a user sees of a result or a gradient: layout, coalesced flag, dtype, shape, entries, node."""
    if t is None:
        return None
    node = type(t.grad_fn).__name__
    if t.layout == lib.sparse_coo:
        return ("sparse", t.is_coalesced(), str(t.dtype), tuple(t.shape), t._indices().tolist(),
                _nan_safe(t.detach()._values().tolist()), node)
    return ("dense", str(t.dtype), tuple(t.shape), _nan_safe([t.detach().tolist()]), node)


def _run(lib, expr, requires_grad, check_flag=True):
    names = _inputs(lib, requires_grad)
    try:
        out = eval(expr, {"lib": lib, **names})
    except Exception as error:  # (the error type and message are compared with torch's)
        return type(error).__name__, str(error).split(" This could")[0]
    result = [_state(out, lib)]
    if requires_grad and out.requires_grad:
        try:
            (out.to_dense() if out.layout == lib.sparse_coo else out).sum().backward()
        except Exception as error:
            return result + [type(error).__name__, str(error).split(" This could")[0][:60]]
        for name, t in names.items():
            state = _state(t.grad, lib)
            if state is not None and not check_flag and state[0] == "sparse":
                state = state[:1] + state[2:]
            result.append((name, state))
    return result


_PRODUCTS = ["s * d", "d * s", "lib.mul(s, d)", "s.mul(d)", "s.multiply(d)", "s * row", "row * s", "s * col",
             "s * s2", "s2 * s", "lib.mul(s, s2)", "u * d", "d * u", "h * lib.tensor([[1.0, -1.0]])",
             "h * lib.ones(3, 2)", "s.double() * d", "s * (lib.ones(1) * 2)", "s * lib.tensor([1, 2, 3])",
             "s.long() * lib.tensor([[1, 2, 3], [4, 5, 6]])", "s * lib.ones(2, 2, 3).sum(0)"]


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("expr", _PRODUCTS)
def test_products_with_a_tensor_stay_sparse(torch, expr, requires_grad):
    assert _run(core, expr, requires_grad) == _run(torch, expr, requires_grad)


_SUMS = ["s + s2", "s - s2", "lib.add(s, s2)", "lib.sub(s, s2)", "s.add(s2, alpha=2)", "s.sub(s2, alpha=0.5)",
         "s.subtract(s2)", "lib.add(s, s2, alpha=-1.5)", "u + s", "s + u", "h + h", "h - h * 2",
         "s + d", "s + 1", "s - 1", "s - d", "lib.add(s, d)", "s.add(2)", "s + lib.sparse_coo_tensor("
         "lib.tensor([[0], [0]]), lib.tensor([1.0]), (3, 3))", "d + s", "d - s"]


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("expr", _SUMS)
def test_sums_and_differences(torch, expr, requires_grad):
    assert _run(core, expr, requires_grad) == _run(torch, expr, requires_grad)


@pytest.mark.parametrize("code", ["s += 1", "s -= 1", "s.add_(1)", "s.sub_(2.5)", "s.add_(d)", "s -= d", "s += s2",
                                  "s.add_(s2, alpha=2)", "s.sub_(s2)", "s -= s", "d += s", "d.sub_(s)",
                                  "x = sum([s, s2])", "x = 0 + s"])
def test_in_place_sums(torch, code):
    def run(lib):
        names = _inputs(lib, False)
        try:
            exec(code, {"lib": lib}, names)
        except RuntimeError as error:
            return str(error)
        return [_state(names[n], lib) for n in ("s", "d")]

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", ["s * 0.5 + s", "s + s * s2"])
def test_sparse_gradients_meeting_in_one_backward(torch, expr):
    """The gradient's entries match torch's; its coalesced flag does not always (torch's AccumulateGrad decides it
    by how many references the summed gradient has)."""
    assert _run(core, expr, True, check_flag=False) == _run(torch, expr, True, check_flag=False)


_DIVISIONS = ["s / d", "s.div(d)", "lib.div(s, d)", "lib.div(s, row)", "s / s2", "lib.true_divide(s, s2)",
              "s.div(d, rounding_mode='floor')", "s / lib.tensor(2.0)"]


@pytest.mark.parametrize("expr", _DIVISIONS)
def test_division_by_a_tensor_is_refused(torch, expr):
    assert _run(core, expr, False) == _run(torch, expr, False)


_UNARY = ["abs", "sign", "sgn", "floor", "ceil", "round", "trunc", "frac", "sqrt", "sin", "tan", "tanh", "asin",
          "atan", "sinh", "asinh", "atanh", "expm1", "log1p", "relu", "square", "erf", "erfinv", "deg2rad", "rad2deg",
          "signbit", "isnan", "isinf", "neg"]


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("op", _UNARY)
def test_unary_maps_of_the_entries(torch, op, requires_grad):
    expr = f"(s * 0.25).{op}()"  # (values within every op's domain but atanh's edge)
    assert _run(core, expr, requires_grad) == _run(torch, expr, requires_grad)


@pytest.mark.parametrize("expr", ["u.abs()", "u.sqrt()", "h.relu()", "s.long().abs()", "s.long().sqrt()",
                                  "u.square()", "s.int().sign()"])
def test_unary_maps_coalesce_first(torch, expr):
    assert _run(core, expr, False) == _run(torch, expr, False)


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("expr", ["s.pow(2)", "s ** 2", "s.pow(3)", "s.pow(-1)", "s.pow(0.5)", "s.pow(0)",
                                  "s ** 0", "u.pow(2)", "h.pow(2)", "s.long().pow(2)"])
def test_pow_of_the_entries(torch, expr, requires_grad):
    assert _run(core, expr, requires_grad) == _run(torch, expr, requires_grad)


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("expr", ["s.t()", "s.transpose(0, 1)", "s.transpose(1, 0)", "u.t()", "lib.t(s)",
                                  "s.t().t()", "lib.sparse.mm(s, m)", "lib.sparse.mm(u, m)", "s @ m",
                                  "lib.sparse.mm(s, m) * 2", "lib.sparse.mm(s.t(), d)"])
def test_transpose_and_sparse_mm_gradients(torch, expr, requires_grad):
    assert _run(core, expr, requires_grad) == _run(torch, expr, requires_grad)


_SOFTMAX = ["lib.sparse.softmax(s, 1)", "lib.sparse.softmax(s, 0)", "lib.sparse.softmax(s, -2)",
            "lib.sparse.log_softmax(s, 1)", "lib.sparse.log_softmax(s, 0)", "lib.sparse.softmax(u, 1)",
            "lib.sparse.softmax(h, 0)", "lib.sparse.softmax(h, 1)", "lib.sparse.log_softmax(h, 1)",
            "lib.sparse.softmax(s, 1, dtype=lib.float64)", "lib.sparse.softmax(s * d, 1) * d",
            "lib.sparse.log_softmax(s, 0) * d"]


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("expr", _SOFTMAX)
def test_sparse_softmax(torch, expr, requires_grad):
    def run(lib):
        names = _inputs(lib, requires_grad)
        out = eval(expr, {"lib": lib, **names})
        weights = lib.arange(out.numel(), dtype=out.dtype).reshape(out.shape)
        grads = []
        if requires_grad:
            (out.to_dense() * weights).sum().backward()
            grads = [(n, t.grad.layout == lib.sparse_coo, t.grad.to_dense().tolist())
                     for n, t in names.items() if t.grad is not None]
        return (out.layout == lib.sparse_coo, out.is_coalesced(), str(out.dtype), out._indices().tolist(),
                out.detach()._values().tolist(), type(out.grad_fn).__name__, grads)

    ours, theirs = run(core), run(torch)
    assert ours[:4] == theirs[:4] and ours[5] == theirs[5]
    assert core.allclose(core.tensor(ours[4], dtype=core.float64), core.tensor(theirs[4], dtype=core.float64),
                         rtol=1e-6, atol=1e-7)
    assert [g[:2] for g in ours[6]] == [g[:2] for g in theirs[6]]
    for (_, _, ours_grad), (_, _, theirs_grad) in zip(ours[6], theirs[6]):
        assert core.allclose(core.tensor(ours_grad), core.tensor(theirs_grad), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dims", [(-1, 1), (-2, 0)])
def test_sparse_softmax_negative_dim(torch, dims):
    """A negative dim gives the values of its positive twin, in torch too; its gradient is core's of the twin
    (torch 2.13's sparse softmax backward does not wrap a negative dim: its dim=-1 gradient does not sum to 0)."""
    def run(lib, dim):
        s = _inputs(lib, True)["s"]
        out = lib.sparse.softmax(s, dim)
        (out.to_dense() * lib.arange(6.0).reshape(2, 3)).sum().backward()
        return out._indices().tolist(), out.detach()._values().tolist(), s.grad.to_dense().tolist()

    negative, positive = dims
    assert run(core, negative) == run(core, positive)
    ours, theirs = run(core, positive), run(torch, positive)
    assert ours[0] == theirs[0]
    assert core.allclose(core.tensor(ours[1]), core.tensor(theirs[1]), rtol=1e-6)
    assert core.allclose(core.tensor(ours[2]), core.tensor(theirs[2]), rtol=1e-5, atol=1e-7)
    assert run(torch, negative)[1] == theirs[1]


@pytest.mark.parametrize("expr", ["lib.sparse.softmax(d, 0)", "lib.sparse.softmax(s.long(), 0)",
                                  "lib.sparse.log_softmax(s.int(), 1)", "lib.sparse.softmax(s, 2)",
                                  "lib.sparse.softmax(s, True)", "lib.sparse.log_softmax(s, -3)"])
def test_sparse_softmax_errors(torch, expr):
    assert _run(core, expr, False) == _run(torch, expr, False)


@pytest.mark.parametrize("expr", ["s.to_dense()", "u.to_dense()", "h.to_dense()", "u.coalesce()", "u.t()",
                                  "u * 2", "u.abs()", "u * u", "lib.sparse.softmax(u, 1)", "lib.sparse.sum(u)"])
def test_uncoalesced_inputs_keep_their_graph(torch, expr):
    assert _run(core, expr, True) == _run(torch, expr, True)


# ----- values() of a tensor that needs grad is a view ----------------------------------------------------------------

def test_values_of_a_tensor_that_needs_grad_is_a_view(torch):
    def run(lib):
        s = _inputs(lib, True)["s"]
        v = s.values()
        out = [v._is_view(), v._base is s, type(v.grad_fn).__name__]
        with pytest.raises(RuntimeError) as info:
            v.mul_(2)
        out.append(str(info.value))
        w = (s * 3).values()
        out += [w._is_view(), type(w.grad_fn).__name__]
        (w * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        return out + [s.grad.layout == lib.sparse_coo, s.grad.to_dense().tolist()]

    assert run(core) == run(torch)


def test_values_of_a_sparse_gradient_are_a_view(torch):
    def run(lib):
        s = _inputs(lib, True)["s"]
        lib.sparse.sum(s).backward()
        g = s.grad
        v = g.values()
        v.mul_(2)
        return g.is_coalesced(), v._is_view(), v._base is g, g.to_dense().tolist(), g.requires_grad

    assert run(core) == run(torch)


def test_values_written_without_grad_change_the_tensor(torch):
    def run(lib):
        s = _inputs(lib, True)["s"]
        with lib.no_grad():
            s.values().mul_(2)
        return s.to_dense().tolist(), (s @ lib.ones(3, 1)).tolist()

    assert run(core) == run(torch)


# ----- a bool dim is refused as torch's parser refuses it, in the method and function forms ------------------------

_BOOL_DIM_OPS = ["softmax", "log_softmax", "cummax", "cummin", "cumprod", "cumsum", "logsumexp", "mean", "sum", "prod",
                 "argmax", "argmin", "amax", "amin", "nansum", "nanmean", "logcumsumexp", "median", "nanmedian", "mode"]


def _refusal(lib, expr):
    x = lib.arange(12.0).reshape(3, 4)
    with pytest.raises(TypeError) as info:
        eval(expr, {"lib": lib, "x": x})
    return str(info.value)


@pytest.mark.parametrize("form", ["x.{}(True)", "x.{}(dim=True)", "lib.{}(x, True)", "lib.{}(x, dim=True)",
                                  "x.{}(1.0)", "lib.{}(x, 1.0)"])
@pytest.mark.parametrize("op", _BOOL_DIM_OPS)
def test_bool_dim_is_refused(torch, op, form):
    expr = form.format(op)
    assert _refusal(core, expr) == _refusal(torch, expr)


@pytest.mark.parametrize("expr", ["lib.nn.functional.softmax(x, True)", "lib.nn.functional.log_softmax(x, dim=True)",
                                  "x.sum(True, keepdim=True)", "x.mean(1.0, dtype=lib.float64)",
                                  "lib.sum(x, True, keepdim=True)", "lib.sum(x, True, True)", "x.prod(True, True)",
                                  "lib.mean(x, 1.0, dtype=lib.float64)", "x.sum(True, dtype=lib.float64)",
                                  "x.norm(dim=True)", "lib.norm(x, dim=True)", "x.norm(2, True)"])
def test_bool_dim_refusals_through_other_routes(torch, expr):
    assert _refusal(core, expr) == _refusal(torch, expr)


@pytest.mark.parametrize("expr", ["x.std(True)", "lib.std(x, True)", "x.var(True)", "x.std(1, True)", "x.softmax(-1)",
                                  "x.sum(dim=(0, 1))",
                                  "x.cumsum(axis=1)", "lib.sum(x, axis=0, keepdims=True)", "x.mean(dim=[1])"])
def test_overloads_that_take_a_bool_still_work(torch, expr):
    def run(lib):
        return eval(expr, {"lib": lib, "x": lib.arange(12.0).reshape(3, 4)}).tolist()

    assert run(core) == run(torch)
