"""``core.testing``: ``torch.testing``'s ``assert_close`` and ``make_tensor`` for tests written against PyTorch.

``assert_close`` compares tensors, NumPy arrays, Python numbers, booleans, ``None`` and any nesting of
sequences and mappings of them, with PyTorch's default tolerances per dtype, its attribute checks
(shape, stride, device, dtype) and the gist of its failure messages ("Tensor-likes are not close!",
"Mismatched elements: 1 / 3 (33.3%)", "The failure occurred for item [1]['a']").
``make_tensor`` draws from the same generator calls as PyTorch's, so a seeded call gives torch's values.
"""

import cmath as _cmath
import math as _math
import warnings as _warnings
from collections import abc as _abc

import numpy as _np

import core as _core
from core._user_warning import warn_user as _warn_user

__all__ = ["assert_close", "assert_allclose", "make_tensor"]

# (rtol, atol) per dtype name, as PyTorch's defaults; integer and bool dtypes compare exactly.
_PRECISIONS = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7), "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}
_NUMBER_DTYPES = {int: "int64", float: "float64", complex: "complex128"}


class _Failure(Exception):
    """A comparison failure: the exception type to raise, its message and the item path where it happened."""

    def __init__(self, kind, message, path=()):
        super().__init__(message)
        self.kind, self.message, self.path = kind, message, path

    def to_error(self, msg):
        if isinstance(msg, str):
            return self.kind(msg)
        text = self.message
        if self.path:
            text += f"\n\nThe failure occurred for item {''.join(str([item]) for item in self.path)}"
        return self.kind(msg(text) if callable(msg) else text)


def _tolerances(dtype_names, rtol, atol, path):
    if (rtol is None) != (atol is None):
        raise _Failure(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, "
                                   f"but got no {'rtol' if rtol is None else 'atol'}.", path)
    if rtol is not None:
        return rtol, atol
    pairs = [_PRECISIONS.get(name, (0.0, 0.0)) for name in dtype_names]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _diff_line(kind, diff, index, tol, equality):
    line = (f"{kind.title()} difference: {diff}" if index is None
            else f"Greatest {kind} difference: {diff} at index {index}")
    return line + ("" if equality else f" (up to {tol} allowed)") + "\n"


def _mismatch_message(identifier, extra, abs_diff, abs_index, rel_diff, rel_index, rtol, atol):
    equality = rtol == 0 and atol == 0
    text = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra}\n"
    text += _diff_line("absolute", abs_diff, abs_index, atol, equality)
    text += _diff_line("relative", rel_diff, rel_index, rtol, equality)
    return text.strip()


def _scalar_message(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_message("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, rel_diff, None,
                             rtol, atol)


def _is_number(x):
    return isinstance(x, (int, float, complex, _np.number)) and not isinstance(x, (bool, _np.bool_))


def _compare_numbers(actual, expected, path, opts):
    actual = actual.item() if isinstance(actual, _np.number) else actual
    expected = expected.item() if isinstance(expected, _np.number) else expected
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(x)] for x in (actual, expected)], opts["rtol"], opts["atol"], path)
    if opts["check_dtype"] and type(actual) is not type(expected):
        raise _Failure(AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.", path)
    if actual == expected or (opts["equal_nan"] and _cmath.isnan(actual) and _cmath.isnan(expected)):
        return
    diff = abs(actual - expected)
    if _cmath.isfinite(diff) and diff <= atol + rtol * abs(expected):
        return
    raise _Failure(AssertionError, _scalar_message(actual, expected, rtol, atol), path)


def _check_attributes(actual, expected, path, opts):
    def fail(name, a, e):
        raise _Failure(AssertionError, f"The values for attribute '{name}' do not match: {a} != {e}.", path)

    if actual.shape != expected.shape:
        fail("shape", actual.shape, expected.shape)
    if opts["check_stride"] and actual.stride() != expected.stride():
        fail("stride()", actual.stride(), expected.stride())
    if opts["check_device"] and hasattr(actual, "device") and actual.device != expected.device:
        fail("device", actual.device, expected.device)
    if opts["check_dtype"] and actual.dtype != expected.dtype:
        fail("dtype", actual.dtype, expected.dtype)


def _host_arrays(actual, expected):
    """Both values as host NumPy arrays of one (promoted) dtype."""
    if isinstance(actual, _np.ndarray):
        dtype = _np.promote_types(actual.dtype, expected.dtype)
        return actual.astype(dtype), expected.astype(dtype)
    if actual.dtype != expected.dtype:
        dtype = _core.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(dtype), expected.to(dtype)
    if actual.dtype in (_core.bfloat16, _core.float8_e4m3fn, _core.float8_e5m2):  # numpy() refuses ml_dtypes' types
        return actual.detach().cpu()._data, expected.detach().cpu()._data  # (their differences round as torch's)
    return (_np.asarray(actual.detach().cpu().numpy()), _np.asarray(expected.detach().cpu().numpy()))


def _matches(a, e, rtol, atol, equal_nan):
    if a.dtype.kind in "biu" and rtol == 0 and atol == 0:
        return a == e
    wide_a, wide_e = (a, e) if a.dtype.kind in "fc" else (a.astype(_np.float64), e.astype(_np.float64))
    error = _np.abs(wide_a - wide_e)
    close = (wide_a == wide_e) | (_np.isfinite(error) & (error <= atol + rtol * _np.abs(wide_e)))
    if equal_nan:
        close |= _np.isnan(wide_a) & _np.isnan(wide_e)
    return close


def _tensor_message(a, e, matches, rtol, atol):
    total, bad = matches.size, int(matches.size - _np.count_nonzero(matches))
    extra = f"Mismatched elements: {bad} / {total} ({bad / total:.1%})"
    if a.dtype.kind in "biu":
        a, e = a.astype(_np.int64).ravel(), e.astype(_np.int64).ravel()
        rel_dtype = _np.dtype(str(_core.get_default_dtype()).replace("torch.", ""))
    else:
        a, e, rel_dtype = a.ravel(), e.ravel(), a.dtype
    flat = matches.ravel()
    abs_diff = _np.abs(a - e)
    abs_diff[flat] = 0
    rel_diff = (abs_diff / _np.abs(e)).astype(rel_dtype)
    rel_diff[flat] = 0
    i, j = int(_np.argmax(abs_diff)), int(_np.argmax(rel_diff))
    abs_index, rel_index = (tuple(int(v) for v in _np.unravel_index(k, matches.shape)) for k in (i, j))
    return _mismatch_message("Tensor-likes", extra, abs_diff[i].item(), abs_index, rel_diff[j].item(), rel_index,
                             rtol, atol)


def _compare_tensors(actual, expected, path, opts):
    _check_attributes(actual, expected, path, opts)
    names = [str(x.dtype).replace("torch.", "") for x in (actual, expected)]
    rtol, atol = _tolerances(names, opts["rtol"], opts["atol"], path)
    a, e = _host_arrays(actual, expected)
    with _np.errstate(all="ignore"):
        matches = _matches(a, e, rtol, atol, opts["equal_nan"])
        if matches.all():
            return
        if a.ndim == 0:
            raise _Failure(AssertionError, _scalar_message(a.item(), e.item(), rtol, atol), path)
        raise _Failure(AssertionError, _tensor_message(a, e, matches, rtol, atol), path)


def _is_sequence(x):
    return isinstance(x, _abc.Sequence) and not isinstance(x, str)


def _compare_mappings(actual, expected, path, opts):
    if set(actual) != set(expected):
        missing, extra = sorted(set(expected) - set(actual)), sorted(set(actual) - set(expected))
        text = "The keys of the mappings do not match:\n"
        if missing:
            text += f"Missing keys in the actual mapping: {missing}\n"
        if extra:
            text += f"Additional keys in the actual mapping: {extra}\n"
        raise _Failure(AssertionError, text.strip(), path)
    try:
        keys = sorted(actual)
    except TypeError:
        keys = list(actual)
    for key in keys:
        _compare(actual[key], expected[key], path + (key,), opts)


def _related(actual, expected, opts) -> bool:
    """PyTorch pairs tensors of one type, or (``allow_subclasses``) one an instance of the other's type."""
    if type(actual) is type(expected):
        return True
    return opts["allow_subclasses"] and (isinstance(actual, type(expected)) or isinstance(expected, type(actual)))


def _compare(actual, expected, path, opts):
    if actual is None or expected is None:
        if actual is not expected:
            raise _Failure(AssertionError, f"None mismatch: {actual} is not {expected}", path)
    elif isinstance(actual, (bool, _np.bool_)) and isinstance(expected, (bool, _np.bool_)):
        if bool(actual) is not bool(expected):
            raise _Failure(AssertionError, f"Booleans mismatch: {bool(actual)} is not {bool(expected)}", path)
    elif _is_number(actual) and _is_number(expected):
        _compare_numbers(actual, expected, path, opts)
    elif (all(isinstance(x, _core.Tensor) for x in (actual, expected)) or
          all(isinstance(x, _np.ndarray) for x in (actual, expected))) and _related(actual, expected, opts):
        _compare_tensors(actual, expected, path, opts)
    elif _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Failure(AssertionError, f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                           path)
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, path + (i,), opts)
    elif isinstance(actual, _abc.Mapping) and isinstance(expected, _abc.Mapping):
        _compare_mappings(actual, expected, path, opts)
    else:
        raise _Failure(TypeError, f"No comparison pair was able to handle inputs of type {type(actual)} "
                                  f"and {type(expected)}.", path)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False, check_device=True,
                 check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Assert that ``actual`` and ``expected`` are close, as ``torch.testing.assert_close``.

    Values match when ``|actual - expected| <= atol + rtol * |expected|``; without ``rtol``/``atol`` the
    defaults follow the dtype (float32: 1.3e-6 and 1e-5, float64: 1e-7 and 1e-7, float16: 1e-3 and 1e-5,
    integers and bool: exact). ``msg`` replaces the message, or is called with it when callable.
    """
    opts = dict(rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=check_device, check_dtype=check_dtype,
                check_stride=check_stride, allow_subclasses=allow_subclasses)
    try:
        _compare(actual, expected, (), opts)
    except _Failure as failure:
        raise failure.to_error(msg) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """The deprecated ``torch.testing.assert_allclose``: dtypes may differ and NaNs compare equal."""
    _warn_user("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future release. "
              "Please use `torch.testing.assert_close()` instead. You can find detailed upgrade instructions in "
              "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning)
    if not isinstance(actual, _core.Tensor):
        actual = _core.tensor(actual)
    if not isinstance(expected, _core.Tensor):
        expected = _core.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        names = [str(x.dtype).replace("torch.", "") for x in (actual, expected)]
        rtol, atol = _tolerances(names, None, None, ())
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)


_INTEGERS = ("uint8", "int8", "int16", "int32", "int64")
_FLOATS = ("float16", "float32", "float64")


def _low_high(dtype, low, high, lowest, highest, default_low, default_high):
    """PyTorch's checks and clamping of ``make_tensor``'s ``[low, high)`` for ``dtype``."""
    low = default_low if low is None else low
    high = default_high if high is None else high
    name = str(dtype).replace("torch.", "")
    if any(isinstance(v, float) and _math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low == high and name in _FLOATS:
        _warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or complex types is "
                      "deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
                      FutureWarning, stacklevel=4)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), "
                         f"but {dtype} only supports [{lowest}, {highest})")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if name in _INTEGERS or name == "bool":
        return _math.ceil(low), _math.ceil(high)
    return low, high


def _draw(shape, dtype, device, low, high):
    name = str(dtype).replace("torch.", "")
    if name == "bool":
        low, high = _low_high(dtype, low, high, 0, 2, 0, 2)
        return _core.randint(low, high, shape, device=device, dtype=dtype)
    if name in _INTEGERS:
        info = _core.iinfo(dtype)
        low, high = _low_high(dtype, low, high, info.min, info.max + (name != "int64"), -9, 10)
        return _core.randint(low, high, shape, device=device, dtype=dtype)
    if name in _FLOATS:
        info = _core.finfo(dtype)
        low, high = _low_high(dtype, low, high, info.min, info.max, -9, 9)
        out = _core.empty(shape, device=device, dtype=dtype)
        if high - low >= info.max:
            return out.uniform_(low / 2, high / 2).mul_(2)
        return out.uniform_(low, high)
    raise TypeError(f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor().")


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    """A tensor of ``shape`` filled uniformly from ``[low, high)``, as ``torch.testing.make_tensor``.

    Defaults: floats in [-9, 9), signed integers in [-9, 10), unsigned in [0, 10), bool in [0, 2).
    ``noncontiguous`` returns a strided view; ``exclude_zero`` replaces zeros by 1 (integers) or the
    dtype's smallest normal number (floats).
    """
    if len(shape) == 1 and isinstance(shape[0], _abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    name = str(dtype).replace("torch.", "")
    if noncontiguous and memory_format is not None:
        raise ValueError("The parameters `noncontiguous` and `memory_format` are mutually exclusive, but got "
                         f"noncontiguous={noncontiguous} and memory_format={memory_format}")
    if requires_grad and (name in _INTEGERS or name == "bool"):
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral dtypes, but got "
                         f"dtype={dtype}")
    noncontiguous = noncontiguous and _math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    result = _draw(shape, dtype, device, low, high)
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = 1 if name in _INTEGERS or name == "bool" else _core.finfo(dtype).tiny
    if name in _FLOATS:
        result.requires_grad = requires_grad  # (the attribute, as torch's: allowed inside a torch.func transform)
    return result
