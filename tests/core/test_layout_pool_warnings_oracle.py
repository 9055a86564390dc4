"""Oracle tests for adaptive average pooling's bits and layouts, and for warnings PyTorch emits.

``interpolate(mode='area')`` on 5-D input is ``adaptive_avg_pool3d`` (its values, gradients, strides and node
names as torch's); ``adaptive_avg_pool2d`` on channels-last input divides as torch's channels-last kernel (most
channels once by the window's size), bit for bit; an ``lr_scheduler`` stepped before its optimizer warns, and
``TransformerEncoder`` says why it will not use nested tensors, with torch's category and text.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_error, to_numpy

RNG = np.random.default_rng(19)


def _bits_equal(ours, theirs, path="result"):
    assert_same(ours, theirs, check_stride=True, path=path)
    a, b = to_numpy(ours), to_numpy(theirs)
    assert np.array_equal(a.view(f"u{a.itemsize}"), b.view(f"u{b.itemsize}")), f"{path}: bits differ"


def _pool_and_grads(lib, data, grad, fn, fmt=None):
    x = lib.tensor(data)
    if fmt is not None:
        x = x.to(memory_format=getattr(lib, fmt))
    x.requires_grad_()
    y = fn(lib, x)
    g = lib.tensor(grad)
    if fmt is not None and g.ndim == x.ndim:
        g = g.to(memory_format=getattr(lib, fmt))
    g.requires_grad_()  # (the gradient's own node: the backward's backward)
    (gx,) = lib.autograd.grad(y, x, g, create_graph=True)
    return y, gx


def _compare_pool(torch, fn, shape, out_shape, dtype=np.float32, fmt=None, backward_name=True):
    data = RNG.standard_normal(shape).astype(dtype)
    grad = RNG.standard_normal(out_shape).astype(dtype)
    (cy, cg), (ty, tg) = (_pool_and_grads(lib, data, grad, fn, fmt) for lib in (core, torch))
    _bits_equal(cy, ty, "output")
    _bits_equal(cg, tg, "gradient")
    assert cy.grad_fn.name() == ty.grad_fn.name()
    if backward_name:
        assert cg.grad_fn.name() == tg.grad_fn.name()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,size", [((2, 3, 5, 7, 9), (3, 2, 4)), ((2, 4, 4, 6, 8), (2, 3, 4)),
                                        ((1, 2, 3, 4, 5), (5, 7, 2))])
def test_interpolate_area_on_5d_input_is_torchs_adaptive_avg_pool3d(torch, dtype, shape, size):
    fn = lambda lib, x: lib.nn.functional.interpolate(x, size=size, mode="area")  # noqa: E731
    _compare_pool(torch, fn, shape, shape[:2] + size, dtype)


def test_interpolate_area_on_5d_input_with_a_scale_factor_matches_torch(torch):
    fn = lambda lib, x: lib.nn.functional.interpolate(x, scale_factor=0.5, mode="area")  # noqa: E731
    _compare_pool(torch, fn, (2, 3, 4, 6, 7), (2, 3, 2, 3, 3))


def test_adaptive_avg_pool3d_of_a_channels_last_3d_input_is_contiguous_as_torchs(torch):
    fn = lambda lib, x: lib.nn.functional.adaptive_avg_pool3d(x, (3, None, 2))  # noqa: E731
    _compare_pool(torch, fn, (2, 5, 4, 6, 7), (2, 5, 3, 6, 2), fmt="channels_last_3d")


def test_unbatched_adaptive_avg_pool3d_and_its_module_match_torch(torch):
    fn = lambda lib, x: lib.nn.AdaptiveAvgPool3d((2, 3, 2))(x)  # noqa: E731
    _compare_pool(torch, fn, (3, 5, 4, 3), (3, 2, 3, 2))


def test_adaptive_avg_pool3d_to_one_element_is_torchs_mean(torch):
    fn = lambda lib, x: lib.nn.functional.adaptive_avg_pool3d(x, 1)  # noqa: E731
    # (not the backward's node: core's MeanBackward1 divides by a tensor, DivBackward0, torch's by a number)
    _compare_pool(torch, fn, (2, 3, 4, 5, 6), (2, 3, 1, 1, 1), backward_name=False)


@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.adaptive_avg_pool3d(lib.zeros(2, 3, 4, 5, 6, dtype=lib.int64), (2, 2, 2)),
    lambda lib: lib.nn.functional.adaptive_avg_pool3d(lib.zeros(2, 3, 4, 5), (2, 3)),
    lambda lib: lib.nn.functional.adaptive_avg_pool3d(lib.zeros(2, 3, 0, 5, 3), (2, 3, 1)),
    lambda lib: lib.nn.functional.adaptive_avg_pool3d(lib.zeros(2, 3, 4, 5, 3), (2, -3, 1)),
    lambda lib: lib.nn.functional.adaptive_avg_pool3d(lib.zeros(3, 4, 5), 2),
    lambda lib: lib.nn.functional.adaptive_avg_pool3d(lib.zeros(3, 4, 5), (2, 3, 1)),
])
def test_adaptive_avg_pool3d_refuses_what_torch_refuses(torch, call):
    theirs = check_error(lambda lib: call(lib), [], torch)
    assert str(theirs).split(",")[0].split(" but")[0] in str(theirs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("channels", [3, 4, 8, 12, 19, 35])
@pytest.mark.parametrize("hw,size", [((7, 9), (3, 4)), ((7, 5), (3, 4)), ((6, 8), (3, 4))])
def test_adaptive_avg_pool2d_on_channels_last_input_matches_torch_bit_for_bit(torch, dtype, channels, hw, size):
    fn = lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, size)  # noqa: E731
    _compare_pool(torch, fn, (2, channels) + hw, (2, channels) + size, dtype, fmt="channels_last")


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("case", ["2d_channels_last", "3d", "area_5d"])
def test_adaptive_avg_pool_on_half_input_matches_torch_bit_for_bit(torch, dtype, case):
    """(torch's 2-d kernel adds in float32; its 3-d one rounds every addition and division to the half type)"""
    shape, size = ((2, 19, 7, 5), (3, 4)) if case.startswith("2d") else ((2, 3, 5, 7, 9), (3, 2, 4))
    data = RNG.standard_normal(shape).astype(np.float32)
    grad = RNG.standard_normal(shape[:2] + size).astype(np.float32)
    results = []
    for lib in (core, torch):
        fmt = lib.channels_last if case.startswith("2d") else lib.contiguous_format
        x = lib.tensor(data).to(getattr(lib, dtype)).to(memory_format=fmt).requires_grad_()
        F = lib.nn.functional
        y = F.adaptive_avg_pool2d(x, size) if case.startswith("2d") else F.adaptive_avg_pool3d(x, size) \
            if case == "3d" else F.interpolate(x, size=size, mode="area")
        y.backward(lib.tensor(grad).to(getattr(lib, dtype)).to(memory_format=fmt))
        results.append((y, x.grad))
    (cy, cg), (ty, tg) = results
    for ours, theirs in ((cy, ty), (cg, tg)):
        assert ours.dtype.is_floating_point and ours.stride() == theirs.stride()
        _bits_equal(ours.float(), theirs.float())


# ----- warnings ------------------------------------------------------------------------------------------------


def _sgd_and_step_lr(lib):
    opt = lib.optim.SGD(lib.nn.Linear(2, 2).parameters(), lr=0.1)
    return opt, lib.optim.lr_scheduler.StepLR(opt, step_size=1)


def _messages(record):
    return [(w.category, str(w.message)) for w in record]


def test_lr_scheduler_step_before_optimizer_step_warns_as_torch(torch):
    messages = []
    for lib in (torch, core):
        _, sched = _sgd_and_step_lr(lib)
        with pytest.warns(UserWarning, match="Detected call of `lr_scheduler.step\\(\\)` before") as record:
            sched.step()
        messages.append(_messages(record))
    assert messages[0] == messages[1]


def test_lr_scheduler_step_after_optimizer_step_does_not_warn(torch):
    for lib in (torch, core):
        opt, sched = _sgd_and_step_lr(lib)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            opt.step()
            sched.step()
            sched.step()


def test_lr_scheduler_wraps_optimizer_step_once_as_torch(torch):
    for lib in (torch, core):
        opt, _ = _sgd_and_step_lr(lib)
        wrapped = opt.step
        lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        assert opt.step is wrapped and getattr(opt.step, "_wrapped_by_lr_sched", False)
        assert opt.step.__name__ == "step" and not hasattr(opt, "_opt_called")
        opt.step()
        assert opt._opt_called is True


def test_lr_scheduler_warns_when_optimizer_step_is_replaced_after_it(torch):
    messages = []
    for lib in (torch, core):
        opt, sched = _sgd_and_step_lr(lib)
        opt.step = lambda closure=None: None
        with pytest.warns(UserWarning, match="Seems like `optimizer.step\\(\\)` has been overridden") as record:
            sched.step()
        messages.append(_messages(record))
    assert messages[0] == messages[1]


def test_only_the_first_early_lr_scheduler_step_warns(torch):
    counts = []
    for lib in (torch, core):
        _, sched = _sgd_and_step_lr(lib)
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            for _ in range(3):
                sched.step()
        counts.append(len(record))
    assert counts[0] == counts[1] == 1


def _encoder_layer(lib, **kwargs):
    return lib.nn.TransformerEncoderLayer(4, kwargs.pop("nhead", 2), dim_feedforward=8, **kwargs)


_LAYERS = {
    "not_a_layer": lambda lib: lib.nn.Linear(4, 4),
    "norm_first": lambda lib: _encoder_layer(lib, norm_first=True, batch_first=True),
    "batch_first": lambda lib: _encoder_layer(lib),
    "no_bias": lambda lib: _encoder_layer(lib, bias=False, batch_first=True),
    "activation": lambda lib: _encoder_layer(lib, activation=lib.tanh, batch_first=True),
    "odd_heads": lambda lib: _encoder_layer(lib, nhead=1, batch_first=True),
}


def _other_eps(lib):
    layer = _encoder_layer(lib, batch_first=True)
    layer.norm2.eps = 1e-3
    return layer


def _qkv_apart(lib):
    layer = _encoder_layer(lib, batch_first=True)
    layer.self_attn._qkv_same_embed_dim = False
    return layer


_LAYERS.update(eps=_other_eps, qkv=_qkv_apart)


@pytest.mark.parametrize("name", sorted(_LAYERS))
def test_transformer_encoder_says_why_it_uses_no_nested_tensors_as_torch(torch, name):
    messages = []
    for lib in (torch, core):
        layer = _LAYERS[name](lib)
        with pytest.warns(UserWarning, match="enable_nested_tensor is True, but self.use_nested_tensor is False") \
                as record:
            enc = lib.nn.TransformerEncoder(layer, 2)
        assert enc.use_nested_tensor is False and enc.enable_nested_tensor is True
        messages.append(_messages(record))
    assert messages[0] == messages[1]


def test_transformer_encoder_without_nested_tensors_or_with_a_fast_layer_does_not_warn(torch):
    for lib in (torch, core):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            enc = lib.nn.TransformerEncoder(_encoder_layer(lib), 2, enable_nested_tensor=False)
            fast = lib.nn.TransformerEncoder(_encoder_layer(lib, batch_first=True), 2)
        assert enc.use_nested_tensor is False and fast.use_nested_tensor is True


def test_unbatched_adaptive_avg_pool2d_records_torchs_node(torch):
    fn = lambda lib, x: lib.nn.functional.adaptive_avg_pool2d(x, (2, 3))  # noqa: E731
    _compare_pool(torch, fn, (3, 5, 7), (3, 2, 3))


def test_a_default_relu_layer_counts_as_relu_once_torch_function_wrappers_exist(torch):
    class Marked(core.Tensor):  # (a subclass makes core wrap its functions to dispatch __torch_function__)
        pass

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        enc = core.nn.TransformerEncoder(_encoder_layer(core, batch_first=True), 2)
    assert enc.layers[0].activation_relu_or_gelu == 1 and enc.use_nested_tensor is True
    gelu = _encoder_layer(core, activation="gelu", batch_first=True)
    assert gelu.activation_relu_or_gelu == _encoder_layer(torch, activation="gelu").activation_relu_or_gelu == 2


def test_an_optimizer_a_scheduler_wrapped_pickles_and_copies_without_the_wrapper_as_torchs(torch):
    import copy
    import pickle

    for lib in (torch, core):
        opt, _ = _sgd_and_step_lr(lib)
        opt.step()
        for twin in (pickle.loads(pickle.dumps(opt)), copy.deepcopy(opt)):
            assert not hasattr(twin, "_opt_called") and "step" not in vars(twin)
            assert twin.param_groups[0]["lr"] == opt.param_groups[0]["lr"]
