"""``torch.distributed._functional_collectives`` exists with PyTorch's names (gpt-fast's ``tp.py`` imports it), and
over core's world of one process each collective returns a new tensor with the input's values."""

import importlib

import numpy as np

import core

NAMES = ("all_reduce", "all_reduce_coalesced", "all_gather_tensor", "reduce_scatter_tensor", "broadcast",
         "all_to_all_single", "wait_tensor")


def test_functional_collectives_import_with_torchs_names(torch):
    for lib in (core, torch):
        module = importlib.import_module(f"{lib.__name__}.distributed._functional_collectives")
        assert all(callable(getattr(module, name)) for name in NAMES)


def test_functional_collectives_over_one_rank_give_new_tensors_of_the_same_values():
    funcol = importlib.import_module("core.distributed._functional_collectives")
    x = core.arange(6.0).reshape(2, 3)
    results = [funcol.all_reduce(x, "sum", [0]), funcol.all_gather_tensor(x, 0, [0]),
               funcol.reduce_scatter_tensor(x, "sum", 0, [0]), funcol.broadcast(x, 0, [0]),
               *funcol.all_reduce_coalesced([x], "avg", [0])]
    for out in results:
        assert out is not x and np.array_equal(out.numpy(), x.numpy())
    assert funcol.wait_tensor(results[0]) is results[0]
