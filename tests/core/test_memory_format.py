"""Memory formats against PyTorch: ``channels_last``/``channels_last_3d`` strides from ``to``, ``contiguous``,
``clone``, the ``*_like`` factories, ``empty`` and ``Module.to``, ``is_contiguous(memory_format=)``, and
``preserve_format``'s strides; values never change.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import core

_SHAPES = [(2, 3, 4, 5), (2, 1, 3, 4), (2, 3, 1, 1), (1, 3, 1, 1), (2, 1, 1, 1), (1, 1, 1, 1)]
_DATA = np.random.default_rng(5).standard_normal(720)


def _make(lib, shape):
    n = int(np.prod(shape))
    return lib.tensor(_DATA[:n].reshape(shape))


def _same(ours, theirs):
    assert ours.stride() == theirs.stride()
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("shape", _SHAPES)
@pytest.mark.parametrize("op", [
    lambda lib, x: x.to(memory_format=lib.channels_last),
    lambda lib, x: x.contiguous(memory_format=lib.channels_last),
    lambda lib, x: x.clone(memory_format=lib.channels_last),
    lambda lib, x: x.to(lib.float32, memory_format=lib.channels_last),
    lambda lib, x: x.to(memory_format=lib.channels_last).to(memory_format=lib.contiguous_format),
    lambda lib, x: x.to(memory_format=lib.channels_last).contiguous(),
    lambda lib, x: x.to(memory_format=lib.channels_last).clone(),
    lambda lib, x: x.to(memory_format=lib.channels_last).double(),
    lambda lib, x: x.to(memory_format=lib.channels_last).to(lib.float32),
    lambda lib, x: x.to(memory_format=lib.channels_last)[:, :, ::2].clone(),
    lambda lib, x: x.permute(0, 2, 3, 1)[:, ::2].clone(),
], ids=["to", "contiguous", "clone", "to_dtype", "back_to_contiguous", "contiguous_of_channels_last",
        "clone_preserves", "double_preserves", "to_dtype_preserves", "clone_of_strided_slice",
        "clone_of_permuted_slice"])
def test_channels_last_conversions_give_torchs_strides_and_values(torch, shape, op):
    _same(op(core, _make(core, shape)), op(torch, _make(torch, shape)))


def test_elementwise_ops_keep_channels_last(torch):
    # NOTE: only an unambiguous shape: for size-1 dims core's elementwise results may give those dims other
    # strides than PyTorch's TensorIterator does (the layout is the same)
    op = lambda lib, x: x.to(memory_format=lib.channels_last) * 2  # noqa: E731
    _same(op(core, _make(core, (2, 3, 4, 5))), op(torch, _make(torch, (2, 3, 4, 5))))


_LIKE_FACTORIES = {  # name: (factory, whether it fills values to compare)
    "empty_like": (lambda lib, x: lib.empty_like(x, memory_format=lib.channels_last), False),
    "zeros_like": (lambda lib, x: lib.zeros_like(x, memory_format=lib.channels_last), True),
    "ones_like_preserves": (lambda lib, x: lib.ones_like(x.to(memory_format=lib.channels_last)), True),
    "full_like_preserves": (lambda lib, x: lib.full_like(x.to(memory_format=lib.channels_last), 3.0), True),
    "zeros_like_contiguous": (lambda lib, x: lib.zeros_like(x.to(memory_format=lib.channels_last),
                                                            memory_format=lib.contiguous_format), True),
    "empty_like_of_strided_slice": (lambda lib, x: lib.empty_like(x.to(memory_format=lib.channels_last)[:, :, ::2]),
                                    False),
    "empty": (lambda lib, x: lib.empty(*x.shape, memory_format=lib.channels_last), False),
}


@pytest.mark.parametrize("shape", _SHAPES)
@pytest.mark.parametrize("name", list(_LIKE_FACTORIES))
def test_like_factories_give_torchs_strides(torch, shape, name):
    factory, filled = _LIKE_FACTORIES[name]
    ours, theirs = factory(core, _make(core, shape)), factory(torch, _make(torch, shape))
    assert ours.stride() == theirs.stride()
    if filled:
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("shape", _SHAPES + [(2, 3), (2, 3, 4, 5, 6)])
def test_is_contiguous_in_each_format_answers_as_torch(torch, shape):
    def answers(lib):
        x = _make(lib, shape)
        views = [x, x.transpose(0, -1)]
        if x.dim() == 4:
            views.append(x.to(memory_format=lib.channels_last))
        formats = [lib.contiguous_format, lib.channels_last, lib.channels_last_3d]
        return [[v.is_contiguous(memory_format=f) for f in formats] + [v.is_contiguous()] for v in views]
    assert answers(core) == answers(torch)


@pytest.mark.parametrize("op", [
    lambda lib, x: x.to(memory_format=lib.channels_last_3d),
    lambda lib, x: x.contiguous(memory_format=lib.channels_last_3d),
    lambda lib, x: lib.empty_like(x, memory_format=lib.channels_last_3d),
    lambda lib, x: x.to(memory_format=lib.channels_last_3d).clone(),
], ids=["to", "contiguous", "empty_like", "clone_preserves"])
@pytest.mark.parametrize("shape", [(2, 3, 4, 5, 1), (2, 3, 2, 2, 3), (1, 3, 1, 1, 1)])
def test_channels_last_3d_gives_torchs_strides(torch, op, shape):
    ours, theirs = op(core, _make(core, shape)), op(torch, _make(torch, shape))
    assert ours.stride() == theirs.stride()
    assert ours.is_contiguous(memory_format=core.channels_last_3d)


def test_to_returns_the_tensor_itself_when_its_strides_already_read_as_the_format(torch):
    for lib in (core, torch):
        x = _make(lib, (2, 3, 4, 5))
        y = x.to(memory_format=lib.channels_last)
        transposed = x.transpose(2, 3)
        assert y.to(memory_format=lib.channels_last) is y
        assert y.contiguous(memory_format=lib.channels_last) is y
        assert x.to(memory_format=lib.preserve_format) is x
        assert transposed.to(memory_format=lib.contiguous_format) is transposed  # PyTorch's to aliases here too
        assert transposed.contiguous() is not transposed


@pytest.mark.parametrize("op", [
    lambda lib: lib.ones(2, 3).to(memory_format=lib.channels_last),
    lambda lib: lib.ones(2, 3).contiguous(memory_format=lib.channels_last),
    lambda lib: lib.empty_like(lib.ones(2, 3, 4), memory_format=lib.channels_last),
    lambda lib: lib.ones(2, 3, 4, 5).to(memory_format=lib.channels_last_3d),
    lambda lib: lib.ones(2, 3).t().contiguous(memory_format=lib.preserve_format),
], ids=["to", "contiguous", "empty_like", "3d_on_4d", "contiguous_preserve"])
def test_a_format_of_the_wrong_rank_raises_runtime_error_as_torch(torch, op):
    with pytest.raises(RuntimeError) as theirs:
        op(torch)
    with pytest.raises(RuntimeError) as ours:
        op(core)
    assert str(ours.value).split(" format")[0] == str(theirs.value).split(" format")[0]


def test_channels_last_conversion_is_differentiable_and_gives_a_contiguous_gradient(torch):
    grads = []
    for lib in (core, torch):
        x = _make(lib, (2, 3, 4, 5)).requires_grad_(True)
        y = x.to(memory_format=lib.channels_last)
        assert type(y.grad_fn).__name__ == "ToCopyBackward0"
        (y * lib.arange(5.0, dtype=lib.float64)).sum().backward()
        grads.append(x.grad)
    _same(*grads)


def test_module_to_channels_last_converts_4d_parameters_only_and_keeps_parameter_objects(torch):
    strides = []
    for lib in (core, torch):
        model = lib.nn.Sequential(lib.nn.Conv2d(3, 4, 3), lib.nn.BatchNorm2d(4), lib.nn.Linear(2, 3))
        weight = model[0].weight
        assert model.to(memory_format=lib.channels_last) is model
        assert model[0].weight is weight and weight.is_contiguous(memory_format=lib.channels_last)
        strides.append([p.stride() for p in model.parameters()] + [b.stride() for b in model.buffers()])
    assert strides[0] == strides[1]


def test_memory_formats_print_compare_and_copy_as_torchs(torch):
    for name in ("contiguous_format", "preserve_format", "channels_last", "channels_last_3d"):
        fmt = getattr(core, name)
        assert repr(fmt) == repr(getattr(torch, name)) == f"torch.{name}"
        assert isinstance(fmt, core.memory_format)
        assert copy.deepcopy(fmt) is fmt and pickle.loads(pickle.dumps(fmt)) is fmt
    assert core.channels_last != core.contiguous_format
