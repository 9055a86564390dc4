"""A view of a view written in place with a value that requires grad, against PyTorch.

kornia's ``quaternion_to_axis_angle`` builds its result as ``zeros_like(q)[..., :3]`` and fills it a column at a
time (``axis_angle[..., 0] += q1 * k``). The write goes through a view of that view; PyTorch rewrites the base's
history (``CopySlices``) and the outer view, taken before the base required grad, now requires grad too with a
fresh ``AsStridedBackward0``: its gradient reaches ``q``. core left the outer view without history, so
``axis_angle.sum().backward()`` raised "element 0 of tensors does not require grad".
"""

import numpy as np

import core


def _columns_filled(lib):
    q = lib.tensor(np.array([[0.9, 0.1, 0.2, 0.3], [0.5, -0.4, 0.6, 0.2]], dtype=np.float32), requires_grad=True)
    out = lib.zeros_like(q)[..., :3]
    for i in range(3):
        out[..., i] += q[..., i + 1] * (i + 2.0)
    state = (out.requires_grad, type(out.grad_fn).__name__, out.is_leaf)
    (out * lib.arange(6.0).view(2, 3)).sum().backward()
    return state, out.detach().numpy().tolist(), q.grad.numpy().tolist()


def test_outer_view_gets_history_and_passes_the_gradient(torch):
    assert _columns_filled(core) == _columns_filled(torch)


def _chain_of_views(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    base = lib.zeros(4, 6)
    outer = base[1:]
    middle = outer[:, 2:]
    middle[0, :2] = x * 3
    flags = [(t.requires_grad, type(t.grad_fn).__name__) for t in (base, outer, middle)]
    (outer.sum() + 2 * middle.sum()).backward()
    return flags, x.grad.tolist()


def test_every_view_in_the_chain_requires_grad_after_the_write(torch):
    assert _chain_of_views(core) == _chain_of_views(torch)


def _no_grad_write_keeps_plain_views(lib):
    base = lib.zeros(3, 4)
    outer = base[:, :3]
    outer[:, 0] += 1
    return outer.requires_grad, outer.grad_fn, base.requires_grad


def test_a_write_that_records_nothing_leaves_the_views_plain(torch):
    assert _no_grad_write_keeps_plain_views(core) == _no_grad_write_keeps_plain_views(torch)


def _sibling_grad_fn(lib):
    base = lib.zeros(3)
    sibling = base[:2]
    base[1:].mul_(1)  # a write without grad: the sibling keeps no history
    before = sibling.grad_fn, sibling.requires_grad
    base[2:] += lib.ones(1, requires_grad=True)
    after = sibling.requires_grad  # (read first: it does not wait for grad_fn)
    return before, after, type(sibling.grad_fn).__name__


def test_a_sibling_view_regenerates_its_grad_fn_once_the_base_requires_grad(torch):
    assert _sibling_grad_fn(core) == _sibling_grad_fn(torch)
