"""#19's leftovers against torch: quantization-aware training with conv+bn fused as torchvision's quantizable models
and the static quantization tutorial's QAT part use it (``fuse_modules_qat``, the QAT ``ConvBn2d``/
``ConvBnReLU2d``, ``freeze_bn_stats``, ``disable_observer``, ``convert``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy
from tests.core.reference_cpu import ZEN4_AVX512, assert_ulp_close


def _numpy_state(module):
    return {k: to_numpy(v).copy() for k, v in module.state_dict().items()}


def _conv_bn_net(lib):
    nn = lib.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.quant = lib.ao.quantization.QuantStub()
            self.conv1 = nn.Conv2d(2, 4, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(4)
            self.relu1 = nn.ReLU()
            self.conv2 = nn.Conv2d(4, 4, 3, stride=2)
            self.bn2 = nn.BatchNorm2d(4)
            self.conv3 = nn.Conv2d(4, 6, 1)
            self.relu3 = nn.ReLU()
            self.fc = nn.Linear(6 * 2 * 2, 5)
            self.dequant = lib.ao.quantization.DeQuantStub()

        def forward(self, x):
            x = self.relu1(self.bn1(self.conv1(self.quant(x))))
            x = self.relu3(self.conv3(self.bn2(self.conv2(x))))
            return self.dequant(self.fc(lib.flatten(x, 1)))

    return Net()


@pytest.mark.parametrize("backend", ["x86", "qnnpack"])
def test_qat_with_conv_bn_trains_freezes_and_converts_as_torchs(torch, backend):
    """fuse_modules_qat (conv+bn+relu, conv+bn, conv+relu), prepare_qat, SGD steps with the observers disabled after
    two and the batch norms frozen after three, then convert: torch's printouts, losses, trained state (running
    statistics included) and quantized outputs."""
    torch.manual_seed(0)
    state = _numpy_state(_conv_bn_net(torch))
    results = []
    for lib in (torch, core):
        aq = lib.ao.quantization
        rng = np.random.default_rng(0)
        m = _conv_bn_net(lib)
        m.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = aq.fuse_modules_qat(m, [["conv1", "bn1", "relu1"], ["conv2", "bn2"], ["conv3", "relu3"]])
            printed = [repr(m)]
            m.qconfig = aq.get_default_qat_qconfig(backend)
            aq.prepare_qat(m, inplace=True)
            printed.append(repr(m))
            opt = lib.optim.SGD(m.parameters(), lr=0.1)
            losses = []
            for step in range(5):
                if step == 2:
                    m.apply(aq.disable_observer)
                if step == 3:
                    m.apply(lib.nn.intrinsic.qat.freeze_bn_stats)
                loss = m(lib.tensor(rng.standard_normal((4, 2, 6, 6)).astype(np.float32))).pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(loss.item())
            m.train()  # (a frozen batch norm stays in eval mode)
            frozen = [m.conv2.freeze_bn, m.conv2.bn.training, m.conv1.bn.training]
            trained = _numpy_state(m)
            m.eval()
            q = aq.convert(m)
        out = q(lib.tensor(rng.standard_normal((2, 2, 6, 6)).astype(np.float32)))
        results.append((printed, losses, frozen, trained, to_numpy(out), type(q.conv1).__name__, q.fc.scale))
    theirs, ours = results
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5)
    assert ours[2] == theirs[2] == [True, False, False]
    assert ours[3].keys() == theirs[3].keys()
    for key in theirs[3]:
        np.testing.assert_allclose(ours[3][key], theirs[3][key], rtol=1e-5, atol=1e-6, err_msg=key)
    assert ours[5] == theirs[5]
    # NOTE: within one quantization step on the AMD Zen 4 the bits were measured on; on an AMD Zen 3 (AVX2) the
    # float32 training ends a last bit off in some weights and observer ranges, and qnnpack's requantized output
    # then moves up to 4 steps (x86's stays within one)
    steps = 1 if ZEN4_AVX512 or backend == "x86" else 4
    np.testing.assert_allclose(ours[4], theirs[4], rtol=0, atol=steps * theirs[6] * 1.0001)  # (steps in float32)


def test_qat_conv_bn_modules_construct_print_and_freeze_as_torchs(torch):
    """A QAT ConvBnReLU2d made directly draws its conv weight, bias and bn weight from the global generator in
    torch's order (the same state and the same next draw), prints as torch's, and ``freeze_bn_stats`` keeps its
    batch norm in eval mode through ``train()``."""
    results = []
    for lib in (torch, core):
        lib.manual_seed(3)
        nniqat = lib.ao.nn.intrinsic.qat
        qconfig = lib.ao.quantization.get_default_qat_qconfig("fbgemm")
        m = nniqat.ConvBnReLU2d(3, 4, 3, bias=True, qconfig=qconfig)
        after = to_numpy(lib.rand(3))
        modes = [m.freeze_bn, m.bn.training]
        m.eval()
        modes += [m.freeze_bn, m.bn.training]
        m2 = nniqat.ConvBn2d(3, 4, 3, qconfig=qconfig)
        m2.apply(nniqat.freeze_bn_stats)
        m2.train()
        modes += [m2.freeze_bn, m2.bn.training, m2.training]
        m2.apply(nniqat.update_bn_stats)
        modes += [m2.freeze_bn, m2.bn.training]
        results.append((repr(m), _numpy_state(m), after, modes, lib.nn.intrinsic.qat.ConvBn2d is nniqat.ConvBn2d))
    theirs, ours = results
    assert ours[0] == theirs[0]
    assert ours[1].keys() == theirs[1].keys()
    for key in theirs[1]:
        assert np.array_equal(ours[1][key], theirs[1][key]), key
    assert np.array_equal(ours[2], theirs[2])
    assert ours[3] == theirs[3]
    assert ours[4] and theirs[4]


def test_default_qat_fake_quantizers_forward_and_backward_bit_for_bit(torch):
    """The default QAT qconfig's weight (per channel) and activation fake quantizers: outputs, straight-through
    gradients (zero outside the clamp) and qparams, bit for bit, also with the observer disabled or fake
    quantization off."""
    results = []
    for lib in (torch, core):
        qconfig = lib.ao.quantization.get_default_qat_qconfig("x86")
        weight_fq, act_fq = qconfig.weight(), qconfig.activation()
        rng = np.random.default_rng(1)
        seen = []
        for i in range(3):
            w = lib.tensor((rng.standard_normal((4, 3, 2, 2)) * (i + 1)).astype(np.float32), requires_grad=True)
            wq = weight_fq(w)
            wq.backward(lib.tensor(rng.standard_normal((4, 3, 2, 2)).astype(np.float32)))
            a = lib.tensor((rng.standard_normal((5, 7)) * (i + 1)).astype(np.float32), requires_grad=True)
            aq = act_fq(a)
            aq.backward(lib.ones_like(aq))
            seen += [wq, w.grad, weight_fq.scale, weight_fq.zero_point, aq, a.grad, act_fq.scale, act_fq.zero_point]
        weight_fq.apply(lib.ao.quantization.disable_observer)
        act_fq.apply(lib.ao.quantization.disable_fake_quant)
        x = lib.tensor((rng.standard_normal((4, 3, 2, 2)) * 9).astype(np.float32))
        seen += [weight_fq(x), weight_fq.scale, act_fq(x)]
        results.append([to_numpy(t.detach()) for t in seen])
    for ours, theirs in zip(results[1], results[0]):
        assert ours.dtype == theirs.dtype
        assert np.array_equal(ours, theirs)


def test_fuse_modules_qat_refusals_as_torchs(torch):
    """Conv and bn in different modes, a bn of other width or without affine parameters: torch's errors."""
    for lib in (torch, core):
        nn = lib.nn
        fuse = lib.ao.quantization.fuse_modules_qat
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(AssertionError, match=r"Conv and BN both must be in the same mode \(train or eval\)"):
                fuse(nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2).eval()), ["0", "1"])
            with pytest.raises(AssertionError, match="Output channel of Conv2d must match num_features"):
                fuse(nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(3)), ["0", "1"])
            with pytest.raises(AssertionError, match="Only support fusing BatchNorm2d with affine set to True"):
                fuse(nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2, affine=False)), ["0", "1"])
            with pytest.raises(AssertionError, match="Incorrect types for input modules: Conv1d and BatchNorm2d"):
                lib.ao.nn.intrinsic.ConvBn2d(nn.Conv1d(1, 2, 3), nn.BatchNorm2d(2))


class _Reflecting:
    """A user's class that defines every reflected operator (and the comparisons): each names itself."""

    def __getattr__(self, name):
        raise AttributeError(name)


for _name in ("radd", "rsub", "rmul", "rtruediv", "rfloordiv", "rmod", "rpow", "rmatmul", "rand", "ror", "rxor",
              "rlshift", "rrshift", "lt", "gt", "le", "ge", "eq", "ne"):
    setattr(_Reflecting, f"__{_name}__", lambda self, other, _n=_name: _n)
_Reflecting.__hash__ = object.__hash__

_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor", "lshift",
              "rshift", "lt", "gt", "le", "ge", "eq", "ne")
_DUNDERS = [f"__{p}{n}__" for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or",
                                    "xor", "lshift", "rshift") for p in ("", "r", "i")] + \
           ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"]


def _outcome(lib, fn):
    try:
        result = fn()
    except Exception as e:  # (the error's type is what is compared)
        return type(e).__name__
    if result is NotImplemented:
        return "NotImplemented"
    return "tensor" if isinstance(result, lib.Tensor) else repr(result)


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_binary_operators_defer_to_a_user_class_as_torchs(torch, dtype):
    """``t OP obj`` for a class with reflected operators runs the class's method (a tensor's ``__eq__``/``__ne__``
    give ``NotImplemented`` as its arithmetic ones do), and each dunder called directly with None, a str, a list, a
    tuple, a dict or a plain object answers as torch's (``NotImplemented`` or the same error type)."""
    import operator

    results = []
    for lib in (torch, core):
        t = lib.tensor([1, 2], dtype=getattr(lib, dtype))
        seen = [_outcome(lib, lambda op=op, t=t: getattr(operator, op)(t, _Reflecting())) for op in _OPERATORS]
        seen += [t == None, t != None, t == "a", t != [1, 2], t in [None, "x"]]  # noqa: E711
        for other in (None, "a", [1, 2], (1, 2), {}, object(), _Reflecting()):
            seen += [_outcome(lib, lambda d=d, o=other, t=t: getattr(t.clone(), d)(o)) for d in _DUNDERS]
        results.append(seen)
    assert results[1] == results[0]
    reflected = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "eq", "ne": "ne"}
    assert results[1][:len(_OPERATORS)] == [repr(reflected.get(op, "r" + op.rstrip("_"))) for op in _OPERATORS]
    assert results[1][len(_OPERATORS):len(_OPERATORS) + 5] == [False, True, False, True, False]


def test_inplace_bitwise_ops_check_the_cast_first_as_torchs(torch):
    """``&=``, ``|=``, ``^=``, ``<<=``, ``>>=`` refuse a result type that does not cast back to self's dtype with
    torch's RuntimeError before the kernel's dtype check (a bool tensor shifted by an int, an int tensor and a
    float): the same error types and messages, and the same values where both compute."""
    results = []
    for lib in (torch, core):
        seen = []
        for name in ("__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__"):
            for base in ([1.0, 2.0], [1, 2], [True, False]):
                for other in (1, 1.5, 1.5j, True, lib.tensor([True, True]), lib.tensor([1, 1], dtype=lib.int32),
                              lib.tensor([1.0, 1.0], dtype=lib.float64)):
                    try:
                        seen.append(getattr(lib.tensor(base), name)(other).tolist())
                    except (RuntimeError, NotImplementedError) as e:
                        seen.append((type(e).__name__, str(e)))
        results.append(seen)
    assert results[1] == results[0]


_SIZE_FORMS = [2, [2], (2,), [], (), None, [2, 2], [2, 1], (2, 2, 2), [1, 2, 2], 2.0, [2.0], [2, 2.0], True, "2",
               "tensor(2)", "[tensor(2)]"]


def _size_form(lib, form):
    return {"tensor(2)": lib.tensor(2), "[tensor(2)]": [lib.tensor(2)]}.get(form, form) if isinstance(form, str) \
        else form


def _size_calls(lib):
    """(label, call) for each pooling, adaptive pooling, unpooling, convolution and norm taking each size form."""
    F = lib.nn.functional
    calls = []
    for d in (1, 2, 3):
        x = lib.arange(2.0 * 6 ** d).reshape(1, 2, *[6] * d)
        for name in ("max_pool", "avg_pool", "lp_pool"):
            f = getattr(F, f"{name}{d}d")
            pre = (x, 2) if name == "lp_pool" else (x,)
            for i, arg in enumerate(("kernel_size", "stride", "padding", "dilation")):
                if name != "max_pool" and arg == "dilation" or name == "lp_pool" and arg == "padding":
                    continue
                base = [2, 2, 0, 1][:i]
                calls += [(f"{name}{d}d {arg}={v!r}",
                           lambda f=f, pre=pre, base=base, v=v: f(*pre, *base, _size_form(lib, v)))
                          for v in _SIZE_FORMS]
        for name in ("adaptive_max_pool", "adaptive_avg_pool"):
            f = getattr(F, f"{name}{d}d")
            calls += [(f"{name}{d}d {v!r}", lambda f=f, x=x, v=v: f(x, _size_form(lib, v)))
                      for v in _SIZE_FORMS + [[None, 2], (2, None), [None], [None] * 5]]
        pooled, idx = getattr(F, f"max_pool{d}d")(x, 2, return_indices=True)
        unpool = getattr(F, f"max_unpool{d}d")
        calls += [(f"max_unpool{d}d kernel_size={v!r}", lambda u=unpool, p=pooled, i=idx, v=v: u(p, i, _size_form(
            lib, v))) for v in _SIZE_FORMS if v != "[tensor(2)]"]
        calls.append((f"max_unpool{d}d stride=[]", lambda u=unpool, p=pooled, i=idx: u(p, i, 2, stride=[])))
        conv, w = getattr(F, f"conv{d}d"), lib.ones(3, 2, *[1] * d)
        for i, arg in enumerate(("stride", "padding", "dilation")):
            calls += [(f"conv{d}d {arg}={v!r}", lambda c=conv, x=x, w=w, i=i, v=v: c(x, w, None, *[1, 0, 1][:i], v))
                      for v in (2, [2], 2.0, [2.0], True, "2")]
    x = lib.arange(128.0).reshape(1, 2, 8, 8)
    for v in _SIZE_FORMS + [8, [8], (8,), lib.Size([8]), (8, 8)]:
        calls += [(f"layer_norm {v!r}", lambda v=v: F.layer_norm(x, _size_form(lib, v))),
                  (f"rms_norm {v!r}", lambda v=v: F.rms_norm(x, _size_form(lib, v)))]
    for v in _SIZE_FORMS:
        calls += [(f"unfold {v!r}", lambda v=v: F.unfold(x, _size_form(lib, v))),
                  (f"fold {v!r}", lambda v=v: F.fold(lib.ones(1, 8, 9), 4, _size_form(lib, v))),
                  (f"interpolate size={v!r}", lambda v=v: F.interpolate(x, size=_size_form(lib, v))),
                  (f"interpolate scale_factor={v!r}", lambda v=v: F.interpolate(x, scale_factor=_size_form(lib, v))),
                  (f"pixel_shuffle {v!r}", lambda v=v: F.pixel_shuffle(lib.ones(1, 4, 2, 2), _size_form(lib, v))),
                  (f"MaxPool1d stride={v!r}", lambda v=v: lib.nn.MaxPool1d(2, _size_form(lib, v))(x[0])),
                  (f"AvgPool1d stride={v!r}", lambda v=v: lib.nn.AvgPool1d(2, _size_form(lib, v))(x[0])),
                  (f"AdaptiveAvgPool2d {v!r}", lambda v=v: lib.nn.AdaptiveAvgPool2d(_size_form(lib, v))(x)),
                  (f"LPPool2d {v!r}", lambda v=v: lib.nn.LPPool2d(2, _size_form(lib, v))(x))]
    return calls


def _size_outcome(call):
    try:
        result = call()
    except Exception as e:  # (the error's type is what is compared)
        return type(e).__name__
    return tuple((result[0] if isinstance(result, tuple) else result).shape)


def test_size_arguments_parse_as_torchs(torch):
    """Every pooling (max, avg, lp; 1-d to 3-d), adaptive pooling, unpooling, convolution, layer/rms norm, unfold,
    fold, interpolate and pixel_shuffle takes the size forms torch's argument parser and Python wrappers take (an
    empty stride is the kernel size, an integer tensor an int) and refuses the others with torch's error type (a
    float, bool or str size: TypeError; ``F.layer_norm(x, 8)``: TypeError; a list of the wrong length: its
    RuntimeError, or Python's ValueError/IndexError where torch's wrapper unpacks or indexes it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = [(label, _size_outcome(call)) for label, call in _size_calls(torch)]
        ours = [(label, _size_outcome(call)) for label, call in _size_calls(core)]
    assert len(ours) > 600
    assert [o for o, t in zip(ours, theirs) if o != t] == []


@pytest.mark.parametrize("call", [
    "F.max_pool1d(x1, 2, stride=[])", "F.avg_pool1d(x1, 2, stride=())", "F.max_pool1d(x1, [2, 2])",
    "F.max_pool1d(x1, 2, [1, 1])", "F.max_pool1d(x1, 2, 1, [])", "F.avg_pool1d(x1, [2, 2])",
    "F.avg_pool1d(x1, 2, padding=[])", "F.max_pool2d(x2, [2, 2, 2])", "F.avg_pool2d(x2, 2, [1, 1, 1])",
    "F.max_pool2d(x2, 2, dilation=[1, 1, 1])", "F.max_pool3d(x3, [2, 2])", "F.avg_pool3d(x3, 2, padding=[1, 1])",
    "F.max_pool3d(x3, 2, stride=[1, 1])", "F.max_pool2d(x2, 2.0)", "F.max_pool2d(x2, 2, [2.0])",
    "F.max_pool2d(x2, [2, 2.0])", "F.max_pool2d(x2, True)", "F.layer_norm(x2, 8)", "F.rms_norm(x2, 8)",
    "F.layer_norm(x2, [8.0])", "F.adaptive_avg_pool2d(x2, [2])", "F.adaptive_avg_pool3d(x3, [2])",
    "F.adaptive_max_pool2d(x2, [2])", "F.adaptive_avg_pool1d(x1, [2, 2])", "F.adaptive_max_pool1d(x1, None)",
    "F.adaptive_avg_pool2d(x2, 2.0)", "F.adaptive_avg_pool2d(x2, [None] * 5)", "F.unfold(x2, [2])",
    "F.unfold(x2, 2.0)", "F.fold(torch.ones(1, 8, 9), [4], 2)", "F.pixel_shuffle(x2, 2.0)",
    "F.max_unpool2d(*F.max_pool2d(x2, 2, return_indices=True), [2])",
    "F.max_unpool3d(*F.max_pool3d(x3, 2, return_indices=True), 2, padding=[0, 0, 0, 0])",
    "F.lp_pool2d(x2, 2, [2])", "F.lp_pool2d(x2, float('inf'), 2)",
    "F.lp_pool1d(x1, -float('inf'), 3, 2)"])
def test_size_argument_results_and_messages_as_torchs(torch, call):
    """The same values, or the same error type and message, as torch's."""
    results = []
    for lib in (torch, core):
        scope = {"torch": lib, "F": lib.nn.functional, "x1": lib.arange(16.0).reshape(2, 8).sin(),
                 "x2": lib.arange(128.0).reshape(1, 2, 8, 8).cos(), "x3": lib.arange(432.0).reshape(2, 6, 6, 6).sin()}
        try:
            results.append(to_numpy(eval(call, scope)))
        except Exception as e:  # (the error is what is compared)
            results.append((type(e).__name__, str(e)))
    if isinstance(results[0], tuple):
        assert results[1] == results[0]
    else:
        np.testing.assert_allclose(results[1], results[0], rtol=1e-6, atol=1e-6)


_HALF_OPS = {
    "add(0.3, alpha=0.7)": lambda lib, x: lib.add(x, 0.3, alpha=0.7),
    "sub(1.1, alpha=3)": lambda lib, x: lib.sub(x, 1.1, alpha=3),
    "x + 0.1": lambda lib, x: x + 0.1,
    "x * 0.1": lambda lib, x: x * 0.1,
    "0.3 - x": lambda lib, x: 0.3 - x,
    "add(x, x.flip(0), alpha=0.3)": lambda lib, x: lib.add(x, x.flip(0), alpha=0.3),
    "pow(-0.5)": lambda lib, x: x.pow(-0.5),
    "pow(0.5)": lambda lib, x: x.pow(0.5),
    "pow_(-0.5) of 37": lambda lib, x: x[:37].clone().pow_(-0.5),
    "pow(-1), pow(2), pow(3), pow(-2)": lambda lib, x: lib.stack([x.pow(-1), x.pow(2), x.pow(3), x.pow(-2)]),
    "x // 0.3": lambda lib, x: x // 0.3,
    "x[:37] // 0.3": lambda lib, x: x[:37] // 0.3,
    "0.3 // x": lambda lib, x: 0.3 // x,
    "x // x.flip(0)": lambda lib, x: x // x.flip(0),
    "x // tensor(0.3)": lambda lib, x: x // lib.tensor(0.3),
    "x // tensor([0.3], half)": lambda lib, x: x // lib.tensor([0.3], dtype=x.dtype),
    "floor_divide_(0.3)": lambda lib, x: x.clone().floor_divide_(0.3),
    "div(x, 0.3, trunc)": lambda lib, x: lib.div(x, 0.3, rounding_mode="trunc"),
    "div(0.7, x, trunc)": lambda lib, x: lib.div(0.7, x, rounding_mode="trunc"),
    "div(x, x.flip(0), trunc)": lambda lib, x: lib.div(x, x.flip(0), rounding_mode="trunc"),
    "div(x, x.flip(0), floor)": lambda lib, x: lib.div(x, x.flip(0), rounding_mode="floor"),
    "strided add(x, y, alpha=0.3)": lambda lib, x: lib.add(x[::3], x.flip(0)[::3], alpha=0.3),
    "strided sub(x, 1.1, alpha=3)": lambda lib, x: lib.sub(x[5::7], 1.1, alpha=3),
    "strided add_(0.3, alpha=0.7)": lambda lib, x: x[::3].clone().add_(0.3, alpha=0.7),
    "strided rsqrt, pow(-0.5)": lambda lib, x: lib.stack([x[::3].rsqrt(), x[::3].pow(-0.5)]),
    "pow(-0.5) of 37": lambda lib, x: x[:37].pow(-0.5),
}


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("op", list(_HALF_OPS))
def test_half_scalar_ops_bit_for_bit_over_every_value(torch, dtype, op):
    """Every float16/bfloat16 value through add/sub/mul with a number and alpha (a strided operand takes torch's
    scalar loop: alpha * other rounded first), rsqrt and pow(+-0.5) (float16's kernel takes powf, not sqrt: pow(-0,
    0.5) is +0; bfloat16's is rsqrt, its tail rounding the sqrt), and the rounding divisions: a scalar divisor
    divides in float32 as its own value (x // 0.3 by float32's 0.3), a tensor divisor or a number dividend in the
    half type, each step rounded there: torch's bits, signed zeros and NaNs included."""
    results = []
    for lib in (torch, core):
        x = lib.arange(-2 ** 15, 2 ** 15, dtype=lib.int32).to(lib.int16).view(getattr(lib, dtype))
        with np.errstate(all="ignore"):
            out = _HALF_OPS[op](lib, x)
        results.append((str(out.dtype), to_numpy(out.view(lib.int16))))
    (dtype_t, bits_t), (dtype_c, bits_c) = results
    assert dtype_c == dtype_t
    nan = (bits_t & 0x7FFF) > (0x7C00 if dtype == "float16" else 0x7F80)
    assert np.array_equal(nan, (bits_c & 0x7FFF) > (0x7C00 if dtype == "float16" else 0x7F80))
    assert np.array_equal(bits_c[~nan], bits_t[~nan])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 5, 8, 12, 16])
def test_det_and_slogdet_bits_from_mkls_lu(torch, dtype, n):
    """det and slogdet as the product (and log sum) of the LU's diagonal as MKL factors A^T, bit for bit: float64
    too (fused multiply-adds as double-double), and a 1x1 matrix its own determinant (not exp(log|a|))."""
    a = np.random.default_rng(n).standard_normal((40, n, n))
    results = []
    for lib in (torch, core):
        x = lib.tensor(a).to(getattr(lib, dtype))
        sign, logabs = lib.linalg.slogdet(x)
        results.append([to_numpy(v) for v in (lib.linalg.det(x), lib.det(x[0]), sign, logabs)])
    for i, (ours, theirs) in enumerate(zip(results[1], results[0])):
        assert ours.dtype == theirs.dtype
        if i == 3 and dtype == "float64" and not ZEN4_AVX512:  # MKL's float64 log is correctly rounded (core's) on
            assert_ulp_close(ours, theirs, max_ulp=1)  # Zen 4, not on an AMD Zen 3 (42 of 100,000 logs an ulp off)
        else:
            assert np.array_equal(ours, theirs)  # (logabsdet's logs: MKL's vector log, core._mkl_vml's on an AMD CPU)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(2, 2), (2, 4), (5, 2), (3, 5), (7, 4), (8, 8), (12, 14), (16, 16)])
def test_lu_factor_bits_as_mkls_getf2(torch, dtype, shape):
    """lu_factor's packed LU and pivots bit for bit with torch's MKL up to 16 wide, float64 included (a pivot's
    reciprocal scales a column unless the matrix is 2x2)."""
    a = np.random.default_rng(sum(shape)).standard_normal((30, *shape))
    results = []
    for lib in (torch, core):
        lu, pivots = lib.linalg.lu_factor(lib.tensor(a).to(getattr(lib, dtype)))
        results.append((to_numpy(lu), to_numpy(pivots)))
    assert np.array_equal(results[1][0], results[0][0])
    assert np.array_equal(results[1][1], results[0][1])


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("n", [1, 8, 16, 17, 64, 67])
def test_maximum_minimum_fmax_fmin_of_signed_zeros_as_torchs(torch, dtype, n):
    """Which zero maximum/minimum/fmax/fmin (and binary max/min) return for +0 and -0: the first operand in the
    kernel's scalar loop (a tail, a strided operand, a small tensor), the second in its vector loop (steps of two
    AVX2 vectors), fmax/fmin the first everywhere (bfloat16: the second), as torch's; and signbit sees bfloat16's
    -0."""
    results = []
    for lib in (torch, core):
        z, w = lib.zeros(n, dtype=getattr(lib, dtype)), -lib.zeros(n, dtype=getattr(lib, dtype))
        zero = lib.tensor(0.0, dtype=z.dtype)
        seen = [w.signbit()]
        for name in ("maximum", "minimum", "fmax", "fmin", "max", "min"):
            f = getattr(lib, name)
            seen += [f(z, w), f(w, z), f(w[::2], z[::2]), f(w, zero), f(zero, w), f(w.reshape(1, -1).expand(3, n), z),
                     f(z.reshape(-1, 1)[:9], w[:5])]
        results.append([to_numpy(v.signbit()) if v.dtype != lib.bool else to_numpy(v) for v in seen])
    for ours, theirs in zip(results[1], results[0]):
        assert np.array_equal(ours, theirs)


def _graph_names(t, depth=4):
    names, node = [], t.grad_fn
    while node is not None and len(names) < depth:
        names.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    return names


def test_pow_and_maximum_double_backward_as_torchs(torch):
    """pow(tensor, tensor)'s gradients in torch's formulas (pow_backward_self/_exponent): at base 0 the masked
    ``0 * inf`` makes the double backward NaN and -0's exponent gradient +0, as torch's; maximum/minimum/fmax/fmin's
    gradients are torch's nodes (MaskedFillBackward0 <- WhereBackward0 <- DivBackward1) with torch's values."""
    results = []
    for lib in (torch, core):
        seen = []
        for e in (2.0, 3.0, 0.5, -1.0, 0.0, 1.0):
            x = lib.tensor([0.0, -0.0, 1.0, 2.0], requires_grad=True)
            ee = lib.tensor([e] * 4, requires_grad=True)
            g = lib.autograd.grad(x.pow(ee).sum(), (x, ee), create_graph=True)
            seen += [to_numpy(v.detach()) for v in g] + [[type(v.grad_fn).__name__ for v in g]]
            for i in range(2):
                gg = lib.autograd.grad(g[i].sum(), (x, ee), allow_unused=True, retain_graph=True)
                seen += [None if v is None else to_numpy(v) for v in gg]
        for name in ("maximum", "minimum", "fmax", "fmin", "max", "min"):
            a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
            b = lib.tensor([3.0, 2.0, 1.0], requires_grad=True)
            v = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
            ga, gb = lib.autograd.grad(getattr(lib, name)(a, b), (a, b), grad_outputs=v, create_graph=True)
            gv, = lib.autograd.grad((ga * lib.tensor([1.0, 2.0, 3.0])).sum() + gb.sum(), v)
            seen += [_graph_names(ga), _graph_names(gb), to_numpy(ga.detach()), to_numpy(gv)]
        results.append(seen)
    for ours, theirs in zip(results[1], results[0]):
        if isinstance(theirs, np.ndarray):
            assert np.array_equal(ours, theirs, equal_nan=True)
            assert np.array_equal(np.signbit(ours), np.signbit(theirs))
        else:
            assert ours == theirs


@pytest.mark.parametrize("name", ["view_as", "reshape_as", "expand_as", "type_as"])
def test_as_methods_refuse_a_non_tensor_as_torchs(torch, name):
    """``t.view_as([2])``, an ndarray or None is torch's TypeError with its message (an ndarray has a dtype and a
    shape, so ``type_as`` took one silently and the others raised AttributeError on a list)."""
    for other in ([2], np.ones(2), None):
        messages = []
        for lib in (torch, core):
            with pytest.raises(TypeError) as info:
                getattr(lib.ones(2), name)(other)
            messages.append(str(info.value))
        assert messages[1] == messages[0]


@pytest.mark.parametrize("call", [
    "torch.searchsorted(t, [2])", "torch.searchsorted([1], t)", "torch.bucketize(t, [2])", "torch.bucketize([2], t)",
    "torch.cdist([1], t)", "torch.cdist(t[None], [2])", "torch.cartesian_prod(t, [2])", "torch.dot(t, [2])",
    "torch.nn.functional.pairwise_distance(t, [2])", "torch.nn.functional.cosine_similarity([2], t)",
    "torch.searchsorted(t, 1.5)", "torch.bucketize(3, t)"])
def test_list_arguments_refused_as_torchs(torch, call):
    """A list where a tensor belongs is torch's TypeError with its message (searchsorted searched the list's values,
    bucketize and cartesian_prod raised AttributeError, cdist a RuntimeError); numbers stay accepted where torch's
    Number overloads take them."""
    results = []
    for lib in (torch, core):
        try:
            results.append(to_numpy(eval(call, {"torch": lib, "t": lib.tensor([0.5, 1.0, 2.0])})))
        except Exception as e:  # (the error is what is compared)
            results.append((type(e).__name__, str(e)))
    if isinstance(results[0], tuple):
        assert results[1] == results[0]
    else:
        assert np.array_equal(results[1], results[0])


def test_qat_linear_bn_trains_and_converts_as_torchs(torch):
    """fuse_modules_qat of Linear + BatchNorm1d (LinearBn1d), prepare_qat, three SGD steps, convert: torch's
    printouts, losses, trained statistics and quantized outputs (the batch norm folded into the int8 linear)."""
    def net(lib):
        nn = lib.nn
        return nn.Sequential(lib.ao.quantization.QuantStub(), nn.Linear(6, 8), nn.BatchNorm1d(8), nn.ReLU(),
                             nn.Linear(8, 3), lib.ao.quantization.DeQuantStub())

    torch.manual_seed(0)
    state = _numpy_state(net(torch))
    results = []
    for lib in (torch, core):
        aq = lib.ao.quantization
        rng = np.random.default_rng(0)
        m = net(lib)
        m.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = aq.fuse_modules_qat(m, [["1", "2"]])
            m.qconfig = aq.get_default_qat_qconfig("x86")
            aq.prepare_qat(m, inplace=True)
            printed = [repr(m)]
            opt = lib.optim.SGD(m.parameters(), lr=0.1)
            losses = []
            for _ in range(3):
                loss = m(lib.tensor(rng.standard_normal((16, 6)).astype(np.float32))).pow(2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(loss.item())
            trained = _numpy_state(m)
            m.eval()
            q = aq.convert(m)
        printed.append(repr(q))
        out = q(lib.tensor(rng.standard_normal((4, 6)).astype(np.float32)))
        results.append((printed, losses, trained, to_numpy(out), q[4].scale))
    theirs, ours = results
    assert ours[0][0] == theirs[0][0]
    assert ours[0][1].splitlines()[0] == theirs[0][1].splitlines()[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5)
    assert ours[2].keys() == theirs[2].keys()
    for key in theirs[2]:
        np.testing.assert_allclose(ours[2][key], theirs[2][key], rtol=1e-5, atol=1e-6, err_msg=key)
    np.testing.assert_allclose(ours[3], theirs[3], atol=theirs[4])


def test_views_of_a_dtype_view_keep_its_dtype_as_torchs(torch):
    """as_strided, unfold and an empty slice of ``x.view(dtype)`` read the storage in the view's dtype (they took
    the original's: float32 values from an int16 view, int16 from a bfloat16 one), with its storage offsets and
    bounds in bytes as torch's."""
    results = []
    for lib in (torch, core):
        b = lib.ones(6, dtype=lib.int16).view(lib.bfloat16)
        h = lib.ones(4).view(lib.int16)
        g = lib.arange(8, dtype=lib.int16).view(lib.float32)
        seen = [str(v.dtype) for v in (b.as_strided((2,), (2,)), b.unfold(0, 2, 2), b[3:3], h[2:2])]
        seen += [to_numpy(v) for v in (h.as_strided((2,), (1,)), h.as_strided((2,), (1,), 3), h.unfold(0, 2, 3),
                                       g.as_strided((2,), (2,)), h[1:].as_strided((2,), (2,)),
                                       h[3:].as_strided((2,), (1,)))]
        seen.append(h[3:].storage_offset())
        with pytest.raises(RuntimeError) as info:
            h.as_strided((2,), (1,), 7)
        seen.append(str(info.value))
        results.append(seen)
    for ours, theirs in zip(results[1], results[0]):
        if isinstance(theirs, np.ndarray):
            assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)
        else:
            assert ours == theirs
