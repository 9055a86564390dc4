"""``vmap`` over ``autograd.grad(outputs, inputs, v)`` with only ``v`` batched (TorchJD's Jacobians, pytorch-minimize's
Hessians): PyTorch runs one batched backward, so ``retain_graph=False`` frees the graph once, after every row; core
ran the function once per row and found the graph freed at the second. Rows, shapes and the freed graph equal
PyTorch's, the same code run on both."""

import pytest

import core


def _plain(value):
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return (tuple(value.shape), value.tolist()) if hasattr(value, "tolist") else value


def _jacobian_rows(lib, retain_graph):
    lib.manual_seed(0)
    w = lib.randn(3, 4, requires_grad=True)
    b = lib.randn(3, requires_grad=True)
    y = (w @ lib.randn(4)).tanh() + b * b
    rows = lib.vmap(lambda v: lib.autograd.grad([y], [w, b], [v], retain_graph=retain_graph))(lib.eye(3))
    return rows


def _two_outputs_one_unbatched(lib):
    lib.manual_seed(1)
    x = lib.randn(5, requires_grad=True)
    y1, y2 = x.sin(), (x * x).sum()
    return lib.vmap(lambda v: lib.autograd.grad([y1, y2], [x], [v, lib.ones(())]), in_dims=0)(lib.randn(2, 5))


def _hessian(lib):
    lib.manual_seed(2)
    x = lib.randn(4, requires_grad=True)
    (g,) = lib.autograd.grad((x.exp() * x.roll(1)).sum(), x, create_graph=True)
    return lib.vmap(lambda v: lib.autograd.grad(g, x, v, retain_graph=True)[0])(lib.eye(4))


@pytest.mark.parametrize("case", [lambda lib: _jacobian_rows(lib, False), lambda lib: _jacobian_rows(lib, True),
                                  _two_outputs_one_unbatched, _hessian],
                         ids=["freed_after", "retained", "unbatched_grad_output", "hessian"])
def test_vmapped_vector_jacobian_products_equal_torchs(torch, case):
    assert _plain(case(core)) == _plain(case(torch))


def test_the_graph_is_freed_once_after_the_batch(torch):
    messages = []
    for lib in (core, torch):
        lib.manual_seed(0)
        x = lib.randn(3, requires_grad=True)
        y = x.exp()
        lib.vmap(lambda v, lib=lib, x=x, y=y: lib.autograd.grad(y, x, v, retain_graph=False))(lib.eye(3))
        with pytest.raises(RuntimeError) as e:
            lib.autograd.grad(y, x, lib.ones(3))
        messages.append(str(e.value).split(".")[0])
    assert messages[0] == messages[1]
