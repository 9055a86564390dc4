"""The torch corners Hugging Face transformers touches at import and while building models (issue #19's corpus,
``recipes_hf.py``): ``torch.distributed.tensor``'s placements and ``DTensor`` on one rank, ``torch.distributed.fsdp``'s
class for isinstance checks, ``torch._dynamo``'s decorators and ``exc``, ``TransformGetItemToIndex`` under ``vmap``
(transformers' mask functions), and flex attention's module names; each against PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import core


def test_placements_print_compare_and_answer_as_torchs(torch):
    from torch.distributed import tensor as tt

    from core.distributed import tensor as ct

    for lib in (tt, ct):
        placements = [lib.Shard(0), lib.Shard(1), lib.Replicate(), lib.Partial(), lib.Partial("max")]
        assert all(isinstance(p, lib.Placement) for p in placements)
    pairs = [(tt.Shard(0), ct.Shard(0)), (tt.Shard(2), ct.Shard(2)), (tt.Replicate(), ct.Replicate()),
             (tt.Partial(), ct.Partial()), (tt.Partial("max"), ct.Partial("max"))]
    for want, got in pairs:
        assert repr(got) == repr(want) and str(got) == str(want)
        for dim in (None, 0, 1):
            assert got.is_shard(dim) == want.is_shard(dim)
        assert got.is_replicate() == want.is_replicate() and got.is_partial() == want.is_partial()
    assert ct.Shard(0) == ct.Shard(0) and ct.Shard(0) != ct.Shard(1) and ct.Replicate() == ct.Replicate()
    assert len({ct.Shard(0), ct.Shard(0), ct.Replicate(), ct.Replicate()}) == 2
    assert (tt.Shard(0) == tt.Shard(0), tt.Shard(0) == tt.Shard(1)) == (True, False)


def test_dtensor_on_one_rank_holds_the_whole_tensor():
    from core.distributed.tensor import DTensor, Replicate, Shard

    local = core.arange(6.0).reshape(2, 3)
    d = DTensor.from_local(local, None, [Shard(0)], run_check=False)
    assert isinstance(d, DTensor) and isinstance(d, core.Tensor) and not isinstance(local, DTensor)
    assert d.placements == (Shard(0),)
    for whole in (d.to_local(), d.full_tensor()):
        assert type(whole) is core.Tensor
        np.testing.assert_array_equal(whole.numpy(), local.numpy())
    assert DTensor.from_local(local).placements == (Replicate(),)


def test_fsdp_class_exists_for_isinstance_checks(torch):
    import torch.distributed.fsdp as tf

    import core.distributed.fsdp as cf

    for lib, fsdp in ((torch, tf), (core, cf)):
        assert issubclass(fsdp.FullyShardedDataParallel, lib.nn.Module)
        assert not isinstance(lib.nn.Linear(2, 2), fsdp.FullyShardedDataParallel)
    with pytest.raises(NotImplementedError):
        cf.FullyShardedDataParallel(core.nn.Linear(2, 2))


def test_dynamo_decorators_leave_functions_callable_as_torchs(torch):
    def f(x):
        return x * 2 + 1

    for lib in (torch, core):
        assert lib._dynamo.allow_in_graph(f) is f
        assert lib._dynamo.disable(f)(3) == 7 and lib._dynamo.disable()(f)(3) == 7
        assert lib._dynamo.disable(recursive=False)(f)(1) == 3
        assert lib._dynamo.mark_static_address(lib.zeros(3)) is None
        assert issubclass(lib._dynamo.exc.Unsupported, RuntimeError)
    for lib in (torch, core):
        with pytest.raises(AssertionError, match="expects a callable"):
            lib._dynamo.allow_in_graph(3)


def _padded_mask(lib):
    """transformers' ``padding_mask_function`` and ``causal_mask_function`` vmapped over batch, head, query and key
    indices inside ``TransformGetItemToIndex``, as ``masking_utils.sdpa_mask_recent_torch`` builds a 4-D mask."""
    from importlib import import_module

    getitem = import_module(f"{lib.__name__}._dynamo._trace_wrapped_higher_order_op").TransformGetItemToIndex
    padding = lib.tensor([[True, True, True, False], [False, True, True, True]])

    def mask(b, h, q, kv):
        return (kv <= q) & padding[b, kv]

    f = mask
    for dims in [(None, None, None, 0), (None, None, 0, None), (None, 0, None, None), (0, None, None, None)]:
        f = lib.vmap(f, in_dims=dims)
    with getitem():
        return f(lib.arange(2), lib.arange(1), lib.arange(4), lib.arange(4)), padding[1, 2]


def test_transform_getitem_to_index_masks_under_vmap(torch):
    want, want_item = _padded_mask(torch)
    got, got_item = _padded_mask(core)
    assert got.dtype == core.bool and tuple(got.shape) == tuple(want.shape) == (2, 1, 4, 4)
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert bool(got_item) == bool(want_item)


def test_flex_attention_module_names_as_torchs(torch):
    """transformers imports ``_DEFAULT_SPARSE_BLOCK_SIZE``, ``BlockMask`` and ``create_block_mask`` at module level
    (``tests/core/test_flex_attention_oracle.py`` checks what they compute)."""
    from torch.nn.attention import flex_attention as tf

    from core.nn.attention import flex_attention as cf

    assert cf._DEFAULT_SPARSE_BLOCK_SIZE == tf._DEFAULT_SPARSE_BLOCK_SIZE
    for name in ("BlockMask", "create_block_mask", "create_mask", "flex_attention", "and_masks", "or_masks",
                 "noop_mask", "AuxRequest", "AuxOutput"):
        assert hasattr(cf, name) and hasattr(tf, name)


def _dicts(lib):
    """Tensors' ``__dict__`` after the autograd and view machinery has run on them."""
    x = lib.randn(3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    view = y[1:]
    view.sum().backward()
    param = lib.nn.Parameter(lib.zeros(2))
    (param * 3).sum().backward()
    tagged = lib.zeros(2)
    tagged.note = "set by a user"
    tagged.__dict__["other"] = 1
    return [x.__dict__, y.__dict__, view.__dict__, param.__dict__, lib.nn.Buffer(lib.zeros(2)).__dict__,
            dict(tagged.__dict__), vars(tagged), tagged.other, lib.zeros(1).__dict__]


def test_tensor_dict_holds_only_the_users_attributes_as_torchs(torch):
    want, got = _dicts(torch), _dicts(core)
    assert [dict(d) if hasattr(d, "keys") else d for d in got] == [dict(d) if hasattr(d, "keys") else d
                                                                  for d in want]
    t = core.zeros(2)
    t.x = 1
    del t.__dict__["x"]
    assert not hasattr(t, "x") and len(t.__dict__) == 0


def test_parameter_rebuilt_from_its_dict_as_init_empty_weights_does(torch):
    """accelerate's and transformers' ``init_empty_weights``: ``type(p)(p.to(device), **p.__dict__)`` after setting
    ``requires_grad`` in that dictionary's copy."""
    for lib in (torch, core):
        for requires_grad in (True, False):
            param = lib.nn.Parameter(lib.randn(2, 3), requires_grad=requires_grad)
            kwargs = param.__dict__
            kwargs["requires_grad"] = param.requires_grad
            moved = type(param)(param.to("meta"), **kwargs)
            assert type(moved) is lib.nn.Parameter and moved.is_meta and moved.requires_grad == requires_grad
            assert tuple(moved.shape) == (2, 3)


def test_nn_utils_is_the_utils_package_as_torchs(torch):
    """``from torch import nn; nn.utils.parametrizations`` (transformers' ``from_pretrained``): ``nn.utils`` is the
    ``torch.nn.utils`` package, not ``nn.modules.utils`` (``_pair``...), which ``nn.modules`` also holds."""
    for lib in (torch, core):
        assert lib.nn.utils.__name__ == f"{lib.__name__}.nn.utils"
        assert hasattr(lib.nn.utils, "parametrizations") and hasattr(lib.nn.utils, "clip_grad_norm_")
        assert lib.nn.modules.utils.__name__ == f"{lib.__name__}.nn.modules.utils"


def test_tensor_mro_has_torchs_tensorbase(torch):
    for lib in (torch, core):
        assert [c.__name__ for c in lib.Tensor.__mro__] == ["Tensor", "TensorBase", "object"]
        assert lib.Tensor.__mro__[1] is lib._C.TensorBase
    assert core._C.TensorBase.__module__ == "core._C" and torch._C.TensorBase.__module__ == "torch._C"


def test_cudnn_flags_context_sets_and_restores_as_torchs(torch):
    for lib in (torch, core):
        cudnn = lib.backends.cudnn
        before = cudnn.set_flags()
        assert before == (True, False, None, False, True, "none", "auto")

        def state(cudnn=cudnn):
            return cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32

        with cudnn.flags(enabled=False):
            assert state() == (False, False, False, True)
        with cudnn.flags(enabled=True, benchmark=True, deterministic=True, allow_tf32=False):
            assert state() == (True, True, True, False)
        assert cudnn.set_flags() == before and cudnn.enabled is True and cudnn.fp32_precision == "none"


def _traced_with_constant_param_shapes(lib):
    """``Tracer(param_shapes_constant=True)``: a parameter read in ``forward`` is a ``ParameterProxy`` whose shape
    is the parameter's, so ``if self.weight.shape[0] > 2`` takes a branch while tracing."""
    import importlib

    fx = importlib.import_module(f"{lib.__name__}.fx")

    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = lib.nn.Parameter(lib.ones(3, 2))

        def forward(self, x):
            w = self.weight
            seen.append((repr(w), tuple(w.shape), tuple(w.size()), w.dim(), w.ndim, w.numel(), w.nelement()))
            return x @ w.t() if w.shape[0] > 2 else x

    seen: list = []
    graph = fx.Tracer(param_shapes_constant=True).trace(Net())
    return seen, [(n.op, str(n.target)) for n in graph.nodes]


def test_parameter_proxy_and_compatibility_as_torchs(torch):
    assert _traced_with_constant_param_shapes(core) == _traced_with_constant_param_shapes(torch)
    from torch.fx._compatibility import compatibility as torch_compatibility

    from core.fx._compatibility import compatibility

    for mark in (compatibility, torch_compatibility):
        def f():
            """Doc."""

        def g():
            pass

        assert mark(is_backward_compatible=True)(f) is f and mark(is_backward_compatible=False)(g) is g
        assert "Backwards-compatibility for this API is guaranteed" in f.__doc__
        assert "experimental and is *NOT* backward-compatible" in g.__doc__
