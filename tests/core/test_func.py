"""``core.func`` against ``torch.func``: grad, vjp, jvp, Jacobians, Hessians, vmap; nesting, has_aux, errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised

_RNG = np.random.default_rng(5)
X = _RNG.standard_normal(3)
Y = _RNG.standard_normal((2, 3))
W = _RNG.standard_normal((3, 2))
BATCH = _RNG.standard_normal((4, 3))


def _both(torch, call):
    """``call(lib, func)`` with ``func`` = lib.func, compared between core and torch; returns core's result."""
    ours, theirs = call(core, core.func), call(torch, torch.func)
    assert _structure(ours) == _structure(theirs)
    assert_same(_leaves(ours), _leaves(theirs))
    assert [t.requires_grad for t in _leaves(ours)] == [t.requires_grad for t in _leaves(theirs)]
    return ours


def _structure(tree):
    if isinstance(tree, dict):
        return {k: _structure(v) for k, v in tree.items()}
    if isinstance(tree, (tuple, list)):
        return type(tree).__name__, tuple(_structure(t) for t in tree)
    return "tensor"


def _leaves(tree) -> list:
    if isinstance(tree, dict):
        tree = list(tree.values())
    if isinstance(tree, (tuple, list)):
        return [leaf for t in tree for leaf in _leaves(t)]
    return [tree]


def _loss(lib, x, y):
    return (lib.tanh(y @ x) ** 2).sum() + x.exp().sum()


def test_grad_matches_torch_and_is_detached_for_plain_inputs(torch):
    g = _both(torch, lambda lib, func: func.grad(lambda x: _loss(lib, x, lib.tensor(Y)))(lib.tensor(X)))
    assert g.grad_fn is None and g.is_leaf


@pytest.mark.parametrize("argnums", [0, 1, -1, (0, 1), (1, 0)])
def test_grad_with_argnums_matches_torch(torch, argnums):
    _both(torch, lambda lib, func: func.grad(lambda x, y: _loss(lib, x, y), argnums=argnums)(lib.tensor(X),
                                                                                           lib.tensor(Y)))


def test_grad_with_has_aux_returns_the_aux_untouched(torch):
    def call(lib, func):
        return func.grad(lambda x: (_loss(lib, x, lib.tensor(Y)), {"double": x * 2}), has_aux=True)(lib.tensor(X))
    grads, aux = _both(torch, call)
    assert not aux["double"].requires_grad


def test_grad_and_value_returns_both(torch):
    _both(torch, lambda lib, func: func.grad_and_value(lambda x, y: _loss(lib, x, y), argnums=(0, 1))(
        lib.tensor(X), lib.tensor(Y)))
    _both(torch, lambda lib, func: func.grad_and_value(lambda x: (x.sin().sum(), x.cos()), has_aux=True)(
        lib.tensor(X)))


def test_grad_of_grad_is_the_second_derivative(torch):
    _both(torch, lambda lib, func: func.grad(func.grad(lambda x: x.sin() * x ** 3))(lib.tensor(0.7)))
    _both(torch, lambda lib, func: func.grad(func.grad(func.grad(lambda x: x.exp() * x.tanh())))(lib.tensor(0.3)))


def test_grad_of_an_input_that_requires_grad_keeps_the_graph(torch):
    def call(lib, func):
        x = lib.tensor(X, requires_grad=True)
        g = func.grad(lambda x: (x.sin() ** 2).sum())(x)
        g.sum().backward()
        return g, x.grad
    _both(torch, call)


def test_grad_through_a_parameter_the_function_closes_over_can_be_backpropagated(torch):
    def call(lib, func):
        w = lib.tensor(W, requires_grad=True)
        g = func.grad(lambda x: lib.sigmoid(x @ w).sum())(lib.tensor(X))
        penalty = ((g.norm() - 1) ** 2)
        penalty.backward()
        return g, penalty, w.grad
    _both(torch, call)


def test_grad_inside_no_grad_records_nothing(torch):
    def call(lib, func):
        x = lib.tensor(X, requires_grad=True)
        with lib.no_grad():
            return func.grad(lambda x: (x ** 3).sum())(x)
    _both(torch, call)


@pytest.mark.parametrize("fn, message", [
    (lambda x: x * 2, "Expected f\\(\\*args\\) to return a scalar Tensor, got tensor with 1 dims"),
    (lambda x: 3.0, "Expected f\\(\\*args\\) to return a Tensor, got <class 'float'>"),
])
def test_grad_of_a_function_that_is_not_scalar_raises_like_torch(torch, fn, message):
    for lib in (torch, core):
        with pytest.raises(RuntimeError, match=message):
            lib.func.grad(fn)(lib.tensor(X))


@pytest.mark.parametrize("kwargs, message", [
    ({"argnums": 2}, "Got argnum=2, but only 1 positional inputs"),
    ({"argnums": ()}, "argnums must be non-empty"),
    ({"argnums": (0, 0)}, "argnums elements must be unique"),
    ({"argnums": [0]}, "argnums must be int or Tuple\\[int, ...\\], got: <class 'list'>"),
    ({"has_aux": True}, "output of function f should be a tuple: \\(output, aux\\) if has_aux is True"),
])
def test_bad_grad_arguments_raise_like_torch(torch, kwargs, message):
    for lib in (torch, core):
        with pytest.raises(RuntimeError, match=message):
            lib.func.grad(lambda x: (x ** 2).sum(), **kwargs)(lib.tensor(X))


def test_vjp_returns_the_output_and_a_function_of_cotangents(torch):
    def call(lib, func):
        out, vjp_fn = func.vjp(lambda x, y: (y @ x, x.exp()), lib.tensor(X), lib.tensor(Y))
        return out, vjp_fn((lib.ones(2, dtype=lib.float64), lib.tensor(X)))
    grads = _both(torch, call)[1]
    assert isinstance(grads, tuple) and len(grads) == 2


def test_vjp_with_has_aux_and_one_primal_gives_a_one_tuple(torch):
    def call(lib, func):
        out, vjp_fn, aux = func.vjp(lambda x: (x.sin(), x.sum()), lib.tensor(X), has_aux=True)
        return out, vjp_fn(lib.tensor(X)), aux
    _both(torch, call)


def test_vjp_with_cotangents_of_another_structure_raises(torch):
    for lib in (torch, core):
        _, vjp_fn = lib.func.vjp(lambda x: (x, x * 2), lib.tensor(X))
        with pytest.raises(RuntimeError, match="Expected pytree structure of cotangents to be the same"):
            vjp_fn(lib.tensor(X))


def test_jacrev_nests_by_outputs_then_argnums(torch):
    jac = _both(torch, lambda lib, func: func.jacrev(lambda x, y: (y @ x, {"e": x.exp()}), argnums=(0, 1))(
        lib.tensor(X), lib.tensor(Y)))
    assert tuple(jac[0][1].shape) == (2, 2, 3) and tuple(jac[1]["e"][0].shape) == (3, 3)


@pytest.mark.parametrize("transform", ["jacrev", "jacfwd"])
def test_jacobians_of_a_scalar_and_of_a_matrix_output_match_torch(torch, transform):
    _both(torch, lambda lib, func: getattr(func, transform)(lambda x: _loss(lib, x, lib.tensor(Y)))(lib.tensor(X)))
    _both(torch, lambda lib, func: getattr(func, transform)(lambda w: lib.tanh(lib.tensor(Y) @ w))(lib.tensor(W)))


@pytest.mark.parametrize("transform", ["jacrev", "jacfwd"])
def test_jacobian_with_has_aux_returns_the_aux(torch, transform):
    _both(torch, lambda lib, func: getattr(func, transform)(lambda x: (x.sin(), x.cos()), has_aux=True)(lib.tensor(X)))


def test_hessian_is_jacfwd_of_jacrev(torch):
    hess = _both(torch, lambda lib, func: func.hessian(lambda x: _loss(lib, x, lib.tensor(Y)))(lib.tensor(X)))
    assert tuple(hess.shape) == (3, 3)
    _both(torch, lambda lib, func: func.hessian(lambda x, y: _loss(lib, x, y), argnums=(0, 1))(
        lib.tensor(X), lib.tensor(Y)))


def test_jvp_matches_torch_with_pytree_primals_and_aux(torch):
    _both(torch, lambda lib, func: func.jvp(lambda x, y: (y @ x).sin(), (lib.tensor(X), lib.tensor(Y)),
                                            (lib.ones(3, dtype=lib.float64), lib.tensor(Y))))
    _both(torch, lambda lib, func: func.jvp(lambda x: (x.exp(), x * 2), (lib.tensor(X),), (lib.tensor(X),),
                                            has_aux=True))


def test_jvp_errors_match_torch(torch):
    for lib in (torch, core):
        x = lib.tensor(X)
        with pytest.raises(RuntimeError, match="Expected primals to be a tuple"):
            lib.func.jvp(lambda x: x, x, (x,))
        with pytest.raises(RuntimeError, match="Expected primals and tangents to have the same python structure"):
            lib.func.jvp(lambda x: x, (x,), (x, x))
        with pytest.raises(RuntimeError, match="The output of f is independent of the inputs"):
            lib.func.jvp(lambda x, lib=lib: lib.ones(3), (x,), (x,), strict=True)


def test_vmap_maps_over_a_dimension_and_composes_with_grad(torch):
    _both(torch, lambda lib, func: func.vmap(lambda row: (row ** 2).sum())(lib.tensor(BATCH)))
    _both(torch, lambda lib, func: func.vmap(func.grad(lambda x: _loss(lib, x, lib.tensor(Y))))(lib.tensor(BATCH)))
    _both(torch, lambda lib, func: func.vmap(lambda a, w: a @ w, in_dims=(0, None))(lib.tensor(BATCH), lib.tensor(W)))
    _both(torch, lambda lib, func: func.vmap(lambda col: (col, col * 2), in_dims=1, out_dims=(0, 1))(lib.tensor(Y)))


def test_vmap_with_mismatched_batch_sizes_raises(torch):
    for lib in (torch, core):
        with pytest.raises(ValueError, match="Expected all tensors to have the same size in the mapped dimension"):
            lib.func.vmap(lambda a, b: a + b)(lib.tensor(BATCH), lib.tensor(Y))


def test_per_sample_gradients_with_vmap_grad_and_functional_call_match_torch(torch):
    """The PyTorch tutorial's recipe: ``vmap(grad(loss of functional_call(model, params, x)))``."""
    def call(lib, func):
        lib.manual_seed(0)
        model = lib.nn.Linear(3, 2).double()
        with lib.no_grad():
            model.weight.copy_(lib.tensor(W.T))
            model.bias.fill_(0.25)
        params = {k: v.detach() for k, v in model.named_parameters()}

        def loss(params, x, target):
            out = func.functional_call(model, params, (x.unsqueeze(0),))
            return lib.nn.functional.mse_loss(out, target.unsqueeze(0))
        grads = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, lib.tensor(BATCH), lib.tensor(BATCH[:, :2]))
        assert model.weight.requires_grad and tuple(model.weight.shape) == (2, 3)  # the module is restored
        return grads["weight"], grads["bias"]
    _both(torch, call)


FUNCTIONAL_CALL_STATES = {  # what functional_call takes as its state, and torch's words for what it does not
    "a name in two dicts": lambda lib: ({"weight": lib.eye(2)}, {"weight": lib.eye(2), "bias": lib.ones(2)},
                                        {"bias": lib.zeros(2)}),
    "a list holding a number": lambda lib: [{"weight": lib.eye(2)}, 3], "a str": lambda lib: "abc",
    "a set": lambda lib: {1}, "a list of dicts": lambda lib: [{"weight": lib.eye(2)}, {"bias": lib.zeros(2)}],
    "no dicts": lambda lib: (),
}


@pytest.mark.parametrize("state", FUNCTIONAL_CALL_STATES.values(), ids=FUNCTIONAL_CALL_STATES.keys())
def test_functional_call_takes_a_dict_or_dicts_as_torch(torch, state):
    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Linear(2, 2)

        def call():
            return lib.func.functional_call(model, state(lib), lib.ones(1, 2))

        error = raised(call)
        return error, (call() if error is None else None)

    (ours, our_out), (theirs, their_out) = run(core), run(torch)
    assert ours == theirs
    if their_out is not None:
        assert_same(our_out, their_out)
