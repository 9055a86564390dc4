"""``jacfwd`` pushes every basis direction through one call of the function (a batch of tangents, as PyTorch's
``vmap`` over ``jvp``): values, dtypes and the signs of zeros are torch's, whether an op's tangent rule runs on
the whole batch (elementwise ops, matrix products) or once per direction (the others)."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, to_numpy

_RNG = np.random.default_rng(5)
X = _RNG.standard_normal((2, 3)).astype(np.float32)
X[0, 1] = 0.0
W = _RNG.standard_normal((4, 3)).astype(np.float32)


def _same_bits(ours, theirs):
    ours = ours if isinstance(ours, tuple) else (ours,)
    theirs = theirs if isinstance(theirs, tuple) else (theirs,)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert_same(a, b)
        assert (np.signbit(to_numpy(a)) == np.signbit(to_numpy(b))).all()


FUNCTIONS = {
    "elementwise": lambda lib, x: (x.sin() * x.cos() - x.exp() / 3).tanh(),
    "broadcast": lambda lib, x: x * lib.arange(3.0) + x[:1] ** 2,
    "where_clamp": lambda lib, x: lib.where(x > 0, x.clamp(max=0.5), -x),
    "matmul": lambda lib, x: lib.tensor(W) @ x.T @ x,
    "matrix_vector": lambda lib, x: lib.mv(lib.tensor(W), x[0]).sigmoid(),
    "reductions": lambda lib, x: lib.stack([x.sum(0), x.mean(1).repeat(2)[:3], x.amax(0)]),
    "softmax": lambda lib, x: lib.softmax(x, 1) * lib.log_softmax(x, 0),
    "views": lambda lib, x: lib.cat([x.reshape(3, 2).T, x.flip(1)], 0)[:, 1:].unsqueeze(0).expand(2, 4, 2),
    "norm": lambda lib, x: x / x.norm(),
    "linear_relu": lambda lib, x: lib.nn.functional.relu(lib.nn.functional.linear(x, lib.tensor(W))).sum(-1),
    "constant": lambda lib, x: lib.ones(2),
}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_jacfwd_equals_torchs_bit_for_bit_signs(torch, name):
    fn = FUNCTIONS[name]
    _same_bits(core.func.jacfwd(lambda v: fn(core, v))(core.tensor(X)),
               torch.func.jacfwd(lambda v: fn(torch, v))(torch.tensor(X)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_jacfwd_keeps_the_inputs_dtype(torch, dtype):
    out = [lib.func.jacfwd(lambda v, lib=lib: (v * v).sum(0))(lib.tensor(X.astype(dtype))) for lib in (core, torch)]
    _same_bits(out[0], out[1])


def test_jacfwd_over_several_argnums_and_outputs(torch):
    def call(lib):
        fn = lambda a, b: ((a[0] * b).cos(), (a * 2).sum())  # noqa: E731
        return lib.func.jacfwd(fn, argnums=(0, 1))(lib.tensor(X), lib.tensor(W[0]))
    ours, theirs = call(core), call(torch)
    for o, t in zip(ours, theirs):
        _same_bits(o, t)


def test_jacfwd_with_aux_and_a_scalar_input(torch):
    out = [lib.func.jacfwd(lambda v, lib=lib: (v.exp() * 3, v + 1), has_aux=True)(lib.tensor(0.5))
           for lib in (core, torch)]
    _same_bits(out[0], out[1])


def test_jacfwd_of_an_empty_input(torch):
    out = [lib.func.jacfwd(lambda v: v * 2)(lib.ones(0)) for lib in (core, torch)]
    _same_bits(out[0], out[1])


def test_jacfwd_runs_the_function_once_for_all_directions():
    calls = []

    def fn(v):
        calls.append(1)
        return (v * v).softmax(0)

    jac = core.func.jacfwd(fn)(core.arange(100.0))
    assert len(calls) == 1 and tuple(jac.shape) == (100, 100)


def test_jacfwd_through_an_op_without_a_tangent_rule_per_direction(torch):
    out = [lib.func.jacfwd(lambda v, lib=lib: lib.nn.functional.gelu(v) * v)(lib.tensor(X)) for lib in (core, torch)]
    _same_bits(out[0], out[1])


def test_plain_forward_ad_is_unchanged_by_batching(torch):
    out = []
    for lib in (core, torch):
        fwAD = lib.autograd.forward_ad
        with fwAD.dual_level():
            dual = fwAD.make_dual(lib.tensor(X), lib.ones(2, 3))
            out.append(fwAD.unpack_dual(lib.softmax(dual * dual, 1)).tangent)
    _same_bits(out[0], out[1])


# ----- jacfwd inside jacfwd: forward over forward, the inner transform on a level of its own ------------------
NESTED = {
    "sin": lambda lib, x: x.sin(),
    "cos_sum": lambda lib, x: x.cos().sum(),
    "cubic": lambda lib, x: (x ** 3).sum() * x,
    "product": lambda lib, x: x * x.flip(0),
    "tanh_matrix": lambda lib, x: lib.tanh(lib.tensor(W[:3]) @ x),
    "softmax": lambda lib, x: lib.softmax(x, 0),
    "exp_div": lambda lib, x: x.exp() / (1 + x * x),
}
V = np.array([0.5, -1.0, 2.0], dtype=np.float32)


@pytest.mark.parametrize("name", list(NESTED))
def test_jacfwd_of_jacfwd_has_torchs_values_and_zero_signs(torch, name):
    fn = NESTED[name]
    _same_bits(core.func.jacfwd(core.func.jacfwd(lambda v: fn(core, v)))(core.tensor(V)),
               torch.func.jacfwd(torch.func.jacfwd(lambda v: fn(torch, v)))(torch.tensor(V)))


def test_hessian_and_jacfwd_of_jacrev_match_torch(torch):
    fn = NESTED["tanh_matrix"]
    for transform in ("hessian", "jacfwd_jacrev"):
        out = []
        for lib in (core, torch):
            f = lambda v, lib=lib: fn(lib, v).sum()  # noqa: E731
            g = lib.func.hessian(f) if transform == "hessian" else lib.func.jacfwd(lib.func.jacrev(f))
            out.append(g(lib.tensor(V)))
        _same_bits(out[0], out[1])


def test_jacfwd_of_jacfwd_runs_the_function_once():
    calls = []

    def fn(v):
        calls.append(1)
        return v.sin() * v

    jac = core.func.jacfwd(core.func.jacfwd(fn))(core.arange(10.0))
    assert len(calls) == 1 and tuple(jac.shape) == (10, 10, 10)


def test_a_users_dual_level_still_refuses_nesting(torch):
    for lib in (core, torch):
        fwAD = lib.autograd.forward_ad
        with fwAD.dual_level():
            with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported"):
                fwAD.enter_dual_level()


def test_masked_fill_of_a_0d_tensor_stays_0d_as_torch(torch):
    out = [lib.tensor(2.0).masked_fill(lib.tensor(True), 1.5) for lib in (core, torch)]
    assert_same(out[0], out[1])
    out = [lib.tensor(2.0).masked_fill(lib.tensor(False), 1.5) for lib in (core, torch)]
    assert_same(out[0], out[1])
