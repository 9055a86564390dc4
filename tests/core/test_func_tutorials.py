"""What PyTorch's torch.func tutorials rely on (Jacobians, per-sample gradients, ensembling), against torch.

A Jacobian from ``vjp``/``jacrev`` must equal the rows of plain ``autograd.grad`` bit for bit, as in torch,
since the tutorials ``assert torch.allclose`` between them with the default tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, to_numpy


def _predict(lib, weight, bias, x):
    return lib.nn.functional.linear(x, weight, bias).tanh()


def _data(lib, d=16):
    rng = np.random.default_rng(0)
    return [lib.tensor(rng.standard_normal(s).astype(np.float32)) for s in ((d, d), (d,), (d,))]


def _rows_and_vjp(lib, d=16):
    weight, bias, x = _data(lib, d)
    xp = x.clone().requires_grad_()
    rows = lib.stack([lib.autograd.grad(_predict(lib, weight, bias, xp), xp, v)[0] for v in lib.eye(d)])
    _, vjp_fn = lib.func.vjp(lambda x: _predict(lib, weight, bias, x), x)
    return rows, lib.func.vmap(vjp_fn)(lib.eye(d))[0]


def test_vjp_jacobian_of_tanh_equals_plain_autograd_rows_bit_for_bit(torch):
    rows, jac = _rows_and_vjp(core)
    assert np.array_equal(to_numpy(rows), to_numpy(jac))
    assert_same(jac, _rows_and_vjp(torch)[1])


def test_tanh_gradient_with_create_graph_equals_the_plain_gradient_and_torchs(torch):
    def grads(lib, create_graph):
        x = lib.tensor(np.linspace(-3, 3, 101, dtype=np.float32), requires_grad=True)
        return lib.autograd.grad(x.tanh(), x, lib.ones(101) * 0.37, create_graph=create_graph)[0]

    ours = grads(core, True)
    assert np.array_equal(to_numpy(ours), to_numpy(grads(core, False)))
    assert np.array_equal(to_numpy(ours), to_numpy(grads(torch, True)))
    assert ours.grad_fn.name() == grads(torch, True).grad_fn.name() == "TanhBackwardBackward0"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_second_derivatives_through_tanh_match_torch(torch, dtype):
    def second(lib):
        x = lib.tensor(np.linspace(-2, 2, 9), dtype=getattr(lib, dtype), requires_grad=True)
        y = x.tanh()
        g, = lib.autograd.grad(y, x, lib.ones_like(y) * 1.5, create_graph=True)
        gg, = lib.autograd.grad((g * g).sum(), x, create_graph=True)
        return g, gg, lib.autograd.grad(gg.sum(), x)[0]

    for ours, theirs in zip(second(core), second(torch)):
        assert_same(ours, theirs, rtol=1e-6, atol=1e-7)


def test_hessian_of_a_tanh_layer_matches_torch(torch):
    def hess(lib):
        weight, bias, x = _data(lib, 5)
        return lib.func.hessian(lambda x: _predict(lib, weight, bias, x), argnums=0)(x)

    assert_same(hess(core), hess(torch), rtol=1e-5, atol=1e-6)


def _models(lib, n=3):
    lib.manual_seed(0)
    return [lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.BatchNorm1d(3)) for _ in range(n)]


def test_stack_module_state_stacks_parameters_as_fresh_leaves_and_buffers_as_they_are(torch):
    (cp, cb), (tp, tb) = core.func.stack_module_state(_models(core)), torch.func.stack_module_state(_models(torch))
    assert list(cp) == list(tp) and list(cb) == list(tb)
    for ours, theirs in [*zip(cp.values(), tp.values()), *zip(cb.values(), tb.values())]:
        assert_same(ours, theirs)
        assert ours.requires_grad == theirs.requires_grad and ours.is_leaf == theirs.is_leaf


def test_vmap_of_functional_call_over_stacked_models_equals_each_model_and_torch(torch):
    def ensemble(lib):
        models = [m.eval() for m in _models(lib)]
        params, buffers = lib.func.stack_module_state(models)
        x = lib.arange(8.0).reshape(2, 4) / 8
        fmodel = lib.vmap(lambda p, b, x: lib.func.functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))
        return fmodel(params, buffers, x), lib.stack([m(x) for m in models])

    (ours, loop), (theirs, _) = ensemble(core), ensemble(torch)
    assert_same(ours, theirs)
    assert_same(ours, loop)


def test_vmap_over_stacked_models_in_training_mode_updates_each_models_buffers_once_as_torch(torch):
    def ensemble(lib):
        params, buffers = lib.func.stack_module_state(_models(lib))
        base = _models(lib, 1)[0].to("meta")
        x = lib.linspace(-1.0, 1.0, 3 * 5 * 4).reshape(3, 5, 4)
        out = lib.vmap(lambda p, b, x: lib.func.functional_call(base, (p, b), (x,)))(params, buffers, x)
        return out, buffers

    (ours, our_buffers), (theirs, their_buffers) = ensemble(core), ensemble(torch)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)
    assert list(our_buffers) == list(their_buffers)
    for name in their_buffers:
        assert_same(our_buffers[name], their_buffers[name], rtol=1e-5, atol=1e-6)
    assert our_buffers["1.num_batches_tracked"].tolist() == [1, 1, 1]


@pytest.mark.parametrize("models, error", [
    (lambda lib: [], "Expected at least one model, got 0."),
    (lambda lib: [lib.nn.Linear(2, 2), lib.nn.Linear(2, 2).eval()], "same training/eval mode"),
    (lambda lib: [lib.nn.Linear(2, 2), lib.nn.Conv1d(2, 2, 1)], "same class"),
])
def test_stack_module_state_refuses_what_torch_refuses(torch, models, error):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match=error):
            lib.func.stack_module_state(models(lib))


def test_torch_vmap_is_torch_func_vmap():
    from core import vmap

    assert vmap is core.func.vmap


def test_linearize_gives_the_output_and_a_jvp_function_as_torch(torch):
    def run(lib):
        primals = lib.tensor([0.5, 1.0]), lib.tensor([2.0, 3.0])
        out, jvp_fn = lib.func.linearize(lambda x, y: (x.sin() * y, x + y), *primals)
        return out, jvp_fn(lib.ones(2), lib.zeros(2)), jvp_fn(lib.tensor([2.0, -1.0]), lib.tensor([0.5, 0.5]))

    for ours, theirs in zip(run(core), run(torch)):
        assert_same(ours, theirs)


def test_linearize_refuses_a_tangent_of_another_shape_with_torchs_message(torch):
    for lib in (core, torch):
        _, jvp_fn = lib.func.linearize(lambda x: x * 2, lib.ones(2))
        with pytest.raises(RuntimeError, match=r"tangent:0 with shape .*\[3\]\) in flattened pytree doesn't match "
                                               r"the shape .*\[2\]\) of the corresponding primal"):
            jvp_fn(lib.ones(3))


def test_functionalize_computes_what_the_function_computes_and_checks_remove(torch):
    def f(x):
        y = x.clone()
        y.mul_(3).add_(1)
        return y

    assert_same(core.func.functionalize(f)(core.arange(3.0)), torch.func.functionalize(f)(torch.arange(3.0)))
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="received invalid argument for remove=views"):
            lib.func.functionalize(f, remove="views")


def test_replace_all_batch_norm_modules_stops_tracking_running_statistics(torch):
    for lib in (core, torch):
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.BatchNorm1d(2),
                                  lib.nn.BatchNorm1d(2, track_running_stats=False))
        assert lib.func.replace_all_batch_norm_modules_(model) is model
        bn = model[1]
        assert (bn.running_mean, bn.running_var, bn.num_batches_tracked, bn.track_running_stats) == (None, None, None,
                                                                                                      False)
        model(lib.randn(4, 2))  # trains on batch statistics, writes nothing


def test_jacrev_of_several_outputs_equals_torchs_bit_for_bit_signed_zeros_included(torch):
    def jac(lib):
        x = lib.tensor([-0.3, 1.2, 2.5])
        return lib.func.jacrev(lambda a: (a.sin() * 2, a.cos().sum()))(x)

    for ours, theirs in zip(jac(core), jac(torch)):
        assert np.array_equal(to_numpy(ours), to_numpy(theirs))
        assert np.array_equal(np.signbit(to_numpy(ours)), np.signbit(to_numpy(theirs)))


def test_grad_of_an_integer_input_raises_torch_funcs_error(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
            lib.func.grad(lambda a: (a * 2).sum())(lib.arange(3))


def test_strict_functional_call_names_unexpected_and_missing_keys_as_torch(torch):
    messages = []
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            lib.func.functional_call(lib.nn.Linear(2, 2), {"weight": lib.ones(2, 2), "x": lib.ones(1)},
                                     (lib.ones(1, 2),), strict=True)
        messages.append(str(info.value))
    assert messages[0] == messages[1] == ("Error(s) in reparametrizing for Linear:\n\tUnexpected key(s): 'x'.\n\t"
                                          "Missing key(s): 'bias'.")


@pytest.mark.parametrize("fn", [lambda lib, a: lib.nn.functional.softmax(a, 0), lambda lib, a: a / (1 + a * a)],
                         ids=["softmax", "div"])
def test_jacrev_of_softmax_and_division_equals_torchs_bit_for_bit(torch, fn):
    def jac(lib):
        return lib.func.jacrev(lambda t: fn(lib, t))(lib.tensor([0.3, -1.2, 2.0, 0.7]))

    assert np.array_equal(to_numpy(jac(core)), to_numpy(jac(torch)))


@pytest.mark.parametrize("transform", [
    lambda lib, f: lib.func.grad(f, has_aux=True)(lib.ones(3)),
    lambda lib, f: lib.func.vjp(f, lib.ones(3), has_aux=True),
    lambda lib, f: lib.func.jacrev(f, has_aux=True)(lib.ones(3)),
    lambda lib, f: lib.func.jvp(f, (lib.ones(3),), (lib.ones(3),), has_aux=True),
], ids=["grad", "vjp", "jacrev", "jvp"])
def test_an_aux_output_that_is_no_tensor_raises_torchs_error(torch, transform):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="Expected tensors, got unsupported type <class 'str'>"):
            transform(lib, lambda a: (a.sum(), "label"))


def test_jvp_refuses_a_tangent_of_another_size_with_torchs_message(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match=r"Tensor is of size \[3\] while the given forward gradient is of size "
                                               r"\[4\]"):
            lib.func.jvp(lambda a: a * 2, (lib.ones(3),), (lib.ones(4),))
