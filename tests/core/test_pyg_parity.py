"""What PyTorch Geometric's package needs from torch (#19, recipes_pyg): ``torch.__config__``'s build text,
``torch._tensor_str._tensor_str``, ``torch.distributed.rpc`` without RPC, ``torch.sparse.mm``'s ``reduce`` on CSR
matrices and the ATen operators PyG's ``Index``/``EdgeIndex`` register ``__torch_dispatch__`` handlers for."""

import numpy as np
import pytest
import torch

import core


def test_config_show_names_build_settings_as_torch_does():
    for lib in (core, torch):
        text = lib.__config__.show()
        assert text.startswith("PyTorch built with:\n")
        assert "Build settings: " in text and "TORCH_VERSION=" in text
        assert "USE_MKL=" in text and "USE_CUDA=" in text
    assert "USE_MKL=OFF" in core.__config__.show()  # core has no MKL: PyG takes its COO path
    assert f"get_num_threads() : {core.get_num_threads()}" in core.__config__.parallel_info()


@pytest.mark.parametrize("values", [[[1.5, 2.0], [3.0, 4.0]], [1, 2], [[1e-8, 1e5]], [True, False], []])
@pytest.mark.parametrize("indent", [0, 4])
def test_tensor_str_lays_out_values_as_torch(values, indent):
    from torch._tensor_str import _tensor_str as torch_str

    from core._tensor_str import _tensor_str as core_str

    assert core_str(core.tensor(values), indent) == torch_str(torch.tensor(values), indent)
    if values and values != [True, False]:  # a tensor that requires grad prints its values alone too
        assert core_str(core.tensor(values, dtype=core.float32).requires_grad_(), indent) == torch_str(
            torch.tensor(values, dtype=torch.float32).requires_grad_(), indent)


def test_tensor_str_summarizes_large_tensors_as_torch():
    from core._tensor_str import _str, _tensor_str

    big = [float(i) for i in range(3000)]
    assert _tensor_str(core.tensor(big).view(1000, 3), 0) == torch._tensor_str._tensor_str(
        torch.tensor(big).view(1000, 3), 0)
    assert _str(core.tensor([[1.0, 2.0]])) == torch._tensor_str._str(torch.tensor([[1.0, 2.0]]))


def test_distributed_rpc_is_a_module_that_is_not_available():
    from core.distributed import rpc

    assert rpc.is_available() is False
    assert not hasattr(rpc, "api")


def _csr(lib):
    return lib.tensor([[0, 2.0, 0, 1], [1, 0, 3, 0], [0, 0, 0, 0], [4, -1, 0, 2]]).to_sparse_csr()


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin"])
def test_sparse_mm_reduce_matches_torch(reduce):
    outs, grads = [], []
    for lib in (core, torch):
        dense = lib.arange(12.0).view(4, 3).sin().requires_grad_()
        out = lib.sparse.mm(_csr(lib), dense, reduce)
        (out * lib.arange(12.0).view(4, 3)).sum().backward()
        outs.append(out.detach().numpy())
        grads.append(dense.grad.numpy())
    assert np.allclose(outs[0], outs[1], atol=1e-6)
    assert np.allclose(grads[0], grads[1], atol=1e-6)


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin"])
@pytest.mark.parametrize("grad", [False, True])
def test_aten_sparse_mm_reduce_impl_returns_torchs_arg_out(reduce, grad):
    results = []
    for lib in (core, torch):
        dense = lib.arange(12.0).view(4, 3).cos().requires_grad_(grad)
        out, arg = lib.ops.aten._sparse_mm_reduce_impl(_csr(lib), dense, reduce)
        results.append((out.detach().numpy(), arg.tolist(), str(arg.dtype), tuple(arg.shape)))
    assert np.allclose(results[0][0], results[1][0], atol=1e-6)
    assert results[0][1:] == results[1][1:]


def test_sparse_mm_reduce_refuses_as_torch():
    for lib in (core, torch):
        dense = lib.ones(4, 2)
        with pytest.raises(RuntimeError, match="reduce type of prod has not been enabled"):
            lib.sparse.mm(_csr(lib), dense, "prod")
        with pytest.raises(NotImplementedError, match="_sparse_mm_reduce_impl"):
            lib.sparse.mm(_csr(lib).to_sparse_coo(), dense, "amax")


def test_aten_pin_memory_and_sparse_addmm_match_torch():
    results = []
    for lib in (core, torch):
        x = lib.arange(6.0).view(3, 2)
        a = lib.tensor([[0, 2.0, 0], [1, 0, 3], [0, 0, 0]]).to_sparse()
        with pytest.raises(RuntimeError, match="accelerator"):  # (pinning needs an accelerator, in both)
            lib.ops.aten._pin_memory.default(x)
        added = lib.ops.aten._sparse_addmm.default(lib.ones(3, 2), a, x, beta=0.5, alpha=2)
        results.append(added.tolist())
    assert results[0] == results[1]


@pytest.mark.parametrize("rows,size", [([0, 0, 2, 2, 2, 5], 7), ([], 3), ([1, 1], 2), ([0, 1, 1], 2)])
@pytest.mark.parametrize("out_int32", [False, True])
def test_convert_indices_from_coo_to_csr_matches_torch(rows, size, out_int32):
    got = [lib._convert_indices_from_coo_to_csr(lib.tensor(rows, dtype=lib.long), size, out_int32=out_int32)
           for lib in (core, torch)]
    assert got[0].tolist() == got[1].tolist() and str(got[0].dtype) == str(got[1].dtype)


@pytest.mark.parametrize("transpose", [False, True])
def test_convert_indices_from_csr_to_coo_matches_torch(transpose):
    got = [lib._convert_indices_from_csr_to_coo(lib.tensor([0, 2, 2, 5]), lib.tensor([1, 2, 0, 1, 2]),
                                                transpose=transpose) for lib in (core, torch)]
    assert got[0].tolist() == got[1].tolist() and str(got[0].dtype) == str(got[1].dtype)


def test_convert_indices_refuse_as_torch():
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="Input is supposed to be a vector, but got 2 dimensional tensor"):
            lib._convert_indices_from_coo_to_csr(lib.tensor([[0, 1]]), 3)
        with pytest.raises(NotImplementedError, match="not implemented for 'Float'"):
            lib._convert_indices_from_coo_to_csr(lib.tensor([0.0, 1.0]), 3)


@pytest.mark.parametrize("layout,names", [("csr", ("crow_indices", "col_indices")),
                                          ("csc", ("ccol_indices", "row_indices"))])
def test_sparse_compressed_constructors_take_their_index_names_as_keywords(layout, names):
    got = []
    for lib in (core, torch):
        make = getattr(lib, f"sparse_{layout}_tensor")
        kwargs = {names[0]: lib.tensor([0, 1, 3]), names[1]: lib.tensor([1, 0, 1]), "values": lib.tensor([1.0, 2, 3])}
        got.append(make(**kwargs, size=(2, 2)).to_dense().tolist())
        got.append(make(lib.tensor([0, 1, 3]), values=lib.tensor([1.0, 2, 3]), size=(2, 2),
                        **{names[1]: lib.tensor([1, 0, 1])}).to_dense().tolist())
        with pytest.raises(TypeError):
            make(values=lib.tensor([1.0]), **{"indices": lib.tensor([0])})
    assert got[:2] == got[2:]


@pytest.mark.parametrize("reduce", ["amax", "amin", "max", "min"])
def test_segment_reduce_takes_amax_amin_names(reduce):
    got = []
    for lib in (core, torch):
        x = lib.tensor([1.0, 5, 2, 3, 4]).requires_grad_()
        out = lib._segment_reduce(x, reduce, offsets=lib.tensor([0, 2, 5]))
        out.sum().backward()
        got.append((out.tolist(), x.grad.tolist()))
    assert got[0] == got[1]


@pytest.mark.parametrize("reduce", ["max", "min"])
def test_sparse_mm_takes_max_min_names(reduce):
    got = [lib.sparse.mm(_csr(lib), lib.arange(12.0).view(4, 3), reduce).tolist() for lib in (core, torch)]
    assert got[0] == got[1]
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="reduce argument must be either sum, prod, mean, amax or amin, got foo"):
            lib.sparse.mm(_csr(lib), lib.ones(4, 2), "foo")


def test_coalesced_marks_a_coo_tensor_in_place():
    got = []
    for lib in (core, torch):
        a = lib.sparse_coo_tensor(lib.tensor([[0, 1, 1], [1, 0, 2]]), lib.tensor([1.0, 2, 3]), (2, 3))
        same = a._coalesced_(True)
        got.append((same is a, a.is_coalesced(), a.indices().tolist(), a.values().tolist()))
        a._coalesced_(False)
        got.append(a.is_coalesced())
    assert got[:2] == got[2:]


def _dispatched(lib, fn):
    """The ATen calls ``fn`` makes, as a TorchDispatchMode sees them: (overload, kwargs) pairs."""
    from importlib import import_module

    seen = []

    class Record(import_module(f"{lib.__name__}.utils._python_dispatch").TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((str(func), [a for a in args if not isinstance(a, (lib.Tensor, list))], kwargs or {}))
            return func(*args, **(kwargs or {}))

    with Record():
        fn()
    return seen


def test_dispatch_sees_narrow_as_slice_and_cat_without_out_none():
    for fn in (lambda lib, x: x.narrow(0, 2, 3), lambda lib, x: lib.narrow(x, 0, -3, 2),
               lambda lib, x: lib.cat([x, x], dim=0, out=None), lambda lib, x: lib.stack([x, x], dim=1)):
        got = [_dispatched(lib, lambda lib=lib, x=lib.arange(8): fn(lib, x))  # noqa: B023 (called at once)
               for lib in (core, torch)]
        assert got[0] == got[1]
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match=r"start \(7\) \+ length \(3\) exceeds dimension size \(8\)"):
            lib.arange(8).narrow(0, 7, 3)


def test_default_device_and_add_suffixes_as_torch():
    assert core._C._get_default_device() == torch._C._get_default_device() == "cpu"
    for force in (False, True):
        for text, suffixes in (("Index([1, 2]", ["dim_size=3", "is_sorted=True"]), ("X([" + "1, " * 40 + "]", ["a=1"])):
            assert core._tensor_str._add_suffixes(text, suffixes, 6, force_newline=force) == \
                torch._tensor_str._add_suffixes(text, suffixes, 6, force_newline=force)


def _wrapper_class(lib):
    """A ``__torch_dispatch__`` wrapper keeping the tensor it wraps in ``_data`` (PyTorch Geometric's ``Index``)."""
    from importlib import import_module

    pytree = import_module(f"{lib.__name__}.utils._pytree")

    class Wrapped(lib.Tensor):
        _data: lib.Tensor

        @staticmethod
        def __new__(cls, data):
            out = lib.Tensor._make_wrapper_subclass(cls, size=data.size(), strides=data.stride(), dtype=data.dtype,
                                                    device=data.device)
            out._data = data
            return out

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            args = pytree.tree_map_only(Wrapped, lambda x: x._data, args)
            return func(*args, **(kwargs or {}))

    return Wrapped


def test_a_wrapper_subclass_may_keep_its_tensor_in_data():
    got = []
    for lib in (core, torch):
        w = _wrapper_class(lib)(lib.tensor([3, 1, 2]))
        got.append((type(w._data).__name__, w._data.tolist(), w.numel(), w.dim(), tuple(w.shape), str(w.dtype),
                    (w + 1).tolist(), w.sort().values.tolist(), w[1:].tolist()))
    assert got[0][0] == "Tensor" and got[1][0] == "Tensor"
    assert got[0][1:] == got[1][1:]


def test_removable_handle_made_as_torch_makes_it():
    from collections import OrderedDict

    got = []
    for lib in (core, torch):
        hooks = __import__(f"{lib.__name__}.utils.hooks", fromlist=["RemovableHandle"])
        store, extra = OrderedDict(), OrderedDict()
        first = hooks.RemovableHandle(store, extra_dict=extra)
        store[first.id], extra[first.id] = "f", True
        second = hooks.RemovableHandle(store, extra_dict=[extra])
        store[second.id] = "g"
        first.remove()
        with hooks.RemovableHandle(store) as third:
            store[third.id] = "h"
            inside = list(store.values())
        got.append((list(store.values()), len(extra), inside, second.id > first.id))
    assert got[0] == got[1]


def test_coo_values_and_coalesce_carry_gradients_as_torch():
    got = []
    for lib in (core, torch):
        v = lib.tensor([1.0, 2, 3], requires_grad=True)
        a = lib.sparse_coo_tensor(lib.tensor([[0, 1, 0], [1, 0, 1]]), v, (2, 3))
        b = a.coalesce()
        w = b.values()
        (w * lib.tensor([5.0, 7])).sum().backward()
        marked = lib.sparse_coo_tensor(lib.tensor([[0, 1], [1, 0]]), v[:2] * 1, (2, 3))._coalesced_(True)
        leaf = lib.sparse_coo_tensor(lib.tensor([[0, 1], [1, 0]]), lib.ones(2), (2, 3)).requires_grad_()
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            leaf._coalesced_(True)
        got.append((b.grad_fn.name(), w.grad_fn.name(), w.tolist(), v.grad.tolist(), marked.requires_grad))
    assert got[0] == got[1]


def test_hybrid_coo_to_compressed_keeps_its_dense_dims():
    got = []
    for lib in (core, torch):
        a = lib.sparse_coo_tensor(lib.tensor([[0, 1, 2], [1, 0, 1]]), lib.arange(1.0, 7).view(3, 2), (3, 3, 2))
        for out in (a.to_sparse_csr(), a.to_sparse_csc()):
            got.append((out.dense_dim(), tuple(out.values().shape), out.to_dense().tolist()))
        with pytest.raises(RuntimeError, match="coo_to_sparse_csr: conversion from Sparse to SparseCsr with "
                                               "dense_dim argument given is not supported"):
            a.to_sparse_csr(dense_dim=1)
    assert got[:2] == got[2:]


def test_load_reads_python_2_names_of_builtins_in_protocol_2_pickles():
    """``torch.save`` pickles with protocol 2, which writes ``int`` as ``__builtin__.long`` (PyG's models keep
    ``Optional[int]`` annotations); loading maps the names back as pickle does."""
    import io

    saved = io.BytesIO()
    torch.save({"types": (int, bytes, float), "x": torch.arange(3)}, saved)
    for lib in (core, torch):
        saved.seek(0)
        out = lib.load(saved, weights_only=False)
        assert out["types"] == (int, bytes, float) and out["x"].tolist() == [0, 1, 2]
    mine = io.BytesIO()
    core.save({"types": (int, bytes)}, mine)
    mine.seek(0)
    assert core.load(mine, weights_only=False)["types"] == (int, bytes)


@pytest.mark.parametrize("reduce", ["amax", "amin", "prod", "mean"])
@pytest.mark.parametrize("include_self", [False, True])
def test_inplace_scatter_reduce_gradients_use_self_before_the_write(reduce, include_self):
    """PyG's ``scatter(reduce='max')``: ``src.new_zeros(size).scatter_reduce_(..., include_self=False)``."""
    got = []
    for lib in (core, torch):
        lib.manual_seed(0)
        src = lib.randn(12, 3).requires_grad_()
        weight = lib.rand(12, 1).requires_grad_()
        index = lib.tensor([0, 0, 1, 1, 1, 2, 2, 0, 3, 3, 1, 2]).view(-1, 1).expand(-1, 3)
        messages = src * weight
        out = messages.new_zeros(5, 3).scatter_reduce_(0, index, messages, reduce=reduce, include_self=include_self)
        (out * lib.arange(15.0).view(5, 3)).sum().backward()
        got.append((out.detach().numpy(), src.grad.numpy(), weight.grad.numpy()))
    for mine, theirs in zip(*got):
        assert np.allclose(mine, theirs, atol=1e-5)


def test_dynamo_explain_runs_the_function_and_reports_no_graph_break():
    calls = []

    def f(x):
        calls.append(1)
        return x.sin() + 1

    for lib in (core, torch):
        out = lib._dynamo.explain(f)(lib.ones(2))
        assert out.graph_break_count == 0 and out.break_reasons == []
        assert str(out).startswith(f"Graph Count: {out.graph_count}\nGraph Break Count: 0\n")
    assert core._dynamo.explain(f)(core.ones(2)).graph_count == 0  # core captures no graph (torch: 1)
    assert len(calls) >= 3


def test_deepcopy_of_an_uninitialized_parameter_stays_uninitialized():
    """PyG's ``Linear(-1, 32)`` deep-copied before its first forward materialises its own weight in the copy."""
    import copy

    got = []
    for lib in (core, torch):
        p = lib.nn.parameter.UninitializedParameter(requires_grad=False, dtype=lib.float64)
        q = copy.deepcopy(p)
        memo_twice = copy.deepcopy([p, p])
        got.append((type(q).__name__, q.requires_grad, str(q.dtype).split(".")[-1], q is not p,
                    memo_twice[0] is memo_twice[1]))
        q.materialize((2, 3))
        got.append((type(q).__name__, tuple(q.shape), type(p).__name__))
    assert got[:2] == got[2:]


def test_lazy_parameters_in_state_dicts_as_torch():
    got = []
    for lib in (core, torch):
        from importlib import import_module

        is_lazy = import_module(f"{lib.__name__}.nn.parameter").is_lazy
        lazy, other = lib.nn.LazyLinear(4), lib.nn.LazyLinear(4)
        saved = lazy.state_dict()
        other.load_state_dict(saved)
        eager = lib.nn.Linear(3, 4)
        filled = lib.nn.LazyLinear(4)
        filled.load_state_dict(eager.state_dict())
        with pytest.raises(RuntimeError, match="Can't access the shape of an uninitialized parameter"):
            lib.nn.Linear(3, 4).load_state_dict(lib.nn.LazyLinear(4).state_dict())
        got.append((type(saved["weight"]).__name__, is_lazy(lazy.weight), is_lazy(eager.weight),
                    type(other.weight).__name__, type(filled.weight).__name__, tuple(filled.weight.shape),
                    bool((filled.weight == eager.weight).all())))
    assert got[0] == got[1]


def test_jit_recursive_has_a_concrete_type_store_to_clear():
    for lib in (core, torch):
        store = lib.jit._recursive.concrete_type_store.type_store
        store.pop(lib.nn.Linear, None)  # PyG's Sequential.__prepare_scriptable__
        assert isinstance(store, dict)
    assert core.jit._recursive.concrete_type_store.type_store == {}
