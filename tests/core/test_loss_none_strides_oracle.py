"""Elementwise losses lay out their ``reduction='none'`` results and their gradients as PyTorch does: a
channels-last, transposed, permuted or expanded input or target gives the strides PyTorch's kernels give
(``loss.stride()``, ``loss.is_contiguous()``), and so do the input's and the target's gradients."""

import numpy as np
import pytest

import core

LAYOUTS = {"channels_last": (2, 3, 4, 5), "transposed": (3, 4), "permuted": (2, 3, 4), "expanded": (3, 4)}

LOSSES = {
    "mse": lambda F, i, t: F.mse_loss(i, t, reduction="none"),
    "l1": lambda F, i, t: F.l1_loss(i, t, reduction="none"),
    "smooth_l1": lambda F, i, t: F.smooth_l1_loss(i, t, reduction="none"),
    "smooth_l1_beta0": lambda F, i, t: F.smooth_l1_loss(i, t, reduction="none", beta=0.0),
    "huber": lambda F, i, t: F.huber_loss(i, t, reduction="none", delta=0.3),
    "bce": lambda F, i, t: F.binary_cross_entropy(i, t, reduction="none"),
    "bce_weight": lambda F, i, t: F.binary_cross_entropy(i, t, weight=i.detach() * 0 + 2, reduction="none"),
    "bce_logits": lambda F, i, t: F.binary_cross_entropy_with_logits(i, t, reduction="none"),
    "bce_logits_pos_weight": lambda F, i, t: F.binary_cross_entropy_with_logits(
        i, t, pos_weight=i.detach()[(0,) * (i.ndim - 1)] * 0 + 3, reduction="none"),
    "kl_div": lambda F, i, t: F.kl_div(i, t, reduction="none"),
    "kl_div_log_target": lambda F, i, t: F.kl_div(i, t, reduction="none", log_target=True),
    "soft_margin": lambda F, i, t: F.soft_margin_loss(i, t, reduction="none"),
    "poisson_nll": lambda F, i, t: F.poisson_nll_loss(i, t, reduction="none"),
    "gaussian_nll": lambda F, i, t: F.gaussian_nll_loss(i, t, i.detach() * 0 + 1, reduction="none"),
}
TARGET_DIFFERENTIABLE = {"mse", "l1", "smooth_l1", "huber", "bce_logits", "kl_div", "kl_div_log_target"}


def laid_out(lib, a: np.ndarray, layout: str):
    """A tensor of ``a``'s values with the layout's strides (``plain``: contiguous)."""
    if layout == "plain":
        return lib.tensor(a)
    if layout == "channels_last":
        return lib.tensor(a).contiguous(memory_format=lib.channels_last)
    if layout == "transposed":
        return lib.tensor(np.ascontiguousarray(a.T)).t()
    if layout == "permuted":
        return lib.tensor(np.ascontiguousarray(a.transpose(2, 0, 1))).permute(1, 2, 0)
    return lib.tensor(np.ascontiguousarray(a[:1])).expand(*a.shape)


def layouts_and_gradients(lib, name, layout, input_layout, target_layout, reduction_call):
    rng = np.random.default_rng(7)
    shape = LAYOUTS[layout]
    a = (rng.random(shape) * 0.8 + 0.1).astype(np.float32)
    b = (rng.random(shape) * 0.8 + 0.1).astype(np.float32)
    x = laid_out(lib, a, input_layout).requires_grad_()
    t = laid_out(lib, b, target_layout).requires_grad_(name in TARGET_DIFFERENTIABLE)
    out = LOSSES[name](lib.nn.functional, x, t)
    facts = [tuple(out.stride()), out.is_contiguous()]
    leaves = (x, t) if t.requires_grad else (x,)
    loss = reduction_call(out)
    grads = lib.autograd.grad(loss, leaves, lib.ones_like(loss))
    facts += [(tuple(g.stride()), g.is_contiguous()) for g in grads]
    values = [out.detach().numpy()] + [g.numpy() for g in grads]
    return facts, values


@pytest.mark.parametrize("name", list(LOSSES))
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("which", ["input", "target", "both"])
@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_a_loss_and_its_gradients_are_laid_out_as_torchs(torch, name, layout, which, reduction):
    input_layout = layout if which in ("input", "both") else "plain"
    target_layout = layout if which in ("target", "both") else "plain"
    call = (lambda out: out) if reduction == "none" else (lambda out: out.mean())
    ours, our_values = layouts_and_gradients(core, name, layout, input_layout, target_layout, call)
    theirs, their_values = layouts_and_gradients(torch, name, layout, input_layout, target_layout, call)
    assert ours == theirs
    for mine, their in zip(our_values, their_values):
        np.testing.assert_allclose(mine, their, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("call", [
    lambda lib, x: x.masked_fill(x > 0.5, 0.0),
    lambda lib, x: x.masked_fill(x > 0.5, lib.tensor(2.0)),
    lambda lib, x: lib.autograd.grad(lib.xlogy(x, x).sum(), x)[0],
    lambda lib, x: lib.autograd.grad(lib.xlogy(x, 2.0).sum(), x)[0],
])
def test_masked_fill_and_xlogys_gradient_lay_out_a_transposed_input_as_torch(torch, call):
    a = np.random.default_rng(1).random((4, 3)).astype(np.float32)
    ours = call(core, core.tensor(a).t().requires_grad_())
    theirs = call(torch, torch.tensor(a).t().requires_grad_())
    assert (ours.stride(), ours.is_contiguous()) == (theirs.stride(), theirs.is_contiguous())
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-6)
