"""``_base`` and ``_is_view()`` of the common views and non-views, and of a sparse tensor's parts, as PyTorch reports
them: a view of a view points at the first base, a copy (``contiguous`` of a transposed tensor, indexing with a
list or a mask, ``reshape`` that must copy) has none, a sparse tensor's ``values()`` is a view of it while
``_values()`` and the index tensors are not. (``conj()`` is left out: PyTorch's is a lazy view with the conj bit,
core's a copy.)"""

from __future__ import annotations

import warnings

import pytest

import core

VIEWS = {
    "view": "x.view(4, 3)", "t": "x.t()", "T": "x.T", "mT": "x.mT", "mH": "x.mH", "slice": "x[1:]", "int index": "x[0]",
    "list index": "x[[0, 1]]", "mask": "x[x > 2]", "transpose": "x.transpose(0, 1)", "permute": "x.permute(1, 0)",
    "unsqueeze": "x.unsqueeze(0)", "squeeze": "x.unsqueeze(0).squeeze(0)", "expand": "x[:1].expand(3, 4)",
    "narrow": "x.narrow(0, 0, 2)", "select": "x.select(1, 2)", "unbind": "x.unbind(0)[1]", "split": "x.split(2)[1]",
    "chunk": "x.chunk(2, 1)[0]", "flatten": "x.flatten()", "flatten copy": "x.t().flatten()",
    "reshape": "x.reshape(2, 6)", "reshape copy": "x.t().reshape(12)", "contiguous": "x.contiguous()",
    "contiguous copy": "x.t().contiguous()", "detach": "x.detach()", "diagonal": "x.diagonal()",
    "unfold": "x.unfold(1, 2, 1)", "as_strided": "x.as_strided((2,), (1,))", "view dtype": "x.view(lib.int32)",
    "movedim": "x.movedim(0, 1)", "swapaxes": "x.swapaxes(0, 1)", "view_as": "x.view_as(x)", "ellipsis": "x[...]",
    "None index": "x[None]", "ravel": "x.ravel()", "unflatten": "x.unflatten(1, (2, 2))",
    "tensor_split": "x.tensor_split(2)[0]", "hsplit": "x.hsplit(2)[0]", "split sizes": "x.split([1, 2])[1]",
    "data": "x.data", "clone": "x.clone()", "to same": "x.to(lib.float32)", "view of view": "x[1:][0]",
    "t of slice": "x[1:].t()", "detach of view": "x[1:].detach()", "squeeze no-op": "x.squeeze()",
    "expand_as": "x[:1].expand_as(x)", "broadcast_to": "x[:1].broadcast_to(3, 4)", "atleast_2d": "lib.atleast_2d(x)",
    "real": "z.real", "imag": "z.imag", "view_as_real": "lib.view_as_real(z)",
    "view_as_complex": "lib.view_as_complex(x.reshape(6, 2))", "adjoint": "x.adjoint()",
}


def _where(lib, expr):
    x = lib.arange(12.0).reshape(3, 4)
    z = lib.tensor([1 + 2j, 3 - 1j])
    v = eval(expr, {"lib": lib, "x": x, "z": z})
    base = v._base
    named = {"x": x, "x._base": x._base, "z": z}
    return v._is_view(), next((k for k, t in named.items() if t is not None and base is t), None if base is None
                              else tuple(base.shape))


@pytest.mark.parametrize("name", list(VIEWS))
def test_base_and_is_view_of_common_views_are_torchs(torch, name):
    assert _where(core, VIEWS[name]) == _where(torch, VIEWS[name])


SPARSE = ["s.values()", "s._values()", "s.indices()", "s._indices()", "s.coalesce()", "c.values()",
          "c.crow_indices()", "c.col_indices()", "c.detach()", "s.detach()", "c.values()[0:1]", "s.to_dense()"]


@pytest.mark.parametrize("expr", SPARSE)
@pytest.mark.parametrize("grad", [False, True])
def test_base_of_a_sparse_tensors_parts_is_torchs(torch, expr, grad):
    def where(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (torch's beta-state note on CSR)
            d = lib.tensor([[0.0, 1.0, 2.0], [3.0, 0.0, 4.0]])
            s, c = d.to_sparse().requires_grad_(grad), d.to_sparse_csr().requires_grad_(grad)
        v = eval(expr, {"s": s, "c": c})
        base = v._base
        return v._is_view(), "s" if base is s else "c" if base is c else None if base is None else "other"
    assert where(core) == where(torch)
