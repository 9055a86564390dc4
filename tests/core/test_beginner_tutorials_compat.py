"""What pytorch/tutorials' beginner path (Learn the Basics, the 60-minute blitz, the examples) needed from core.

Each test checks one behaviour those tutorials rely on against PyTorch itself (the ``torch`` fixture), so the
behaviour stays right without the corpus text (tests/external), which is not in the repository.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.oracle import check, check_error, check_grads


@pytest.mark.parametrize("inplace", [True, False])
def test_scatter_takes_a_zero_dim_index_as_one_element(torch, inplace):
    # the Transforms tutorial's one-hot label: zeros(10).scatter_(0, torch.tensor(y), value=1)
    def fn(lib, label):
        z = lib.zeros(10)
        return z.scatter_(0, label, value=1) if inplace else z.scatter(dim=0, index=label, value=1)

    check(fn, [np.array(3)], torch)


def test_scatter_and_scatter_add_take_a_zero_dim_index_and_source(torch):
    check(lambda lib, i, s: lib.zeros(5).scatter(0, i, s), [np.array(3), np.array(7.0, np.float32)], torch)
    check(lambda lib, i, s: lib.ones(5).scatter_add(0, i, s), [np.array(4), np.array(2.0, np.float32)], torch)


def test_gather_with_a_zero_dim_index_gives_a_zero_dim_result_and_its_gradient(torch):
    check(lambda lib, x, i: lib.gather(x, 0, i), [np.arange(5.0, dtype=np.float32), np.array(2)], torch)
    check_grads(lambda lib, x: lib.gather(x, 0, lib.tensor(2)), [np.arange(5.0, dtype=np.float32)], torch)


def test_scatter_refuses_an_index_of_other_rank_naming_self_and_gather_naming_input(torch):
    check_error(lambda lib, x: x.scatter_(1, lib.tensor(1), value=1), [np.zeros((2, 3), np.float32)], torch,
                match="same number of dimensions as self tensor")
    check_error(lambda lib, x: x.scatter_add(1, lib.tensor([1]), lib.ones(1)), [np.zeros((2, 3), np.float32)],
                torch, match="same number of dimensions as self tensor")
    check_error(lambda lib, x: lib.gather(x, 1, lib.tensor(1)), [np.zeros((2, 3), np.float32)], torch,
                match="same number of dimensions as input tensor")
