"""Oracle tests for refusals learners meet, where torch checks in another order than core did: the exception type
and message are torch's.

``set_`` on a view of a leaf that requires grad is refused as every other in-place op on such a view; an ``out=``
tensor that requires grad gets torch's "functions with out=... arguments don't support automatic
differentiation" (core named the leaf first); ``cross_entropy``/``nll_loss`` with a float target of the wrong
shape name the shape ("Expected input batch_size (3) to match target batch_size (2).", "0D or 1D target tensor
expected") before the dtype, as torch's nll_loss_nd does.
"""

from __future__ import annotations

import pytest

CASES = {
    "set_on_view_of_leaf": lambda lib: lib.ones(3, 3, requires_grad=True)[0].set_(lib.ones(3)),
    "set_nothing_on_view_of_leaf": lambda lib: lib.ones(3, 3, requires_grad=True)[0].set_(),
    "set_on_leaf": lambda lib: lib.ones(3, requires_grad=True).set_(lib.ones(3)),
    "set_on_detached_view": lambda lib: lib.ones(3, 3, requires_grad=True)[0].detach().set_(lib.ones(3)),
    "out_view_of_leaf": lambda lib: lib.add(lib.ones(3), 1, out=lib.ones(3, 3, requires_grad=True)[0]),
    "out_leaf": lambda lib: lib.add(lib.ones(3), 1, out=lib.ones(3, requires_grad=True)),
    "out_leaf_unary": lambda lib: lib.exp(lib.ones(3), out=lib.ones(3, requires_grad=True)),
    "out_leaf_reduction": lambda lib: lib.sum(lib.ones(3, 3), 0, out=lib.ones(3, requires_grad=True)),
    "out_leaf_cat": lambda lib: lib.cat([lib.ones(3)], out=lib.ones(3, requires_grad=True)),
    "cross_entropy_float_target_batch": lambda lib: lib.nn.functional.cross_entropy(
        lib.zeros(3, 5), lib.full((2, 5), 0.2)),
    "cross_entropy_float_target_2d": lambda lib: lib.nn.functional.cross_entropy(
        lib.zeros(3, 5), lib.full((3, 4), 0.25)),
    "cross_entropy_float_target_1d": lambda lib: lib.nn.functional.cross_entropy(lib.zeros(3, 5), lib.ones(3)),
    "cross_entropy_float_target_spatial": lambda lib: lib.nn.functional.cross_entropy(
        lib.zeros(3, 5, 2), lib.ones(3, 3)),
    "cross_entropy_module_float_target_2d": lambda lib: lib.nn.CrossEntropyLoss()(
        lib.zeros(3, 5), lib.full((3, 4), 0.25)),
    "nll_loss_float_target_batch": lambda lib: lib.nn.functional.nll_loss(lib.zeros(3, 5), lib.ones(2, 5)),
    "nll_loss_int32_target": lambda lib: lib.nn.functional.nll_loss(lib.zeros(3, 5), lib.ones(3, dtype=lib.int32)),
}


def _outcome(lib, name):
    try:
        out = CASES[name](lib)
    except Exception as error:  # (the type is what is compared)
        return type(error).__name__, str(error).split("\n")[0]
    return "ok", out.tolist()


@pytest.mark.parametrize("name", sorted(CASES))
def test_refusal_order_matches_torch(name, torch):
    import core

    assert _outcome(core, name) == _outcome(torch, name)


def test_set_on_a_view_of_a_leaf_is_allowed_under_no_grad_as_in_torch(torch):
    import core

    for lib in (core, torch):
        x = lib.ones(3, 3, requires_grad=True)
        with lib.no_grad():
            view = x[0].set_(lib.zeros(3))
        assert view.tolist() == lib.zeros(3).tolist()
