"""A leaf's first ``.grad`` takes the backward's own gradient array when nothing else can reach it
(``core.autograd.grad_adopt``, PyTorch's AccumulateGrad stealing): the values are torch's either way, and a
gradient anyone else holds (the caller, a hook, a custom Function, another leaf) is copied, so writing into
``.grad`` afterwards changes nothing else."""

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import core
from core.autograd import grad_adopt

N = 64  # 64x64: above grad_adopt.ADOPT_MIN elements, so these gradients may be adopted
EXACT = grad_adopt._COUNTS_EXACT


def _pair(shape=(N, N), seed=0):
    a = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return core.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)


def test_the_threshold_is_below_the_test_shapes():
    assert N * N >= grad_adopt.ADOPT_MIN


_ADOPTION_SCRIPT = """
import core
from core.autograd import leaf_accumulation  # (where _accumulate looks grad_copy up)
copied = []
real = leaf_accumulation.grad_copy
leaf_accumulation.grad_copy = lambda grad, variable: copied.append(grad.shape) or real(grad, variable)
n = 64
model = core.nn.Sequential(core.nn.Linear(n, n * 2), core.nn.ReLU(), core.nn.Linear(n * 2, n))
model(core.randn(n, n)).square().sum().backward()
assert sorted(copied) == [(n,), (n * 2,)], copied  # only the biases, under ADOPT_MIN elements
for p in model.parameters():
    assert p.grad._data.flags.c_contiguous and p.grad._data.flags.writeable
print("adopted")
"""


@pytest.mark.skipif(not EXACT, reason="this interpreter's reference counts are not exact: every gradient is copied")
def test_an_mlps_weight_gradients_are_adopted_not_copied():
    """In a fresh interpreter: a process where something holds every frame's locals (torch's dynamo, once an oracle
    test set a compiler stance) counts more references and copies every gradient (safe, only slower)."""
    env = dict(os.environ, PYTHONPATH=os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", _ADOPTION_SCRIPT], capture_output=True, text=True, env=env,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "adopted"


def _two_steps_gradients():
    core.manual_seed(0)
    model = core.nn.Sequential(core.nn.Linear(N, N * 2), core.nn.Tanh(), core.nn.Linear(N * 2, N))
    x = core.tensor(np.random.default_rng(1).standard_normal((N, N)).astype(np.float32))
    for _ in range(2):  # the second backward adds into the adopted arrays
        model(x).square().sum().backward()
    return model, x


def test_adopted_gradients_have_the_copied_gradients_bits_and_torchs_values(monkeypatch):
    model, x = _two_steps_gradients()
    monkeypatch.setattr(grad_adopt, "_COUNTS_EXACT", False)  # every gradient copied
    copied, _ = _two_steps_gradients()
    t_model = torch.nn.Sequential(torch.nn.Linear(N, N * 2), torch.nn.Tanh(), torch.nn.Linear(N * 2, N))
    with torch.no_grad():
        for pc, pt in zip(model.parameters(), t_model.parameters()):
            pt.copy_(torch.from_numpy(pc.detach().numpy()))
    for _ in range(2):
        t_model(torch.from_numpy(x.numpy())).square().sum().backward()
    for p, q, pt in zip(model.parameters(), copied.parameters(), t_model.parameters()):
        np.testing.assert_array_equal(p.grad.numpy(), q.grad.numpy())
        np.testing.assert_allclose(p.grad.numpy(), pt.grad.numpy(), rtol=1e-4, atol=1e-4)  # (the GEMMs' bits
        assert p.grad.stride() == pt.grad.stride() and p.grad.is_contiguous()  # differ from torch's BLAS)


def test_a_gradient_the_caller_passed_in_is_copied():
    (x, tx), g = _pair(), core.ones(N, N)
    (x + 0).backward(g)
    (tx + 0).backward(torch.ones(N, N))
    x.grad.add_(1)
    tx.grad.add_(1)
    np.testing.assert_array_equal(g.numpy(), np.ones((N, N), np.float32))
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())


def test_two_leaves_given_one_gradient_get_two_arrays():
    (a, _), (b, _) = _pair(seed=1), _pair(seed=2)
    ((a + b) * 3).sum().backward()
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    a.grad.zero_()
    np.testing.assert_array_equal(b.grad.numpy(), np.full((N, N), 3, np.float32))


def test_a_gradient_a_hook_kept_is_not_changed_by_writes_into_grad():
    (x, tx), kept, t_kept = _pair(), [], []
    y, ty = x + 0, tx + 0  # AddBackward passes the gradient its hook saw on to x
    y.register_hook(kept.append)
    ty.register_hook(t_kept.append)
    (y * 3).sum().backward()
    (ty * 3).sum().backward()
    x.grad.mul_(0)
    tx.grad.mul_(0)
    np.testing.assert_array_equal(kept[0].numpy(), t_kept[0].numpy())
    np.testing.assert_array_equal(kept[0].numpy(), np.full((N, N), 3, np.float32))


def test_a_hook_that_kept_the_array_of_a_weights_gradient_sees_it_unchanged():
    lin, kept = core.nn.Linear(N, N), []
    out = lin(core.randn(N, N))
    (transpose_node,) = [fn for fn, _ in out.grad_fn.next_functions if fn is not None and fn.name() == "TBackward0"]
    transpose_node.register_prehook(lambda grads: kept.append(grads[0].numpy()))  # Wᵀ's gradient, seen by W
    out.sum().backward()
    before = kept[0].copy()
    lin.weight.grad.zero_()
    np.testing.assert_array_equal(kept[0], before)
    assert lin.weight.grad.is_contiguous()


def test_a_custom_function_that_keeps_its_gradient_keeps_it_unchanged():
    kept = []

    class Keep(core.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            out = g * 2
            kept.append(out)
            return out

    class KeepTuple(core.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            kept.append((g * 3,))
            return kept[-1]

    for fn in (Keep, KeepTuple):
        kept.clear()
        x, _ = _pair()
        fn.apply(x).sum().backward()
        value = kept[0] if fn is Keep else kept[0][0]
        before = value.numpy().copy()
        x.grad.zero_()
        np.testing.assert_array_equal(value.numpy(), before)


def test_retained_and_create_graph_gradients_stay_separate():
    x, tx = _pair()
    h, th = x * 2, tx * 2
    h.retain_grad()
    th.retain_grad()
    (h * h).sum().backward(create_graph=True)
    (th * th).sum().backward(create_graph=True)
    assert x.grad.grad_fn is not None
    np.testing.assert_array_equal(x.grad.detach().numpy(), tx.grad.detach().numpy())
    h_before = h.grad.detach().numpy().copy()
    x.grad.data.zero_()
    np.testing.assert_array_equal(h.grad.detach().numpy(), h_before)


def test_backward_steps_keep_what_each_step_received():
    x, _ = _pair()
    received = [step.grad_outputs + tuple(step.grad_inputs) for step in core.autograd.backward_steps((x * 2).sum())]
    snapshot = [[g.numpy().copy() for g in grads if g is not None] for grads in received]
    x.grad.fill_(7)
    for grads, snap in zip(received, snapshot):
        for g, s in zip([g for g in grads if g is not None], snap):
            np.testing.assert_array_equal(g.numpy(), s)


def test_a_compiled_steps_gradients_match_torch_and_stay_separate():
    def f(x, w):
        return (x * w).sum()
    step = core.compile(f)
    (x, tx), (w, tw) = _pair(seed=3), _pair(seed=4)
    for _ in range(3):
        x.grad = w.grad = None
        step(x, w).backward()
    f(tx, tw).backward()
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())
    np.testing.assert_array_equal(w.grad.numpy(), tw.grad.numpy())
    x.grad.zero_()
    np.testing.assert_array_equal(w.grad.numpy(), tw.grad.numpy())
    np.testing.assert_array_equal(x.detach().numpy(), tx.detach().numpy())


def test_a_small_leafs_first_grad_is_a_copy_laid_out_as_the_leaf_as_torchs():
    """Gradients under ``ADOPT_MIN`` elements (the engine's short route for a first ``.grad``): a copy of the
    gradient the caller passed (writing into ``.grad`` leaves it alone), a transposed leaf's strides, torch's values;
    a leaf given a ``grad_dtype`` still gets its gradient in that dtype."""
    a = np.random.default_rng(3).standard_normal((3, 5)).astype(np.float32)
    g = np.random.default_rng(4).standard_normal((5, 3)).astype(np.float32)
    found = []
    for lib in (core, torch):
        leaf = lib.tensor(a).t().detach().requires_grad_()
        given = lib.tensor(g)
        (leaf * 2).backward(given)
        leaf.grad.add_(1)
        found.append((leaf.grad.stride(), leaf.grad.numpy().copy(), given.numpy().copy()))
        wide = lib.tensor(a, requires_grad=True)
        wide.grad_dtype = lib.float64
        wide.sum().backward()
        found.append(str(wide.grad.dtype).rpartition(".")[2])
    assert found[0][0] == found[2][0] and found[1] == found[3] == "float64"
    np.testing.assert_array_equal(found[0][1], found[2][1])
    np.testing.assert_array_equal(found[0][2], g)
