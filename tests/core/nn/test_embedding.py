"""nn.Embedding and F.embedding honour PyTorch's options: padding_idx, max_norm, scale_grad_by_freq, from_pretrained."""

from __future__ import annotations

import numpy as np
import pytest

import core
from core import nn
from core.autograd import gradcheck
from tests.core.oracle import assert_same, check, check_error, check_grads, to_numpy

IDX = np.array([[0, 1, 1], [4, 1, 0]])


def weights(*shape, scale=1.0, seed=0):
    return np.random.default_rng(seed).standard_normal(shape) * scale


@pytest.mark.parametrize("padding_idx", [None, 1, -1, -5])
@pytest.mark.parametrize("scale_grad_by_freq", [False, True])
def test_functional_embedding_gradient_matches_torch(torch, padding_idx, scale_grad_by_freq):
    check_grads(lambda lib, w: lib.nn.functional.embedding(lib.tensor(IDX), w, padding_idx=padding_idx,
                                                           scale_grad_by_freq=scale_grad_by_freq),
                [weights(5, 3)], torch)


def test_gradient_scaled_by_frequency_is_differentiable_in_the_output_gradient():
    w = core.tensor(weights(5, 3), requires_grad=True)
    out = core.nn.functional.embedding(core.tensor(IDX), w, padding_idx=0, scale_grad_by_freq=True)

    def weight_grad(g):
        return core.autograd.grad(out, w, g, create_graph=True)[0]
    assert gradcheck(weight_grad, (core.tensor(weights(2, 3, 3, seed=1), requires_grad=True),))


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.5])
def test_max_norm_renormalises_the_looked_up_rows_in_place_like_torch(torch, norm_type):
    def fn(lib, w):
        out = lib.nn.functional.embedding(lib.tensor([1, 1, 3]), w, max_norm=1.0, norm_type=norm_type)
        return [out, w]
    check(fn, [weights(5, 3, scale=5.0)], torch)


def test_module_with_max_norm_renormalises_its_weight_and_passes_gradients_like_torch(torch):
    w = weights(6, 2, scale=3.0)
    mods = []
    for lib in (core, torch):
        emb = lib.nn.Embedding(6, 2, max_norm=1.5, scale_grad_by_freq=True, sparse=False)
        with lib.no_grad():
            emb.weight.copy_(lib.tensor(w))
        out = emb(lib.tensor(IDX))
        (out * lib.tensor(weights(*out.shape, seed=1))).sum().backward()
        mods.append((out, emb.weight, emb.weight.grad))
    assert_same(mods[0], mods[1], rtol=1e-6)


@pytest.mark.parametrize("padding_idx", [2, -2])
def test_padding_idx_row_starts_at_zero_and_is_stored_non_negative(torch, padding_idx):
    ours, theirs = nn.Embedding(5, 3, padding_idx=padding_idx), torch.nn.Embedding(5, 3, padding_idx=padding_idx)
    assert ours.padding_idx == theirs.padding_idx
    assert not to_numpy(ours.weight)[ours.padding_idx].any()
    assert repr(ours) == repr(theirs)


def test_repr_lists_every_non_default_option_like_torch(torch):
    kw = {"padding_idx": 0, "max_norm": 1.0, "norm_type": 1.5, "scale_grad_by_freq": True}
    assert repr(nn.Embedding(5, 3, **kw)) == repr(torch.nn.Embedding(5, 3, **kw))


@pytest.mark.parametrize("freeze", [True, False])
def test_from_pretrained_keeps_the_weights_and_freezes_them_on_request(torch, freeze):
    w = weights(3, 2)
    ours = nn.Embedding.from_pretrained(core.tensor(w), freeze=freeze, padding_idx=0)
    theirs = torch.nn.Embedding.from_pretrained(torch.tensor(w), freeze=freeze, padding_idx=0)
    assert ours.weight.requires_grad is theirs.weight.requires_grad is (not freeze)
    assert_same(ours.weight.detach(), theirs.weight.detach())
    assert repr(ours) == repr(theirs)
    assert_same(ours(core.tensor([2, 0])), theirs(torch.tensor([2, 0])))


@pytest.mark.parametrize("fn", [
    lambda lib: lib.nn.Embedding.from_pretrained(lib.ones(3)),
    lambda lib: lib.nn.Embedding(3, 2, _weight=lib.ones(2, 2)),
    lambda lib: lib.nn.Embedding(3, 2, padding_idx=3),
    lambda lib: lib.nn.functional.embedding(lib.tensor([1.0]), lib.ones(3, 2)),
    lambda lib: lib.nn.functional.embedding(lib.tensor([0]), lib.ones(3, 2), padding_idx=-4),
    lambda lib: lib.nn.functional.embedding(lib.tensor([3]), lib.ones(3, 2)),
], ids=["pretrained-1d", "weight-shape", "padding-idx", "float-indices", "negative-padding-idx", "out-of-range"])
def test_bad_arguments_raise_torchs_errors(torch, fn):
    check_error(lambda lib: fn(lib), [], torch)


@pytest.mark.parametrize("dtype, dim, norm_type, max_norm", [
    (np.float32, 8, 2.0, 1.0), (np.float32, 100, 2.0, 3.0), (np.float32, 33, 3.0, 2.0), (np.float64, 16, 2.0, 1.0),
    (np.float32, 16, 1.0, 2.0)])
def test_max_norm_renormalises_rows_with_torchs_bits(torch, dtype, dim, norm_type, max_norm):
    """The looked-up rows' norms as torch's row.norm(p) reduces them, scaled by max_norm / (norm + 1e-7) in double:
    the output, the renormalised weight and its gradient equal torch's bit for bit."""
    rng = np.random.default_rng(dim)
    w = (rng.standard_normal((30, dim)) * 2).astype(dtype)
    idx = rng.integers(0, 30, (5, 7))
    out = []
    for lib in (core, torch):
        weight = lib.tensor(w.copy(), requires_grad=True)
        y = lib.nn.functional.embedding(lib.tensor(idx), weight, max_norm=max_norm, norm_type=norm_type)
        y.backward(lib.tensor(np.linspace(-1, 1, y.numel()).astype(dtype).reshape(tuple(y.shape))))
        out.append((y.detach().numpy(), weight.detach().numpy(), weight.grad.numpy()))
    for ours, theirs in zip(*out, strict=True):
        np.testing.assert_array_equal(ours, theirs)
