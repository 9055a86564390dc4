"""Tensor methods core lacked, against PyTorch: set_/as_strided_ rebinding memory (and refusing a leaf that
requires grad), as_strided_scatter, nonzero_static, ormqr, the deprecated resize/resize_as, map2_, module_load,
as_subclass, and method forms of i0, igamma, hardshrink, prelu, is_nonzero and the unsafe splits."""

import numpy as np
import pytest

import core


def _same(ours, theirs):
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    assert tuple(ours.shape) == tuple(theirs.shape) and ours.stride() == theirs.stride()


def test_set_shares_the_source_memory_as_torch(torch):
    for lib in (core, torch):
        x = lib.arange(6.0).view(2, 3)
        s = lib.zeros(0).set_(x)
        x[0, 0] = 7.0
        assert s[0, 0].item() == 7.0 and s.data_ptr() == x.data_ptr() and tuple(s.shape) == (2, 3)
        assert tuple(lib.zeros(3).set_().shape) == (0,)


def test_set_with_size_and_stride_views_the_source_as_torch(torch):
    results = [lib.zeros(1).set_(lib.arange(12.0), 2, (3, 2), (1, 3)) for lib in (core, torch)]
    _same(*results)


def test_as_strided_in_place_and_scatter_match_torch(torch):
    results = []
    for lib in (core, torch):
        x = lib.arange(6.0).view(2, 3)
        y = x.clone()
        lib.as_strided_(y, (3, 2), (1, 3))
        results.append((y, lib.as_strided_scatter(x, lib.tensor([9.0, 8.0]), (2,), (3,), 1)))
    for a, b in zip(*results):
        _same(a, b)


@pytest.mark.parametrize("method, args", [("set_", ("zeros",)), ("as_strided_", ((2,), (1,)))])
def test_rebinding_a_leaf_that_requires_grad_is_refused_as_torch(method, args, torch):
    for lib in (core, torch):
        x = lib.ones(3, requires_grad=True)
        call_args = (lib.zeros(2),) if args == ("zeros",) else args
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            getattr(x, method)(*call_args)


def test_nonzero_static_pads_or_cuts_to_the_size_as_torch(torch):
    for size in (2, 5):
        _same(*(lib.nonzero_static(lib.tensor([[0, 1], [1, 1]]), size=size, fill_value=7) for lib in (core, torch)))


@pytest.mark.parametrize("left, transpose", [(True, False), (True, True), (False, False), (False, True)])
def test_ormqr_multiplies_by_geqrfs_q_as_torch(left, transpose, torch):
    rng = np.random.default_rng(0)
    a, c = rng.standard_normal((5, 3)), rng.standard_normal((5, 5))
    results = []
    for lib in (core, torch):
        q, tau = lib.geqrf(lib.tensor(a))
        results.append(lib.ormqr(q, tau, lib.tensor(c), left, transpose).numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12, atol=1e-12)


def test_out_of_place_resize_warns_and_keeps_the_element_count_as_torch(torch):
    for lib in (core, torch):
        x = lib.arange(6.0, requires_grad=True)
        with pytest.warns(UserWarning, match="non-inplace resize is deprecated"):
            assert tuple(x.resize(2, 3).shape) == (2, 3)
        with pytest.warns(UserWarning, match="non-inplace resize_as is deprecated"):
            assert tuple(x.resize_as(lib.zeros(3, 2)).shape) == (3, 2)
        with pytest.warns(UserWarning), pytest.raises(RuntimeError, match=r"requested resize to 4 \(4 elements in"):
            x.resize(4)


def test_map2_applies_a_python_function_elementwise_as_torch(torch):
    results = []
    for lib in (core, torch):
        z = lib.tensor([1.0, 2.0, 3.0])
        results.append(z.map2_(lib.ones(3), lib.tensor(2.0).expand(3), lambda a, b, c: a + b * c))
    _same(*results)


def test_module_load_copies_or_hands_over_as_torch(torch):
    for lib in (core, torch):
        target, source = lib.zeros(2), lib.ones(2, requires_grad=True)
        loaded = target.module_load(source)
        assert target.tolist() == [1.0, 1.0] and not loaded.requires_grad and loaded is not target
        assert target.module_load(source, assign=True).data_ptr() == source.data_ptr()


def test_as_subclass_keeps_memory_and_history():
    class Tagged(core.Tensor):
        pass
    x = core.ones(2, requires_grad=True)
    y = (x * 2).as_subclass(Tagged)
    assert type(y) is Tagged and y.requires_grad
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_method_forms_of_existing_ops_match_torch(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor([[-2.0, 0.3, 1.5], [0.7, -0.1, 3.0]], dtype=lib.float64)
        results.append([x.i0(), x.clone().i0_(), x.abs().igamma(lib.ones(3, dtype=lib.float64)),
                        x.abs().igammac_(lib.ones(3, dtype=lib.float64)), x.hardshrink(0.5),
                        x.prelu(lib.tensor([0.25], dtype=lib.float64)), *x.unsafe_split(2, 1),
                        *x.unsafe_chunk(2), *x.unsafe_split_with_sizes([1, 2], 1)])
        assert lib.tensor([3]).is_nonzero() and not x.is_distributed()
    for a, b in zip(*results):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12)


def test_dense_tensors_answer_sparse_queries_as_torch(torch):
    for lib in (core, torch):
        t = lib.ones(2, 3)
        assert (t.sparse_dim(), t.dense_dim(), t.const_data_ptr() == t.data_ptr()) == (0, 2, True)
        for name, message in [("coalesce", "coalesce expected sparse coordinate tensor layout but got Strided"),
                              ("indices", "indices expected sparse coordinate tensor layout but got Strided"),
                              ("values", "values expected sparse tensor layout but got Strided")]:
            with pytest.raises(RuntimeError, match=message):
                getattr(t, name)()
    assert str(core.eye(2).to_sparse_coo()) == str(torch.eye(2).to_sparse_coo())
    sparse = core.eye(2).to_sparse()
    assert sparse.sparse_dim() == 2 and sparse.is_coalesced() and sparse.coalesce() is sparse
