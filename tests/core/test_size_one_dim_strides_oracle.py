"""``.stride()`` of results and views with size-1 dims as PyTorch reports them. A size-1 dim's stride is free in
memory terms, but users and libraries read it (``t.stride()`` in a DLPack/ctypes hand-off, a contiguity check, a
printed layout); core's small GEMV route made its (M, 1) or (1, N) result with NumPy's ``[:, None]``, whose
stride is 0 where torch's is 1 or N (``x @ w`` for a one-output ``Linear``, a batch of one row)."""

import pytest

import core

CASES = {
    "mm (3, 2) @ (2, 1)": lambda lib: lib.ones(3, 2).mm(lib.ones(2, 1)),
    "matmul (64, 32) @ (32, 1)": lambda lib: lib.ones(64, 32) @ lib.ones(32, 1),
    "linear to one output": lambda lib: lib.nn.functional.linear(lib.ones(3, 2), lib.ones(1, 2)),
    "linear with bias to one output": lambda lib: lib.nn.functional.linear(lib.ones(3, 2), lib.ones(1, 2), lib.ones(1)),
    "linear of one row": lambda lib: lib.nn.functional.linear(lib.ones(1, 2), lib.ones(4, 2), lib.ones(4)),
    "tensordot to a column": lambda lib: lib.tensordot(lib.ones(3, 2), lib.ones(2, 1), 1),
    "transpose of a column product": lambda lib: (lib.ones(3, 2) @ lib.ones(2, 1)).t(),
    "unsqueeze": lambda lib: lib.zeros(2, 3).unsqueeze(1),
    "unsqueeze of a transpose": lambda lib: lib.zeros(2, 3).t().unsqueeze(1),
    "expand of a new dim": lambda lib: lib.zeros(3).expand(1, 3),
    "as_strided with an odd size-1 stride": lambda lib: lib.zeros(6).as_strided((1, 3), (7, 1)),
    "transpose of a size-1 dim": lambda lib: lib.zeros(2, 1, 3).transpose(0, 1),
    "permute": lambda lib: lib.zeros(2, 1, 3).permute(2, 1, 0),
    "slice to one row": lambda lib: lib.zeros(4, 3)[1:2],
    "None index": lambda lib: lib.zeros(4, 3)[:, None],
    "narrow to one column": lambda lib: lib.zeros(4, 3).narrow(1, 0, 1),
    "sum keepdim": lambda lib: lib.zeros(3, 4).sum(1, keepdim=True),
    "bmm to columns": lambda lib: lib.bmm(lib.ones(2, 3, 2), lib.ones(2, 2, 1)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_size_one_dims_have_torchs_strides(torch, name):
    ours, theirs = CASES[name](core), CASES[name](torch)
    assert (tuple(ours.shape), ours.stride(), ours.is_contiguous()) == \
        (tuple(theirs.shape), theirs.stride(), theirs.is_contiguous())
