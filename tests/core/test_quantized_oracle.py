"""Quantized tensors and fake quantization against torch: the rounding of the CPU kernel bit for bit, the
quantizer's members, printing, the views that stay quantized, the errors, and fake quantization's
straight-through gradients as quantization-aware training uses them."""

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised

X = np.array([[-1.0, 0.0, 0.26, 1.5], [2.55, -3.3, 0.125, 100.0]], dtype=np.float32)
TIES = np.array([0.05, 0.15, 0.25, 0.35, -0.05, -0.15, -0.25, 1e9, -1e9, 12.75, 1.45, 0.0], dtype=np.float32)
RANDOM = (np.random.default_rng(3).standard_normal((7, 37)) * 4).astype(np.float32)


def _both(torch, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's deprecation note on quantized tensor creation
        return fn(core), fn(torch)


def _raised_both(torch, fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return raised(lambda: fn(core)), raised(lambda: fn(torch))


PER_TENSOR = [(0.1, 10, "quint8"), (0.1, 0, "qint8"), (0.05, -3, "qint8"), (0.037, 0, "qint32"), (0.2, 2, "quint4x2"),
              (1 / 3, 128, "quint8"), (0.3, 1, "quint2x4")]


@pytest.mark.parametrize("scale, zero_point, dtype", PER_TENSOR)
@pytest.mark.parametrize("data", [X, TIES, RANDOM], ids=["small", "ties", "random"])
def test_quantize_per_tensor_rounds_and_prints_as_torch(torch, data, scale, zero_point, dtype):
    ours, theirs = _both(torch, lambda lib: lib.quantize_per_tensor(lib.tensor(data), scale, zero_point,
                                                                   getattr(lib, dtype)))
    assert repr(ours) == repr(theirs)
    assert_same(ours.dequantize(), theirs.dequantize(), rtol=0, atol=0)
    assert_same(ours.int_repr(), theirs.int_repr())  # (quint4x2's packs two values a byte)
    assert (repr(ours.dtype), repr(ours.qscheme()), ours.q_scale(), ours.q_zero_point()) == (
        repr(theirs.dtype), repr(theirs.qscheme()), theirs.q_scale(), theirs.q_zero_point())
    assert (ours.is_quantized, ours.element_size(), ours.shape, ours.stride(), ours.is_floating_point()) == (
        theirs.is_quantized, theirs.element_size(), tuple(theirs.shape), theirs.stride(), theirs.is_floating_point())


def test_tensor_qparams_are_read_as_float32_and_int(torch):
    ours, theirs = _both(torch, lambda lib: lib.quantize_per_tensor(lib.tensor(X), lib.tensor(0.1), lib.tensor(10),
                                                                   lib.quint8))
    assert repr(ours) == repr(theirs)
    assert type(ours.q_scale()) is type(theirs.q_scale()) and type(ours.q_zero_point()) is type(theirs.q_zero_point())


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", ["qint8", "quint8", "qint32"])
@pytest.mark.parametrize("data", [X, RANDOM], ids=["small", "random"])
def test_quantize_per_channel_rounds_and_prints_as_torch(torch, data, axis, dtype):
    n = data.shape[axis]
    scales = np.linspace(0.05, 0.3, n)
    zps = np.arange(n) % 5 + (0 if dtype == "quint8" else -3)

    def make(lib):
        return lib.quantize_per_channel(lib.tensor(data), lib.tensor(scales), lib.tensor(zps), axis,
                                        getattr(lib, dtype))

    ours, theirs = _both(torch, make)
    assert repr(ours) == repr(theirs)
    assert_same(ours.int_repr(), theirs.int_repr())
    assert_same(ours.dequantize(), theirs.dequantize(), rtol=0, atol=0)
    assert_same(ours.q_per_channel_scales(), theirs.q_per_channel_scales())
    assert_same(ours.q_per_channel_zero_points(), theirs.q_per_channel_zero_points())
    assert ours.q_per_channel_axis() == theirs.q_per_channel_axis()


@pytest.mark.parametrize("view", [
    lambda q: q[0], lambda q: q.view(8), lambda q: q.reshape(4, 2), lambda q: q.t(), lambda q: q.transpose(0, 1),
    lambda q: q.clone(), lambda q: q.detach(), lambda q: q.contiguous(), lambda q: q.flatten(),
    lambda q: q.permute(1, 0),
])
def test_views_and_copies_stay_quantized_as_torch(torch, view):
    ours, theirs = _both(torch, lambda lib: view(lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.quint8)))
    assert repr(ours) == repr(theirs)
    assert ours.stride() == theirs.stride()


@pytest.mark.parametrize("call", [
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.quint8) + 1,
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.quint8) * 2,
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.quint8).float(),
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.quint8).tolist(),
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.quint8).numpy(),
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.quint8).requires_grad_(),
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.quint8).q_per_channel_scales(),
    lambda lib: lib.quantize_per_channel(lib.tensor(X), lib.tensor([0.1, 0.2]), lib.tensor([0, 1]), 0,
                                         lib.qint8).q_scale(),
    lambda lib: lib.quantize_per_channel(lib.tensor(X), lib.tensor([0.1, 0.2]), lib.tensor([0, 1]), 1, lib.qint8),
    lambda lib: lib.quantize_per_channel(lib.tensor(X), lib.tensor([0.1, 0.2]), lib.tensor([0, 1]), 2, lib.qint8),
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.float32),
    lambda lib: lib.quantize_per_tensor(lib.tensor(X, dtype=lib.float64), 0.1, 10, lib.qint8),
    lambda lib: lib.quantize_per_tensor(lib.tensor([1, 2]), 0.1, 10, lib.qint8),
    lambda lib: lib.ones(2).int_repr(),
    lambda lib: lib.ones(2).q_scale(),
    lambda lib: lib.ones(2).qscheme(),
])
def test_what_torch_refuses_raises_its_error(torch, call):
    ours, theirs = _raised_both(torch, call)
    assert ours is not None and theirs is not None
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1] or theirs[1].startswith(ours[1].split(" This could")[0])


def test_a_float_tensor_dequantizes_to_itself_and_the_schemes_print_as_torch(torch):
    ours, theirs = _both(torch, lambda lib: lib.tensor(X).dequantize())
    assert_same(ours, theirs)
    for name in ("per_tensor_affine", "per_channel_affine", "per_tensor_symmetric", "per_channel_symmetric",
                 "per_channel_affine_float_qparams"):
        assert repr(getattr(core, name)) == repr(getattr(torch, name))
    for name in ("qint8", "quint8", "qint32", "quint4x2"):
        ours, theirs = getattr(core, name), getattr(torch, name)
        assert (repr(ours), ours.itemsize, ours.is_floating_point, ours.is_complex) == (
            repr(theirs), theirs.itemsize, theirs.is_floating_point, theirs.is_complex)


@pytest.mark.parametrize("scale, zero_point, qmin, qmax", [(0.1, 3, -128, 127), (0.05, -3, -128, 127),
                                                        (0.05, 0, 0, 255), (0.3, 7, 0, 15)])
@pytest.mark.parametrize("tensor_qparams", [False, True])
@pytest.mark.parametrize("data", [TIES, RANDOM], ids=["ties", "random"])
def test_fake_quantize_per_tensor_values_and_straight_through_gradient_match_torch(torch, data, scale, zero_point,
                                                                                 qmin, qmax, tensor_qparams):
    results = []
    for lib in (core, torch):
        x = lib.tensor(data, requires_grad=True)
        s, z = (lib.tensor(scale), lib.tensor(zero_point, dtype=lib.int32)) if tensor_qparams else (scale, zero_point)
        y = lib.fake_quantize_per_tensor_affine(x, s, z, qmin, qmax)
        (y * lib.arange(float(y.numel())).reshape(y.shape)).sum().backward()
        results.append((y, x.grad, type(y.grad_fn).__name__))
    assert_same(results[0][0], results[1][0], rtol=0, atol=0)
    assert_same(results[0][1], results[1][1])
    assert results[0][2] == results[1][2]


def test_fake_quantize_per_channel_values_and_gradient_match_torch(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor(RANDOM, requires_grad=True)
        scales = lib.tensor(np.linspace(0.02, 0.3, 37).astype(np.float32))
        zps = lib.tensor(np.arange(37) % 5, dtype=lib.int32)
        y = lib.fake_quantize_per_channel_affine(x, scales, zps, 1, -8, 7)
        (y * lib.arange(float(y.numel())).reshape(y.shape)).sum().backward()
        results.append((y, x.grad, type(y.grad_fn).__name__))
    assert_same(results[0][0], results[1][0], rtol=0, atol=0)
    assert_same(results[0][1], results[1][1])
    assert results[0][2] == results[1][2]


@pytest.mark.parametrize("call", [
    lambda lib: lib.fake_quantize_per_tensor_affine(lib.tensor(X), 0.1, 3, 5, 2),
    lambda lib: lib.fake_quantize_per_tensor_affine(lib.tensor(X), 0.1, 300, 0, 255),
    lambda lib: lib.fake_quantize_per_channel_affine(lib.tensor(X), lib.tensor([0.1, 0.2]), lib.tensor([0, 1]), 0,
                                                     -128, 127),
    lambda lib: lib.fake_quantize_per_channel_affine(lib.tensor(X), lib.tensor([0.1, 0.2]),
                                                     lib.tensor([0, 1], dtype=lib.int32), 1, -128, 127),
])
def test_fake_quantize_arguments_are_checked_as_torch(torch, call):
    ours, theirs = _raised_both(torch, call)
    assert ours == theirs


def test_a_list_of_tensors_quantizes_with_one_scale_and_zero_point_each_as_torch(torch):
    def make(lib):
        return lib.quantize_per_tensor([lib.tensor(X), lib.tensor(RANDOM)], lib.tensor([0.1, 0.2]), lib.tensor([1, 2]),
                                       lib.quint8)

    ours, theirs = _both(torch, make)
    assert type(ours) is type(theirs) is tuple
    assert repr(ours) == repr(theirs)
    assert_same(list(core.dequantize(ours)), list(torch.dequantize(theirs)), rtol=0, atol=0)


DYNAMIC = {"doc": np.array([-1.0, 0.0, 1.0, 2.0], np.float32), "random": RANDOM[0], "positive": np.abs(RANDOM[1]),
           "negative": -np.abs(RANDOM[2]), "zeros": np.zeros(3, np.float32),
           "tiny": np.array([1e-7, -2e-7], np.float32), "small": np.full(4, 1e-6, np.float32)}


@pytest.mark.parametrize("reduce_range", [False, True])
@pytest.mark.parametrize("dtype", ["quint8", "qint8"])
@pytest.mark.parametrize("name", sorted(DYNAMIC))
def test_quantize_per_tensor_dynamic_chooses_torch_qparams(torch, name, dtype, reduce_range):
    ours, theirs = _both(torch, lambda lib: lib.quantize_per_tensor_dynamic(lib.tensor(DYNAMIC[name]),
                                                                           getattr(lib, dtype), reduce_range))
    assert repr(ours) == repr(theirs)
    assert (ours.q_scale(), ours.q_zero_point()) == (theirs.q_scale(), theirs.q_zero_point())
    assert_same(ours.int_repr(), theirs.int_repr())


POOLS = [
    lambda lib, q: lib.quantized_max_pool2d(q, [2, 2]),
    lambda lib, q: lib.quantized_max_pool2d(q, [3, 2], [1, 2], [1, 0]),
    lambda lib, q: lib.quantized_max_pool2d(q, [2, 3], [], 0, 1, True),
    lambda lib, q: lib.quantized_max_pool1d(q[0], [2]),
    lambda lib, q: lib.quantized_max_pool1d(q[0, 0], [3], [2], [1]),
]


@pytest.mark.parametrize("pool", POOLS)
def test_quantized_max_pools_keep_the_quantizer_as_torch(torch, pool):
    x = np.tile(RANDOM[:, :36].reshape(1, 7, 6, 6), (2, 1, 1, 1))
    ours, theirs = _both(torch, lambda lib: pool(lib, lib.quantize_per_tensor(lib.tensor(x), 0.05, 30, lib.quint8)))
    assert repr(ours) == repr(theirs)
    assert_same(ours.int_repr(), theirs.int_repr())


def test_quantized_batch_norm_quantizes_the_normalised_values_as_torch(torch):
    x = np.tile(RANDOM[:3, :36].reshape(1, 3, 6, 6), (2, 1, 1, 1))

    def norm(lib):
        q = lib.quantize_per_tensor(lib.tensor(x), 0.05, 130, lib.quint8)
        return lib.quantized_batch_norm(q, lib.tensor([1.0, 2.0, 0.5]), lib.tensor([0.0, 0.1, -0.3]),
                                        lib.tensor([0.2, 0.5, 0.1]), lib.tensor([0.9, 1.2, 0.3]), 1e-5, 0.02, 100)

    ours, theirs = _both(torch, norm)
    assert repr(ours) == repr(theirs)
    assert_same(ours.int_repr(), theirs.int_repr())


@pytest.mark.parametrize("make", [
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.1, 10, lib.quint8),
    lambda lib: lib.quantize_per_tensor(lib.tensor(X), 0.037, -5, lib.qint32),
    lambda lib: lib.quantize_per_channel(lib.tensor(X), lib.tensor([0.1, 0.05]), lib.tensor([0, -3]), 0, lib.qint8),
])
def test_save_and_load_keep_a_quantized_tensor_as_torch(torch, make, tmp_path):
    loaded = []
    for lib in (core, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            path = tmp_path / f"{lib.__name__}.pt"
            lib.save([make(lib)], path)
            loaded.append(repr(lib.load(path)[0]))
    assert loaded[0] == loaded[1]


@pytest.mark.parametrize("per_channel", [False, True], ids=["per_tensor", "per_channel"])
def test_quantizer_members_as_torch_functions_give_the_methods_results(torch, per_channel):
    """``torch.int_repr(q)``, ``torch.q_scale(q)``... (a quantization notebook prints ``torch.int_repr(w)``)."""
    def make(lib):
        x = lib.tensor(RANDOM)
        if per_channel:
            return lib.quantize_per_channel(x, lib.tensor(np.linspace(0.05, 0.3, 7)), lib.arange(7) - 3, 0, lib.qint8)
        return lib.quantize_per_tensor(x, 0.05, -3, lib.qint8)

    ours, theirs = _both(torch, make)
    assert_same(core.int_repr(ours), torch.int_repr(theirs))
    names = (["q_per_channel_scales", "q_per_channel_zero_points", "q_per_channel_axis"] if per_channel
             else ["q_scale", "q_zero_point"])
    for name in names:
        a, b = getattr(core, name)(ours), getattr(torch, name)(theirs)
        if isinstance(b, torch.Tensor):
            assert_same(a, b)
        else:
            assert (type(a), a) == (type(b), b)
    wrong = ["q_scale"] if per_channel else ["q_per_channel_scales", "q_per_channel_axis"]
    for name in wrong:
        ours_fn, theirs_fn = getattr(core, name), getattr(torch, name)
        assert raised(lambda: ours_fn(ours)) == raised(lambda: theirs_fn(theirs))  # noqa: B023 (called at once)


def test_int_repr_of_a_float_tensor_raises_torchs_missing_kernel_error(torch):
    ours, theirs = raised(lambda: core.int_repr(core.ones(2))), raised(lambda: torch.int_repr(torch.ones(2)))
    assert ours[0] == theirs[0] and theirs[1].startswith(ours[1])  # (torch's goes on to list its dispatch keys)
