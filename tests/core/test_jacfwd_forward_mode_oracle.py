"""``core.func.jacfwd`` and ``hessian`` push tangents forward as ``torch.func``'s do: same values, and the same signs
of the zeros a forward column gives (a printed Hessian shows ``-0.0000`` where its row's entry is negative)."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, to_numpy

_RNG = np.random.default_rng(11)
X = _RNG.standard_normal(5).astype(np.float32)
Y = _RNG.standard_normal(3).astype(np.float32)


def _same_bits(ours, theirs):
    """Values as the oracle compares them, and each zero's sign."""
    ours = ours if isinstance(ours, tuple) else (ours,)
    theirs = theirs if isinstance(theirs, tuple) else (theirs,)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert_same(a, b)
        assert (np.signbit(to_numpy(a)) == np.signbit(to_numpy(b))).all()


def _both(torch, call):
    _same_bits(call(core, core.tensor(X), core.tensor(Y)), call(torch, torch.tensor(X), torch.tensor(Y)))


def test_hessian_of_a_sum_of_sines_has_the_zero_signs_of_forward_columns(torch):
    _both(torch, lambda lib, x, y: lib.func.hessian(lambda v: v.sin().sum())(x))


def test_jacfwd_of_an_elementwise_function_has_torchs_zero_signs(torch):
    _both(torch, lambda lib, x, y: lib.func.jacfwd(lambda v: v.cos() * 2)(x))


def test_jacfwd_with_two_argnums_gives_zero_tangents_to_the_other_input(torch):
    _both(torch, lambda lib, x, y: lib.func.jacfwd(lambda a, b: (a[:3] * b).cos(), argnums=(0, 1))(x, y))


def test_jacfwd_with_has_aux_returns_the_aux_as_computed(torch):
    def call(lib, x, y):
        jac, aux = lib.func.jacfwd(lambda v: (v.tanh(), v.sum()), has_aux=True)(x)
        return jac, aux
    _both(torch, call)


def test_hessian_of_a_linear_model_loss_matches_torch(torch):
    def call(lib, x, y):
        w = lib.tensor(np.linspace(-1, 1, 15, dtype=np.float32).reshape(3, 5))
        return lib.func.hessian(lambda v: ((w @ v).tanh() - y).pow(2).sum())(x)
    _both(torch, call)


def test_jacfwd_inside_jacfwd_gives_the_second_derivative(torch):
    # (forward over forward: the inner jacfwd has a level of its own, as functorch's nested transforms)
    _both(torch, lambda lib, x, y: lib.func.jacfwd(lib.func.jacfwd(lambda v: (v ** 3).sum()))(x))


def test_jacfwd_of_an_empty_input_has_an_empty_jacobian(torch):
    _both(torch, lambda lib, x, y: lib.func.jacfwd(lambda v: v * 2)(x[:0]))


def test_jacfwd_refuses_an_unknown_randomness_when_called_as_torch(torch):
    for lib in (core, torch):
        jacobian = lib.func.jacfwd(lambda v: v, randomness="sometimes")  # built without complaint
        with pytest.raises(RuntimeError, match="Only allowed values for randomness are 'error', 'different', or "
                                               "'same'. Got sometimes"):
            jacobian(lib.ones(2))
