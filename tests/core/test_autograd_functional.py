"""``core.autograd.functional`` against ``torch.autograd.functional``: values, nesting, strict mode, create_graph."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

_RNG = np.random.default_rng(11)
X = _RNG.standard_normal(3)
Y = _RNG.standard_normal((2, 3))
V3 = _RNG.standard_normal(3)
V23 = _RNG.standard_normal((2, 3))


def _both(torch, call):
    """``call(lib, F)`` with ``F`` = lib.autograd.functional, in core and in torch (float64 inputs)."""
    return call(core, core.autograd.functional), call(torch, torch.autograd.functional)


def _tracked(tree):
    """The requires_grad flags of a nested result, for comparing graphs' presence."""
    if isinstance(tree, (tuple, list)):
        return tuple(_tracked(t) for t in tree)
    return tree.requires_grad


def _cubic(lib, x):
    return (x ** 3).sum() + (x[0] * x[1]).exp()


def _pair(lib, x, y):
    return (x * y).sum(0) + lib.sin(x), (y ** 2).sum()


def _check(torch, call, tracked=None):
    ours, theirs = _both(torch, call)
    assert_same(ours, theirs)
    assert _tracked(ours) == _tracked(theirs)
    if tracked is not None:
        assert set(np.ravel(_tracked(ours))) == {tracked}
    return ours


def test_jacobian_of_a_tensor_function_matches_torch(torch):
    _check(torch, lambda lib, F: F.jacobian(lambda x: lib.tanh(x) * x.sum(), lib.tensor(X)), tracked=False)


def test_jacobian_of_a_tuple_function_of_tuple_inputs_is_a_tuple_of_tuples(torch):
    jac = _check(torch, lambda lib, F: F.jacobian(lambda x, y: _pair(lib, x, y), (lib.tensor(X), lib.tensor(Y))))
    assert [[tuple(b.shape) for b in row] for row in jac] == [[(3, 3), (3, 2, 3)], [(3,), (2, 3)]]


def test_jacobian_nests_by_inputs_for_one_output_and_by_outputs_for_one_input(torch):
    _check(torch, lambda lib, F: F.jacobian(lambda x, y: (x * y).sum(0), (lib.tensor(X), lib.tensor(Y))))
    _check(torch, lambda lib, F: F.jacobian(lambda x: (x.exp(), x.sum()), lib.tensor(X)))


@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
def test_vectorized_jacobian_gives_the_same_values(torch, strategy):
    _check(torch, lambda lib, F: F.jacobian(lambda x, y: _pair(lib, x, y), (lib.tensor(X), lib.tensor(Y)),
                                            vectorize=True, strategy=strategy))


def test_jacobian_with_create_graph_can_be_differentiated_again(torch):
    def call(lib, F):
        x = lib.tensor(X, requires_grad=True)
        jac = F.jacobian(lambda x: lib.sigmoid(x) * x.sum(), x, create_graph=True)
        (jac ** 2).sum().backward()
        return jac, x.grad
    _check(torch, call)


def test_strict_jacobian_raises_for_an_output_independent_of_an_input(torch):
    for lib in (torch, core):
        with pytest.raises(RuntimeError, match="Output 0 of the user-provided function is independent of input 1"):
            lib.autograd.functional.jacobian(lambda x, y: x * 2, (lib.tensor(X), lib.tensor(X)), strict=True)


def test_non_strict_jacobian_gives_zeros_for_an_unused_input(torch):
    jac = _check(torch, lambda lib, F: F.jacobian(lambda x, y: x * 2, (lib.tensor(X), lib.tensor(X))))
    assert not core.any(jac[1])


@pytest.mark.parametrize("kwargs, error, message", [
    ({"strategy": "sideways"}, AssertionError, "Expected strategy to be either"),
    ({"strategy": "forward-mode"}, NotImplementedError, "only implemented for `vectorize=True`"),
    ({"strategy": "forward-mode", "create_graph": True}, NotImplementedError, "`create_graph=True` and"),
    ({"strategy": "forward-mode", "strict": True}, RuntimeError, "`strict=True` and `strategy"),
    ({"vectorize": True, "strict": True}, RuntimeError, "`strict=True` and `vectorized=True`"),
])
def test_unsupported_jacobian_options_raise_like_torch(torch, kwargs, error, message):
    for lib in (torch, core):
        with pytest.raises(error, match=message):
            lib.autograd.functional.jacobian(lambda x: x.exp(), lib.tensor(X), **kwargs)


def test_hessian_of_one_and_of_several_inputs_matches_torch(torch):
    _check(torch, lambda lib, F: F.hessian(lambda x: _cubic(lib, x), lib.tensor(X)))
    hess = _check(torch, lambda lib, F: F.hessian(lambda x, y: (x * y).sum() * x.sum(), (lib.tensor(X), lib.tensor(Y))))
    assert [[tuple(b.shape) for b in row] for row in hess] == [[(3, 3), (3, 2, 3)], [(2, 3, 3), (2, 3, 2, 3)]]


def test_hessian_with_a_forward_mode_outer_jacobian_matches_torch(torch):
    ours, theirs = _both(torch, lambda lib, F: F.hessian(lambda x: _cubic(lib, x), lib.tensor(X), vectorize=True,
                                                         outer_jacobian_strategy="forward-mode"))
    assert_same(ours, theirs)


def test_hessian_of_a_non_scalar_function_raises(torch):
    for lib in (torch, core):
        with pytest.raises(RuntimeError, match="should contain a single element"):
            lib.autograd.functional.hessian(lambda x: x * x, lib.tensor(X))
        with pytest.raises(RuntimeError, match="should return a single Tensor"):
            lib.autograd.functional.hessian(lambda x: (x.sum(), x.sum()), lib.tensor(X))


def test_strict_hessian_of_a_linear_function_raises(torch):
    for lib in (torch, core):
        with pytest.raises(RuntimeError, match="jacobian of the user-provided function with respect to input 0 is "
                                               "independent of the input"):
            lib.autograd.functional.hessian(lambda x: (x * 2).sum(), lib.tensor(X), strict=True)


@pytest.mark.parametrize("name", ["vjp", "jvp"])
def test_vector_products_of_tuple_functions_match_torch(torch, name):
    def call(lib, F):
        x, y = lib.tensor(X), lib.tensor(Y)
        v = (lib.tensor(V3), lib.tensor(7.0)) if name == "vjp" else (lib.tensor(V3), lib.tensor(V23))
        return getattr(F, name)(lambda x, y: _pair(lib, x, y), (x, y), v)
    _check(torch, call, tracked=False)


@pytest.mark.parametrize("name", ["vhp", "hvp"])
def test_hessian_vector_products_match_torch(torch, name):
    _check(torch, lambda lib, F: getattr(F, name)(lambda x: _cubic(lib, x), lib.tensor(X), lib.tensor(V3)))
    _check(torch, lambda lib, F: getattr(F, name)(lambda x, y: (x * y).sum() ** 2, (lib.tensor(X), lib.tensor(Y)),
                                                  (lib.tensor(V3), lib.tensor(V23))))


@pytest.mark.parametrize("name", ["vjp", "jvp", "vhp", "hvp"])
def test_create_graph_gives_results_with_a_graph_to_the_inputs(torch, name):
    def call(lib, F):
        x = lib.tensor(X, requires_grad=True)
        out, prod = getattr(F, name)(lambda x: _cubic(lib, x), x, lib.tensor(V3) if name != "vjp" else None,
                                     create_graph=True)
        (prod.sum() + out).backward()
        return out, prod, x.grad
    _check(torch, call)


@pytest.mark.parametrize("name", ["vjp", "jvp", "vhp", "hvp"])
def test_v_may_be_left_out_only_for_a_single_element(torch, name):
    _check(torch, lambda lib, F: getattr(F, name)(lambda x: (x ** 3).sum(), lib.tensor([2.0])))
    for lib in (torch, core):
        with pytest.raises(RuntimeError, match="The vector v can only be None if the"):
            getattr(lib.autograd.functional, name)(lambda x: (x ** 3).sum() * x, lib.tensor(X))


def test_a_v_of_the_wrong_size_or_length_raises_torch_message(torch):
    for lib in (torch, core):
        F = lib.autograd.functional
        with pytest.raises(RuntimeError, match=r"v has invalid size: should be torch.Size\(\[3\]\) but got"):
            F.vjp(lambda x: x * 2, lib.tensor(X), lib.tensor(V23))
        with pytest.raises(RuntimeError, match="v is a tuple of invalid length: should be 2 but got 1"):
            F.jvp(lambda x, y: x * y, (lib.tensor(X), lib.tensor(X)), (lib.tensor(V3),))
        with pytest.raises(RuntimeError, match="Entry 1 in v has invalid size"):
            F.vjp(lambda x: (x, x * 2), lib.tensor(X), (lib.tensor(V3), lib.tensor(V23)))


def test_inputs_that_are_not_tensors_raise_type_error(torch):
    for lib in (torch, core):
        with pytest.raises(TypeError, match="The inputs given to jacobian must be either a Tensor or a tuple of "
                                            "Tensors but the given inputs has type <class 'list'>"):
            lib.autograd.functional.jacobian(lambda x: x, [lib.tensor(X)])
        with pytest.raises(TypeError, match="but the value at index 1 has type <class 'float'>"):
            lib.autograd.functional.vjp(lambda x, y: x, (lib.tensor(X), 2.0))


@pytest.mark.parametrize("name, message", [
    ("vjp", "The output of the user-provided function is independent of input 1"),
    ("jvp", "The output of the user-provided function is independent of input 1"),
    ("vhp", "The output of the user-provided function is independent of input 1"),
])
def test_strict_products_raise_for_an_independent_input(torch, name, message):
    for lib in (torch, core):
        x = (lib.tensor(X), lib.tensor(X))
        v = None if name == "vjp" else x
        with pytest.raises(RuntimeError, match=message):
            getattr(lib.autograd.functional, name)(lambda a, b: (a ** 3).sum(), x, v, strict=True)


def test_strict_mode_raises_for_an_output_that_does_not_require_grad(torch):
    for lib in (torch, core):
        with pytest.raises(RuntimeError, match="Output 0 of the user-provided function does not require gradients"):
            lib.autograd.functional.vjp(lambda x, lib=lib: lib.ones(()), lib.tensor(X), strict=True)


def test_the_chapters_higher_order_gradients_gradient_penalty_and_maml_step_match_torch(torch):
    """The chapter: "pass create_graph=True ... required for gradient penalty terms in WGAN-GP and for
    MAML-style inner loops"; the functional Hessian agrees with the second derivative built by hand."""
    def call(lib, F):
        w = lib.tensor(V23, requires_grad=True)
        x = lib.tensor(X, requires_grad=True)
        critic = lib.tanh(w @ x).sum()
        (gx,) = lib.autograd.grad(critic, x, create_graph=True)
        penalty = (gx.norm() - 1) ** 2                                     # WGAN-GP
        (gw,) = lib.autograd.grad(((w @ x) ** 2).sum(), w, create_graph=True)
        adapted = w - 0.1 * gw                                             # MAML inner step
        rows = [lib.autograd.grad(gx[i], x, retain_graph=True)[0] for i in range(3)]
        (penalty + lib.sigmoid(adapted @ x).sum()).backward()
        hess = F.hessian(lambda x: lib.tanh(w.detach() @ x).sum(), x.detach())
        assert np.allclose(lib.stack(rows).detach().numpy(), hess.numpy())
        return penalty, w.grad, x.grad, hess
    _check(torch, call)
