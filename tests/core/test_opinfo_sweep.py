"""PyTorch's own op database (``common_methods_invocations.op_db``) as an oracle for core (#19).

Each OpInfo carries sample inputs in the argument forms real code uses (dims, keepdim, broadcasting,
scalars, kwargs, empty and 0-d tensors, non-contiguous layouts). For every OpInfo whose op core has, and
each of float32, float64, int64 and bool that the OpInfo supports on the CPU, the first ``SAMPLES``
samples run in torch and in core (the same data, core's tensors keeping torch's strides) and must agree:
dtype, shape and values (exact for integers and bools, tight tolerances for floats, NaN where torch has
NaN), the error type where torch raises, and for float64 samples of differentiable ops the gradients of
``(out * w).sum()`` for fixed random weights ``w``.

The elementwise OpInfos (unary and binary ufuncs) are swept further: ``ELEMENTWISE_SAMPLES`` samples (theirs are
small), their first ``NARROW_SAMPLES`` samples in int32, uint8, float16 and bfloat16 (half-precision results
compared bit for bit, the sign of zero included), and their in-place variant and ``out=`` form in float32 and
int64 (the result is ``self``/``out``, with torch's values, or the error torch raises, such as an int ``i0_``).
The ``torch.nn.functional`` OpInfos are also called with every argument by its torch name.

Nothing is hidden: what differs today is listed in ``KNOWN_DIFFERENCES`` (a strict xfail, so a fix
flips it), and the OpInfos core has no function for are listed in ``MISSING``, which may only shrink.
Random ops are not swept (their own tests cover them).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import math
import os
import random
import sys
import types
import unittest
import warnings

import numpy as np
import pytest
from hypothesis import settings

import core

torch = pytest.importorskip("torch")
if "expecttest" not in sys.modules:  # (torch's test base class needs it; only its TestCase name is used)
    sys.modules["expecttest"] = types.SimpleNamespace(TestCase=unittest.TestCase, ACCEPT=False)
_profile = settings._current_profile  # (torch's test utilities load their own hypothesis profile at import)
op_db = pytest.importorskip("torch.testing._internal.common_methods_invocations").op_db
_ufunc_infos = pytest.importorskip("torch.testing._internal.opinfo.core")
# ... and forbid setting torch.backends flags outside their context managers (disable_global_flags): both are
# process-wide, so later tests would see them; put both back
settings.load_profile(_profile)
torch.backends.disable_global_flags.__globals__["__allow_nonbracketed_mutation_flag"] = True  # (its module's own)

pytestmark = pytest.mark.oracle

# 4 samples per op and dtype keep the file near two minutes (16 for the elementwise OpInfos, whose samples are
# small: ELEMENTWISE_SAMPLES); OPINFO_SWEEP_SAMPLES=16 sweeps deeper (what differs only there fails plainly: the
# table below is for the default)
SAMPLES = int(os.environ.get("OPINFO_SWEEP_SAMPLES", "4"))
ELEMENTWISE_SAMPLES = max(SAMPLES, 16)
DTYPES = {"float32": torch.float32, "float64": torch.float64, "int64": torch.int64, "bool": torch.bool}
TOLERANCES = {  # (rtol, atol): torch.testing.assert_close's
    torch.float32: (1.3e-6, 1e-5), torch.complex64: (1.3e-6, 1e-5), torch.float64: (1e-7, 1e-7),
    torch.complex128: (1e-7, 1e-7), torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5),
}
RANDOM = {
    "bernoulli", "multinomial", "normal", "uniform", "cauchy", "exponential", "geometric", "log_normal",
    "rand_like", "randn_like", "randint_like", "randint", "randn", "rand", "nn.functional.dropout",
    "nn.functional.dropout2d", "nn.functional.dropout3d", "nn.functional.alpha_dropout",
    "nn.functional.feature_alpha_dropout", "nn.functional.rrelu", "nn.functional.fractional_max_pool2d",
    "nn.functional.fractional_max_pool3d", "nn.functional.gumbel_softmax",
    "nn.functional.multi_head_attention_forward", "torch.ops.aten._flash_attention_forward",
    "torch.ops.aten._efficient_attention_forward", "pca_lowrank", "svd_lowrank",
}
# the OpInfo gradcheck wrappers that reshape an input (torch's masked ones read torch.masked's private helpers)
INPUT_WRAPPERS = {"gradcheck_wrapper_hermitian_input", "gradcheck_wrapper_triangular_input",
                  "gradcheck_wrapper_triangular_input_real_positive_diagonal", "gradcheck_wrapper_ctc_loss"}
# ops whose outputs are defined up to a sign or phase (eigenvectors): compared after the OpInfo's own
# output_process_fn_grad, which takes the magnitudes
GAUGE = {"linalg.eig", "linalg.eigh", "svd", "linalg.svd", "linalg.svdvals"}

NO_COMPLEX32 = "no complex32 in core: NumPy has no type to hold it, so core's chalf() raises TypeError"
KNOWN_DIFFERENCES: dict[tuple[str, str], str] = {  # (OpInfo, dtype): what differs (the first failing sample)
    ("chalf", "bool"): NO_COMPLEX32,
    ("chalf", "float32"): NO_COMPLEX32,
    ("chalf", "float64"): NO_COMPLEX32,
    ("chalf", "int64"): NO_COMPLEX32,
}

# (OpInfo, dtype) of the elementwise sweeps below: what differs
KNOWN_NARROW_DIFFERENCES: dict[tuple[str, str], str] = {
    ("chalf", "int32"): NO_COMPLEX32,
    ("chalf", "uint8"): NO_COMPLEX32,
    ("chalf", "float16"): NO_COMPLEX32,
    ("chalf", "bfloat16"): NO_COMPLEX32,
    ("complex", "float16"): NO_COMPLEX32,
}
KNOWN_VARIANT_DIFFERENCES: dict[tuple[str, str], str] = {
}

# OpInfo: what core does with its error inputs (torch's own checks, each raising a given error type)
KNOWN_ERROR_DIFFERENCES: dict[str, str] = {
}

MISSING: list[str] = [  # OpInfos core has no function for: the float8 GEMMs (oneDNN's on the CPU, whose scaling
    # rounds otherwise than float32 products do; their OpInfos sample only float8 dtypes, which this sweep skips)
    "torch._scaled_mm",
    "torch._scaled_mm_v2",
]


def _key(op) -> str:
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


def _rebound(fn):
    """A lambda of torch's test modules with ``torch`` meaning core (``lambda x: torch.add(x, 1)``)."""
    if isinstance(fn, functools.partial):
        return functools.partial(_rebound(fn.func), *fn.args, **fn.keywords)
    glob = dict(fn.__globals__, torch=core)
    made = types.FunctionType(fn.__code__, glob, fn.__name__, fn.__defaults__, fn.__closure__)
    made.__kwdefaults__ = fn.__kwdefaults__
    return made


def _dotted(root, path: str):
    for part in path.split("."):
        root = getattr(root, part, None)
        if root is None:
            return None
    return root


def core_function(op):
    """core's function for an OpInfo, or None when core has none."""
    fn = op.op
    if type(fn).__name__ in ("OpOverload", "OpOverloadPacket"):
        name = str(fn).replace("aten::", "").replace("aten.", "")
        return _dotted(core.ops.aten, name.replace(".default", ""))
    if isinstance(fn, types.FunctionType) and fn.__module__.startswith("torch.testing"):
        return _rebound(fn)
    if getattr(fn, "__qualname__", "").startswith(("TensorBase.", "Tensor.")):  # torch.Tensor.cfloat, __radd__
        return getattr(core.Tensor, fn.__name__, None)
    found = _dotted(core, op.name)
    if found is None and "." not in op.name:
        found = getattr(core.Tensor, op.name, None)
    return found


def _swept(op) -> bool:
    return (op.name not in RANDOM and not type(op.op).__name__.startswith("_Jitted")
            and "sparse" not in op.name and not op.name.startswith("_refs"))


SWEPT = [op for op in op_db if _swept(op)]
FOUND = {_key(op): core_function(op) for op in SWEPT}


def _core_dtype(dtype):
    return getattr(core, str(dtype).replace("torch.", ""))


def _host(t):
    """``t.numpy()``, with bfloat16 (which NumPy lacks) carried as core's own bfloat16."""
    if t.dtype == torch.bfloat16:
        return core.tensor(t.float().numpy()).to(core.bfloat16)
    return core.tensor(t.numpy())


def _core_tensor(t):
    """A core tensor with ``t``'s values, dtype, strides and storage offset (a leaf when ``t`` requires grad)."""
    data = t.detach()
    if data.is_contiguous() and data.storage_offset() == 0 or data.numel() == 0:
        return _host(data.resolve_conj().resolve_neg()).requires_grad_(t.requires_grad)
    size = data.untyped_storage().nbytes() // data.element_size()
    whole = torch.empty(0, dtype=data.dtype).set_(data.untyped_storage(), 0, (size,), (1,))
    view = _host(whole).as_strided(tuple(data.shape), data.stride(), data.storage_offset())
    return view.detach().requires_grad_(t.requires_grad)


def to_core(x, leaves):
    """core's counterpart of a sample's argument (tensors, dtypes, nests of them); grad leaves collected."""
    if isinstance(x, torch.Tensor):
        if x.layout != torch.strided:
            raise _Unsupported(f"{x.layout} input")
        made = _core_tensor(x)
        if x.requires_grad:
            leaves.append(made)
        return made
    if isinstance(x, torch.dtype):
        return _core_dtype(x)
    if isinstance(x, (torch.device, torch.memory_format, torch.layout)):
        return getattr(core, str(x).replace("torch.", "")) if not isinstance(x, torch.device) else core.device(str(x))
    if isinstance(x, torch.Size):
        return core.Size(x)
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(to_core(v, leaves) for v in x)
    if isinstance(x, dict):
        return {k: to_core(v, leaves) for k, v in x.items()}
    if isinstance(x, torch.Generator) or callable(x) and getattr(x, "__module__", "").startswith("torch"):
        raise _Unsupported(f"{type(x).__name__} argument")
    return x


class _Unsupported(Exception):
    """A sample this sweep can't translate (sparse inputs, generators)."""


def _torch_leaves(x, out):
    if isinstance(x, torch.Tensor):
        if x.requires_grad:
            out.append(x)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _torch_leaves(v, out)
    elif isinstance(x, dict):
        for v in x.values():
            _torch_leaves(v, out)
    return out


def _numpy(t):
    """A NumPy array of a core or torch tensor; half precision widened to float32, torch's ZeroTensor filled."""
    if isinstance(t, core.Tensor):
        t = t.detach().cpu()
        return np.asarray((t.float() if t.dtype in (core.bfloat16, core.float16) else t).numpy())
    t = t.detach()
    if t._is_zerotensor():
        return np.zeros(tuple(t.shape), dtype=torch.empty(0, dtype=t.dtype).numpy().dtype)
    return (t.float() if t.dtype in (torch.bfloat16, torch.float16) else t).resolve_conj().resolve_neg().numpy()


def _assert_same_tensor(expected, got, where):
    assert isinstance(got, core.Tensor), f"{where}: core gave {type(got).__name__}, torch a tensor"
    assert str(got.dtype) == str(expected.dtype), f"{where}: dtype {got.dtype} != torch's {expected.dtype}"
    assert tuple(got.shape) == tuple(expected.shape), f"{where}: shape {tuple(got.shape)} != {tuple(expected.shape)}"
    if expected.layout != torch.strided:
        expected = expected.to_dense()
    want, have = _numpy(expected), _numpy(got)
    if expected.is_floating_point() or expected.is_complex():
        rtol, atol = TOLERANCES.get(expected.dtype, (1e-3, 1e-5))
        np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)
    else:
        np.testing.assert_array_equal(have, want, err_msg=where)


def assert_same(expected, got, where="out"):
    """core's result ``got`` equals torch's ``expected`` (nests of tensors, numbers, sizes)."""
    if isinstance(expected, torch.Tensor):
        _assert_same_tensor(expected, got, where)
    elif isinstance(expected, (list, tuple)) and not isinstance(expected, torch.Size):
        assert isinstance(got, (list, tuple)), f"{where}: core gave {type(got).__name__}, torch a sequence"
        assert len(got) == len(expected), f"{where}: {len(got)} results, torch {len(expected)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            assert_same(e, g, f"{where}[{i}]")
    elif isinstance(expected, float) and isinstance(got, (int, float)):
        both_nan = math.isnan(got) and math.isnan(expected)
        assert both_nan or math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-6), f"{where}: {got} != {expected}"
    else:
        assert type(got).__name__ == type(expected).__name__ or isinstance(expected, torch.Size), (
            f"{where}: core gave {type(got).__name__}, torch {type(expected).__name__}")
        assert got == expected, f"{where}: {got!r} != torch's {expected!r}"


def _raised(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(), None
    except Exception as exc:  # (the error's type is what is compared)
        return None, exc


def _same_error(expected: BaseException, got: BaseException | None) -> bool:
    if got is None:
        return False
    if type(expected).__module__ == "builtins":
        return isinstance(got, type(expected))
    return type(got).__name__ == type(expected).__name__


def _grad_outputs(outs, lib):
    """The differentiable float tensors among an op's (processed) outputs."""
    flat = outs if isinstance(outs, (list, tuple)) else [outs]
    return [o for o in flat if isinstance(o, lib.Tensor) and o.requires_grad and o.dtype == lib.float64]


def check_grads(sample, t_out, c_out, c_leaves):
    """Gradients of ``sum((out * w).sum())`` for fixed random ``w`` agree at every grad-requiring input."""
    t_leaves = _torch_leaves([sample.input, sample.args, sample.kwargs], [])
    t_outs = _grad_outputs(sample.output_process_fn_grad(t_out), torch)
    if not t_outs or not t_leaves:
        return
    c_outs = _grad_outputs(sample.output_process_fn_grad(c_out), core)
    assert len(c_outs) == len(t_outs), f"{len(c_outs)} differentiable outputs, torch {len(t_outs)}"
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal(tuple(o.shape)) for o in t_outs]
    t_loss = sum((o * torch.tensor(w)).sum() for o, w in zip(t_outs, weights))
    c_loss = sum((o * core.tensor(w)).sum() for o, w in zip(c_outs, weights))
    t_grads, t_exc = _raised(lambda: torch.autograd.grad(t_loss, t_leaves, allow_unused=True))
    c_grads, c_exc = _raised(lambda: core.autograd.grad(c_loss, c_leaves, allow_unused=True))
    if t_exc is not None:
        assert _same_error(t_exc, c_exc), f"torch's backward raised {type(t_exc).__name__}: {t_exc}; core {c_exc!r}"
        return
    assert c_exc is None, f"core's backward raised {type(c_exc).__name__}: {c_exc}"
    for i, (tg, cg) in enumerate(zip(t_grads, c_grads)):
        if tg is None or cg is None:
            present = tg if tg is not None else cg
            assert present is None or not _numpy(present).any(), f"grad[{i}]: None on one side only"
            continue
        assert_same(tg, cg, f"grad[{i}]")


def _reshapes_input(wrapper) -> bool:
    """Whether an OpInfo's gradcheck wrapper is one of ``INPUT_WRAPPERS`` (or a lambda calling one)."""
    names = {getattr(wrapper, "__name__", "")} | set(getattr(getattr(wrapper, "__code__", None), "co_names", ()))
    return bool(names & INPUT_WRAPPERS)


def _plain(fn, *args, **kwargs):
    return fn(*args, **kwargs)


def run_sample(op, fn, sample, with_grad: bool) -> str:
    """Compare one sample; returns "ok", "error" (both raised alike) or "skip" (untranslatable)."""
    leaves: list = []
    if sample.kwargs.get("dropout_p", 0):  # (random: scaled_dot_product_attention's dropout)
        return "skip"
    try:
        c_args = to_core([sample.input, list(sample.args), dict(sample.kwargs)], leaves)
    except _Unsupported:
        return "skip"
    # with gradients, through the OpInfo's gradcheck wrapper (eigh's input made symmetric, triangular inputs cut),
    # as torch's own gradient tests call it: a gradient off those inputs is the implementation's choice
    wrapped = with_grad and _reshapes_input(op.gradcheck_wrapper)
    t_call, c_call = (op.gradcheck_wrapper, _rebound(op.gradcheck_wrapper)) if wrapped else (_plain, _plain)
    t_out, t_exc = _raised(lambda: t_call(op, sample.input, *sample.args, **sample.kwargs))
    c_out, c_exc = _raised(lambda: c_call(fn, c_args[0], *c_args[1], **c_args[2]))
    if t_exc is not None:
        assert _same_error(t_exc, c_exc), f"torch raised {type(t_exc).__name__}: {t_exc}; core {c_exc!r}"
        return "error"
    if c_exc is not None:
        raise AssertionError(f"core raised {type(c_exc).__name__}: {c_exc}") from c_exc
    if op.has_nondeterministic_output:
        t_out, c_out = _shapes(t_out), _shapes(c_out)
    if op.name in GAUGE:
        assert_same(sample.output_process_fn_grad(t_out), sample.output_process_fn_grad(c_out))
    else:
        assert_same(t_out, c_out)
    if with_grad:
        check_grads(sample, t_out, c_out, leaves)
    return "ok"


def _shapes(out):
    """Only the dtypes and shapes of an op whose values are unspecified (``empty_like``)."""
    if isinstance(out, (list, tuple)):
        return type(out)(_shapes(o) for o in out)
    return out.new_zeros(out.shape) if hasattr(out, "new_zeros") else out


def _is_elementwise(op) -> bool:
    return isinstance(op, (_ufunc_infos.UnaryUfuncInfo, _ufunc_infos.BinaryUfuncInfo))


def samples(op, dtype, with_grad: bool):
    """The op's first ``SAMPLES`` sample inputs for ``dtype`` on the CPU (``ELEMENTWISE_SAMPLES`` for a ufunc's)."""
    torch.manual_seed(0)
    random.seed(0)  # (eigh's samples draw UPLO with Python's random)
    count = ELEMENTWISE_SAMPLES if _is_elementwise(op) else SAMPLES
    return list(itertools.islice(op.sample_inputs("cpu", dtype, requires_grad=with_grad), count))


def sweep_case(op, dtype) -> list[str]:
    fn = FOUND[_key(op)]
    with_grad = dtype == torch.float64 and op.supports_autograd
    results = []
    for i, sample in enumerate(samples(op, dtype, with_grad)):
        try:
            results.append(run_sample(op, fn, sample, with_grad))
        except AssertionError as exc:
            raise AssertionError(f"sample {i} ({sample}): {exc}") from None
    return results


def _cases():
    for op in SWEPT:
        key = _key(op)
        if FOUND[key] is None:
            continue
        supported = op.supported_dtypes("cpu")
        for name, dtype in DTYPES.items():
            if dtype not in supported:
                continue
            reason = KNOWN_DIFFERENCES.get((key, name))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(op, dtype, id=f"{key}-{name}", marks=marks)


@pytest.mark.parametrize(("op", "dtype"), list(_cases()))
def test_op_matches_torch_on_opinfo_samples(op, dtype):
    results = sweep_case(op, dtype)
    assert results, "the OpInfo gave no samples"


def _shares_memory(sample) -> bool:
    """Whether a sample's ``out=`` overlaps its input or itself (an expanded out: stride 0), errors core's separately
    copied tensors can't show (test_sweep_edge_cases_oracle checks core's on such tensors)."""
    out = sample.kwargs.get("out")
    outs = [o for o in (out if isinstance(out, (list, tuple)) else [out]) if isinstance(o, torch.Tensor)]
    ins = _tensors([sample.input, sample.args], [])
    if any(st == 0 and n > 1 for o in outs for n, st in zip(o.shape, o.stride())):
        return True
    return any(o.untyped_storage().data_ptr() == i.untyped_storage().data_ptr() for o in outs for i in ins)


def _tensors(x, found):
    if isinstance(x, torch.Tensor):
        found.append(x)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _tensors(v, found)
    return found


def error_case(op) -> int:
    """Compare the OpInfo's error inputs: core raises what torch raises. Returns how many were compared."""
    fn, compared = FOUND[_key(op)], 0
    for i, error in enumerate(itertools.islice(op.error_inputs("cpu"), 8)):
        sample = error.sample_input
        try:
            c_args = to_core([sample.input, list(sample.args), dict(sample.kwargs)], [])
        except (_Unsupported, ValueError, TypeError):  # (a 65-d tensor NumPy can't hold, a meta tensor)
            continue
        t_out, t_exc = _raised(functools.partial(op, sample.input, *sample.args, **sample.kwargs))
        if t_exc is None or _shares_memory(sample):
            continue
        c_out, c_exc = _raised(functools.partial(fn, c_args[0], *c_args[1], **c_args[2]))
        assert _same_error(t_exc, c_exc), (f"error input {i} ({sample}): torch raised {type(t_exc).__name__}: "
                                           f"{t_exc}; core {c_exc!r}")
        compared += 1
    return compared


def _error_cases():
    for op in SWEPT:
        key = _key(op)
        if FOUND[key] is None or op.error_inputs_func is None:
            continue
        reason = KNOWN_ERROR_DIFFERENCES.get(key)
        yield pytest.param(op, id=key, marks=[pytest.mark.xfail(strict=True, reason=reason)] if reason else [])


@pytest.mark.parametrize("op", list(_error_cases()))
def test_op_raises_torchs_errors_on_opinfo_error_inputs(op):
    error_case(op)


def test_ops_core_lacks_do_not_grow():
    missing = sorted(k for k, fn in FOUND.items() if fn is None)
    print(f"\n{len(FOUND)} OpInfos swept, {len(missing)} missing in core:\n  " + "\n  ".join(missing))
    new = sorted(set(missing) - set(MISSING))
    assert not new, f"OpInfos core lacks that MISSING does not list: {new}"
    assert len(missing) <= len(MISSING)


NARROW_DTYPES = {"int32": torch.int32, "uint8": torch.uint8, "float16": torch.float16, "bfloat16": torch.bfloat16}
NARROW_SAMPLES = 2
ELEMENTWISE = [op for op in SWEPT if _is_elementwise(op) and FOUND[_key(op)] is not None]


def _assert_same_bits(expected, got, where):
    """A half-precision result equal to torch's bit for bit (any NaN where torch has NaN)."""
    want = expected.detach().view(torch.int16).numpy()
    have = np.asarray(got.detach().view(core.int16).numpy())
    nan = torch.isnan(expected.detach()).numpy()
    assert (np.isnan(_numpy(got)) == nan).all(), f"{where}: NaN at other places than torch's"
    differ = (want != have) & ~nan
    assert not differ.any(), (f"{where}: {int(differ.sum())} of {differ.size} differ in bits: torch "
                              f"{_numpy(expected)[differ][:3].tolist()}, core {_numpy(got)[differ][:3].tolist()}")


def _narrow_sample(op, fn, sample) -> None:
    c_args = to_core([sample.input, list(sample.args), dict(sample.kwargs)], [])
    t_out, t_exc = _raised(lambda: op(sample.input, *sample.args, **sample.kwargs))
    c_out, c_exc = _raised(lambda: fn(c_args[0], *c_args[1], **c_args[2]))
    if t_exc is not None:
        assert _same_error(t_exc, c_exc), f"torch raised {type(t_exc).__name__}: {t_exc}; core {c_exc!r}"
        return
    if c_exc is not None:
        raise AssertionError(f"core raised {type(c_exc).__name__}: {c_exc}") from c_exc
    assert_same(t_out, c_out)
    for t, c in zip(*(o if isinstance(o, (list, tuple)) else [o] for o in (t_out, c_out))):
        if isinstance(t, torch.Tensor) and t.dtype in (torch.float16, torch.bfloat16):
            _assert_same_bits(t, c, "out")


def _narrow_cases():
    for op in ELEMENTWISE:
        supported = op.supported_dtypes("cpu")
        for name, dtype in NARROW_DTYPES.items():
            if dtype in supported:
                reason = KNOWN_NARROW_DIFFERENCES.get((_key(op), name))
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                yield pytest.param(op, dtype, id=f"{_key(op)}-{name}", marks=marks)


@pytest.mark.parametrize(("op", "dtype"), list(_narrow_cases()))
def test_elementwise_op_matches_torch_in_narrow_dtypes(op, dtype):
    torch.manual_seed(0)
    for i, sample in enumerate(itertools.islice(op.sample_inputs("cpu", dtype), NARROW_SAMPLES)):
        try:
            _narrow_sample(op, FOUND[_key(op)], sample)
        except AssertionError as exc:
            raise AssertionError(f"sample {i} ({sample}): {exc}") from None


def core_counterpart(fn):
    """core's callable for a torch one: a torch.testing lambda rebound, a partial of a torch function, a Tensor
    method, a ``torch.nn.functional`` or ``torch`` function."""
    if isinstance(fn, functools.partial):
        return functools.partial(core_counterpart(fn.func), *fn.args, **fn.keywords)
    if isinstance(fn, types.FunctionType) and fn.__module__.startswith("torch.testing"):
        return _rebound(fn)
    name, qualname = fn.__name__, getattr(fn, "__qualname__", "")
    if type(fn).__name__ == "method_descriptor" or qualname.startswith(("TensorBase.", "Tensor.")):
        return getattr(core.Tensor, name, None)
    if (getattr(fn, "__module__", None) or "").startswith("torch.nn.functional"):
        return getattr(core.nn.functional, name, None)
    return getattr(core, name, None)


def _compare_written(expected_exc, got_exc, written_t, written_c, result_c, where):
    if expected_exc is not None:
        assert _same_error(expected_exc, got_exc), (f"{where}: torch raised {type(expected_exc).__name__}: "
                                                    f"{expected_exc}; core {got_exc!r}")
        return
    if got_exc is not None:
        raise AssertionError(f"{where}: core raised {type(got_exc).__name__}: {got_exc}") from got_exc
    assert result_c is written_c, f"{where}: core's result is not the tensor it wrote"
    assert_same(written_t, written_c, where)


def variant_case(op, dtype) -> int:
    """The in-place variant on a copy of each sample's input, and ``out=`` an empty tensor like torch's result."""
    fn, inplace, compared = FOUND[_key(op)], op.inplace_variant, 0
    core_inplace = None if inplace is None else core_counterpart(inplace)
    assert inplace is None or core_inplace is not None, f"core has no {inplace}"
    torch.manual_seed(0)
    for i, sample in enumerate(itertools.islice(op.sample_inputs("cpu", dtype), NARROW_SAMPLES)):
        args, kwargs = list(sample.args), dict(sample.kwargs)
        if inplace is not None:
            t_self = sample.input.clone()
            c_self, c_args, c_kwargs = to_core([t_self, args, kwargs], [])
            _, t_exc = _raised(functools.partial(inplace, t_self, *args, **kwargs))
            c_out, c_exc = _raised(functools.partial(core_inplace, c_self, *c_args, **c_kwargs))
            _compare_written(t_exc, c_exc, t_self, c_self, c_out, f"sample {i} in place")
            compared += 1
        if op.supports_out:
            t_ref, t_exc = _raised(functools.partial(op, sample.input, *args, **kwargs))
            if t_exc is not None or not isinstance(t_ref, torch.Tensor):
                continue
            t_o = torch.empty_like(t_ref)
            c_o, (c_in, c_args, c_kwargs) = to_core(t_o, []), to_core([sample.input, args, kwargs], [])
            _, t_exc = _raised(functools.partial(op, sample.input, *args, **kwargs, out=t_o))
            c_out, c_exc = _raised(functools.partial(fn, c_in, *c_args, **c_kwargs, out=c_o))
            _compare_written(t_exc, c_exc, t_o, c_o, c_out, f"sample {i} out=")
            compared += 1
    return compared


def _variant_cases():
    for op in ELEMENTWISE:
        if op.inplace_variant is None and not op.supports_out:
            continue
        for name in ("float32", "int64"):
            if DTYPES[name] in op.supported_dtypes("cpu"):
                reason = KNOWN_VARIANT_DIFFERENCES.get((_key(op), name))
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                yield pytest.param(op, DTYPES[name], id=f"{_key(op)}-{name}", marks=marks)


@pytest.mark.parametrize(("op", "dtype"), list(_variant_cases()))
def test_elementwise_inplace_and_out_variants_match_torch(op, dtype):
    variant_case(op, dtype)


def _keyword_form(op, sample):
    """The sample's arguments all by name, as the torch.nn.functional function's signature names them (or None)."""
    try:
        return dict(inspect.signature(op.op).bind(sample.input, *sample.args, **sample.kwargs).arguments)
    except TypeError:  # (a sample of another overload's arguments)
        return None


def _named_parameters(fn) -> bool:
    """Whether ``fn`` is a Python function of named parameters (not a builtin, nor ``*args``/``**kwargs``)."""
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return not any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters)


FUNCTIONAL = [op for op in SWEPT if op.name.startswith("nn.functional.") and FOUND[_key(op)] is not None
              and not getattr(op.op, "__module__", "torch.testing").startswith("torch.testing")
              and _named_parameters(op.op)
              and op.name != "nn.functional.triplet_margin_with_distance_loss"]  # (its samples pass torch callables)


@pytest.mark.parametrize("op", FUNCTIONAL, ids=_key)
def test_nn_functional_op_takes_its_arguments_by_keyword(op):
    """``F.conv2d(input=x, weight=w, stride=2)``: core's functions take torch's parameter names."""
    torch.manual_seed(0)
    compared = 0
    for i, sample in enumerate(itertools.islice(op.sample_inputs("cpu", torch.float32), NARROW_SAMPLES)):
        kwargs = _keyword_form(op, sample)
        if kwargs is None:
            continue
        try:
            c_kwargs = to_core(kwargs, [])
        except _Unsupported:
            continue
        compared += 1
        t_out, t_exc = _raised(functools.partial(op.op, **kwargs))
        c_out, c_exc = _raised(functools.partial(FOUND[_key(op)], **c_kwargs))
        if t_exc is not None:
            assert _same_error(t_exc, c_exc), f"sample {i}: torch raised {t_exc!r}; core {c_exc!r}"
            continue
        assert c_exc is None, f"sample {i} by keyword ({list(kwargs)}): core raised {c_exc!r}"
        assert_same(t_out, c_out, f"sample {i} by keyword")
    assert compared, "no sample could be called by keyword"
