"""Under saved-tensor hooks a saved tensor comes back as a new tensor object carrying the saved tensor's autograd
metadata, as the autograd notes say: ``grad_fn._saved_self is x`` is False (even for ``lambda x: x`` hooks), the
copy has ``x``'s ``requires_grad``, leafness and ``grad_fn``, and a double backward through it still reaches
``x.grad``."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

X = np.array([0.5, -1.0, 2.0, 3.0], dtype=np.float32)


def _identity_hooks(lib):
    return lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t)


def _facts(lib, x, saved):
    return (saved is x, saved.equal(x), saved.requires_grad, saved.is_leaf,
            None if saved.grad_fn is None else saved.grad_fn.name())


@pytest.mark.parametrize("leaf", [True, False], ids=["leaf", "non_leaf"])
def test_identity_hooks_unpack_a_new_object_with_the_saved_tensors_metadata(leaf, torch):
    facts = []
    for lib in (core, torch):
        x = lib.tensor(X, requires_grad=True)
        x = x if leaf else x * 2
        with _identity_hooks(lib):
            y = x * x
        a, b = y.grad_fn._saved_self, y.grad_fn._saved_other
        facts.append((_facts(lib, x, a), _facts(lib, x, b), a is b))
    assert facts[0] == facts[1]


def test_a_hook_that_returns_a_plain_copy_still_gives_the_saved_tensors_metadata(torch):
    facts = []
    for lib in (core, torch):
        x = lib.tensor(X, requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
            y = x.sin()
        facts.append(_facts(lib, x, y.grad_fn._saved_self))
    assert facts[0] == facts[1]


def test_register_hooks_on_a_raw_saved_tensor_unpacks_a_new_object(torch):
    facts = []
    for lib in (core, torch):
        x = lib.tensor(X, requires_grad=True)
        y = x.pow(2)
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
        facts.append(_facts(lib, x, y.grad_fn._saved_self))
    assert facts[0] == facts[1]


@pytest.mark.parametrize("leaf", [True, False], ids=["leaf", "non_leaf"])
def test_a_double_backward_through_hooked_saved_tensors_reaches_the_leaf(leaf, torch):
    grads = []
    for lib in (core, torch):
        w = lib.tensor(X, requires_grad=True)
        with _identity_hooks(lib):
            x = w if leaf else w.exp()
            y = (x * x * x).sum()
            (g,) = lib.autograd.grad(y, w, create_graph=True)
            g.sum().backward()
        grads.append((g, w.grad))
    assert_same(grads[0], grads[1])
