"""A sum's gradient is PyTorch's expanded tensor (``sum_backward``: ``grad.expand(sizes)``), and what a user can see of
that is torch's: the gradient ``autograd.grad`` returns and the one a tensor hook receives have stride 0 and are not
contiguous, an in-place write to a hook's gradient raises torch's overlap error, while ``.grad`` (AccumulateGrad
copies a non-contiguous gradient) and a retained gradient are contiguous."""

import pytest

import core


def _grad_layout(lib, build):
    x = lib.ones(3, 4, requires_grad=True)
    out, *rest = build(lib, x)
    (g,) = lib.autograd.grad(out, x, *rest)
    return g.stride(), g.is_contiguous()


CASES = {
    "sum": lambda lib, x: (x.sum(),),
    "sum_dim_then_sum": lambda lib, x: (x.sum(1).sum(),),
    "sum_dim": lambda lib, x: (x.sum(1), lib.ones(3)),
    "sum_keepdim": lambda lib, x: (x.sum(0, keepdim=True), lib.ones(1, 4)),
    "mean": lambda lib, x: (x.mean(),),
    "expand_sum": lambda lib, x: (x.expand(2, 3, 4).sum(),),
}


@pytest.mark.parametrize("case", list(CASES))
def test_autograd_grad_of_a_sum_has_torchs_strides(torch, case):
    assert _grad_layout(core, CASES[case]) == _grad_layout(torch, CASES[case])


def _hooks_and_grads(lib):
    seen = []
    x = lib.ones(3, 4, requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: seen.append(("y", g.stride(), g.is_contiguous())))
    x.register_hook(lambda g: seen.append(("x", g.stride(), g.is_contiguous())))
    y.sum().backward()
    return seen, x.grad.stride(), x.grad.is_contiguous(), y.grad.stride()


def test_a_hook_sees_the_expanded_gradient_and_grad_is_contiguous(torch):
    assert _hooks_and_grads(core) == _hooks_and_grads(torch)


def _write_in_hook(lib):
    x = lib.ones(3, 4, requires_grad=True)
    found = []

    def hook(g):
        try:
            g.mul_(2)
        except RuntimeError as e:
            found.append(str(e))

    x.register_hook(hook)
    x.sum().backward()
    return found, x.grad.tolist()


def test_an_in_place_write_to_a_sums_gradient_in_a_hook_raises_as_torch(torch):
    ours, theirs = _write_in_hook(core), _write_in_hook(torch)
    assert ours == theirs and "more than one element of the written-to tensor" in ours[0][0]
