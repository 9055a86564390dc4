"""A user's ``autograd.Function`` under ``torch.func`` transforms, as the "Extending torch.func" notes page runs it:
inside ``vmap`` (and ``jacrev``'s rows, which PyTorch vmaps) one without a vmap rule or without ``setup_context``
raises PyTorch's error; one with ``generate_vmap_rule`` or a ``vmap`` staticmethod gives PyTorch's values; and
``Tensor.numpy()`` works on a tensor that requires grad while grad mode is off (its forward's NumPy calls)."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

X = np.array([[0.5, -1.0, 2.0], [3.0, 0.25, -2.0]], dtype=np.float32)


def _functions(lib):
    class Doubled(lib.autograd.Function):  # forward without ctx, but no vmap rule
        @staticmethod
        def forward(x):
            return lib.tensor(x.numpy() * 2)

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return Doubled.apply(g)

    class OldStyle(lib.autograd.Function):  # forward takes ctx: not for functorch transforms
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Cube(lib.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x ** 3, 3 * x ** 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0], output[1])

        @staticmethod
        def backward(ctx, g, g_dx):
            x, dx = ctx.saved_tensors
            return g * dx + g_dx * 6 * x

    class Scaled(lib.autograd.Function):  # a hand-written vmap rule
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

        @staticmethod
        def vmap(info, in_dims, x, k):
            return Scaled.apply(x.movedim(in_dims[0], 0), k), 0

    return Doubled, OldStyle, Cube, Scaled


def _error(call):
    try:
        call()
    except RuntimeError as error:
        return str(error)
    return None


def _refused_call(lib, which):
    doubled, old_style, _, _ = _functions(lib)
    x = lib.tensor(X)
    if which == "vmap_without_rule":
        return _error(lambda: lib.vmap(doubled.apply)(x))
    if which == "vmap_old_style":
        return _error(lambda: lib.vmap(old_style.apply)(x))
    return _error(lambda: lib.func.jacrev(doubled.apply)(x[0]))


@pytest.mark.parametrize("which", ["vmap_without_rule", "vmap_old_style", "jacrev_backward_without_rule"])
def test_a_function_that_cannot_be_vmapped_raises_torchs_error(which, torch):
    messages = [_refused_call(lib, which) for lib in (core, torch)]
    assert messages[0] is not None and messages[0] == messages[1]


def _transformed(lib):
    _, _, cube, scaled = _functions(lib)
    x = lib.tensor(X)

    def cubed(v):
        return cube.apply(v)[0]

    return (lib.vmap(cubed)(x), lib.vmap(scaled.apply, in_dims=(1, None))(x, 3.0), lib.func.jacrev(cubed)(x[0]),
            lib.func.grad(lambda v: cubed(v).sum())(x[1]))


def test_functions_with_a_vmap_rule_give_torchs_values_under_vmap_and_jacrev(torch):
    assert_same(_transformed(core), _transformed(torch))


def test_the_same_functions_outside_transforms_still_apply(torch):
    results = []
    for lib in (core, torch):
        doubled, old_style, _, _ = _functions(lib)
        x = lib.tensor(X, requires_grad=True)
        y = doubled.apply(x) + old_style.apply(x)
        y.sum().backward()
        results.append((y, x.grad))
    assert_same(results[0], results[1])


def test_numpy_of_a_tensor_that_requires_grad_works_only_with_grad_mode_off(torch):
    outcomes = []
    for lib in (core, torch):
        x = lib.tensor(X, requires_grad=True)
        with lib.no_grad():
            inside = x.numpy().tolist()
        outcomes.append((inside, _error(x.numpy)))
    assert outcomes[0] == outcomes[1]
