"""Sparse compressed layouts (CSR, CSC, BSR, BSC) against torch: conversions, constructors and their checks,
members, printing, products with dense matrices and their gradients, and the ops torch keeps compressed."""

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised

A = np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 0.0, 3.0, 0.0], [4.0, 5.0, 0.0, 0.0], [0.0, 0.0, 0.0, 6.0]],
             dtype=np.float32)
B = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)


def _both(torch, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's beta-state and invariant-check notes
        return fn(core), fn(torch)


def _raised_both(torch, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return raised(lambda: fn(core)), raised(lambda: fn(torch))


MAKERS = {
    "csr": lambda lib: lib.tensor(A).to_sparse_csr(),
    "csc": lambda lib: lib.tensor(A).to_sparse_csc(),
    "bsr": lambda lib: lib.tensor(A).to_sparse_bsr((2, 2)),
    "bsc": lambda lib: lib.tensor(A).to_sparse_bsc(2),
    "bsr_2x1": lambda lib: lib.tensor(A).to_sparse_bsr((2, 1)),
    "csr_float64": lambda lib: lib.tensor(A, dtype=lib.float64).to_sparse_csr(),
    "csr_int": lambda lib: lib.tensor([[1, 0], [0, 2]]).to_sparse_csr(),
    "csr_bool": lambda lib: lib.tensor([[True, False]]).to_sparse_csr(),
    "csr_empty": lambda lib: lib.zeros(2, 3).to_sparse_csr(),
    "csr_batched": lambda lib: lib.ones(2, 2, 3).to_sparse_csr(),
    "csc_dense_dim": lambda lib: lib.ones(2, 3, 2).to_sparse_csc(dense_dim=1),
    "csr_layout_kw": lambda lib: lib.tensor(A).to_sparse(layout=lib.sparse_csr),
    "bsc_layout_kw": lambda lib: lib.tensor(A).to_sparse(layout=lib.sparse_bsc, blocksize=(1, 2)),
    "csr_to_csc": lambda lib: lib.tensor(A).to_sparse_csr().to_sparse_csc(),
    "csr_to_bsr": lambda lib: lib.tensor(A).to_sparse_csr().to_sparse_bsr(2),
}


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_conversions_print_members_and_answer_layout_questions_as_torch(torch, name):
    ours, theirs = _both(torch, MAKERS[name])
    assert repr(ours) == repr(theirs)
    assert (repr(ours.layout), ours.is_sparse, ours.is_sparse_csr, ours._nnz()) == (
        repr(theirs.layout), theirs.is_sparse, theirs.is_sparse_csr, theirs._nnz())
    assert (ours.shape, ours.dtype.name, ours.dense_dim(), ours.sparse_dim()) == (
        tuple(theirs.shape), str(theirs.dtype)[6:], theirs.dense_dim(), theirs.sparse_dim())
    rows = theirs.layout in (torch.sparse_csr, torch.sparse_bsr)
    names = ("crow_indices", "col_indices") if rows else ("ccol_indices", "row_indices")
    for member in names + ("values",):
        assert_same(getattr(ours, member)(), getattr(theirs, member)())
    assert_same(ours.to_dense(), theirs.to_dense())
    other = ("ccol_indices", "row_indices") if rows else ("crow_indices", "col_indices")
    for member in other:
        ours, theirs = _raised_both(torch, lambda lib, member=member: getattr(MAKERS[name](lib), member)())
        assert ours == theirs


def test_a_compressed_tensor_becomes_coo_as_torch(torch):
    ours, theirs = _both(torch, lambda lib: lib.tensor(A).to_sparse_csr().to_sparse())
    assert repr(ours) == repr(theirs)


def test_strided_tensors_refuse_the_sparse_members_with_torch_errors(torch):
    for member in ("crow_indices", "col_indices", "ccol_indices", "row_indices", "values"):
        ours, theirs = _raised_both(torch, lambda lib, member=member: getattr(lib.ones(2, 2), member)())
        assert ours == theirs
    for member in ("_nnz", "_values", "_indices"):
        ours, theirs = _raised_both(torch, lambda lib, member=member: getattr(lib.ones(2, 2), member)())
        assert ours[0] == theirs[0] == "NotImplementedError" and member in ours[1]


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(3, 4).to_sparse_bsr((2, 2)),
    lambda lib: lib.ones(4, 4).to_sparse(layout=lib.sparse_bsr),
    lambda lib: lib.ones(4, 4).to_sparse(layout=lib.sparse_csr, blocksize=(2, 2)),
    lambda lib: lib.ones(4, 4).to_sparse_bsr((0, 2)),
    lambda lib: lib.ones(4, 4).to_sparse_bsr((2, 2, 2)),
    lambda lib: lib.ones(2, 3).to_sparse_csr(dense_dim=1),
    lambda lib: lib.ones(4, 4).to_sparse_bsr(2).to_sparse_bsr(1),
    lambda lib: lib.tensor([[[1.0, 0.0], [0.0, 0.0]], [[1.0, 1.0], [0.0, 0.0]]]).to_sparse_csr(),
])
def test_bad_conversions_raise_torch_errors(torch, call):
    ours, theirs = _raised_both(torch, call)
    assert ours == theirs


CONSTRUCTORS = {
    "csr": lambda lib: lib.sparse_csr_tensor([0, 2, 3, 5], [0, 2, 2, 0, 1], [1.0, 2.0, 3.0, 4.0, 5.0], (3, 3)),
    "csr_inferred_size": lambda lib: lib.sparse_csr_tensor([0, 2, 3], [0, 2, 1], [1.0, 2.0, 3.0]),
    "csr_int32": lambda lib: lib.sparse_csr_tensor(lib.tensor([0, 1, 2], dtype=lib.int32),
                                                   lib.tensor([1, 0], dtype=lib.int32), [1.0, 2.0], (2, 2)),
    "csc_dtype": lambda lib: lib.sparse_csc_tensor([0, 1, 2], [1, 0], [1, 2], (2, 2), dtype=lib.float64),
    "bsr": lambda lib: lib.sparse_bsr_tensor([0, 1, 2], [1, 0], lib.arange(8.0).reshape(2, 2, 2), (4, 4)),
    "bsc_inferred": lambda lib: lib.sparse_bsc_tensor([0, 1, 2], [1, 0], lib.arange(8.0).reshape(2, 2, 2)),
    "compressed": lambda lib: lib.sparse_compressed_tensor([0, 1, 1], [2], [7.0], (2, 3), layout=lib.sparse_csr),
    "requires_grad": lambda lib: lib.sparse_csr_tensor([0, 1, 1], [2], [7.0], (2, 3), requires_grad=True),
}


@pytest.mark.parametrize("name", sorted(CONSTRUCTORS))
def test_constructors_build_and_print_as_torch(torch, name):
    ours, theirs = _both(torch, CONSTRUCTORS[name])
    assert repr(ours) == repr(theirs)
    assert_same(ours.to_dense(), theirs.to_dense())


@pytest.mark.parametrize("call", [
    lambda lib: lib.sparse_csr_tensor([0, 2, 3], [0, 2, 1], [1.0, 2.0, 3.0], (3, 3), check_invariants=True),
    lambda lib: lib.sparse_csr_tensor([0, 2, 3], [0, 2], [1.0, 2.0, 3.0], (2, 3), check_invariants=True),
    lambda lib: lib.sparse_csr_tensor([0, 2, 3], [0, 2, 1], [1.0, 2.0, 3.0], (2, 3, 4), check_invariants=True),
    lambda lib: lib.sparse_csr_tensor([[0, 2, 3]], [0, 2, 1], [1.0, 2.0, 3.0], (1, 2, 3), check_invariants=True),
    lambda lib: lib.sparse_csr_tensor(lib.tensor([0, 1, 2], dtype=lib.int32), [0, 1], [1.0, 2.0], (2, 2),
                                      check_invariants=True),
    lambda lib: lib.sparse_csr_tensor(lib.tensor([0, 1, 2], dtype=lib.int16), lib.tensor([0, 1], dtype=lib.int16),
                                      [1.0, 2.0], (2, 2), check_invariants=True),
    lambda lib: lib.sparse_bsr_tensor([0, 1], [0], lib.ones(1, 2, 2), (3, 2), check_invariants=True),
    lambda lib: lib.sparse_bsr_tensor([0, 1], [0], lib.ones(1, 2), (2, 2), check_invariants=True),
    lambda lib: lib.sparse_compressed_tensor([0, 1], [0], [1.0], (1, 1), check_invariants=True),
])
def test_constructor_arguments_are_checked_as_torch_checks_them_with_invariant_checks_on(torch, call):
    """(Without the checks torch builds a tensor that breaks its invariants; core checks the shapes and dtypes
    always, as it builds the dense array from them.)"""
    ours, theirs = _raised_both(torch, call)
    assert ours == theirs


@pytest.mark.parametrize("call", [
    lambda lib: lib.sparse_csr_tensor([1, 2, 3], [0, 2, 1], [1.0, 2.0, 3.0], (2, 3), check_invariants=True),
    lambda lib: lib.sparse_csr_tensor([0, 2, 2], [0, 2, 1], [1.0, 2.0, 3.0], (2, 3), check_invariants=True),
    lambda lib: lib.sparse_csr_tensor([0, 3, 2], [0, 2, 1], [1.0, 2.0, 3.0], (2, 3), check_invariants=True),
    lambda lib: lib.sparse_csr_tensor([0, 2, 3], [0, 5, 1], [1.0, 2.0, 3.0], (2, 3), check_invariants=True),
    lambda lib: lib.sparse_csr_tensor([0, 2, 3], [2, 0, 1], [1.0, 2.0, 3.0], (2, 3), check_invariants=True),
    lambda lib: lib.sparse_csc_tensor([0, 2, 3], [1, 1, 0], [1.0, 2.0, 3.0], (2, 2), check_invariants=True),
])
def test_invariant_checks_raise_torch_messages(torch, call):
    ours, theirs = _raised_both(torch, call)
    assert ours == theirs


PRODUCTS = [
    lambda lib, s, d: s @ d,
    lambda lib, s, d: lib.mm(s, d),
    lambda lib, s, d: lib.matmul(s, d),
    lambda lib, s, d: lib.sparse.mm(s, d),
    lambda lib, s, d: lib.addmm(lib.ones(4, 3), s, d, beta=0.5, alpha=2.0),
    lambda lib, s, d: s @ d[:, 0],
]


def test_block_products_with_dense_give_torch_values(torch):
    for product in PRODUCTS:  # (torch's CPU has no BSC @ dense, nor products of non-square blocks)
        ours, theirs = _both(torch, lambda lib, product=product: product(lib, MAKERS["bsr"](lib), lib.tensor(B)))
        assert_same(ours, theirs)


@pytest.mark.parametrize("product", PRODUCTS)
@pytest.mark.parametrize("layout", ["csr", "csc"])
def test_products_with_dense_give_torch_values_and_gradients_to_values_and_dense(torch, product, layout):
    """(torch's CPU kernels have no backward for BSR/BSC products nor for ``sparse.mm`` of a CSC matrix.)"""
    if layout == "csc" and product is PRODUCTS[3]:
        return
    results = []
    for lib in (core, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pattern = MAKERS[layout](lib)
            values = pattern.values().clone().requires_grad_()
            names = ("crow_indices", "col_indices") if layout != "csc" else ("ccol_indices", "row_indices")
            members = [getattr(pattern, n)() for n in names]
            s = lib.sparse_compressed_tensor(*members, values, pattern.shape, layout=pattern.layout)
            d = lib.tensor(B, requires_grad=True)
            out = product(lib, s, d)
            (out * lib.arange(float(out.numel())).reshape(out.shape)).sum().backward()
        assert out.layout == lib.strided
        results.append((out, values.grad, d.grad, type(s.grad_fn).__name__))
    (co, cv, cd, cname), (to, tv, td, tname) = results
    assert_same(co, to)
    assert_same(cv, tv)
    assert_same(cd, td)
    assert cname == tname == "SparseCompressedTensorBackward0"


def test_a_compressed_leaf_gets_the_dense_gradient_of_a_product(torch):
    grads = []
    for lib in (core, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s = lib.tensor(A).to_sparse_csr().requires_grad_()
            (s @ lib.tensor(B)).sum().backward()
        grads.append(s.grad)
    assert grads[0].layout == core.strided and grads[1].layout == torch.strided
    assert_same(grads[0], grads[1])


@pytest.mark.parametrize("op", [
    lambda lib, s: s * 2,
    lambda lib, s: 3 * s,
    lambda lib, s: s * lib.tensor(-2.0),
    lambda lib, s: -s,
    lambda lib, s: s.t(),
    lambda lib, s: s.transpose(0, 1),
    lambda lib, s: s.sum(),
    lambda lib, s: s.clone(),
    lambda lib, s: s.detach(),
])
@pytest.mark.parametrize("layout", ["csr", "bsr", "csc"])
def test_ops_torch_keeps_compressed_print_and_differentiate_as_torch(torch, op, layout):
    results = []
    for lib in (core, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pattern = MAKERS[layout](lib)
            values = pattern.values().clone().requires_grad_()
            names = ("crow_indices", "col_indices") if layout != "csc" else ("ccol_indices", "row_indices")
            s = lib.sparse_compressed_tensor(*[getattr(pattern, n)() for n in names], values, pattern.shape,
                                             layout=pattern.layout)
            out = op(lib, s)
            text = repr(out).split("grad_fn=")[0]
            if out.requires_grad:
                (out.to_dense() * lib.arange(float(out.numel())).reshape(out.shape)).sum().backward()
            results.append((text, out.layout == lib.strided, values.grad))
    assert results[0][:2] == results[1][:2]
    if results[1][2] is not None:
        assert_same(results[0][2], results[1][2])


@pytest.mark.parametrize("call", [
    lambda lib: lib.tensor(A).to_sparse_csr() / 2,
    lambda lib: lib.tensor(A).to_sparse_csr().sum(0),
    lambda lib: lib.ones(2, 2, 2).to_sparse_csr().transpose(0, 1),
    lambda lib: lib.tensor(A).to_sparse_csc().sum(0, keepdim=True),
    lambda lib: lib.tensor(A).to_sparse_bsr(2).sum(1, keepdim=True),
    lambda lib: lib.arange(1.0, 13.0).reshape(2, 3, 2).to_sparse_csr(dense_dim=1).transpose(0, 1),
])
def test_ops_torch_refuses_raise_its_errors(torch, call):
    ours, theirs = _raised_both(torch, call)
    assert ours == theirs


def test_csr_sums_over_a_dim_with_keepdim_stay_csr_as_torch(torch):
    for dim in (0, 1):
        ours, theirs = _both(torch, lambda lib, dim=dim: lib.tensor(A).to_sparse_csr().sum(dim, keepdim=True))
        assert repr(ours) == repr(theirs)


def test_batch_and_sparse_dims_of_batched_tensors_transpose_as_torch(torch):
    for make in (lambda lib: lib.arange(1.0, 13.0).reshape(2, 2, 3).to_sparse_csr().transpose(1, 2),
                 lambda lib: lib.arange(1.0, 9.0).reshape(2, 2, 2).to_sparse_bsr((1, 2)).transpose(0, 0),
                 lambda lib: lib.arange(1.0, 25.0).reshape(2, 3, 2, 2).to_sparse_bsr((1, 2)).transpose(0, 1),
                 lambda lib: lib.arange(1.0, 25.0).reshape(2, 3, 2, 2).to_sparse_bsr((1, 2)).transpose(2, 3)):
        ours, theirs = _both(torch, make)
        assert repr(ours) == repr(theirs)


def test_sparse_mm_of_a_csr_leaf_gives_it_a_csr_gradient_as_torch(torch):
    results = []
    for lib in (core, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s = lib.tensor(A).to_sparse_csr().requires_grad_()
            d = lib.tensor(B, requires_grad=True)
            out = lib.sparse.mm(s, d)
            (out * lib.arange(12.0).reshape(4, 3)).sum().backward()
        results.append((type(out.grad_fn).__name__, repr(s.grad), d.grad))
    assert results[0][:2] == results[1][:2]
    assert_same(results[0][2], results[1][2])


def test_check_sparse_tensor_invariants_turns_the_index_checks_on_as_torch(torch):
    def bad(lib):
        return lib.sparse_csr_tensor([0, 1, 3], [0, 1], [1, 2])

    for lib in (core, torch):
        assert lib.sparse.check_sparse_tensor_invariants.is_enabled() is False
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with lib.sparse.check_sparse_tensor_invariants():
                assert lib.sparse.check_sparse_tensor_invariants.is_enabled() is True
                with pytest.raises(RuntimeError, match=r"`crow_indices\[..., -1\] == nnz` is not satisfied."):
                    bad(lib)
                unchecked = lib.sparse_csr_tensor([0, 1, 2], [0, 1], [1, 2], check_invariants=False)
            assert lib.sparse.check_sparse_tensor_invariants.is_enabled() is False
            assert unchecked._nnz() == 2
            decorated = lib.sparse.check_sparse_tensor_invariants()(bad)
            with pytest.raises(RuntimeError, match="is not satisfied"):
                decorated(lib)


@pytest.mark.parametrize("name", ["csr", "csc", "bsr", "bsc", "csr_batched", "csc_dense_dim", "csr_int"])
def test_save_and_load_keep_a_compressed_tensor_as_torch(torch, name, tmp_path):
    loaded = []
    for lib in (core, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            path = tmp_path / f"{lib.__name__}.pt"
            lib.save({"m": MAKERS[name](lib)}, path)
            loaded.append(repr(lib.load(path)["m"]))
    assert loaded[0] == loaded[1]


# ----- values() and to_dense() of a compressed tensor that needs grad --------------------------------------------

def _grad_of(lib, make, loss):
    """``make``'s leaf (requires grad) after ``loss(leaf).backward()``: its gradient's layout, indices and values,
    or the error torch's AccumulateGrad raises for the layout."""
    leaf = make(lib).requires_grad_()
    try:
        loss(lib, leaf).backward()
    except RuntimeError as error:
        return str(error)
    g = leaf.grad
    return str(g.layout), g.crow_indices().tolist(), g.col_indices().tolist(), g.values().tolist()


LOSSES = {
    "values_sum": lambda lib, s: s.values().sum(),
    "values_times": lambda lib, s: (s.values() * lib.arange(s.values().numel(), dtype=s.dtype)).sum(),
    "to_dense_weighted": lambda lib, s: (s.to_dense() * lib.arange(16.0).reshape(4, 4)).sum(),
    "values_and_to_dense": lambda lib, s: s.values().sum() + s.to_dense().sum(),
}


# (torch adds two CSC/BSR/BSC gradients of one tensor with errors of its kernels' own: "values_and_to_dense" is CSR's)
@pytest.mark.parametrize(("layout", "loss"), [(lay, loss) for lay in ("csr", "csc", "bsr", "bsc") for loss in LOSSES
                                              if lay == "csr" or loss != "values_and_to_dense"])
def test_values_and_to_dense_of_a_compressed_leaf_give_torchs_gradient(torch, layout, loss):
    ours, theirs = _both(torch, lambda lib: _grad_of(lib, MAKERS[layout], LOSSES[loss]))  # (csc/bsr/bsc: an error)
    assert ours == theirs


def test_values_of_a_compressed_tensor_record_values_backward(torch):
    def run(lib):
        s = MAKERS["csr"](lib).requires_grad_()
        values = lib.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        made = lib.sparse_csr_tensor([0, 2, 4], [0, 2, 1, 3], values, (2, 4))
        (made.values() * lib.tensor([1.0, -1.0, 2.0, 0.5])).sum().backward()
        name = s.values().grad_fn.name() if lib is core else type(s.values().grad_fn).__name__
        return name, values.grad.tolist()

    ours, theirs = _both(torch, run)
    assert ours == theirs


def test_csr_tensors_with_one_pattern_add_to_a_csr_tensor(torch):
    def run(lib):
        a = MAKERS["csr"](lib)
        total = a + a * 2
        return str(total.layout), total.col_indices().tolist(), total.values().tolist()

    ours, theirs = _both(torch, run)
    assert ours == theirs


@pytest.mark.parametrize("layout", ["to_sparse_csr", "to_sparse"])  # (BSR/CSC: torch's backward refuses them)
def test_values_of_a_sparse_tensor_that_needs_grad_is_a_view_of_it_as_torch(torch, layout):
    """``values()`` is a view of the sparse tensor (``_base`` is it) with or without grad; core's compressed
    ``values()`` of a tensor that needs grad was a copy (no ``_base``). Its gradient still reaches the entries."""
    def report(lib):
        d = lib.tensor([[0.0, 1.0], [2.0, 0.0]])
        s = getattr(d, layout)().requires_grad_()
        v = s.values()
        (v.reshape(-1) * lib.tensor([3.0, 5.0])).sum().backward()
        plain = s.detach().values()
        return (v._is_view(), v._base is s, v.grad_fn.name(), plain._is_view(), s.grad.to_dense().tolist(),
                str(s.grad.layout))
    assert report(core) == report(torch)


def test_broadcast_to_method_takes_sizes_as_several_ints_as_torch(torch):
    def report(lib):
        x = lib.ones(1, 4)
        views = [x.broadcast_to(3, 4), x.broadcast_to((3, 4)), x.broadcast_to(size=(3, 4))]
        with pytest.raises(TypeError) as error:
            lib.broadcast_to(x, 3, 4)
        return [(tuple(v.shape), v._base is x) for v in views], str(error.value)
    assert report(core) == report(torch)
