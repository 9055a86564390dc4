"""Oracle tests for ``torch.concatenate``/``torch.concat`` (``cat`` under their own names, ``dim=`` or NumPy's
``axis=``: Papers in 100 Lines' Gaussian splatting calls ``torch.concatenate(..., dim=1)``) and for ops given both
spellings of one argument (``dim`` and ``axis``, ``keepdim`` and ``keepdims``), which PyTorch refuses.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import check, raised

A = np.arange(6, dtype=np.float32).reshape(2, 3)
B = -np.arange(6, dtype=np.float32).reshape(2, 3)


@pytest.mark.parametrize("name", ["cat", "concat", "concatenate"])
@pytest.mark.parametrize("how", ["dim", "axis", "positional"])
def test_joins_take_dim_axis_or_a_position(name, how, torch):
    def join(lib, a, b):
        fn = getattr(lib, name)
        return fn([a, b], 1) if how == "positional" else fn([a, b], **{how: 1})

    check(join, [A, B], torch)


@pytest.mark.parametrize("name", ["cat", "concat", "concatenate"])
def test_joins_refuse_a_tensor_and_an_empty_list_in_torchs_words(name, torch):
    for args in ((lambda lib: lib.ones(2)), (lambda lib: [])):
        assert (raised(lambda a=args: getattr(core, name)(a(core)))
                == raised(lambda a=args: getattr(torch, name)(a(torch))))


CALLS = {
    "cat": lambda lib, x: lib.cat([x, x], dim=0, axis=0),
    "concatenate": lambda lib, x: lib.concatenate([x, x], dim=0, axis=0),
    "stack": lambda lib, x: lib.stack([x], dim=0, axis=0),
    "sum": lambda lib, x: lib.sum(x, dim=0, axis=0),
    "method_sum": lambda lib, x: x.sum(dim=0, axis=0),
    "sum_keepdims": lambda lib, x: lib.sum(x, 0, keepdim=True, keepdims=True),
    "softmax": lambda lib, x: lib.softmax(x, dim=0, axis=0),
    "method_cumsum": lambda lib, x: x.cumsum(dim=0, axis=0),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_both_spellings_of_one_argument_raise_torchs_type_error(name, torch):
    ours = raised(lambda: CALLS[name](core, core.tensor(A)))
    theirs = raised(lambda: CALLS[name](torch, torch.tensor(A)))
    assert theirs is not None and ours == theirs


def test_numpy_names_alone_still_work(torch):
    check(lambda lib, x: (x.sum(axis=1, keepdims=True), lib.softmax(x, axis=0), x.cumsum(axis=1)), [A], torch)
