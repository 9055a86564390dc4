"""Names third-party code imports from PyTorch's less public paths (``torch.types``, ``torch.utils.data._utils
.collate``, ``torch.autograd.function.FunctionCtx``...) exist in core and behave as torch's do."""

import collections

import numpy as np
import pytest

import core


def test_torch_types_aliases_answer_isinstance_and_annotations_as_torchs(torch):
    import core.types as ours

    theirs = torch.types
    assert core.types is ours
    assert ours._Number == theirs._Number
    assert isinstance(3.0, ours._Number) and not isinstance("3", ours._Number)
    assert ours.Number == theirs.Number
    for name in ("Number", "Device", "_size", "_int", "_float", "_bool", "_TensorOrTensors", "FileLike",
                 "IntLikeType", "py_sym_types", "_dtype", "_device", "Storage"):
        assert hasattr(ours, name), name
    assert ours._dtype is core.dtype and ours._device is core.device


def _ctx_is_function_ctx(lib):
    """Apply a custom Function in ``lib``; True where its forward's ctx and its grad_fn are FunctionCtx."""
    from importlib import import_module

    function_ctx = import_module(f"{lib.__name__}.autograd.function").FunctionCtx
    seen = []

    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(isinstance(ctx, function_ctx))
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = lib.ones(2, requires_grad=True)
    Double.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    return seen == [True] and isinstance(Double.apply(x).grad_fn, function_ctx)


def test_a_custom_functions_ctx_is_a_function_ctx(torch):
    assert _ctx_is_function_ctx(torch)
    assert _ctx_is_function_ctx(core)


def _collate_both(torch, build):
    from torch.utils.data._utils import collate as theirs

    from core.utils.data._utils import collate as ours

    return build(ours, core), build(theirs, torch)


def test_collate_with_a_registry_collates_a_custom_type_as_torch(torch):
    class Point:
        def __init__(self, x):
            self.x = x

    def build(mod, lib):
        def collate_point(batch, *, collate_fn_map):
            return lib.tensor([p.x for p in batch]) * 10

        fn_map = {**mod.default_collate_fn_map, Point: collate_point}
        return mod.collate([(Point(1), 2.5, "a"), (Point(3), 4.5, "b")], collate_fn_map=fn_map)

    ours, theirs = _collate_both(torch, build)
    assert ours[0].tolist() == theirs[0].tolist() == [10, 30]
    assert ours[1].dtype is core.float64 and theirs[1].dtype is torch.float64
    assert ours[2] == theirs[2] == ("a", "b")


def test_default_collate_keeps_a_mapping_type_and_refuses_string_arrays_as_torch(torch):
    def build(mod, lib):
        batch = [collections.OrderedDict(a=np.ones(2), b=1), collections.OrderedDict(a=np.zeros(2), b=2)]
        out = mod.default_collate(batch)
        with pytest.raises(TypeError) as info:
            mod.default_collate([np.array(["x"]), np.array(["y"])])
        return type(out).__name__, out["a"].tolist(), out["b"].tolist(), str(info.value)

    ours, theirs = _collate_both(torch, build)
    assert ours == theirs
    from core.utils.data._utils.collate import default_collate

    assert core.utils.data.default_collate is default_collate


def test_default_collate_of_unequal_lists_raises_torchs_error(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
            lib.utils.data.default_collate([[1, 2], [3]])


def test_canonical_mask_and_get_activation_fn_serve_copied_transformer_code(torch):
    for lib in (core, torch):
        mask = lib.tensor([[False, True]])
        out = lib.nn.functional._canonical_mask(mask, "mask", None, "", lib.float32)
        assert out.dtype is lib.float32 and out.tolist() == [[0.0, float("-inf")]]
        from importlib import import_module

        get = import_module(f"{lib.__name__}.nn.modules.transformer")._get_activation_fn
        assert get("gelu")(lib.tensor([1.0])).item() == pytest.approx(0.8413447)
        with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
            get("tanh")


def test_uninitialized_parameter_is_importable_from_nn_parameter(torch):
    from core.nn.parameter import UninitializedBuffer, UninitializedParameter

    lazy = core.nn.LazyLinear(3)
    assert isinstance(lazy.weight, UninitializedParameter)
    assert isinstance(torch.nn.LazyLinear(3).weight, torch.nn.parameter.UninitializedParameter)
    assert UninitializedBuffer is core.nn.modules.lazy.UninitializedBuffer
