"""Parity leftovers against torch (#19, session 22, second pass): a compressed tensor's ``values()`` and index getters
share its arrays (writes through them change it, as PyG's EGConv relies on), ``as_subclass`` to a subclass with
``__slots__``, the COO ops torch has no sparse kernel for, and a bool ``dim`` refused by the ops that still took it."""

from __future__ import annotations

import copy
import warnings

import pytest

import core

# ----- a compressed tensor's values() and indices share its arrays --------------------------------------------------

def _compressed(lib, layout):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch's beta note)
        x = lib.tensor([[1.0, 0.0, 2.0, 0.0], [0.0, 3.0, 4.0, 5.0], [6.0, 0.0, 0.0, 7.0], [0.0, 8.0, 0.0, 0.0]])
        if layout in ("bsr", "bsc"):
            return getattr(x, f"to_sparse_{layout}")((2, 2))
        return getattr(x, f"to_sparse_{layout}")()


_WRITES = ["c.values().fill_(1.0)", "c.values().mul_(2)", "v = c.values(); v[0] = -1.0",
           "c.detach().values().add_(1)", "c.mul_(2)", "c.clone().values().fill_(9.0)",
           "c.values()[0].zero_()"]


@pytest.mark.parametrize("layout", ["csr", "csc", "bsr", "bsc"])
@pytest.mark.parametrize("code", _WRITES)
def test_writes_through_values_change_the_compressed_tensor(torch, layout, code):
    def run(lib):
        c = _compressed(lib, layout)
        exec(code, {"lib": lib, "c": c})
        product = (c @ lib.ones(4, 1)).tolist() if layout == "csr" else None  # (torch's mm takes CSR only)
        return (c.to_dense().tolist(), c.values().tolist(), product, c._version > 0, c.values()._is_view(),
                c.values()._base is c)

    assert run(core) == run(torch)


@pytest.mark.parametrize("layout, getter", [("csr", "col_indices"), ("csr", "crow_indices"),
                                            ("csc", "row_indices"), ("csc", "ccol_indices")])
def test_index_getters_share_the_indices(torch, layout, getter):
    def run(lib):
        c = _compressed(lib, layout)
        index = getattr(c, getter)()
        if getter.startswith(("crow", "ccol")):
            index[1] = 1  # (the first row/column keeps one of its two entries, the second takes the other)
        else:
            index[0] = 3
        return c.to_dense().tolist(), getattr(c, getter)().tolist(), index._is_view()

    assert run(core) == run(torch)


def test_values_of_a_compressed_tensor_that_needs_grad_without_grad_mode(torch):
    def run(lib):
        c = _compressed(lib, "csr").requires_grad_()
        with lib.no_grad():
            c.values().mul_(2)
        return c.to_dense().tolist(), c.requires_grad

    assert run(core) == run(torch)


# ----- as_subclass to a subclass that declares __slots__ ------------------------------------------------------------

def _slotted(lib):
    class Tagged(lib.Tensor):
        __slots__ = ("tag", "other")

        def new_empty(self, *args, **kwargs):  # (what deepcopy builds the copy with)
            return super().new_empty(*args, **kwargs).as_subclass(Tagged)

    return Tagged


def test_as_subclass_with_slots_keeps_the_graph(torch):
    def run(lib):
        tagged = _slotted(lib)
        x = lib.arange(4.0).requires_grad_()
        y = (x * 2).as_subclass(tagged)
        y.tag = 3
        out = [type(y) is tagged, type(y.grad_fn).__name__, y._is_view(), y.tag, y.requires_grad]
        (y * y).sum().backward()
        out.append(x.grad.tolist())
        v = x.detach().as_subclass(tagged)
        v.add_(1)  # (the alias shares x's memory and version counter)
        out += [x.tolist(), x._version, v._version]
        with lib.no_grad():
            n = x.as_subclass(tagged)
        out += [n.requires_grad, n.grad_fn is None]
        x.requires_grad_(False)  # (a view made without grad follows its base)
        return out + [n.requires_grad]

    assert run(core) == run(torch)


def test_deepcopy_of_a_slotted_subclass_copies_its_slots(torch):
    def run(lib):
        tagged = _slotted(lib)
        z = lib.ones(3).as_subclass(tagged).requires_grad_()
        z.tag, z.extra = [1], {"a": 1}
        c = copy.deepcopy(z)
        return (type(c) is tagged, c.tag, c.tag is z.tag, hasattr(c, "other"), c.extra, c.tolist(), c.requires_grad,
                c.is_leaf)

    assert run(core) == run(torch)


# ----- the COO methods torch has no sparse kernel for --------------------------------------------------------------

_NO_KERNEL = ["exp", "exp_", "cos", "cos_", "log", "log_", "sigmoid", "sigmoid_", "cosh", "exp2", "log2", "log10",
              "rsqrt", "reciprocal", "acos", "arccos", "acosh", "arccosh_", "lgamma", "digamma", "erfc", "logit",
              "i0", "sinc"]


@pytest.mark.parametrize("op", _NO_KERNEL)
def test_coo_methods_without_a_sparse_kernel_are_refused(torch, op):
    def run(lib):
        s = lib.tensor([[0.0, 0.5], [0.25, 0.0]]).to_sparse()
        with pytest.raises(NotImplementedError) as info:
            getattr(s, op)()
        return str(info.value).split(" This could")[0], s.to_dense().tolist()  # (then torch lists its backends)

    assert run(core) == run(torch)


@pytest.mark.parametrize("op", ["sin", "abs", "sqrt", "tanh_", "neg_", "expm1_", "log1p_"])
def test_coo_methods_with_a_sparse_kernel_still_work(torch, op):
    def run(lib):
        s = lib.tensor([[0.0, 0.5], [0.25, 0.0]]).to_sparse()
        out = getattr(s, op)()
        return out.layout == lib.sparse_coo, out.to_dense().tolist(), s.to_dense().tolist()

    assert run(core) == run(torch)


# ----- a bool or float dim refused by the ops that took it as an int -----------------------------------------------

def _refusal(lib, expr):
    x = lib.arange(12.0).reshape(3, 4)
    with pytest.raises(TypeError) as info:
        eval(expr, {"lib": lib, "x": x})
    return str(info.value)


@pytest.mark.parametrize("value", ["True", "1.0"])
@pytest.mark.parametrize("form", ["x.{}({})", "lib.{}(x, {})"])
@pytest.mark.parametrize("op", ["unsqueeze", "squeeze", "flip", "all", "any", "count_nonzero"])
def test_bool_or_float_dim_is_refused(torch, op, form, value):
    expr = form.format(op, value)
    assert _refusal(core, expr) == _refusal(torch, expr)


@pytest.mark.parametrize("expr", ["x.flip((True,))", "lib.flip(x, [1.0])", "x.flip(dims=True)", "x.flip([0, 1.0])",
                                  "x.flip(0, 1.0)", "x.flip(dims=(0, 1, 1.0))",
                                  "x.max(True)", "x.min(True)", "x.max(1.0)", "lib.max(x, True)",
                                  "lib.linalg.vector_norm(x, 2, True)", "lib.linalg.vector_norm(x, 2, 1.0)"])
def test_bool_dim_refusals_in_other_forms(torch, expr):
    assert _refusal(core, expr) == _refusal(torch, expr)


@pytest.mark.parametrize("expr", ["x.unsqueeze(1)", "lib.unsqueeze(x, -1)", "x.unsqueeze(lib.tensor(0))",
                                  "x.unsqueeze(0).squeeze(0)", "x.squeeze()", "x.squeeze((0, 1))", "x.flip(0)",
                                  "x.flip(0, 1)", "x.flip([1])", "lib.flip(x, (0,))", "x.flip(dims=[0])",
                                  "x.flip([0, True])", "x.flip(0, True)",
                                  "x.all(1)", "x.any(dim=0, keepdim=True)", "lib.all(x)", "lib.any(x, 1)",
                                  "x.count_nonzero(1)", "lib.count_nonzero(x, (0, 1))", "x.count_nonzero()",
                                  "lib.linalg.vector_norm(x, 2, 1)", "x.std(True)", "x.max(1)[0]"])
def test_int_dims_still_work(torch, expr):
    def run(lib):
        out = eval(expr, {"lib": lib, "x": lib.arange(12.0).reshape(3, 4) - 5})
        return str(out.dtype), out.tolist()

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", ["x.std(dim=True)", "x.var(dim=True)", "x.std(dim=1.0)",
                                  "x.var(dim=True, keepdim=True)"])
def test_std_and_var_refuse_a_bool_dim_by_keyword(torch, expr):
    """A bool by position is ``unbiased`` (``x.std(True)``); by keyword it is no dim."""
    assert _refusal(core, expr) == _refusal(torch, expr)


@pytest.mark.parametrize("expr", ["x.std(True)", "x.var(False)", "x.std(dim=1)", "x.var(dim=(0, 1), keepdim=True)",
                                  "x.std(axis=0)", "lib.var(x, dim=0, unbiased=False)", "x.std(1, True)",
                                  "x.var(dim=None, correction=0)"])
def test_std_and_var_still_take_their_overloads(torch, expr):
    def run(lib):
        out = eval(expr, {"lib": lib, "x": lib.arange(12.0).reshape(3, 4) ** 1.5})
        return [round(v, 4) for v in out.reshape(-1).tolist()]

    assert run(core) == run(torch)
