"""Eager-mode static quantization (``core.ao.quantization``) against torch's: the tutorial-shaped flow (QuantStub,
``fuse_modules``, ``prepare``, calibrate, ``convert``, evaluate) prints the same modules, keeps torch's state dict
keys, and gives the same quantized integers as torch's fbgemm/x86 kernels, element for element."""

from __future__ import annotations

import io
import re
import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy
from tests.core.reference_cpu import ZEN4_AVX512


def _net(lib, bias2=True):
    nn = lib.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.quant = lib.ao.quantization.QuantStub()
            self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
            self.bn1 = nn.BatchNorm2d(8)
            self.relu1 = nn.ReLU()
            self.pool = nn.MaxPool2d(2)
            self.conv2 = nn.Conv2d(8, 16, 3, stride=2, bias=bias2)
            self.relu2 = nn.ReLU()
            self.fc = nn.Linear(16 * 3 * 3, 10)
            self.relu3 = nn.ReLU()
            self.fc2 = nn.Linear(10, 4)
            self.dequant = lib.ao.quantization.DeQuantStub()

        def forward(self, x):
            x = self.quant(x)
            x = self.pool(self.relu1(self.bn1(self.conv1(x))))
            x = self.relu2(self.conv2(x))
            x = lib.flatten(x, 1)
            x = self.fc2(self.relu3(self.fc(x)))
            return self.dequant(x)

    return Net()


def _flow(lib, float_state, qconfig_name, calibration, observed=None):
    """Fuse, prepare, calibrate (or take the observers' state from ``observed``) and convert a copy of the net."""
    aq = lib.ao.quantization
    m = _net(lib)
    m.load_state_dict({k: lib.tensor(v) for k, v in float_state.items()})
    m.eval()
    fused = aq.fuse_modules(m, [["conv1", "bn1", "relu1"], ["conv2", "relu2"], ["fc", "relu3"]])
    fused.qconfig = {"default": aq.default_qconfig, "x86": aq.get_default_qconfig("x86"),
                     "per_channel": aq.QConfig(activation=aq.default_observer,
                                               weight=aq.default_per_channel_weight_observer)}[qconfig_name]
    prepared = aq.prepare(fused)
    if observed is None:
        for x in calibration:
            prepared(lib.tensor(x))
    else:
        prepared.load_state_dict({k: lib.tensor(v) for k, v in observed.items()})
    return m, fused, prepared, aq.convert(prepared)


def _numpy_state(module):
    return {k: to_numpy(v).copy() for k, v in module.state_dict().items()}


@pytest.fixture
def flows(torch, request):
    engine = getattr(request, "param", ("x86", "default"))
    torch.backends.quantized.engine = engine[0]
    torch.manual_seed(0)
    float_state = _numpy_state(_net(torch))
    rng = np.random.default_rng(0)
    calibration = [(rng.standard_normal((4, 3, 16, 16)) * 2).astype(np.float32) for _ in range(3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # both warn: torch.ao.quantization and quantized tensors are deprecated
        theirs = _flow(torch, float_state, engine[1], calibration)
        ours_calibrated = _flow(core, float_state, engine[1], calibration)
        # the float layers' last bits differ from MKL's, so the observers' ranges may differ in their last bit;
        # starting from torch's observed ranges, convert must give torch's qparams and kernels exactly
        ours = _flow(core, float_state, engine[1], None, _numpy_state(theirs[2]))
    yield ours, theirs, ours_calibrated
    torch.backends.quantized.engine = "x86"


def test_fused_and_prepared_models_print_as_torchs(flows):
    ours, theirs, calibrated = flows
    assert repr(ours[1]) == repr(theirs[1])
    assert repr(ours[2]) == repr(theirs[2])
    assert [k for k in ours[2].state_dict()] == [k for k in theirs[2].state_dict()]


def test_calibration_observes_torchs_ranges(flows):
    ours, theirs, calibrated = flows
    for key, value in _numpy_state(theirs[2]).items():
        np.testing.assert_allclose(to_numpy(calibrated[2].state_dict()[key]), value, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("flows", [("x86", "default"), ("fbgemm", "default"), ("x86", "per_channel"),
                                   ("fbgemm", "per_channel"), ("x86", "x86")], indirect=True)
def test_converted_model_prints_and_computes_as_torchs_bit_for_bit(torch, flows):
    ours, theirs, _ = flows
    assert repr(ours[3]) == repr(theirs[3])
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((5, 3, 16, 16)) * 3).astype(np.float32)
    t, c = torch.tensor(x), core.tensor(x)
    t, c = theirs[3].quant(t), ours[3].quant(c)
    for stage in ("conv1", "pool", "conv2", "flatten", "fc", "fc2"):
        if stage == "flatten":
            t, c = torch.flatten(t, 1), core.flatten(c, 1)
        else:
            t, c = getattr(theirs[3], stage)(t), getattr(ours[3], stage)(c)
        assert c.dtype is core.quint8 and c.q_scale() == t.q_scale() and c.q_zero_point() == t.q_zero_point()
        assert np.array_equal(to_numpy(c.int_repr()), to_numpy(t.int_repr())), stage
    out_t, out_c = theirs[3](torch.tensor(x)), ours[3](core.tensor(x))
    assert out_c.dtype is core.float32 and np.array_equal(to_numpy(out_c), to_numpy(out_t))


def test_calibrated_outputs_within_one_quantization_step(torch, flows):
    ours, theirs, calibrated = flows
    x = np.random.default_rng(2).standard_normal((3, 3, 16, 16)).astype(np.float32)
    out_t = to_numpy(theirs[3](torch.tensor(x)))
    out_c = to_numpy(calibrated[3](core.tensor(x)))
    np.testing.assert_allclose(out_c, out_t, atol=2.5 * theirs[3].fc2.scale)


def test_state_dict_has_torchs_keys_and_loads_torchs_file(torch, flows):
    ours, theirs, _ = flows
    assert list(ours[3].state_dict()) == list(theirs[3].state_dict())
    buffer = io.BytesIO()
    torch.save(theirs[3].state_dict(), buffer)
    buffer.seek(0)
    fresh = flows[0][3]
    fresh.load_state_dict(core.load(buffer))
    w_c, w_t = fresh.conv1.weight(), theirs[3].conv1.weight()
    assert np.array_equal(to_numpy(w_c.int_repr()), to_numpy(w_t.int_repr()))
    assert type(ours[3].state_dict()["fc._packed_params._packed_params"]) is tuple


def test_converted_biases_are_the_float_parameters_and_saved_files_have_torchs_size(torch, flows):
    """Quantized Linear and Conv keep the float module's bias Parameter (torch's from_float passes it as it is): its
    ``bias()`` requires grad, and a saved state dict pickles it as a Parameter, the same bytes long as torch's file (a
    quantization notebook prints that size)."""
    ours, theirs, _ = flows
    for name in ("conv2", "fc", "fc2"):
        b_c, b_t = getattr(ours[3], name).bias(), getattr(theirs[3], name).bias()
        assert (type(b_c).__name__, b_c.requires_grad) == (type(b_t).__name__, b_t.requires_grad)
        assert type(getattr(ours[3], name)._weight_bias()) is tuple
    sizes = []
    for lib, model in ((core, ours[3]), (torch, theirs[3])):
        buffer = io.BytesIO()
        lib.save(model.state_dict(), buffer)
        sizes.append(len(buffer.getvalue()))
    assert sizes[0] == sizes[1]


def test_uncalibrated_lenet_converts_as_in_the_pocket_reference(torch):
    """get_default_qconfig('fbgemm'), prepare and convert without calibration: torch's default qparams."""
    def lenet(lib):
        nn = lib.nn
        return nn.Sequential(nn.Conv2d(3, 6, 5), nn.Conv2d(6, 16, 5, padding=2, groups=2, bias=False),
                             nn.Linear(400, 120), nn.ReLU6())

    reprs = []
    for lib in (torch, core):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = lenet(lib)
            m.qconfig = lib.quantization.get_default_qconfig("fbgemm")
            lib.quantization.prepare(m, inplace=True)
            reprs.append(repr(m))
            reprs.append(repr(lib.quantization.convert(m, inplace=True)))
    assert reprs[2:] == reprs[:2]


@pytest.mark.parametrize("backend", ["x86", "fbgemm", "qnnpack", "onednn"])
def test_default_qconfigs_print_as_torchs(torch, backend):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("get_default_qconfig", "get_default_qat_qconfig"):
            q_t, q_c = getattr(torch.ao.quantization, name)(backend), getattr(core.ao.quantization, name)(backend)
            assert repr(q_c.activation()) == repr(q_t.activation())
            assert repr(q_c.weight()) == repr(q_t.weight())


@pytest.mark.parametrize("kwargs", [{}, {"reduce_range": True}, {"quant_min": 0, "quant_max": 127},
                                    {"dtype": "qint8", "qscheme": "per_tensor_symmetric"},
                                    {"dtype": "qint8", "qscheme": "per_tensor_affine", "reduce_range": True}])
def test_minmax_observer_qparams_as_torchs(torch, kwargs):
    rng = np.random.default_rng(3)
    batches = [(rng.standard_normal(50) * 3 + 1).astype(np.float32) for _ in range(3)]
    results = []
    for lib in (torch, core):
        args = {k: getattr(lib, v) if isinstance(v, str) else v for k, v in kwargs.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for cls in (lib.ao.quantization.MinMaxObserver, lib.ao.quantization.MovingAverageMinMaxObserver):
                obs = cls(**args)
                for b in batches:
                    obs(lib.tensor(b))
                scale, zp = obs.calculate_qparams()
                results.append((to_numpy(scale).tolist(), to_numpy(zp).tolist(), repr(obs)))
    assert results[2:] == results[:2]


def test_per_channel_observer_qparams_as_torchs(torch):
    w = np.random.default_rng(4).standard_normal((6, 3, 2, 2)).astype(np.float32)
    results = []
    for lib in (torch, core):
        obs = lib.ao.quantization.default_per_channel_weight_observer()
        obs(lib.tensor(w))
        obs(lib.tensor(w * 1.5))
        scale, zp = obs.calculate_qparams()
        results.append((to_numpy(scale).tolist(), to_numpy(zp).tolist()))
    assert results[1] == results[0]


def test_quant_wrapper_and_quantize(torch):
    rng = np.random.default_rng(5)
    data = [(rng.standard_normal((8, 6)) * 2).astype(np.float32) for _ in range(2)]
    torch.manual_seed(1)
    float_t = torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3))
    float_c = core.nn.Sequential(core.nn.Linear(6, 5), core.nn.ReLU(), core.nn.Linear(5, 3))
    float_c.load_state_dict({k: core.tensor(to_numpy(v)) for k, v in float_t.state_dict().items()})

    def calibrate(model, batches, lib):
        for b in batches:
            model(lib.tensor(b))

    outs = []
    for lib, model in ((torch, float_t), (core, float_c)):
        wrapped = lib.ao.quantization.QuantWrapper(model)
        wrapped.qconfig = lib.ao.quantization.default_qconfig
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            q = lib.ao.quantization.quantize(wrapped, calibrate, [data, lib])
        outs.append((repr(q), q.module[0].weight().int_repr(), q(lib.tensor(data[0]))))
    assert outs[1][0] == outs[0][0]
    assert np.array_equal(to_numpy(outs[1][1]), to_numpy(outs[0][1]))
    np.testing.assert_allclose(to_numpy(outs[1][2]), to_numpy(outs[0][2]), atol=1e-6)


def test_quantized_relu_and_max_pool_stay_quantized(torch):
    x = np.random.default_rng(6).standard_normal((1, 2, 6, 6)).astype(np.float32)
    q_t = torch.quantize_per_tensor(torch.tensor(x), 0.05, 70, torch.quint8)
    q_c = core.quantize_per_tensor(core.tensor(x), 0.05, 70, core.quint8)
    for fn in (lambda lib, q: lib.nn.functional.relu(q), lambda lib, q: lib.nn.MaxPool2d(2)(q),
               lambda lib, q: lib.flatten(q, 1), lambda lib, q: lib.ao.nn.quantized.ReLU6()(q)):
        a, b = fn(torch, q_t), fn(core, q_c)
        assert b.dtype is core.quint8 and tuple(b.shape) == tuple(a.shape)
        assert np.array_equal(to_numpy(b.int_repr()), to_numpy(a.int_repr()))


def test_fake_quantize_matches_torch(torch):
    rng = np.random.default_rng(7)
    xs = [(rng.standard_normal((4, 5)) * 2).astype(np.float32) for _ in range(3)]
    results = []
    for lib in (torch, core):
        fq = lib.ao.quantization.FakeQuantize()
        for x in xs:
            t = lib.tensor(x, requires_grad=True)
            out = fq(t)
            out.sum().backward()
        results.append((to_numpy(out.detach()), to_numpy(t.grad), to_numpy(fq.scale), to_numpy(fq.zero_point),
                        repr(fq)))
    for a, b in zip(results[1], results[0]):
        assert np.array_equal(a, b) if not isinstance(a, str) else a == b


def _qat_net(lib):
    nn = lib.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.quant = lib.ao.quantization.QuantStub()
            self.conv = nn.Conv2d(2, 4, 3)
            self.relu = nn.ReLU()
            self.fc = nn.Linear(4 * 4 * 4, 3)
            self.dequant = lib.ao.quantization.DeQuantStub()

        def forward(self, x):
            x = self.relu(self.conv(self.quant(x)))
            return self.dequant(self.fc(lib.flatten(x, 1)))

    return Net()


@pytest.mark.parametrize("backend", ["x86", "qnnpack"])
def test_quantization_aware_training_as_torchs(torch, backend):
    """fuse, prepare_qat, three SGD steps through the fake quantizers, convert: the same losses, printout and
    quantized outputs as torch's."""
    torch.manual_seed(0)
    state = _numpy_state(_qat_net(torch))
    results = []
    for lib in (torch, core):
        rng = np.random.default_rng(0)
        m = _qat_net(lib)
        m.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = lib.ao.quantization.fuse_modules(m, [["conv", "relu"]])
            m.qconfig = lib.ao.quantization.get_default_qat_qconfig(backend)
            lib.ao.quantization.prepare_qat(m, inplace=True)
            printed = [repr(m)]
            opt = lib.optim.SGD(m.parameters(), lr=0.1)
            losses = []
            for _ in range(3):
                loss = m(lib.tensor(rng.standard_normal((4, 2, 6, 6)).astype(np.float32))).pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(loss.item())
            m.eval()
            q = lib.ao.quantization.convert(m)
        printed.append(repr(q))
        out = q(lib.tensor(rng.standard_normal((2, 2, 6, 6)).astype(np.float32)))
        results.append((printed, losses, to_numpy(out), q.fc.scale))
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-5)
    if ZEN4_AVX512 or backend == "x86":
        assert results[1][0] == results[0][0]
        np.testing.assert_allclose(results[1][2], results[0][2], atol=1e-6)
    else:  # NOTE: on an AMD Zen 3 (AVX2) the float32 training ends a last bit off, so the observed scales (printed
        # in full) move in their last digits (within 1e-5) and qnnpack's outputs by up to one quantization step
        number = re.compile(r"\d+\.\d+(?:e-?\d+)?")
        for ours, theirs in zip(results[1][0], results[0][0]):
            assert number.sub("#", ours) == number.sub("#", theirs)
            np.testing.assert_allclose([float(v) for v in number.findall(ours)],
                                       [float(v) for v in number.findall(theirs)], rtol=1e-5)
        np.testing.assert_allclose(results[1][2], results[0][2], rtol=0, atol=results[0][3] * 1.0001)


@pytest.mark.parametrize("seed", range(6))
def test_qfunctional_ops_quantize_as_torchs(torch, seed):
    rng = np.random.default_rng(seed)
    a, b = [(rng.standard_normal((3, 40)) * rng.uniform(0.1, 5)).astype(np.float32) for _ in range(2)]
    (sa, sb, so), (za, zb, zo) = rng.uniform(0.005, 0.1, 3).astype(np.float32).tolist(), rng.integers(0, 255, 3)
    for op in ("add", "mul", "cat", "add_relu"):
        out = []
        for lib in (torch, core):
            qa = lib.quantize_per_tensor(lib.tensor(a), sa, int(za), lib.quint8)
            qb = lib.quantize_per_tensor(lib.tensor(b), sb, int(zb), lib.quint8)
            f = lib.ao.nn.quantized.QFunctional()
            f.scale, f.zero_point = so, int(zo)
            out.append(f.cat([qa, qb], 1) if op == "cat" else getattr(f, op)(qa, qb))
        assert out[1].q_scale() == out[0].q_scale() and out[1].q_zero_point() == out[0].q_zero_point()
        assert np.array_equal(to_numpy(out[1].int_repr()), to_numpy(out[0].int_repr())), op


def test_float_functional_is_observed_and_converted_as_torchs(torch):
    def block(lib):
        nn = lib.nn

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.quant = lib.ao.quantization.QuantStub()
                self.conv = nn.Conv2d(3, 3, 3, padding=1)
                self.skip = lib.ao.nn.quantized.FloatFunctional()
                self.cat = lib.ao.nn.quantized.FloatFunctional()
                self.dequant = lib.ao.quantization.DeQuantStub()

            def forward(self, x):
                x = self.quant(x)
                y = self.skip.add_relu(self.conv(x), x)
                return self.dequant(self.cat.cat([y, x], 1))

        return Block().eval()

    torch.manual_seed(0)
    state = _numpy_state(block(torch))
    rng = np.random.default_rng(0)
    calibration, x = [rng.standard_normal((2, 3, 5, 5)).astype(np.float32) for _ in range(2)]
    results = []
    for lib in (torch, core):
        m = block(lib)
        m.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        m.qconfig = lib.ao.quantization.default_qconfig
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.ao.quantization.prepare(m, inplace=True)
            printed = [repr(m)]
            m(lib.tensor(calibration))
            lib.ao.quantization.convert(m, inplace=True)
        results.append((printed + [repr(m)], list(m.state_dict()), to_numpy(m(lib.tensor(x)))))
    assert results[1][:2] == results[0][:2]
    np.testing.assert_allclose(results[1][2], results[0][2], atol=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_histogram_observer_histogram_and_qparams_as_torchs(torch, seed):
    """The running histogram (rebinned when the range grows) and the L2 search's qparams, as torch's."""
    rng = np.random.default_rng(seed)
    batches = [(rng.standard_normal(int(rng.integers(10, 500))) * rng.uniform(0.5, 3) + rng.uniform(-1, 1))
               .astype(np.float32) for _ in range(int(rng.integers(1, 4)))]
    if seed % 3 == 0:
        batches = [np.abs(b) for b in batches]
    kwargs = [{}, {"reduce_range": True}, {"qscheme": "per_tensor_symmetric"},
              {"dtype": "qint8", "qscheme": "per_tensor_symmetric"}][seed % 4]
    results = []
    for lib in (torch, core):
        obs = lib.ao.quantization.HistogramObserver(
            **{k: getattr(lib, v) if isinstance(v, str) else v for k, v in kwargs.items()})
        for b in batches:
            obs(lib.tensor(b))
        scale, zero_point = obs.calculate_qparams()
        results.append((to_numpy(scale).tolist(), to_numpy(zero_point).tolist(), to_numpy(obs.histogram),
                        obs.min_val.item(), obs.max_val.item(), list(obs.state_dict())))
    assert results[1][:2] == results[0][:2] and results[1][3:] == results[0][3:]
    assert np.array_equal(results[1][2], results[0][2])


def test_quantized_adaptive_avg_pool_and_mean_as_torchs(torch):
    """Pooling and means of quantized tensors stay quantized with the input's quantizer; the integers are
    torch's except where a window's mean is half-way between two integers (one step at most, rarely)."""
    differing = total = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        height, width, channels = (int(v) for v in rng.integers(1, 12, 3))
        x = rng.standard_normal((2, channels, height, width)).astype(np.float32)
        scale, zero_point = float(np.float32(rng.uniform(0.01, 0.1))), int(rng.integers(0, 255))
        size = [1, (2, 3), (None, 1), 3][seed % 4]
        for fn in (lambda lib, q, size=size: lib.nn.functional.adaptive_avg_pool2d(q, size),
                   lambda lib, q, size=size: lib.nn.AdaptiveAvgPool2d(size)(q), lambda lib, q: q.mean([2, 3]),
                   lambda lib, q: q.mean((3, 2), keepdim=True), lambda lib, q: q.mean(1)):
            a, b = (fn(lib, lib.quantize_per_tensor(lib.tensor(x), scale, zero_point, lib.quint8))
                    for lib in (torch, core))
            assert b.dtype is core.quint8 and (b.q_scale(), b.q_zero_point()) == (a.q_scale(), a.q_zero_point())
            ia, ib = to_numpy(a.int_repr()).astype(int), to_numpy(b.int_repr()).astype(int)
            assert ia.shape == ib.shape and np.abs(ia - ib).max() <= 1
            differing, total = differing + int((ia != ib).sum()), total + ia.size
    assert differing <= total // 500


def test_older_nn_names_are_the_same_classes(torch):
    """``nn.quantized``, ``nn.intrinsic`` and ``nn.qat`` name ``ao.nn``'s classes, as in torch (tutorials use
    ``nn.quantized.FloatFunctional()``)."""
    import core.nn.quantized.dynamic

    pairs = [("quantized", "FloatFunctional"), ("quantized", "Conv2d"), ("intrinsic", "ConvReLU2d"),
             ("qat", "Linear")]
    for lib in (torch, core):
        for package, name in pairs:
            assert getattr(getattr(lib.nn, package), name) is getattr(getattr(lib.ao.nn, package), name)
    assert core.nn.quantized.dynamic.Linear is core.ao.nn.quantized.dynamic.Linear


def _mobilenet_like(lib):
    """The static quantization tutorial's MobileNetV2 in small: ConvBNReLU Sequentials, inverted residuals whose
    skip connection is a FloatFunctional, Dropout, a spatial mean and a QuantStub/DeQuantStub pair."""
    nn = lib.nn

    class ConvBNReLU(nn.Sequential):
        def __init__(self, i, o, k=3, s=1, g=1):
            super().__init__(nn.Conv2d(i, o, k, s, (k - 1) // 2, groups=g, bias=False), nn.BatchNorm2d(o),
                             nn.ReLU(inplace=False))

    class InvertedResidual(nn.Module):
        def __init__(self, i, o, s, e):
            super().__init__()
            self.use_res_connect = s == 1 and i == o
            self.conv = nn.Sequential(ConvBNReLU(i, i * e, k=1), ConvBNReLU(i * e, i * e, s=s, g=i * e),
                                      nn.Conv2d(i * e, o, 1, 1, 0, bias=False), nn.BatchNorm2d(o))
            self.skip_add = nn.quantized.FloatFunctional()

        def forward(self, x):
            return self.skip_add.add(x, self.conv(x)) if self.use_res_connect else self.conv(x)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(ConvBNReLU(3, 8, s=2), InvertedResidual(8, 8, 1, 2),
                                          InvertedResidual(8, 16, 2, 2), ConvBNReLU(16, 32, k=1))
            self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(32, 10))
            self.quant = lib.ao.quantization.QuantStub()
            self.dequant = lib.ao.quantization.DeQuantStub()

        def forward(self, x):
            x = self.features(self.quant(x))
            return self.dequant(self.classifier(x.mean([2, 3])))

        def fuse_model(self):
            for m in self.modules():
                if type(m) is ConvBNReLU:
                    lib.ao.quantization.fuse_modules(m, ["0", "1", "2"], inplace=True)
                if type(m) is InvertedResidual:
                    for idx in range(len(m.conv)):
                        if type(m.conv[idx]) is nn.Conv2d:
                            lib.ao.quantization.fuse_modules(m.conv, [str(idx), str(idx + 1)], inplace=True)

    return Net()


def test_tutorial_mobilenet_flow_as_torchs(torch):
    """fuse_model, get_default_qconfig('x86'), prepare, calibrate, convert: torch's prepared state dict (its
    histograms) gives core the same converted model, printed and computing as torch's, integer for integer."""
    torch.manual_seed(0)
    float_t = _mobilenet_like(torch)
    for mod in float_t.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.2, 0.2)
            mod.running_var.uniform_(0.5, 1.5)
    state = _numpy_state(float_t)
    rng = np.random.default_rng(0)
    calibration = [rng.standard_normal((4, 3, 16, 16)).astype(np.float32) for _ in range(2)]
    x = rng.standard_normal((4, 3, 16, 16)).astype(np.float32)
    models = []
    for lib in (torch, core):
        m = _mobilenet_like(lib)
        m.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        m.eval()
        m.fuse_model()
        m.qconfig = lib.ao.quantization.get_default_qconfig("x86")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.ao.quantization.prepare(m, inplace=True)
            if lib is torch:
                for batch in calibration:
                    m(torch.tensor(batch))
                observed = _numpy_state(m)
            else:
                m.load_state_dict({k: core.tensor(v) for k, v in observed.items()})
            models.append((repr(m), lib.ao.quantization.convert(m)))
    assert models[1][0] == models[0][0]
    assert repr(models[1][1]) == repr(models[0][1])
    (_, theirs), (_, ours) = models
    features_t = theirs.features(theirs.quant(torch.tensor(x)))
    features_c = ours.features(ours.quant(core.tensor(x)))
    assert np.array_equal(to_numpy(features_c.int_repr()), to_numpy(features_t.int_repr()))
    # the spatial mean's integers may differ by one at half-way ties (see the adaptive pooling test)
    out_t, out_c = theirs(torch.tensor(x)), ours(core.tensor(x))
    np.testing.assert_allclose(to_numpy(out_c), to_numpy(out_t), atol=3 * theirs.classifier[1].scale)


def test_refusals_as_torchs(torch):
    """An unknown backend, conv+bn fusion in training mode and a pattern with no fuser raise torch's errors."""
    for lib in (torch, core):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name in ("get_default_qconfig", "get_default_qat_qconfig"):
                with pytest.raises(AssertionError, match="backend: foo not supported"):
                    getattr(lib.ao.quantization, name)("foo")
            with pytest.raises(AssertionError, match="Fusion only for eval!"):
                lib.ao.quantization.fuse_modules(lib.nn.Sequential(lib.nn.Conv2d(1, 2, 3), lib.nn.BatchNorm2d(2)),
                                                 ["0", "1"])
            with pytest.raises(AssertionError, match="did not find fuser method for"):
                lib.ao.quantization.fuse_modules(lib.nn.Sequential(lib.nn.Conv2d(1, 2, 3), lib.nn.Sigmoid()),
                                                 ["0", "1"])
