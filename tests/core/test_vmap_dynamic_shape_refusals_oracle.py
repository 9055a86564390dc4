"""vmap refuses the ops whose result's shape depends on the values, in PyTorch's words: ``nonzero``, ``unique``
(``_unique2``; ``unique_dim`` with a dim), ``unique_consecutive``, one-argument ``where``, ``masked_select`` by a
batched mask, ``nonzero(as_tuple=True)``; even where every sample's shape would agree (torch refuses at the op).
Core ran its per-sample loop instead: a stack error, or a result torch never gives.
"""

import pytest

import core

CASES = {
    "nonzero_method": lambda L, a: a.nonzero(),
    "nonzero_function": lambda L, a: L.nonzero(a),
    "nonzero_same_count": lambda L, a: (a > -1).nonzero(),
    "nonzero_as_tuple": lambda L, a: a.nonzero(as_tuple=True),
    "unique": lambda L, a: L.unique(a),
    "unique_same_count": lambda L, a: L.unique(a * 0),
    "unique_unsorted_method": lambda L, a: a.unique(sorted=False, return_counts=True),
    "unique_dim": lambda L, a: L.unique(a, dim=0),
    "unique_consecutive": lambda L, a: L.unique_consecutive(a),
    "where_condition_only": lambda L, a: L.where(a > 1),
    "masked_select_batched_mask": lambda L, a: a.masked_select(a > 1),
}


def _outcome(lib, name):
    x = lib.arange(6.0).reshape(2, 3)
    try:
        lib.func.vmap(lambda a: CASES[name](lib, a))(x)
    except RuntimeError as error:
        return str(error)
    return "no error"


@pytest.mark.parametrize("name", sorted(CASES))
def test_vmap_refuses_a_data_dependent_shape_as_torch_does(torch, name):
    assert _outcome(core, name) == _outcome(torch, name)


def test_masked_select_by_an_unbatched_mask_and_argwhere_still_run_per_sample(torch):
    def run(lib):
        x = lib.arange(6.0).reshape(2, 3)
        mask = lib.tensor([True, False, True])
        return lib.func.vmap(lambda a: a.masked_select(mask))(x).tolist(), \
            lib.func.vmap(lambda a: lib.argwhere(a > -1))(x).tolist()
    assert run(core) == run(torch)
