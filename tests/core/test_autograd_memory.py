"""Memory: training loops keep memory flat (saved tensors and graphs are released every step)."""

import gc

import core as torch
from core.autograd.function import Node


def _live(cls) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if issubclass(type(o), cls))


def _train(n, x, w, b, y):
    for _ in range(n):
        err = (x * w).sum() + b - y
        (err * err).backward()
        with torch.no_grad():
            w -= w.grad * 0.01
            b -= b.grad * 0.01
        w.grad = None
        b.grad.zero_()


def test_ten_thousand_training_iterations_keep_memory_flat():
    x, y = torch.randn(3), torch.tensor(2.0)
    w, b = torch.randn(3, requires_grad=True), torch.zeros((), requires_grad=True)
    _train(100, x, w, b, y)
    tensors, nodes = _live(torch.Tensor), _live(Node)
    _train(10_000, x, w, b, y)
    assert _live(torch.Tensor) <= tensors and _live(Node) <= nodes
    err = float((x * w).sum() + b - y)
    assert abs(err) < 1e-3  # it trained, not just looped


def test_a_dropped_graph_frees_without_the_cycle_collector():
    gc.disable()
    try:
        before = _count_nodes_without_gc()
        x = torch.randn(4, requires_grad=True)
        for _ in range(50):
            y = x * 2
            z = (y * y / (y + 3)).sum()
            z.backward()
            del y, z
        del x
        assert _count_nodes_without_gc() <= before
    finally:
        gc.enable()


def _count_nodes_without_gc() -> int:
    return sum(1 for o in gc.get_objects() if issubclass(type(o), Node))
