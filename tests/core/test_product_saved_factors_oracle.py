"""A product keeps each factor only for the other factor's gradient, against torch: a buffer written in place after
a slice of it was multiplied by a constant still backpropagates (torchode's Runge-Kutta stages, ``k[i] =
f(y0 + dt * einsum("j,jbf->bf", a[i, :i], k[:i]))``), while a factor that is needed and then changed fails the
version check in both. The gradients that do flow are torch's bit for bit (float32, where core's products take
MKL's order).
"""

import numpy as np
import pytest
import torch

import core

RNG = np.random.default_rng(27)
A = RNG.standard_normal((7, 6, 6)).astype(np.float32)
C = RNG.standard_normal((7, 6, 6)).astype(np.float32)
RNG_Y0 = RNG.standard_normal((2, 3)).astype(np.float32)
RNG_W = RNG.standard_normal((3, 3)).astype(np.float32)

PRODUCTS = {  # each: (constant c, buffer slice s) -> a product needing s's gradient only
    "mm": lambda lib, c, s: lib.mm(c[0], s[0]),
    "mm_transposed": lambda lib, c, s: lib.mm(c[0], s[0].t()),
    "bmm": lambda lib, c, s: lib.bmm(c[:2], s[:2]),
    "matmul": lambda lib, c, s: c[:2] @ s[:2],
    "matmul_broadcast": lambda lib, c, s: c[0] @ s[:3],
    "mv": lambda lib, c, s: lib.mv(s[0], c[0, 0]),
    "dot": lambda lib, c, s: lib.dot(c[0, 0], s[0, 0]),
    "vdot": lambda lib, c, s: lib.vdot(s[0, 0], c[0, 0]),
    "einsum_stages": lambda lib, c, s: lib.einsum("j,jbf->bf", c[0, 0], s[:6]),
    "addmm": lambda lib, c, s: lib.addmm(c[1], s[0], c[0]),
    "addmm_transposed": lambda lib, c, s: lib.addmm(c[1], c[0], s[0].t()),
    "addmv": lambda lib, c, s: lib.addmv(c[1, 0], s[0], c[0, 0]),
    "addbmm": lambda lib, c, s: lib.addbmm(c[6], c[:2], s[:2]),
    "baddbmm": lambda lib, c, s: lib.baddbmm(c[:2], s[:2], c[2:4]),
    "addr": lambda lib, c, s: lib.addr(c[0], s[0, 0], c[1, 0]),
    "linear": lambda lib, c, s: lib.nn.functional.linear(c[0], s[0], c[1, 0]),
}


def _run(lib, name, write_after):
    """The product of a constant and a slice of a buffer (computed from a leaf), the buffer written in place at a
    row the product never read, then backward; the leaf's gradient, or the error's text."""
    w = lib.tensor(A, requires_grad=True)
    buffer = w * 1.0
    y = PRODUCTS[name](lib, lib.tensor(C), buffer)
    if write_after:
        buffer[6] = 1.0
    try:
        y.sum().backward()
    except RuntimeError as error:
        return str(error).split(",")[0]
    return w.grad.numpy()


@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_buffer_written_after_a_product_with_a_constant_backpropagates_as_torch(name):
    ours, theirs = _run(core, name, True), _run(torch, name, True)
    assert isinstance(theirs, np.ndarray)
    assert isinstance(ours, np.ndarray), ours
    assert ours.tobytes() == theirs.tobytes()
    assert _run(core, name, False).tobytes() == ours.tobytes()


@pytest.mark.parametrize("name", ["mm", "bmm", "einsum_stages", "addmm", "dot"])
def test_factor_changed_after_its_partner_needed_it_fails_as_torch(name):
    def run(lib):
        w = lib.tensor(A, requires_grad=True)
        c = lib.tensor(C, requires_grad=True)  # the constant now needs its gradient: the buffer's slice is kept
        buffer = w * 1.0
        y = PRODUCTS[name](lib, c, buffer)
        buffer[6] = 1.0
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()

    run(torch)
    run(core)


def test_runge_kutta_stages_through_a_preallocated_buffer_match_torch():
    """torchode's explicit Runge-Kutta step: stages written into ``k`` one by one, each from an einsum over the
    ones before it; the gradient through three steps is torch's bit for bit."""
    tableau = np.tril(RNG.standard_normal((4, 4)), -1).astype(np.float32)

    def run(lib):
        y = lib.tensor(RNG_Y0, requires_grad=True)
        weight = lib.tensor(RNG_W, requires_grad=True)
        a = lib.tensor(tableau)
        state = y
        for _ in range(3):
            k = state.new_empty((4, *state.shape))
            k[0] = lib.tanh(state @ weight)
            for i in range(1, 4):
                y_i = lib.addcmul(state, lib.tensor(0.1), lib.einsum("j,jbf->bf", a[i, :i], k[:i]))
                k[i] = lib.tanh(y_i @ weight)
            state = state + 0.1 * k.mean(0)
        state.pow(2).sum().backward()
        return y.grad.numpy(), weight.grad.numpy()

    for ours, theirs in zip(run(core), run(torch)):
        assert ours.tobytes() == theirs.tobytes()

