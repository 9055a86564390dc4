"""``dist``'s, ``linalg.vector_norm``'s and ``torch.norm``'s gradients under ``create_graph=True`` as PyTorch's
``norm_backward`` records them, for every kind of p (1 through ``sgn``, 2, p < 1, 1 < p < 2, p > 2, +-inf, 0):
the first-order gradient's graph (node names, in ``next_functions`` order) and the second-order gradient, bit for
bit. A Hessian-vector product or a gradient penalty through a p-norm (WGAN-GP with p = 1, robust losses) reads
that graph; before, p = 1 and +-inf gave a gradient that did not require grad, and other p recorded extra nodes."""

import numpy as np
import pytest

import core

PS = [1.0, 3.0, 1.5, 0.5, -1.0, float("inf"), float("-inf"), 2.0]
# NOTE: p = 0 is checked where its undefined gradient reaches a leaf directly: through another node core's engine
# hands that node zeros where torch passes the undefined gradient on (x.grad stays None there)
X = np.array([[1.0, -2.0, 3.0, 0.0], [0.5, 0.0, -4.0, 2.5], [-1.5, 1.5, 0.25, -3.0]])
Y = np.array([[0.0, 1.0, -1.0, 0.0], [1.5, 0.0, 2.0, -0.5], [-1.5, -2.0, 1.0, 0.75]])


def _graph(fn):
    """The graph below ``fn``, as nested (name, children) in ``next_functions`` order."""
    if fn is None:
        return None
    return fn.name(), tuple(_graph(child) for child, _ in fn.next_functions)


def _both_orders(lib, make, dtype, wrt_both, p):
    """The first-order gradient's graph and requires_grad, and the second-order gradient's bytes."""
    x = lib.tensor(X.astype(dtype), requires_grad=True)
    # (p < 0: no zero difference, whose zero norm gives NaNs and signed zeros whose signs are not the point here)
    y = lib.tensor((Y + 0.125 * (p < 0)).astype(dtype), requires_grad=True)
    wrt = (x, y) if wrt_both else (x,)
    grads = lib.autograd.grad(make(lib, x, y), wrt, create_graph=True, allow_unused=True)
    if grads[0] is None:  # p = 0: torch leaves the gradient undefined
        return None
    graphs = [(_graph(g.grad_fn), g.requires_grad) for g in grads]
    if not grads[0].requires_grad:
        return graphs, [g.detach().numpy().tobytes() for g in grads]
    penalty = sum(((g * g).sum() for g in grads), lib.tensor(0.0, dtype=grads[0].dtype))
    second = lib.autograd.grad(penalty, wrt, allow_unused=True)
    return graphs, [None if s is None else s.detach().clone().numpy().tobytes() for s in second]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("p, wrt_both", [(p, False) for p in [*PS, 0.0]] + [(p, True) for p in PS])
def test_dist_double_backward_records_torchs_norm_backward(torch, p, dtype, wrt_both):
    def make(lib, x, y):
        return lib.dist(x, y, p)

    assert _both_orders(core, make, dtype, wrt_both, p) == _both_orders(torch, make, dtype, wrt_both, p)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("p", PS)
@pytest.mark.parametrize("dim, keepdim", [(None, False), (1, False), (-2, True), ((0, 1), False), ((1, 0), True)])
def test_vector_norm_double_backward_records_torchs_norm_backward(torch, p, dtype, dim, keepdim):
    def make(lib, x, y):
        return (lib.linalg.vector_norm(x * y + x, p, dim=dim, keepdim=keepdim) * 1.5).sum()

    assert _both_orders(core, make, dtype, False, p) == _both_orders(torch, make, dtype, False, p)


@pytest.mark.parametrize("p", PS)
@pytest.mark.parametrize("dim", [None, 0, (0, 1)])
def test_torch_norm_double_backward_records_torchs_norm_backward(torch, p, dim):
    def make(lib, x, y):
        return lib.norm(x - y, p, dim).sum()

    assert _both_orders(core, make, np.float64, False, p) == _both_orders(torch, make, np.float64, False, p)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [5, 17, 100, 1000])
@pytest.mark.parametrize("p", [3.0, 0.5, 1.5, -1.0, 4.0])
def test_general_p_norms_add_in_torchs_order(torch, p, dtype, n):
    """The forward the double backward starts from: PyTorch's in-order ``NormOps`` sum, float64 as float32."""
    x = (np.random.default_rng(n).standard_normal((6, n)) * 3).astype(dtype)
    theirs = torch.linalg.vector_norm(torch.tensor(x), p, dim=1).numpy()
    assert core.linalg.vector_norm(core.tensor(x), p, dim=1).numpy().tobytes() == theirs.tobytes()
    assert core.norm(core.tensor(x), p, dim=1).numpy().tobytes() == theirs.tobytes()
    assert core.dist(core.tensor(x), core.tensor(x[::-1].copy()), p).numpy().tobytes() == \
        torch.dist(torch.tensor(x), torch.tensor(x[::-1].copy()), p).numpy().tobytes()
