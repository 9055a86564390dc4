"""Parity leftovers against torch (#19, session 22, second pass): a compressed tensor's ``values()`` and index getters
share its arrays (writes through them change it, as PyG's EGConv relies on), ``as_subclass`` to a subclass with
``__slots__``, the COO ops torch has no sparse kernel for, and a bool ``dim`` refused by the ops that still took it."""

from __future__ import annotations

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
