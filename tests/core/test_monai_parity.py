"""Oracle tests for what MONAI's package (tests/external/recipes_monai.py) found missing or different in core."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core


@pytest.mark.parametrize("lib", [core, torch], ids=["core", "torch"])
def test_backend_flags_freeze_as_torch(lib):
    """MONAI's set_determinism asks flags_frozen() and sets the module's flag name, which unfreezes nothing in torch
    (torch.backends is a wrapper module: the assignment shadows the name there)."""
    assert lib.backends.flags_frozen() is False
    assert lib.backends.__allow_nonbracketed_mutation_flag is True
    lib.backends.disable_global_flags()
    try:
        assert lib.backends.flags_frozen() is True
        assert lib.backends.__allow_nonbracketed_mutation_flag is False
        with lib.backends.__allow_nonbracketed_mutation():
            assert lib.backends.flags_frozen() is False
            lib.backends.cudnn.benchmark = True
        lib.backends.cudnn.set_flags(_benchmark=False)
        assert lib.backends.flags_frozen() is True
        with pytest.raises(RuntimeError, match="not allowed to set torch.backends.cudnn flags"):
            lib.backends.cudnn.benchmark = True
        with pytest.raises(RuntimeError, match="please use flags"):
            lib.backends.mkldnn.enabled = False
        with lib.backends.cudnn.flags(enabled=True, deterministic=True):
            assert lib.backends.cudnn.deterministic is True
        assert lib.backends.cudnn.deterministic is False
        lib.backends.__allow_nonbracketed_mutation_flag = True
        assert lib.backends.flags_frozen() is True
    finally:  # the module's own flag, which only disable_global_flags and the context manager set
        del lib.backends.__allow_nonbracketed_mutation_flag
        flag = next(n for n in lib.backends.flags_frozen.__code__.co_names if "allow" in n)
        lib.backends.flags_frozen.__globals__[flag] = True
    assert lib.backends.flags_frozen() is False
    lib.backends.cudnn.deterministic = True
    assert lib.backends.cudnn.deterministic is True
    lib.backends.cudnn.deterministic = False


def test_collate_string_array_pattern_as_torch():
    """MONAI's image reader tests arrays with collate's np_str_obj_array_pattern."""
    from torch.utils.data._utils import collate as theirs

    from core.utils.data._utils import collate as ours

    for array in (np.array(["a"]), np.array([b"a"]), np.array([object()]), np.zeros(2), np.array([1], "<U3")):
        assert (ours.np_str_obj_array_pattern.search(array.dtype.str) is None) == (
            theirs.np_str_obj_array_pattern.search(array.dtype.str) is None)
    for mod in (ours, theirs):
        with pytest.raises(TypeError, match="default_collate: batch must contain"):
            mod.default_collate([np.array(["a"]), np.array(["b"])])


@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("kwargs", [{}, {"padding": 1}, {"stride": 2, "padding": 1}])
def test_conv3d_output_is_contiguous_as_torch(transposed, kwargs):
    """MONAI's SSIMMetric views a grouped conv3d's output as (batch, -1): torch's output is contiguous."""
    results = []
    for lib in (core, torch):
        x = lib.from_numpy(np.random.default_rng(0).random((2, 3, 6, 7, 8), dtype=np.float32))
        w = lib.from_numpy(np.random.default_rng(1).random((3, 2, 3, 3, 3), dtype=np.float32))
        if transposed:
            out = lib.nn.functional.conv_transpose3d(x, w, **kwargs)
        else:
            out = lib.nn.functional.conv3d(x, w[:3, :1], groups=3, **kwargs)
        assert out.is_contiguous()
        results.append((out.shape, out.stride(), out.view(2, -1).mean(1).numpy()))
    assert results[0][:2] == results[1][:2]
    np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-5)


@pytest.mark.parametrize("lib", [core, torch], ids=["core", "torch"])
def test_default_collate_stacks_through_torch_function(lib):
    """default_collate's tensor batch is torch.stack's, so a subclass's __torch_function__ (MONAI's MetaTensor) makes
    it, seeing what torch's Python collate passes: is_nested, layout, then stack(batch, 0, out=None)."""
    from importlib import import_module

    collate = import_module(f"{lib.__name__}.utils.data._utils.collate")
    seen = []

    class Tagged(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append((getattr(func, "__name__", "?"), len(args), sorted((kwargs or {}).items())))
            return super().__torch_function__(func, types, args, kwargs or {})

    batch = collate.default_collate([{"x": lib.ones(2).as_subclass(Tagged)}, {"x": lib.zeros(2).as_subclass(Tagged)}])
    calls = list(seen)
    assert type(batch["x"]) is Tagged and batch["x"].shape == (2, 2)
    assert calls == [("__get__", 1, []), ("__get__", 1, []), ("stack", 2, [("out", None)])]
    with pytest.raises(RuntimeError, match="Batches of sparse tensors are not currently supported"):
        collate.default_collate([lib.ones(2).to_sparse(), lib.ones(2).to_sparse()])


@pytest.mark.parametrize("lib", [core, torch], ids=["core", "torch"])
def test_subclass_operator_type_error_is_not_implemented(lib):
    """A subclass's operator whose handler raises TypeError answers NotImplemented, as torch's, so Python asks the
    other operand: MONAI's MetaTensor > ndarray reaches MetaTensor.__array_ufunc__ through the array."""

    class WithUfunc(lib.Tensor):
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return ufunc.__name__

    t = lib.tensor([1.0, 2.0, 3.0]).as_subclass(WithUfunc)
    assert (t > np.ones(3)) == "less"
    assert (t <= np.ones(3)) == "greater_equal"
    assert (t - np.ones(3)) == "subtract"
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for -: 'WithUfunc' and 'list'"):
        t - [1]
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \*\* or pow\(\): 'WithUfunc' and 'str'"):
        t ** "a"


class Tagged(torch.Tensor):
    """A torch subclass with attributes (pickled by reference: a module-level class)."""


@pytest.mark.parametrize("how", ["pickle", "save", "copy"])
def test_subclass_attributes_survive_pickling_as_torch(how):
    """MONAI's MetaTensor keeps its metadata in private attributes (_meta...): torch pickles a subclass's whole
    __dict__ (or its own __getstate__), with its type, through pickle, torch.save and copy.copy."""
    import copy
    import io
    import pickle

    from tests.core.tensor_likes import CoreTagged, WithState

    def roundtrip(lib, t):
        if how == "pickle":
            return pickle.loads(pickle.dumps(t))
        if how == "copy":
            return copy.copy(t)
        buf = io.BytesIO()
        lib.save(t, buf)
        buf.seek(0)
        return lib.load(buf, weights_only=False)

    results = []
    for lib, cls in ((core, CoreTagged), (torch, Tagged)):
        t = lib.arange(3.0).as_subclass(cls)
        t._meta, t.label = {"affine": lib.eye(2)}, "x"
        plain = lib.ones(2)
        plain.note = 1
        back, back_plain = roundtrip(lib, t), roundtrip(lib, plain)
        assert type(back) is cls and type(back_plain) is lib.Tensor
        results.append((sorted(back.__dict__), back._meta["affine"].tolist(), back.tolist(), back_plain.__dict__))
    assert results[0] == results[1]
    restored = roundtrip(core, core.zeros(1).as_subclass(WithState))
    assert type(restored) is WithState and restored.__dict__ == {"restored": {"from_getstate": 1}}


@pytest.mark.parametrize("lib", [core, torch], ids=["core", "torch"])
def test_set_to_a_storage_as_torch(lib):
    """MONAI's MetaTensor rebuild for multiprocessing calls t.set_(untyped_storage, offset, size, stride)."""
    x = lib.arange(12.0)
    t = lib.tensor([])
    t.set_(x.untyped_storage(), 2, (2, 3), (3, 1))
    whole = lib.tensor([])
    whole.set_(x.untyped_storage())
    t[0, 0] = 100.0
    assert t.tolist() == [[100.0, 3.0, 4.0], [5.0, 6.0, 7.0]] and t.stride() == (3, 1) and t.storage_offset() == 2
    assert x[2].item() == 100.0 and whole.shape == (12,) and whole[2].item() == 100.0
    assert t.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    with pytest.raises(RuntimeError, match="or an UntypedStorage, but got type Float"):
        lib.tensor([], dtype=lib.int64).set_(x.storage())


@pytest.mark.parametrize("lib", [core, torch], ids=["core", "torch"])
def test_mixin_subclass_dict_shows_user_attributes_only(lib):
    """MONAI's MetaTensor(MetaObj, Tensor): the mixin's own __dict__ descriptor comes first in the MRO; its
    __dict__ must still hold only what was set on it (MONAI deep-copies it into every op's result)."""
    import copy
    import pickle

    class Mixin:
        def attributes(self):
            return sorted(self.__dict__)

    class Meta(Mixin, lib.Tensor):
        pass

    w = lib.ones(2, requires_grad=True)
    m = lib.ones(2).as_subclass(Meta) * w
    m.meta = {"a": 1}
    assert m.attributes() == ["meta"] and sorted(vars(m[0:1])) == []
    assert copy.deepcopy(m.__dict__) == copy.copy(m.__dict__) == pickle.loads(pickle.dumps(m.__dict__)) == {
        "meta": {"a": 1}}
    m.__dict__ = {"b": 2}
    assert m.attributes() == ["b"] and m.requires_grad and m.grad_fn is not None


@pytest.mark.parametrize("lib", [core, torch], ids=["core", "torch"])
def test_dtype_instances_name_torch_as_their_module(lib):
    """MONAI's MetaTensor.astype tells torch dtypes from NumPy's by getattr(dtype, "__module__")."""
    import pickle

    assert lib.float32.__module__ == lib.int64.__module__ == "torch"
    assert np.float32.__module__ == "numpy"
    assert pickle.loads(pickle.dumps(lib.float16)) is lib.float16
    assert pickle.loads(pickle.dumps(lib.dtype)) is lib.dtype
    assert repr(lib.dtype) == "<class 'torch.dtype'>" if lib is torch else repr(lib.dtype) == "<class 'core.dtype'>"


@pytest.mark.parametrize("lib", [core, torch], ids=["core", "torch"])
@pytest.mark.parametrize("op", ["stack", "cat", "_foreach_add"])
def test_tensor_list_type_error_names_numpy_ndarray(lib, op):
    """MONAI's list_data_collate explains a collate TypeError when its message names 'numpy' (torch's C type name)."""
    args = (1,) if op == "_foreach_add" else ()
    with pytest.raises(TypeError, match=r"^expected Tensor as element 1 in argument 0, but got numpy\.ndarray$"):
        getattr(lib, op)([lib.ones(2), np.ones(2)], *args)


def test_a_subclass_made_by_type_is_the_callers_and_keeps_its_type_through_ops():
    """type('Sub', (Tensor,), {}) names the calling module as torch's does (it was core's module, so core took it
    for one of its own subclasses and ops returned plain tensors)."""
    for lib in (core, torch):
        sub = type("Sub", (lib.Tensor,), {})
        assert sub.__module__ == __name__
        assert type(lib.ones(2, requires_grad=True).as_subclass(sub) * 2) is sub
