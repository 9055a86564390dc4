"""A leaf's first ``.grad`` from ``backward(create_graph=True)``, as PyTorch 2.13's AccumulateGrad makes it.

With ``create_graph`` the new gradient is copied into a tensor laid out as the leaf (``clone_obey_contract``:
``new_empty_strided(...).copy_(grad)``), so ``.grad`` is a fresh tensor whose grad_fn is ``CopyBackwards``, never
the incoming gradient itself, which may be a view (a bias's gradient is the batch sum, reshaped). Second-order
optimizers rely on it: torch_optimizer's Adahessian takes ``torch.autograd.grad`` of the gradients, then calls
``p.grad.detach_()``, which a view refuses. A later backward adds out of place (``AddBackward0``).
"""

import numpy as np

import core


def _grads(lib):
    lib.manual_seed(0)
    w = lib.randn(3, 2, requires_grad=True)
    b = lib.randn(2, requires_grad=True)
    x = lib.randn(4, 3)
    (x @ w + b).tanh().pow(2).sum().backward(create_graph=True)
    return w, b, x


def test_the_first_grad_is_a_copy_with_copybackwards_not_a_view(torch):
    seen = []
    for lib in (core, torch):
        w, b, _ = _grads(lib)
        seen.append([(type(p.grad.grad_fn).__name__, p.grad._base is None, p.grad.is_leaf, p.grad.requires_grad,
                      p.grad.stride()) for p in (w, b)])
    assert seen[0] == seen[1]
    assert seen[0][1][0] == "CopyBackwards"


def test_the_grad_can_be_detached_in_place_after_a_hessian_vector_product(torch):
    flags, numbers = [], []
    for lib in (core, torch):
        w, b, _ = _grads(lib)
        grads = [w.grad, b.grad]
        v = [lib.ones_like(w), lib.ones_like(b)]
        hvs = lib.autograd.grad(grads, [w, b], grad_outputs=v, retain_graph=True)
        for g in grads:
            g.detach_()
        flags.append([(g.requires_grad, g.grad_fn) for g in grads])
        numbers.append([t.detach().numpy() for t in (*grads, *hvs)])
    assert flags[0] == flags[1] == [(False, None)] * 2
    for ours, theirs in zip(*numbers):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-7)


def test_a_second_backward_adds_out_of_place(torch):
    names = []
    for lib in (core, torch):
        w, b, x = _grads(lib)
        first = w.grad
        (x @ w).sum().backward(create_graph=True)
        names.append((type(w.grad.grad_fn).__name__, w.grad is first))
    assert names[0] == names[1] == ("AddBackward0", False)
