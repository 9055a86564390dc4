"""The function forms of the unary ops on a sparse COO tensor (``torch.abs(s)``, ``torch.exp(s)``) against torch: the
same sparse result as the method (``s.abs()``), or torch's NotImplementedError where it has no sparse kernel; the
alias methods (``s.arcsin()``) stay sparse as their ops do. (float64 entries: core's float32 asinh/atanh/sinh/tan of a
few elements differ from torch's in the last bit, dense or sparse alike.)"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core

SPARSE = ["abs", "absolute", "sqrt", "sin", "asin", "arcsin", "atan", "arctan", "asinh", "arcsinh", "atanh",
          "arctanh", "tanh", "log1p", "expm1", "erf", "erfinv", "relu", "sign", "sgn", "signbit", "floor", "ceil",
          "round", "trunc", "fix", "frac", "square", "deg2rad", "rad2deg", "isnan", "isinf", "isposinf", "isneginf"]
NO_KERNEL = ["exp", "exp2", "log", "log2", "log10", "cos", "cosh", "acos", "arccos", "acosh", "arccosh", "sigmoid",
             "rsqrt", "reciprocal", "erfc", "lgamma", "digamma", "sinc", "logit", "isfinite", "angle", "logical_not",
             "bitwise_not"]


def _coo(lib, requires_grad=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch's one-time note on invariant checks)
        s = lib.sparse_coo_tensor(lib.tensor([[0, 1, 1], [2, 0, 2]]), lib.tensor([0.5, -0.25, 0.75], dtype=lib.float64),
                                     (2, 3))
    return s.requires_grad_() if requires_grad else s


def _state(t):
    return str(t.layout), str(t.dtype), t.is_coalesced(), t._indices().tolist()


def _same(ours, theirs):
    """The same COO tensor: layout, dtype, indices; values within core's dense kernels' last bit (erf, atanh)."""
    assert _state(ours) == _state(theirs)
    np.testing.assert_allclose(ours._values().numpy(), theirs._values().numpy(), rtol=1e-15, atol=0)


@pytest.mark.parametrize("name", SPARSE)
def test_unary_function_of_a_coo_tensor_is_sparse_as_torch(torch, name):
    ours, theirs = getattr(core, name)(_coo(core)), getattr(torch, name)(_coo(torch))
    _same(ours, theirs)
    _same(getattr(_coo(core), name)(), theirs)  # the method form: the same result


@pytest.mark.parametrize("name", NO_KERNEL)
def test_unary_function_without_a_sparse_kernel_raises_torchs_error(torch, name):
    with pytest.raises(NotImplementedError) as theirs:
        getattr(torch, name)(_coo(torch))
    with pytest.raises(NotImplementedError) as ours:
        getattr(core, name)(_coo(core))
    assert str(ours.value).split(" This")[0] == str(theirs.value).split(" This")[0]
    if name in ("logical_not", "bitwise_not"):  # (their in-place methods: torch's errors too)
        for lib in (torch, core):
            with pytest.raises(NotImplementedError) as inplace:
                getattr(_coo(lib), name + "_")()
            assert "SparseCPU" in str(inplace.value)


def test_unary_function_of_a_coo_tensor_records_torchs_node_and_gradient(torch):
    grads = []
    for lib in (core, torch):
        s = _coo(lib, requires_grad=True)
        out = lib.abs(s)
        grads.append((type(out.grad_fn).__name__ if lib is torch else out.grad_fn.name(), str(out.layout)))
        lib.sparse.sum(out).backward()
        grads.append((_state(s.grad.coalesce()), s.grad.coalesce()._values().tolist()))
    assert grads[:2] == grads[2:]


def test_round_with_decimals_and_dense_inputs_keep_the_dense_ops(torch):
    x = [[0.5, -1.25], [2.0, 0.0]]
    assert core.round(core.tensor(x), decimals=1).tolist() == torch.round(torch.tensor(x), decimals=1).tolist()
    assert core.exp(core.tensor(x)).layout is core.strided


INPLACE = ["abs_", "absolute_", "sqrt_", "sin_", "asin_", "arcsin_", "atan_", "asinh_", "atanh_", "arctanh_", "tanh_",
           "log1p_", "expm1_", "erf_", "erfinv_", "relu_", "sign_", "sgn_", "floor_", "ceil_", "round_", "trunc_",
           "fix_", "frac_", "deg2rad_", "rad2deg_", "neg_", "negative_", "square_"]


def _uncoalesced(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lib.sparse_coo_tensor(lib.tensor([[0, 1, 1, 0], [2, 0, 2, 2]]),
                                     lib.tensor([0.5, -0.25, 0.75, 0.125], dtype=lib.float64), (2, 3))


@pytest.mark.parametrize("name", INPLACE)
@pytest.mark.parametrize("coalesced", [True, False])
def test_inplace_unary_method_of_a_coo_tensor_writes_its_entries_as_torch(torch, name, coalesced):
    """torch's in-place sparse kernels overwrite the entries of a coalesced tensor (``neg_`` of any) and refuse an
    uncoalesced one; core's left the entries as they were and changed the dense view only."""
    def run(lib):
        s = _uncoalesced(lib)
        s = s.coalesce() if coalesced else s
        try:
            out = getattr(s, name)()
        except (RuntimeError, NotImplementedError) as error:
            return type(error).__name__, str(error).split(" This")[0]
        assert out is s
        return _state(s), s._values().tolist(), s.to_dense().tolist()

    ours, theirs = run(core), run(torch)
    assert ours[0] == theirs[0]
    if not isinstance(ours[0], str):
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-15)
        np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-15)


def _with_specials(lib, layout):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch's beta-state and invariant-check notes)
        d = lib.tensor([[0.0, float("nan"), 2.0], [float("inf"), 0.0, -float("inf")]])
        return {"coo": d.to_sparse, "csr": d.to_sparse_csr, "csc": d.to_sparse_csc,
                "bsr": lambda: d.to_sparse_bsr((1, 1))}[layout]()


NAN_TO_NUM_FORMS = {
    "function": lambda lib, s: lib.nan_to_num(s),
    "function with values": lambda lib, s: lib.nan_to_num(s, nan=1.0, posinf=5.0, neginf=-5.0),
    "method": lambda lib, s: s.nan_to_num(0.5),
    "in place": lambda lib, s: s.nan_to_num_(neginf=-1.0),
    "out": lambda lib, s: lib.nan_to_num(s, out=_with_specials(lib, "coo") * 0),
}


def _outcome(lib, layout, form):
    try:
        r = NAN_TO_NUM_FORMS[form](lib, _with_specials(lib, layout))
    except (NotImplementedError, RuntimeError) as exc:
        return type(exc).__name__, str(exc).split(" If you are")[0]  # (torch's text goes on with its backends)
    return str(r.layout), r.is_coalesced(), r._indices().tolist(), r._values().tolist()


@pytest.mark.parametrize("form", list(NAN_TO_NUM_FORMS))
@pytest.mark.parametrize("layout", ["coo", "csr", "csc", "bsr"])
def test_nan_to_num_of_a_sparse_tensor_is_sparse_or_refused_as_torch(torch, layout, form):
    """COO stays COO (entries mapped); compressed layouts have no kernel; core densified both."""
    assert _outcome(core, layout, form) == _outcome(torch, layout, form)


def test_nan_to_num_of_uncoalesced_coo_coalesces_first_and_refuses_in_place_as_torch(torch):
    def parts(lib):
        s = lib.sparse_coo_tensor(lib.tensor([[0, 0], [1, 1]]), lib.tensor([float("nan"), 1.0]), (2, 2))
        r = lib.nan_to_num(s)
        with pytest.raises(RuntimeError) as info:
            s.nan_to_num_()
        return r._indices().tolist(), r._values().tolist(), str(info.value)

    assert parts(core) == parts(torch)


def test_nan_to_num_into_a_dense_out_or_backward_of_coo_raises_as_torch(torch):
    def errors(lib):
        s = _with_specials(lib, "coo")
        with pytest.raises(RuntimeError) as dense_out:
            lib.nan_to_num(s, out=lib.zeros(2, 3))
        r = lib.nan_to_num(s.requires_grad_())
        with pytest.raises(NotImplementedError) as backward:
            r.to_dense().sum().backward()
        return str(dense_out.value), r.grad_fn.name(), str(backward.value).split(" If you are")[0]

    assert errors(core) == errors(torch)


@pytest.mark.parametrize("exponent", [2, 3, 0.5, -1.0])
def test_pow_function_of_a_coo_tensor_is_sparse_as_torch(torch, exponent):
    """``torch.pow(s, p)`` with a number is the method ``s.pow(p)``: one SparseCPU kernel in torch (core gave a dense
    result from the function); its node and the values' gradient are torch's."""
    seen = []
    for lib in (core, torch):
        s = _coo(lib, requires_grad=True)
        out = lib.pow(s, exponent)
        seen.append((_state(out), type(out.grad_fn).__name__ if lib is torch else out.grad_fn.name()))
        lib.sparse.sum(out).backward()
        seen.append((out._values().tolist(), _state(s.grad.coalesce()), s.grad.coalesce()._values().tolist()))
    assert seen[0] == seen[2]
    np.testing.assert_allclose(seen[1][0], seen[3][0], rtol=1e-15)
    assert seen[1][1] == seen[3][1]
    np.testing.assert_allclose(seen[1][2], seen[3][2], rtol=1e-15)


def test_pow_function_of_a_coo_tensor_to_the_zeroth_power_raises_torchs_error(torch):
    with pytest.raises(RuntimeError) as theirs:
        torch.pow(_coo(torch), 0)
    with pytest.raises(RuntimeError) as ours:
        core.pow(_coo(core), 0)
    assert str(ours.value) == str(theirs.value)
