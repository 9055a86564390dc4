"""``optim.SparseAdam`` with ``nn.Embedding(sparse=True)`` against PyTorch: the embedding's sparse weight gradient
(its indices, values and how a second backward merges into it), SparseAdam's trajectories in float32 and float64
(rows not looked up stay put), its state, and its errors on dense gradients, sparse parameters and bad settings."""

import numpy as np
import pytest

import core


def _train(lib, dtype="float32", steps=4, **kw):
    lib.manual_seed(0)
    emb = lib.nn.Embedding(7, 3, sparse=True, padding_idx=0).to(getattr(lib, dtype))
    with lib.no_grad():
        emb.weight.copy_(lib.tensor(np.random.default_rng(1).standard_normal((7, 3))))
    opt = lib.optim.SparseAdam(emb.parameters(), **kw)
    batches = [[[1, 2, 1], [0, 4, 2]], [[3, 3, 5]], [[2, 0, 0]], [[6, 1, 4]]]
    for ids in batches[:steps]:
        opt.zero_grad()
        out = emb(lib.tensor(ids))
        (out * out).sum().backward()
        opt.step()
    return emb.weight.detach().numpy(), opt


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kw", [{}, {"lr": 0.1, "betas": (0.8, 0.9)}, {"maximize": True, "eps": 1e-4}])
def test_sparse_adam_trains_a_sparse_embedding_exactly_as_torch(dtype, kw, torch):
    ours, theirs = _train(core, dtype, **kw), _train(torch, dtype, **kw)
    if dtype == "float64":
        np.testing.assert_array_equal(ours[0], theirs[0])
    else:  # NOTE: torch's float32 sqrt kernel is off by up to ~0.6 ulp, NumPy's is correctly rounded
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6, atol=1e-7)
    assert repr(ours[1]) == repr(theirs[1])
    state, tstate = ours[1].state_dict()["state"][0], theirs[1].state_dict()["state"][0]
    assert list(state) == list(tstate) == ["step", "exp_avg", "exp_avg_sq"] and state["step"] == tstate["step"] == 4
    np.testing.assert_allclose(state["exp_avg_sq"].numpy(), tstate["exp_avg_sq"].numpy(), rtol=1e-6)


def test_sparse_adam_leaves_rows_that_were_not_looked_up_untouched():
    before = core.tensor(np.random.default_rng(1).standard_normal((7, 3)).astype(np.float32))
    after, _ = _train(core, steps=1)
    np.testing.assert_array_equal(after[[0, 3, 5, 6]], before.numpy()[[0, 3, 5, 6]])
    assert not np.array_equal(after[[1, 2, 4]], before.numpy()[[1, 2, 4]])


def test_sparse_embedding_gradients_print_and_merge_as_torch(torch):
    printed = []
    for lib in (core, torch):
        lib.manual_seed(0)
        emb = lib.nn.Embedding(5, 2, sparse=True, padding_idx=0)
        emb(lib.tensor([[1, 2, 1], [0, 4, 2]])).sum().backward()
        first = str(emb.weight.grad)
        emb(lib.tensor([3, 1])).sum().backward()  # merged into the first as torch's sparse add merges
        grad = emb.weight.grad
        printed.append((first, str(grad), grad.is_sparse, grad.is_coalesced(), str(grad.coalesce())))
    assert printed[0] == printed[1]


def test_sparse_adam_refuses_dense_gradients_as_torch(torch):
    for lib in (core, torch):
        w = lib.zeros(3, 2, requires_grad=True)
        w.grad = lib.ones(3, 2)
        with pytest.raises(RuntimeError, match="SparseAdam does not support dense gradients, please consider Adam"):
            lib.optim.SparseAdam([w]).step()


def test_sparse_adam_refuses_sparse_parameters_as_torch(torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match=r"Sparse params at indices \[\[0, 1\]\]: SparseAdam requires dense"):
            lib.optim.SparseAdam([lib.zeros(2), lib.eye(2).to_sparse()])


@pytest.mark.parametrize("kw, message", [({"lr": 0.0}, "Invalid learning rate: 0.0"),
                                         ({"eps": 0.0}, "Invalid epsilon value: 0.0"),
                                         ({"betas": (1.0, 0.9)}, "Invalid beta parameter at index 0: 1.0"),
                                         ({"betas": (0.9, -0.1)}, "Invalid beta parameter at index 1: -0.1")])
def test_sparse_adam_refuses_bad_settings_as_torch(kw, message, torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match=message):
            lib.optim.SparseAdam([lib.zeros(2, requires_grad=True)], **kw)


def test_zeroing_a_sparse_gradient_in_place_empties_it_as_torch(torch):
    printed = []
    for lib in (core, torch):
        lib.manual_seed(0)
        emb = lib.nn.Embedding(4, 2, sparse=True)
        emb(lib.tensor([1, 2])).sum().backward()
        opt = lib.optim.SparseAdam(emb.parameters())
        opt.zero_grad(set_to_none=False)
        first = str(emb.weight.grad)
        emb(lib.tensor([3])).sum().backward()
        opt.step()
        printed.append((first, str(emb.weight.grad), str(emb.weight.detach())))
    assert printed[0] == printed[1]
